/// GraphQL's names (`[_A-Za-z][_0-9A-Za-z]*`): of types, fields, and the
/// key groups an app names after them.
public enum GraphQLName {
    /// Whether `text` is a name as GraphQL spells one.
    public static func isName<Text: StringProtocol>(_ text: Text) -> Bool {
        guard let first = text.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return text.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
