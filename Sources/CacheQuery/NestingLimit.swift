/// GraphQL text nested deeper than a reader could follow: the parser and
/// the walks over what it builds recurse once per level, and a few
/// thousand levels of `{`, `[` or `(` would overflow the stack. Text is
/// checked before it is parsed, so that it is refused with its place
/// instead.
enum NestingLimit {
    /// Far deeper than any real operation or schema.
    static let maximumDepth = 500

    /// Where `text` first goes deeper than ``maximumDepth`` (line and
    /// column from 1), or nil. Strings, block strings and comments do not
    /// count.
    static func firstTooDeep(in text: String) -> (line: Int, column: Int)? {
        var depth = 0
        var line = 1
        var lineStart = 0
        let bytes = Array(text.utf8)
        var index = 0
        func column(_ at: Int) -> Int { String(decoding: bytes[lineStart..<at], as: UTF8.self).count + 1 }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
            case UInt8(ascii: "#"):
                while index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "\""):
                if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\""), bytes[index + 2] == UInt8(ascii: "\"") {
                    // A block string ends at the next """ that is not escaped as \""".
                    index += 3
                    while index < bytes.count {
                        if bytes[index] == UInt8(ascii: "\n") {
                            line += 1
                            lineStart = index + 1
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
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\n") {
                        if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                        index += 1
                    }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { continue }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                if depth > maximumDepth { return (line, column(index)) }
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
}
