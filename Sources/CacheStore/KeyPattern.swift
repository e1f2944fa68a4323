import Foundation

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
///   literally: Apollo's in-memory cache behaviour.
/// - `prefix`: keys that start with the text, case-sensitive; a range scan
///   of the key index, never a full scan.
/// - `glob`: the whole key against a case-sensitive glob (`*`, `?`,
///   `[abc]`, `[^abc]`), as SQLite's GLOB.
/// - `regex`: an ICU regular expression searched anywhere in the key,
///   case-sensitive unless it says `(?i)`.
public struct KeyPattern: Hashable, Sendable, CustomStringConvertible {
    public enum Mode: String, CaseIterable, Sendable {
        case apollo, literal, prefix, glob, regex
    }

    public let text: String
    public let mode: Mode

    public init(_ text: String, mode: Mode) throws {
        self.text = text
        self.mode = mode
        if mode == .regex {
            do {
                _ = try NSRegularExpression(pattern: text)
            } catch {
                throw CacheStoreError.invalidPattern(pattern: text, message: "not a valid regular expression")
            }
        }
    }

    public var description: String { "\(mode.rawValue) pattern '\(text)'" }

    /// True when no key can match: Apollo ignores an empty pattern.
    public var matchesNothing: Bool { mode == .apollo && text.isEmpty }

    /// The same decision as the SQL the store runs, made in memory.
    public func matches(_ key: CacheKey) -> Bool {
        switch mode {
        case .apollo:
            return !text.isEmpty && LikeMatcher.matches(Array(key.rawValue.unicodeScalars), likePattern: Array(("%" + text + "%").unicodeScalars), escape: nil)
        case .literal:
            return LikeMatcher.containsFoldingASCII(Array(key.rawValue.unicodeScalars), Array(text.unicodeScalars))
        case .prefix:
            return key.rawValue.utf8.starts(with: text.utf8)
        case .glob:
            return LikeMatcher.globMatches(Array(key.rawValue.unicodeScalars), pattern: Array(text.unicodeScalars))
        case .regex:
            return RegexCache.shared.matches(pattern: text, in: key.rawValue)
        }
    }

    /// The SQL condition on column `key` and its arguments.
    func sqlCondition() -> (sql: String, arguments: [String]) {
        switch mode {
        case .apollo:
            if text.isEmpty { return ("0", []) }
            return ("key LIKE ? COLLATE NOCASE", ["%" + text + "%"])
        case .literal:
            return ("key LIKE ? ESCAPE '\\'", ["%" + LikeMatcher.escapeLike(text) + "%"])
        case .prefix:
            if text.isEmpty { return ("1", []) }
            if let upper = KeyPattern.successor(ofPrefix: text) {
                return ("key >= ? AND key < ?", [text, upper])
            }
            return ("key >= ?", [text])
        case .glob:
            return ("key GLOB ?", [text])
        case .regex:
            return ("\(RegexCache.sqlFunctionName)(?, key)", [text])
        }
    }

    /// The smallest string greater than every string that starts with
    /// `prefix` (in UTF-8 byte order), or nil when there is none.
    static func successor(ofPrefix prefix: String) -> String? {
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var result = ""
                result.unicodeScalars.append(contentsOf: scalars)
                return result
            }
        }
        return nil
    }
}

/// SQLite's LIKE and GLOB, reproduced in memory.
enum LikeMatcher {
    /// Substring search by code point with ASCII case folding, as LIKE
    /// compares: no Unicode normalisation, no folding beyond ASCII.
    static func containsFoldingASCII(_ text: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard text.count >= needle.count else { return false }
        let folded = needle.map(foldASCII)
        for start in 0...(text.count - needle.count)
        where zip(text[start..<start + needle.count], folded).allSatisfy({ foldASCII($0) == $1 }) {
            return true
        }
        return false
    }

    static func foldASCII(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            if character == "%" || character == "_" || character == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
    }

    /// LIKE with `%`, `_`, ASCII case folding and an optional escape.
    static func matches(_ text: [Unicode.Scalar], likePattern pattern: [Unicode.Scalar], escape: Unicode.Scalar?) -> Bool {
        // Iterative wildcard matching with backtracking to the last `%`.
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count {
                let token = pattern[p]
                if token == "%" {
                    starP = p; starT = t; p += 1; continue
                }
                if token == "_" { t += 1; p += 1; continue }
                var literal = token
                var width = 1
                if let escape, token == escape, p + 1 < pattern.count {
                    literal = pattern[p + 1]; width = 2
                }
                if foldASCII(literal) == foldASCII(text[t]) { t += 1; p += width; continue }
            }
            guard starP >= 0 else { return false }
            starT += 1; t = starT; p = starP + 1
        }
        while p < pattern.count, pattern[p] == "%" { p += 1 }
        return p == pattern.count
    }

    /// GLOB with `*`, `?`, `[...]` and `[^...]`, case-sensitive.
    static func globMatches(_ text: [Unicode.Scalar], pattern: [Unicode.Scalar]) -> Bool {
        var t = 0, p = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count {
                switch pattern[p] {
                case "*":
                    starP = p; starT = t; p += 1; continue
                case "?":
                    t += 1; p += 1; continue
                case "[":
                    if let (matched, end) = matchClass(text[t], pattern: pattern, start: p), matched {
                        t += 1; p = end; continue
                    }
                default:
                    if pattern[p] == text[t] { t += 1; p += 1; continue }
                }
            }
            guard starP >= 0 else { return false }
            starT += 1; t = starT; p = starP + 1
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Matches one character against the class starting at `start` (`[`).
    /// Returns nil when the class is not closed (then nothing matches).
    private static func matchClass(_ character: Unicode.Scalar, pattern: [Unicode.Scalar], start: Int) -> (Bool, Int)? {
        var index = start + 1
        var negate = false
        if index < pattern.count, pattern[index] == "^" { negate = true; index += 1 }
        var matched = false
        var first = true
        while index < pattern.count {
            let current = pattern[index]
            if current == "]" && !first { return (matched != negate, index + 1) }
            if index + 2 < pattern.count, pattern[index + 1] == "-", pattern[index + 2] != "]" {
                if current.value <= character.value && character.value <= pattern[index + 2].value { matched = true }
                index += 3
            } else {
                if current == character { matched = true }
                index += 1
            }
            first = false
        }
        return nil
    }
}

/// Compiled regular expressions shared by the SQL function and in-memory
/// matching, so a pattern is compiled once per process.
final class RegexCache: @unchecked Sendable {
    static let shared = RegexCache()
    static let sqlFunctionName = "gqlcache_regexp"

    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    func matches(pattern: String, in text: String) -> Bool {
        guard let expression = expression(for: pattern) else { return false }
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }

    private func expression(for pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let expression = compiled[pattern] { return expression }
        let expression = try? NSRegularExpression(pattern: pattern)
        compiled[pattern] = expression
        return expression
    }
}
