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
        let shown: String
        switch match.value {
        case .reference(let target):
            // A key shown quoted is marked as a string is: each part escaped as the key is.
            shown = " → " + (target.display == target.rawValue
                ? marked(match, in: target.rawValue, style: style) { $0 }
                : "\"" + marked(match, in: target.rawValue, style: style) { $0.quotedForLine.insideQuotes } + "\"")
        case .string(let text):
            let body = { (part: String) in FieldValue.string(part).shownOnLine.insideQuotes }
            shown = ": " + (style.isColored ? "\"" + marked(match, in: text, style: style, shownAs: body) + "\"" : match.value.shownOnLine)
        default:
            shown = ": " + marked(match, in: match.numberText ?? match.value.shownOnLine, style: style) { $0 }
        }
        return "\(style.key(key.display)) \(path(match))\(shown)"
    }

    /// `subject`, the text searched, each part shown by `shownAs`, with
    /// the match marked where it was found (after ``ValueMatch/before``):
    /// not an earlier place the same text comes, inside an escape (the `n`
    /// of `\n`) or inside a character (the `e` of `é`).
    /// Every match in the value is marked, as GNU grep marks them.
    private static func marked(_ match: ValueMatch, in subject: String, style: TextStyle, shownAs: (String) -> String) -> String {
        guard style.isColored else { return shownAs(subject) }
        var line = shownAs(match.before) + (match.matched.isEmpty ? "" : style.match(shownAs(match.matched)))
        var skipped = match.before.unicodeScalars.count + match.matched.unicodeScalars.count
        for later in match.later {
            line += shownAs(later.between) + style.match(shownAs(later.matched))
            skipped += later.between.unicodeScalars.count + later.matched.unicodeScalars.count
        }
        return line + shownAs(String(Substring(subject.unicodeScalars.dropFirst(skipped))))
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
