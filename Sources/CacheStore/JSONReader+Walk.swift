extension JSONReader {
    /// After an object's `{`: calls `body` at each member's value (right
    /// after the `:`) with the member's name and where the member starts
    /// (its name's opening quote); `body` must step over the value. Ends
    /// after the `}`.
    mutating func forEachMember(_ body: (inout JSONReader, _ name: String, _ start: Int) throws -> Void) throws {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            let start = index
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let name = try parseString()
            try expect(UInt8(ascii: ":"))
            try body(&self, name, start)
            skipWhitespace()
            guard let next = peek() else { throw error("unterminated object") }
            index += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or '}' in object") }
        }
    }

    /// After an array's `[`: calls `body` at each element (its first
    /// byte) with its position; `body` must step over it. Ends after the
    /// `]`.
    mutating func forEachElement(_ body: (inout JSONReader, _ position: Int) throws -> Void) throws {
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; return }
        var position = 0
        while true {
            skipWhitespace()
            try body(&self, position)
            position += 1
            skipWhitespace()
            guard let next = peek() else { throw error("unterminated array") }
            index += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or ']' in array") }
        }
    }
}
