import Foundation

/// What a command says: lines on standard output, and problems and
/// warnings on standard error, on one line each, with the status they leave.
extension CommandContext {
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
        guard isREPLCommand else { return text }
        var text = text
        // The shell's way to give GraphQL from standard input; the prompt's is to type it.
        text = text.replacingOccurrences(of: Self.graphQLFromStandardInput, with: "type the GraphQL at the prompt, or give it with --text")
        guard text.contains("'gqlcache ") else { return text }
        for name in GQLCache.commandNames where name != "repl" && name != "completions" {
            text = text.replacingOccurrences(of: "'gqlcache \(name)", with: "'\(name)")
        }
        return text
    }

    /// How a shell gives a command GraphQL read from standard input.
    static let graphQLFromStandardInput = "give GraphQL piped in with --text \"$(cat)\""

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
}
