import GraphQL

/// A place in GraphQL (or JSON) text: line from 1, and column from 1 in
/// UTF-16 code units, as graphql-js (which Apollo's code generator runs)
/// and most editors count them: one for each character of the Basic
/// Multilingual Plane, two for an emoji. The parser counts offsets in
/// UTF-8 bytes, so its own columns run long after a non-ASCII character
/// (and its lines, which it finds by UTF-16 offset, may too).
public struct SourcePlace: Equatable, Sendable {
    public let line: Int
    public let column: Int

    /// The place of the byte at `offset` in `text`'s UTF-8. A line ends at
    /// `\n`, `\r\n` or a lone `\r`, as in GraphQL.
    public init(utf8Offset offset: Int, in text: String) {
        let bytes = text.utf8
        let end = bytes.index(bytes.startIndex, offsetBy: max(0, min(offset, bytes.count)))
        var line = 1
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < end {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            if byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (index == bytes.endIndex || bytes[index] != UInt8(ascii: "\n"))) {
                line += 1
                lineStart = index
            }
        }
        self.line = line
        // A place inside a character (never one the parser gives) counts it.
        column = String(decoding: bytes[lineStart..<end], as: UTF8.self).utf16.count + 1
    }

    /// The Unicode scalar whose UTF-8 starts at `offset` in `text`, if one does.
    static func scalar(atUTF8Offset offset: Int, in text: String) -> Unicode.Scalar? {
        let bytes = Array(text.utf8)
        guard offset >= 0, offset < bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[offset...].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return nil
    }
}

extension Location {
    /// Where the node starts in its source.
    var place: SourcePlace { SourcePlace(utf8Offset: start, in: source.body) }
}
