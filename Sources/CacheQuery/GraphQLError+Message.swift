import GraphQL

extension GraphQLError {
    /// The first line of the message, without the source name and place a
    /// syntax error repeats ("Syntax Error NAME (1:27) Expected Name, found
    /// <EOF>" becomes "syntax error: Expected Name, found <EOF>"): errors
    /// here say the place themselves, as FILE:LINE:COLUMN.
    /// A character the parser did not expect is named as it is in the
    /// text, with its code point: the parser names one byte of it.
    var oneLineMessage: String {
        var message = self.message.components(separatedBy: "\n").first ?? self.message
        if message.hasPrefix("Syntax Error"), let place = message.range(of: ") ") {
            message = "syntax error: " + message[place.upperBound...]
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
