/// The shape of a whole cache, gathered in one streaming pass over the
/// `records` table: each record's key, size, `__typename` and state, and
/// every reference between records (with the field that holds it). Record
/// bodies are never kept, so memory grows with the keys and references only.
///
/// ```swift
/// let graph = try store.read { tx in try tx.graph() }
/// graph.danglingReferences   // [Droid:2001 friends → Human:1002]
/// graph.unreachableKeys()    // records no root reaches
/// ```
///
/// Nodes are the keys of records and the keys references point at: a node
/// without a record is the target of a dangling reference.
public struct CacheGraph: Sendable {
    enum State: UInt8 {
        /// Only referenced: no record has this key.
        case missing = 0
        case record
        /// The `record` column is NULL, not JSON, or not a JSON object.
        case damaged
    }

    /// Keys by node number, and node numbers by key.
    private(set) var keys: [String] = []
    private(set) var nodes: [String: Int32] = [:]
    private(set) var states: [State] = []
    /// Bytes of each record's JSON text (0 for a missing or NULL record).
    private(set) var sizes: [Int32] = []
    /// Index into `typenames`, or -1.
    private(set) var typenameOf: [Int32] = []
    private(set) var typenames: [String] = []
    private(set) var typenameNumbers: [String: Int32] = [:]
    /// Each record's references are `edgeTargets[firstEdge ..< firstEdge + edgeCount]`.
    private(set) var firstEdge: [Int32] = []
    private(set) var edgeCount: [Int32] = []
    private(set) var edgeTargets: [Int32] = []
    private(set) var edgeFields: [Int32] = []
    private(set) var fields: [String] = []
    private var fieldNumbers: [String: Int32] = [:]

    /// Records whose text cannot be decoded, with what is wrong, in row order.
    public private(set) var damagedRecords: [DamagedRecord] = []
    /// Rows whose key is NULL (only a damaged file has them), by `_id`.
    public private(set) var keylessRowIDs: [Int64] = []
    /// The number of rows with a key.
    public private(set) var recordCount = 0
    /// The bytes of every record's JSON text.
    public private(set) var totalBytes = 0

    init() {}

    // MARK: Building

    mutating func node(for key: String) -> Int32 {
        if let node = nodes[key] { return node }
        let node = Int32(keys.count)
        keys.append(key)
        nodes[key] = node
        states.append(.missing)
        sizes.append(0)
        typenameOf.append(-1)
        firstEdge.append(0)
        edgeCount.append(0)
        return node
    }

    private mutating func fieldNumber(_ field: String) -> Int32 {
        if let number = fieldNumbers[field] { return number }
        let number = Int32(fields.count)
        fields.append(field)
        fieldNumbers[field] = number
        return number
    }

    private mutating func typenameNumber(_ name: String) -> Int32 {
        if let number = typenameNumbers[name] { return number }
        let number = Int32(typenames.count)
        typenames.append(name)
        typenameNumbers[name] = number
        return number
    }

    /// Adds one row's facts: a record, its size, its typename and its
    /// references (`problem` non-nil for a damaged one).
    mutating func addRecord(
        key: String, bytes: Int, typename: String?, references: [(field: String, target: String)], problem: CacheStoreError.RecordProblem?
    ) {
        let node = node(for: key)
        let index = Int(node)
        recordCount += 1
        totalBytes += bytes
        sizes[index] = Int32(clamping: bytes)
        if let problem {
            states[index] = .damaged
            damagedRecords.append(DamagedRecord(key: CacheKey(key), problem: problem))
            return
        }
        states[index] = .record
        if let typename { typenameOf[index] = typenameNumber(typename) }
        firstEdge[index] = Int32(edgeTargets.count)
        edgeCount[index] = Int32(references.count)
        for reference in references {
            let field = fieldNumber(reference.field)
            edgeTargets.append(self.node(for: reference.target))
            edgeFields.append(field)
        }
    }

    mutating func addKeylessRow(id: Int64) { keylessRowIDs.append(id) }

    // MARK: Reading

    /// True when a record (possibly damaged) has this key.
    public func containsRecord(_ key: CacheKey) -> Bool {
        guard let node = nodes[key.rawValue] else { return false }
        return states[Int(node)] != .missing
    }

    func number(of key: CacheKey) -> Int32? { nodes[key.rawValue] }

    /// The references of one node, as (field number, target node) pairs.
    func edges(of node: Int32) -> Range<Int> {
        let start = Int(firstEdge[Int(node)])
        return start..<(start + Int(edgeCount[Int(node)]))
    }

    /// The root records present, in Apollo's order.
    var rootNodes: [Int32] {
        CacheKey.roots.compactMap { root in
            guard let node = nodes[root.rawValue], states[Int(node)] != .missing else { return nil }
            return node
        }
    }

    /// Every reference whose target has no record, ordered by the holding
    /// key, then field, then position in the record.
    public var danglingReferences: [ReferenceLocation] {
        var found: [ReferenceLocation] = []
        for node in 0..<Int32(keys.count) where states[Int(node)] == .record {
            for edge in edges(of: node) where states[Int(edgeTargets[edge])] == .missing {
                found.append(ReferenceLocation(
                    from: CacheKey(keys[Int(node)]), field: fields[Int(edgeFields[edge])], to: CacheKey(keys[Int(edgeTargets[edge])])))
            }
        }
        return Self.sorted(found)
    }

    static func sorted(_ references: [ReferenceLocation]) -> [ReferenceLocation] {
        references.enumerated().sorted { lhs, rhs in
            if lhs.element.from != rhs.element.from { return lhs.element.from < rhs.element.from }
            if lhs.element.field != rhs.element.field { return byteOrder(lhs.element.field, rhs.element.field) }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// For each node, whether a root reaches it through references (the
    /// roots themselves included). With no root record, nothing is reached.
    func reachedFromRoots() -> [Bool] {
        reached(from: rootNodes, avoiding: nil)
    }

    /// Breadth-first over references from `seeds`, never entering a node
    /// `avoiding` says to avoid.
    func reached(from seeds: [Int32], avoiding: ((Int32) -> Bool)?) -> [Bool] {
        var seen = [Bool](repeating: false, count: keys.count)
        var queue: [Int32] = []
        queue.reserveCapacity(seeds.count)
        for seed in seeds where !seen[Int(seed)] && !(avoiding?(seed) ?? false) {
            seen[Int(seed)] = true
            queue.append(seed)
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for edge in edges(of: node) {
                let target = edgeTargets[edge]
                guard !seen[Int(target)], !(avoiding?(target) ?? false) else { continue }
                seen[Int(target)] = true
                queue.append(target)
            }
        }
        return seen
    }

    /// Keys of the records that no root reaches, in key order. Damaged
    /// records are not among them: they are ``damagedRecords``, whether
    /// reached or not.
    public func unreachableKeys() -> [CacheKey] {
        let reached = reachedFromRoots()
        return (0..<keys.count).filter { states[$0] == .record && !reached[$0] }.map { CacheKey(keys[$0]) }.sorted()
    }

    /// Groups of record keys equal but for ASCII case, each sorted, ordered
    /// by their first key.
    public func caseInsensitiveDuplicates() -> [[CacheKey]] {
        // A folded hash per key, sorted, then equal hashes compared for real:
        // no folded copy of every key is kept.
        var hashes: [(hash: UInt64, node: Int32)] = []
        hashes.reserveCapacity(recordCount)
        for node in 0..<keys.count where states[node] != .missing {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in keys[node].utf8 {
                hash = (hash ^ UInt64(Self.foldASCII(byte))) &* 0x100_0000_01b3
            }
            hashes.append((hash, Int32(node)))
        }
        hashes.sort { ($0.hash, $0.node) < ($1.hash, $1.node) }
        var groups: [[CacheKey]] = []
        var start = 0
        while start < hashes.count {
            var end = start + 1
            while end < hashes.count && hashes[end].hash == hashes[start].hash { end += 1 }
            if end - start > 1 {
                var byFolded: [String: [CacheKey]] = [:]
                for entry in hashes[start..<end] {
                    let key = keys[Int(entry.node)]
                    byFolded[String(decoding: key.utf8.map(Self.foldASCII), as: UTF8.self), default: []].append(CacheKey(key))
                }
                groups += byFolded.values.filter { $0.count > 1 }.map { $0.sorted() }
            }
            start = end
        }
        return groups.sorted { $0[0] < $1[0] }
    }

    private static func foldASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Keys of the records whose `__typename` is `typename`, in key order.
    public func keys(typename: String) -> [CacheKey] {
        guard let number = typenameNumbers[typename] else { return [] }
        return (0..<keys.count).filter { typenameOf[$0] == number }.map { CacheKey(keys[$0]) }.sorted()
    }

    /// The references to any of `targets` held by records not in
    /// `targets`, ordered by holding key, then field: after removing
    /// `targets`, the references left dangling.
    public func references(to targets: Set<CacheKey>) -> [ReferenceLocation] {
        let targetNodes = Set(targets.compactMap { nodes[$0.rawValue] })
        guard !targetNodes.isEmpty else { return [] }
        var found: [ReferenceLocation] = []
        for node in 0..<Int32(keys.count) where states[Int(node)] == .record && !targetNodes.contains(node) {
            for edge in edges(of: node) where targetNodes.contains(edgeTargets[edge]) {
                found.append(ReferenceLocation(
                    from: CacheKey(keys[Int(node)]), field: fields[Int(edgeFields[edge])], to: CacheKey(keys[Int(edgeTargets[edge])])))
            }
        }
        return Self.sorted(found)
    }

    /// What removing `keys` with their cascade takes: those keys (the ones
    /// with a record) and every record reachable from them that nothing
    /// else reaches: no root, and no record outside what is removed. In key order.
    public func cascade(from keys: [CacheKey]) -> [CacheKey] {
        let starts = keys.compactMap { key -> Int32? in
            guard let node = nodes[key.rawValue], states[Int(node)] != .missing else { return nil }
            return node
        }
        let isStart = Set(starts)
        // Everything the removed keys reach.
        let inReach = reached(from: starts, avoiding: nil)
        // What stays of it: roots in reach, records in reach referenced
        // from outside the reach, and all they reach without passing
        // through a removed key.
        var seeds: [Int32] = rootNodes.filter { inReach[Int($0)] && !isStart.contains($0) }
        for node in 0..<Int32(self.keys.count) where !inReach[Int(node)] && states[Int(node)] == .record {
            for edge in edges(of: node) {
                let target = edgeTargets[edge]
                if inReach[Int(target)] && !isStart.contains(target) { seeds.append(target) }
            }
        }
        let kept = reached(from: seeds, avoiding: { isStart.contains($0) })
        return (0..<self.keys.count)
            .filter { inReach[$0] && !kept[$0] && states[$0] != .missing }
            .map { CacheKey(self.keys[$0]) }
            .sorted()
    }
}

/// A record whose text cannot be decoded, and why.
public struct DamagedRecord: Equatable, Sendable {
    public let key: CacheKey
    public let problem: CacheStoreError.RecordProblem
}
