import Foundation
internal import GRDB

/// A pattern that selects record keys, for listing and for removal.
///
/// ```swift
/// let pattern = try KeyPattern("Human:100_", mode: .apollo)
/// pattern.matches("Human:1002")   // true: `_` is a LIKE wildcard in Apollo's SQL
/// ```
///
/// The modes:
/// - `apollo`: exactly what Apollo iOS's `removeObjects(matching:)` does on
///   SQLite: `key LIKE '%pattern%'`, ASCII case-insensitive, with `%` (any
///   run) and `_` (any one character) live. An empty pattern matches nothing.
/// - `literal`: case-insensitive (ASCII) substring, `%` and `_` taken
///   literally: Apollo's in-memory cache behaviour, but for non-ASCII
///   letters, whose case its `range(of:options: .caseInsensitive)` folds too.
/// - `prefix`: keys that start with the text, case-sensitive; a range scan
///   of the key index, never a full scan.
/// - `glob`: the whole key against a case-sensitive glob (`*`, `?`,
///   `[abc]`, `[!abc]` or `[^abc]`, `\*` for a literal `*`), as a shell
///   reads it; SQLite's GLOB runs it (see ``sqliteGlob``).
/// - `regex`: an ICU regular expression searched anywhere in the key,
///   case-sensitive unless it says `(?i)`.
public struct KeyPattern: Hashable, Sendable, CustomStringConvertible {
    public enum Mode: String, CaseIterable, Sendable {
        case apollo, literal, prefix, glob, regex
    }

    public let text: String
    public let mode: Mode
    /// The text's UTF-8, for matching many keys in memory.
    private let utf8: [UInt8]
    /// A glob as SQLite's GLOB takes it: `[!` is `[^`, and a character a
    /// backslash escapes stands alone (`\*` is `[*]`), in a class too. A
    /// shell, fnmatch and git read `[!C]*` as "not C" and `[a\-c]` as "a,
    /// - or c"; SQLite as "! or C" and "a, or \ to c", which would have
    /// `rm --match` remove just the keys meant to be kept.
    let sqliteGlob: String

    public init(_ text: String, mode: Mode) throws {
        self.text = text
        self.mode = mode
        self.utf8 = Array(text.utf8)
        self.sqliteGlob = mode == .glob ? try Self.sqliteGlob(from: text) : text
        if mode == .regex && !text.isEmpty {
            do {
                _ = try NSRegularExpression(pattern: text)
            } catch {
                throw CacheStoreError.invalidPattern(pattern: text, message: "not a valid regular expression")
            }
        }
        let sqlPattern: String? = switch mode {
        case .apollo: "%" + text + "%"
        case .literal: "%" + LikeMatcher.escapeLike(text) + "%"
        case .glob: sqliteGlob
        case .prefix, .regex: nil
        }
        if let sqlPattern, sqlPattern.utf8.count > Self.maximumSQLPatternLength {
            throw CacheStoreError.invalidPattern(
                pattern: text, message: "longer than the 50,000 bytes SQLite takes in a LIKE or GLOB pattern")
        }
    }

    /// `text`, a glob as a shell reads it, as SQLite's GLOB takes it.
    /// Outside a class, a character a backslash escapes stands alone
    /// (`\*` is `[*]`). A class (`[...]`, `[!...]` or `[^...]`) is read
    /// as bash reads it: a backslash escapes the next character, a `]`
    /// first is a member, `a-z` a range; and written as GLOB reads it
    /// (``sqliteClass(_:negated:)``). Throws for a `[` no `]` closes
    /// (GLOB would fail every key there), a range that runs backwards
    /// (which a shell lets match nothing) and a character class such as
    /// `[:upper:]`, which GLOB has no way to say.
    static func sqliteGlob(from text: String) throws -> String {
        func refused(_ message: String) -> CacheStoreError { .invalidPattern(pattern: text, message: message) }
        var result = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\\":
                // An escaped character is itself; a trailing backslash too.
                guard let escaped = scalars.popFirst() else { result.unicodeScalars.append(scalar); continue }
                if "*?[".unicodeScalars.contains(escaped) {
                    result += "[" + String(escaped) + "]"
                } else {
                    result.unicodeScalars.append(escaped)
                }
            case "[":
                var negated = false
                if scalars.first == "!" || scalars.first == "^" {
                    scalars.removeFirst()
                    negated = true
                }
                var members: [ClosedRange<UInt32>] = []
                func member() -> Unicode.Scalar? {
                    guard let next = scalars.popFirst() else { return nil }
                    return next == "\\" ? scalars.popFirst() : next
                }
                while true {
                    if !members.isEmpty, scalars.first == "]" {
                        scalars.removeFirst()
                        break
                    }
                    if scalars.first == "[", let kind = scalars.dropFirst().first, ":=.".unicodeScalars.contains(kind),
                        let close = String(scalars.dropFirst(2)).range(of: String(kind) + "]")
                    {
                        let name = "[" + String(kind) + String(String(scalars.dropFirst(2))[..<close.lowerBound]) + String(kind) + "]"
                        throw refused("a character class such as \(name) is not supported; write its characters (e.g. [A-Z])")
                    }
                    guard let low = member() else { throw refused("a '[' is never closed by ']' (write \\[ or [[] for a literal '[')") }
                    // A '-' before the closing ']' is a member.
                    if scalars.first == "-", let after = scalars.dropFirst().first, after != "]" {
                        scalars.removeFirst()
                        guard let high = member() else { throw refused("a '[' is never closed by ']' (write \\[ or [[] for a literal '[')") }
                        guard low.value <= high.value else {
                            throw refused("the range \(String(low))-\(String(high)) runs backwards and holds no character")
                        }
                        members.append(low.value...high.value)
                    } else {
                        members.append(low.value...low.value)
                    }
                }
                result += sqliteClass(members, negated: negated)
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A class of `members` (code point ranges) as SQLite's GLOB reads it,
    /// where no backslash escapes: a `]` is a member only first, a `-` only
    /// last (or it makes a range of its neighbours), a `^` first negates,
    /// and a range can neither start at a leading `]` nor end at `]`.
    static func sqliteClass(_ members: [ClosedRange<UInt32>], negated: Bool) -> String {
        let closing = Unicode.Scalar("]").value, dash = Unicode.Scalar("-").value, caret = Unicode.Scalar("^").value
        // `]` and `-` are taken out of every range, to stand where GLOB reads them as members.
        var holdsClosing = false, holdsDash = false
        var ranges: [ClosedRange<UInt32>] = []
        for range in members {
            var pieces = [range]
            for special in [closing, dash] where range.contains(special) {
                if special == closing { holdsClosing = true } else { holdsDash = true }
                pieces = pieces.flatMap { piece -> [ClosedRange<UInt32>] in
                    guard piece.contains(special) else { return [piece] }
                    return (special > piece.lowerBound ? [piece.lowerBound...(special - 1)] : [])
                        + (special < piece.upperBound ? [(special + 1)...piece.upperBound] : [])
                }
            }
            ranges += pieces
        }
        // A `^` first would negate: another member goes before it.
        if !negated, !holdsClosing, let first = ranges.first, first.lowerBound == caret {
            if let other = ranges.firstIndex(where: { $0.lowerBound != caret }) {
                ranges.swapAt(0, other)
            } else if first.count > 1 {
                ranges[0] = (caret + 1)...first.upperBound
                ranges.append(caret...caret)
            } else if holdsDash {
                // A `-` first is a member too, and no range can follow it here.
                return "[-^]"
            } else {
                return "^"
            }
        }
        func text(_ value: UInt32) -> String { String(Unicode.Scalar(value).map(Character.init) ?? "?") }
        var result = negated ? "[^" : "["
        if holdsClosing { result += "]" }
        for range in ranges { result += range.count == 1 ? text(range.lowerBound) : text(range.lowerBound) + "-" + text(range.upperBound) }
        if holdsDash { result += "-" }
        return result + "]"
    }

    /// SQLite's limit on a LIKE or GLOB pattern (SQLITE_MAX_LIKE_PATTERN_LENGTH),
    /// past which the statement fails.
    static let maximumSQLPatternLength = 50_000

    public var description: String { "\(mode.rawValue) pattern '\(text.shortenedForMessage)'" }

    /// True when no key can match: Apollo ignores an empty pattern.
    public var matchesNothing: Bool { mode == .apollo && text.isEmpty }

    /// True when every key matches: an empty literal, prefix or regex
    /// pattern. (An empty glob matches only an empty key.)
    public var matchesEverything: Bool { text.isEmpty && [.literal, .prefix, .regex].contains(mode) }

    /// The same decision as the SQL the store runs, made in memory. A key
    /// holding a NUL character is matched whole, but in apollo mode, where
    /// SQLite's LIKE (Apollo's own) reads it only up to the NUL.
    public func matches(_ key: CacheKey) -> Bool {
        switch mode {
        case .apollo:
            var key = key.rawValue
            return !utf8.isEmpty && key.withUTF8 { bytes in
                let end = bytes.firstIndex(of: 0) ?? bytes.count
                return LikeMatcher.containsLike(UnsafeBufferPointer(rebasing: bytes[..<end]), pattern: utf8)
            }
        case .literal:
            var key = key.rawValue
            return key.withUTF8 { LikeMatcher.containsFoldingASCII($0, utf8) }
        case .prefix:
            return key.rawValue.utf8.starts(with: text.utf8)
        case .glob:
            return LikeMatcher.globMatches(Array(key.rawValue.unicodeScalars), pattern: Array(sqliteGlob.unicodeScalars))
        case .regex:
            // Used on references to the keys a statement selected with the same
            // expression, which would have failed there first: a failure here is no match.
            return text.isEmpty || (try? RegexCache.shared.matches(pattern: text, in: key.rawValue, place: "")) == true
        }
    }

    /// True when the SQL condition is a range of text keys, which holds no
    /// NULL and no BLOB (SQLite orders every BLOB after every text).
    var isBoundedTextRange: Bool { mode == .prefix && !text.isEmpty && KeyPattern.indexRange(forPrefix: text).upper != nil }

    /// The SQL condition on column `key` and its arguments. SQLite's LIKE
    /// and GLOB, and a function handed the key as text, read a key only up
    /// to a NUL character in it: such a key is matched whole, in memory,
    /// through ``sqlFunctionName`` (apollo mode keeps LIKE's reading, as
    /// Apollo's own SQL reads it).
    func sqlCondition() -> (sql: String, arguments: [String]) {
        // A key that is no text (a BLOB: a stray row) is no key a pattern of
        // gqlcache's own names; keys never lists one, so rm never removes one.
        func withWholeKeys(_ condition: String, _ argument: String) -> (sql: String, arguments: [String]) {
            ("typeof(key) = 'text' AND CASE WHEN instr(key, char(0)) = 0 THEN \(condition) "
                + "ELSE \(Self.sqlFunctionName)('\(mode.rawValue)', ?, key) END",
             [argument, text])
        }
        // Where the key index holds every key that starts with `start`.
        func range(_ start: String) -> (sql: String, arguments: [String]) {
            let range = Self.indexRange(forPrefix: start)
            guard let upper = range.upper else { return ("key >= ?", [range.lower]) }
            return ("key >= ? AND key < ?", [range.lower, upper])
        }
        switch mode {
        case .apollo:
            if text.isEmpty { return ("0", []) }
            return ("key LIKE ? COLLATE NOCASE", ["%" + text + "%"])
        case .literal:
            return withWholeKeys("key LIKE ? ESCAPE '\\'", "%" + LikeMatcher.escapeLike(text) + "%")
        case .prefix:
            if text.isEmpty { return ("key IS NOT NULL", []) }
            // The range may hold more than the keys that start with the text
            // (in a UTF-16 file); the first characters decide.
            let bounds = range(text)
            return (bounds.sql + " AND substr(key, 1, \(text.unicodeScalars.count)) = ?", bounds.arguments + [text])
        case .glob:
            // The literal start of the pattern as a range of the key index, which
            // SQLite's own GLOB optimisation gives only to a bare `key GLOB ?`
            // (a key holding a NUL sorts in the same range).
            let start = String(sqliteGlob.unicodeScalars.prefix { !"*?[".unicodeScalars.contains($0) })
            let glob = withWholeKeys("key GLOB ?", sqliteGlob)
            guard !start.isEmpty else { return glob }
            let bounds = range(start)
            return (bounds.sql + " AND " + glob.sql, bounds.arguments + glob.arguments)
        case .regex:
            if text.isEmpty { return ("key IS NOT NULL", []) }
            return ("typeof(key) = 'text' AND \(RegexCache.sqlFunctionName)(?, key)", [text])
        }
    }

    /// A range of keys that holds every key starting with `prefix`, in a
    /// file whose text is UTF-8, UTF-16LE or UTF-16BE: SQLite compares
    /// keys by their bytes in the file's encoding, where one character
    /// may sort before another in UTF-8 and after it in UTF-16. Only an
    /// ASCII character's successor sorts after it in all three, so the
    /// upper bound goes on from the prefix's last one (none: no bound).
    static func indexRange(forPrefix prefix: String) -> (lower: String, upper: String?) {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            guard last.value < 0x7F, let next = Unicode.Scalar(last.value + 1) else { continue }
            var upper = ""
            upper.unicodeScalars.append(contentsOf: scalars + [next])
            return (prefix, upper)
        }
        return (prefix, nil)
    }

    /// The SQL function `(mode, pattern, key)` that matches a key as
    /// ``matches(_:)`` does.
    static let sqlFunctionName = "gqlcache_key_matches"

    /// What ``sqlFunctionName`` answers, for a key that is UTF-8 text (one
    /// that is not, a stray row's, is no key a pattern names).
    static func sqlFunction(mode: String, pattern patternText: String, key: String) -> Bool {
        guard let mode = Mode(rawValue: mode), let pattern = try? KeyPattern(patternText, mode: mode) else { return false }
        return pattern.matches(CacheKey(key))
    }

}

extension String {
    /// The text as a one-line message quotes it: a pattern or value of
    /// thousands of characters would fill the screen.
    public var shortenedForMessage: String {
        count <= 100 ? self : "\(prefix(60))… (\(utf8.count) bytes)"
    }

    /// ``shortenedForMessage`` for a text named beside `other`, which may
    /// start with the same sixty characters (two field keys whose arguments
    /// differ late): then what is shown is cut around the first place they
    /// differ, so that the two never read alike.
    public func shortenedForMessage(differingFrom other: String) -> String {
        guard count > 100 else { return self }
        let common = zip(self, other).prefix { $0 == $1 }.count
        guard common >= 50 else { return shortenedForMessage }
        let start = index(startIndex, offsetBy: common - 20)
        let end = index(start, offsetBy: 60, limitedBy: endIndex) ?? endIndex
        return "\(prefix(20))…\(self[start..<end])\(end < endIndex ? "…" : "") (\(utf8.count) bytes)"
    }
}
