/// Where the REPL gets its lines: GNU readline on a terminal, standard
/// input or `-c` text in scripts, scripted lines in tests.
public protocol LineReader: AnyObject {
    /// The next line, without its newline; nil at the end of input (Ctrl-D).
    /// Ctrl-C drops the line and reads on at `freshPrompt`, the prompt of a
    /// statement's first line (`prompt` may be a continuation's).
    func readLine(prompt: String, freshPrompt: String) -> String?
    /// Remembers an entry in the history (and its file): a line, or a
    /// statement typed over several, newlines and all.
    func addToHistory(_ line: String)
    /// Whether Ctrl-C was pressed since the last call, clearing it.
    func takeInterrupt() -> Bool
    /// Lets completion ask the session (readline only).
    func setCompleter(_ completer: REPLCompleter?)
    /// Lines typed before a command's question, to read after those
    /// already queued (readline only).
    func keep(typedAhead lines: [String])
}

extension LineReader {
    public func addToHistory(_ line: String) {}
    public func takeInterrupt() -> Bool { false }
    public func setCompleter(_ completer: REPLCompleter?) {}
    public func keep(typedAhead lines: [String]) {}
}

/// Lines from a fixed list (`-c 'cmd; cmd'`, tests) or any ``LineSource``.
public final class SourceLineReader: LineReader {
    private let next: () -> String?

    public init(lines: [String]) {
        var remaining = lines[...]
        next = { remaining.popFirst() }
    }

    public init(source: LineSource) {
        next = { source.readLine() }
    }

    public func readLine(prompt: String, freshPrompt: String) -> String? { next() }
}
