import CacheStore

/// How `diff` prints: pure functions from differences to text lines and
/// JSON values, so they are tested as strings.
enum DiffReport {
    /// How much of each difference to show.
    enum Detail {
        /// Each record and its fields.
        case fields
        /// Each record's key.
        case keys
        /// The counts only.
        case summary
    }

    /// The text lines for one record: `+ KEY`, `- KEY` or `~ KEY`, then with
    /// `.fields` one line per field (`+ field: value`, `- field: value`,
    /// `~ field: before → after`). In colour, as git colours a diff: what
    /// is added green, what is removed red.
    static func textLines(for difference: RecordDifference, detail: Detail, style: TextStyle = .plain) -> [String] {
        var lines: [String]
        switch difference.kind {
        case .added: lines = [style.added("+ \(difference.key.display)")]
        case .removed: lines = [style.removed("- \(difference.key.display)")]
        case .changed: lines = ["~ " + style.key(difference.key.display)]
        }
        guard detail == .fields else { return lines }
        do {
            for field in try difference.fields() { lines.append("    " + textLine(for: field, style: style)) }
        } catch {
            lines[0] += " " + style.problem("(\(damageNote(difference)))")
        }
        return lines
    }

    static func textLine(for field: FieldDifference, style: TextStyle = .plain) -> String {
        func json(_ value: FieldValue) -> String { value.shownOnLine }
        switch (field.before, field.after) {
        case (nil, let after?): return style.added("+ \(field.field.shownOnLine): \(cut(json(after)))")
        case (let before?, nil): return style.removed("- \(field.field.shownOnLine): \(cut(json(before)))")
        case (let before?, let after?):
            var (shownBefore, shownAfter) = (json(before), json(after))
            // Values that differ only in how they write a character (é composed
            // or decomposed) look alike: their characters beyond ASCII are escaped.
            if shownBefore == shownAfter { (shownBefore, shownAfter) = (asciiOnly(shownBefore), asciiOnly(shownAfter)) }
            let (elidedBefore, elidedAfter, note) = elidingTheSame(shownBefore, shownAfter)
            return "~ \(field.field.shownOnLine): \(style.removed(elidedBefore)) → \(style.added(elidedAfter))\(note)"
        case (nil, nil): return "~ \(field.field.shownOnLine)"
        }
    }

    /// Values longer than this many characters are cut in text output
    /// (`--format json` gives them whole): a 5 MB string changed in one
    /// place would otherwise print 10 MB.
    static let longValue = 200

    /// An added or removed value, cut after its first 100 characters when long.
    static func cut(_ shown: String) -> String {
        guard shown.count > longValue else { return shown }
        return shown.prefix(100) + "… (\(plural(shown.count, "character")); --format json shows them all)"
    }

    /// Two long values shown around where they differ: what both begin
    /// and end with is left out but for 20 characters beside the change,
    /// and a note says how much was. Short ones are returned as they are.
    static func elidingTheSame(_ before: String, _ after: String) -> (before: String, after: String, note: String) {
        guard before.count > longValue || after.count > longValue else { return (before, after, "") }
        let lhs = Array(before), rhs = Array(after)
        var head = 0
        while head < lhs.count, head < rhs.count, lhs[head] == rhs[head] { head += 1 }
        var tail = 0
        while tail < lhs.count - head, tail < rhs.count - head, lhs[lhs.count - 1 - tail] == rhs[rhs.count - 1 - tail] { tail += 1 }
        let context = 20
        let leftOutHead = max(0, head - context), leftOutTail = max(0, tail - context)
        func shown(_ characters: [Character]) -> String {
            let middle = characters[leftOutHead..<(characters.count - leftOutTail)]
            // What differs, itself cut when long.
            let changed = middle.count > 2 * context + 100
                ? String(middle.prefix(context + 100)) + "…" + String(middle.suffix(context)) : String(middle)
            return (leftOutHead > 0 ? "…" : "") + changed + (leftOutTail > 0 ? "…" : "")
        }
        var note = ""
        if leftOutHead > 0 || leftOutTail > 0 {
            note = " (the same \(leftOutHead) characters before and \(leftOutTail) after left out; "
                + "--format json shows them all)"
        } else {
            note = " (cut; --format json shows them all)"
        }
        return (shown(lhs), shown(rhs), note)
    }

    /// `text` with every character beyond ASCII as a JSON escape (`\u00e9`,
    /// a surrogate pair beyond U+FFFF). Used only inside JSON strings' text
    /// here: a value's JSON, where the escape reads as the character.
    static func asciiOnly(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            guard scalar.value > 0x7E else {
                shown.unicodeScalars.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 {
                let hex = String(unit, radix: 16)
                shown += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return shown
    }

    /// Which side is damaged and how, for a record whose fields cannot be listed.
    static func damageNote(_ difference: RecordDifference) -> String {
        var notes: [String] = []
        if case .failure(let error)? = difference.before?.result { notes.append("damaged in the first file: \(problem(error))") }
        if case .failure(let error)? = difference.after?.result { notes.append("damaged in the second file: \(problem(error))") }
        return notes.joined(separator: "; ")
    }

    private static func problem(_ error: CacheStoreError) -> String {
        if case .damagedRecord(_, let problem) = error { return problem.description }
        return error.description
    }

    /// The summary line: what differs, or that nothing does.
    static func summary(_ counts: ComparisonCounts) -> String {
        if counts.isSame { return "same records: \(plural(counts.unchanged, "record")) in each" }
        var parts: [String] = []
        if counts.added > 0 { parts.append("\(counts.added) added") }
        if counts.removed > 0 { parts.append("\(counts.removed) removed") }
        if counts.changed > 0 { parts.append("\(counts.changed) changed") }
        let differing = counts.added + counts.removed + counts.changed
        return "\(plural(differing, "record")) \(differing == 1 ? "differs" : "differ"): "
            + parts.joined(separator: ", ") + "; \(counts.unchanged) the same"
    }

    /// One record as JSON: `{"key", "change", "fields": [{"field", "before", "after"}]}`;
    /// no `fields` with `.keys`; `"error"` instead for a damaged side.
    static func json(for difference: RecordDifference, detail: Detail) -> JSONOutput {
        .object([("key", .string(difference.key.rawValue)), ("change", .string(difference.kind.rawValue))]
            + detailMembers(for: difference, detail: detail))
    }

    /// The jsonl line for one record: `{"type": "added"|"removed"|"changed", "key", "fields"}`.
    static func jsonLine(for difference: RecordDifference, detail: Detail) -> JSONOutput {
        .object([("type", .string(difference.kind.rawValue)), ("key", .string(difference.key.rawValue))]
            + detailMembers(for: difference, detail: detail))
    }

    private static func detailMembers(for difference: RecordDifference, detail: Detail) -> [(String, JSONOutput)] {
        guard detail == .fields else { return [] }
        do {
            return [("fields", .array(try difference.fields().map(json(for:))))]
        } catch {
            return [("error", .string(damageNote(difference)))]
        }
    }

    static func json(for field: FieldDifference) -> JSONOutput {
        // A side that has no such field has no member (null would say it held null).
        .object([("field", .string(field.field))]
            + (field.before.map { [("before", JSONOutput.value($0))] } ?? [])
            + (field.after.map { [("after", JSONOutput.value($0))] } ?? []))
    }

    static func countMembers(_ counts: ComparisonCounts) -> [(String, JSONOutput)] {
        [("same", .bool(counts.isSame)), ("added", .int(counts.added)), ("removed", .int(counts.removed)),
         ("changed", .int(counts.changed)), ("unchanged", .int(counts.unchanged))]
    }
}
