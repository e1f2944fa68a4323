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
        var typeRecords = [Int](repeating: 0, count: typenames.count + 1)
        var typeBytes = [Int](repeating: 0, count: typenames.count + 1)
        var prefixes: [String: (records: Int, bytes: Int)] = [:]
        var pathKeyed = 0
        var largest: [RecordSize] = []
        let reachedBy = rootFieldOwners()
        var ownerRecords = [Int](repeating: 0, count: reachedBy.groups.count)
        var ownerBytes = [Int](repeating: 0, count: reachedBy.groups.count)
        var unreachable = (records: 0, bytes: 0)
        let reached = reachedFromRoots()
        for node in 0..<keys.count where states[node] != .missing {
            let bytes = Int(sizes[node])
            if states[node] == .record {
                let type = typenameOf[node] < 0 ? typenames.count : Int(typenameOf[node])
                typeRecords[type] += 1
                typeBytes[type] += bytes
            }
            let (prefix, isPath) = keyPrefix(keys[node])
            if isPath { pathKeyed += 1 }
            prefixes[prefix, default: (0, 0)].records += 1
            prefixes[prefix, default: (0, 0)].bytes += bytes
            if reachedBy.owner[node] >= 0 {
                ownerRecords[Int(reachedBy.owner[node])] += 1
                ownerBytes[Int(reachedBy.owner[node])] += bytes
            } else if !reached[node] {
                unreachable.records += 1
                unreachable.bytes += bytes
            }
            if limit > 0 && (largest.count < limit || Self.isLarger(bytes, keys[node], than: largest[largest.count - 1])) {
                if largest.count == limit { largest.removeLast() }
                let entry = RecordSize(key: CacheKey(keys[node]), bytes: bytes)
                let index = largest.firstIndex { Self.isLarger(bytes, keys[node], than: $0) } ?? largest.count
                largest.insert(entry, at: index)
            }
        }
        func byBytes(_ lhs: CacheStatistics.Group, _ rhs: CacheStatistics.Group) -> Bool {
            if lhs.bytes != rhs.bytes { return lhs.bytes > rhs.bytes }
            return byteOrder(lhs.name ?? "", rhs.name ?? "")
        }
        let types = (0...typenames.count).filter { typeRecords[$0] > 0 }.map {
            CacheStatistics.Group(name: $0 < typenames.count ? typenames[$0] : nil, records: typeRecords[$0], bytes: typeBytes[$0])
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
            byKeyPrefix: prefixes.map { CacheStatistics.Group(name: $0.key, records: $0.value.records, bytes: $0.value.bytes) }
                .sorted(by: byBytes),
            pathKeyedCount: pathKeyed, largest: largest, pages: pages)
    }

    private static func isLarger(_ bytes: Int, _ key: String, than other: RecordSize) -> Bool {
        bytes != other.bytes ? bytes > other.bytes : byteOrder(key, other.key.rawValue)
    }

    /// The display prefix of a key, and whether it is a path key: `User:*`
    /// for `User:1`, `User:*.*` for `User:1.avatar(size:64)`,
    /// `QUERY_ROOT.*` for `QUERY_ROOT.reviews(…).0`, a root for itself.
    func keyPrefix(_ key: String) -> (String, isPath: Bool) {
        if CacheKey(key).isRoot { return (key, false) }
        if let dot = key.utf8.firstIndex(of: UInt8(ascii: ".")) {
            let parent = String(key[..<dot])
            if CacheKey(parent).isRoot { return (parent + ".*", true) }
            if nodes[parent] != nil {
                let base = parent.utf8.firstIndex(of: UInt8(ascii: ":")).map { String(parent[..<$0]) + ":*" } ?? "*"
                return (base + ".*", true)
            }
        }
        if let colon = key.utf8.firstIndex(of: UInt8(ascii: ":")) { return (String(key[..<colon]) + ":*", false) }
        return ("(no prefix)", false)
    }

    /// Which root field reaches each record first, breadth-first from every
    /// root field at once; -1 for records no root field reaches.
    func rootFieldOwners() -> (owner: [Int32], groups: [(root: CacheKey, field: String, fieldKeys: Int)]) {
        var owner = [Int32](repeating: -1, count: keys.count)
        var groups: [(root: CacheKey, field: String, fieldKeys: Int)] = []
        var groupNumbers: [String: Int] = [:]
        var queue: [Int32] = []
        let roots = rootNodes
        let isRoot = Set(roots)
        for root in roots {
            var seenFields: Set<Int32> = []
            for edge in edges(of: root) {
                let field = fields[Int(edgeFields[edge])]
                let base = field.utf8.firstIndex(of: UInt8(ascii: "(")).map { String(field[..<$0]) } ?? field
                let name = keys[Int(root)] + "." + base
                let group: Int
                if let number = groupNumbers[name] {
                    group = number
                } else {
                    group = groups.count
                    groupNumbers[name] = group
                    groups.append((CacheKey(keys[Int(root)]), base, 0))
                }
                if seenFields.insert(edgeFields[edge]).inserted { groups[group].fieldKeys += 1 }
                let target = edgeTargets[edge]
                guard !isRoot.contains(target), owner[Int(target)] < 0, states[Int(target)] != .missing else { continue }
                owner[Int(target)] = Int32(group)
                queue.append(target)
            }
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for edge in edges(of: node) {
                let target = edgeTargets[edge]
                guard !isRoot.contains(target), owner[Int(target)] < 0, states[Int(target)] != .missing else { continue }
                owner[Int(target)] = owner[Int(node)]
                queue.append(target)
            }
        }
        return (owner, groups)
    }
}
