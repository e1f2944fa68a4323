/// Rows of the table as the graph needs them (key, size, typename,
/// references), copied out of SQLite a few hundred at a time so that the
/// graph's key table is read for the whole batch before it is updated:
/// the processor then waits for many memory fetches at once instead of
/// one after another, which is where a million-key table spends its time.
struct ScanBatch {
    private struct Piece {
        let start: Int
        let count: Int
    }

    private struct PendingRow {
        let key: Int
        let size: Int
        let typename: Int?
        let references: Range<Int>
    }

    static let capacity = 256

    /// The pieces' bytes end to end: `bytes[..<used]`. The array only
    /// grows; copying a short piece in with `memcpy` costs a fraction of
    /// `append(contentsOf:)`, and a batch copies a few thousand of them.
    private var bytes = [UInt8](repeating: 0, count: 1 << 14)
    private var used = 0
    private var pieces: [Piece] = []
    private var rows: [PendingRow] = []
    /// (field piece, target piece) pairs.
    private var references: [(field: Int, target: Int)] = []
    private var hashes: [UInt32] = []
    /// Where the row being added started, to take it back.
    private var rowStart = (bytes: 0, pieces: 0, references: 0)
    private var typename: Int?
    private(set) var sink: UInt64 = 0

    var isFull: Bool { rows.count >= Self.capacity }
    var isEmpty: Bool { rows.isEmpty }

    private mutating func piece(_ text: UnsafeBufferPointer<UInt8>) -> Int {
        pieces.append(Piece(start: used, count: text.count))
        let end = used + text.count
        if end > bytes.count { bytes.append(contentsOf: repeatElement(0, count: Swift.max(end, 2 * bytes.count) - bytes.count)) }
        if let source = text.baseAddress, !text.isEmpty {
            let start = used
            bytes.withUnsafeMutableBufferPointer { buffer in
                (buffer.baseAddress! + start).update(from: source, count: text.count)
            }
        }
        used = end
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

    mutating func endRow(key: UnsafeBufferPointer<UInt8>, size: Int) {
        rows.append(PendingRow(key: piece(key), size: size, typename: typename, references: rowStart.references..<references.count))
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
        let hashes = bytes.withUnsafeBufferPointer { buffer in
            pieces.map { KeyTable.hash(UnsafeBufferPointer(rebasing: buffer[$0.start..<$0.start + $0.count])) }
        }
        // Every key and target's first probe, before any is looked up.
        var sink = self.sink
        for row in rows {
            sink &+= graph.keyTable.touch(hashes[row.key])
            for reference in references[row.references] { sink &+= graph.keyTable.touch(hashes[reference.target]) }
        }
        self.sink = sink
        bytes.withUnsafeBufferPointer { buffer in
            func text(_ index: Int) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: buffer[pieces[index].start..<pieces[index].start + pieces[index].count])
            }
            for row in rows {
                let node = graph.beginRecord(key: text(row.key), hash: hashes[row.key], bytes: row.size)
                if let typename = row.typename { graph.setTypename(of: node, text(typename), hash: hashes[typename]) }
                for reference in references[row.references] {
                    graph.addReference(
                        from: node, field: text(reference.field), fieldHash: hashes[reference.field],
                        target: text(reference.target), hash: hashes[reference.target])
                }
            }
        }
        used = 0
        pieces.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        references.removeAll(keepingCapacity: true)
    }
}
