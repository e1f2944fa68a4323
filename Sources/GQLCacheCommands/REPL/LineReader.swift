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
    func keep(typedAhead lines: [TypedLine])
    /// Whether the line last read ended a piece of input that must hold
    /// whole statements: one `-c`'s text, as psql runs each in turn.
    func endedPiece() -> Bool
    /// Where the line last read stopped being UTF-8 text (the offset of
    /// its first bad byte), clearing it; nil when it was text. Such a line
    /// is read with U+FFFD for its bad bytes, which would name another key
    /// or write other text: it is never run, only looked at for where a
    /// GraphQL document it is part of ends.
    func takeNotUTF8() -> NotUTF8Text?
}

extension LineReader {
    public func addToHistory(_ line: String) {}
    public func takeInterrupt() -> Bool { false }
    public func setCompleter(_ completer: REPLCompleter?) {}
    public func keep(typedAhead lines: [TypedLine]) {}
    public func endedPiece() -> Bool { false }
    public func takeNotUTF8() -> NotUTF8Text? { nil }
}

/// Lines from a fixed list (`-c 'cmd; cmd'`, tests) or any ``LineSource``.
public final class SourceLineReader: LineReader {
    private let next: () throws -> String?
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

    /// The last line read was not UTF-8 (``LineReader/takeNotUTF8()``).
    private var notUTF8: NotUTF8Text?

    public init(source: LineSource) {
        next = { try source.readTextLine() }
    }

    public func readLine(prompt: String, freshPrompt: String) -> String? {
        var line: String?
        do {
            (line, notUTF8) = (try next(), nil)
        } catch let error as NotUTF8Text {
            (line, notUTF8) = (error.text, error)
        } catch {
            (line, notUTF8) = (nil, nil)
        }
        // A script saved with a byte order mark, as editors on Windows save
        // one: U+FEFF begins the text, no character of its first command.
        if linesRead == 0, let first = line, first.unicodeScalars.first == "\u{FEFF}" {
            line = String(first.unicodeScalars.dropFirst())
        }
        if line != nil { linesRead += 1 }
        return line
    }

    public func takeNotUTF8() -> NotUTF8Text? {
        defer { notUTF8 = nil }
        return notUTF8
    }
}
