import CacheStore
import Foundation
import CSignals
#if canImport(Glibc)
import Glibc
#endif

/// Where a command writes and what it knows of its surroundings. Passed in,
/// never global, so the CLI, tests and a REPL each give their own.
public final class CommandContext {
    /// Standard output; the runner points it at the pager while one runs.
    public internal(set) var stdout: TextSink
    public let stderr: TextSink
    public let stdin: LineSource
    public let stdinIsTerminal: Bool
    public let stdoutIsTerminal: Bool
    public let environment: [String: String]
    /// The first non-zero status a command reported while carrying on.
    public private(set) var status: ExitStatus = .success
    /// Stores kept open from one command to the next (the REPL); nil when
    /// each command opens its file itself.
    public var openStores: OpenStores?
    /// Ask before removing records even by exact key (the REPL's prompt).
    public var confirmsEveryRemoval = false
    /// A command typed at the REPL: where to read more is named as the
    /// REPL takes it (`help keys`, not `gqlcache keys --help`).
    public var isREPLCommand = false
    /// The REPL command typed, where it runs another (`ls` runs `show`):
    /// a usage error's hint names both.
    var typedAs: String?
    /// GraphQL typed at the REPL's prompt, run as `read --text`: it has no
    /// command line to add `--var` to, but a `read` after it reads it.
    var readsQueryTypedAtPrompt = false
    /// The line of the script the REPL reads from standard input that the
    /// command comes from (a GraphQL document's first): every error and
    /// warning names it (`line 3: `), as sqlite3 says "near line 3".
    var scriptLine: Int?
    /// The script line the GraphQL typed in the script that this command
    /// reads began on: a place in it (`input:4:3`) is given as the
    /// script's line and column. Nil when it was not typed in the script.
    var typedScriptLine: Int?
    /// Ctrl-C, kill and a closed terminal interrupt a write under way
    /// rather than end the process in the middle of it (``StopSignals``):
    /// true only for the process's own context, never in an interactive
    /// REPL (Ctrl-C is its own there) or in tests.
    public var catchesStopSignals = false
    /// Where whole lines typed before a question go (``confirm(_:)``):
    /// the REPL runs them after the command; without it they are dropped,
    /// and a warning says so.
    public var keepTypedAhead: (([String]) -> Void)?
    /// The clock (backup names); tests set a fixed one.
    public var now: () -> Date = Date.init

    // The conventions of DisplayOptions and PagerOptions, which the runner
    // sets from the command line before a command runs.

    /// What --color asked for (the REPL hands its own to each command).
    var colorChoice: ColorChoice = .auto
    /// --quiet: summaries are left out (see ``note(_:)``).
    public var isQuiet = false
    /// The copy `--backup` made, for the JSON document to name (see
    /// ``OutputFormat/emit(_:to:)``).
    var backupCopy: String?
    public var stderrIsTerminal = false
    /// Text output may go through $PAGER: true only for the process's own
    /// streams, never in the REPL or in tests.
    public var allowsPaging = false
    /// Whether results handed to ``keepUntilExit(_:)`` stay in memory: true
    /// only for the process's own context, whose process ends after the
    /// command. Freeing a large result (every record a read decoded) costs
    /// time for memory the exit gives back anyway.
    public var keepsResultsUntilExit = false
    private var keptUntilExit: [Any] = []
    /// Stores a command opened for writing outside the REPL, closed when it
    /// ends (``closeStoresOpenedForWriting()``).
    private var storesOpenedForWriting: [CacheStore] = []
    /// The last progress line was drawn on the terminal, and erased when
    /// its scan ended: the cursor is at the start of a line standard error cleared.
    var progressLineErased = false
    /// Seconds a scan runs before its progress is drawn on a terminal.
    public var progressDelay: Double = 0.5
    /// The clock progress is timed by, in seconds.
    public var clock: () -> Double = { ProcessInfo.processInfo.systemUptime }

    /// How text output is coloured, from --color, the terminal and the environment.
    var style: TextStyle { TextStyle.resolve(colorChoice, isTerminal: stdoutIsTerminal, environment: environment) }

    public init(
        stdout: TextSink, stderr: TextSink, stdin: LineSource,
        stdinIsTerminal: Bool, stdoutIsTerminal: Bool, environment: [String: String]
    ) {
        self.stdout = stdout
        self.stderr = stderr
        self.stdin = stdin
        self.stdinIsTerminal = stdinIsTerminal
        self.stdoutIsTerminal = stdoutIsTerminal
        self.environment = environment
    }

    /// The process's own streams and environment.
    public static func standard() -> CommandContext {
        holdClosedStandardDescriptors()
        let standardOutput = FileDescriptorSink(fileDescriptor: 1, bufferSize: 1 << 16)
        // `| head` from a parent that ignores SIGPIPE: stop as SIGPIPE would
        // have stopped the process, not read the rest of the file for no one.
        standardOutput.onReaderGone = { StopSignals.shared.readerLeft() }
        let context = CommandContext(
            stdout: standardOutput,
            stderr: FileDescriptorSink(fileDescriptor: 2, bufferSize: 0),
            stdin: StandardInputLines(),
            stdinIsTerminal: isatty(0) == 1,
            stdoutIsTerminal: isatty(1) == 1,
            environment: processEnvironment())
        context.stderrIsTerminal = isatty(2) == 1
        context.allowsPaging = true
        context.keepsResultsUntilExit = true
        context.catchesStopSignals = true
        return context
    }

    /// A process started with standard input, output or error closed
    /// (`<&-`) would hand that number to the next file it opens: the
    /// temporary copy of standard input was then read as the input (an
    /// empty import that succeeded). Each closed one is held by /dev/null,
    /// opened the other way round, so reading or writing it still fails
    /// as a closed descriptor does (EBADF), and no file takes its number.
    private static func holdClosedStandardDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let placeholder = open("/dev/null", descriptor == STDIN_FILENO ? O_WRONLY : O_RDONLY)
            if placeholder >= 0 && placeholder != descriptor {
                dup2(placeholder, descriptor)
                close(placeholder)
            }
        }
    }

    /// The process's environment. Read from `environ` where the C library
    /// names it: ProcessInfo, which would otherwise start for nothing
    /// else, takes a quarter of a millisecond to set itself up first.
    private static func processEnvironment() -> [String: String] {
        #if canImport(Glibc)
        var variables: [String: String] = [:]
        var entry = environ
        while let text = entry.pointee {
            let variable = String(cString: text)
            if let equals = variable.firstIndex(of: "=") {
                variables[String(variable[..<equals])] = String(variable[variable.index(after: equals)...])
            }
            entry += 1
        }
        return variables
        #else
        return ProcessInfo.processInfo.environment
        #endif
    }

    /// Lets a signal interrupt `store`'s writes rather than end the
    /// process in the middle of one, where ``catchesStopSignals`` says so.
    func watchForStopSignals(_ store: CacheStore) {
        if catchesStopSignals { StopSignals.shared.watch(store) }
    }

    /// Closes `store` when the command ends, unless the REPL keeps it open
    /// for the next command (it closes its stores when it ends).
    func closeWhenDone(_ store: CacheStore) {
        if openStores == nil && !storesOpenedForWriting.contains(where: { $0 === store }) { storesOpenedForWriting.append(store) }
    }

    /// A cache file this command made (`--create`): watched as the stores
    /// it opens to write are, closed when it ends, and named among the
    /// files changed when its output fails.
    func madeNew(_ store: CacheStore) {
        watchForStopSignals(store)
        if !storesOpenedForWriting.contains(where: { $0 === store }) { storesOpenedForWriting.append(store) }
    }

    /// The files this command has changed: its stores opened for writing
    /// whose writes committed.
    var filesChanged: [String] { storesOpenedForWriting.filter(\.hasCommittedChanges).map(\.path) }

    /// Closes the stores the command opened for writing, so that a file in
    /// WAL mode gets its changes out of the -wal file, as after the sqlite3
    /// shell. A close that fails leaves them there, where SQLite still
    /// finds them: nothing to report.
    func closeStoresOpenedForWriting() {
        for store in storesOpenedForWriting { try? store.close() }
        storesOpenedForWriting.removeAll()
    }

    /// Leaves `value` unfreed until the process exits, when this context
    /// is the process's own; otherwise does nothing.
    func keepUntilExit(_ value: Any) {
        if keepsResultsUntilExit { keptUntilExit.append(value) }
    }

    /// Writes one line to standard output.
    public func print(_ line: String) { stdout.write(line + "\n") }

    /// Writes a line that is not the data asked for (a summary, a
    /// confirmation of what was done); --quiet leaves it out.
    public func note(_ line: String) {
        if !isQuiet { print(line) }
    }

    /// Makes `status` the exit status whatever was reported before: the
    /// REPL's is its last command's, though earlier ones failed.
    func settleStatus(_ status: ExitStatus) {
        self.status = status
    }

    /// Reports a problem on standard error and remembers its status, for a
    /// command that goes on with its other work. Of several, the exit
    /// status is the gravest (the highest), whatever their order: `show A B`
    /// and `show B A` end alike.
    public func report(_ status: ExitStatus, _ message: String) {
        stdout.flush()
        // The terminal echoed Ctrl-C ("^C") where the cursor was, as bash
        // ends that line after a job Ctrl-C stopped; a progress line erased
        // since took the echo with it.
        let freshLine = status == .interrupted && stderrIsTerminal && !progressLineErased ? "\n" : ""
        stderr.write("\(freshLine)gqlcache: \(placed(Self.oneLine(atThePrompt(message))))\n")
        if status.rawValue > self.status.rawValue { self.status = status }
    }

    /// A warning on standard error that does not change the exit status.
    public func warn(_ message: String) {
        stdout.flush()
        stderr.write("gqlcache: \(placed("warning: " + Self.oneLine(atThePrompt(message))))\n")
    }

    /// `message` with the script line it comes from before it. A place in
    /// GraphQL typed in the script (`input:4:3: …`, its 4th line) is given
    /// as the script's line and column instead (`line 6:3: …`).
    private func placed(_ message: String) -> String {
        guard let scriptLine else { return message }
        let warning = message.hasPrefix("warning: ") ? "warning: " : ""
        let rest = message.dropFirst(warning.count)
        if readsQueryTypedAtPrompt, let typedScriptLine, rest.hasPrefix("input:") {
            let parts = rest.dropFirst("input:".count).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            if parts.count == 3, let line = Int(parts[0]), let column = Int(parts[1]) {
                return "line \(typedScriptLine + line - 1):\(column):\(warning.isEmpty ? "" : " warning:")\(parts[2])"
            }
        }
        return "line \(scriptLine): " + message
    }

    /// `text` with each command it names ('gqlcache doctor') as it is typed
    /// where this command runs: at the REPL's prompt, without `gqlcache`
    /// ('doctor'). The shell's own commands (repl, completions) keep it.
    func atThePrompt(_ text: String) -> String {
        guard isREPLCommand, text.contains("'gqlcache ") else { return text }
        var text = text
        for name in GQLCache.commandNames where name != "repl" && name != "completions" {
            text = text.replacingOccurrences(of: "'gqlcache \(name)", with: "'\(name)")
        }
        return text
    }

    /// `message` with its control characters escaped as JSON escapes them
    /// (`\n`, `\u001b`), and the characters that move text (a line
    /// separator, a right-to-left override) as `\u` escapes too: a key,
    /// path or pattern quoted in a message may hold any, and on a terminal
    /// a newline would split the message, an escape sequence would act and
    /// an override would show the rest of the line reversed.
    static func oneLine(_ message: String) -> String {
        guard message.containsScalar(where: isEscapedOnOneLine) else { return message }
        var line = ""
        message.forEachScalar { scalar, showsNothing in
            guard isEscapedOnOneLine(scalar, showsNothing) else {
                line.unicodeScalars.append(scalar)
                return
            }
            switch scalar {
            case "\n": line += "\\n"
            case "\r": line += "\\r"
            case "\t": line += "\\t"
            default: line += scalar.jsonEscape
            }
        }
        return line
    }

    /// What ``oneLine(_:)`` escapes: C0 and C1 controls and DEL, which a
    /// terminal may act on, what breaks a line or reorders the text, and
    /// what shows nothing (a key `User:\u200b1` is not `User:1`).
    private static func isEscapedOnOneLine(_ scalar: Unicode.Scalar, _ showsNothing: Bool) -> Bool {
        scalar.isControl || scalar.movesText || showsNothing
    }

    /// Runs `body`, a read of `store` that prints as it goes, with standard
    /// output (or `output`, such as an `--output` naming a pipe) held until it ends, where the read's lock holds off the
    /// app's writes (a rollback-journal file) and the output's reader may
    /// stall (a pager, a pipe): Apollo gives up a write at once when the
    /// file is locked, and a pager left on its first page would keep the
    /// lock for as long as it stays open.
    func holdingOutput<T>(of output: TextSink? = nil, while store: CacheStore, _ body: () throws -> T) rethrows -> T {
        let output = output ?? stdout
        guard let sink = (output as? FileOutput)?.direct ?? output as? FileDescriptorSink, sink.readerMayStall, store.readsHoldOffWriters
        else { return try body() }
        sink.hold()
        defer { sink.release() }
        return try body()
    }

    /// Asks a yes/no question on a terminal; false on anything but y/yes.
    public func confirm(_ question: String) -> Bool {
        stdout.flush()
        // Only a key pressed after the question answers it: a `y` typed (or
        // pasted) while the command was still working out what to ask is
        // dropped, as the terminal drops what was typed before a Ctrl-C.
        if stdinIsTerminal && isatty(STDIN_FILENO) == 1 {
            let typed = Self.takeTypedAhead()
            tcflush(STDIN_FILENO, TCIFLUSH)
            // Whole lines typed ahead (a paste the terminal did not bracket)
            // are commands to run after this one, not lost without a word.
            if !typed.isEmpty {
                if let keepTypedAhead {
                    keepTypedAhead(typed)
                } else {
                    warn("\(plural(typed.count, "line")) typed before the question \(typed.count == 1 ? "was" : "were") dropped, "
                        + "so that \(typed.count == 1 ? "it" : "they") could not answer it")
                }
            }
        }
        stderr.write("\(Self.oneLine(question)) [y/N] ")
        stderr.flush()
        guard let answer = stdin.readLine() else {
            stderr.write("\n")
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The whole lines waiting on the terminal at standard input, read.
    private static func takeTypedAhead() -> [String] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20, gqlcache_pending_input(STDIN_FILENO) > 0 {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        // Typed while readline still had the terminal raw (in the same
        // burst as the command's own line), Enter is a carriage return:
        // the terminal translates it to a newline only in its usual mode.
        let lineEnds: Set<UInt8> = [UInt8(ascii: "\n"), UInt8(ascii: "\r")]
        // A line not yet ended is no command: only what Enter ends is
        // kept, and the rest dropped with the flush.
        guard var end = bytes.lastIndex(where: lineEnds.contains) else { return [] }
        // "\r\n" is one line end (Swift takes it for one Character).
        if end > 0, bytes[end] == UInt8(ascii: "\n"), bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
            .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
    }

    /// True when questions can be asked: a person is at the terminal.
    public var canAskQuestions: Bool { stdinIsTerminal }
}

/// A place text goes: standard output, standard error, or a string in tests.
public protocol TextSink: AnyObject {
    func write(_ text: String)
    func flush()
}

/// Reads lines, for confirmations and for input such as an export.
public protocol LineSource: AnyObject {
    func readLine() -> String?
    /// The next line, refusing bytes that are not UTF-8 with
    /// ``NotUTF8Text``, where ``readLine()`` would replace them.
    func readTextLine() throws -> String?
}

extension LineSource {
    /// Lines that are Swift strings already are text.
    public func readTextLine() throws -> String? { readLine() }
}

/// Answers to questions that Ctrl-C can give up: the REPL's terminal.
protocol InterruptibleLineSource: LineSource {
    /// Whether a question was given up with Ctrl-C since the last call.
    func takeInterruption() -> Bool
}

/// Collects text in memory.
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
    public func flush() {}
}

/// Gives scripted lines, for tests.
public final class ScriptedLines: LineSource {
    private var lines: [String]
    public init(_ lines: [String]) { self.lines = lines }
    public func readLine() -> String? { lines.isEmpty ? nil : lines.removeFirst() }
}

final class StandardInputLines: LineSource {
    /// A stream of its own on descriptor 0, made when first read: input
    /// such as an export, which no confirmation shares standard input with.
    private lazy var lines = fdopen(STDIN_FILENO, "r").map(StreamLines.init)

    func readLine() -> String? { Swift.readLine(strippingNewline: true) }

    func readTextLine() throws -> String? {
        guard let lines else { throw CommandFailure(.io, "standard input: cannot be read (\(String(cString: strerror(errno))))") }
        return try lines.withNextLine { try StreamLines.text($0[...], validating: true) }
    }
}

/// Writes to a file descriptor through a buffer, so that streaming a million
/// keys makes few system calls.
///
/// While held (``hold()``), what the descriptor takes without waiting is
/// written; once it would wait, the rest goes to an ``OutputSpool`` and
/// reaches the descriptor at ``release()``: a command reading the file
/// holds its output for as long as the read lasts, so that a reader of the
/// output that stalls (a pager on its first page, a slow pipe) never keeps
/// the read, and its lock, open, while one that keeps up (`| head`, `| jq`)
/// gets it as it comes.
public final class FileDescriptorSink: TextSink {
    private let fileDescriptor: Int32
    private let bufferSize: Int
    private var buffer: [UInt8] = []
    /// The errno of the first write that failed; output is dropped from then on.
    private var writeError: Int32?
    /// Called when a write finds the reader gone (EPIPE: SIGPIPE is
    /// ignored, or the sink is a pager's pipe).
    public var onReaderGone: (() -> Void)?
    /// Output held back, and how many holds are open.
    private var spool: OutputSpool?
    private var holds = 0
    private let spoolMemoryLimit: Int

    /// The errno of a failed write since the last call, if any.
    func takeWriteError() -> Int32? {
        defer { writeError = nil }
        return writeError
    }

    /// `spoolMemoryLimit`: how much held output stays in memory before the
    /// rest goes to a temporary file.
    public init(fileDescriptor: Int32, bufferSize: Int, spoolMemoryLimit: Int = 8 << 20) {
        self.fileDescriptor = fileDescriptor
        self.bufferSize = bufferSize
        self.spoolMemoryLimit = spoolMemoryLimit
        buffer.reserveCapacity(bufferSize)
    }

    deinit {
        holds = 0
        releaseSpool()
        flush()
    }

    /// Whether the descriptor is a pipe or a socket, whose reader may stall
    /// for as long as it likes; a file or a terminal takes output at once.
    lazy var readerMayStall: Bool = {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }()

    /// Holds what is written from now on until as many ``release()``s,
    /// when a reader of the descriptor may stall; otherwise does nothing.
    public func hold() {
        guard readerMayStall else { return }
        holds += 1
        if spool == nil { spool = OutputSpool(memoryLimit: spoolMemoryLimit) }
    }

    /// Ends a ``hold()``; the last one writes what was held.
    public func release() {
        guard holds > 0 else { return }
        holds -= 1
        if holds == 0 { releaseSpool() }
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= bufferSize { flush() }
    }

    public func flush() {
        if let spool {
            if writeError != nil {
                buffer.removeAll(keepingCapacity: true)
                return
            }
            // Held: what the reader takes at once goes to it (`| head` still
            // ends the command early, a pager shows its first page); once it
            // stalls, the rest waits in the spool, in order, until release.
            if spool.isEmpty { writeBuffer(onlyWithoutWaiting: true) }
            if buffer.isEmpty { return }
            if readerIsGone() {
                writeBuffer()  // fails as EPIPE, and says so
                return
            }
            // One that cannot take more (the disk is full) lets go at once:
            // the output matters more than the lock.
            if spool.append(buffer) {
                buffer.removeAll(keepingCapacity: true)
                return
            }
            holds = 0
            releaseSpool()
        }
        writeBuffer()
    }

    /// What a pipe that polls writable takes in one write without waiting (PIPE_BUF).
    private static let atomicPipeWrite = 4096

    /// Whether the descriptor's reader has closed its end (a pipe polls as
    /// an error then).
    private func readerIsGone() -> Bool {
        var state = pollfd(fd: fileDescriptor, events: 0, revents: 0)
        return poll(&state, 1, 0) == 1 && state.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Writes what the spool holds, then what the buffer does, and ends the holding.
    private func releaseSpool() {
        guard let spool else { return }
        self.spool = nil
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        spool.drain { chunk in
            buffer.append(contentsOf: chunk)
            writeBuffer()
        }
        buffer.append(contentsOf: pending)
        writeBuffer()
    }

    /// Writes the buffer to the descriptor; output is dropped once a write
    /// fails. `onlyWithoutWaiting`: only what the descriptor takes without
    /// waiting, a pipe's atomic size at a time; the rest stays in the buffer.
    private func writeBuffer(onlyWithoutWaiting: Bool = false) {
        var offset = 0
        while offset < buffer.count && writeError == nil {
            var end = buffer.count
            if onlyWithoutWaiting {
                var ready = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLOUT | POLLERR) != 0 else { break }
                end = min(buffer.count, offset + Self.atomicPipeWrite)
            }
            let written = buffer[offset..<end].withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                writeError = written < 0 ? errno : EIO
                if writeError == EPIPE { onReaderGone?() }
                break
            }
            offset += written
        }
        buffer.removeFirst(writeError == nil ? offset : buffer.count)
    }
}

/// Cache files opened once and kept open across commands, as the REPL
/// does. An open store holds no lock between transactions, so other
/// processes may write the file meanwhile and the next command sees it.
public final class OpenStores: @unchecked Sendable {
    private struct Key: Hashable {
        let path: String
        let access: CacheStore.Access
        let busyTimeout: Double
    }

    /// The file a path named when its store was opened (device and inode).
    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private var stores: [Key: (store: CacheStore, file: FileIdentity?)] = [:]
    /// The interrupt of the store being opened, while one is.
    private var opening: OpeningInterrupt?
    private let lock = NSLock()

    public init() {}

    /// The store kept for `path`, or a new one from `open`. An app that
    /// deletes its cache and makes a new one (at logout, say) leaves a
    /// kept store reading the deleted file: when the path names another
    /// file than it did, the old store is closed and the file opened again.
    func store(path: String, access: CacheStore.Access, busyTimeout: Double, open: (OpeningInterrupt) throws -> CacheStore) throws -> CacheStore {
        let key = Key(path: path, access: access, busyTimeout: busyTimeout)
        let file = FileIdentity(path: path)
        if let kept = lock.withLock({ stores[key] }), kept.file != nil, kept.file == file {
            if !kept.store.isOutdatedSnapshot { return kept.store }
            // A file read without locks that the app has since opened is read anew, with them.
            lock.withLock { stores[key] = nil }
            try? kept.store.close()
        }
        // Every store still on another file at this path is closed first:
        // a writer left open on a replaced WAL-mode file holds its -wal,
        // which the new file's connection would take for its own. SQLite
        // does not checkpoint a moved file as it closes, and so leaves that
        // -wal beside the new file: it is emptied into the old one first.
        let stale = lock.withLock {
            let keys = stores.filter { $0.key == key || ($0.key.path == path && $0.value.file != file) }.map(\.key)
            defer { for key in keys { stores[key] = nil } }
            return keys.compactMap { stores[$0]?.store }
        }
        Self.close(stale, checkpointingWriters: true)
        // A Ctrl-C while the open waits for the app's lock stops that wait.
        let interrupt = OpeningInterrupt()
        lock.withLock { opening = interrupt }
        defer { lock.withLock { opening = nil } }
        let store = try open(interrupt)
        lock.withLock { stores[key] = (store, file) }
        return store
    }

    /// Stops whatever statement any open store is running, and the wait of
    /// one being opened (Ctrl-C).
    public func interruptAll() {
        let (kept, opening) = lock.withLock { (Array(stores.values), self.opening) }
        for kept in kept { kept.store.interrupt() }
        opening?.interrupt()
    }

    /// Forgets interrupts no transaction answered, before a new command.
    public func forgetInterrupts() {
        for kept in lock.withLock({ Array(stores.values) }) { kept.store.forgetInterrupt() }
    }

    /// Closes every store (`open` of another file, the end of the REPL).
    public func closeAll() {
        let closing = lock.withLock {
            defer { stores.removeAll() }
            return stores.values.map(\.store)
        }
        Self.close(closing, checkpointingWriters: false)
    }

    /// Closes readers first: in WAL mode the last connection to close moves
    /// the changes into the file and removes the -wal, which only a writer
    /// can. `checkpointingWriters`: each writer checkpoints first, for a
    /// file since moved, which SQLite does not checkpoint as it closes.
    private static func close(_ stores: [CacheStore], checkpointingWriters: Bool) {
        for store in stores where store.access == .readOnly { try? store.close() }
        for store in stores where store.access == .readWrite {
            if checkpointingWriters { try? store.checkpoint() }
            try? store.close()
        }
    }
}
