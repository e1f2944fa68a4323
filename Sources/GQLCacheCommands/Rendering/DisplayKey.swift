import CacheStore

extension String {
    /// A key or field name for line-based text output: as it is, or
    /// JSON-quoted when it holds a control character (a newline would split
    /// it across lines, an escape sequence would act on the terminal) or a
    /// character that moves the text around it (a line separator, a
    /// right-to-left override), is empty (`""`, not a blank), begins or ends
    /// with a space of any kind or an invisible character (which a line
    /// does not show), or itself begins with `"`. The movers are written
    /// as `\uXXXX` escapes. So a name shown as it is never begins with `"`,
    /// and one shown quoted always does: the key `""` (two quotes) shows
    /// `"\"\""`, never as the empty key, and a listing fed back to `rm`
    /// cannot name another record.
    var shownOnLine: String {
        // C0 controls and DEL are single bytes in UTF-8, and no byte of a
        // longer character is below 0x80; a C1 control (U+0080–U+009F) is
        // 0xC2 then 0x80–0x9F. The bytes say it, without decoding.
        let bytes = utf8
        guard let first = bytes.first, first != 0x22, first != 0x20, bytes.last != 0x20 else {
            return quotedForLine
        }
        var afterC2 = false
        var isASCII = true
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F || (afterC2 && byte < 0xA0) { return quotedForLine }
            afterC2 = byte == 0xC2
            if byte >= 0x80 { isASCII = false }
        }
        if !isASCII {
            let scalars = unicodeScalars
            // At an end, a space of any kind looks like nothing; an invisible character anywhere does.
            if containsScalar(where: { $0.movesText || $1 }) || scalars.first!.properties.isWhitespace || scalars.last!.properties.isWhitespace {
                return quotedForLine
            }
        }
        return self
    }

    /// JSON-quoted, with the characters that move text, and the invisible
    /// ones, escaped.
    var quotedForLine: String {
        JSONWriter.quoted(self, asStored: false).escaping { $0.movesText || $1 }
    }

    /// JSON text with the scalars `escaped` picks as `\u` escapes, which
    /// JSON reads back as the same characters. `escaped` is given each
    /// scalar and whether it shows nothing where it is (``containsScalar(where:)``).
    fileprivate func escaping(_ escaped: (Unicode.Scalar, Bool) -> Bool) -> String {
        guard containsScalar(where: escaped) else { return self }
        var text = ""
        forEachScalar { scalar, showsNothing in
            if escaped(scalar, showsNothing) { text += scalar.jsonEscape } else { text.unicodeScalars.append(scalar) }
        }
        return text
    }

    /// Whether `test` holds for a scalar, given it and whether it shows
    /// nothing where it is: an invisible character (``Unicode/Scalar/isInvisible``),
    /// or a joiner or variation selector with nothing to act on there
    /// (`Droid:2001` and `Droid:2001\ufe0f` look alike, while `❤️`, a keycap
    /// `1️⃣`, the joined emoji of a family and a Sinhala conjunct show what
    /// they join or select).
    func containsScalar(where test: (Unicode.Scalar, Bool) -> Bool) -> Bool {
        !visitScalars { !test($0, $1) }
    }

    /// Each scalar, with whether it shows nothing where it is (see ``containsScalar(where:)``).
    func forEachScalar(_ body: (Unicode.Scalar, Bool) -> Void) {
        _ = visitScalars { body($0, $1); return true }
    }

    /// Hands over each scalar and whether it shows nothing, while `body`
    /// returns true; false when it stopped early. The scalars before and
    /// after are looked at in place: no copy of the text is made for a key
    /// shown in a listing of a million.
    private func visitScalars(_ body: (Unicode.Scalar, Bool) -> Bool) -> Bool {
        var iterator = unicodeScalars.makeIterator()
        var before: Unicode.Scalar?
        var next = iterator.next()
        while let scalar = next {
            next = iterator.next()
            let after = next
            defer { before = scalar }
            let showsNothing: Bool
            switch scalar.value {
            case 0x200D:
                // A zero-width joiner joins two characters beyond ASCII (emoji, an Indic conjunct).
                showsNothing = !(before.map { !$0.isASCII } ?? false) || !(after.map { !$0.isASCII } ?? false)
            case 0xFE0F:
                // The emoji selector shows on an emoji drawn as text without it
                // (U+2764 ❤), or a keycap's digit, # or * before U+20E3.
                let onTextEmoji = before.map { !$0.isASCII && $0.properties.isEmoji && !$0.properties.isEmojiPresentation } ?? false
                let onKeycap = before.map { "0123456789#*".unicodeScalars.contains($0) } ?? false && after?.value == 0x20E3
                showsNothing = !(onTextEmoji || onKeycap)
            case 0xFE00...0xFE0E, 0xE0100...0xE01EF, 0x180B...0x180D, 0x180F:
                // Other selectors choose a glyph of the letter before them (CJK, Mongolian).
                showsNothing = !(before.map { !$0.isASCII } ?? false)
            default:
                showsNothing = scalar.isInvisible
            }
            guard body(scalar, showsNothing) else { return false }
        }
        return true
    }
}

extension FieldValue {
    /// The value as text output shows it: compact JSON, `/` unescaped,
    /// control characters escaped as JSON escapes them, and so are those
    /// that move text, so that a value cannot break or reorder the line it
    /// is on (`"x\u202ey"`). Invisible ones, which keys escape so that two
    /// keys never look alike, stay: a soft hyphen or a zero-width non-joiner
    /// is part of ordinary text.
    var shownOnLine: String { JSONWriter.string(for: self, asStored: false).escaping { scalar, _ in scalar.movesText } }
}

extension Unicode.Scalar {
    /// `\u001b`, `\u202e`: the scalar as a JSON escape, lowercase as JSON
    /// output writes control characters; beyond the Basic Multilingual
    /// Plane, the two escapes of its UTF-16 surrogate pair.
    var jsonEscape: String {
        func escape(_ unit: UInt32) -> String {
            let hex = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        guard value > 0xFFFF else { return escape(value) }
        let offset = value - 0x10000
        return escape(0xD800 + (offset >> 10)) + escape(0xDC00 + (offset & 0x3FF))
    }

    /// A character that shows nothing of its own: a format character (a
    /// zero-width space U+200B, a soft hyphen, U+FEFF) or another that
    /// Unicode says to draw as nothing (U+034F, the Hangul fillers U+115F
    /// and U+3164): `User:1` and `User:\u200b1` would look alike. The
    /// zero-width joiner and the variation selectors show nothing either,
    /// but join or change an emoji before them, which ``String/containsScalar(where:)`` tells.
    var isInvisible: Bool {
        // No ASCII character is either; asking Unicode's tables for each
        // letter of a long listing took most of its time.
        !isASCII && value != 0x200D && (properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint)
    }

    /// A C0 or C1 control character or DEL: what a terminal acts on or hides.
    var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }

    /// A line or paragraph separator, or a bidirectional control: shown
    /// raw, it breaks a line or reorders the text around it.
    var movesText: Bool {
        switch value {
        case 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

extension CacheKey {
    /// The key for line-based text output (see ``Swift/String/shownOnLine``).
    var display: String { rawValue.shownOnLine }

    /// The key in a one-line message (whose control characters the
    /// report escapes): cut to its first 120 characters when longer than
    /// 200, saying how long it is, so that a 100,000-character key typed
    /// by mistake does not fill the screen.
    var inMessage: String { cut { $0 } }

    /// The key in a list of keys within a message, such as a question
    /// about what to remove: shown as ``display`` shows it (quoted when it
    /// has a tab, a space at an end, …, so that every key can be told from
    /// every other) and cut as ``inMessage`` cuts it.
    var inMessageList: String { cut(\.shownOnLine) }

    /// The key, or its first 120 characters when it has more than 200,
    /// through `shown`, with its length after a cut one.
    private func cut(_ shown: (String) -> String) -> String {
        guard rawValue.count > 200 else { return shown(rawValue) }
        return "\(shown(String(rawValue.prefix(120))))… (\(rawValue.count) characters)"
    }
}

extension BlobKeyRow {
    /// The BLOB key for text output: its text when its bytes are UTF-8,
    /// otherwise an SQL BLOB literal, `X'FF00'`, which is exact.
    var display: String { key?.display ?? "X'\(hex)' (not UTF-8)" }

    /// JSON members naming the key: `key`, its text or null when its bytes
    /// are not UTF-8, and `keyHex`, the bytes in hexadecimal.
    var jsonKeyMembers: [(String, JSONOutput)] {
        [("key", key.map { .string($0.rawValue) } ?? .null), ("keyHex", .string(hex))]
    }
}

/// Where a reference or a match sits, for line-based text output:
/// `friends[1]`, `meta.owner`, with the field and member names shown as
/// ``Swift/String/shownOnLine`` shows them.
func shownLocation(field: String, path: [ValuePathStep]) -> String {
    path.reduce(into: field.shownOnLine) { text, step in
        switch step {
        case .index(let index): text += "[\(index)]"
        case .member(let name): text += "." + name.shownOnLine
        }
    }
}

extension ReferencePath {
    /// ``location`` for line-based text output.
    var shownLocation: String { GQLCacheCommands.shownLocation(field: field, path: path) }
}

extension ReferenceLocation {
    /// ``location`` for line-based text output.
    var shownLocation: String { GQLCacheCommands.shownLocation(field: field, path: path ?? []) }
}

extension KeyPattern {
    /// `no key matches apollo pattern 'Post:*' in FILE`, with a hint when the
    /// text has a wildcard of another mode: in an apollo or literal pattern
    /// `*` and `?` are themselves (as in Apollo's removeObjects(matching:)).
    func noMatchMessage(in path: String, typenames: String? = nil) -> String {
        let types = typenames.map { " with __typename \($0)" } ?? ""
        var hint = ""
        if mode == .apollo && text.isEmpty {
            // As rm says it: Apollo's removeObjects(matching: "") does nothing since 1.21.
            hint = "; an empty apollo pattern matches nothing (Apollo ignores it; before 1.21 it removed every record): give no pattern for every key"
        } else if [.apollo, .literal, .prefix].contains(mode), text.contains(where: { $0 == "*" || $0 == "?" }) {
            let wildcards = mode == .apollo ? "% and _ are its wildcards" : "it has no wildcards"
            hint = "; '*' and '?' are no wildcards in a\(mode == .apollo ? "n" : "") \(mode.rawValue) pattern (\(wildcards)): give --mode glob for them"
        }
        return "no key matches \(self)\(types) in \(path)\(hint)"
    }
}

/// A `__typename` as `info` and `stats` list it: `(none)` for the records
/// that have none, and a typename that is itself the text `(none)` quoted,
/// so that the two rows are told apart.
func typenameLabel(_ name: String?) -> String {
    guard let name else { return "(none)" }
    return name == "(none)" ? name.quotedForLine : name.shownOnLine
}

extension Collection where Element == CacheKey {
    /// The first `limit` keys as a message lists them (``CacheKey/inMessageList``),
    /// with `…` after them when more follow: `A, B, C, …`.
    func listedInMessage(first limit: Int) -> String {
        prefix(limit).map(\.inMessageList).joined(separator: ", ") + (count > limit ? ", …" : "")
    }
}
