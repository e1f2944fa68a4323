import Foundation

/// Where a command writes and what it knows of its surroundings. Passed in,
/// never global, so the CLI, tests and a REPL each give their own.
public final class CommandContext {
    public let stdout: TextSink
    public let stderr: TextSink
    public let stdin: LineSource
    public let stdinIsTerminal: Bool
    public let stdoutIsTerminal: Bool
    public let environment: [String: String]
    /// The first non-zero status a command reported while carrying on.
    public private(set) var status: ExitStatus = .success

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
        CommandContext(
            stdout: FileDescriptorSink(fileDescriptor: 1, bufferSize: 1 << 16),
            stderr: FileDescriptorSink(fileDescriptor: 2, bufferSize: 0),
            stdin: StandardInputLines(),
            stdinIsTerminal: isatty(0) == 1,
            stdoutIsTerminal: isatty(1) == 1,
            environment: ProcessInfo.processInfo.environment)
    }

    /// Writes one line to standard output.
    public func print(_ line: String) { stdout.write(line + "\n") }

    /// Reports a problem on standard error and remembers its status, for a
    /// command that goes on with its other work.
    public func report(_ status: ExitStatus, _ message: String) {
        stderr.write("gqlcache: \(message)\n")
        if self.status == .success { self.status = status }
    }

    /// A warning on standard error that does not change the exit status.
    public func warn(_ message: String) {
        stderr.write("gqlcache: warning: \(message)\n")
    }

    /// Asks a yes/no question on a terminal; false on anything but y/yes.
    public func confirm(_ question: String) -> Bool {
        stdout.flush()
        stderr.write("\(question) [y/N] ")
        stderr.flush()
        guard let answer = stdin.readLine() else {
            stderr.write("\n")
            return false
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// True when questions can be asked: a person is at the terminal.
    public var canAskQuestions: Bool { stdinIsTerminal }
}

/// A place text goes: standard output, standard error, or a string in tests.
public protocol TextSink: AnyObject {
    func write(_ text: String)
    func flush()
}

/// Reads lines, for confirmations.
public protocol LineSource: AnyObject {
    func readLine() -> String?
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
    func readLine() -> String? { Swift.readLine(strippingNewline: true) }
}

/// Writes to a file descriptor through a buffer, so that streaming a million
/// keys makes few system calls.
final class FileDescriptorSink: TextSink {
    private let fileDescriptor: Int32
    private let bufferSize: Int
    private var buffer: [UInt8] = []

    init(fileDescriptor: Int32, bufferSize: Int) {
        self.fileDescriptor = fileDescriptor
        self.bufferSize = bufferSize
        buffer.reserveCapacity(bufferSize)
    }

    deinit { flush() }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= bufferSize { flush() }
    }

    func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer[offset...].withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
