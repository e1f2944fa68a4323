import CacheStore

/// How `grep` prints one match: pure functions, tested as strings.
enum GrepReport {
    /// `friends[1]`, `meta.source`, `search(…)[0][1]`: the field key, then
    /// `[index]` for list elements and `.name` for object members.
    static func path(_ match: ValueMatch) -> String {
        match.field + match.path.map(\.description).joined()
    }

    /// `Human:1000 name: "Luke Skywalker"`, or `Droid:2001 friends[1] → Human:1002`
    /// for a reference, as `rm` lists references. A number is written as
    /// the file holds it.
    static func textLine(key: CacheKey, match: ValueMatch) -> String {
        if case .reference(let target) = match.value {
            return "\(key.display) \(path(match)) → \(target.display)"
        }
        return "\(key.display) \(path(match)): \(match.numberText ?? JSONWriter.string(for: match.value, asStored: false))"
    }

    /// `{"key", "field", "path": [steps: numbers and names], "value", "match"}`.
    static func json(key: CacheKey, match: ValueMatch) -> JSONOutput {
        .object([
            ("key", .string(key.rawValue)),
            ("field", .string(match.field)),
            ("path", .array(match.path.map(\.json))),
            ("value", match.numberText.map(JSONOutput.number) ?? .value(match.value)),
            ("match", .string(match.matched)),
        ])
    }
}
