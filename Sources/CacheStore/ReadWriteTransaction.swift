internal import GRDB

/// A transaction that may change the cache, for the length of
/// ``CacheStore/write(_:)``. Everything it does commits together when the
/// closure returns, or not at all when it throws.
public final class ReadWriteTransaction: ReadTransaction {
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
        let db = try database()
        if let record = records.first(where: { $0.key.rawValue.utf8.contains(0) }) { throw CacheStoreError.keyHoldsNUL(record.key) }
        let loaded = try self.records(for: records.map(\.key))
        // The state of each key as the merge goes: loaded, or new and empty.
        var working: [CacheKey: Record] = [:]
        var dirty: Set<CacheKey> = []
        var dirtyOrder: [CacheKey] = []
        var changed: Set<String> = []
        for incoming in records {
            var current = try working[incoming.key]
                ?? loaded[incoming.key]?.get()
                ?? Record(key: incoming.key, fields: [:])
            let fields = current.merge(incoming)
            working[incoming.key] = current
            guard !fields.isEmpty else { continue }
            if dirty.insert(incoming.key).inserted { dirtyOrder.append(incoming.key) }
            for field in fields { changed.insert("\(incoming.key.rawValue).\(field)") }
        }
        let upsert = try db.cachedStatement(
            sql: "INSERT INTO records (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record")
        for key in dirtyOrder {
            try checkInterrupt()
            try upsert.execute(arguments: [key.rawValue, working[key]!.jsonText])
        }
        return changed
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

    /// ``removeObjects(matching:)`` that also says which keys went.
    @discardableResult
    public func removeObjectsReturningKeys(matching pattern: KeyPattern) throws -> [CacheKey] {
        guard !pattern.matchesNothing else { return [] }
        let condition = pattern.sqlCondition()
        let keys = try String.fetchCursor(
            try database(), sql: "DELETE FROM records WHERE \(condition.sql) RETURNING key",
            arguments: StatementArguments(condition.arguments))
        var removed: [CacheKey] = []
        while let key = try keys.next() { removed.append(CacheKey(key)) }
        return removed
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
        try database().execute(
            sql: "INSERT INTO records (key, record) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET record = excluded.record",
            arguments: [key.rawValue, text])
    }
}
