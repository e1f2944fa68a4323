import Foundation

/// Where a cache's records and bytes go, from one pass over the table.
public struct CacheStatistics: Equatable, Sendable {
    /// Records and bytes of JSON text under one name.
    public struct Group: Equatable, Sendable {
        /// The `__typename`, key prefix or root field; nil for records
        /// without a `__typename`.
        public let name: String?
        public let records: Int
        public let bytes: Int
    }

    /// The records first reached through one field of a root record.
    public struct RootField: Equatable, Sendable {
        public let root: CacheKey
        /// The field name, without arguments (`user` for `user(id:2)`).
        public let field: String
        /// How many field cache keys of the root have that name (`user(id:1)`, `user(id:2)`, …).
        public let fieldKeys: Int
        public let records: Int
        public let bytes: Int
    }

    public let recordCount: Int
    public let totalBytes: Int
    public let damagedCount: Int
    /// Rows whose key is NULL, and rows whose key is a BLOB: no record,
    /// and not counted in any list.
    public let keylessRowCount: Int
    public let blobKeyRowCount: Int
    /// Rows met out of `_id` order: the file is damaged, and the figures
    /// may be wrong (``CacheGraph/rowOrderBreak``).
    public let rowOrderBreak: RowOrderBreak?
    /// Per `__typename`, most bytes first; damaged records are left out.
    public let byTypename: [Group]
    /// Per root field, most bytes first: each record reachable from a root
    /// counts once, for the field that reaches it in the fewest steps
    /// (ties: the root in Apollo's order, then the field's place in the record).
    public let byRootField: [RootField]
    /// Records reachable from no root.
    public let unreachable: Group
    /// Per key prefix (`User:*`, `User:*.*` for path keys under `User:` keys,
    /// `QUERY_ROOT.*`), most bytes first; a nil name groups the keys with no
    /// prefix (no `:` and not under a root).
    public let byKeyPrefix: [Group]
    /// Records keyed by path (`QUERY_ROOT.reviews(…).0`, `Droid:2001.friendsConnection(…)`).
    public let pathKeyedCount: Int
    /// The largest records, by bytes of JSON text.
    public let largest: [RecordSize]
    public let pages: PageStatistics
}

extension ReadTransaction {
    /// Counts and sizes of the cache's records from one pass over the table,
    /// with the `largest` biggest records.
    public func statistics(largest: Int) throws -> CacheStatistics {
        let pages = try pageStatistics()
        return try graph().statistics(largest: largest, pages: pages)
    }
}

extension CacheGraph {
    /// `splitFrom`: the number of nodes from which the per-record sums
    /// are worked out in two halves at once (tests set it to compare).
    func statistics(largest limit: Int, pages: PageStatistics, splitFrom: Int = 1 << 16) -> CacheStatistics {
        let typeCount = typenameTable.count
        let reachedBy = rootFieldOwners()
        // Every record a root reaches is a root or is owned by a root field.
        var isRoot = [Bool](repeating: false, count: nodeCount)
        for root in rootNodes { isRoot[Int(root)] = true }
        // The per-record sums, the key prefixes most of all, in two halves
        // at once on a large cache, then added up.
        let all = 0..<Int32(nodeCount)
        var sums: Tally
        if nodeCount >= splitFrom {
            let middle = Int32(nodeCount / 2)
            let graph = self
            let owner = reachedBy.owner, groups = reachedBy.groups.count, roots = isRoot
            let (first, second) = bothAtOnce(
                { graph.tally(0..<middle, typeCount: typeCount, owner: owner, groups: groups, isRoot: roots, largest: limit) },
                { tally(middle..<all.upperBound, typeCount: typeCount, owner: owner, groups: groups, isRoot: roots, largest: limit) })
            sums = first
            sums.add(second, goesBefore: largerFirst)
        } else {
            sums = tally(all, typeCount: typeCount, owner: reachedBy.owner, groups: reachedBy.groups.count, isRoot: isRoot, largest: limit)
        }
        let typeRecords = sums.typeRecords, typeBytes = sums.typeBytes
        let prefixTable = sums.prefixTable, prefixRecords = sums.prefixRecords, prefixBytes = sums.prefixBytes
        let ownerRecords = sums.ownerRecords, ownerBytes = sums.ownerBytes
        let unreachable = sums.unreachable, pathKeyed = sums.pathKeyed, largest = sums.largest.largest(largerFirst)
        func byBytes(_ lhs: CacheStatistics.Group, _ rhs: CacheStatistics.Group) -> Bool {
            if lhs.bytes != rhs.bytes { return lhs.bytes > rhs.bytes }
            return byteOrder(lhs.name ?? "", rhs.name ?? "")
        }
        let types = (0...typeCount).filter { typeRecords[$0] > 0 }.map {
            CacheStatistics.Group(
                name: $0 < typeCount ? typenameTable.string(Int32($0)) : nil, records: typeRecords[$0], bytes: typeBytes[$0])
        }
        let prefixes = (0..<prefixRecords.count).map {
            let name = prefixTable.string(Int32($0))
            return CacheStatistics.Group(name: name.isEmpty ? nil : name, records: prefixRecords[$0], bytes: prefixBytes[$0])
        }
        let rootFields = reachedBy.groups.enumerated().map { index, group in
            CacheStatistics.RootField(
                root: group.root, field: group.field, fieldKeys: group.fieldKeys, records: ownerRecords[index], bytes: ownerBytes[index])
        }.sorted { lhs, rhs in
            if lhs.bytes != rhs.bytes { return lhs.bytes > rhs.bytes }
            return (lhs.root.rawValue, lhs.field) < (rhs.root.rawValue, rhs.field)
        }
        return CacheStatistics(
            recordCount: recordCount, totalBytes: totalBytes, damagedCount: damagedRecords.count,
            keylessRowCount: keylessRowIDs.count, blobKeyRowCount: blobKeyRows.count, rowOrderBreak: rowOrderBreak,
            byTypename: types.sorted(by: byBytes), byRootField: rootFields,
            unreachable: CacheStatistics.Group(name: nil, records: unreachable.records, bytes: unreachable.bytes),
            byKeyPrefix: prefixes.sorted(by: byBytes),
            pathKeyedCount: pathKeyed,
            largest: largest.map { RecordSize(key: key($0.node), bytes: $0.bytes) },
            pages: pages)
    }

    /// Sums over some of the nodes, for ``statistics(largest:pages:)``.
    struct Tally {
        var typeRecords: [Int]
        var typeBytes: [Int]
        var prefixTable = KeyTable()
        var prefixRecords: [Int] = []
        var prefixBytes: [Int] = []
        var pathKeyed = 0
        /// Most bytes first; ties in key order (``CacheGraph/largerFirst(_:_:)``).
        var largest: TopRecords
        var ownerRecords: [Int]
        var ownerBytes: [Int]
        var unreachable = (records: 0, bytes: 0)

        /// Adds the sums of nodes that all come after this tally's.
        mutating func add(_ other: Tally, goesBefore: (TopRecords.Entry, TopRecords.Entry) -> Bool) {
            for type in typeRecords.indices {
                typeRecords[type] += other.typeRecords[type]
                typeBytes[type] += other.typeBytes[type]
            }
            for prefix in 0..<other.prefixRecords.count {
                let number = other.prefixTable.withBytes(Int32(prefix)) { Int(prefixTable.insert($0)) }
                if number == prefixRecords.count {
                    prefixRecords.append(0)
                    prefixBytes.append(0)
                }
                prefixRecords[number] += other.prefixRecords[prefix]
                prefixBytes[number] += other.prefixBytes[prefix]
            }
            pathKeyed += other.pathKeyed
            for group in ownerRecords.indices {
                ownerRecords[group] += other.ownerRecords[group]
                ownerBytes[group] += other.ownerBytes[group]
            }
            unreachable.records += other.unreachable.records
            unreachable.bytes += other.unreachable.bytes
            largest.add(other.largest, goesBefore: goesBefore)
        }
    }

    /// The order of the largest records, as `info` and `stats` list them:
    /// most bytes first; among equal sizes, by key in byte order (not the
    /// first rows met, which made the two commands list different ones).
    func largerFirst(_ entry: TopRecords.Entry, _ other: TopRecords.Entry) -> Bool {
        entry.bytes != other.bytes ? entry.bytes > other.bytes : keyTable.precedes(entry.node, other.node)
    }

    func tally(
        _ nodes: Range<Int32>, typeCount: Int, owner: [Int32], groups: Int, isRoot: [Bool], largest limit: Int
    ) -> Tally {
        var tally = Tally(
            typeRecords: [Int](repeating: 0, count: typeCount + 1), typeBytes: [Int](repeating: 0, count: typeCount + 1),
            largest: TopRecords(limit: limit),
            ownerRecords: [Int](repeating: 0, count: groups), ownerBytes: [Int](repeating: 0, count: groups))
        for node in nodes where states[Int(node)] != .missing {
            let index = Int(node)
            let bytes = Int(sizes[index])
            if states[index] == .record {
                let type = typenameOf[index] < 0 ? typeCount : Int(typenameOf[index])
                tally.typeRecords[type] += 1
                tally.typeBytes[type] += bytes
            }
            let prefix = withKeyPrefix(node) { label, isPath in
                if isPath { tally.pathKeyed += 1 }
                return Int(tally.prefixTable.insert(label))
            }
            if prefix == tally.prefixRecords.count {
                tally.prefixRecords.append(0)
                tally.prefixBytes.append(0)
            }
            tally.prefixRecords[prefix] += 1
            tally.prefixBytes[prefix] += bytes
            if owner[index] >= 0 {
                tally.ownerRecords[Int(owner[index])] += 1
                tally.ownerBytes[Int(owner[index])] += bytes
            } else if !isRoot[index] {
                tally.unreachable.records += 1
                tally.unreachable.bytes += bytes
            }
            tally.largest.offer((node, bytes), goesBefore: largerFirst)
        }
        return tally
    }

    private static let rootNames = CacheKey.roots.map { Array($0.rawValue.utf8) }

    private static func isRootName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Most keys differ from every root in their length.
        rootNames.contains { name in
            name.count == bytes.count && name.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
        }
    }

    /// Calls `body` with the display prefix of a node's key, and whether it
    /// is a path key: `User:*` for `User:1`, `User:*.*` for
    /// `User:1.avatar(size:64)`, `QUERY_ROOT.*` for `QUERY_ROOT.reviews(…).0`,
    /// a root for itself. Called for every record, so it copies bytes, not arrays.
    func withKeyPrefix<T>(_ node: Int32, _ body: (_ prefix: UnsafeBufferPointer<UInt8>, _ isPath: Bool) -> T) -> T {
        keyTable.withBytes(node) { key in
            // The prefix is the key's first `kept` bytes and then `suffix`.
            let (kept, suffix, isPath) = prefixParts(of: key)
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: kept + suffix.utf8CodeUnitCount) { buffer in
                if kept > 0 { buffer.baseAddress!.update(from: key.baseAddress!, count: kept) }
                if suffix.utf8CodeUnitCount > 0 {
                    (buffer.baseAddress! + kept).update(from: suffix.utf8Start, count: suffix.utf8CodeUnitCount)
                }
                return body(UnsafeBufferPointer(buffer), isPath)
            }
        }
    }

    private func prefixParts(of key: UnsafeBufferPointer<UInt8>) -> (kept: Int, suffix: StaticString, isPath: Bool) {
        if Self.isRootName(key) { return (key.count, "", false) }
        if let dot = key.firstIndex(of: UInt8(ascii: ".")) {
            let parent = UnsafeBufferPointer(rebasing: key[..<dot])
            if Self.isRootName(parent) { return (dot, ".*", true) }
            if keyTable.find(parent) != nil {
                if let colon = parent.firstIndex(of: UInt8(ascii: ":")) { return (colon, ":*.*", true) }
                return (0, "*.*", true)
            }
        }
        if let colon = key.firstIndex(of: UInt8(ascii: ":")) { return (colon, ":*", false) }
        return (0, "", false)  // no prefix: the empty name, a group of its own
    }

    /// Which root field reaches each record first, breadth-first from every
    /// root field at once; -1 for records no root field reaches.
    func rootFieldOwners() -> (owner: [Int32], groups: [(root: CacheKey, field: String, fieldKeys: Int)]) {
        var owner = [Int32](repeating: -1, count: nodeCount)
        var groups: [(root: CacheKey, field: String, fieldKeys: Int)] = []
        var groupNumbers: [String: Int] = [:]
        var queue: [Int32] = []
        let roots = rootNodes
        var isRoot = [Bool](repeating: false, count: nodeCount)
        for root in roots { isRoot[Int(root)] = true }
        for root in roots {
            var seenFields: Set<Int32> = []
            for edge in edges(of: root) {
                let field = fieldTable.string(edgeFields[edge])
                let base = field.utf8.firstIndex(of: UInt8(ascii: "(")).map { String(field[..<$0]) } ?? field
                let name = key(root).rawValue + "." + base
                let group: Int
                if let number = groupNumbers[name] {
                    group = number
                } else {
                    group = groups.count
                    groupNumbers[name] = group
                    groups.append((key(root), base, 0))
                }
                if seenFields.insert(edgeFields[edge]).inserted { groups[group].fieldKeys += 1 }
                let target = edgeTargets[edge]
                guard !isRoot[Int(target)], owner[Int(target)] < 0, states[Int(target)] != .missing else { continue }
                owner[Int(target)] = Int32(group)
                queue.append(target)
            }
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            let group = owner[Int(node)]
            head += 1
            for edge in edges(of: node) {
                let target = edgeTargets[edge]
                // Most targets are owned already: that test first, one memory fetch.
                guard owner[Int(target)] < 0, !isRoot[Int(target)], states[Int(target)] != .missing else { continue }
                owner[Int(target)] = group
                queue.append(target)
            }
        }
        return (owner, groups)
    }
}
