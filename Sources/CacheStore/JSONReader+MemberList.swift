import Foundation

/// A top-level object's members in the order written, and where in the
/// text they are: for import's input and its messages.
extension JSONReader {
    /// The members of a top-level JSON object in the order the text has
    /// them, every one kept: names that are the same Swift string but not
    /// the same bytes (é composed and decomposed), or even the same bytes,
    /// stay apart, where a dictionary would fold them into one. Nil when
    /// the text is JSON but not an object.
    /// The members' values are read as input to import (see
    /// ``readsImportInput``), with the first member given twice inside one.
    /// `offset`: where the member's name starts in the text's UTF-8.
    static func parseMemberList(_ text: String) throws -> (members: [(name: String, value: FieldValue, offset: Int)], repeated: RepeatedMember?)? {
        var text = text
        return try text.withUTF8 { buffer in
            var reader = JSONReader(bytes: buffer)
            reader.readsImportInput = true
            reader.skipWhitespace()
            guard reader.peek() == UInt8(ascii: "{") else {
                _ = try reader.parseValue(depth: 0)
                reader.skipWhitespace()
                guard reader.index == buffer.count else { throw reader.error("unexpected text after the value") }
                return nil
            }
            reader.index += 1  // "{"
            var members: [(name: String, value: FieldValue, offset: Int)] = []
            reader.skipWhitespace()
            if reader.peek() == UInt8(ascii: "}") {
                reader.index += 1
            } else {
                while true {
                    reader.skipWhitespace()
                    guard reader.peek() == UInt8(ascii: "\"") else { throw reader.error("expected a member name in quotes") }
                    let offset = reader.index
                    let name = try reader.parseString()
                    try reader.expect(UInt8(ascii: ":"))
                    // Each member is a record: nested as deep as a stored one may be.
                    members.append((name, try reader.parseValue(depth: 0), offset))
                    reader.skipWhitespace()
                    guard let next = reader.peek() else { throw reader.error("unterminated object") }
                    reader.index += 1
                    if next == UInt8(ascii: "}") { break }
                    guard next == UInt8(ascii: ",") else { reader.index -= 1; throw reader.error("expected ',' or '}' in object") }
                }
            }
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.error("unexpected text after the value") }
            return (members, reader.repeatedMember)
        }
    }

    /// Where, in `text`'s UTF-8, the member `field` of the object that is
    /// the value of the member named at `offset` starts (its name); the last
    /// one when it is given twice, as that is the one read. Nil when there
    /// is none, or the text there is not such a member.
    static func offset(ofMember field: String, inValueOfMemberAt offset: Int, of text: String) -> Int? {
        var text = text
        return text.withUTF8 { buffer in
            var reader = JSONReader(bytes: buffer)
            reader.index = offset
            guard reader.peek() == UInt8(ascii: "\""), (try? reader.parseString()) != nil, (try? reader.expect(UInt8(ascii: ":"))) != nil else { return nil }
            reader.skipWhitespace()
            guard reader.peek() == UInt8(ascii: "{") else { return nil }
            reader.index += 1
            var found: Int?
            while true {
                reader.skipWhitespace()
                let start = reader.index
                guard reader.peek() == UInt8(ascii: "\""), let name = try? reader.parseString(), (try? reader.expect(UInt8(ascii: ":"))) != nil,
                    (try? reader.skipValue(depth: 1)) != nil
                else { return found }
                if name.utf8.elementsEqual(field.utf8) { found = start }
                reader.skipWhitespace()
                guard reader.peek() == UInt8(ascii: ",") else { return found }
                reader.index += 1
            }
        }
    }
}
