import Foundation

/// What `grep` looks for in field values: a literal string or an ICU
/// regular expression, case-sensitive or not.
///
/// ```swift
/// let pattern = try ValuePattern("skywalker", isRegex: false, ignoringCase: true)
/// record.matches(of: pattern)   // [name: "Luke Skywalker"]
/// ```
///
/// The text searched is, for each value inside a field (through lists and
/// custom-scalar objects, at any depth): a string as it is, a reference's
/// key, a number or boolean as its JSON text (`12.5`, `true`; a stored
/// record's number as the file holds it, `1.10` or `1e2`). Null and member
/// names are not searched.
public struct ValuePattern: Sendable {
    public let text: String
    public let isRegex: Bool
    public let ignoringCase: Bool
    /// Whether a value's matches after the first are found too
    /// (``ValueMatch/later``), for grep's colour; the first alone otherwise,
    /// which is all a search needs (`.` on a long text matches at every
    /// character).
    public var findsEveryMatch = false
    private let expression: NSRegularExpression?

    /// Throws ``CacheStoreError/invalidPattern(pattern:message:)`` for a
    /// regular expression that does not compile.
    public init(_ text: String, isRegex: Bool, ignoringCase: Bool) throws {
        self.text = text
        self.isRegex = isRegex
        self.ignoringCase = ignoringCase
        if isRegex {
            do {
                expression = try NSRegularExpression(pattern: text, options: ignoringCase ? [.caseInsensitive] : [])
            } catch {
                throw CacheStoreError.invalidPattern(pattern: text, message: "not a valid regular expression")
            }
        } else {
            expression = nil
        }
    }

    /// The first part of `subject` that matches, or nil. `shouldStop` is
    /// asked now and then while a regular expression works on the subject
    /// (one such as `(x+x+)+y` can take longer than anyone waits): true
    /// gives the search up, as no match.
    /// Throws ``CacheStoreError/patternGaveUp(pattern:place:)`` when the
    /// matcher gives a regular expression up on `subject`, said to be `place`.
    public func firstMatch(in subject: String, place: @autoclosure () -> String = "", stopIf shouldStop: (() -> Bool)? = nil) throws -> String? {
        try firstMatchRange(in: subject, place: place(), stopIf: shouldStop).map { String(Substring(subject.unicodeScalars[$0])) }
    }

    /// Where in `subject` the first match lies, on Unicode scalar
    /// boundaries: a match may begin or end inside a character (`\n` of
    /// `\r\n`, 👍 of 👍🏽), as ICU, matching code points, finds it.
    func firstMatchRange(in subject: String, place: @autoclosure () -> String = "", stopIf shouldStop: (() -> Bool)? = nil) throws -> Range<String.Index>? {
        try matchRanges(in: subject, limit: 1, place: place(), stopIf: shouldStop).first
    }

    /// Where in `subject` each match lies, in order and apart, no more than
    /// `limit` (see ``firstMatchRange(in:place:stopIf:)``): grep marks them
    /// all in colour, as GNU grep does.
    func matchRanges(
        in subject: String, limit: Int = .max, place: @autoclosure () -> String = "", stopIf shouldStop: (() -> Bool)? = nil
    ) throws -> [Range<String.Index>] {
        if let expression {
            let pattern = text
            let utf16 = subject.utf16
            return try RegexCache.matches(of: expression, in: subject, limit: limit, stopIf: shouldStop, failure: {
                CacheStoreError.patternGaveUp(pattern: pattern, place: place())
            }).map { matched in
                let start = utf16.index(utf16.startIndex, offsetBy: matched.location)
                return start..<utf16.index(start, offsetBy: matched.length)
            }
        }
        if text.isEmpty { return [subject.startIndex..<subject.startIndex] }
        var found: [Range<String.Index>] = []
        if !ignoringCase {
            // UTF-8 is self-synchronizing: the bytes of a whole text occur
            // only where its characters do, which is what a literal search
            // compares, so a byte search finds them without Foundation's
            // UTF-16 detour (which took a third of a grep's time).
            var subject = subject, text = text
            let offsets: [Int] = subject.withUTF8 { haystack in
                text.withUTF8 { needle in
                    var offsets: [Int] = []
                    var from = 0
                    while offsets.count < limit, from < haystack.count,
                        let offset = UnsafeBufferPointer(rebasing: haystack[from...]).firstOffset(ofBytes: needle) {
                        offsets.append(from + offset)
                        from += offset + needle.count
                    }
                    return offsets
                }
            }
            let utf8 = subject.utf8
            for offset in offsets {
                let start = utf8.index(utf8.startIndex, offsetBy: offset)
                found.append(start..<utf8.index(start, offsetBy: text.utf8.count))
            }
            return found
        }
        var from = subject.startIndex
        while found.count < limit, let range = subject.range(of: text, options: [.literal, .caseInsensitive], range: from..<subject.endIndex) {
            found.append(range)
            from = range.upperBound
        }
        return found
    }

    /// Text every record holding a match must contain, byte for byte,
    /// when its JSON has no escapes: the literal itself when the search is
    /// literal and case-sensitive; nil when no such text is known. (A
    /// stored number is searched as the file holds it, so it needs no
    /// exception.)
    var requiredText: String? {
        guard !isRegex, !ignoringCase, !text.isEmpty else { return nil }
        return text
    }
}

/// One value that matched: where it is and what matched.
public struct ValueMatch: Equatable, Sendable {
    /// A match after the first in the same value.
    public struct LaterMatch: Equatable, Sendable {
        /// The text between the match before and this one.
        public let between: String
        public let matched: String
    }

    /// One step of a path into a field's value, as a reference's path
    /// takes it.
    public typealias Step = ValuePathStep

    /// The field cache key, e.g. `friends` or `hero(episode:JEDI)`.
    public let field: String
    /// The steps from the field's value to the value that matched.
    public let path: [Step]
    /// The value that matched (a string, number, boolean or reference).
    public let value: FieldValue
    /// The part of its text that matched.
    public let matched: String
    /// The text before the match: the match is where it was found, also
    /// when the same text comes earlier inside a character (`é` holds `e`).
    public var before: String = ""
    /// The value's other matches after the first, each with the text
    /// between it and the match before; empty ones are left out. Found
    /// only when the pattern ``ValuePattern/findsEveryMatch``.
    public var later: [LaterMatch] = []
    /// A number's text as the file holds it (`1.10`, `1e2`), which is what
    /// was searched; nil for other values, and for a record not read from
    /// a file.
    public var numberText: String? = nil
}

extension Record {
    /// The values of this record that match, in field key (byte) order,
    /// then list and member order. `fields` keeps only fields whose key is
    /// one of them, or one of them with arguments (`height` selects
    /// `height(unit:FOOT)`).
    public func matches(of pattern: ValuePattern, inFields fields: [String] = []) throws -> [ValueMatch] {
        try matches(of: pattern, inFields: fields, numberTexts: nil)
    }

    /// `numberTexts`: the stored text of each number, asked for once, at
    /// the first number searched.
    /// `shouldStop`: see ``ValuePattern/firstMatch(in:stopIf:)``.
    func matches(
        of pattern: ValuePattern, inFields fields: [String], numberTexts: (() -> [NumberLocation: String]?)?,
        stopIf shouldStop: (() -> Bool)? = nil
    ) throws -> [ValueMatch] {
        var found: [ValueMatch] = []
        var texts = NumberTexts(load: numberTexts)
        for field in self.fields.keys.sorted(by: byteOrder) where Record.field(field, isSelectedBy: fields) {
            var path: [ValueMatch.Step] = []
            try collect(self.fields[field]!, field: field, path: &path, pattern: pattern, texts: &texts, into: &found, stopIf: shouldStop)
        }
        return found
    }

    /// The stored texts of a record's numbers, loaded when first needed.
    private struct NumberTexts {
        let load: (() -> [NumberLocation: String]?)?
        var loaded: [NumberLocation: String]?? = nil

        mutating func text(field: String, path: [ValueMatch.Step]) -> String? {
            guard let load else { return nil }
            if loaded == nil { loaded = .some(load()) }
            return loaded!?[NumberLocation(field: field, path: path)]
        }
    }

    static func field(_ field: String, isSelectedBy names: [String]) -> Bool {
        names.isEmpty || names.contains { field == $0 || (field.hasPrefix($0) && field.dropFirst($0.count).first == "(") }
    }

    private func collect(
        _ value: FieldValue, field: String, path: inout [ValueMatch.Step], pattern: ValuePattern, texts: inout NumberTexts,
        into found: inout [ValueMatch], stopIf shouldStop: (() -> Bool)?
    ) throws {
        let subject: String
        var numberText: String?
        switch value {
        case .null: return
        case .bool: subject = value.description
        case .int, .double, .number:
            numberText = texts.text(field: field, path: path)
            subject = numberText ?? value.description
        case .string(let text): subject = text
        case .reference(let key): subject = key.rawValue
        case .list(let elements):
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                try collect(element, field: field, path: &path, pattern: pattern, texts: &texts, into: &found, stopIf: shouldStop)
                path.removeLast()
            }
            return
        case .object(let members):
            // Apollo reads an object with a string $reference as a
            // reference, as show and refs draw it; its other members are
            // still in the file, so they are searched too.
            let target = value.mixedReferenceTarget
            if let target {
                try collect(.reference(target), field: field, path: &path, pattern: pattern, texts: &texts, into: &found, stopIf: shouldStop)
            }
            for name in members.keys.sorted(by: byteOrder) where target == nil || name != "$reference" {
                path.append(.member(name))
                try collect(members[name]!, field: field, path: &path, pattern: pattern, texts: &texts, into: &found, stopIf: shouldStop)
                path.removeLast()
            }
            return
        }
        let ranges = try pattern.matchRanges(
            in: subject, limit: pattern.findsEveryMatch ? .max : 1, place: "in field \(field) of '\(key.rawValue.shortenedForMessage)'", stopIf: shouldStop)
        if let range = ranges.first {
            let scalars = subject.unicodeScalars
            var end = range.upperBound
            var later: [ValueMatch.LaterMatch] = []
            for next in ranges.dropFirst() where !next.isEmpty {
                later.append(.init(between: String(Substring(scalars[end..<next.lowerBound])), matched: String(Substring(scalars[next]))))
                end = next.upperBound
            }
            found.append(ValueMatch(
                field: field, path: path, value: value, matched: String(Substring(scalars[range])),
                before: String(Substring(scalars[..<range.lowerBound])), later: later, numberText: numberText))
        }
    }
}

extension ReadTransaction {
    /// Calls `body`, in key order, with each row that may hold a match of
    /// `pattern` (SQLite skips rows that cannot when the search is literal
    /// and case-sensitive) and with every damaged row; decode and match
    /// with ``Record/matches(of:inFields:)``. Streaming.
    public func forEachStoredRecord(mayMatch pattern: ValuePattern, _ body: (StoredRecord) throws -> Void) throws {
        if let required = pattern.requiredText {
            try forEachStoredRecord(mayContain: required, body)
        } else {
            try forEachStoredRecord(body)
        }
    }
}

extension StoredRecord {
    /// The record's values that match (see ``Record/matches(of:inFields:)``),
    /// its numbers searched as the file holds them. Throws
    /// ``CacheStoreError/damagedRecord(key:problem:)`` for a damaged row.
    public func matches(of pattern: ValuePattern, inFields fields: [String] = []) throws -> [ValueMatch] {
        try matches(of: pattern, inFields: fields, stopIf: nil)
    }

    func matches(of pattern: ValuePattern, inFields fields: [String], stopIf shouldStop: (() -> Bool)?) throws -> [ValueMatch] {
        let record = try decoded()
        guard var text else { return [] }
        return try record.matches(of: pattern, inFields: fields, numberTexts: {
            text.withUTF8 { JSONReader.numberTexts(inRecord: $0) }
        }, stopIf: shouldStop)
    }
}

extension ReadTransaction {
    /// ``StoredRecord/matches(of:inFields:)`` that a Ctrl-C for this store
    /// stops, also in the middle of a regular expression's search: it then
    /// throws ``CacheStoreError/interrupted(path:)``.
    public func matches(of pattern: ValuePattern, in stored: StoredRecord, inFields fields: [String] = []) throws -> [ValueMatch] {
        let interruption = self.interruption
        let found = try stored.matches(of: pattern, inFields: fields, stopIf: { interruption.isPending })
        try checkInterrupt()
        return found
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Where the bytes of `needle`, not empty, first occur, or nil: memchr
    /// finds each place its first byte is, memcmp compares the rest.
    func firstOffset(ofBytes needle: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = baseAddress, let first = needle.first, needle.count <= count else { return nil }
        let rest = needle.count - 1
        var offset = 0
        let lastStart = count - needle.count
        while offset <= lastStart {
            guard let hit = memchr(base + offset, Int32(first), lastStart - offset + 1) else { return nil }
            let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if rest == 0 || memcmp(base + at + 1, needle.baseAddress! + 1, rest) == 0 { return at }
            offset = at + 1
        }
        return nil
    }
}
