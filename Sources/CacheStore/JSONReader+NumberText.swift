/// Where a number sits in a record: its field, and the steps from the
/// field's value to it.
struct NumberLocation: Hashable {
    let field: String
    let path: [ValueMatch.Step]
}

extension JSONReader {
    /// The text of every number in a record's JSON, as the file holds it
    /// (`1.10`, `1e2`, digits beyond a Double's precision), by where it
    /// sits. Where a member name repeats, the last one's numbers win, as
    /// when the record is decoded. Nil when the text is not one
    /// well-formed object.
    static func numberTexts(inRecord text: UnsafeBufferPointer<UInt8>) -> [NumberLocation: String]? {
        var reader = JSONReader(bytes: text)
        var found: [NumberLocation: String] = [:]
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{") else { return nil }
        do {
            reader.index += 1
            try reader.forEachMember { reader, name in
                var path: [ValueMatch.Step] = []
                try reader.collectNumbers(field: name, path: &path, depth: 1, into: &found)
            }
        } catch {
            return nil
        }
        return found
    }

    /// After an object's `{`: calls `body` at each member's value, which
    /// `body` must step over; ends after the `}`.
    private mutating func forEachMember(_ body: (inout JSONReader, String) throws -> Void) throws {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let name = try parseString()
            try expect(UInt8(ascii: ":"))
            try body(&self, name)
            skipWhitespace()
            guard let next = peek() else { throw error("unterminated object") }
            index += 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else { throw error("expected ',' or '}' in object") }
        }
    }

    private mutating func collectNumbers(
        field: String, path: inout [ValueMatch.Step], depth: Int, into found: inout [NumberLocation: String]
    ) throws {
        skipWhitespace()
        switch peek() ?? 0 {
        case UInt8(ascii: "{"):
            index += 1
            try forEachMember { reader, name in
                path.append(.member(name))
                defer { path.removeLast() }
                try reader.collectNumbers(field: field, path: &path, depth: depth + 1, into: &found)
            }
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; return }
            var position = 0
            while true {
                path.append(.index(position))
                try collectNumbers(field: field, path: &path, depth: depth + 1, into: &found)
                path.removeLast()
                position += 1
                skipWhitespace()
                guard let next = peek() else { throw error("unterminated array") }
                index += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { throw error("expected ',' or ']' in array") }
            }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            _ = try parseNumber(converting: false)
            found[NumberLocation(field: field, path: path)] = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        default:
            try skipValue(depth: depth)
        }
    }
}
