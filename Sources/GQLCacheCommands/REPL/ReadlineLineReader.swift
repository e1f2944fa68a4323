import CReadline
import Foundation

/// GNU readline at a terminal: line editing, history kept in a file, Tab
/// completion from the session, Ctrl-C that clears the line. The only file
/// that imports readline.
public final class ReadlineLineReader: LineReader {
    private let historyFile: HistoryFile?
    /// Why the history file cannot be written, for the session to say.
    public private(set) var historyProblem: String?
    private static let historyLimit = 1000

    /// `historyPath` nil keeps no history file. `promptToStandardError`:
    /// the prompt and the line being typed go to standard error, not
    /// standard output (which goes to a file or a pipe).
    public init(historyPath: String?, promptToStandardError: Bool = false) {
        // A file that is no history file (a cache named by mistake, a FIFO)
        // is neither read nor written: the session keeps no history.
        let named = historyPath.map { HistoryFile(path: $0, limit: Self.historyLimit) }
        if let named, let refusal = named.refusal() {
            historyProblem = "the history file \(named.path) is left alone: \(refusal); this session's commands are not kept"
            historyFile = nil
        } else {
            historyFile = named
        }
        if promptToStandardError { gqlcache_prompt_to_stderr() }
        gqlcache_use_utf8_characters()
        gqlcache_set_readline_name("gqlcache")
        // Keys hold ':', '(', '.' and ',': only whitespace separates words.
        gqlcache_set_word_breaks(" \t\n")
        // ...unless quoted or escaped, as the REPL splits its lines.
        gqlcache_set_char_is_quoted { text, index in
            guard let text else { return 0 }
            let line = String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(index)), as: UTF8.self)
            return ShellWords.partialWord(line).quotesNext ? 1 : 0
        }
        gqlcache_install_sigint_handler()
        using_history()
        if let historyFile {
            historyProblem = historyFile.prepare().map { "cannot write the history file \(historyFile.path) (\($0)); this session's commands are not kept" }
            // Read by HistoryFile, not readline, which would split a statement of several lines.
            let entries = historyFile.entries()
            for entry in entries { add_history(entry) }
            lastEntry = entries.last
        }
    }

    /// Gives the terminal back the mode it had before readline set its own
    /// at the prompt, and ends the line; nothing when readline has not set
    /// it. For a signal that ends the process at the prompt.
    public func restoreTerminal() { gqlcache_restore_terminal() }

    /// The history file: `GQLCACHE_HISTORY`, else `~/.gqlcache_history`;
    /// nil when `GQLCACHE_HISTORY` is empty. Without `HOME` the home is
    /// the account's (as bash and sqlite3 find it), `accountHome`.
    public static func historyPath(environment: [String: String], accountHome: () -> String? = accountHome) -> String? {
        if let path = environment["GQLCACHE_HISTORY"] { return path.isEmpty ? nil : path }
        guard let home = environment["HOME"].flatMap({ $0.isEmpty ? nil : $0 }) ?? accountHome() else { return nil }
        return (home as NSString).appendingPathComponent(".gqlcache_history")
    }

    /// The home directory the password database gives the user running.
    public static func accountHome() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }

    /// Lines waiting to be read, and the Ctrl-C count when they came: one
    /// pressed since drops them all.
    private struct QueuedLines {
        private var lines: [TypedLine] = []
        private var atInterrupt = 0

        mutating func add(_ more: [TypedLine]) {
            if lines.isEmpty { atInterrupt = gqlcache_interrupts() }
            lines += more
        }

        mutating func next() -> TypedLine? {
            guard !lines.isEmpty else { return nil }
            guard gqlcache_interrupts() == atInterrupt else {
                lines.removeAll()
                return nil
            }
            return lines.removeFirst()
        }
    }

    /// The lines after the first of a paste of several.
    private var pasted = QueuedLines()
    /// Lines typed before a command's question.
    private var typedAhead = QueuedLines()
    /// The newest history entry, which the same line again does not repeat.
    private var lastEntry: String?
    /// The line last read was not UTF-8 (``LineReader/takeNotUTF8()``).
    private var notUTF8: NotUTF8Text?

    public func takeNotUTF8() -> NotUTF8Text? {
        defer { notUTF8 = nil }
        return notUTF8
    }

    /// A paste of several lines (a terminal's bracketed paste gives them as
    /// one) runs line by line, as typed, as sqlite3 and bash run them.
    public func readLine(prompt: String, freshPrompt: String) -> String? {
        notUTF8 = nil
        if let line = pasted.next() { return taken(line) }
        if let line = typedAhead.next() {
            // Shown as if typed now: a paste readline was reading (its
            // terminal mode echoes nothing) is not on the screen.
            let shown = Array((prompt + line.text + "\n").utf8)
            _ = shown.withUnsafeBytes { write(gqlcache_prompt_descriptor(), $0.baseAddress, $0.count) }
            return taken(line)
        }
        ReadlineCompletion.freshPrompt = freshPrompt
        guard let line = gqlcache_readline(prompt, freshPrompt) else { return nil }
        defer { free(line) }
        // Bytes that are not UTF-8 (a terminal set to Latin-1) are refused
        // line by line: the other lines of a paste are text.
        var lines = TypedLine.lines(UnsafeBufferPointer(start: UnsafeRawPointer(line).assumingMemoryBound(to: UInt8.self), count: strlen(line)))
        let first = lines.removeFirst()
        pasted.add(lines)
        return taken(first)
    }

    /// The line's text, with whether it was UTF-8 kept for ``takeNotUTF8()``.
    private func taken(_ line: TypedLine) -> String {
        notUTF8 = line.notUTF8
        return line.text
    }

    public func keep(typedAhead lines: [TypedLine]) { typedAhead.add(lines) }

    /// A statement typed over several lines is one entry, newlines and all.
    /// Spaces after the last word (a Tab's) are left out where the line
    /// reads the same without them, and a line the same as the one before
    /// it is kept once, as fish and zsh's HIST_IGNORE_DUPS keep it.
    public func addToHistory(_ line: String) {
        var entry = line.trimmingTrailingSpaces()
        if entry != line, (try? ShellWords.split(entry)) != (try? ShellWords.split(line)) { entry = line }
        guard entry != lastEntry else { return }
        lastEntry = entry
        add_history(entry)
        historyFile?.append(entry)
    }

    public func takeInterrupt() -> Bool { gqlcache_take_interrupt() != 0 }

    public func setCompleter(_ completer: REPLCompleter?) {
        ReadlineCompletion.completer = completer
        gqlcache_set_completion(completer == nil ? nil : { _, start, end in ReadlineCompletion.matches(start: start, end: end) })
        gqlcache_set_display_matches(completer == nil ? nil : { matches, count, width in ReadlineCompletion.display(matches, count: count, width: width) })
    }
}

/// The completion callback's state: readline calls a plain C function.
enum ReadlineCompletion {
    nonisolated(unsafe) static var completer: REPLCompleter?
    /// A line Tab-Tab shows under its list: that the keys listed are only some of them.
    nonisolated(unsafe) static var listNote: String?
    /// The prompt of a statement's first line; any other shown is a
    /// continuation's, a line inside a GraphQL document.
    nonisolated(unsafe) static var freshPrompt: String?

    /// The matches for the word that ends at `end` of the line, readline's
    /// own word starting at `start`: what replaces it first, then every
    /// candidate as listed, then NULL.
    static func matches(start: Int32, end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let completer else { return nil }
        // Inside a document typed over several lines, a word is GraphQL,
        // no command, key or file: Tab completes nothing there.
        if let freshPrompt, let shown = gqlcache_current_prompt(), String(cString: shown) != freshPrompt {
            gqlcache_set_completion_over(1)
            listNote = nil
            return nil
        }
        let buffer = gqlcache_line_buffer().map { String(cString: $0) } ?? ""
        let line = String(decoding: Array(buffer.utf8.prefix(Int(end))), as: UTF8.self)
        // The word as the REPL will split it, quotes and all, not only what follows an open quote.
        let word = ShellWords.partialWord(line)
        let before = String(decoding: Array(line.utf8.prefix(word.start)), as: UTF8.self)
        let completion = completer.complete(word: word.value, before: before)
        listNote = completer.keysCut
            ? (word.value.isEmpty
                ? "(only the first \(REPLCompleter.keyLimit - 1) and the last of the keys; type the start of a key to narrow them)"
                : "(only the first \(REPLCompleter.keyLimit - 1) and the last of the keys that begin with '\(word.value.shownOnLine)'; type more of the key to narrow them)")
            : nil
        switch completion {
        case .fileNames:
            gqlcache_set_suppress_quote(0)
            gqlcache_set_completion_over(0)
            return nil
        case .candidates(let found):
            gqlcache_set_completion_over(1)
            // By bytes: Swift's String equality would take `café` composed
            // and decomposed, two keys, for one.
            var seen = Set<[UInt8]>()
            let candidates = found.filter { seen.insert(Array($0.utf8)).inserted }
            // readline replaces its word from `start`, or from the quote
            // before it when the text begins with that quote.
            guard let insertion = REPLCompleter.insertion(for: candidates, completing: word),
                insertion.from == (word.openQuote == nil ? Int(start) : Int(start) - 1)
            else { return nil }
            // The insertion closes its own quote, and only when it is whole.
            gqlcache_set_suppress_quote(1)
            // `--var id=`: the value is typed next, right after it.
            if completer.continuesWord { gqlcache_set_suppress_append(1) }
            let all = [insertion.text] + (candidates.count > 1 ? candidates : [])
            let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: all.count + 1)
            for (index, item) in all.enumerated() { array[index] = strdup(item) }
            array[all.count] = nil
            return array
        }
    }
}

extension ReadlineCompletion {
    /// Lists the matches Tab-Tab shows as every other line of output shows
    /// a key: one that holds a control character, a right-to-left
    /// override or an invisible character, quoted with those escaped
    /// (``Swift/String/shownOnLine``), so the list cannot reorder or hide
    /// itself. What Tab inserts is the key itself.
    static func display(_ matches: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, count: Int32, width: Int32) {
        guard let matches else { return }
        defer { listNote = nil }
        let listed = (1...max(1, Int(count))).map { index in matches[index].map { String(cString: $0) } }
        // A file name is listed by its last part, which is what gets escaped.
        let fileNames = gqlcache_completing_file_names() != 0
        let shown = listed.map { $0.map { fileNames ? Self.lastPartShown($0) : $0.shownOnLine } }
        guard shown != listed else {
            // As readline would list them itself (file names by their last part).
            gqlcache_display_match_list(matches, count, width, listNote)
            return
        }
        let all = [matches[0].map { String(cString: $0) } ?? ""] + shown.map { $0 ?? "" }
        let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: all.count + 1)
        defer {
            for index in all.indices { free(array[index]) }
            array.deallocate()
        }
        for (index, item) in all.enumerated() { array[index] = strdup(item) }
        array[all.count] = nil
        // Measured as listed: a file name by its last part.
        let widest = shown.map { Self.listedPart($0 ?? "", fileNames: fileNames).displayWidth }.max() ?? 0
        gqlcache_display_match_list(array, count, Int32(max(Int(width), widest)), listNote)
    }

    /// `path` with its part after the last `/` as a line shows it.
    static func lastPartShown(_ path: String) -> String {
        let part = listedPart(path, fileNames: true)
        return String(path.dropLast(part.count)) + String(part).shownOnLine
    }

    /// What readline lists of a match: a file name's part after its last
    /// `/`, anything else whole.
    static func listedPart(_ match: String, fileNames: Bool) -> String {
        guard fileNames, let slash = match.lastIndex(of: "/") else { return match }
        return String(match[match.index(after: slash)...])
    }
}

/// The answers to a command's questions ("remove 3 records? [y/N]") at the
/// REPL's terminal: Ctrl-C gives the question up, as it would stop the
/// command, and counts as "no"; the command's status is then 130.
final class TerminalAnswers: InterruptibleLineSource {
    private var interrupted = false

    func readLine() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = gqlcache_read_answer(&buffer, UInt(buffer.count))
        if length == -2 { interrupted = true }
        guard length >= 0 else { return nil }
        return String(decoding: buffer[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func takeInterruption() -> Bool {
        defer { interrupted = false }
        return interrupted
    }
}
