import CacheQuery
import CacheStore

/// A JSON document for `--format json` and `jsonl`, with members in the
/// order they are given so the output is stable.
indirect enum JSONOutput: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])
    /// A cached value, written as it is stored (references as `{"$reference": KEY}`).
    case value(FieldValue)
    /// A read's data, written as it is without first becoming a tree of
    /// these cases.
    case response(ResponseValue)
    /// A number's JSON text as a file holds it (`1.10`, `1e2`), written
    /// as it is.
    case number(String)

    static func == (lhs: JSONOutput, rhs: JSONOutput) -> Bool { lhs.rendered(pretty: false) == rhs.rendered(pretty: false) }

    /// Compact on one line, or pretty with two-space indentation; `indent`
    /// levels in, for an element of an array written a piece at a time.
    func rendered(pretty: Bool, indent: Int = 0) -> String {
        var output = JSONText()
        write(to: &output, pretty: pretty, indent: indent)
        return output.string
    }

    static func record(_ fields: [String: FieldValue]) -> JSONOutput {
        .object(fields.keys.sorted(by: byteOrder).map { ($0, .value(fields[$0]!)) })
    }

    fileprivate func write(to output: inout JSONText, pretty: Bool, indent: Int) {
        switch self {
        case .null: output.append("null")
        case .bool(let flag): flag ? output.append("true") : output.append("false")
        case .int(let number): output.append(Int64(number))
        case .string(let text): output.appendQuoted(text, asStored: false)
        case .number(let text): output.append(raw: text)
        case .value(let value):
            Self.write(value, to: &output, pretty: pretty, indent: indent)
        case .response(let value):
            Self.write(value, to: &output, pretty: pretty, indent: indent)
        case .array(let elements):
            Self.writeContainer("[", "]", elements.count, to: &output, pretty: pretty, indent: indent) { index, output in
                elements[index].write(to: &output, pretty: pretty, indent: indent + 1)
            }
        case .object(let members):
            Self.writeContainer("{", "}", members.count, to: &output, pretty: pretty, indent: indent) { index, output in
                output.appendQuoted(members[index].0, asStored: false)
                pretty ? output.append(": ") : output.append(":")
                members[index].1.write(to: &output, pretty: pretty, indent: indent + 1)
            }
        }
    }

    private static func write(_ value: FieldValue, to output: inout JSONText, pretty: Bool, indent: Int) {
        switch value {
        case .list(let elements) where pretty && !elements.isEmpty:
            JSONOutput.array(elements.map { .value($0) }).write(to: &output, pretty: pretty, indent: indent)
        case .object(let members) where pretty && !members.isEmpty:
            JSONOutput.record(members).write(to: &output, pretty: pretty, indent: indent)
        default:
            output.append(value, asStored: false)
        }
    }

    private static func write(_ value: ResponseValue, to output: inout JSONText, pretty: Bool, indent: Int) {
        switch value {
        case .null:
            output.append("null")
        case .scalar(let scalar):
            write(scalar, to: &output, pretty: pretty, indent: indent)
        case .list(let elements):
            writeContainer("[", "]", elements.count, to: &output, pretty: pretty, indent: indent) { index, output in
                write(elements[index], to: &output, pretty: pretty, indent: indent + 1)
            }
        case .object(let members):
            writeContainer("{", "}", members.count, to: &output, pretty: pretty, indent: indent) { index, output in
                output.appendQuoted(members[index].0, asStored: false)
                pretty ? output.append(": ") : output.append(":")
                write(members[index].1, to: &output, pretty: pretty, indent: indent + 1)
            }
        }
    }

    private static func writeContainer(
        _ open: StaticString, _ close: StaticString, _ count: Int, to output: inout JSONText, pretty: Bool, indent: Int,
        element: (Int, inout JSONText) -> Void
    ) {
        output.append(open)
        guard count > 0 else { output.append(close); return }
        for index in 0..<count {
            if index > 0 { output.append(",") }
            if pretty { newline(&output, indent: indent + 1) }
            element(index, &output)
        }
        if pretty { newline(&output, indent: indent) }
        output.append(close)
    }

    private static func newline(_ output: inout JSONText, indent: Int) {
        output.append("\n")
        for _ in 0..<indent { output.append("  ") }
    }
}

/// JSON Lines written into one buffer: a report of hundreds of thousands of
/// lines is one string, not a string a line.
struct JSONLines {
    private var text = JSONText()

    /// Appends `document`, compact, and a newline.
    mutating func append(_ document: JSONOutput) {
        document.write(to: &text, pretty: false, indent: 0)
        text.append("\n")
    }

    /// Appends `{"KIND_NAME":"KIND","key":"KEY"}` and a newline: the same
    /// text as appending `.object([(kindName, .string(kind)), ("key",
    /// .string(key))])`, without building that object for each of many keys.
    mutating func appendKeyLine(_ kindName: StaticString, _ kind: StaticString, key: CacheKey) {
        text.append("{\"")
        text.append(kindName)
        text.append("\":\"")
        text.append(kind)
        text.append("\",\"key\":")
        text.appendQuoted(key.rawValue, asStored: false)
        text.append("}\n")
    }

    /// Every line, each ending with a newline.
    var string: String { text.string }
}

extension OutputFormat {
    /// Prints `document`, a whole document with --format json or a line
    /// with jsonl. A JSON document of a command that made a `--backup`
    /// names the copy, as its `"backup"` member, so that a script need not
    /// read it from the message on standard error; so does a JSON Lines
    /// summary line (`isSummary`).
    func emit(_ document: JSONOutput, isSummary: Bool = false, to context: CommandContext) {
        context.print((self == .json || isSummary ? document.namingBackup(context.backupCopy) : document).rendered(pretty: self == .json))
    }
}

extension JSONOutput {
    /// The object with a `"backup"` member naming `copy`, when there is one.
    func namingBackup(_ copy: String?) -> JSONOutput {
        guard let copy, case .object(let members) = self else { return self }
        return .object(members + [("backup", .string(copy))])
    }
}
