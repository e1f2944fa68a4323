import Foundation
import Glibc
import XCTest

/// A program run in a tmux session of its own, typed at with send-keys and
/// read back with capture-pane, for tests of what a person sees in a real
/// terminal. tmux runs through posix_spawn and waitpid, not Foundation's
/// Process, whose waitUntilExit was seen to hang on a tmux client that had
/// exited; its output is read only when asked for, since the server that
/// new-session starts would hold a pipe open for its whole life.
final class TmuxTerminal {
    static var tmuxPath: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    let session = "gqlcache-test-\(UUID().uuidString.prefix(8))"
    /// A tmux server of the test run's own (`tmux -L`), so that nobody
    /// else's tmux sessions, or a `tmux kill-server` run beside the tests,
    /// touch the terminals the tests type at.
    static let socket = "gqlcache-tests"

    struct SessionNeverStarted: Error {}

    /// Starts `command` (run by /bin/sh) in a detached 150×50 session.
    /// When the previous test's session was the last, its tmux server may be
    /// shutting down as this one connects, and the new session goes with
    /// it: the session is started again until tmux says it is there.
    init(_ command: String) throws {
        for attempt in 1...5 {
            try run("new-session", "-d", "-s", session, "-x", "150", "-y", "50", command)
            if try status("has-session", "-t", session) == 0 { return }
            Thread.sleep(forTimeInterval: 0.1 * Double(attempt))
        }
        throw SessionNeverStarted()
    }

    func kill() { _ = try? run("kill-session", "-t", session) }

    func type(_ text: String) throws { try run("send-keys", "-t", session, "-l", "--", text) }

    /// Sends bytes as they are, whatever they spell (`0xFF`, which no UTF-8
    /// text holds), in one burst, as typing ahead of a question does.
    func send(bytes: [UInt8]) throws {
        _ = try spawn(["send-keys", "-t", session, "-H"] + bytes.map { String($0, radix: 16) }, readingOutput: false)
    }

    /// Pastes the bytes of the file at `path` as ``paste(_:)`` pastes text.
    func paste(file path: String) throws {
        try run("load-buffer", "-b", session, path)
        try run("paste-buffer", "-p", "-d", "-b", session, "-t", session)
    }

    func press(_ keys: String...) throws {
        for key in keys { try run("send-keys", "-t", session, key) }
    }

    /// Pastes `text` as a terminal does, in bracketed paste when the
    /// program asked for it (readline does).
    func paste(_ text: String) throws {
        try run("set-buffer", "-b", session, "--", text)
        try run("paste-buffer", "-p", "-d", "-b", session, "-t", session)
    }

    /// Resets the pane, as `reset` does: the screen is cleared, and only
    /// what the program draws again shows.
    func clearScreen() throws {
        try run("send-keys", "-R", "-t", session)
        try run("clear-history", "-t", session)
    }

    func screen() throws -> String { try run("capture-pane", "-p", "-t", session, readingOutput: true) }

    struct ScreenNeverShowed: Error {}

    /// Waits until the screen shows `text` (capture-pane drops the spaces
    /// that end a line, so they are not compared); fails after 10 s.
    /// `atTop`: the screen begins with it (after Ctrl-L, not where the
    /// same text was typed before).
    func waitFor(_ text: String, atTop: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        let wanted = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: #" +$"#, with: "", options: .regularExpression) }.joined(separator: "\n")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let shown = try screen()
            if atTop ? shown.hasPrefix(wanted) : shown.contains(wanted) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let gone = try status("has-session", "-t", session) != 0 ? "\n(the tmux session is gone)" : ""
        XCTFail("the terminal never showed \(text.debugDescription); it shows:\n\(try screen())\(gone)", file: file, line: line)
        throw ScreenNeverShowed()
    }

    @discardableResult
    private func run(_ arguments: String..., readingOutput: Bool = false) throws -> String {
        try spawn(arguments, readingOutput: readingOutput).output
    }

    /// tmux's exit status for `arguments` (0: it succeeded).
    private func status(_ arguments: String...) throws -> Int32 {
        try spawn(arguments, readingOutput: false).status
    }

    private func spawn(_ arguments: [String], readingOutput: Bool) throws -> (output: String, status: Int32) {
        let executable = Self.tmuxPath ?? "/usr/bin/tmux"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipe: [Int32] = [-1, -1]
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if readingOutput {
            guard Glibc.pipe(&pipe) == 0 else { throw POSIXError(.EMFILE) }
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipe[0])
            posix_spawn_file_actions_addclose(&actions, pipe[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable, "-L", Self.socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT) }
        var output = Data()
        if readingOutput {
            close(pipe[1])
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(pipe[0], &buffer, buffer.count)
                if count > 0 { output.append(contentsOf: buffer[0..<count]) } else if count == 0 || errno != EINTR { break }
            }
            close(pipe[0])
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (String(decoding: output, as: UTF8.self), status)
    }
}

/// Skips a test that needs a program this machine lacks, or fails it when
/// GQLCACHE_REQUIRE_TERMINAL_TESTS is set (CI installs them all).
func requireProgram(_ path: String?, _ name: String) throws {
    guard path == nil else { return }
    if ProcessInfo.processInfo.environment["GQLCACHE_REQUIRE_TERMINAL_TESTS"] != nil { XCTFail("\(name) is needed for this test") }
    throw XCTSkip("\(name) is not installed")
}

/// The gqlcache executable built beside the test bundle.
var builtBinary: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gqlcache").path
}
