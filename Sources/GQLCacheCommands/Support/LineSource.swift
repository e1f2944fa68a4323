import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
