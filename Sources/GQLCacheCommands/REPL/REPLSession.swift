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
        ("cd", "cd KEY | cd FIELD[.INDEX] | cd .. (../.., ../FIELD) | cd - | cd [/] — go to a record, follow a reference of this one "
            + "(or a path of them: cd hero.friends.0), go back, return to where the last move started, or return to QUERY_ROOT"),
        ("ls", "ls — show the record you are at (ls KEY, ls FIELD, ls .. or ls ../FIELD shows another, as cd would go)"),
        ("back", "back — return to the record before"),
        ("pwd", "pwd — the records cd went through to get here (what back and .. return along)"),
        ("open", "open FILE — switch to another cache file"),
        ("edit", "edit (or \\e) — edit the last query in $VISUAL or $EDITOR, then read it"),
        ("status", "status — the exit status of the last command"),
        ("help", "help [COMMAND] (or \\h, \\?) — this list, or a command's options"),
        ("quit", "quit (or exit, \\q, or Ctrl-D) — leave"),
    ]

    public internal(set) var cachePath: String
    let context: CommandContext
    let stores = OpenStores()
    /// The records visited by `cd`, the current one last.
    var trail: [CacheKey] = [.queryRoot]
    /// Where the last move started, for `cd -` (a shell's OLDPWD).
    var previousTrail: [CacheKey]?
    public internal(set) var lastStatus: ExitStatus = .success
    /// The GraphQL typed at the prompt (or with `read --text`, or saved
    /// from `edit`), the newest first: `read NAME` and `read --fragment
    /// NAME` read the newest that defines NAME.
    var typedDocuments: [String] = []
    /// The GraphQL typed last: a query, or fragments alone.
    var lastTyped: String? { typedDocuments.first }
    /// The query typed last (or a document that does not parse, which may
    /// be one), also when fragments were typed after it; nil when none was.
    var lastQuery: String? { typedDocuments.first { typedDocument($0).map { !$0.operations.isEmpty } ?? true } }
    /// The GraphQL typed so far, newest first: Tab offers its names.
    var typedTexts: [String] { typedDocuments }
    /// True when no command has named a document since the last query was
    /// typed: a `read` that names no operation then reads that query.
    var lastQueryIsNewest = false

    /// The script line each document typed in a script began on.
    var typedOnLine: [String: Int] = [:]
    /// Each typed document parsed, once: every read that names none looks
    /// through them.
    private var parsedTyped: [String: QueryDocument] = [:]

    /// The typed `text` parsed, nil when it does not parse.
    func typedDocument(_ text: String) -> QueryDocument? {
        if let parsed = parsedTyped[text] { return parsed }
        guard let parsed = try? QueryDocument.parse([("typed", text)]) else { return nil }
        if typedDocuments.contains(text) { parsedTyped[text] = parsed }
        return parsed
    }
    /// When each typed text and each document file was last given, in
    /// order: of two that define one name, the later one counts.
    var givenAt: [String: Int] = [:]
    private var documentsGiven = 0

    func noteGiven(_ key: String) {
        documentsGiven += 1
        givenAt[key] = documentsGiven
    }

    func noteTyped(_ text: String) {
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
    var documentFiles: [String] = []
    /// Prompts and confirmations: a person is at a terminal.
    let interactive: Bool
    /// The prompt goes to standard error (standard output is not the terminal).
    var promptToStandardError = false
    /// Where commands read the answers to their questions; nil: the
    /// context's standard input.
    var answers: LineSource?
    /// Where the session keeps its history while it runs at a prompt: the
    /// query `edit` runs goes there too, as if typed.
    var history: LineReader?
    /// The reader that lines typed before a question go back to.
    var typedAheadReader: LineReader?
    /// The lines run come from standard input (a script piped in), so a
    /// command must not read it as its own input.
    var scriptIsStandardInput = false
    /// Seconds to wait while the app holds the lock: for the session's own
    /// reads (`cd`, `ls`, `open`) and for every command that gives no
    /// `--busy-timeout` of its own.
    let busyTimeout: Double

    /// Set when a script's `open` failed: its next commands were meant
    /// for the file it did not open, so none runs on the one still open
    /// (as psql ends a script whose `\connect` failed).
    var scriptStoppedByFailedOpen = false

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

    /// How many command lines have run: what completion has worked out
    /// from the file holds until the next one runs.
    var linesRun = 0

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
}
