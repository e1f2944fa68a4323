/// Rows of the table as the graph needs them (key, size, typename,
/// references), copied out of SQLite a few hundred at a time so that the
/// graph's key table is read for the whole batch before it is updated:
/// the processor then waits for many memory fetches at once instead of
/// one after another, which is where a million-key table spends its time.
///
/// A batch has one owner at a time (the reading thread fills it, then hands
/// it to the builder): copies share their bytes.
struct ScanBatch {
    private struct Piece {
        let start: Int
        let count: Int
    }

    private struct PendingRow {
        let id: Int64
        let key: Int
        let size: Int
        let typename: Int?
        let references: Range<Int>
    }

    static let capacity = 256

    /// The pieces' bytes end to end, `used` of them: a piece is copied in
    /// without an array's uniqueness and bounds checks, short ones without
    /// a call to `memcpy`, and a batch copies a few thousand of them.
    private var bytes: ByteArena
    private var used = 0
    private var pieces: [Piece] = []
    private var rows: [PendingRow] = []
    /// (field piece, target piece) pairs.
    private var references: [(field: Int, target: Int)] = []
    /// Where the row being added started, to take it back.
    private var rowStart = (bytes: 0, pieces: 0, references: 0)
    private var typename: Int?
    private(set) var sink: UInt64 = 0

    init() {
        bytes = ByteArena(capacity: 1 << 14)
    }

    /// An empty batch with room for a little more than `previous` held.
    /// Batches follow one another with much the same rows: the next one
    /// then never grows its arrays step by step, each growth a copy.
    init(roomFor previous: ScanBatch) {
        bytes = ByteArena(capacity: Swift.max(1 << 14, previous.used + previous.used / 4))
        pieces.reserveCapacity(previous.pieces.count + previous.pieces.count / 4)
        rows.reserveCapacity(Self.capacity)
        references.reserveCapacity(previous.references.count + previous.references.count / 4)
    }

    var isFull: Bool { rows.count >= Self.capacity }
    var isEmpty: Bool { rows.isEmpty }

    private mutating func piece(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        pieces.append(Piece(start: used, count: text.count))
        bytes.write(text, at: used)
        used += text.count
        return pieces.count - 1
    }

    mutating func beginRow() {
        rowStart = (used, pieces.count, references.count)
        typename = nil
    }

    mutating func addReference(field: UnsafeBufferPointer<UInt8>, target: UnsafeBufferPointer<UInt8>) {
        references.append((piece(field), piece(target)))
    }

    mutating func setTypename(_ name: UnsafeBufferPointer<UInt8>) { typename = piece(name) }

    mutating func endRow(id: Int64, key: UnsafeBufferPointer<UInt8>, size: Int) {
        rows.append(PendingRow(id: id, key: piece(key), size: size, typename: typename, references: rowStart.references..<references.count))
    }

    /// Forgets what was added since ``beginRow()``.
    mutating func dropRow() {
        used = rowStart.bytes
        pieces.removeLast(pieces.count - rowStart.pieces)
        references.removeLast(references.count - rowStart.references)
    }

    /// Adds the batch's rows to the graph, in order, and empties the batch.
    mutating func flush(into graph: inout CacheGraph) {
        guard !rows.isEmpty else { return }
        let base = UnsafePointer(bytes.base)
        func text(_ index: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base + pieces[index].start, count: pieces[index].count)
        }
        let hashes = pieces.indices.map { KeyTable.hash(text($0)) }
        // Every key and target's first probe, before any is looked up.
        var sink = self.sink
        for row in rows {
            sink &+= graph.keyTable.touch(hashes[row.key])
            for reference in references[row.references] { sink &+= graph.keyTable.touch(hashes[reference.target]) }
        }
        self.sink = sink
        for row in rows {
            let node = graph.beginRecord(key: text(row.key), hash: hashes[row.key], rowID: row.id, bytes: row.size)
            if let typename = row.typename { graph.setTypename(of: node, text(typename), hash: hashes[typename]) }
            for reference in references[row.references] {
                graph.addReference(
                    from: node, field: text(reference.field), fieldHash: hashes[reference.field],
                    target: text(reference.target), hash: hashes[reference.target])
            }
        }
        used = 0
        pieces.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        references.removeAll(keepingCapacity: true)
    }
}
