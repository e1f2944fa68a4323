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
    public internal(set) var status: ExitStatus = .success
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
    public var keepTypedAhead: (([TypedLine]) -> Void)?
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
    var storesOpenedForWriting: [CacheStore] = []
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

    /// Leaves `value` unfreed until the process exits, when this context
    /// is the process's own; otherwise does nothing.
    func keepUntilExit(_ value: Any) {
        if keepsResultsUntilExit { keptUntilExit.append(value) }
    }
}
