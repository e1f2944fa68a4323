/// What ``ReadWriteTransaction/collectGarbage(_:)`` removes, or would.
public struct GarbageCollection: Equatable, Sendable {
    /// Which kinds of garbage to collect.
    public struct Kinds: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Records no root reaches.
        public static let unreachable = Kinds(rawValue: 1)
        /// References to keys that have no record.
        public static let dangling = Kinds(rawValue: 2)
        /// Rows Apollo never finds: without a key, or with a BLOB key.
        public static let strayRows = Kinds(rawValue: 4)
        public static let all: Kinds = [.unreachable, .dangling, .strayRows]
    }

    /// The records removed, in key order.
    public let removedKeys: [CacheKey]
    /// The references dropped, by holding record in key order.
    public let droppedReferences: [DroppedReferences]
    /// The records the drops left with no field, removed (see
    /// ``ReferenceRepair``), in key order.
    public let emptiedKeys: [CacheKey]
    /// The rows without a key removed, by `_id`.
    public let removedKeylessRowIDs: [Int64]
    /// The rows with a BLOB key removed, by `_id`.
    public let removedBlobKeyRows: [BlobKeyRow]
    /// Records read in the one pass over the table.
    public let recordCount: Int
    /// The `_id`s of the removed records, ascending: they are deleted in
    /// the table's own order, each page of it visited once.
    let removedRowIDs: [Int64]

    /// True when there was nothing to collect.
    public var isEmpty: Bool {
        removedKeys.isEmpty && droppedReferences.isEmpty && emptiedKeys.isEmpty && removedKeylessRowIDs.isEmpty && removedBlobKeyRows.isEmpty
    }

    /// How many stray rows (keyless or BLOB-keyed) go.
    public var removedStrayRowCount: Int { removedKeylessRowIDs.count + removedBlobKeyRows.count }

    /// Whether `other` changes exactly what this does (the records, the
    /// references and the rows), whatever else the file holds.
    public func makesTheSameChanges(as other: GarbageCollection) -> Bool {
        removedKeys == other.removedKeys && droppedReferences == other.droppedReferences && emptiedKeys == other.emptiedKeys
            && removedKeylessRowIDs == other.removedKeylessRowIDs && removedBlobKeyRows == other.removedBlobKeyRows
    }
}

extension ReadTransaction {
    /// What collecting `kinds` of garbage would do, from one pass over the
    /// table; changes nothing.
    public func plannedGarbageCollection(_ kinds: GarbageCollection.Kinds) throws -> GarbageCollection {
        try garbageCollection(kinds, in: try graph()) { try referenceDrops(to: $0, in: $1) }
    }

    func garbageCollection(
        _ kinds: GarbageCollection.Kinds, in graph: CacheGraph,
        drop: (Set<CacheKey>, [CacheKey]) throws -> [DroppedReferences]
    ) throws -> GarbageCollection {
        try checkSoundForRepair(graph, deletingStrayRows: kinds.contains(.strayRows))
        if kinds.contains(.unreachable) {
            // Never guess: with no root, or references nobody can read,
            // "unreachable" could take records that are in use. (An empty
            // cache has nothing to take.)
            guard !graph.rootNodes.isEmpty || graph.recordCount == 0 else { throw CacheStoreError.noRootRecord(path: path) }
            try graph.checkReachabilityIsKnown()
        }
        let removedNodes = kinds.contains(.unreachable) ? graph.unreachableNodes() : []
        // Without QUERY_ROOT (removed by hand, say), "unreachable" is all the
        // query data, which the app's next query reaches again: never guess.
        if !removedNodes.isEmpty, !graph.rootNodes.isEmpty, !graph.containsRecord(.queryRoot) {
            throw CacheStoreError.noQueryRoot(path: path, unreachable: removedNodes.count)
        }
        let removed = graph.sortedKeys(removedNodes)
        var repair = ReferenceRepair(drops: [], emptied: [])
        if kinds.contains(.dangling) {
            // Records about to go need no repair.
            repair = try referenceRepair(to: Set(graph.danglingReferences.map(\.to)), in: graph, sparing: Set(removed), drop: drop)
        }
        let strays = kinds.contains(.strayRows)
        return GarbageCollection(
            removedKeys: removed, droppedReferences: repair.drops, emptiedKeys: repair.emptied,
            removedKeylessRowIDs: strays ? graph.keylessRowIDs.sorted() : [],
            removedBlobKeyRows: strays ? graph.blobKeyRows.sorted { $0.rowID < $1.rowID } : [],
            recordCount: graph.recordCount,
            removedRowIDs: removedNodes.map { graph.rowIDs[Int($0)] }.sorted())
    }
}

extension ReadTransaction {
    /// Throws ``CacheStoreError/damagedFile(path:finding:)`` when the pass
    /// over the table shows the file damaged: what was read of it may be
    /// wrong, and SQLite would refuse the writes or make the damage worse.
    /// Rows without a key are rare in a sound file and common in a damaged
    /// one (cells read from a broken page): before any is deleted, SQLite's
    /// `quick_check` says which it is. A file without them costs nothing more.
    /// A root or a key that references lead to, which the pass did not
    /// find, is looked up in the key index too: a damaged page can hide a
    /// row from the pass (keeping `_id` order), and what only that row
    /// reaches would seem unreachable.
    public func checkSoundForRepair(_ graph: CacheGraph, deletingStrayRows: Bool = false) throws {
        if let orderBreak = graph.rowOrderBreak { throw CacheStoreError.damagedFile(path: path, finding: orderBreak.description) }
        if let duplicate = graph.duplicateKeyRows { throw CacheStoreError.damagedFile(path: path, finding: duplicate.description) }
        for key in graph.missingKeys + CacheKey.roots.filter({ !graph.containsRecord($0) }) where try contains(key) {
            throw CacheStoreError.damagedFile(
                path: path, finding: "the key index holds \(JSONWriter.quoted(key.rawValue)), which no row of a pass over the table has")
        }
        guard deletingStrayRows, !graph.keylessRowIDs.isEmpty || !graph.blobKeyRows.isEmpty else { return }
        let problems = try sqliteIntegrityCheck(full: false)
        guard let first = problems.first else { return }
        let more = problems.count > 1 ? " and \(problems.count - 1) more" : ""
        throw CacheStoreError.damagedFile(path: path, finding: "SQLite quick_check: \(first)\(more)")
    }
}

extension ReadWriteTransaction {
    /// Removes the records no root reaches, drops the references that
    /// dangle (and the records that leaves with no field) and deletes the
    /// stray rows, as `kinds` asks, from one pass over the table.
    /// Everything commits with the transaction, or nothing does.
    @discardableResult
    public func collectGarbage(_ kinds: GarbageCollection.Kinds) throws -> GarbageCollection {
        let plan = try garbageCollection(kinds, in: try graph()) { try dropReferences(to: $0, in: $1) }
        // The rows are those the pass read: the transaction has held the
        // file since. By key, the deletions would hop all over the table.
        try removeRows(plan.removedRowIDs)
        try removeRows(plan.removedKeylessRowIDs + plan.removedBlobKeyRows.map(\.rowID))
        try removeObjects(forKeys: plan.emptiedKeys)
        return plan
    }
}
