import CSignals
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text output through `$PAGER` (default `less -FRX`, which quits at once
/// when the text fits on the screen and keeps colours), as git does. The
/// runner sets one up only for a command with ``PagerOptions`` whose text
/// output goes to a terminal (see Conventions.swift); it starts with the
/// first output.
final class Pager {
    /// The shell command to page with, or nil: `PAGER` set empty or to
    /// `cat` means no pager, and so does `TERM=dumb` without `PAGER` (an
    /// editor's shell buffer): less would say the terminal is not fully
    /// functional and wait for Return even before four lines.
    static func command(environment: [String: String]) -> String? {
        guard let pager = environment["PAGER"] else { return environment["TERM"] == "dumb" ? nil : "less -FRX" }
        let trimmed = pager.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
    }

    /// The program `command` starts when it cannot be found (the shell
    /// would say "not found" and the output would be lost), or nil. Only a
    /// plain first word is looked up: a command with shell syntax in it is
    /// left to the shell.
    static func missingProgram(in command: String, environment: [String: String]) -> String? {
        guard let program = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init),
            !program.contains(where: { "$`'\"\\|&;<>(){}*?[]~=".contains($0) })
        else { return nil }
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? nil : program }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let found = path.split(separator: ":").contains { folder in
            FileManager.default.isExecutableFile(atPath: "\(folder)/\(program)")
        }
        return found ? nil : program
    }

    private let command: String
    private let environment: [String: String]
    let sink: FileDescriptorSink
    private var readEnd: Int32
    private let writeEnd: Int32
    /// The pager's process, once output has started it.
    private var pid: pid_t = 0

    private init(command: String, environment: [String: String], readEnd: Int32, writeEnd: Int32) {
        self.command = command
        self.environment = environment
        self.readEnd = readEnd
        self.writeEnd = writeEnd
        self.sink = FileDescriptorSink(fileDescriptor: writeEnd, bufferSize: 1 << 16)
    }

    /// A pipe for the output, with `sh -c COMMAND` to read it, the terminal
    /// as its output, started when the first output comes: a command that
    /// prints nothing (Ctrl-C before its answer, an error) leaves no empty
    /// pager to quit. Nil when there is no pipe (output then goes straight out).
    static func start(_ command: String, environment: [String: String]) -> Pager? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        let pager = Pager(command: command, environment: environment, readEnd: fds[0], writeEnd: fds[1])
        pager.sink.beforeFirstWrite = { [weak pager] in pager?.spawn() }
        return pager
    }

    private func spawn() {
        var variables = environment
        // As git does: less without -F/-R would wait on short output and show escapes raw.
        if variables["LESS"] == nil { variables["LESS"] = "FRX" }
        // The output is UTF-8 (the trees' lines, keys): without a UTF-8
        // locale, as in many containers, less would show <E2><94><82>.
        if variables["LESSCHARSET"] == nil && !Self.localeIsUTF8(variables) { variables["LESSCHARSET"] = "utf-8" }
        let started = try? ShellCommand.spawn(command, environment: variables, input: readEnd, closing: [readEnd, writeEnd])
        close(readEnd)
        readEnd = -1
        guard let started else {
            // The output goes straight out, as without a pager.
            dup2(STDOUT_FILENO, writeEnd)
            return
        }
        pid = started
        // A pager quit before the end of the output makes writes fail (EPIPE)
        // rather than kill the process.
        signal(SIGPIPE, SIG_IGN)
        // Ctrl-C before the output ends leaves no pager behind.
        gqlcache_page_through(pid, writeEnd)
    }

    /// Whether the locale the environment names (LC_ALL, else LC_CTYPE,
    /// else LANG) is a UTF-8 one.
    static func localeIsUTF8(_ environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let folded = locale.lowercased()
        return folded.contains("utf-8") || folded.contains("utf8")
    }

    /// Flushes what is left, closes the pipe and waits for the pager, if
    /// output started one, to quit.
    func finish() {
        sink.flush()
        sink.beforeFirstWrite = nil
        gqlcache_pager_input_closed()
        close(writeEnd)
        if readEnd >= 0 { close(readEnd) }
        readEnd = -1
        var status: Int32 = 0
        if pid > 0 { while waitpid(pid, &status, 0) < 0 && errno == EINTR {} }
        gqlcache_pager_done()
    }
}
