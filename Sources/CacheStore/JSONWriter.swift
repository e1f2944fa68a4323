/// Writes field values as compact JSON, the way Apollo iOS writes records:
/// `/` escaped as `\/`, non-ASCII as raw UTF-8, references as
/// `{"$reference":"KEY"}`. Object members are written in byte order of their
/// names so that the same record always gives the same text.
public enum JSONWriter {
    /// The compact JSON text of one value.
    /// `escapingSlashes: false` gives the plainer text people read.
    public static func string(for value: FieldValue, escapingSlashes: Bool = true) -> String {
        var output = ""
        write(value, to: &output, escapingSlashes: escapingSlashes)
        return output
    }

    /// The compact JSON text of a record's fields (the `record` column).
    public static func string(forFields fields: [String: FieldValue]) -> String {
        var output = ""
        output.reserveCapacity(64 * fields.count)
        writeObject(fields, to: &output)
        return output
    }

    /// A JSON string literal for `text`, with the same escaping as records.
    public static func quoted(_ text: String, escapingSlashes: Bool = true) -> String {
        var output = ""
        writeString(text, to: &output, escapingSlashes: escapingSlashes)
        return output
    }

    static func write(_ value: FieldValue, to output: inout String, escapingSlashes: Bool = true) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): output += format(number)
        case .string(let text): writeString(text, to: &output, escapingSlashes: escapingSlashes)
        case .reference(let key):
            output += "{\"$reference\":"
            writeString(key.rawValue, to: &output, escapingSlashes: escapingSlashes)
            output += "}"
        case .list(let elements):
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                write(element, to: &output, escapingSlashes: escapingSlashes)
            }
            output += "]"
        case .object(let members):
            writeObject(members, to: &output, escapingSlashes: escapingSlashes)
        }
    }

    static func writeObject(_ members: [String: FieldValue], to output: inout String, escapingSlashes: Bool = true) {
        output += "{"
        for (offset, name) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if offset > 0 { output += "," }
            writeString(name, to: &output, escapingSlashes: escapingSlashes)
            output += ":"
            write(members[name]!, to: &output, escapingSlashes: escapingSlashes)
        }
        output += "}"
    }

    /// Shortest text that reads back as the same Double; always valid JSON.
    /// Infinity (from a number too large to hold) is written as `1e999`.
    static func format(_ number: Double) -> String {
        if number.isInfinite { return number < 0 ? "-1e999" : "1e999" }
        guard !number.isNaN else { return "null" }
        return number.description
    }

    static func writeString(_ text: String, to output: inout String, escapingSlashes: Bool = true) {
        // Most strings need no escape: copy them whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || (escapingSlashes && $0 == UInt8(ascii: "/")) }) {
            output += "\""
            output += text
            output += "\""
            return
        }
        output += "\""
        var pendingStart = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        var index = pendingStart
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar {
            case "\"": escape = "\\\""
            case "\\": escape = "\\\\"
            case "/" where escapingSlashes: escape = "\\/"
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            case "\u{08}": escape = "\\b"
            case "\u{0C}": escape = "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    escape = nil
                }
            }
            if let escape {
                output.unicodeScalars.append(contentsOf: scalars[pendingStart..<index])
                output += escape
                pendingStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        output.unicodeScalars.append(contentsOf: scalars[pendingStart..<scalars.endIndex])
        output += "\""
    }
}
