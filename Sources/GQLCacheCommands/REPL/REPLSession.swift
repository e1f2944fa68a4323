import CacheQuery
import CacheStore
import CSignals
import Foundation

/// The REPL: one open cache, a place in its graph, and a loop that runs the
/// CLI's own commands (same words, minus the cache file) plus a few of its
/// own. The loop never dies on an error: it prints it and reads on.
public final class REPLSession {
    /// The REPL's own commands, with a line of help each.
    static let ownCommands: [(name: String, help: String)] = [
        ("cd", "cd KEY | cd FIELD[.INDEX] | cd .. (../.., ../FIELD) | cd - | cd [/] — go to a record, follow a reference of this one, go back, "
            + "return to where the last move started, or return to QUERY_ROOT"),
        ("ls", "ls — show the record you are at (ls KEY, ls FIELD, ls .. or ls ../FIELD shows another, as cd would go)"),
        ("back", "back — return to the record before"),
        ("pwd", "pwd — the records cd went through to get here (what back and .. return along)"),
        ("open", "open FILE — switch to another cache file"),
        ("edit", "edit (or \\e) — edit the last query in $VISUAL or $EDITOR, then read it"),
        ("status", "status — the exit status of the last command"),
        ("help", "help [COMMAND] (or \\h, \\?) — this list, or a command's options"),
        ("quit", "quit (or exit, \\q, or Ctrl-D) — leave"),
    ]

    public private(set) var cachePath: String
    let context: CommandContext
    let stores = OpenStores()
    /// The records visited by `cd`, the current one last.
    private(set) var trail: [CacheKey] = [.queryRoot]
    /// Where the last move started, for `cd -` (a shell's OLDPWD).
    private var previousTrail: [CacheKey]?
    public private(set) var lastStatus: ExitStatus = .success
    /// The GraphQL typed at the prompt (or with `read --text`, or saved
    /// from `edit`), the newest first: `read NAME` and `read --fragment
    /// NAME` read the newest that defines NAME.
    private var typedDocuments: [String] = []
    /// The GraphQL typed last: a query, or fragments alone.
    var lastTyped: String? { typedDocuments.first }
    /// The query typed last (or a document that does not parse, which may
    /// be one), also when fragments were typed after it; nil when none was.
    var lastQuery: String? { typedDocuments.first { typedDocument($0).map { !$0.operations.isEmpty } ?? true } }
    /// The GraphQL typed so far, newest first: Tab offers its names.
    var typedTexts: [String] { typedDocuments }
    /// True when no command has named a document since the last query was
    /// typed: a `read` that names no operation then reads that query.
    private var lastQueryIsNewest = false

    /// The script line each document typed in a script began on.
    private var typedOnLine: [String: Int] = [:]
    /// Each typed document parsed, once: every read that names none looks
    /// through them.
    private var parsedTyped: [String: QueryDocument] = [:]

    /// The typed `text` parsed, nil when it does not parse.
    private func typedDocument(_ text: String) -> QueryDocument? {
        if let parsed = parsedTyped[text] { return parsed }
        guard let parsed = try? QueryDocument.parse([("typed", text)]) else { return nil }
        if typedDocuments.contains(text) { parsedTyped[text] = parsed }
        return parsed
    }
    /// When each typed text and each document file was last given, in
    /// order: of two that define one name, the later one counts.
    private var givenAt: [String: Int] = [:]
    private var documentsGiven = 0

    private func noteGiven(_ key: String) {
        documentsGiven += 1
        givenAt[key] = documentsGiven
    }

    private func noteTyped(_ text: String) {
        noteGiven("text:" + text)
        typedDocuments.removeAll { $0 == text }
        typedDocuments.insert(text, at: 0)
        if typedDocuments.count > 50, let dropped = typedDocuments.popLast() {
            givenAt["text:" + dropped] = nil
            typedOnLine[dropped] = nil
            parsedTyped[dropped] = nil
        }
        lastQueryIsNewest = true
    }
    /// `--document` files named in earlier commands, for completion.
    private(set) var documentFiles: [String] = []
    /// Prompts and confirmations: a person is at a terminal.
    let interactive: Bool
    /// The prompt goes to standard error (standard output is not the terminal).
    var promptToStandardError = false
    /// Where commands read the answers to their questions; nil: the
    /// context's standard input.
    var answers: LineSource?
    /// Where the session keeps its history while it runs at a prompt: the
    /// query `edit` runs goes there too, as if typed.
    private var history: LineReader?
    /// The reader that lines typed before a question go back to.
    private var typedAheadReader: LineReader?
    /// The lines run come from standard input (a script piped in), so a
    /// command must not read it as its own input.
    var scriptIsStandardInput = false
    /// Seconds to wait while the app holds the lock: for the session's own
    /// reads (`cd`, `ls`, `open`) and for every command that gives no
    /// `--busy-timeout` of its own.
    let busyTimeout: Double

    /// `busyTimeout`: 5, as BusyTimeout.standard (internal, so not nameable here), when not given.
    /// read's options that take a value (`--var`, `--format`), for options
    /// typed before GraphQL (`read --format json { … }`).
    static let readValueTaking: Set<String> = OptionTable.of(command: "read")?.valueTaking["read"] ?? []

    /// The cache file as a command's argument: a relative name that starts
    /// with '-' would be read as an option, and `./` keeps it a file.
    static func fileArgument(_ path: String) -> String { path.hasPrefix("-") ? "./" + path : path }

    public init(cachePath: String, context: CommandContext, interactive: Bool, busyTimeout: Double = 5) {
        self.cachePath = cachePath
        self.context = context
        self.interactive = interactive
        self.busyTimeout = busyTimeout
    }

    var current: CacheKey { trail.last ?? .queryRoot }

    /// The current record's key, quoted when it holds what a terminal would
    /// act on or hide (a carriage return, an escape sequence), as output shows it.
    /// The prompt names the record you are at, a long key cut in its middle
    /// (`pwd` gives it whole), so that the line is left for typing.
    var prompt: String {
        let shown = current.display
        guard shown.count > 60 else { return "gqlcache \(shown)> " }
        return "gqlcache \(shown.prefix(32))…\(shown.suffix(24))> "
    }
    static let continuationPrompt = "    ...> "

    /// Checks the file once, before the first prompt.
    public func start() throws {
        defer { stores.closeAll() }
        let store = try readStore()
        if try !store.read({ tx in try tx.contains(.queryRoot) }) {
            trail = [try store.read { tx in try Self.firstKey(tx) } ?? .queryRoot]
        }
    }

    /// Reads and runs lines until the input ends or `quit`. With `bail`,
    /// stops at the first command that fails. Returns the status to exit
    /// with: the last command's (or the failing one's).
    /// How many command lines have run: what completion has worked out
    /// from the file holds until the next one runs.
    private(set) var linesRun = 0

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
        func place(_ line: Int) { if scriptIsStandardInput { context.scriptLine = line } }
        while true {
            context.stdout.flush()
            context.stderr.flush()
            // Ctrl-C drops a statement begun on earlier lines too (below), so the prompt it leaves is a first line's.
            let line = reader.readLine(prompt: pending.isEmpty ? prompt : Self.continuationPrompt, freshPrompt: prompt)
            if reader.takeInterrupt() { pending.removeAll(); pendingAsTyped.removeAll() }
            if line != nil { lineNumber += 1 }
            guard var line else {
                if interactive { (promptToStandardError ? context.stderr : context.stdout).write("\n") }
                // As sqlite3 does with unfinished SQL: the input ended in a mistake.
                if !pending.isEmpty {
                    place(pendingFrom)
                    // Not lost with the session: Up brings it back next time.
                    if interactive { reader.addToHistory(pendingAsTyped.joined(separator: "\n")) }
                    context.report(.usage, Self.unfinishedDocument(pending))
                    lastStatus = .usage
                }
                break
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
                if interactive { reader.addToHistory(line) }
                place(lineNumber)
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

    /// A shell's pipe and redirections, which the prompt does not run.
    static let shellOperators: Set = ["|", ">", ">>", "<", "2>", "&>", "2>&1"]

    /// Runs one line; nil means leave.
    func execute(_ line: String) -> ExitStatus? {
        linesRun += 1
        var line = line
        // psql-style backslash commands, before shell quoting would eat the
        // backslash: `\h rm` is `help rm`, and `\q now` is told what quit takes.
        let backslashNames = ["\\e": "edit", "\\q": "quit", "\\h": "help", "\\?": "help"]
        let first = line.drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " && $0 != "\t" }
        if first.hasPrefix("\\") {
            guard let name = backslashNames[String(first)] else {
                context.report(.usage, "unknown command '\(first)' (the backslash commands are \\e, \\q, \\h and \\?; type 'help' for the others)")
                return .usage
            }
            line = name + line[first.endIndex...]
        }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        // `help \e`: the command a backslash name stands for.
        let helpWords = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        if helpWords.count == 2, ["help", "?"].contains(helpWords[0]), let name = backslashNames[String(helpWords[1])] {
            return help([name])
        }
        let marked: [(word: String, bare: Bool)]
        do {
            marked = try ShellWords.splitMarkingBare(line)
        } catch {
            context.report(.usage, "\(error)")
            return .usage
        }
        let words = marked.map(\.word)
        guard let command = words.first else { return lastStatus }
        // `keys | head -2`: a pipe or redirection, typed as a shell takes
        // it, not quoted as a key; said, rather than taken for an option or key.
        if let at = marked.indices.dropFirst().first(where: { marked[$0].bare && Self.shellOperators.contains(marked[$0].word) }) {
            let shell = marked[at].word
            var message = "the prompt runs no shell, so '\(shell)' \(shell == "|" ? "pipes" : "redirects") nothing"
            // The same from a shell, for a command of the CLI whose words say
            // all it works on: not show, refs, read, update or write, which at
            // the prompt take the record you are at or a query typed before.
            if GQLCache.configuration.subcommands.contains(where: { $0._commandName == command }),
                !["repl", "completions", "show", "refs", "read", "update", "write"].contains(command)
            {
                var rest = String(trimmed.drop { $0 != " " && $0 != "\t" })
                // `import < FILE`: a shell's import reads standard input when its input is `-`,
                // put before the redirection (the words written again, as the prompt read them).
                let before = Array(words[1..<at])
                if command == "import", shell == "<", !before.contains("-"), REPLCompleter.positionals([command] + before).isEmpty {
                    rest = (before + ["-"]).map { ShellWords.quote($0) }.map { " " + $0 }.joined()
                        + marked[at...].map { $0.bare ? " " + $0.word : " " + ShellWords.quote($0.word) }.joined()
                }
                message += "; from a shell: gqlcache \(command) \(ShellWords.quote(cachePath))\(rest)"
            }
            context.report(.usage, message)
            return .usage
        }
        let arguments = Array(words.dropFirst())
        // 'keys --help' is 'help keys': the prompt's own form, not the shell's
        // usage with a cache file ('ls --help' is ls's, not show's).
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }), command != "help", command != "?" {
            return help([command])
        }
        if let extra = arguments.first, ["quit", "exit", "..", "back", "pwd", "status", "edit"].contains(command) {
            // Said, not dropped: 'exit 3' would otherwise end with another status than the one typed.
            let ending = ["quit", "exit"].contains(command) ? " (the REPL ends with the last command's status)" : ""
            context.report(.usage, "\(command) takes no arguments, not '\(extra)'\(ending)")
            return .usage
        }
        // Another program (the app, a second shell) may have removed the
        // record you are at since the last line: the move is said before
        // the command runs where it now is. Looked at briefly, as Tab
        // looks: a file the app holds locked does not hold up the line.
        if !["quit", "exit", "help", "?", "status", "open"].contains(command) {
            let moved = (try? dropRemovedRecordsFromTrail(from: completionStore())) ?? false
            // The move up was the one asked for.
            if moved && ["..", "back"].contains(command) { return .success }
        }
        switch command {
        case "quit", "exit":
            return nil
        case "help", "?":
            return help(arguments)
        case "cd":
            return changeRecord(arguments)
        case "..", "back":
            return goBack()
        case "pwd":
            context.print(trail.map(\.display).joined(separator: " → "))
            return .success
        case "ls":
            // As show: with no key named (ls --depth 2), the record you are at;
            // `ls FIELD` and `ls ..` name a record as cd names it.
            // Options may come before or after it (ls friends.0 --depth 1).
            if let place = Self.onlyPositional(in: arguments, of: "show"), let listed = listedRecord(arguments[place]) {
                switch listed {
                case .success(let key):
                    var options = arguments
                    options.remove(at: place)
                    return runCommand(["show"] + options + ["--", key.rawValue], typedAs: "ls")
                case .failure(let failure):
                    // A field that is no reference (a list, null), said as cd says it.
                    context.report(failure.status, failure.message)
                    return failure.status
                }
            }
            return runCommand(["show"] + (Self.namesNoKey(arguments) ? [current.rawValue] : []) + arguments, typedAs: "ls")
        case "open":
            return open(arguments)
        case "edit":
            return editLastQuery()
        case "status":
            context.print(String(lastStatus.rawValue))
            return .success
        default:
            if let problem = Self.notRunnable(command) {
                context.report(.usage, problem)
                return .usage
            }
            // Every input given as '-' (import's, --response, --data, --variables-file); not export's -o -.
            if scriptIsStandardInput, arguments.indices.contains(where: { arguments[$0] == "-" && ($0 == 0 || !["-o", "--output"].contains(arguments[$0 - 1])) }) {
                context.report(
                    .usage,
                    "'-' would read the rest of this script, which comes from standard input; name a file instead, or give the commands with -c")
                return .usage
            }
            if scriptIsStandardInput, command == "update", arguments.contains("--edit") {
                context.report(.usage, Self.editorInScriptProblem)
                return .usage
            }
            if let problem = fileGivenOutOfHabit(command, arguments) {
                context.report(.usage, problem)
                return .usage
            }
            var arguments = arguments
            // `show` and `refs` with no key are about where you are.
            if command == "show" && Self.namesNoKey(arguments) || command == "refs" && Self.refsNamesNoKey(arguments) {
                arguments.insert(current.rawValue, at: 0)
            }
            return runCommand([command] + arguments)
        }
    }

    /// The file named first, as on the command line, when it is the open
    /// one: each command at the prompt works on it already, and would take
    /// its name for a key or a pattern. (`diff` and `import` name another
    /// file there: for them, only when a second file follows, as in
    /// `diff CACHE OTHER`.)
    func fileGivenOutOfHabit(_ command: String, _ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        if ["diff", "import"].contains(command) {
            guard (OptionTable.of(command: command)?.positionals(in: [command] + arguments).count ?? 0) >= 2 else { return nil }
        }
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        guard first == cachePath || FileManager.default.fileExists(atPath: first) && resolved(first) == resolved(cachePath) else { return nil }
        let meant = ([command] + arguments.dropFirst()).map { ShellWords.quote($0) }.joined(separator: " ")
        return "commands at this prompt work on \(cachePath), the file the REPL opened: leave its name out (\(meant))"
    }

    /// Why a CLI command does not run at the prompt, for those that do not.
    static func refusal(of command: String) -> String? {
        switch command {
        case "repl": return "already in the REPL; use 'open FILE' to switch files"
        case "completions": return "completions prints a shell's completion script: run 'gqlcache completions SHELL' from the shell"
        default: return nil
        }
    }

    /// Why a name that is not one of the REPL's own commands cannot run at
    /// the prompt (a refused or unknown command), or nil for a CLI command
    /// that can.
    static func notRunnable(_ name: String) -> String? {
        if let refusal = refusal(of: name) { return refusal }
        guard GQLCache.configuration.subcommands.contains(where: { $0._commandName == name }) else { return unknownCommand(name) }
        return nil
    }

    /// A name that is no command at the prompt, with the nearest that are.
    static func unknownCommand(_ name: String) -> String {
        // GraphQL after a ';' (`cd /; { hero { name } }`): it runs where a line begins.
        if GraphQLInput.begins(name) {
            return "GraphQL runs when it begins a line, not after a ';': type it on a line of its own, or give it with 'read --text'"
        }
        // KEYS, INFO and QUIT, as redis-cli takes them: commands are lower case.
        let lower = name.lowercased()
        let meant = REPLCompleter.commandNames.contains(lower) ? [lower] : OptionTable.nearest(to: name, among: REPLCompleter.commandNames)
        let suggestion = meant.isEmpty ? "" : ". Did you mean \(OptionTable.choices(meant))?"
        return "unknown command '\(name)'\(suggestion) (type 'help' for the commands)"
    }

    /// Whether `show` arguments name no key (only options), parsed by the
    /// command itself so option values are not taken for keys.
    /// Where the one word of `arguments` that is not an option or an
    /// option's value stands, for `command`'s options; nil when there is
    /// none, more than one, or a `--` (after which words are keys as typed).
    static func onlyPositional(in arguments: [String], of command: String) -> Int? {
        let places = REPLCompleter.positionalPlaces([command] + arguments)
        guard places.count == 1, !arguments.contains("--") else { return nil }
        return places[0] - 1
    }

    /// Arguments the command refuses either way (`--depth 1001`) are
    /// judged by their words alone, so that the refusal is the option's,
    /// not a missing key's.
    static func namesNoKey(_ arguments: [String]) -> Bool {
        guard let parsed = try? GQLCache.Show.parseAsRoot(["FILE", "KEY"] + arguments) as? GQLCache.Show else {
            return REPLCompleter.positionalPlaces(["show"] + arguments).isEmpty
        }
        return parsed.keys == ["KEY"]
    }

    /// Whether `refs` arguments name no key: they parse with one put first,
    /// and not without (or, refused either way, hold no word but options).
    static func refsNamesNoKey(_ arguments: [String]) -> Bool {
        if (try? GQLCache.Refs.parseAsRoot(["FILE"] + arguments)) != nil { return false }
        if (try? GQLCache.Refs.parseAsRoot(["FILE", "KEY"] + arguments)) != nil { return true }
        return REPLCompleter.positionalPlaces(["refs"] + arguments).isEmpty
    }

    /// A CLI command on the open file: `keys Hero:%` runs `keys FILE Hero:%`.
    /// `typedQuery`: GraphQL typed at the prompt (or saved from `edit`).
    func runCommand(_ words: [String], typedQuery: Bool = false, typedAs: String? = nil) -> ExitStatus {
        guard let command = words.first else { return .success }
        let typed = words
        if !typedQuery && ["read", "update", "write"].contains(command) && namesADocument(words) {
            // `read --text '{ … }'` is a query typed at the prompt too: `read`
            // alone runs it again, and `edit` opens it.
            if command == "read", let text = Self.onlyText(of: words) {
                noteTyped(text)
            } else {
                lastQueryIsNewest = false
            }
        }
        let given = words
        var words = withDocumentsNamedEarlier(words)
        // A fragment typed at the prompt, with only those it spreads, is the one read.
        if let text = Self.onlyText(of: words), typedQuery || typedDocuments.contains(text),
           let document = typedDocument(text) {
            if typedQuery, words.count == 3, document.operations.isEmpty, document.fragmentsSpreadByNoOther.count == 1,
               let fragment = document.fragmentsSpreadByNoOther.first {
                // At a root, a fragment on another type is being defined, to be
                // spread or read later: reading it there would only miss.
                if current.isRoot, let type = document.fragments[fragment]?.typeCondition, !CacheSchema.isRootType(type, in: nil) {
                    context.note("fragment \(fragment) on \(type) is defined; cd to a \(type) record to read it, or give 'read --fragment \(fragment) --key KEY'")
                    return .success
                }
                words += ["--fragment", fragment]
            }
            // The fragments it spreads that earlier documents define.
            let earlier = fragmentsDefinedEarlier(spreadBy: document, typed: text)
            // An operation typed alone that needs variables is defined, to be
            // read with them (`read --var id=1`): no failure, so a script
            // under --bail goes on to that read. (Spreads no document defines
            // are said as the read says them.)
            let whole = earlier.isEmpty ? document : (try? QueryDocument.parse([("typed", text), ("earlier", earlier[1])])) ?? document
            if typedQuery, words.count == 3, document.operations.count == 1, whole.undefinedSpreads.isEmpty,
               let operation = document.operations.first, (try? whole.checkVariablesAreDefined(in: operation)) != nil,
               case let required = operation.variables.filter(\.isRequired), !required.isEmpty {
                let what = operation.kind.rawValue + (operation.name.map { " " + $0 } ?? "")
                context.note("\(what) is defined; it needs \(required.map { "$" + $0.name }.joined(separator: ", ")): "
                    + "read it with 'read \(required.map { "--var \($0.name)=VALUE" }.joined(separator: " "))'")
                return .success
            }
            words += earlier
        }
        // A fragment is read from, or written to, the record you are at unless --key names another.
        if ["read", "update", "write"].contains(command), Self.value(of: "--fragment", in: words) != nil,
           Self.value(of: "--key", in: words) == nil, !words.contains(where: { ["-h", "--help"].contains($0) }) {
            // Joined with `=`: a key may begin with `-`.
            words += ["--key=" + current.rawValue]
        }
        // GraphQL typed earlier, read again: messages place it as typed (`input:1:9`).
        let readsTyped = typedQuery || (!namesADocument(given) && namesADocument(words) && words.contains("--text"))
        let commandContext = CommandContext(
            stdout: context.stdout, stderr: context.stderr, stdin: answers ?? context.stdin,
            stdinIsTerminal: context.stdinIsTerminal, stdoutIsTerminal: context.stdoutIsTerminal, environment: context.environment)
        commandContext.openStores = stores
        commandContext.confirmsEveryRemoval = interactive
        commandContext.isREPLCommand = true
        commandContext.typedAs = typedAs
        commandContext.readsQueryTypedAtPrompt = readsTyped
        commandContext.scriptLine = context.scriptLine
        // GraphQL typed on an earlier line of the script is placed there.
        if readsTyped, let at = words.firstIndex(of: "--text"), at + 1 < words.count { commandContext.typedScriptLine = typedOnLine[words[at + 1]] }
        if let typedAheadReader { commandContext.keepTypedAhead = { typedAheadReader.keep(typedAhead: $0) } }
        // A script's commands write as the command line's do; at the
        // prompt Ctrl-C is the REPL's, and the other stop signals are
        // caught once the session leaves SIGINT alone (see Repl).
        commandContext.catchesStopSignals = context.catchesStopSignals && (!interactive || StopSignals.shared.leavesInterruptAlone)
        // The REPL's own --color and --quiet hold for its commands; its
        // commands never page.
        commandContext.colorChoice = context.colorChoice
        commandContext.isQuiet = context.isQuiet
        commandContext.stderrIsTerminal = context.stderrIsTerminal
        commandContext.progressDelay = context.progressDelay
        commandContext.clock = context.clock
        // `diff BACKUP FILE` names both files, as on the command line (the
        // backup first shows what a command changed); `diff OTHER` compares
        // the open file with it.
        let namesBoth = command == "diff" && REPLCompleter.positionals(words).count == 2
        let arguments = words.count > 1 && words[1].hasPrefix("-") && ["--help", "-h"].contains(words[1])
            ? words : [command] + (namesBoth ? [] : [Self.fileArgument(cachePath)]) + sessionWait(for: words) + words.dropFirst()
        var status = GQLCacheMain.run(arguments: arguments, context: commandContext)
        // A question given up with Ctrl-C changed nothing, as "no", and stopped the command, as Ctrl-C does.
        if let answers = answers as? InterruptibleLineSource, answers.takeInterruption(), status == .notFound { status = .interrupted }
        // Documents a command could not read (missing, not GraphQL, the
        // cache file itself) are not offered to the next ones; those that
        // read well are, also when the command failed for another reason
        // (`read --document ops.graphql` that names no operation of several).
        rememberDocuments(in: typed, onlyReadable: [.usage, .io, .notACache].contains(status))
        if ["rm", "clear", "gc"].contains(command) { _ = try? dropRemovedRecordsFromTrail() }
        return status
    }

    /// `read NAME` after an earlier `read … --document FILE`: the
    /// documents named earlier in the session, which Tab completes
    /// operation names from, are the ones a typed command that names
    /// none reads (`read`, `update` and `write`). GraphQL typed at the
    /// prompt is read instead (`read --var id=1000` after a query that
    /// needs `$id`, `update --fragment F --set name=X` after `fragment F …`)
    /// when it defines the operation or fragment named and no file does, or
    /// when the command names none and nothing was read from a file since
    /// the last query was typed. The two are never read together. A
    /// fragment typed at the prompt named as an operation (`read F`) is
    /// the fragment (`read --fragment F`).
    func withDocumentsNamedEarlier(_ words: [String]) -> [String] {
        guard let command = words.first, ["read", "update", "write"].contains(command), !namesADocument(words),
              !words.contains(where: { ["-h", "--help"].contains($0) }) else { return words }
        if let lastTyped {
            // The files are read once for the lookups below, and only if one is made.
            var filesRead: [(file: String, document: QueryDocument)]?
            func files() -> [(file: String, document: QueryDocument)] {
                if filesRead == nil { filesRead = documentFilesRead() }
                return filesRead ?? []
            }
            // The newest typed document that defines it, unless a file named since does.
            func typed(defining defines: @escaping (QueryDocument) -> Bool) -> String? {
                guard let text = typedDocuments.first(where: { typedDocument($0).map(defines) ?? false })
                else { return nil }
                let typedAt = givenAt["text:" + text] ?? 0
                let namedSince = files().contains { defines($0.document) && givenAt["file:" + $0.file] ?? 0 > typedAt }
                return namedSince ? nil : text
            }
            if let fragment = Self.value(of: "--fragment", in: words) {
                // `read --fragment F --key K` after `fragment F on … { … }` typed at the prompt.
                if let text = typed(defining: { $0.fragments[fragment] != nil }) { return words + ["--text", text] }
            } else if let named = REPLCompleter.positionals(words).first {
                if let text = typed(defining: { $0.operations.contains { $0.name == named } }) { return words + ["--text", text] }
                if let text = typed(defining: { $0.fragments[named] != nil && !$0.operations.contains { $0.name == named } }),
                   let at = REPLCompleter.positionalPlaces(words).first {
                    var words = words
                    words[at...at] = ["--fragment", named]
                    return words + ["--text", text]
                }
            } else if lastQueryIsNewest {
                // The query typed last (or one that does not parse, to say so
                // again), also when fragments were typed after it: they are
                // no operation to read. Typed before a file was named, the
                // file's operations are read instead, as if they were not typed.
                guard let query = lastQuery else { return words + ["--text", lastTyped] }
                let fileNamedSince = documentFiles.contains { givenAt["file:" + $0] ?? 0 > givenAt["text:" + query] ?? 0 }
                if !fileNamedSince { return words + ["--text", query] }
            }
            // A name nothing typed or named defines: the query typed last says which names it has.
            let namesOne = Self.value(of: "--fragment", in: words) != nil || !REPLCompleter.positionals(words).isEmpty
            if namesOne && documentFiles.isEmpty { return words + ["--text", lastTyped] }
        }
        return words + documentFiles.flatMap { ["--document", $0] }
    }

    /// The `--document` files named earlier that still read as GraphQL.
    private func documentFilesRead() -> [(file: String, document: QueryDocument)] {
        documentFiles.compactMap { file in
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                  let document = try? QueryDocument.parse([(file, text)]) else { return nil }
            return (file, document)
        }
    }

    /// For GraphQL typed at the prompt that spreads fragments it does not
    /// define (`{ hero { ...HeroF } }`): the definitions of those fragments
    /// (and of those they spread) from the documents typed or named
    /// earlier, newest first, as one `--text`. Their fragments alone come:
    /// an operation of theirs could clash with the typed one's name.
    func fragmentsDefinedEarlier(spreadBy document: QueryDocument, typed text: String) -> [String] {
        var missing = document.undefinedSpreads.sorted()
        guard !missing.isEmpty else { return [] }
        let earlier = typedDocuments.filter { $0 != text }.compactMap(typedDocument)
            + documentFilesRead().map(\.document)
        var defined = Set(document.fragments.keys)
        var definitions: [String] = []
        while !missing.isEmpty {
            let name = missing.removeFirst()
            guard !defined.contains(name), let source = earlier.first(where: { $0.fragments[name] != nil }),
                  let definition = source.definitionText(ofFragment: name) else { continue }
            definitions.append(definition)
            defined.insert(name)
            missing += source.spreads(ofFragment: name).subtracting(defined).sorted()
        }
        return definitions.isEmpty ? [] : ["--text", definitions.joined(separator: "\n")]
    }

    /// The value of `option` in `words` (`--fragment F` or `--fragment=F`), the last one given.
    static func value(of option: String, in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count { found = words[index + 1] }
            if word.hasPrefix(option + "=") { found = String(word.dropFirst(option.count + 1)) }
        }
        return found
    }

    /// The GraphQL of a command that names it with `--text` alone (no
    /// document file, no Apollo config): nil for any other.
    static func onlyText(of words: [String]) -> String? {
        let texts = words.filter { $0 == "--text" || $0.hasPrefix("--text=") }
        guard texts.count == 1, !gives(["--document", "--apollo-config"], in: words) else { return nil }
        return value(of: "--text", in: words)
    }

    private func namesADocument(_ words: [String]) -> Bool { Self.gives(["--document", "--text", "--apollo-config"], in: words) }

    /// Whether `words` give one of `options`, as `--document F` or `--document=F`.
    private static func gives(_ options: [String], in words: [String]) -> Bool {
        words.contains { word in options.contains(word) || options.contains { word.hasPrefix($0 + "=") } }
    }

    private func rememberDocuments(in words: [String], onlyReadable: Bool) {
        // The files --document names, and those an Apollo codegen config finds
        // (`read --apollo-config apollo-codegen-config.json Feed`).
        var files: [String] = []
        for (option, value) in REPLCompleter.optionValues(in: words) {
            if option == "--document" { files.append(value) }
            if option == "--apollo-config" { files += REPLCompleter.operationFiles(ofConfig: value) }
        }
        for file in files {
            guard !documentFiles.contains(file) else {
                noteGiven("file:" + file)
                continue
            }
            if onlyReadable {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8), (try? QueryDocument.parse([(file, text)])) != nil else { continue }
            }
            documentFiles.append(file)
            noteGiven("file:" + file)
        }
    }

    /// After a removal, here or by another program, `cd` places that are
    /// gone are left, and the move said; true when the session moved.
    @discardableResult
    private func dropRemovedRecordsFromTrail(from store: CacheStore? = nil) throws -> Bool {
        guard trail.count > 1 else { return false }
        let store = try store ?? readStore()
        let existing = try store.read { tx in try tx.existingKeys(among: trail) }
        let before = current
        // Records gone from the way here too: back must not lead to one.
        // The root stays, record or not: it is where cd .. ends.
        let gone = Set(trail.dropFirst().filter { !existing.contains($0) })
        guard !gone.isEmpty else { return false }
        var kept = [trail[0]]
        for key in trail.dropFirst() where existing.contains(key) && key != kept.last { kept.append(key) }
        trail = kept
        guard !context.isQuiet else { return current != before }
        if current != before {
            let noRecord = existing.contains(current) ? "" : " (which has no record either)"
            context.stderr.write("gqlcache: \(before.display) is gone; now at \(current.display)\(noRecord)\n")
        } else {
            let names = gone.sorted().map(\.display).joined(separator: ", ")
            let back = trail.count > 1 ? trail[trail.count - 2].display : current.display
            context.stderr.write("gqlcache: \(names), on the way here, \(gone.count == 1 ? "is" : "are") gone; back leads to \(back)\n")
        }
        return current != before
    }

    /// A CLI command's help as the REPL takes the command: without the
    /// cache file, which is the open one, and without what the prompt
    /// has no use for (--no-pager: it never pages; --version); `show` and
    /// `refs` without a key are of the record you are at.
    static func helpAtThePrompt(_ help: String, command: String) -> String {
        var lines: [Substring] = []
        var inDroppedEntry = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if ["  <cache-file>", "  --no-pager ", "  --version "].contains(where: { line.hasPrefix($0) }) {
                inDroppedEntry = true
                continue
            }
            // The entry's wrapped lines are indented past its name.
            if inDroppedEntry && line.hasPrefix("      ") { continue }
            inDroppedEntry = false
            // `USAGE: gqlcache rm [<options>] <cache-file> [<key> ...]` when the usage is long.
            if line.hasPrefix("USAGE: gqlcache \(command) "), line.contains(" <cache-file>") {
                var usage = line.replacingOccurrences(of: " <cache-file>", with: "").replacingOccurrences(of: " [--no-pager]", with: "")
                if command == "show" { usage = usage.replacingOccurrences(of: "show <key> ...", with: "show [<key> ...]") }
                if command == "refs" { usage = usage.replacingOccurrences(of: "refs <key>", with: "refs [<key>]") }
                lines.append("USAGE: " + usage.dropFirst("USAGE: gqlcache ".count))
                continue
            }
            lines.append(line)
        }
        if ["show", "refs"].contains(command), let entry = lines.firstIndex(where: { $0.hasPrefix("  <key>") }) {
            let end = lines[(entry + 1)...].firstIndex { !$0.hasPrefix("      ") } ?? lines.endIndex
            lines.insert(String(repeating: " ", count: 26) + "Without one, the record you are at.", at: end)
        }
        return lines.joined(separator: "\n")
    }

    /// `--busy-timeout S` when the session was started with a wait of its
    /// own and the command gives none (every command the prompt runs takes it).
    func sessionWait(for words: [String]) -> [String] {
        guard busyTimeout != BusyTimeout.standard else { return [] }
        let options = words.prefix { $0 != "--" }
        if options.contains(where: { $0 == "--busy-timeout" || $0.hasPrefix("--busy-timeout=") }) { return [] }
        return ["--busy-timeout", String(busyTimeout)]
    }

    func readStore() throws -> CacheStore {
        // The store a read-only command opens with the session's wait: one connection for both.
        try stores.store(path: cachePath, access: .readOnly, busyTimeout: busyTimeout) {
            try CacheStore.open(at: cachePath, access: .readOnly, busyTimeout: busyTimeout, interrupt: $0)
        }
    }

    /// The store Tab completes keys and fields from: it waits only briefly
    /// while the app holds an exclusive lock, and then offers nothing.
    func completionStore() throws -> CacheStore {
        try stores.store(path: cachePath, access: .readOnly, busyTimeout: ShellCompletion.busyTimeout) {
            try CacheStore.open(at: cachePath, access: .readOnly, busyTimeout: ShellCompletion.busyTimeout, interrupt: $0)
        }
    }

    /// The width help is wrapped to: at a terminal its own, as the
    /// commands' help is; elsewhere none, a line for each entry.
    private var helpColumns: Int { context.stdoutIsTerminal ? Int(gqlcache_terminal_columns(1)) : 0 }

    private func help(_ arguments: [String]) -> ExitStatus {
        if let typed = arguments.first {
            // The REPL's other names for its own commands.
            let name = ["exit": "quit", "..": "back", "?": "help"][typed] ?? typed
            if let own = Self.ownCommands.first(where: { $0.name == name }) {
                context.print(own.help.wrapped(width: helpColumns, start: 0, indent: 2))
                return .success
            }
            // Only what works at the prompt: the shell's list and 'gqlcache --help' would name repl and completions.
            if let problem = Self.notRunnable(name) {
                context.report(.usage, problem)
                return .usage
            }
            let captured = StringSink()
            let helpContext = CommandContext(
                stdout: captured, stderr: context.stderr, stdin: context.stdin, stdinIsTerminal: false, stdoutIsTerminal: false,
                environment: context.environment)
            let status = GQLCacheMain.run(arguments: ["help", name], context: helpContext)
            context.stdout.write(Self.helpAtThePrompt(captured.text, command: name))
            return status
        }

        // repl and completions are for the shell: the REPL refuses them.
        let commands = GQLCache.configuration.subcommands.filter { !["repl", "completions"].contains($0._commandName) }
        let width = commands.map { $0._commandName.count }.max() ?? 0
        let columns = helpColumns
        context.print("Commands of the CLI, without the cache file (e.g. 'keys Droid:%', 'show QUERY_ROOT', 'rm Human:1000'):"
            .wrapped(width: columns, start: 0, indent: 0))
        for command in commands {
            let abstract = command.configuration.abstract.wrapped(width: columns, start: width + 4, indent: width + 4)
            context.print("  \(command._commandName.padding(toLength: width, withPad: " ", startingAt: 0))  \(abstract)")
        }
        context.print("REPL commands:")
        for own in Self.ownCommands { context.print("  " + own.help.wrapped(width: columns, start: 2, indent: 4)) }
        context.print("GraphQL typed at the prompt ('{ hero { name } }', 'query … { … }', over several lines; alone or after read) runs with read."
            .wrapped(width: columns, start: 0, indent: 0))
        context.print(("';' separates commands on a line and '#' begins a comment, as in a shell, which the prompt does not run "
            + "(no pipes or redirections). Tab completes commands, options, keys and fields; Ctrl-R searches the history, "
            + "kept in ~/.gqlcache_history or the file GQLCACHE_HISTORY names.")
            .wrapped(width: columns, start: 0, indent: 0))
        return .success
    }

    // MARK: - Moving through the graph

    private func changeRecord(_ arguments: [String]) -> ExitStatus {
        var arguments = arguments
        // `cd -- -` for a key spelled '-'.
        let keyFollows = arguments.first == "--"
        if keyFollows { arguments.removeFirst() }
        guard let target = arguments.first else { return goToQueryRoot() }
        if arguments.count > 1 {
            // Most often a key or field with a space in it, typed bare.
            let joined = arguments.joined(separator: " ")
            context.report(.usage, "cd takes one key or field; one with spaces is quoted: cd \(ShellWords.quote(joined))")
            return .usage
        }
        if target == "-" && !keyFollows {
            guard let previous = previousTrail else {
                context.report(.notFound, "cd -: no move yet to go back on")
                return .notFound
            }
            // As a shell's 'cd -' to a folder removed since: an error, and no move.
            if let destination = previous.last, previous.count > 1,
               let exists = try? readStore().read({ tx in try tx.contains(destination) }), !exists {
                context.report(.notFound, "cd -: \(destination.display) is no longer in the cache; still at \(current.display)")
                return .notFound
            }
            move(to: previous)
            // Records removed since on the way there are left, and said, as before any command.
            let moved = (try? dropRemovedRecordsFromTrail()) ?? false
            // As a shell's 'cd -', which says where it went.
            if !moved { context.print(current.display) }
            return .success
        }
        // `cd ../..`, `cd ../friends.1`, `cd ./friends.0`, as in a shell:
        // back as many records (no further than QUERY_ROOT), then on.
        var base = trail
        var rest = Substring(target)
        if !keyFollows, let relative = Self.relativePath(target) {
            base = trail(back: relative.ups)
            rest = relative.rest
            if rest.isEmpty {
                move(to: base)
                return .success
            }
            // A key that begins with `../` itself is still found whole, where the path leads nowhere.
            let path = String(rest), from = base.last ?? .queryRoot
            let isWholeKey = (try? readStore().read { tx in
                try tx.contains(CacheKey(target)) && (try? tx.record(for: from).flatMap { try Self.follow(path, in: $0) }) == nil
            }) ?? false
            if isWholeKey {
                move(to: trail + [CacheKey(target)])
                return .success
            }
        }
        if rest == "/" && !keyFollows { return goToQueryRoot() }
        let from = base.last ?? .queryRoot
        return go(to: String(rest), from: from, base: base, typedBefore: String(target.dropLast(rest.count)))
    }

    /// The first key in key order, read alone (not the whole list).
    static func firstKey(_ tx: ReadTransaction) throws -> CacheKey? {
        var first: CacheKey?
        try tx.forEachKey(limit: 1) { first = $0 }
        return first
    }

    /// `cd` and `cd /`: to QUERY_ROOT, unless the cache holds records but
    /// no QUERY_ROOT (the session began at its first key): a move there
    /// would leave you at a record that is not, so it is said instead.
    private func goToQueryRoot() -> ExitStatus {
        if let store = try? readStore(), let (hasRoot, anyKey) = try? store.read({ tx in
            (try tx.contains(.queryRoot), try Self.firstKey(tx))
        }), !hasRoot, anyKey != nil {
            context.report(.notFound, "no record 'QUERY_ROOT' in \(cachePath.shownOnLine), which holds no query root; still at \(current.display)")
            return .notFound
        }
        move(to: [.queryRoot])
        return .success
    }

    /// `cd FIELD` or `cd KEY` from the record `from`, the end of `base`;
    /// `typedBefore` is what was typed before FIELD (`../`).
    private func go(to target: String, from: CacheKey, base: [CacheKey], typedBefore: String) -> ExitStatus {
        do {
            let store = try readStore()
            let destination: CacheKey = try store.read { tx in
                let record: Record?
                do {
                    record = try tx.record(for: from)
                } catch CacheStoreError.damagedRecord(let damaged, let problem) where damaged == from {
                    // No field of a damaged record can be followed, but a key is a key wherever cd starts.
                    if try tx.contains(CacheKey(target)) { return CacheKey(target) }
                    throw CacheStoreError.damagedRecord(key: damaged, problem: problem)
                }
                if let record, let key = try Self.follow(target, in: record, typedBefore: typedBefore) {
                    guard try tx.contains(key) else { throw Self.dangling(from, target, to: key) }
                    return key
                }
                let key = CacheKey(target)
                if try tx.contains(key) { return key }
                throw try Self.noSuchFieldOrKey(target, in: record, of: from, tx, typedBefore: typedBefore)
            }
            // `cd KEY` to the record already at the end is no step: `back` still leaves it.
            move(to: destination == base.last ? base : base + [destination])
            return .success
        } catch let failure as CommandFailure {
            context.report(failure.status, failure.message)
            return failure.status
        } catch let error as CacheStoreError {
            context.report(ExitStatus(for: error), error.description)
            return ExitStatus(for: error)
        } catch {
            context.report(.io, "\(error)")
            return .io
        }
    }


    /// TARGET, which cd or ls took for a field of the record `from` or a
    /// key, is neither: the fields it might have meant, or the nearest keys.
    private static func noSuchFieldOrKey(
        _ target: String, in record: Record?, of from: CacheKey, _ tx: ReadTransaction, command: String = "cd", typedBefore: String = ""
    ) throws -> CommandFailure {
        var fields = record.map { Self.referenceFields(of: $0) } ?? []
        // `cd hero` means a field named hero, whatever its arguments: those come first.
        let name = FieldPath.name(of: target)
        let named = fields.filter { FieldPath.name(of: $0) == name }
        fields = named + fields.filter { !named.contains($0) }
        let nearest = try tx.suggestions(for: CacheKey(target))
        var message = "no field '\(target)' with a reference in \(from.display), and no record '\(target)'"
        if named.count == 1 {
            // A list is no place to go, its first element with a reference is (friends.0).
            let field = named[0]
            let value = record?.fields[field]
            let paths = value.map { Self.referencePaths(of: Record(key: from, fields: [field: $0])) } ?? []
            // The element typed (feed.7), when the field has it, else the first.
            let typedPath = field + target.dropFirst(name.count)
            let place = target.dropFirst(name.count).hasPrefix(".") && paths.contains(typedPath) ? typedPath : paths.first ?? field
            message += "; did you mean: \(command) \(ShellWords.quote(typedBefore + place))"
            if place != field, case .list(let elements)? = value { message += " (the field is a list of \(elements.count))" }
        } else if !fields.isEmpty, nearest.pathNote == nil {
            // A path of fields from a record (QUERY_ROOT.hero.friends.0) is said in full below.
            message += "; fields with references: " + fields.prefix(8).joined(separator: ", ")
        }
        if let strayRow = nearest.strayRow {
            message += "; " + strayRow
        } else {
            message += nearest.pathNote ?? ""
            if !nearest.nearest.isEmpty { message += "; nearest keys: " + nearest.nearest.map(\.display).joined(separator: ", ") }
        }
        return CommandFailure(.notFound, message)
    }

    /// The trail `ups` records back, as `../..` goes: never past QUERY_ROOT.
    func trail(back ups: Int) -> [CacheKey] { Array(trail.prefix(max(1, trail.count - ups))) }

    /// A path that begins with `.` or `..`, as a shell reads one: how many
    /// records back (`../..` is two), and what follows from there
    /// (`friends.1` in `../friends.1`; empty for `..`). Nil when TARGET
    /// does not begin so.
    static func relativePath(_ target: String) -> (ups: Int, rest: Substring)? {
        var rest = Substring(target)
        guard rest == "." || rest == ".." || rest.hasPrefix("./") || rest.hasPrefix("../") else { return nil }
        var ups = 0
        while !rest.isEmpty {
            if rest.hasPrefix("../") || rest == ".." {
                ups += 1
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("./") || rest == "." {
                rest = rest.dropFirst(2)
            } else {
                break
            }
            // `..//friends.0` is `../friends.0`, as a shell reads it.
            rest = rest.drop { $0 == "/" }
        }
        return (ups, rest)
    }

    /// The record `ls TARGET` shows when TARGET is what `cd` takes besides
    /// a key: `..` (the record before this one), a field of this record
    /// that holds a reference (`friends.0`), or a field of a record
    /// before it (`../friends.1`). A failure: TARGET is a field that holds
    /// none (a list, null), said as cd says it. Nil: TARGET is taken as a
    /// key (also one that itself begins with `../`, as cd finds it).
    private func listedRecord(_ target: String) -> Result<CacheKey, CommandFailure>? {
        guard !target.hasPrefix("-") else { return nil }
        var from = current, field = target, isRelative = false
        if let relative = Self.relativePath(target) {
            isRelative = true
            from = trail(back: relative.ups).last ?? .queryRoot
            if relative.rest.isEmpty { return .success(from) }
            field = String(relative.rest)
        }
        guard let store = try? readStore() else { return nil }
        let found: Result<CacheKey, CommandFailure>?? = try? store.read { tx in
            let record = try tx.record(for: from)
            do {
                if let record, let key = try Self.follow(field, in: record, command: "ls", typedBefore: String(target.dropLast(field.count))) {
                    // Said as cd says it, not as a key typed that no record has.
                    return try tx.contains(key) ? .success(key) : .failure(Self.dangling(from, field, to: key))
                }
                if try tx.contains(CacheKey(target)) { return nil }
                guard isRelative else {
                    // `ls reviews`, a field's name without its arguments: said as cd says it;
                    // anything else is a key, which show names with its nearest.
                    guard let record, record.fields.keys.contains(where: { FieldPath.name(of: $0) == FieldPath.name(of: field) }) else { return nil }
                    return .failure(try Self.noSuchFieldOrKey(field, in: record, of: from, tx, command: "ls"))
                }
                // `../Human:1002`: a key after the path, as cd takes it.
                if try tx.contains(CacheKey(field)) { return .success(CacheKey(field)) }
                // `../friends1`: said as cd says it.
                return .failure(try Self.noSuchFieldOrKey(field, in: record, of: from, tx, command: "ls", typedBefore: String(target.dropLast(field.count))))
            } catch let failure as CommandFailure {
                return .failure(failure)
            }
        }
        return found ?? nil
    }

    /// The failure for a field of `from` whose reference names no record.
    static func dangling(_ from: CacheKey, _ field: String, to key: CacheKey) -> CommandFailure {
        CommandFailure(.notFound, "\(from.display) \(field) → \(key.display), which is not in the cache (a dangling reference)")
    }

    private func goBack() -> ExitStatus {
        if trail.count > 1 { move(to: Array(trail.dropLast())) }
        return .success
    }

    /// Moves, remembering where from for `cd -`.
    private func move(to newTrail: [CacheKey]) {
        if newTrail != trail { previousTrail = trail }
        trail = newTrail
    }

    /// Set when a script's `open` failed: its next commands were meant
    /// for the file it did not open, so none runs on the one still open
    /// (as psql ends a script whose `\connect` failed).
    private(set) var scriptStoppedByFailedOpen = false

    private func open(_ arguments: [String]) -> ExitStatus {
        guard arguments.count == 1, let path = arguments.first, !path.isEmpty else {
            // Most often a file name with a space in it, typed bare.
            context.report(.usage, (arguments.isEmpty || arguments == [""] ? "open takes the cache file to switch to"
                : "open takes one cache file; one with spaces is quoted: open \(ShellWords.quote(arguments.joined(separator: " ")))")
                + (interactive ? stillOn() : stoppingScript()))
            return .usage
        }
        let previous = (cachePath, trail)
        stores.closeAll()
        cachePath = path
        trail = [.queryRoot]
        let previousMove = previousTrail
        previousTrail = nil
        do {
            try start()
            context.note("opened \(path.shownOnLine)")
            return .success
        } catch {
            (cachePath, trail) = previous
            previousTrail = previousMove
            stores.closeAll()
            let status = (error as? CacheStoreError).map(ExitStatus.init(for:)) ?? .io
            context.report(status, "\(error)" + (interactive ? stillOn() : stoppingScript()))
            return status
        }
    }

    /// At the prompt, what a failed `open` message adds: the file the
    /// commands that follow go to.
    private func stillOn() -> String { "; still on \(cachePath.shownOnLine)" }

    /// In a script, what the failed `open` message adds, and the stop.
    private func stoppingScript() -> String {
        guard !interactive else { return "" }
        scriptStoppedByFailedOpen = true
        return "; the script stops here, so that no command meant for that file runs on \(cachePath.shownOnLine)"
    }

    /// An editor started from a script read from standard input would
    /// take the script's next lines as its keys.
    static let editorInScriptProblem = "the editor would read the rest of this script, which comes from standard input, as its keys; "
        + "give the commands with -c, or run the REPL at a terminal"

    private func editLastQuery() -> ExitStatus {
        if scriptIsStandardInput {
            context.report(.usage, Self.editorInScriptProblem)
            return .usage
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gqlcache-query-\(ProcessInfo.processInfo.processIdentifier).graphql").path
        // The query `read` reads again, as the help says; fragments alone, when no query was typed.
        let initial = (lastQuery ?? lastTyped ?? "{\n  \n}") + "\n"
        guard FileManager.default.createFile(atPath: file, contents: Data(initial.utf8)) else {
            context.report(.io, "\(file): cannot create the file to edit")
            return .io
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            try Editor.open(file, context: context)
        } catch let failure as CommandFailure {
            context.report(failure.status, failure.message.replacingOccurrences(of: "nothing written", with: "nothing run"))
            return failure.status
        } catch {
            return .io
        }
        // Nothing typed: the file emptied, or the starting braces left as they were.
        guard let text = try? String(contentsOfFile: file, encoding: .utf8), !["", "{}"].contains(text.filter { !$0.isWhitespace }) else {
            context.print("empty query; nothing run")
            return .success
        }
        let query = text.trimmingCharacters(in: .newlines)
        noteTyped(query)
        // Up brings back what ran, not only 'edit'.
        history?.addToHistory(query)
        return runCommand(["read", "--text", query], typedQuery: true)
    }
}

/// A flag set once from one thread and read from another.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// Hands a value to another thread when its own synchronization makes that safe.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
