internal import GRDB

/// A transaction that may change the cache, for the length of
/// ``CacheStore/write(_:)``. Everything it does commits together when the
/// closure returns, or not at all when it throws.
public final class ReadWriteTransaction: ReadTransaction {
    /// Rows this transaction changed in its own scratch tables (TEMP), which
    /// are no change to the cache: a write that made only these commits no
    /// change, and keeps no backup.
    var scratchChanges = 0

    /// Merges records into the cache field by field, as Apollo does: each
    /// record is loaded, the fields that differ are copied in, and only
    /// records with a changed field are rewritten (with Apollo's upsert, so
    /// the row keeps its `_id`). Fields are never removed.
    ///
    /// Returns the changed fields as `KEY.FIELD` strings, like Apollo's
    /// `RecordSet.merge`. A damaged existing record is not overwritten: the
    /// merge throws ``CacheStoreError/damagedRecord(key:problem:)``.
    @discardableResult
    public func merge(_ records: [Record]) throws -> Set<String> {
        var names: Set<String>? = []
        try merge(records, naming: &names)
        return names ?? []
    }

    /// ``merge(_:)`` that counts what changed instead of naming each field,
    /// for merges too large to list (`import`).
    public func mergeCounting(_ records: [Record]) throws -> MergeCount {
        var names: Set<String>? = nil
        return try merge(records, naming: &names)
    }

    /// The merge itself; with `names`, adds each changed field to it as
    /// `KEY.FIELD`. `counting` hears each record that will be written: its
    /// state before this merge (nil: none) and after; it returns what to
    /// add to the count, by default the change from one to the other.
    /// `beforeWriting` runs once they are counted, before any is written.
    @discardableResult
    func merge(
        _ records: [Record], naming names: inout Set<String>?,
        counting: ((_ key: CacheKey, _ before: Record?, _ after: Record) throws -> MergeCount)? = nil,
        beforeWriting: (() throws -> Void)? = nil
    ) throws -> MergeCount {
        let db = try database()
        if let record = records.first(where: { $0.key.rawValue.utf8.contains(0) }) { throw CacheStoreError.keyHoldsNUL(record.key) }
        let loaded = try self.records(for: records.map(\.key))
        // The state of each key as the merge goes: loaded, or new and empty.
        var working: [CacheKey: Record] = [:]
        var dirty: Set<CacheKey> = []
        var dirtyOrder: [CacheKey] = []
        var count = MergeCount()
        for incoming in records {
            let key = incoming.key
            let changedFields: Int
            if working[key] == nil && loaded[key] == nil {
                // Merged into a new, empty record, every field is a change
                // and the result is the incoming record itself.
                working[key] = incoming
                changedFields = incoming.fields.count
                if names != nil { for field in incoming.fields.keys { names!.insert("\(key.rawValue).\(field)") } }
            } else {
                var current = try working[key] ?? loaded[key]!.get().loadableByApollo()
                let fields = current.merge(incoming)
                working[key] = current
                changedFields = fields.count
                if names != nil { for field in fields { names!.insert("\(key.rawValue).\(field)") } }
            }
            guard changedFields > 0 else { continue }
            if dirty.insert(key).inserted { dirtyOrder.append(key) }
        }
        var toWrite: [CacheKey] = []
        for key in dirtyOrder {
            let merged = working[key]!
            // Counted against the record as it was: two records of the merge
            // that change a field and change it back leave it unchanged, unwritten.
            let before = try loaded[key]?.get()
            let change = MergeCount(from: before, to: merged)
            guard change.added + change.changed > 0 else { continue }
            // A value set or given whole (update --set, --data) can take a record past what Apollo reads.
            guard !merged.nestsTooDeepForApollo else { throw CacheStoreError.recordNestedTooDeep(key: key) }
            count += try counting?(key, before, merged) ?? change
            toWrite.append(key)
        }
        try beforeWriting?()
        let upsert = try db.cachedStatement(sql: Self.upsert)
        for key in toWrite {
            try checkInterrupt()
            try upsert.execute(arguments: [key.rawValue, working[key]!.jsonText])
        }
        return count
    }

    /// Removes the record with exactly this key (case-sensitive), as Apollo's
    /// `removeObject(for:)`. Returns false when there was none. Never
    /// cascades.
    @discardableResult
    public func removeObject(for key: CacheKey) throws -> Bool {
        try removeObjects(forKeys: [key]) > 0
    }

    /// Removes every record whose key matches, as Apollo's
    /// `removeObjects(matching:)` does for the `apollo` mode, with one
    /// DELETE. Returns how many records went. Never cascades.
    @discardableResult
    public func removeObjects(matching pattern: KeyPattern) throws -> Int {
        guard !pattern.matchesNothing else { return 0 }
        let db = try database()
        let condition = pattern.sqlCondition()
        try db.execute(sql: "DELETE FROM records WHERE \(condition.sql)", arguments: StatementArguments(condition.arguments))
        return db.changesCount
    }

    /// Removes every record, as Apollo's `clearCache()`. Returns how many.
    @discardableResult
    public func clear() throws -> Int {
        let db = try database()
        try db.execute(sql: "DELETE FROM records")
        return db.changesCount
    }

    /// Writes a record's raw text as it is, bypassing the merge. For building
    /// test files with damaged rows; `text` may be nil for a NULL column.
    public func unsafeWriteRawRecord(key: CacheKey, text: String?) throws {
        try database().execute(sql: Self.upsert, arguments: [key.rawValue, text])
    }

    /// Apollo's write of one record: its row, replaced in place (keeping
    /// its `_id`) when the key has one, added when not.
    private static let upsert = "INSERT INTO records (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record"
}

/// What a merge changed, counted (see ``ReadWriteTransaction/mergeCounting(_:)``).
public struct MergeCount: Equatable, Sendable {
    /// Records that did not exist and now do.
    public var added = 0
    /// Records that existed and had a field changed.
    public var changed = 0
    /// Fields whose value differs from the one before the merge (every
    /// field of an added record); a field two records of the merge change
    /// counts once, and not at all when the last puts the old value back.
    public var fields = 0

    /// The change from `before` (nil: no record) to `after`, which holds
    /// every field of `before` (a merge never removes one).
    init(from before: Record?, to after: Record) {
        if let before {
            let changedFields = after.fields.count { before.fields[$0.key] != $0.value }
            self.init(changed: changedFields > 0 ? 1 : 0, fields: changedFields)
        } else {
            self.init(added: 1, fields: after.fields.count)
        }
    }

    static func += (lhs: inout MergeCount, rhs: MergeCount) {
        lhs.added += rhs.added
        lhs.changed += rhs.changed
        lhs.fields += rhs.fields
    }

    static func -= (lhs: inout MergeCount, rhs: MergeCount) {
        lhs.added -= rhs.added
        lhs.changed -= rhs.changed
        lhs.fields -= rhs.fields
    }

    public init(added: Int = 0, changed: Int = 0, fields: Int = 0) {
        self.added = added
        self.changed = changed
        self.fields = fields
    }
}
