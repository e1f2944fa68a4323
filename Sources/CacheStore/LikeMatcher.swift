import Foundation

/// SQLite's LIKE and GLOB, reproduced in memory.
enum LikeMatcher {
    @inline(__always)
    static func foldASCII(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }

    /// Substring search over UTF-8 with ASCII case folding, as LIKE
    /// compares: code points (UTF-8 bytes), no normalisation, no folding
    /// beyond ASCII.
    static func containsFoldingASCII(_ text: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard text.count >= needle.count, let base = text.baseAddress else { return false }
        return needle.withUnsafeBufferPointer { needle in
            let first = foldASCII(needle[0])
            let lastStart = text.count - needle.count
            func matches(at start: Int) -> Bool {
                var offset = 0
                while offset < needle.count && foldASCII(base[start + offset]) == foldASCII(needle[offset]) { offset += 1 }
                return offset == needle.count
            }
            // Eight bytes at a time, looking for a byte that can fold to the
            // needle's first one: `| 0x20` folds every ASCII capital (and
            // may let through a few other bytes, which `matches` rejects).
            let ones: UInt64 = 0x0101_0101_0101_0101
            let wanted = UInt64(first | 0x20) &* ones
            var start = 0
            while start + 8 <= lastStart + 1 {
                let word = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self) | (ones &* 0x20)
                let difference = word ^ wanted
                if (difference &- ones) & ~difference & (ones &* 0x80) != 0 {
                    for candidate in start..<(start + 8) where foldASCII(base[candidate]) == first && matches(at: candidate) {
                        return true
                    }
                }
                start += 8
            }
            while start <= lastStart {
                if foldASCII(base[start]) == first && matches(at: start) { return true }
                start += 1
            }
            return false
        }
    }

    /// `text LIKE '%pattern%'` without an escape, over UTF-8: `%` any run,
    /// `_` one character, ASCII case folding. A mismatch goes back only to
    /// the last `%` (the implicit first one at the start) and lets it take
    /// one more character: an earlier `%` never needs to, since the last
    /// one can take anything it would. So the time is at most the text's
    /// length times the pattern's, where trying every way each `%` could
    /// end grew with the text's length to the power of the `%` count, and
    /// held `rm --match`'s write lock for hours.
    static func containsLike(_ text: UnsafeBufferPointer<UInt8>, pattern: [UInt8]) -> Bool {
        var t = 0, p = 0
        // Where the pattern goes on after the last %, and where in the text that % ends.
        var resumeP = 0, resumeT = 0
        while p < pattern.count {  // the pattern used up: the implicit last % takes the rest
            let byte = pattern[p]
            if byte == UInt8(ascii: "%") {
                p += 1
                (resumeP, resumeT) = (p, t)
                continue
            }
            if t < text.count {
                if byte == UInt8(ascii: "_") {
                    t += utf8Length(text[t])
                    p += 1
                    continue
                }
                if foldASCII(text[t]) == foldASCII(byte) {
                    t += 1
                    p += 1
                    continue
                }
            }
            guard resumeT < text.count else { return false }
            resumeT += utf8Length(text[resumeT])
            (t, p) = (resumeT, resumeP)
        }
        return true
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0..<0xC0: return 1
        case 0xC0..<0xE0: return 2
        case 0xE0..<0xF0: return 3
        default: return 4
        }
    }

    static func escapeLike(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            if character == "%" || character == "_" || character == "\\" { escaped.unicodeScalars.append("\\") }
            escaped.unicodeScalars.append(character)
        }
        return escaped
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

    /// Matches one character against the class starting at `start` (`[`),
    /// as SQLite's GLOB reads it: a `]` first (after any `^`) is a member;
    /// `a-z` is a range from the member before the `-`, which is itself a
    /// member (so `[z-a]` holds `z`), and after a range, or at the start or
    /// end, a `-` is a member. Returns nil when the class is not closed
    /// (then nothing matches).
    private static func matchClass(_ character: Unicode.Scalar, pattern: [Unicode.Scalar], start: Int) -> (Bool, Int)? {
        var index = start + 1
        var negate = false
        if index < pattern.count, pattern[index] == "^" { negate = true; index += 1 }
        var matched = false
        if index < pattern.count, pattern[index] == "]" {
            if character == "]" { matched = true }
            index += 1
        }
        // The member a `-` makes a range from; none right after a range or a leading `]`.
        var prior: Unicode.Scalar?
        while index < pattern.count {
            let current = pattern[index]
            if current == "]" { return (matched != negate, index + 1) }
            if current == "-", let low = prior, index + 1 < pattern.count, pattern[index + 1] != "]" {
                let high = pattern[index + 1]
                if low.value <= character.value && character.value <= high.value { matched = true }
                prior = nil
                index += 2
            } else {
                if current == character { matched = true }
                prior = current
                index += 1
            }
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
    /// Each pattern compiled, or nil when it does not compile, with whether
    /// a search for it can take long over a short text.
    private var compiled: [String: (expression: NSRegularExpression?, slowOverShortTexts: Bool)] = [:]

    /// Whether `pattern` matches `text`; throws when ICU's matcher gives
    /// up on it (``CacheStoreError/patternGaveUp(pattern:place:)``, said
    /// to be `place`).
    func matches(pattern: String, in text: String, place: @autoclosure () -> String) throws -> Bool {
        let (expression, slowOverShortTexts) = expression(for: pattern)
        guard let expression else { return false }
        return try Self.matches(of: expression, in: text, limit: 1, timeShortTexts: slowOverShortTexts) {
            CacheStoreError.patternGaveUp(pattern: pattern, place: place())
        }.first != nil
    }

    /// Whether a search for `pattern` can backtrack for long over a text
    /// of no more than ``watchedLength`` characters. It can when a group is
    /// repeated (`(a+)+$`, `(a|aa)*$`: a hundred-character key takes
    /// minutes), when three or more repeats may share characters
    /// (`a*a*a*b`: steps as the text's length to the fourth power, or more),
    /// or when alternatives multiply (`(a|a)` 24 times: 2^24 ways to try),
    /// each `|` counted as a repeat. With at most two, and no repeated
    /// group, a search takes no more than the cube of the length: quick
    /// over 256 characters.
    /// An escaped character or a member of a `[...]` set repeats nothing.
    /// What this does not follow counts as slow: `\Q...\E` quoting, and a
    /// `(?` other than `(?:` and `(?i)` (a comment `(?#[)` or free spacing
    /// `(?x)`, which hide a group's repeat from a reading by character).
    static func isSlowOverShortTexts(_ pattern: String) -> Bool {
        var repeats = 0
        var setDepth = 0
        var escaped = false
        var afterGroupOpening = false
        var afterGroup = false
        let scalars = Array(pattern.unicodeScalars)
        for (index, character) in scalars.enumerated() {
            let (opening, closing) = (afterGroupOpening, afterGroup)
            (afterGroupOpening, afterGroup) = (false, false)
            if escaped {
                escaped = false
                if character == "Q" && setDepth == 0 { return true }
                continue
            }
            switch character {
            case "\\": escaped = true
            case "[": setDepth += 1
            case "]" where setDepth > 0: setDepth -= 1
            case "(" where setDepth == 0: afterGroupOpening = true
            case ")" where setDepth == 0: afterGroup = true
            case "|" where setDepth == 0:
                repeats += 1
                if repeats > 2 { return true }
            case "*", "+", "?", "{":
                if setDepth > 0 { continue }
                if character == "?" && opening {
                    // `(?:` and `(?i)` or `(?i:` open a group and repeat nothing; other `(?` forms are not followed.
                    let rest = String(String.UnicodeScalarView(scalars[(index + 1)...].prefix(3)))
                    if rest.hasPrefix(":") || rest.hasPrefix("i)") || rest.hasPrefix("i:") { continue }
                    return true
                }
                if closing { return true }
                repeats += 1
                if repeats > 2 { return true }
            default: break
            }
        }
        return false
    }

    /// How long a search in one text may take before the matcher is taken
    /// to have given it up: one that backtracks without filling its stack
    /// (`(a|b)+$` over a long key that does not end so) can run for
    /// minutes, to say no match at the end.
    nonisolated(unsafe) static var searchTimeLimit: TimeInterval = 10
    /// The length of text (UTF-16 units) past which every search is timed;
    /// a shorter one is timed when its pattern can be slow over it
    /// (``isSlowOverShortTexts(_:)``) or `timeShortTexts` says so.
    nonisolated(unsafe) static var watchedLength = 256

    /// The matches of `expression` in `text`, in order, no more than
    /// `limit`. NSRegularExpression says no match when ICU gave the search
    /// up (its backtracking stack full): only the flags of the completion
    /// call tell, and then `failure` is thrown. A search past
    /// ``searchTimeLimit`` is given up alike. `shouldStop`, asked now and
    /// then during a long search, gives it up as no match.
    static func matches(
        of expression: NSRegularExpression, in text: String, limit: Int = .max, timeShortTexts: Bool = true,
        stopIf shouldStop: (() -> Bool)? = nil, failure: () -> Error
    ) throws -> [NSRange] {
        var matched: [NSRange] = []
        var gaveUp = false
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, searchTimeLimit) * 1e9)
        // Progress, which the limit needs, costs a sixth of a search over
        // short keys; a text too short for the pattern to take long over
        // it is searched without.
        let watched = shouldStop != nil || timeShortTexts || text.utf16.count > watchedLength
        expression.enumerateMatches(
            in: text, options: watched ? [.reportCompletion, .reportProgress] : [.reportCompletion],
            range: NSRange(text.startIndex..<text.endIndex, in: text)
        ) { result, flags, stop in
            if let result {
                matched.append(result.range)
                if matched.count == limit { stop.pointee = true }
            } else if flags.contains(.internalError) {
                gaveUp = true
            } else if shouldStop?() == true {
                stop.pointee = true
            } else if !flags.contains(.completed), DispatchTime.now().uptimeNanoseconds > deadline {
                gaveUp = true
                stop.pointee = true
            }
        }
        if gaveUp { throw failure() }
        return matched
    }

    /// A failure of the SQL function, kept for the statement's error (see
    /// ``takeFailure()``): SQLite passes on only a message.
    private var failure: CacheStoreError?

    /// The SQL function's `gqlcache_regexp(pattern, key)`: 1 or 0, or an
    /// error that ``takeFailure()`` then gives whole.
    func sqlMatches(pattern: String, key: String) -> Result<Bool, CacheStoreError> {
        do {
            return .success(try matches(pattern: pattern, in: key, place: "on key '\(key.shortenedForMessage)'"))
        } catch let error as CacheStoreError {
            lock.lock()
            defer { lock.unlock() }
            failure = error
            return .failure(error)
        } catch {
            return .success(false)
        }
    }

    /// The failure an SQL statement stopped at, once.
    func takeFailure() -> CacheStoreError? {
        lock.lock()
        defer { lock.unlock() }
        defer { failure = nil }
        return failure
    }

    private func expression(for pattern: String) -> (expression: NSRegularExpression?, slowOverShortTexts: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let known = (expression: try? NSRegularExpression(pattern: pattern), slowOverShortTexts: Self.isSlowOverShortTexts(pattern))
        compiled[pattern] = known
        return known
    }
}
