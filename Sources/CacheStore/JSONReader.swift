import Foundation

/// Parses the JSON of a `record` column into field values.
///
/// A small, strict RFC 8259 parser over UTF-8 bytes. It exists so that numbers
/// keep their integer or fractional form and so that a damaged record is
/// reported with the byte offset of the problem.
struct JSONReader {
    struct SyntaxError: Error, Equatable {
        let offset: Int
        let message: String
    }

    /// The text is JSON, or starts like it, but not a JSON object.
    struct NotAnObject: Error, Equatable {
        let kind: String
    }

    /// Parses a whole record: a JSON object of field cache keys to values.
    /// The top-level object is never folded into a reference.
    /// `only`: decode just these members, checking the others as strictly
    /// but without building their values (the record is as damaged, or
    /// not, as when decoded whole).
    static func parseRecordFields(utf8 buffer: UnsafeBufferPointer<UInt8>, only: MemberFilter?) throws -> [String: FieldValue] {
        var reader = JSONReader(bytes: buffer)
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{") else {
            throw NotAnObject(kind: reader.describeTopLevel())
        }
        let members = try reader.parseObjectMembers(only: only)
        reader.skipWhitespace()
        guard reader.index == buffer.count else { throw reader.error("unexpected text after the record object") }
        // A field left out holds a number Apollo cannot read: decoded whole,
        // the record shows it (``Record/numberApolloCannotRead``).
        if only != nil && reader.skippedNumberBeyondADouble { return try parseRecordFields(utf8: buffer, only: nil) }
        return members
    }

    /// The member names to decode, for ``parseRecordFields(utf8:only:)``.
    /// When every name is ASCII, a member name that is ASCII too is matched
    /// by its bytes, without making a string of it: for ASCII text, equal
    /// bytes and equal Swift strings are the same thing. Any other name is
    /// decoded and compared as a string, as before.
    struct MemberFilter {
        let names: Set<String>
        private let ascii: [(name: String, utf8: [UInt8])]

        init(_ names: Set<String>) {
            self.names = names
            ascii = names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } ? names.map { ($0, Array($0.utf8)) } : []
        }

        /// True when every name is ASCII, so that ``match(ascii:)`` can say.
        var matchesASCIIBytes: Bool { ascii.count == names.count }

        /// The name spelled by `bytes` (ASCII, without escapes), or nil.
        func match(ascii bytes: UnsafeBufferPointer<UInt8>) -> String? {
            for candidate in ascii where candidate.utf8.count == bytes.count {
                if candidate.utf8.withUnsafeBufferPointer({ $0.elementsEqual(bytes) }) { return candidate.name }
            }
            return nil
        }
    }

    /// The first JSON value of `text`, whatever follows it; nil when the
    /// text does not start with one.
    static func parseFirstValue(_ text: String) -> FieldValue? {
        var text = text
        return text.withUTF8 { buffer in
            var reader = JSONReader(bytes: buffer)
            return try? reader.parseValue(depth: 0)
        }
    }

    /// Parses any JSON value (used for values given on the command line).
    /// `wrapperLevels`: how many levels of nesting wrap a record in the
    /// text (one for a JSON Lines line), which the limit does not count,
    /// so that a line holds any record a cache file can.
    static func parseValue(_ text: String, wrapperLevels: Int = 0) throws -> FieldValue {
        try parseInput(text, wrapperLevels: wrapperLevels, readsImportInput: false).value
    }

    /// ``parseValue(_:wrapperLevels:)`` for input to import (see
    /// ``readsImportInput``), with the first member given twice inside a
    /// record, whose last value was kept.
    static func parseImportInput(_ text: String, wrapperLevels: Int) throws -> (value: FieldValue, repeated: RepeatedMember?) {
        try parseInput(text, wrapperLevels: wrapperLevels, readsImportInput: true)
    }

    private static func parseInput(_ text: String, wrapperLevels: Int, readsImportInput: Bool) throws -> (value: FieldValue, repeated: RepeatedMember?) {
        var text = text
        return try text.withUTF8 { buffer in
            var reader = JSONReader(bytes: buffer)
            reader.readsImportInput = readsImportInput
            let value = try reader.parseValue(depth: -wrapperLevels)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.error("unexpected text after the value") }
            return (value, reader.repeatedMember)
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Input to import. Inside a record, an object that gives one member
    /// twice, byte for byte or as two names Swift takes for one (é composed
    /// and decomposed), keeps the last, as a stored record is read, so
    /// that an export of such a record imports; the first is kept in
    /// ``repeatedMember``, to be warned of. A member given twice around a
    /// record (a JSON Lines line's own "key" or "record") is refused:
    /// which one is meant cannot be told.
    var readsImportInput = false
    /// A value stepped over held a number too large for a Double.
    var skippedNumberBeyondADouble = false
    private(set) var repeatedMember: RepeatedMember?
    /// Foundation's JSONSerialization limit, which Apollo reads records
    /// with (on Apple platforms and on Linux alike): a record nested deeper
    /// is one Apollo cannot read. SQLite's json_valid takes up to 2000
    /// levels, so the store's SQL checks the depth on its own (see
    /// ``NestingFunction``).
    static let maximumDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    func error(_ message: String) -> SyntaxError { SyntaxError(offset: index, message: message) }

    private func describeTopLevel() -> String {
        guard peek() != nil else { return "empty text" }
        // Named for a kind of JSON only when it is one: `[1,` is no array.
        var probe = self
        let parsed = (try? probe.parseValue(depth: 0)) != nil
        probe.skipWhitespace()
        guard parsed, probe.index == bytes.count else { return "text that is not JSON" }
        switch peek() {
        case nil: return "empty text"
        case UInt8(ascii: "["): return "a JSON array"
        case UInt8(ascii: "\""): return "a JSON string"
        case UInt8(ascii: "n") where startsWith("null"): return "JSON null"
        case UInt8(ascii: "t") where startsWith("true"), UInt8(ascii: "f") where startsWith("false"): return "a JSON boolean"
        case let byte? where byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte):
            return "a JSON number"
        default: return "text that is not JSON"
        }
    }

    private func startsWith(_ literal: String) -> Bool {
        bytes[index...].starts(with: literal.utf8)
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard peek() == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        index += 1
    }

    mutating func parseValue(depth: Int) throws -> FieldValue {
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of JSON") }
        switch byte {
        case UInt8(ascii: "{"):
            try checkDepth(depth)
            if let reference = try parseCompactReference() { return reference }
            let members = try parseObjectMembers(depth: depth)
            if members.count == 1, case .string(let target)? = members["$reference"] {
                return .reference(CacheKey(target))
            }
            return .object(members)
        case UInt8(ascii: "["):
            try checkDepth(depth)
            index += 1
            var elements: [FieldValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; return .list(elements) }
            while true {
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard let next = peek() else { throw error("unterminated array") }
                index += 1
                if next == UInt8(ascii: "]") { return .list(elements) }
                guard next == UInt8(ascii: ",") else { index -= 1; throw error("expected ',' or ']' in array") }
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        default:
            throw error("unexpected character \(characterHere())")
        }
    }

    /// The character at the reader, for a message: itself when printable
    /// ASCII, else its code point (a byte-order mark named as one), so that
    /// a byte of a longer UTF-8 sequence is never shown as a Latin-1 letter.
    private func characterHere() -> String {
        guard let byte = peek() else { return "at the end" }
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        var decoder = UTF8()
        var bytes = self.bytes[index...].makeIterator()
        func hex(_ value: UInt32, digits: Int) -> String {
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return "byte 0x\(hex(UInt32(byte), digits: 2)) (not UTF-8)" }
        let name = "U+" + hex(scalar.value, digits: 4)
        return scalar == "\u{FEFF}" ? "\(name) (a byte-order mark)" : name
    }

    private mutating func parseObjectMembers(depth: Int = 0, only: MemberFilter? = nil) throws -> [String: FieldValue] {
        index += 1  // "{"
        var members: [String: FieldValue] = [:]
        members.reserveCapacity(only.map { min($0.names.count, 8) } ?? 8)  // most records have a handful of fields: no rehash while they arrive
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; return members }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let nameStart = index
            let wanted: String?
            if let only, only.matchesASCIIBytes, let plain = scanPlainASCIIString() {
                wanted = only.match(ascii: plain)
            } else {
                let name = try parseString()
                wanted = only?.names.contains(name) == false ? nil : name
            }
            try expect(UInt8(ascii: ":"))
            if let wanted {
                if readsImportInput, let earlier = members.index(forKey: wanted) {
                    let spelled = !members.keys[earlier].utf8.elementsEqual(wanted.utf8)
                    let repeated = RepeatedMember(offset: nameStart, name: wanted, inTwoSpellings: spelled)
                    guard depth >= 0 else { throw repeated }
                    if repeatedMember == nil { repeatedMember = repeated }
                }
                members[wanted] = try parseValue(depth: depth + 1)
            } else {
                try skipValue(depth: depth + 1)
            }
            skipWhitespace()
            guard let next = peek() else { throw error("unterminated object") }
            index += 1
            if next == UInt8(ascii: "}") { return members }
            guard next == UInt8(ascii: ",") else { index -= 1; throw error("expected ',' or '}' in object") }
        }
    }

    /// At an opening quote: when the string is ASCII without escapes or
    /// control characters, steps over it and returns its contents; otherwise
    /// stays where it is and returns nil.
    private mutating func scanPlainASCIIString() -> UnsafeBufferPointer<UInt8>? {
        let start = index + 1
        var end = start
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                index = end + 1
                return UnsafeBufferPointer(rebasing: bytes[start..<end])
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
            end += 1
        }
        return nil
    }

    /// At an opening brace: a reference written as Apollo writes it,
    /// `{"$reference":"KEY"}` with no blanks, read without building an
    /// object; nil, back where it started, for anything else, which the
    /// general path then reads (to the same value, when it is a reference).
    private mutating func parseCompactReference() throws -> FieldValue? {
        let prefix: StaticString = #"{"$reference":""#
        let count = prefix.utf8CodeUnitCount
        guard index + count < bytes.count,
            UnsafeBufferPointer(start: prefix.utf8Start, count: count).elementsEqual(UnsafeBufferPointer(rebasing: bytes[index..<index + count]))
        else { return nil }
        let start = index
        index += count - 1  // at the target's opening quote
        let target = try parseString()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
            index = start
            return nil
        }
        index += 1
        return .reference(CacheKey(target))
    }

    /// Only objects and arrays count as levels, as in Foundation's
    /// JSONSerialization: a record of 512 nested containers (its own object
    /// one of them) is well formed, one of 513 is not.
    private func checkDepth(_ depth: Int) throws {
        guard depth < JSONReader.maximumDepth else { throw error(Self.tooDeepMessage) }
    }

    /// What a text nested past ``maximumDepth`` fails with.
    static let tooDeepMessage = "nesting deeper than \(maximumDepth) levels"

    /// Steps over one value, rejecting exactly what ``parseValue(depth:)``
    /// rejects, without building it.
    mutating func skipValue(depth: Int) throws {
        skipWhitespace()
        guard let byte = peek() else { throw error("unexpected end of JSON") }
        switch byte {
        case UInt8(ascii: "{"):
            try checkDepth(depth)
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { index += 1; return }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                try skipString()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
                skipWhitespace()
                guard let next = peek() else { throw error("unterminated object") }
                index += 1
                if next == UInt8(ascii: "}") { return }
                guard next == UInt8(ascii: ",") else { index -= 1; throw error("expected ',' or '}' in object") }
            }
        case UInt8(ascii: "["):
            try checkDepth(depth)
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                guard let next = peek() else { throw error("unterminated array") }
                index += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else { index -= 1; throw error("expected ',' or ']' in array") }
            }
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            // The grammar is the whole check: any number it accepts converts.
            _ = try parseNumber(converting: false)
        default:
            _ = try parseValue(depth: depth)
        }
    }

    /// Steps over a string; one with an escape is parsed, so that its
    /// escapes are checked as when decoding.
    private mutating func skipString() throws {
        let start = index
        index += 1  // opening quote
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; return }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in string") }
            index += 1
        }
        index = start
        _ = try parseString()
    }

    private mutating func parseLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += count
    }
}
