/// Narrows a scan for references to the records whose JSON text can hold a
/// reference to the keys in question, so that SQLite skips the others
/// without Swift decoding them.
///
/// A reference to key `K` is stored as `{"$reference":"K"}` with `K` as JSON
/// text: with `/` written `\/` as Apollo writes it, or as other writers do,
/// and any character may be written as a `\uXXXX` escape. The filter accepts
/// both plain spellings and every text that holds a `\u` escape (Apollo
/// writes none but for control characters); it may let through records
/// that hold no such reference (they are decoded and checked), never the
/// other way round.
public struct ReferenceScanFilter: Sendable {
    let sql: String
    let arguments: [String]

    /// Every record is read.
    public static let everything = ReferenceScanFilter(sql: "1", arguments: [])

    /// Records whose text contains one of `keys`. Past 16 keys the filter
    /// would cost more than it saves, and every record is read.
    public static func containing(keys: [CacheKey]) -> ReferenceScanFilter {
        guard !keys.isEmpty, keys.count <= 16 else { return .everything }
        // A key spelled with \u escapes ('Caf\u00e9:1') matches none of the spellings.
        let needles = keys.flatMap { spellings(of: $0.rawValue) } + ["\\u"]
        return ReferenceScanFilter(
            sql: "(" + needles.map { _ in "instr(record, ?) > 0" }.joined(separator: " OR ") + ")",
            arguments: needles)
    }

    /// The text as it may appear inside a JSON string: raw; escaped with
    /// `/` as `\/` (Apollo); escaped with `/` left as it is (most writers).
    private static func spellings(of text: String) -> [String] {
        var spellings = [text]
        for asStored in [true, false] {
            let escaped = JSONWriter.quoted(text, asStored: asStored).insideQuotes
            if !spellings.contains(escaped) { spellings.append(escaped) }
        }
        return spellings
    }
}
