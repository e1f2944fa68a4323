/// Writes field values as compact JSON, the way Apollo iOS writes records:
/// `/` escaped as `\/`, non-ASCII as raw UTF-8, whole Doubles as integers
/// (`4.0` as `4`), references as `{"$reference":"KEY"}`. Object members are
/// written in byte order of their names so that the same record always
/// gives the same text. `asStored: false` keeps `/` as it is and writes
/// Doubles as Swift spells them (`4.0`), for text people read.
public enum JSONWriter {
    /// The compact JSON text of one value.
    public static func string(for value: FieldValue, asStored: Bool = true) -> String {
        var output = JSONText()
        output.append(value, asStored: asStored)
        return output.string
    }

    /// The compact JSON text of a record's fields (the `record` column).
    public static func string(forFields fields: [String: FieldValue]) -> String {
        var output = JSONText(capacity: 64 * fields.count)
        output.appendObject(fields, asStored: true)
        return output.string
    }

    /// A JSON string literal for `text`, with the same escaping as records.
    public static func quoted(_ text: String, asStored: Bool = true) -> String {
        var output = JSONText(capacity: text.utf8.count + 2)
        output.appendQuoted(text, asStored: asStored)
        return output.string
    }

    /// Shortest text that reads back as the same Double; always valid JSON.
    /// Infinity (from a number too large to hold) is written as `1e999`.
    static func format(_ number: Double) -> String {
        if number.isInfinite { return number < 0 ? "-1e999" : "1e999" }
        guard !number.isNaN else { return "null" }
        return number.description
    }

    /// A Double as Apollo stores it (through JSONSerialization): a whole
    /// number that an Int64 holds exactly as an integer, `4`, not `4.0`;
    /// anything else (and -0.0, whose sign an integer would lose) as
    /// ``format(_:)`` writes it.
    static func formatAsStored(_ number: Double) -> String {
        if number == number.rounded(), abs(number) <= 9_007_199_254_740_992, !(number == 0 && number.sign == .minus) {
            return String(Int64(number))
        }
        return format(number)
    }
}

/// JSON text being written, as UTF-8 bytes: the one place that spells
/// values, escapes strings and orders object members for ``JSONWriter``
/// and for the commands' JSON output.
public struct JSONText {
    public private(set) var utf8: [UInt8] = []

    public init(capacity: Int = 0) {
        utf8.reserveCapacity(capacity)
    }

    /// The text written so far.
    public var string: String { String(decoding: utf8, as: UTF8.self) }

    /// Appends `literal` as it is (punctuation, `null`, indentation).
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { utf8.append(contentsOf: $0) }
    }

    /// Appends `text` as it is: text that is JSON already.
    public mutating func append(raw text: String) {
        utf8.append(contentsOf: text.utf8)
    }

    public mutating func append(_ number: Int64) {
        if number >= 0, number < 10 {
            utf8.append(UInt8(ascii: "0") + UInt8(number))
        } else {
            utf8.append(contentsOf: String(number).utf8)
        }
    }

    /// Appends `text` as a JSON string literal: `"`, `\` and control
    /// characters escaped (and `/` when `asStored`; when not, also DEL,
    /// the C1 controls U+0080–U+009F, which a terminal does not show or
    /// may act on, U+0085 among them, and the line and paragraph
    /// separators U+2028 and U+2029, at which Python's `splitlines()` and JavaScript before
    /// ES2019 end a line of JSON Lines), everything else as raw UTF-8.
    public mutating func appendQuoted(_ text: String, asStored: Bool) {
        utf8.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var pending = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                // Bytes of multi-byte characters are all 0x80 or above; a C1
                // control is 0xC2 then 0x80–0x9F.
                let isC1 = !asStored && byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] < 0xA0
                if !asStored, byte == 0xE2, let separator = LineSeparator.escape(at: index, in: bytes) {
                    utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending..<index]))
                    utf8.append(contentsOf: separator.escape)
                    index += separator.length
                    pending = index
                    continue
                }
                guard isC1 || byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                    || (asStored && byte == UInt8(ascii: "/")) || (!asStored && byte == 0x7F)
                else {
                    index += 1
                    continue
                }
                utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending..<index]))
                let escaped = isC1 ? bytes[index + 1] : byte
                index += isC1 ? 2 : 1
                pending = index
                utf8.append(UInt8(ascii: "\\"))
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case 0x0A: utf8.append(UInt8(ascii: "n"))
                case 0x0D: utf8.append(UInt8(ascii: "r"))
                case 0x09: utf8.append(UInt8(ascii: "t"))
                case 0x08: utf8.append(UInt8(ascii: "b"))
                case 0x0C: utf8.append(UInt8(ascii: "f"))
                default:
                    let hex = Self.hexDigits
                    utf8.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(escaped >> 4)], hex[Int(escaped & 0x0F)]])
                }
            }
            utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[pending...]))
        }
        utf8.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends one value as compact JSON.
    public mutating func append(_ value: FieldValue, asStored: Bool) {
        switch value {
        case .null: append("null")
        case .bool(let flag): flag ? append("true") : append("false")
        case .int(let number): append(number)
        case .double(let number): append(raw: asStored ? JSONWriter.formatAsStored(number) : JSONWriter.format(number))
        case .number(let text): append(raw: text)
        case .string(let text): appendQuoted(text, asStored: asStored)
        case .reference(let key):
            append("{\"$reference\":")
            appendQuoted(key.rawValue, asStored: asStored)
            append("}")
        case .list(let elements):
            append("[")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { append(",") }
                append(element, asStored: asStored)
            }
            append("]")
        case .object(let members):
            appendObject(members, asStored: asStored)
        }
    }

    /// Appends an object, its members in byte order of their names.
    public mutating func appendObject(_ members: [String: FieldValue], asStored: Bool) {
        append("{")
        for (offset, name) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if offset > 0 { append(",") }
            appendQuoted(name, asStored: asStored)
            append(":")
            append(members[name]!, asStored: asStored)
        }
        append("}")
    }
}

extension FieldValue {
    /// The value as the file holds it once written, and as it reads back:
    /// a Double that Apollo stores as an integer (``JSONWriter/formatAsStored(_:)``)
    /// is that integer, `4.0` is `4`.
    public var asStored: FieldValue {
        switch self {
        case .double(let number):
            guard let integer = Int64(JSONWriter.formatAsStored(number)) else { return self }
            return .int(integer)
        case .list(let elements): return .list(elements.map(\.asStored))
        case .object(let members): return .object(members.mapValues(\.asStored))
        case .null, .bool, .int, .number, .string, .reference: return self
        }
    }
}

/// U+2028, U+2029 and U+0085, which JSON allows raw inside a string, but
/// at which Python's `splitlines()` (and JavaScript before ES2019, at the
/// first two) end a line.
enum LineSeparator {
    /// The JSON escape (`\u2028`, `\u2029`, `\u0085`) of the separator
    /// whose UTF-8 (E2 80 A8, E2 80 A9, C2 85) begins at `index` of
    /// `bytes`, and that UTF-8's length; nil for anything else.
    static func escape<Bytes: RandomAccessCollection<UInt8>>(at index: Int, in bytes: Bytes) -> (escape: [UInt8], length: Int)?
    where Bytes.Index == Int {
        if bytes[index] == 0xC2 {
            guard index + 1 < bytes.endIndex, bytes[index + 1] == 0x85 else { return nil }
            return (Array("\\u0085".utf8), 2)
        }
        guard bytes[index] == 0xE2, index + 2 < bytes.endIndex, bytes[index + 1] == 0x80, bytes[index + 2] & 0xFE == 0xA8 else { return nil }
        return (Array("\\u202".utf8) + [bytes[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")], 3)
    }
}

extension String {
    /// A quoted text's inside: its first and last scalars, the quotes,
    /// dropped. By character, a combining mark or a joiner that begins the
    /// inside, or a prepended mark that ends it, would go with its quote.
    public var insideQuotes: String { String(String.UnicodeScalarView(unicodeScalars.dropFirst().dropLast())) }
}
