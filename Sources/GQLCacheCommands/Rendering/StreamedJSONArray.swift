/// A JSON array written to standard output an element at a time, for
/// `--format json` output too large to hold. Closed by the command's
/// `defer`, whatever ends it: as `sqlite3 -json` ends its array after an
/// error, the output stays one JSON document, and the status and the
/// message on standard error say that it is not whole.
///
/// ```swift
/// let array = StreamedJSONArray(context)
/// defer { array.close() }
/// array.append(JSONWriter.quoted(key.rawValue))
/// ```
final class StreamedJSONArray {
    private let context: CommandContext
    /// How the elements are indented.
    private let indent: String
    private var count = 0
    private var isClosed = false

    /// Writes `opening` (`[`, or the start of an object ending in one).
    init(_ context: CommandContext, opening: String = "[", indent: String = "  ") {
        self.context = context
        self.indent = indent
        context.stdout.write(opening)
    }

    func append(_ element: String) {
        context.stdout.write((count == 0 ? "\n" : ",\n") + indent + element)
        count += 1
    }

    /// Ends the array (once); `after` is written after its `]` (the end
    /// of an object around it).
    func close(after: String = "\n") {
        guard !isClosed else { return }
        isClosed = true
        let lastIndent = String(indent.dropLast(2))
        context.stdout.write((count == 0 ? "" : "\n" + lastIndent) + "]" + after)
    }
}
