/// Turns the rows of the table into the ``GraphBuilder``'s steps: a row whose
/// record the scanner reads goes into a ``ScanBatch``; a row without a key, a
/// NULL record, or a text the scanner refuses goes on its own, after the
/// batch so far, so the steps keep the rows' order. The thread reading the
/// table and the builder's thread (for ``RawRows``) both use it.
struct RowScanner {
    private var batch = ScanBatch()

    var isEmpty: Bool { batch.isEmpty }

    mutating func add(
        id: Int64, key: UnsafeBufferPointer<UInt8>?, text: UnsafeBufferPointer<UInt8>?, emit: (GraphBuilder.Step) -> Void
    ) {
        guard let key else {
            flush(emit: emit)
            emit(.keylessRow(id: id))
            return
        }
        guard let text else {
            flush(emit: emit)
            emit(.nullRecord(id: id, key: Array(key)))
            return
        }
        batch.beginRow()
        var typenameIsNotAString = false
        let isObject = ReferenceScanner.scan(
            inUTF8: text,
            references: { field, target, escaped in
                guard escaped else {
                    batch.addReference(field: UnsafeBufferPointer(rebasing: text[field]), target: UnsafeBufferPointer(rebasing: text[target]))
                    return
                }
                Self.withUnescaped(text, field) { field in
                    Self.withUnescaped(text, target) { target in batch.addReference(field: field, target: target) }
                }
            },
            typename: { range, escaped in
                guard let range else { return typenameIsNotAString = true }
                guard escaped else { return batch.setTypename(UnsafeBufferPointer(rebasing: text[range])) }
                Self.withUnescaped(text, range) { batch.setTypename($0) }
            })
        if isObject && !typenameIsNotAString {
            batch.endRow(id: id, key: key, size: text.count)
            if batch.isFull { flush(emit: emit) }
            return
        }
        // The scanner refused the text: decode it to say why, or, where the
        // decoder is more lenient than the scanner, to read it after all.
        // A `__typename` that is not a string is decoded too: the decoded
        // record tells whether Apollo reads it (``Record/typenameApolloCannotRead``).
        batch.dropRow()
        flush(emit: emit)
        emit(.decode(id: id, key: Array(key), text: Array(text)))
    }

    /// Emits the batch's rows, when it has any, and starts a new batch.
    mutating func flush(emit: (GraphBuilder.Step) -> Void) {
        guard !batch.isEmpty else { return }
        let next = ScanBatch(roomFor: batch)
        emit(.batch(batch))
        batch = next
    }

    /// Calls `body` with the bytes of a JSON string's contents, unescaped
    /// when they hold an escape (rare in keys and field names).
    private static func withUnescaped<T>(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T {
        let slice = UnsafeBufferPointer(rebasing: text[range])
        guard slice.contains(UInt8(ascii: "\\")) else { return body(slice) }
        var decoded = ReferenceScanner.decodeString(text, range)
        return decoded.withUTF8(body)
    }
}

/// Rows copied out of SQLite as they are, unscanned, for the builder's
/// thread to scan when it would otherwise wait for the reading thread.
struct RawRows {
    private struct Row {
        let id: Int64
        let key: Range<Int>?
        let text: Range<Int>?
    }

    static let capacity = 256
    /// A chunk also ends once it holds this many bytes; with rows of at
    /// most ``largestRecord`` bytes, no chunk passes twice this.
    static let byteCapacity = 1 << 20
    /// Larger records are never copied into a chunk (``takes(_:)``).
    static let largestRecord = 1 << 20

    /// Whether a row with this record text may go into a chunk.
    static func takes(_ text: UnsafeBufferPointer<UInt8>?) -> Bool { (text?.count ?? 0) <= largestRecord }

    /// The rows' keys and texts end to end, `used` bytes of them. A chunk
    /// has one owner at a time (the reading thread, then the builder).
    private let bytes = ByteArena(capacity: 64 << 10)
    private var used = 0
    private var rows: [Row] = []

    init() { rows.reserveCapacity(Self.capacity) }

    var isEmpty: Bool { rows.isEmpty }
    var isFull: Bool { rows.count >= Self.capacity || used >= Self.byteCapacity }

    mutating func append(id: Int64, key: UnsafeBufferPointer<UInt8>?, text: UnsafeBufferPointer<UInt8>?) {
        let keyRange = key.map { copy($0) }
        let textRange = text.map { copy($0) }
        rows.append(Row(id: id, key: keyRange, text: textRange))
    }

    private mutating func copy(_ piece: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = used
        bytes.write(piece, at: start)
        used += piece.count
        return start..<used
    }

    /// Each row, in order, with its key and record text (nil for NULL).
    func forEach(_ body: (Int64, UnsafeBufferPointer<UInt8>?, UnsafeBufferPointer<UInt8>?) -> Void) {
        let base = UnsafePointer(bytes.base)
        for row in rows {
            body(
                row.id, row.key.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) },
                row.text.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) })
        }
        withExtendedLifetime(bytes) {}
    }
}
