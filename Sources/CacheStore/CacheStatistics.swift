import Foundation

/// Where a cache's records and bytes go, from one pass over the table.
public struct CacheStatistics: Sendable {
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
    /// Per `__typename`, most bytes first; damaged records are left out.
    public let byTypename: [Group]
    /// Per root field, most bytes first: each record reachable from a root
    /// counts once, for the field that reaches it in the fewest steps
    /// (ties: the root in Apollo's order, then the field's place in the record).
    public let byRootField: [RootField]
    /// Records reachable from no root.
    public let unreachable: Group
    /// Per key prefix (`User:*`, `User:*.*` for path keys under `User:` keys,
    /// `QUERY_ROOT.*`), most bytes first.
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
    func statistics(largest limit: Int, pages: PageStatistics) -> CacheStatistics {
        let typeCount = typenameTable.count
        var typeRecords = [Int](repeating: 0, count: typeCount + 1)
        var typeBytes = [Int](repeating: 0, count: typeCount + 1)
        var prefixTable = KeyTable()
        var prefixRecords: [Int] = []
        var prefixBytes: [Int] = []
        var pathKeyed = 0
        var largest: [(node: Int32, bytes: Int)] = []
        let reachedBy = rootFieldOwners()
        var ownerRecords = [Int](repeating: 0, count: reachedBy.groups.count)
        var ownerBytes = [Int](repeating: 0, count: reachedBy.groups.count)
        var unreachable = (records: 0, bytes: 0)
        // Every record a root reaches is a root or is owned by a root field.
        var isRoot = [Bool](repeating: false, count: nodeCount)
        for root in rootNodes { isRoot[Int(root)] = true }
        for node in 0..<Int32(nodeCount) where states[Int(node)] != .missing {
            let index = Int(node)
            let bytes = Int(sizes[index])
            if states[index] == .record {
                let type = typenameOf[index] < 0 ? typeCount : Int(typenameOf[index])
                typeRecords[type] += 1
                typeBytes[type] += bytes
            }
            let prefix = withKeyPrefix(node) { label, isPath in
                if isPath { pathKeyed += 1 }
                return Int(prefixTable.insert(label))
            }
            if prefix == prefixRecords.count {
                prefixRecords.append(0)
                prefixBytes.append(0)
            }
            prefixRecords[prefix] += 1
            prefixBytes[prefix] += bytes
            if reachedBy.owner[index] >= 0 {
                ownerRecords[Int(reachedBy.owner[index])] += 1
                ownerBytes[Int(reachedBy.owner[index])] += bytes
            } else if !isRoot[index] {
                unreachable.records += 1
                unreachable.bytes += bytes
            }
            // Ties keep the first in row order; the list is sorted by key at the end.
            if limit > 0 && (largest.count < limit || bytes > largest[largest.count - 1].bytes) {
                if largest.count == limit { largest.removeLast() }
                let at = largest.firstIndex { bytes > $0.bytes } ?? largest.count
                largest.insert((node, bytes), at: at)
            }
        }
        func byBytes(_ lhs: CacheStatistics.Group, _ rhs: CacheStatistics.Group) -> Bool {
            if lhs.bytes != rhs.bytes { return lhs.bytes > rhs.bytes }
            return byteOrder(lhs.name ?? "", rhs.name ?? "")
        }
        let types = (0...typeCount).filter { typeRecords[$0] > 0 }.map {
            CacheStatistics.Group(
                name: $0 < typeCount ? typenameTable.string(Int32($0)) : nil, records: typeRecords[$0], bytes: typeBytes[$0])
        }
        let prefixes = (0..<prefixRecords.count).map {
            CacheStatistics.Group(name: prefixTable.string(Int32($0)), records: prefixRecords[$0], bytes: prefixBytes[$0])
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
            byTypename: types.sorted(by: byBytes), byRootField: rootFields,
            unreachable: CacheStatistics.Group(name: nil, records: unreachable.records, bytes: unreachable.bytes),
            byKeyPrefix: prefixes.sorted(by: byBytes),
            pathKeyedCount: pathKeyed,
            largest: largest.map { RecordSize(key: key($0.node), bytes: $0.bytes) }.sorted {
                $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.key < $1.key
            },
            pages: pages)
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
        return (0, "(no prefix)", false)
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
