import GraphQL

extension GraphQLError {
    /// The first line of the message, without the source name and place a
    /// syntax error repeats ("Syntax Error NAME (1:27) Expected Name, found
    /// <EOF>" becomes "syntax error: Expected Name, found <EOF>"): errors
    /// here say the place themselves, as FILE:LINE:COLUMN.
    ///
    /// A character the parser did not expect is named as it is in the
    /// text, with its code point: the parser names one byte of it.
    var oneLineMessage: String {
        var message = self.message.components(separatedBy: "\n").first ?? self.message
        if message.hasPrefix("Syntax Error"), let place = message.range(of: ") ") {
            message = "syntax error: " + message[place.upperBound...]
        }
        // The parser names a bad \u escape by a dump of its own types, and a
        // surrogate by its decimal value: the escape is quoted as written.
        for lead in ["Invalid character escape sequence: \\u", "Invalid unicode character code: \\u"] {
            guard let range = message.range(of: lead), let source, let offset = positions.first,
                let escape = Self.unicodeEscape(near: offset, in: source.body)
            else { continue }
            message = message[..<range.lowerBound] + "invalid escape \(escape) (\\u takes four hex digits, for a character "
                + "below U+10000; write any other character as itself)."
        }
        for lead in ["Unexpected character ", "Invalid character "] where message.hasSuffix(".") {
            guard let range = message.range(of: lead), let source, let offset = positions.first,
                let scalar = SourcePlace.scalar(atUTF8Offset: offset, in: source.body), !scalar.isASCII
            else { continue }
            let codePoint = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            // A combining mark or a control is shown by its code point alone.
            let category = scalar.properties.generalCategory
            let shown = [.nonspacingMark, .enclosingMark, .spacingMark, .format, .control, .lineSeparator, .paragraphSeparator].contains(category)
                ? "" : "'\(Character(scalar))' "
            message = message[..<range.upperBound] + "\(shown)(\(codePoint))."
        }
        return message
    }

    /// The `\u` escape at or just before `offset` in `text`, as written:
    /// `\u{1F600}`, `\uD83D`, `\u12`.
    static func unicodeEscape(near offset: Int, in text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let start = stride(from: min(offset, bytes.count - 2), through: max(0, offset - 2), by: -1)
            .first(where: { $0 >= 0 && $0 + 1 < bytes.count && bytes[$0] == UInt8(ascii: "\\") && bytes[$0 + 1] == UInt8(ascii: "u") })
        else { return nil }
        var end = start + 2
        if end < bytes.count, bytes[end] == UInt8(ascii: "{") {
            while end < bytes.count, end - start < 14, bytes[end] != UInt8(ascii: "}"), bytes[end] != UInt8(ascii: "\"") { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "}") { end += 1 }
        } else {
            while end < bytes.count, end - start < 6, (bytes[end] as UInt8).isHexDigit { end += 1 }
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Line and column (a ``SourcePlace``) of the first position, zero
    /// when there is none.
    var firstPlace: (line: Int, column: Int) {
        if let source, let offset = positions.first {
            let place = SourcePlace(utf8Offset: offset, in: source.body)
            return (place.line, place.column)
        }
        return locations.first.map { ($0.line, $0.column) } ?? (0, 0)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
