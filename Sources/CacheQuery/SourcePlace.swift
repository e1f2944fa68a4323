import GraphQL

/// A place in GraphQL text as a person finds it in an editor: line from 1,
/// and column from 1 in characters. The parser counts offsets in UTF-8
/// bytes, so its own columns run long after a non-ASCII character (and its
/// lines, which it finds by UTF-16 offset, may too).
struct SourcePlace: Equatable {
    let line: Int
    let column: Int

    /// The place of the byte at `offset` in `text`'s UTF-8. A line ends at
    /// `\n`, `\r\n` or a lone `\r`, as in GraphQL.
    init(utf8Offset offset: Int, in text: String) {
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
        // Characters from the line's start; a place inside a character (never one the parser gives) counts it.
        column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
    }

    /// The character that starts at `offset` in `text`'s UTF-8, if one does.
    static func character(atUTF8Offset offset: Int, in text: String) -> Character? {
        let bytes = text.utf8
        guard offset >= 0, offset < bytes.count else { return nil }
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        guard let index = start.samePosition(in: text) else { return nil }
        return text[index]
    }
}

extension Location {
    /// Where the node starts in its source.
    var place: SourcePlace { SourcePlace(utf8Offset: start, in: source.body) }
}
