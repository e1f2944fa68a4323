internal import GRDB

/// One merge given in batches (an import of a million records), counted
/// as one: against the records as they were before the first batch, so a
/// record that a later batch changes again, or changes back, counts once
/// or not at all, as `diff` of the file before and after would say.
///
/// Memory holds the keys written so far. The records as they were are kept
/// in a TEMP table, and only those a batch rewrites: a record new to the
/// cache needs none, and one no batch has written is still as it was.
public struct BatchedMerge: Sendable {
    /// What the batches so far changed, against the records before the first.
    public fileprivate(set) var count = MergeCount()
    /// Each key written so far, and whether it had no record before the first batch.
    fileprivate var written: [CacheKey: Bool] = [:]
    fileprivate var holdsOriginals = false

    public init() {}

    fileprivate static let table = "gqlcache_merge_originals"
}

extension ReadWriteTransaction {
    /// Merges one batch of `merge` as ``mergeCounting(_:)`` merges, adding
    /// what it changes to `merge.count`. ``endBatchedMerge(_:)`` ends it.
    public func mergeCounting(_ records: [Record], across merge: inout BatchedMerge) throws {
        let db = try database()
        // Records an earlier batch rewrote, as they were before the first.
        let rewrittenKeys = records.map(\.key).filter { merge.written[$0] == false }.uniqued()
        var originals: [CacheKey: Record] = [:]
        try forEachBatch(of: rewrittenKeys, sql: { "SELECT key, record FROM temp.\(BatchedMerge.table) WHERE key IN (\($0))" }) { handle in
            while try Self.step(handle) {
                guard let key = Self.key(handle, column: 0) else { continue }
                originals[key] = try Self.record(key, column: 1, of: handle, fields: nil)
            }
        }
        if !merge.holdsOriginals {
            try db.execute(sql: "DROP TABLE IF EXISTS temp.\(BatchedMerge.table)")
            try db.execute(sql: "CREATE TEMP TABLE \(BatchedMerge.table) (key TEXT PRIMARY KEY, record TEXT)")
            merge.holdsOriginals = true
        }
        var names: Set<String>? = nil
        var written = merge.written
        defer { merge.written = written }
        // Records about to change for the first time, kept as they were.
        var firstChanged: [CacheKey] = []
        merge.count += try self.merge(records, naming: &names, counting: { key, before, after in
            let original: Record?
            var counted = MergeCount()
            if let hadNoRecord = written[key] {
                original = hadNoRecord ? nil : originals[key]
                // What earlier batches counted for it: their change from the original.
                if let before { counted = MergeCount(from: original, to: before) }
            } else {
                original = before
                written[key] = before == nil
                if before != nil { firstChanged.append(key) }
            }
            var change = MergeCount(from: original, to: after)
            change -= counted
            return change
        }, beforeWriting: {
            let keep = "INSERT OR IGNORE INTO temp.\(BatchedMerge.table) (key, record) SELECT key, record FROM main.records WHERE key IN"
            try self.forEachBatch(of: firstChanged, sql: { "\(keep) (\($0))" }) { handle in
                _ = try Self.step(handle)
                self.scratchChanges += db.changesCount
            }
        })
    }

    /// Ends a merge in batches: drops what it kept of the records as they were.
    public func endBatchedMerge(_ merge: inout BatchedMerge) throws {
        guard merge.holdsOriginals else { return }
        try database().execute(sql: "DROP TABLE IF EXISTS temp.\(BatchedMerge.table)")
        merge.holdsOriginals = false
    }
}
