/// Whether each byte of JSON text, read one at a time, is inside a string:
/// a quote opens one, and an unescaped quote closes it. For the passes
/// over a record's bytes that must not take a string's text for tokens.
struct JSONStringTracker {
    /// True once a byte has opened a string and none has closed it yet.
    private(set) var inString = false
    /// True after a backslash in a string: the next byte is escaped.
    private(set) var escaped = false

    /// Takes the next byte (within a multi-byte character, its bytes one
    /// by one: none of them is a quote or a backslash).
    @inline(__always)
    mutating func take(_ byte: UInt8) {
        if !inString {
            inString = byte == UInt8(ascii: "\"")
        } else if escaped {
            escaped = false
        } else if byte == UInt8(ascii: "\\") {
            escaped = true
        } else if byte == UInt8(ascii: "\"") {
            inString = false
        }
    }

    /// Takes a character that is neither a quote nor a backslash, given
    /// other than byte by byte: it ends an escape, as any byte does.
    mutating func takeOther() { escaped = false }
}
