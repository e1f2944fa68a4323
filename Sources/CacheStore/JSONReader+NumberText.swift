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
            try reader.forEachMember { reader, name, _ in
                var path: [ValueMatch.Step] = []
                try reader.collectNumbers(field: name, path: &path, depth: 1, into: &found)
            }
        } catch {
            return nil
        }
        return found
    }

    private mutating func collectNumbers(
        field: String, path: inout [ValueMatch.Step], depth: Int, into found: inout [NumberLocation: String]
    ) throws {
        skipWhitespace()
        switch peek() ?? 0 {
        case UInt8(ascii: "{"):
            index += 1
            try forEachMember { reader, name, _ in
                path.append(.member(name))
                defer { path.removeLast() }
                try reader.collectNumbers(field: field, path: &path, depth: depth + 1, into: &found)
            }
        case UInt8(ascii: "["):
            index += 1
            try forEachElement { reader, position in
                path.append(.index(position))
                defer { path.removeLast() }
                try reader.collectNumbers(field: field, path: &path, depth: depth + 1, into: &found)
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
