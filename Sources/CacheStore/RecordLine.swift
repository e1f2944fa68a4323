/// The JSON Lines form of a cache: one record per line,
/// `{"key":"Droid:2001","record":{…the record column…}}`.
///
/// ```swift
/// let line = RecordLine.line(for: stored, isWellFormed: true)   // export
/// let record = try RecordLine.record(fromLine: line)            // import
/// ```
///
/// Export writes the record's text exactly as the file holds it (member
/// order, `\/`, numbers beyond 64 bits), so nothing is lost on the way out;
/// references stay `{"$reference":"KEY"}`. The only change is to a record
/// whose JSON has a line break between its tokens: each break becomes a
/// space, and the rest of the text stays as it is; and to one whose
/// strings hold a line or paragraph separator (U+2028, U+2029) or U+0085,
/// written as its escape, as Python's `splitlines()` would end a line there.
public enum RecordLine {
    /// The line for a row, without its newline. `isWellFormed`: SQLite
    /// found the row a JSON object the decoder reads too; otherwise it is
    /// decoded to find out. Throws for a damaged row, and for one Apollo
    /// cannot read (a number too large for a Double), which import refuses.
    public static func line(for stored: StoredRecord, isWellFormed: Bool) throws -> String {
        // A row SQLite cannot vouch for is decoded: that throws when damaged.
        if !isWellFormed || stored.text == nil || stored.mayHoldNumberBeyondADouble { _ = try stored.decodedAsApolloReads() }
        var text = stored.text ?? ""
        if breaksLines(text) { text = onOneLine(text) }
        var line = JSONText(capacity: text.utf8.count + stored.key.rawValue.utf8.count + 20)
        line.append("{\"key\":")
        line.appendQuoted(stored.key.rawValue, asStored: false)
        line.append(",\"record\":")
        line.append(raw: text)
        line.append("}")
        return line.string
    }

    /// Whether `text` holds a line break, or U+2028, U+2029 or U+0085
    /// (E2 80 A8, E2 80 A9, C2 85).
    static func breaksLines(_ text: String) -> Bool {
        var last = UInt8(0), beforeLast = UInt8(0)
        for byte in text.utf8 {
            if byte == 0x0A || byte == 0x0D || (beforeLast == 0xE2 && last == 0x80 && byte & 0xFE == 0xA8) || (last == 0xC2 && byte == 0x85) {
                return true
            }
            (beforeLast, last) = (last, byte)
        }
        return false
    }

    /// JSON text with its line breaks between tokens made spaces, and any
    /// inside a string (which a lenient writer may have left) escaped, so
    /// that the value is the same and nothing else changes: numbers keep
    /// every digit, members their order.
    static func onOneLine(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var strings = JSONStringTracker()
        let input = Array(text.utf8)
        var index = 0
        while index < input.count {
            // U+2028, U+2029 or U+0085, which JSON allows only inside a string: its escape.
            if input[index] == 0xE2 || input[index] == 0xC2, let separator = LineSeparator.escape(at: index, in: input) {
                bytes += separator.escape
                index += separator.length
                strings.takeOther()
                continue
            }
            let byte = input[index]
            index += 1
            let (inString, escaped) = (strings.inString, strings.escaped)
            strings.take(byte)
            if byte == 0x0A || byte == 0x0D, !escaped {
                // In a string, its escape; between tokens, a space. (One after a backslash stays as it is.)
                bytes += inString ? [UInt8(ascii: "\\"), UInt8(ascii: byte == 0x0A ? "n" : "r")] : [UInt8(ascii: " ")]
                continue
            }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads one line back. Throws ``CacheStoreError/cannotConvert(message:)``
    /// when the line is not JSON or not `{"key": string, "record": object}`.
    public static func record(fromLine line: String) throws -> Record {
        try recordNotingRepeats(fromLine: line).record
    }

    /// ``record(fromLine:)``, with the first member the record gives twice
    /// (byte for byte), whose last value it keeps as a stored record is
    /// read; see ``JSONReader/readsImportInput``.
    public static func recordNotingRepeats(fromLine line: String) throws -> (record: Record, repeated: RepeatedMember?) {
        let value: FieldValue
        let repeated: RepeatedMember?
        do {
            (value, repeated) = try JSONReader.parseImportInput(line, wrapperLevels: 1)
        } catch let error as JSONReader.SyntaxError {
            throw CacheStoreError.invalidJSON(offset: error.offset, message: error.message)
        } catch let repeated as RepeatedMember {
            throw CacheStoreError.repeatedMember(offset: repeated.offset, name: repeated.name)
        }
        let shape = #"a line is {"key": "…", "record": {…}}"#
        guard case .object(let members) = value else { throw CacheStoreError.cannotConvert(message: #"expected {"key": "…", "record": {…}}"#) }
        if let other = members.keys.sorted().first(where: { $0 != "key" && $0 != "record" }) {
            throw CacheStoreError.cannotConvert(message: "the line has a member \(JSONWriter.quoted(other, asStored: false)), which is neither \"key\" nor \"record\"; \(shape)")
        }
        guard let keyValue = members["key"] else { throw CacheStoreError.cannotConvert(message: "the line has no \"key\"; \(shape)") }
        guard case .string(let key) = keyValue else {
            throw CacheStoreError.cannotConvert(message: "the line's \"key\" is not a string; \(shape)")
        }
        guard members["record"] != nil else {
            throw CacheStoreError.cannotConvert(message: "the line of '\(key)' has no \"record\"; \(shape)")
        }
        switch members["record"] {
        case .object(let fields)?:
            return (Record(key: CacheKey(key), fields: fields), repeated)
        case .reference(let target)?:
            // A record whose one field is "$reference" reads like a reference.
            return (Record(key: CacheKey(key), fields: ["$reference": .string(target.rawValue)]), repeated)
        default:
            throw CacheStoreError.cannotConvert(message: "the \"record\" of '\(key)' is not a JSON object")
        }
    }

    /// True when `line` looks like the first line of this form: a JSON
    /// object with members "key" and "record", whatever their values (a
    /// line with a bad record is a bad line of this form, not an Apollo
    /// Client object with entities named "key" and "record"), and so is
    /// an object with nothing but a string "key".
    /// A line that is not JSON counts when it begins as export writes,
    /// `{"key":`: it is a damaged line of this form.
    public static func isRecordLine(_ line: String) -> Bool {
        guard case .object(let members)? = try? FieldValue(jsonText: line) else { return beginsAsRecordLine(line) }
        // `{"key":"X:1"}` alone is a record line that lacks its record.
        if members.count == 1, case .string? = members["key"] { return true }
        // An object `key` is an entity: an Apollo Client object whose
        // entities are named key and record.
        if case .object? = members["key"] { return false }
        return members["key"] != nil && members["record"] != nil
    }

    /// True when `text` starts with a whole `{"key": …, "record": …}`
    /// object spread over several lines (as `jq .` prints one): a JSON
    /// Lines export made pretty, which is no longer one record per line.
    public static func startsWithPrettyRecord(_ text: String) -> Bool {
        guard text.contains("\n"), case .object(let members)? = JSONReader.parseFirstValue(text) else { return false }
        if case .object? = members["key"] { return false }
        return members.count == 2 && members["key"] != nil && members["record"] != nil
    }

    private static func beginsAsRecordLine(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { bytes in
            var reader = JSONReader(bytes: bytes)
            reader.skipWhitespace()
            guard reader.peek() == UInt8(ascii: "{") else { return false }
            reader.index += 1
            reader.skipWhitespace()
            for byte in #""key""#.utf8 {
                guard reader.peek() == byte else { return false }
                reader.index += 1
            }
            reader.skipWhitespace()
            return reader.peek() == UInt8(ascii: ":")
        }
    }
}

/// A JSON object of input to import that gives one member twice;
/// `offset`: the UTF-8 offset just after the second's name and its colon.
public struct RepeatedMember: Error, Equatable, Sendable {
    public let offset: Int
    public let name: String
    /// The two names are one character written two ways (é composed and
    /// decomposed), not the same bytes.
    public var inTwoSpellings = false
}
