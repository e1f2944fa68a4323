import GraphQL

/// GraphQL text nested deeper than a reader could follow: the parser and
/// the walks over what it builds recurse once per level, and a few
/// thousand levels of `{`, `[` or `(` would overflow the stack. Text is
/// checked before it is parsed, so that it is refused with its place
/// instead.
enum NestingLimit {
    /// Far deeper than any real operation or schema.
    static let maximumDepth = 500

    /// Where `text` first goes deeper than ``maximumDepth`` (a
    /// ``SourcePlace``: line and column from 1, in characters), or
    /// nil. Strings, block strings and comments do not count. A line ends at
    /// `\n`, `\r\n` or a lone `\r`, as in GraphQL.
    static func firstTooDeep(in text: String) -> (line: Int, column: Int)? {
        var depth = 0
        let bytes = Array(text.utf8)
        var index = 0
        /// At a line end: steps over it (once for `\r\n`) and returns true.
        func endsLine(_ at: inout Int) -> Bool {
            guard bytes[at] == UInt8(ascii: "\n") || bytes[at] == UInt8(ascii: "\r") else { return false }
            if bytes[at] == UInt8(ascii: "\r"), at + 1 < bytes.count, bytes[at + 1] == UInt8(ascii: "\n") { at += 1 }
            return true
        }
        while index < bytes.count {
            if endsLine(&index) {
                index += 1
                continue
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "#"):
                while index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n"), bytes[index + 1] != UInt8(ascii: "\r") { index += 1 }
            case UInt8(ascii: "\""):
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\"") {
                    // A block string ends at the next """ that is not escaped as \""".
                    index += 3
                    while index < bytes.count {
                        if endsLine(&index) {
                            index += 1
                            continue
                        }
                        if bytes[index] == UInt8(ascii: "\\"), index + 3 < bytes.count, bytes[index + 1...index + 3].allSatisfy({ $0 == UInt8(ascii: "\"") }) {
                            index += 4
                            continue
                        }
                        if index + 2 < bytes.count, bytes[index...index + 2].allSatisfy({ $0 == UInt8(ascii: "\"") }) {
                            index += 2
                            break
                        }
                        index += 1
                    }
                } else {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") {
                        if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                        index += 1
                    }
                    // An unterminated string ends at its line; the line end is counted next.
                    if index < bytes.count, bytes[index] != UInt8(ascii: "\"") { continue }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                if depth > maximumDepth {
                    let place = SourcePlace(utf8Offset: index, in: text)
                    return (place.line, place.column)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                depth = max(depth - 1, 0)
            default:
                break
            }
            index += 1
        }
        return nil
    }

    static var message: String { "nesting deeper than \(maximumDepth) levels" }

    /// `text` (from the file `name`) parsed, once its nesting is checked;
    /// either failure is `failure(line, column, message)`: a document's
    /// syntax error or a schema's.
    static func parse(_ text: String, name: String, failure: (Int, Int, String) -> QueryError) throws -> Document {
        if let place = firstTooDeep(in: text) { throw failure(place.line, place.column, message) }
        do {
            return try GraphQL.parse(source: Source(body: text, name: name))
        } catch let error as GraphQLError {
            let place = error.firstPlace
            throw failure(place.line, place.column, error.oneLineMessage)
        }
    }
}
