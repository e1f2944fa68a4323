internal import GRDB

/// The references dropped from one record.
public struct DroppedReferences: Equatable, Sendable {
    public let key: CacheKey
    public let dropped: [ReferencePath]
    /// Whether the record has no field left without them.
    let leavesNoFields: Bool

    init(key: CacheKey, dropped: [ReferencePath], leavesNoFields: Bool = false) {
        self.key = key
        self.dropped = dropped
        self.leavesNoFields = leavesNoFields
    }
}

/// What dropping the references to records that are gone does: the
/// references dropped, and the records those drops leave with no field,
/// which go too (Apollo writes no record without fields, and a
/// reference to one reads nothing), with the references to them.
public struct ReferenceRepair: Equatable, Sendable {
    /// By holding record, in key order.
    public let drops: [DroppedReferences]
    /// The records left with no field, removed, in key order.
    public let emptied: [CacheKey]
}

extension ReadTransaction {
    /// What dropping every reference to `targets` from the records `holders`
    /// would drop, record by record in the order given. Records that hold
    /// none, are damaged or do not exist are left out. Records are loaded
    /// 500 at a time, so memory does not grow with their number.
    public func referenceDrops(to targets: Set<CacheKey>, in holders: [CacheKey]) throws -> [DroppedReferences] {
        try forEachReferenceDrop(to: targets, in: holders) { _, _ in }
    }

    /// Calls `body` with each holder's key and its record's text without the
    /// references, and returns what was dropped. The text is the stored one
    /// with just the dropped fields and elements taken out, so that nothing
    /// else in the record is written afresh (see
    /// ``JSONReader/recordText(_:removing:)``).
    func forEachReferenceDrop(
        to targets: Set<CacheKey>, in holders: [CacheKey], _ body: (CacheKey, [UInt8]) throws -> Void
    ) throws -> [DroppedReferences] {
        var drops: [DroppedReferences] = []
        for start in stride(from: 0, to: holders.count, by: 500) {
            let batch = Array(holders[start..<min(start + 500, holders.count)])
            var edits: [CacheKey: (text: [UInt8], dropped: [ReferencePath], empty: Bool)] = [:]
            try forEachBatch(of: batch.uniqued(), sql: { "SELECT key, record FROM records WHERE key IN (\($0))" }) { handle in
                while try Self.step(handle) {
                    guard let key = Self.key(handle, column: 0), let text = Self.column(handle, 1),
                        let record = try? Record(key: key, utf8: text, fields: nil)
                    else { continue }  // damaged: nothing to drop from
                    let (kept, dropped) = record.droppingReferences(to: targets)
                    guard !dropped.isEmpty else { continue }
                    edits[key] = (Self.text(of: kept, from: text, without: dropped), dropped, kept.fields.isEmpty)
                }
            }
            for key in batch {
                guard let edit = edits.removeValue(forKey: key) else { continue }
                try body(key, edit.text)
                drops.append(DroppedReferences(key: key, dropped: edit.dropped, leavesNoFields: edit.empty))
            }
        }
        return drops
    }

    /// What ``ReadWriteTransaction/repairReferences(to:in:sparing:)``
    /// would do; changes nothing.
    public func plannedReferenceRepair(to targets: Set<CacheKey>, in graph: CacheGraph, sparing: Set<CacheKey> = []) throws -> ReferenceRepair {
        try referenceRepair(to: targets, in: graph, sparing: sparing) { try referenceDrops(to: $0, in: $1) }
    }

    /// The references to `targets` dropped through `drop` (which plans or
    /// writes) from the records of `graph` that hold them, `sparing` those
    /// about to go; then, round by round, the references to the records
    /// those drops leave with no field. Each round drops the references
    /// to every target so far: planned, a holder is read as it is stored,
    /// and written, as the round before left it, and both end alike.
    func referenceRepair(
        to targets: Set<CacheKey>, in graph: CacheGraph, sparing: Set<CacheKey>,
        drop: (Set<CacheKey>, [CacheKey]) throws -> [DroppedReferences]
    ) throws -> ReferenceRepair {
        var targets = targets
        var emptied: Set<CacheKey> = []
        var drops: [CacheKey: DroppedReferences] = [:]
        func holders(_ references: [ReferenceLocation]) -> [CacheKey] {
            var holders: [CacheKey] = []
            for reference in references where holders.last != reference.from && !sparing.contains(reference.from)
                && !emptied.contains(reference.from) {
                holders.append(reference.from)
            }
            return holders
        }
        var round = holders(graph.references(to: targets))
        while !round.isEmpty {
            var newlyEmptied: Set<CacheKey> = []
            for found in try drop(targets, round) {
                let earlier = drops[found.key]?.dropped ?? []
                drops[found.key] = DroppedReferences(
                    key: found.key, dropped: earlier + found.dropped.filter { !earlier.contains($0) }, leavesNoFields: found.leavesNoFields)
                if found.leavesNoFields { newlyEmptied.insert(found.key) }
            }
            newlyEmptied.subtract(targets)
            emptied.formUnion(newlyEmptied)
            targets.formUnion(newlyEmptied)
            round = newlyEmptied.isEmpty ? [] : holders(graph.references(to: newlyEmptied))
        }
        return ReferenceRepair(
            drops: drops.values.sorted { $0.key < $1.key }, emptied: emptied.sorted())
    }

    /// The text of `kept`: the stored `text` without `dropped`, when taking
    /// them out of it gives exactly `kept`; otherwise `kept` written afresh.
    static func text(of kept: Record, from text: UnsafeBufferPointer<UInt8>, without dropped: [ReferencePath]) -> [UInt8] {
        guard let edited = JSONReader.recordText(text, removing: RemovalTree(removing: dropped)),
            (try? edited.withUnsafeBufferPointer { try JSONReader.parseRecordFields(utf8: $0, only: nil) }) == kept.fields
        else { return Array(kept.jsonText.utf8) }
        return edited
    }
}

extension ReadWriteTransaction {
    /// Drops every reference to `targets` from the records `holders` (a field
    /// that is one goes, a list element that is one goes) and rewrites those
    /// records in place. Returns what was dropped.
    @discardableResult
    public func dropReferences(to targets: Set<CacheKey>, in holders: [CacheKey]) throws -> [DroppedReferences] {
        // The key bound with its length, as in removeObjects(forKeys:).
        let handle = try database().cachedStatement(sql: "UPDATE records SET record = ?2 WHERE key = ?1").sqliteStatement
        return try forEachReferenceDrop(to: targets, in: holders) { key, text in
            try checkInterrupt()
            try Self.stepping(handle, binding: [key]) {
                try text.withUnsafeBufferPointer { try Self.bind(utf8: $0, to: handle, at: 2) }
                _ = try Self.step(handle)
            }
        }
    }

    /// Drops every reference to `targets` from the records of `graph` that
    /// hold them, `sparing` those about to go, and removes the records
    /// that are left with no field, dropping the references to them too.
    @discardableResult
    public func repairReferences(to targets: Set<CacheKey>, in graph: CacheGraph, sparing: Set<CacheKey> = []) throws -> ReferenceRepair {
        let repair = try referenceRepair(to: targets, in: graph, sparing: sparing) { try dropReferences(to: $0, in: $1) }
        try removeObjects(forKeys: repair.emptied)
        return repair
    }

    /// Deletes the rows with these `_id`s, 500 a statement, in the order
    /// given; says how many went.
    @discardableResult
    func removeRows(_ rowIDs: [Int64]) throws -> Int {
        try deleteRows(where: "_id", in: rowIDs)
    }

    /// Removes the records with exactly these keys, 500 keys a DELETE (each
    /// found through the key index). Returns how many there were. Keys are
    /// bound with their length, so that one holding a NUL (a file written by
    /// other code can have one) is not cut short into another key.
    @discardableResult
    public func removeObjects(forKeys keys: [CacheKey]) throws -> Int {
        try deleteRows(where: "key", in: keys)
    }

    /// Deletes the rows whose `column` holds one of `values`, 500 a
    /// statement; says how many went.
    private func deleteRows<Value: StatementParameter>(where column: String, in values: [Value]) throws -> Int {
        let db = try database()
        var removed = 0
        try forEachBatch(of: values, sql: { "DELETE FROM records WHERE \(column) IN (\($0))" }) { handle in
            _ = try Self.step(handle)
            removed += db.changesCount
        }
        return removed
    }
}
