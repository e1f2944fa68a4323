import Foundation

/// The loop: lines read until the input ends, GraphQL gathered over as
/// many as it takes, and each command run, Ctrl-C stopping only it.
extension REPLSession {
    /// Reads and runs lines until the input ends or `quit`. With `bail`,
    /// stops at the first command that fails. Returns the status to exit
    /// with: the last command's (or the failing one's).
    public func run(reader: LineReader, bail: Bool) -> ExitStatus {
        history = interactive ? reader : nil
        typedAheadReader = interactive ? reader : nil
        defer { history = nil; typedAheadReader = nil; context.scriptLine = nil }
        var pending: [String] = []
        // A script's messages name the line they come from (a document's
        // first); a prompt's come right after the line typed.
        var lineNumber = 0
        var pendingFrom = 0
        // Its lines as typed, for the history (`read {` begins the first).
        var pendingAsTyped: [String] = []
        // Options typed between `read` and the GraphQL.
        var pendingOptions = ""
        // A line of the document gathered was not UTF-8: said so, and none of it runs.
        var droppingDocument = false
        // A command begun on earlier lines that ended in `\`, without them,
        // and the line it began on.
        var continued: String?
        var continuedFrom = 0
        // A line of a command so continued was not UTF-8: the rest of it is dropped.
        var droppingCommand = false
        func place(_ line: Int) { if scriptIsStandardInput { context.scriptLine = line } }
        while true {
            // Output that ended mid-line (`keys -z`) is ended, so the prompt
            // begins its own line, as zsh and psql do.
            if interactive, !promptToStandardError, let sink = context.stdout as? FileDescriptorSink, sink.endsMidLine { sink.write("\n") }
            context.stdout.flush()
            context.stderr.flush()
            // Ctrl-C drops a statement begun on earlier lines too (below), so the prompt it leaves is a first line's.
            let line = reader.readLine(prompt: pending.isEmpty && continued == nil ? prompt : Self.continuationPrompt, freshPrompt: prompt)
            if reader.takeInterrupt() { pending.removeAll(); pendingAsTyped.removeAll(); droppingDocument = false; continued = nil; droppingCommand = false }
            if line != nil { lineNumber += 1 }
            guard var line else {
                if interactive { (promptToStandardError ? context.stderr : context.stdout).write("\n") }
                // As sqlite3 does with unfinished SQL: the input ended in a mistake.
                if !pending.isEmpty && !droppingDocument {
                    place(pendingFrom)
                    // Not lost with the session: Up brings it back next time.
                    if interactive { reader.addToHistory(pendingAsTyped.joined(separator: "\n")) }
                    context.report(.usage, Self.unfinishedDocument(pending))
                    lastStatus = .usage
                }
                if let continued {
                    place(continuedFrom)
                    context.report(.usage, Self.unfinishedCommand(continued, atEndOf: "the input"))
                    lastStatus = .usage
                }
                break
            }
            // Read with U+FFFD for its bad bytes, it would name another key or
            // write other text. A line of a GraphQL document (or one that
            // begins one) drops the whole document: the rest of it is read
            // up to its end, and none of it runs.
            if let notText = reader.takeNotUTF8() {
                place(lineNumber)
                let inDocument = !pending.isEmpty || GraphQLInput.begins(line)
                    || GraphQLInput.afterRead(line, valueTaking: Self.readValueTaking) != nil
                let inCommand = continued != nil || (!inDocument && ShellWords.continuesOnNextLine(line))
                context.report(.usage, "the line is not UTF-8 text at byte \(notText.offset + 1); it was not run"
                    + (inDocument ? ", nor the GraphQL document it is part of" : inCommand ? ", nor the command it is part of" : "")
                    + " (gqlcache reads keys, paths and values as UTF-8, and read so it would name something else)")
                lastStatus = .usage
                if bail { break }
                guard inDocument else {
                    // The rest of a command it begins, or is part of, is dropped too, to its last line.
                    continued = nil
                    droppingCommand = ShellWords.continuesOnNextLine(line)
                    continue
                }
                droppingDocument = true
            }
            // `rm Human:1000 \` then `Human:1002`: one command, as in a shell,
            // the backslash and the line break gone.
            if droppingCommand {
                droppingCommand = ShellWords.continuesOnNextLine(line)
                continue
            }
            if let begun = continued {
                line = begun + line
                continued = nil
            } else {
                continuedFrom = lineNumber
            }
            // Blank lines, and comments as in shell scripts (`# remove the posts`).
            if pending.isEmpty && (line.trimmingCharacters(in: .whitespaces).isEmpty || line.drop { $0 == " " || $0 == "\t" }.hasPrefix("#")) {
                continue
            }
            // `read { hero { name } }` is the GraphQL typed alone (kept in the history as typed).
            var typedRead: String?
            if pending.isEmpty, let typed = GraphQLInput.afterRead(line, valueTaking: Self.readValueTaking) {
                (typedRead, line) = (line, typed.graphQL)
                pendingOptions = typed.options
            } else if pending.isEmpty {
                pendingOptions = ""
            }
            if !pending.isEmpty || GraphQLInput.begins(line) {
                if pending.isEmpty { pendingFrom = lineNumber }
                pending.append(line)
                pendingAsTyped.append(typedRead ?? line)
                let text = pending.joined(separator: "\n")
                if droppingDocument {
                    guard GraphQLInput.isComplete(text) || reader.endedPiece() else { continue }
                    (droppingDocument, pending, pendingAsTyped) = (false, [], [])
                    continue
                }
                guard GraphQLInput.isComplete(text) else {
                    // `-c '{ hero {' -c 'name } }'`: each -c holds whole statements, as psql's do.
                    guard reader.endedPiece() else { continue }
                    place(pendingFrom)
                    context.report(.usage, Self.unfinishedDocument(pending, atEndOf: "its -c"))
                    lastStatus = .usage
                    pending.removeAll()
                    pendingAsTyped.removeAll()
                    if bail { break }
                    continue
                }
                pending.removeAll()
                if interactive { reader.addToHistory(pendingAsTyped.joined(separator: "\n")) }
                pendingAsTyped.removeAll()
                place(pendingFrom)
                // Not a syntax error at '-': options are given to a later read, which reads it again.
                if let options = GraphQLInput.optionsAfter(text) {
                    context.report(.usage, "options after GraphQL are not read ('\(options)'): type them before it, 'read \(options) { … }'")
                    lastStatus = .usage
                } else {
                    noteTyped(text)
                    if scriptIsStandardInput { typedOnLine[text] = pendingFrom }
                    // Options typed before the GraphQL (`read --format json { … }`) are the read's.
                    let options = (try? ShellWords.split(pendingOptions)) ?? []
                    lastStatus = runInterruptible(reader: reader) { runCommand(["read"] + options + ["--text", text], typedQuery: true) }
                }
                linesRun += 1
            } else {
                if ShellWords.continuesOnNextLine(line) {
                    // Each -c holds whole commands, as it holds whole documents.
                    guard reader.endedPiece() else {
                        continued = String(line.dropLast())
                        continue
                    }
                    place(continuedFrom)
                    context.report(.usage, Self.unfinishedCommand(String(line.dropLast()), atEndOf: "its -c"))
                    lastStatus = .usage
                    if bail { break }
                    continue
                }
                if interactive { reader.addToHistory(line) }
                place(continuedFrom)
                // `keys Human; keys Starship` runs both, as sqlite3 and -c do; a failure
                // stops the rest under --bail, and Ctrl-C always does.
                var leaves = false
                for command in ShellWords.commands(line) {
                    guard let status = runInterruptible(reader: reader, { execute(command) }) else { leaves = true; break }
                    lastStatus = status
                    if status == .interrupted || ((bail || scriptStoppedByFailedOpen) && status != .success) { break }
                }
                if leaves { break }
            }
            // Nothing stays open at the prompt: in WAL mode an open
            // connection, even idle, holds a lock that keeps the app's
            // last close from checkpointing, and a file replaced meanwhile
            // must not meet this session's -wal (see OpenStores).
            stores.closeAll()
            // SIGTERM, SIGHUP or Ctrl-\ came during a write: the session
            // ends, as the command line does, once the command said what
            // came of it (rolled back, 130; or committed just before).
            if context.catchesStopSignals, StopSignals.shared.takeStopRequest() != nil { break }
            context.stdout.flush()
            if (bail || scriptStoppedByFailedOpen) && lastStatus != .success { break }
        }
        context.stdout.flush()
        return lastStatus
    }

    /// Input that ended inside a GraphQL document: what it began with and
    /// how many lines it took, as a line like `query` alone (no brace yet)
    /// takes every line after it for the document's.
    static func unfinishedDocument(_ lines: [String], atEndOf input: String = "the input") -> String {
        let first = lines[0].trimmingCharacters(in: .whitespaces)
        let shown = first.count > 40 ? first.prefix(39) + "…" : first
        let missing = GraphQLInput.depth(lines.joined(separator: "\n")).sawBrace ? "a '}' is missing" : "no '{' came"
        let taken = lines.count == 1 ? "not run" : "its \(lines.count) lines, to the end of \(input), were not run"
        return "the GraphQL document begun with '\(shown)' was not finished (\(missing)); \(taken)"
    }

    /// Input that ended after a line ending in `\`, which continues the
    /// command on a line that never came: not run, as a half-typed
    /// `rm A \` could remove less than meant.
    static func unfinishedCommand(_ begun: String, atEndOf input: String) -> String {
        let first = begun.trimmingCharacters(in: .whitespaces)
        let shown = first.count > 40 ? first.prefix(39) + "…" : first
        return "the command '\(shown)' ends in '\\', which continues it on the next line, and \(input) ended; it was not run"
    }

    /// Runs `body` while a watcher turns Ctrl-C into interrupting the open
    /// stores (a long removal stops and rolls back; the REPL stays).
    private func runInterruptible<T>(reader: LineReader, _ body: () -> T) -> T {
        guard interactive else { return body() }
        _ = reader.takeInterrupt()
        // A Ctrl-C that came after the last command's transactions is not for this one.
        stores.forgetInterrupts()
        let done = ManagedAtomicFlag()
        let stores = self.stores
        // The reader's interrupt flag is a signal-safe C variable, read from the watcher only.
        let box = UncheckedBox(reader)
        let watcher = Thread {
            while !done.isSet {
                if box.value.takeInterrupt() { stores.interruptAll() }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        watcher.start()
        defer { done.set() }
        return body()
    }
}
