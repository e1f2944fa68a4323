import CacheStore

/// A path through a record's fields as people type it: a field's cache key
/// (`hero(episode:NEWHOPE)`) with list indexes after it (`friends.1`,
/// `friends[1]`, `grid.0.1`), and, where the field holds a reference,
/// a path in the record it refers to after a dot (`hero(episode:NEWHOPE).friends.0`),
/// as Apollo writes the keys of objects it keys by their path. Pure:
/// records in, names and indexes out.
enum FieldPath {
    /// Splits `friends.1`, `friends[1]` or `grid.0.1` into a field of
    /// `record` and list indexes. A field's cache key may itself hold dots
    /// and brackets (`search(near:{lat:1.5})`, `search([filter:…])`), so
    /// the field is the longest of the record's own field names that the
    /// path starts with and that leaves only indexes after it.
    static func fieldAndIndexes(_ path: String, in record: Record) -> (name: String, indexes: [Int])? {
        if record.fields[path] != nil { return (path, []) }
        for name in fieldNames(startingWith: Substring(path), in: record) {
            let (indexes, rest) = leadingIndexes(path.utf8.dropFirst(name.utf8.count))
            if rest.isEmpty { return (name, indexes) }
        }
        return nil
    }

    /// A field's name, before its arguments, list indexes or a path in it:
    /// `reviews` of `reviews(first:2).0`, `friends` of `friends[1]`.
    static func name<Text: StringProtocol>(of text: Text) -> Text.SubSequence { text.prefix { $0 != "(" && $0 != "." && $0 != "[" } }

    /// The first step of `path` from `record`: a field of it, the list
    /// indexes after that, and what follows the dot after them, if
    /// anything does (`friends.0` of `hero(episode:NEWHOPE).friends.0`).
    /// A field's name typed without its arguments (`hero`) stands for
    /// the one field of that name that has them. Nil when `path` starts
    /// with no field of `record`.
    static func firstStep(of path: Substring, in record: Record) -> (name: String, indexes: [Int], rest: Substring?)? {
        var names = fieldNames(startingWith: path, in: record)
        // `hero.friends.0` for hero(episode:NEWHOPE): the field's name before its arguments.
        let bareName = name(of: path)
        let withArguments = record.fields.keys.filter { $0.hasPrefix(bareName + "(") }
        if !bareName.isEmpty, record.fields[String(bareName)] == nil, withArguments.count == 1 { names.append(withArguments[0]) }
        for name in names {
            let typed = name.hasPrefix(bareName + "(") && !path.hasPrefix(name) ? bareName.utf8.count : name.utf8.count
            let (indexes, rest) = leadingIndexes(path.utf8.dropFirst(typed))
            if rest.isEmpty { return (name, indexes, nil) }
            if rest.first == UInt8(ascii: "."), rest.count > 1 { return (name, indexes, Substring(rest.dropFirst())) }
        }
        return nil
    }

    /// The record's field names that `path` starts with, longest first.
    private static func fieldNames(startingWith path: Substring, in record: Record) -> [String] {
        record.fields.keys.filter { path.utf8.starts(with: $0.utf8) }.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// `.1`, `[1]`, `.0.1`, `[0][1]` at the start of `text`: the indexes,
    /// and the rest of `text` after them.
    private static func leadingIndexes(_ text: Substring.UTF8View) -> (indexes: [Int], rest: Substring.UTF8View) {
        var rest = text
        var indexes: [Int] = []
        while let opening = rest.first, opening == UInt8(ascii: ".") || opening == UInt8(ascii: "[") {
            var after = rest.dropFirst()
            let digits = after.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !digits.isEmpty, let index = Int(String(Substring(digits))) else { break }
            after = after.dropFirst(digits.count)
            if opening == UInt8(ascii: "[") {
                guard after.first == UInt8(ascii: "]") else { break }
                after = after.dropFirst()
            }
            indexes.append(index)
            rest = after
        }
        return (indexes, rest)
    }
}
