import Foundation
import Glibc
import XCTest

/// The REPL in a real terminal: the built gqlcache run in tmux, typed at
/// with send-keys and read back with capture-pane. Skipped when tmux is not
/// installed, unless GQLCACHE_REQUIRE_TERMINAL_TESTS is set (CI sets it).
final class TerminalREPLTests: CommandTestCase {
    var session = "gqlcache-test-\(UUID().uuidString.prefix(8))"

    override func tearDownWithError() throws {
        _ = try? tmux("kill-session", "-t", session)
        try super.tearDownWithError()
    }

    /// The gqlcache executable built beside this test bundle.
    var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("gqlcache").path
    }

    var tmuxPath: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs tmux and waits for it; its output is read only when asked for,
    /// since the server that new-session starts would hold a pipe open for
    /// its whole life. posix_spawn and waitpid, not Foundation's Process,
    /// whose waitUntilExit was seen to hang on a tmux client that had exited.
    @discardableResult
    func tmux(_ arguments: String..., readingOutput: Bool = false) throws -> String {
        let executable = tmuxPath ?? "/usr/bin/tmux"
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
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
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
        return String(decoding: output, as: UTF8.self)
    }

    func keys(_ keys: String...) throws {
        for key in keys { try tmux("send-keys", "-t", session, key) }
    }

    func type(_ text: String) throws {
        try tmux("send-keys", "-t", session, "-l", text)
    }

    func screen() throws -> String { try tmux("capture-pane", "-p", "-t", session, readingOutput: true) }

    struct ScreenNeverShowed: Error {}

    /// Waits until the screen shows `text` (capture-pane drops the spaces
    /// that end a line, so they are not compared); fails after 10 s.
    func waitFor(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let wanted = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.replacingOccurrences(of: #" +$"#, with: "", options: .regularExpression) }.joined(separator: "\n")
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try screen().contains(wanted) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("the terminal never showed \(text.debugDescription); it shows:\n\(try screen())", file: file, line: line)
        throw ScreenNeverShowed()
    }

    func start(_ cache: String, history: String) throws {
        let command = "cd \(folder.path) && env TERM=xterm HOME=\(folder.path) GQLCACHE_HISTORY=\(history) \(binary) repl \(cache); echo EXIT=$?; sleep 30"
        try tmux("new-session", "-d", "-s", session, "-x", "150", "-y", "50", command)
        try waitFor("gqlcache QUERY_ROOT> ")
    }

    func testATerminalSessionCompletesKeysWalksReferencesRunsQueriesRemovesAndKeepsHistory() throws {
        guard tmuxPath != nil else {
            if ProcessInfo.processInfo.environment["GQLCACHE_REQUIRE_TERMINAL_TESTS"] != nil { XCTFail("tmux is needed for this test") }
            throw XCTSkip("tmux is not installed")
        }
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: binary), "build gqlcache first: \(binary)")
        let cache = try copyOfFixture("starwars.sqlite")
        let history = path("history")
        try start(cache, history: history)

        // Tab completes a key with a colon in it, then lists both matches.
        try type("show Human:10")
        try keys("Tab")
        try waitFor("show Human:100")
        try keys("Tab", "Tab")
        try waitFor("Human:1000  Human:1002")
        try keys("C-u")

        // cd through two references (the first by completion) and back.
        try type("cd hero")
        try keys("Tab")
        try waitFor("cd hero(episode:NEWHOPE)")
        try keys("Enter")
        try waitFor("gqlcache Droid:2001> ")
        try type("cd friends.0")
        try keys("Enter")
        try waitFor("gqlcache Human:1000> ")
        try type("back")
        try keys("Enter")
        try type("pwd")
        try keys("Enter")
        try waitFor("QUERY_ROOT → Droid:2001\n")

        // A query over three lines, with the continuation prompt.
        try type("query {")
        try keys("Enter")
        try waitFor("    ...> ")
        try type("  hero(episode: NEWHOPE) { name }")
        try keys("Enter")
        try type("}")
        try keys("Enter")
        try waitFor(#""name": "R2-D2""#)

        // Ctrl-C drops the line being typed and the REPL goes on.
        try type("show this line is dropped")
        try keys("C-c")
        try waitFor("^C")
        try type("status")
        try keys("Enter")
        try waitFor("status\n0\n")

        // A removal asks first.
        try type("rm Starship:3001")
        try keys("Enter")
        try waitFor("(Starship:3001)? [y/N] ")
        try type("y")
        try keys("Enter")
        try waitFor("removed 1 record")
        XCTAssertFalse(try self.keys(in: cache).contains("Starship:3001"))

        // Ctrl-D leaves; the history is there on the next start.
        try keys("C-d")
        try waitFor("EXIT=0")
        let attributes = try FileManager.default.attributesOfItem(atPath: history)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        try tmux("kill-session", "-t", session)
        session += "-again"
        try start(cache, history: history)
        try keys("Up")
        try waitFor("gqlcache QUERY_ROOT> rm Starship:3001")
    }
}
