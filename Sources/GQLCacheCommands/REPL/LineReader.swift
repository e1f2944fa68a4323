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
    /// Whether the line last read ended a piece of input that must hold
    /// whole statements: one `-c`'s text, as psql runs each in turn.
    func endedPiece() -> Bool
}

extension LineReader {
    public func addToHistory(_ line: String) {}
    public func takeInterrupt() -> Bool { false }
    public func setCompleter(_ completer: REPLCompleter?) {}
    public func keep(typedAhead lines: [String]) {}
    public func endedPiece() -> Bool { false }
}

/// Lines from a fixed list (`-c 'cmd; cmd'`, tests) or any ``LineSource``.
public final class SourceLineReader: LineReader {
    private let next: () -> String?
    /// How many lines each piece holds, for ``endedPiece()``; none for a stream.
    private var pieceEnds: Set<Int> = []
    private var linesRead = 0

    public init(lines: [String]) {
        var remaining = lines[...]
        next = { remaining.popFirst() }
    }

    /// The lines of several pieces, read in turn, each piece's end known
    /// (see ``LineReader/endedPiece()``).
    public convenience init(pieces: [[String]]) {
        self.init(lines: pieces.flatMap { $0 })
        var end = 0
        for piece in pieces where !piece.isEmpty {
            end += piece.count
            pieceEnds.insert(end)
        }
    }

    public func endedPiece() -> Bool { pieceEnds.contains(linesRead) }

    public init(source: LineSource) {
        next = { source.readLine() }
    }

    public func readLine(prompt: String, freshPrompt: String) -> String? {
        let line = next()
        if line != nil { linesRead += 1 }
        return line
    }
}
