import CacheStore

/// How `grep` prints one match: pure functions, tested as strings.
enum GrepReport {
    /// `friends[1]`, `meta.source`, `search(…)[0][1]`: the field key, then
    /// `[index]` for list elements and `.name` for object members.
    static func path(_ match: ValueMatch) -> String {
        shownLocation(field: match.field, path: match.path)
    }

    /// `Human:1000 name: "Luke Skywalker"`, or `Droid:2001 friends[1] → Human:1002`
    /// for a reference, as `rm` lists references. A number is written as
    /// the file holds it. In colour the key is bold and the matched text
    /// bold red, as grep marks it.
    static func textLine(key: CacheKey, match: ValueMatch, style: TextStyle = .plain) -> String {
        if case .reference(let target) = match.value {
            return "\(style.key(key.display)) \(path(match)) → \(marked(match.matched, in: target.display, style: style))"
        }
        let value = match.numberText ?? match.value.shownOnLine
        return "\(style.key(key.display)) \(path(match)): \(marked(match.matched, in: value, asJSONString: match.numberText == nil, style: style))"
    }

    /// `text` with the first `matched` in it marked (spelled as in a JSON
    /// string when `asJSONString`); unmarked when the match is not there as
    /// it is written (an escape spells it otherwise). Plain text is
    /// returned untouched, with no search.
    private static func marked(_ matched: String, in text: String, asJSONString: Bool = false, style: TextStyle) -> String {
        guard style.isColored, !matched.isEmpty else { return text }
        let spelled = asJSONString ? String(FieldValue.string(matched).shownOnLine.dropFirst().dropLast()) : matched
        guard let range = text.range(of: spelled) else { return text }
        return String(text[..<range.lowerBound]) + style.match(String(text[range])) + String(text[range.upperBound...])
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
