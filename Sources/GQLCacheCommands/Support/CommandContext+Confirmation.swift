import CSignals
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Yes/no questions asked on a terminal before a command changes the file.
extension CommandContext {
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
        return Self.isYes(answer)
    }

    /// Whether an answer says yes. Control characters in it are no part
    /// of it: a Ctrl-L pressed at the question (which `clear`'s mentions,
    /// as the key that clears the screen) comes in the line as a form feed.
    static func isYes(_ answer: String) -> Bool {
        let typed = String(String.UnicodeScalarView(answer.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return ["y", "yes"].contains(typed.trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The whole lines waiting on the terminal at standard input, read.
    private static func takeTypedAhead() -> [TypedLine] {
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
        return TypedLine.lines(bytes[..<end])
    }

    /// True when questions can be asked: a person is at the terminal.
    public var canAskQuestions: Bool { stdinIsTerminal }
}
