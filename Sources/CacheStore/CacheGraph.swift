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

    /// The file read, for messages.
    public internal(set) var path = ""
    /// Keys by node number.
    private(set) var keyTable: KeyTable
    private(set) var states: [State] = []
    /// Bytes of each record's JSON text (0 for a missing or NULL record).
    private(set) var sizes: [Int32] = []
    /// Number in `typenameTable`, or -1.
    private(set) var typenameOf: [Int32] = []
    /// Each record's `_id` (0 for a missing record): gc deletes by it, in
    /// the table's own order.
    private(set) var rowIDs: [Int64] = []
    private(set) var typenameTable = KeyTable()
    /// Each record's references are `edgeTargets[start ..< start + count]`,
    /// both in one array so that following a record's references costs one
    /// memory fetch, not two.
    private(set) var edgeSpans: [(start: Int32, count: Int32)] = []
    private(set) var edgeTargets: [Int32] = []
    private(set) var edgeFields: [Int32] = []
    /// Names of the fields that hold references.
    private(set) var fieldTable = KeyTable()

    /// Records whose text cannot be decoded, with what is wrong, in row order.
    public private(set) var damagedRecords: [DamagedRecord] = []
    /// Records that decode, but hold a number Apollo's JSON reading
    /// refuses (see ``Record/numberApolloCannotRead``), in row order.
    public private(set) var recordsApolloCannotRead: [NumberApolloCannotRead] = []
    /// Records whose `__typename` is not a string (see
    /// ``Record/typenameApolloCannotRead``), in row order.
    public private(set) var typenamesApolloCannotRead: [TypenameApolloCannotRead] = []
    /// Rows whose key is NULL (only a damaged file has them), by `_id`.
    public private(set) var keylessRowIDs: [Int64] = []
    /// Rows whose key is a BLOB or text that is not UTF-8 (only another
    /// program writes one), in row order. They are not records: neither
    /// ever equals the text that Apollo looks a key up by, so references
    /// to their keys dangle.
    public private(set) var blobKeyRows: [BlobKeyRow] = []
    /// Where the pass met a row whose `_id` was not above the one before:
    /// a scan of a sound table gives them in ascending order, so the
    /// table's pages are damaged, and what was read of them may be wrong.
    public internal(set) var rowOrderBreak: RowOrderBreak?
    /// The first key the pass met on two rows: the UNIQUE index on `key`
    /// that every Apollo table has forbids it, so the index is damaged,
    /// and a lookup by the key finds one row while a scan finds both.
    public private(set) var duplicateKeyRows: DuplicateKeyRows?
    /// The number of rows with a key.
    public private(set) var recordCount = 0
    /// The bytes of every record's JSON text.
    public private(set) var totalBytes = 0

    /// An empty graph with room for about `capacity` records.
    init(capacity: Int) {
        keyTable = KeyTable(capacity: capacity)
        states.reserveCapacity(capacity)
        sizes.reserveCapacity(capacity)
        typenameOf.reserveCapacity(capacity)
        rowIDs.reserveCapacity(capacity)
        edgeSpans.reserveCapacity(capacity)
    }

    // MARK: Building

    /// The node of a key, added as missing when new.
    mutating func node(for key: UnsafeBufferPointer<UInt8>) -> Int32 {
        node(for: key, hash: KeyTable.hash(key))
    }

    mutating func node(for key: UnsafeBufferPointer<UInt8>, hash: UInt32) -> Int32 {
        let node = keyTable.insert(key, hash: hash)
        if Int(node) == states.count {
            states.append(.missing)
            sizes.append(0)
            typenameOf.append(-1)
            rowIDs.append(0)
            edgeSpans.append((0, 0))
        }
        return node
    }

    /// Starts the record of `key` in row `rowID`, `bytes` long; its
    /// references follow with ``addReference(field:target:)``.
    mutating func beginRecord(key: UnsafeBufferPointer<UInt8>, rowID: Int64, bytes: Int) -> Int32 {
        beginRecord(key: key, hash: KeyTable.hash(key), rowID: rowID, bytes: bytes)
    }

    mutating func beginRecord(key: UnsafeBufferPointer<UInt8>, hash: UInt32, rowID: Int64, bytes: Int) -> Int32 {
        let node = node(for: key, hash: hash)
        if states[Int(node)] != .missing, duplicateKeyRows == nil {
            duplicateKeyRows = DuplicateKeyRows(key: self.key(node), firstRowID: rowIDs[Int(node)], secondRowID: rowID)
        }
        recordCount += 1
        totalBytes += bytes
        rowIDs[Int(node)] = rowID
        sizes[Int(node)] = Int32(clamping: bytes)
        states[Int(node)] = .record
        edgeSpans[Int(node)] = (Int32(edgeTargets.count), 0)
        return node
    }

    mutating func addReference(from node: Int32, field: UnsafeBufferPointer<UInt8>, target: UnsafeBufferPointer<UInt8>) {
        addReference(from: node, field: field, fieldHash: KeyTable.hash(field), target: target, hash: KeyTable.hash(target))
    }

    /// ``addReference(from:field:target:)`` with the ``KeyTable/hash(_:)``
    /// of the field name and of the target already worked out.
    mutating func addReference(
        from node: Int32, field: UnsafeBufferPointer<UInt8>, fieldHash: UInt32, target: UnsafeBufferPointer<UInt8>, hash: UInt32
    ) {
        let field = fieldTable.insert(field, hash: fieldHash)
        edgeTargets.append(self.node(for: target, hash: hash))
        edgeFields.append(field)
        edgeSpans[Int(node)].count += 1
    }

    mutating func setTypename(of node: Int32, _ typename: UnsafeBufferPointer<UInt8>, hash: UInt32? = nil) {
        typenameOf[Int(node)] = typenameTable.insert(typename, hash: hash ?? KeyTable.hash(typename))
    }

    /// Marks a record begun with ``beginRecord(key:rowID:bytes:)`` as damaged and
    /// forgets its references.
    mutating func markDamaged(_ node: Int32, problem: CacheStoreError.RecordProblem) {
        edgeTargets.removeLast(Int(edgeSpans[Int(node)].count))
        edgeFields.removeLast(Int(edgeSpans[Int(node)].count))
        edgeSpans[Int(node)].count = 0
        typenameOf[Int(node)] = -1
        states[Int(node)] = .damaged
        damagedRecords.append(DamagedRecord(key: key(node), problem: problem))
    }

    mutating func noteNumberApolloCannotRead(_ found: NumberApolloCannotRead) { recordsApolloCannotRead.append(found) }

    mutating func noteTypenameApolloCannotRead(_ found: TypenameApolloCannotRead) { typenamesApolloCannotRead.append(found) }

    /// Replaces what the scan found of a record with its decoded references
    /// and typename.
    mutating func replaceReferences(of node: Int32, with record: Record) {
        edgeTargets.removeLast(Int(edgeSpans[Int(node)].count))
        edgeFields.removeLast(Int(edgeSpans[Int(node)].count))
        edgeSpans[Int(node)].count = 0
        typenameOf[Int(node)] = record.typename.map { typenameTable.insert($0) } ?? -1
        for reference in record.references {
            var field = reference.field
            var target = reference.key.rawValue
            field.withUTF8 { field in target.withUTF8 { target in addReference(from: node, field: field, target: target) } }
        }
    }

    mutating func addKeylessRow(id: Int64) { keylessRowIDs.append(id) }

    mutating func addBlobKeyRow(id: Int64, key: UnsafeBufferPointer<UInt8>, isBlob: Bool = true) {
        blobKeyRows.append(BlobKeyRow(rowID: id, bytes: Array(key), isBlob: isBlob))
    }

    /// The key of a node.
    func key(_ node: Int32) -> CacheKey { CacheKey(keyTable.string(node)) }

    /// Every node's key, in node order (for tests).
    var keys: [String] { (0..<Int32(keyTable.count)).map { keyTable.string($0) } }
    /// The names of the fields that hold references (for tests).
    var fields: [String] { (0..<Int32(fieldTable.count)).map { fieldTable.string($0) } }
    var nodeCount: Int { states.count }

    // MARK: Reading

    /// True when a record (possibly damaged) has this key.
    public func containsRecord(_ key: CacheKey) -> Bool {
        guard let node = keyTable.find(key.rawValue) else { return false }
        return states[Int(node)] != .missing
    }

    /// The keys references lead to that no row read has: what dangling
    /// references point at.
    public var missingKeys: [CacheKey] {
        (0..<Int32(nodeCount)).filter { states[Int($0)] == .missing }.map(key)
    }

    /// The node of a key that has a record.
    func recordNode(_ key: CacheKey) -> Int32? {
        guard let node = keyTable.find(key.rawValue), states[Int(node)] != .missing else { return nil }
        return node
    }

    /// The references of one node, as indexes into the edge arrays.
    func edges(of node: Int32) -> Range<Int> {
        let span = edgeSpans[Int(node)]
        return Int(span.start)..<Int(span.start + span.count)
    }

    /// The root records present, in Apollo's order.
    var rootNodes: [Int32] { CacheKey.roots.compactMap(recordNode) }

    private func location(_ node: Int32, _ edge: Int) -> ReferenceLocation {
        ReferenceLocation(from: key(node), field: fieldTable.string(edgeFields[edge]), to: key(edgeTargets[edge]))
    }

    /// Every reference whose target has no record, ordered by the holding
    /// key, then field, then position in the record.
    public var danglingReferences: [ReferenceLocation] {
        var found: [ReferenceLocation] = []
        for node in 0..<Int32(nodeCount) where states[Int(node)] == .record {
            for edge in edges(of: node) where states[Int(edgeTargets[edge])] == .missing {
                found.append(location(node, edge))
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
        var seen = [Bool](repeating: false, count: nodeCount)
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

    /// Throws ``CacheStoreError/reachabilityUnknown(path:damaged:)`` when damaged
    /// records exist: their references cannot be read, so anything may be
    /// reached through them.
    public func checkReachabilityIsKnown() throws {
        guard damagedRecords.isEmpty else { throw CacheStoreError.reachabilityUnknown(path: path, damaged: damagedRecords.map(\.key)) }
    }

    /// Keys of the records that no root reaches, in key order. Damaged
    /// records are not among them: they are ``damagedRecords``, whether
    /// reached or not.
    public func unreachableKeys() -> [CacheKey] {
        sortedKeys(unreachableNodes())
    }

    /// The keys no root reaches: of records (``unreachableKeys()``) and,
    /// apart, of damaged records; each in key order, from one walk.
    public func unreachedKeys() -> (records: [CacheKey], damaged: [CacheKey]) {
        let nodes = unreachedNodes()
        return (sortedKeys(nodes.records), sortedKeys(nodes.damaged))
    }

    /// The nodes of the records no root reaches, in node order.
    func unreachableNodes() -> [Int32] { unreachedNodes().records }

    /// The nodes no root reaches, of records and of damaged records, in
    /// node order.
    private func unreachedNodes() -> (records: [Int32], damaged: [Int32]) {
        let reached = reachedFromRoots()
        var records: [Int32] = []
        var damaged: [Int32] = []
        for node in 0..<Int32(nodeCount) where !reached[Int(node)] {
            switch states[Int(node)] {
            case .record: records.append(node)
            case .damaged: damaged.append(node)
            case .missing: break
            }
        }
        return (records, damaged)
    }

    /// The keys of `nodes` in byte order, compared where they are stored.
    func sortedKeys(_ nodes: [Int32]) -> [CacheKey] {
        keyTable.sorted(nodes).map(key)
    }

    /// Keys of the records whose `__typename` is one of `typenames`, in key order.
    public func keys(typenames: [String]) -> [CacheKey] {
        let numbers = Set(typenames.compactMap { typenameTable.find($0) })
        guard !numbers.isEmpty else { return [] }
        return sortedKeys((0..<Int32(nodeCount)).filter { numbers.contains(typenameOf[Int($0)]) })
    }

    /// Those of `typenames` that no record has as its `__typename`.
    public func absentTypenames(_ typenames: [String]) -> [String] {
        var held = Set<Int32>()
        for index in 0..<nodeCount where states[index] == .record && typenameOf[index] >= 0 { held.insert(typenameOf[index]) }
        return typenames.filter { name in typenameTable.find(name).map { !held.contains($0) } ?? true }
    }

    /// The references to any of `targets` held by records not in
    /// `targets`, ordered by holding key, then field: after removing
    /// `targets`, the references left dangling.
    public func references(to targets: Set<CacheKey>) -> [ReferenceLocation] {
        let targetNodes = Set(targets.compactMap { keyTable.find($0.rawValue) })
        guard !targetNodes.isEmpty else { return [] }
        var found: [ReferenceLocation] = []
        for node in 0..<Int32(nodeCount) where states[Int(node)] == .record && !targetNodes.contains(node) {
            for edge in edges(of: node) where targetNodes.contains(edgeTargets[edge]) {
                found.append(location(node, edge))
            }
        }
        return Self.sorted(found)
    }
}
