import CacheStore
import Foundation
import XCTest

/// Ctrl-C, kill and a closed terminal against the built executable: a
/// write under way rolls back and the command says so, instead of the
/// process dying with a hot -journal beside the file (which every
/// read-only command then refuses); at any other moment the signal ends
/// the process as it always did.
final class StopSignalTests: CommandTestCase {
    /// A cache with a root and `count` Post records, written by the sqlite3 shell.
    func largeCache(count: Int) throws -> String {
        let cache = path("large.sqlite")
        _ = try CacheStore.create(at: cache)
        try sqliteShell(cache, """
            INSERT INTO records (key, record) VALUES ('QUERY_ROOT', '{"__typename":"Query"}');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO records (key, record) SELECT 'Post:' || i, '{"__typename":"Post","id":"' || i || '"}' FROM n;
            """)
        return cache
    }

    func start(_ arguments: [String], input: Pipe? = nil) throws -> (Process, stdout: Pipe, stderr: Pipe) {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), "build gqlcache first: \(builtBinary)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtBinary)
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        return (process, stdout, stderr)
    }

    /// The REPL on `cache`, fed `script` through a pipe kept open, once it
    /// has printed the `pwd` that ends the script (`QUERY_ROOT`): it then
    /// waits for its next line.
    func startREPL(_ cache: String, script: String) throws -> (Process, input: Pipe, stderr: Pipe, printed: String) {
        let input = Pipe()
        let (process, stdout, stderr) = try start(["repl", cache], input: input)
        input.fileHandleForWriting.write(Data(script.utf8))
        var printed = ""
        while !printed.contains("QUERY_ROOT\n") {
            let data = stdout.fileHandleForReading.availableData
            guard !data.isEmpty else { break }
            printed += String(decoding: data, as: UTF8.self)
        }
        return (process, input, stderr, printed)
    }

    /// Waits until process `pid` has `file` open (it is then past its
    /// start), and half a second more, in which it sets its signal
    /// handlers and comes to the lock; then returns.
    func waitUntil(_ pid: Int32, hasOpen file: String) {
        let target = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            if descriptors.contains(where: { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == target }) {
                usleep(500_000)
                return
            }
            usleep(5_000)
        }
        XCTFail("process \(pid) never opened \(file)")
    }

    /// Waits until the write has changed a page (SQLite made its -journal), then sends `signal`.
    func signalOnceWriting(_ process: Process, cache: String, _ signal: Int32) throws {
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: cache + "-journal") {
            guard process.isRunning, Date() < deadline else { return XCTFail("the write never started") }
            usleep(500)
        }
        kill(process.processIdentifier, signal)
    }

    func testASignalDuringACommandLineWriteRollsItBackAndSaysSo() throws {
        let cache = try largeCache(count: 200_000)
        for (signal, arguments) in [
            (SIGINT, ["rm", cache, "--match", "Post:", "--force"]),
            (SIGTERM, ["gc", cache, "--unreachable", "--force"]),
            (SIGQUIT, ["rm", cache, "--match", "Post:", "--force"]),
        ] {
            let (process, stdout, stderr) = try start(arguments)
            try signalOnceWriting(process, cache: cache, signal)
            process.waitUntilExit()
            let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(process.terminationReason, .exit, "\(arguments[0]) ended by the signal")
            XCTAssertEqual(process.terminationStatus, 130)
            XCTAssertEqual(errors, "gqlcache: \(cache): interrupted; nothing was changed\n")
            XCTAssertEqual(stdout.fileHandleForReading.readDataToEndOfFile(), Data())
            XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-journal"), "rolled back, no journal left")
            XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records"), "200001")
        }
    }

    /// A stop signal the process was started ignoring (nohup's SIGHUP)
    /// stays ignored: the write goes on to the end instead of rolling back.
    func testASignalTheProcessWasStartedIgnoringDoesNotStopTheWrite() throws {
        let cache = try largeCache(count: 200_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"trap "" HUP; exec "$0" rm "$1" --match Post: --force -q"#, builtBinary, cache]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try signalOnceWriting(process, cache: cache, SIGHUP)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records"), "1")
    }

    /// A script's REPL that a signal stops during a write: the write rolls
    /// back and the script ends there, as a command line would, instead of
    /// going on to its next command.
    func testASignalDuringAScriptsWriteRollsItBackAndEndsTheScript() throws {
        let cache = try largeCache(count: 200_000)
        let input = Pipe()
        let (process, stdout, stderr) = try start(["repl", cache], input: input)
        input.fileHandleForWriting.write(Data("rm --type Post --force\nkeys --count\n".utf8))
        try input.fileHandleForWriting.close()
        try signalOnceWriting(process, cache: cache, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 130)
        XCTAssertEqual(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                       "gqlcache: line 1: \(cache): interrupted; nothing was changed\n")
        XCTAssertEqual(stdout.fileHandleForReading.readDataToEndOfFile(), Data(), "keys --count did not run")
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records"), "200001")
    }

    /// SQLite's interrupt does not reach a connection asleep waiting for
    /// another process's lock: the wait must stop at the signal, not run
    /// out its --busy-timeout first.
    func testASignalWhileAWriteWaitsForTheLockStopsTheWaitAndChangesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let holder = try CacheStore.open(at: cache, access: .readWrite)
        let (status, errors, seconds): (Int32, String, TimeInterval) = try holder.write { tx in
            try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])])
            let started = Date()
            let (process, _, stderr) = try start(["rm", cache, "Human:1000", "--busy-timeout", "60"])
            waitUntil(process.processIdentifier, hasOpen: cache)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
                    Date().timeIntervalSince(started))
        }
        XCTAssertEqual(status, 130)
        XCTAssertEqual(errors, "gqlcache: \(cache): interrupted; nothing was changed\n")
        XCTAssertLessThan(seconds, 30, "it stopped waiting at the signal")
        XCTAssertTrue(try keys(in: cache).contains("Human:1000"))
    }

    /// `rm --match Post:% --force --format jsonl` on a root that lists
    /// 20,000 posts, returned once its removal has committed: the report
    /// lists every dangling reference (JSON Lines list them all), and,
    /// unread, the pipe fills and the process waits there.
    func startRemovalBlockedOnItsReport() throws -> (cache: String, Process, stdout: Pipe, stderr: Pipe) {
        let cache = path("feed.sqlite")
        _ = try CacheStore.create(at: cache)
        try sqliteShell(cache, """
            CREATE TEMP TABLE n AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) SELECT i FROM n;
            INSERT INTO records (key, record) SELECT 'Post:' || i, '{"__typename":"Post","id":"' || i || '"}' FROM n;
            INSERT INTO records (key, record) SELECT 'QUERY_ROOT', '{"feed":[' || group_concat('{"$reference":"Post:' || i || '"}') || ']}' FROM n;
            """)
        let (process, stdout, stderr) = try start(["rm", cache, "--match", "Post:%", "--force", "--format", "jsonl"])
        let deadline = Date().addingTimeInterval(60)
        while try sqliteShell(cache, "SELECT count(*) FROM records", readOnly: true) != "1" {
            guard process.isRunning, Date() < deadline else {
                XCTFail("the removal never committed")
                break
            }
            usleep(10_000)
        }
        XCTAssertTrue(process.isRunning, "the report is still being written")
        return (cache, process, stdout, stderr)
    }

    /// Ends as `process` ended: of `signal`, having said on standard error
    /// that the change stands, which it does.
    func assertEndedOf(_ signal: Int32, sayingTheChangeStands process: Process, cache: String, stderr: Pipe) throws {
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, signal)
        XCTAssertEqual(
            String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self),
            "gqlcache: \(cache): stopped after the change was written; it stands, and whatever the command had left to do (such as the rest of its report, or a --vacuum) was not done\n")
        XCTAssertEqual(try sqliteShell(cache, "SELECT key FROM records"), "QUERY_ROOT")
    }

    /// A signal after the write committed, while its report is printed,
    /// ends the process as before, but not silently: status 130 alone
    /// would read as "nothing was changed".
    func testASignalAfterTheWriteCommittedSaysTheChangeStands() throws {
        let (cache, process, stdout, stderr) = try startRemovalBlockedOnItsReport()
        kill(process.processIdentifier, SIGINT)
        // The one line on standard error fits its pipe: read after the end.
        _ = stdout.fileHandleForReading.readDataToEndOfFile()
        try assertEndedOf(SIGINT, sayingTheChangeStands: process, cache: cache, stderr: stderr)
    }

    /// `rm --force | head -1`: the reader goes away once the change has
    /// committed and its report is being written. SIGPIPE would end the
    /// process without a word; the one line says the change stands.
    func testAReaderGoneAfterTheWriteCommittedSaysTheChangeStands() throws {
        let (cache, process, stdout, stderr) = try startRemovalBlockedOnItsReport()
        try stdout.fileHandleForReading.close()
        try assertEndedOf(SIGPIPE, sayingTheChangeStands: process, cache: cache, stderr: stderr)
    }

    func testASignalWhileNothingIsBeingWrittenEndsTheProcessAsBefore() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        // A script fed to the REPL: it writes, then waits for its next line.
        // `pwd` printed: the removal's command has ended, and the REPL waits for a line.
        let (process, input, stderr, printed) = try startREPL(cache, script: "rm Human:1000\npwd\n")
        XCTAssertTrue(printed.contains("removed 1 record"), printed)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGINT)
        XCTAssertFalse(try keys(in: cache).contains("Human:1000"), "the write had committed")
        // That command had ended, its report whole: nothing to say about it.
        XCTAssertEqual(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
    }

    /// Ctrl-\ (SIGQUIT) quits as it quits any program: not through the
    /// Swift runtime's crash reporter, which printed a backtrace and then
    /// held the terminal for half a minute.
    func testQuitEndsTheProcessWithoutACrashReport() throws {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_CORE.rawValue), &saved)
        noCore.rlim_max = saved.rlim_max
        setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
        defer { setrlimit(Int32(RLIMIT_CORE.rawValue), &saved) }
        let cache = try copyOfFixture("starwars.sqlite")
        let (process, input, stderr, _) = try startREPL(cache, script: "pwd\n")
        kill(process.processIdentifier, SIGQUIT)
        // The crash reporter held the process: wait a while, not forever.
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            XCTFail("still running 20 s after SIGQUIT")
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGQUIT)
        XCTAssertEqual(String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "")
    }

    /// Ctrl-C reaches the pager too, which carries on (less stays until it
    /// is quit): the process waits for it before it ends, as git does, or
    /// the pager would be left drawing over the shell's prompt.
    func testCtrlCWaitsForThePagerBeforeTheProcessEnds() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        // More keys than a pipe holds: the output is still being written at Ctrl-C.
        let cache = try largeCache(count: 20_000)
        let pager = path("pager.sh")
        // Like less: Ctrl-C does not end it. It shows the first line, reads
        // no more until told, then reads to the end and quits a moment later.
        try """
            trap '' INT; IFS= read -r line; echo "PAGER-SHOWS $line"
            while [ ! -e go ]; do sleep 0.05; done; cat > /dev/null; sleep 1; echo PAGER-QUIT

            """.write(toFile: pager, atomically: true, encoding: .utf8)
        let terminal = try TmuxTerminal("cd \(folder.path) && env TERM=xterm HOME=\(folder.path) PS1='$ ' bash --norc --noprofile")
        defer { terminal.kill() }
        try terminal.type("PAGER='sh \(pager)' \(builtBinary) keys \(cache)\n")
        try terminal.waitFor("PAGER-SHOWS Post:1\n")
        try terminal.press("C-c")
        usleep(300_000)
        XCTAssertFalse(try terminal.screen().contains("\n$"), "the process ended before its pager quit")
        FileManager.default.createFile(atPath: path("go"), contents: Data())
        try terminal.waitFor("PAGER-QUIT\n")
        let deadline = Date().addingTimeInterval(30)
        while try !terminal.screen().trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("\n$"), Date() < deadline { usleep(20_000) }
        let screen = try terminal.screen()
        let quit = try XCTUnwrap(screen.range(of: "PAGER-QUIT"), screen)
        let prompt = try XCTUnwrap(screen.range(of: "\n$", options: .backwards), screen)
        XCTAssertLessThan(quit.lowerBound, prompt.lowerBound, "the process ended after its pager: \(screen)")
    }

    /// The pager starts with the first output: Ctrl-C while a command
    /// still waits (here for the app's lock) leaves no empty pager to quit
    /// (less would stay at "(END)" until q), and the process ends at once.
    func testCtrlCBeforeAnyOutputLeavesNoPager() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        let pager = path("pager.sh")
        try "trap '' INT; echo PAGER-STARTED; cat > /dev/null; sleep 1; echo PAGER-QUIT\n".write(toFile: pager, atomically: true, encoding: .utf8)
        let app = try RunningSQLiteShell.holdingExclusiveLock(on: cache)
        defer { app.finish() }
        let terminal = try TmuxTerminal("cd \(folder.path) && env TERM=xterm HOME=\(folder.path) PS1='$ ' bash --norc --noprofile")
        defer { terminal.kill() }
        try terminal.type("PAGER='sh \(pager)' \(builtBinary) keys \(cache) --busy-timeout 60; echo \"status $?\"\n")
        let deadline = Date().addingTimeInterval(30)
        var pid: Int32?
        while pid == nil, Date() < deadline {
            pid = try Int32(runProgram("/usr/bin/pgrep", ["-f", "^\(builtBinary) keys \(cache) "]).stdout.split(separator: "\n").first.map(String.init) ?? "")
            if pid == nil { usleep(20_000) }
        }
        waitUntil(try XCTUnwrap(pid, "gqlcache never started"), hasOpen: cache)
        try terminal.press("C-c")
        // bash's own line for a command Ctrl-C ended: no status line follows.
        while try !terminal.screen().trimmingCharacters(in: .whitespacesAndNewlines).hasSuffix("\n$"), Date() < deadline { usleep(20_000) }
        usleep(300_000)
        let screen = try terminal.screen()
        XCTAssertFalse(screen.contains("PAGER-STARTED"), screen)
        XCTAssertFalse(screen.contains("status 0"), screen)
    }

    /// export -o writes a temporary file beside the target: a signal that
    /// ends the process removes it first, and the target is never made.
    func testASignalDuringAnExportToAFileLeavesNoTemporaryFile() throws {
        let cache = try largeCache(count: 300_000)
        let exports = folder.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let target = exports.appendingPathComponent("out.jsonl").path
        for signal in [SIGTERM, SIGINT] {
            let (process, _, _) = try start(["export", cache, "-o", target])
            // The temporary file appears as the export starts; the export goes on for a while.
            let deadline = Date().addingTimeInterval(30)
            while (try FileManager.default.contentsOfDirectory(atPath: exports.path)).isEmpty {
                guard process.isRunning, Date() < deadline else { return XCTFail("the export never made its temporary file") }
                usleep(200)
            }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "the export was still running")
            XCTAssertEqual(process.terminationStatus, signal)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: exports.path), [], "no temporary file, no target")
        }
    }

    /// A copy cut short by a kill never has a backup's name: it is written
    /// as `.partial` and named once complete.
    func testABackupKilledHalfWayLeavesNoFileUnderABackupsName() throws {
        let cache = try largeCache(count: 300_000)
        let listing = { try FileManager.default.contentsOfDirectory(atPath: self.folder.path).filter { $0.contains(".backup-") } }
        for _ in 1...5 {
            let (process, _, _) = try start(["clear", cache, "--force", "--backup"])
            let deadline = Date().addingTimeInterval(30)
            var partial: String?
            while partial == nil {
                guard process.isRunning, Date() < deadline else { break }
                partial = try listing().first { $0.hasSuffix(".partial") && ((try? FileManager.default.attributesOfItem(atPath: path($0))[.size] as? Int) ?? 0) > 0 }
                if partial == nil { usleep(200) }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let left = try listing()
            for name in left { try FileManager.default.removeItem(atPath: path(name)) }
            // Killed after the copy was named: try again.
            guard let partial, left.contains(partial) else { continue }
            XCTAssertTrue(left.allSatisfy { $0.hasPrefix(partial) }, "only the partial copy and its journal: \(left)")
            XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records"), "300001", "the cache is as it was")
            return
        }
        XCTFail("the backup was never killed half-way")
    }

    func testCtrlCWhileTheEditorRunsIsTheEditorsAndGqlcacheCarriesOn() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        // An "editor" that sends SIGINT to the gqlcache above it, as a terminal
        // sends Ctrl-C to the whole foreground group, and saves nothing new.
        let editor = path("editor.sh")
        try """
            p=$PPID
            while [ "$(cat /proc/$p/comm)" != gqlcache ]; do p=$(cut -d' ' -f4 /proc/$p/stat); done
            kill -INT $p
            sleep 0.3
            """.write(toFile: editor, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtBinary)
        process.arguments = [
            "update", cache, "--text", "query H @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { name } }", "--edit",
        ]
        process.environment = ["EDITOR": "sh \(editor)", "PATH": "/usr/bin:/bin"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "gqlcache ended by the signal")
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "no changes; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
    }
}
