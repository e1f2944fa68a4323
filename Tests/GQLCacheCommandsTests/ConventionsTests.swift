import CacheStore
import ExampleCaches
import Foundation
@testable import GQLCacheCommands
import XCTest

/// The conventions every command follows: --color with NO_COLOR and
/// TERM=dumb, --quiet, the pager, and progress on a terminal.
final class ConventionsTests: CommandTestCase {
    /// Runs the command line in-process as if standard output (and, with
    /// `stderrIsTerminal`, standard error) were a terminal.
    func onTerminal(
        _ arguments: String..., environment: [String: String] = [:], paging: Bool = false, stderrIsTerminal: Bool = false,
        progressDelay: Double = 0.5
    ) -> CommandResult {
        onTerminal(arguments: arguments, environment: environment, paging: paging, stderrIsTerminal: stderrIsTerminal, progressDelay: progressDelay)
    }

    func onTerminal(
        arguments: [String], environment: [String: String] = [:], paging: Bool = false, stderrIsTerminal: Bool = false,
        progressDelay: Double = 0.5
    ) -> CommandResult {
        let stdout = StringSink()
        let stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines([]),
            stdinIsTerminal: false, stdoutIsTerminal: true, environment: environment)
        context.allowsPaging = paging
        context.stderrIsTerminal = stderrIsTerminal
        context.progressDelay = progressDelay
        let status = GQLCacheMain.run(arguments: arguments, context: context)
        return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
    }

    let escape = "\u{1B}["

    // MARK: colour

    func testColourIsOnlyForATerminalAndNeverWithNoColorOrADumbTerminal() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let terminal = onTerminal("show", cache, "Droid:2001", environment: ["TERM": "xterm"])
        XCTAssertTrue(terminal.stdout.contains("\(escape)1mDroid:2001\(escape)0m"), terminal.stdout)
        XCTAssertTrue(terminal.stdout.contains("→ \(escape)36mHuman:1000\(escape)0m"), terminal.stdout)

        let piped = gqlcache("show", cache, "Droid:2001")
        XCTAssertFalse(piped.stdout.contains(escape))
        // The same text, less the escapes.
        XCTAssertEqual(terminal.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression), piped.stdout)

        for environment in [["NO_COLOR": "1", "TERM": "xterm"], ["TERM": "dumb"]] {
            let result = onTerminal("show", cache, "Droid:2001", environment: environment)
            XCTAssertEqual(result.stdout, piped.stdout, "\(environment): \(result.stderr)")
        }
        XCTAssertEqual(onTerminal("show", cache, "Droid:2001", "--color", "never").stdout, piped.stdout)
        // NO_COLOR set but empty does not count, as its convention says.
        XCTAssertTrue(onTerminal("show", cache, "Droid:2001", environment: ["NO_COLOR": ""]).stdout.contains(escape))
        // --color always wins over a pipe and NO_COLOR.
        XCTAssertTrue(gqlcache("show", cache, "Droid:2001", "--color", "always", environment: ["NO_COLOR": "1"]).stdout.contains(escape))
    }

    func testDanglingReferencesAndChangedValuesAreColouredOnATerminal() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let removal = onTerminal("rm", cache, "Human:1002", "--dry-run")
        XCTAssertTrue(removal.stdout.contains("Droid:2001 friends[1] → \(escape)31mHuman:1002\(escape)0m"), removal.stdout)
        let change = onTerminal(
            "write", cache, "--text", "{ hero { __typename id name } }", "--key-field", "*=id", "--response", try response(), "--dry-run")
        XCTAssertEqual(change.status, .success, change.stderr)
        XCTAssertTrue(change.stdout.contains("  \(escape)32m+\(escape)0m hero: \(escape)32m{\"$reference\":\"Droid:2001\"}\(escape)0m\n"), change.stdout)
        XCTAssertTrue(change.stdout.contains("  name: \(escape)31m\"R2-D2\"\(escape)0m → \(escape)32m\"Artoo\"\(escape)0m\n"), change.stdout)
    }

    /// diff, grep and refs colour as the commands before them do (and as
    /// git and grep colour their own): the text is the same less the escapes.
    func testDiffGrepAndRefsAreColouredOnATerminalAndAlikeOtherwise() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let changed = path("changed.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: changed)
        try sqliteShell(changed, "UPDATE records SET record = replace(record, 'R2-D2', 'R3') WHERE key = 'Droid:2001'; DELETE FROM records WHERE key = 'Human:1002'")
        let commands = [["diff", cache, changed], ["grep", cache, "sky", "-i"], ["refs", cache, "Droid:2001"]]
        for arguments in commands {
            let coloured = gqlcache(arguments: arguments + ["--color", "always"])
            let plain = gqlcache(arguments: arguments)
            XCTAssertFalse(plain.stdout.contains(escape), "\(arguments[0])")
            XCTAssertTrue(coloured.stdout.contains(escape), "\(arguments[0]): \(coloured.stdout)")
            XCTAssertEqual(coloured.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression), plain.stdout)
            XCTAssertEqual(onTerminal(arguments: arguments, environment: ["TERM": "xterm"]).stdout, coloured.stdout, "\(arguments[0])")
        }
        let diff = gqlcache("diff", cache, changed, "--color", "always").stdout
        XCTAssertTrue(diff.contains("~ \(escape)1mDroid:2001\(escape)0m\n    ~ name: \(escape)31m\"R2-D2\"\(escape)0m → \(escape)32m\"R3\"\(escape)0m\n"), diff)
        XCTAssertTrue(diff.contains("\(escape)31m- Human:1002\(escape)0m\n    \(escape)31m- __typename: \"Human\"\(escape)0m\n"), diff)
        let grep = gqlcache("grep", cache, "sky", "-i", "--color", "always").stdout
        XCTAssertEqual(grep, "\(escape)1mHuman:1000\(escape)0m name: \"Luke \(escape)1;31mSky\(escape)0mwalker\"\n")
        let reference = gqlcache("grep", cache, "1002", "--color", "always").stdout
        XCTAssertTrue(reference.contains("\(escape)1mDroid:2001\(escape)0m friends[1] → Human:\(escape)1;31m1002\(escape)0m\n"), reference)
        let refs = gqlcache("refs", cache, "Droid:2001", "--color", "always").stdout
        XCTAssertTrue(refs.hasPrefix("\(escape)1mDroid:2001\(escape)0m \(escape)2m(Droid)\(escape)0m\n├─ friends[0] → \(escape)36mHuman:1000\(escape)0m"), refs)
        XCTAssertTrue(refs.contains("incoming references (2)\n  \(escape)36mQUERY_ROOT\(escape)0m hero(episode:NEWHOPE)\n"), refs)
    }

    func testColorTakesOnlyAutoAlwaysOrNever() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let wrong = gqlcache("keys", cache, "--color", "sometimes")
        XCTAssertEqual(wrong.status, .usage)
        XCTAssertTrue(wrong.stderr.contains("sometimes"), wrong.stderr)
    }

    private func response() throws -> String {
        let file = path("response.json")
        try #"{"data": {"hero": {"__typename": "Droid", "id": "2001", "name": "Artoo"}}}"#.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    // MARK: quiet

    func testQuietLeavesOutSummariesButKeepsRequestedDataAndErrors() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let dryRun = gqlcache("rm", cache, "Human:1002", "--dry-run", "-q")
        XCTAssertEqual(dryRun.stdout, "would remove Human:1002\n")

        let removal = gqlcache("rm", cache, "Human:1002", "Human:9999", "--quiet")
        XCTAssertEqual(removal.status, .notFound)
        XCTAssertEqual(removal.stdout, "")
        XCTAssertTrue(removal.stderr.contains("no record 'Human:9999'"), removal.stderr)
        XCTAssertFalse(try keys(in: cache).contains("Human:1002"))

        let write = ["write", cache, "--text", "{ hero { __typename id name } }", "--key-field", "*=id", "--response", try response()]
        let preview = gqlcache(arguments: write + ["--dry-run", "-q"])
        XCTAssertEqual(preview.stdout, "QUERY_ROOT\n  + hero: {\"$reference\":\"Droid:2001\"}\nDroid:2001\n  name: \"R2-D2\" → \"Artoo\"\n")
        let written = gqlcache(arguments: write + ["-q"])
        XCTAssertEqual(written.status, .success)
        XCTAssertEqual(written.stdout, "")
        XCTAssertEqual(gqlcache("clear", cache, "--force", "-q").stdout, "")
        XCTAssertEqual(try keys(in: cache), [])

        // Data asked for is the same with and without --quiet.
        let other = try copyOfFixture("legacy-sqlite-swift.sqlite")
        XCTAssertEqual(gqlcache("keys", other, "-q").stdout, gqlcache("keys", other).stdout)
        XCTAssertEqual(gqlcache("info", other, "-q").stdout, gqlcache("info", other).stdout)

        // export -o and import: their summary lines are summaries too.
        let exported = path("all.jsonl")
        XCTAssertEqual(gqlcache("export", other, "-o", exported, "-q").stdout, "")
        XCTAssertEqual(gqlcache("import", path("imported.sqlite"), exported, "--create", "--quiet").stdout, "")
        XCTAssertEqual(try keys(in: path("imported.sqlite")), try keys(in: other))
    }

    func testTheREPLsQuietHoldsForItsCommands() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("repl", cache, "-q", "-c", "rm Starship:3001; keys Starship:%; open \(cache)")
        XCTAssertEqual(result.stdout, "", "no summary, nor 'opened'")
        XCTAssertFalse(try keys(in: cache).contains("Starship:3001"))
        XCTAssertEqual(gqlcache("repl", cache, "-c", "open \(cache)").stdout, "opened \(cache)\n")
    }

    // MARK: pager

    func testPagerCommandComesFromPAGERWithLessAsDefault() {
        XCTAssertEqual(Pager.command(environment: [:]), "less -FRX")
        XCTAssertEqual(Pager.command(environment: ["PAGER": "more"]), "more")
        XCTAssertNil(Pager.command(environment: ["PAGER": ""]))
        XCTAssertNil(Pager.command(environment: ["PAGER": "cat"]))
        // A dumb terminal (an editor's shell) gets no less, which would stop to
        // say the terminal is not fully functional; a pager it names is its own.
        XCTAssertNil(Pager.command(environment: ["TERM": "dumb"]))
        XCTAssertEqual(Pager.command(environment: ["TERM": "dumb", "PAGER": "more"]), "more")
        XCTAssertEqual(Pager.command(environment: ["TERM": "xterm"]), "less -FRX")
    }

    /// The output is UTF-8: without a UTF-8 locale less would show the
    /// trees' lines as <E2><94><82>, so it is told the charset.
    func testThePagerIsToldTheOutputIsUTF8WithoutAUTF8Locale() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let told = path("charset.txt")
        func charset(_ environment: [String: String]) throws -> String {
            let pager = #"cat > /dev/null; printf '%s' "$LESSCHARSET" > '\#(told)'"#
            _ = onTerminal("keys", cache, environment: ["PAGER": pager, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }, paging: true)
            return try String(contentsOfFile: told, encoding: .utf8)
        }
        XCTAssertEqual(try charset([:]), "utf-8")
        XCTAssertEqual(try charset(["LANG": "C"]), "utf-8")
        XCTAssertEqual(try charset(["LANG": "en_US.UTF-8"]), "")
        XCTAssertEqual(try charset(["LC_ALL": "C.utf8", "LANG": "C"]), "")
        XCTAssertEqual(try charset(["LESSCHARSET": "latin1"]), "latin1")
    }

    func testTextOnATerminalGoesThroughThePagerUnlessNoPagerJsonOrTheREPL() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let paged = path("paged.txt")
        let environment = ["PAGER": "cat > '\(paged)'", "PATH": "/usr/bin:/bin"]
        let plain = gqlcache("keys", cache).stdout

        let throughPager = onTerminal("keys", cache, environment: environment, paging: true)
        XCTAssertEqual(throughPager.status, .success)
        XCTAssertEqual(throughPager.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: paged, encoding: .utf8), plain)
        try FileManager.default.removeItem(atPath: paged)

        XCTAssertEqual(onTerminal("keys", cache, "--no-pager", environment: environment, paging: true).stdout, plain)
        XCTAssertTrue(onTerminal("keys", cache, "--format", "json", environment: environment, paging: true).stdout.hasPrefix("["))
        // Commands that change the file or ask questions never page.
        XCTAssertTrue(onTerminal("rm", cache, "Starship:3001", "--dry-run", environment: environment, paging: true).stdout.hasPrefix("would remove"))
        // The REPL's commands never page.
        XCTAssertTrue(onTerminal("repl", cache, "-c", "keys", environment: environment, paging: true).stdout.hasPrefix("Droid:2001\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: paged))
    }

    func testAPagerThatCannotBeFoundIsSkippedAndTheTextStillPrinted() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let plain = gqlcache("keys", cache).stdout
        let missing = onTerminal("keys", cache, environment: ["PAGER": "no-such-pager -x", "PATH": "/usr/bin:/bin"], paging: true)
        XCTAssertEqual(missing.status, .success)
        XCTAssertEqual(missing.stdout, plain)
        XCTAssertEqual(missing.stderr, "gqlcache: warning: the pager 'no-such-pager' (PAGER) was not found; printing without it\n")
        let missingPath = onTerminal("keys", cache, environment: ["PAGER": "/no/such/less"], paging: true)
        XCTAssertEqual(missingPath.stdout, plain)
        XCTAssertTrue(missingPath.stderr.contains("'/no/such/less'"), missingPath.stderr)
        // No PAGER and no less: plainly printed, nothing said.
        let noLess = onTerminal("keys", cache, environment: ["PATH": folder.path], paging: true)
        XCTAssertEqual(noLess.stdout, plain)
        XCTAssertEqual(noLess.stderr, "")
        XCTAssertNil(Pager.missingProgram(in: "sh -c cat", environment: ["PATH": "/usr/bin:/bin"]))
        XCTAssertNil(Pager.missingProgram(in: "$HOME/bin/pager", environment: [:]), "shell syntax is left to the shell")
    }

    func testOutputThatCannotBeWrittenIsAnIOErrorButAReaderThatLeftIsNot() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        // A descriptor open for reading only: every write fails (EBADF), as on a full disk.
        let readOnly = open("/dev/null", O_RDONLY)
        defer { close(readOnly) }
        let stderr = StringSink()
        let context = CommandContext(
            stdout: FileDescriptorSink(fileDescriptor: readOnly, bufferSize: 16), stderr: stderr, stdin: ScriptedLines([]),
            stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        XCTAssertEqual(GQLCacheMain.run(arguments: ["keys", cache], context: context), .io)
        XCTAssertEqual(stderr.text, "gqlcache: cannot write to standard output (Bad file descriptor)\n")
        // A change committed before the output failed stays made, and the message says so.
        let removal = StringSink()
        let removing = CommandContext(
            stdout: FileDescriptorSink(fileDescriptor: readOnly, bufferSize: 16), stderr: removal, stdin: ScriptedLines([]),
            stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        XCTAssertEqual(GQLCacheMain.run(arguments: ["rm", cache, "Human:1002"], context: removing), .io)
        XCTAssertEqual(removal.text, "gqlcache: cannot write to standard output (Bad file descriptor); the change to \(cache) was made all the same\n")
        XCTAssertFalse(try keys(in: cache).contains("Human:1002"))
        // So too for a file the command made (--create).
        let export = path("all.jsonl")
        try gqlcache("export", cache).stdout.write(toFile: export, atomically: true, encoding: .utf8)
        try #"{"data":{"a":1}}"#.write(toFile: path("response.json"), atomically: true, encoding: .utf8)
        for (arguments, made) in [(["import", path("new.sqlite"), export, "--create"], path("new.sqlite")),
                                  (["write", path("new2.sqlite"), "--text", "{ a }", "--response", path("response.json"), "--create"], path("new2.sqlite"))] {
            let creation = StringSink()
            let creating = CommandContext(
                stdout: FileDescriptorSink(fileDescriptor: readOnly, bufferSize: 16), stderr: creation, stdin: ScriptedLines([]),
                stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
            XCTAssertEqual(GQLCacheMain.run(arguments: arguments, context: creating), .io)
            XCTAssertEqual(creation.text, "gqlcache: cannot write to standard output (Bad file descriptor); the change to \(made) was made all the same\n")
        }
        // A pipe whose reader is gone (| head): quiet, the command's own status.
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        close(ends[0])
        defer { close(ends[1]) }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let quiet = StringSink()
        let piped = CommandContext(
            stdout: FileDescriptorSink(fileDescriptor: ends[1], bufferSize: 16), stderr: quiet, stdin: ScriptedLines([]),
            stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        XCTAssertEqual(GQLCacheMain.run(arguments: ["keys", cache], context: piped), .success)
        XCTAssertEqual(quiet.text, "")
    }

    /// A parent that ignores SIGPIPE (children inherit that) would leave
    /// `gqlcache keys | head -1` reading the whole file for no one and
    /// ending with 0: it ends as SIGPIPE would have ended it.
    func testAReaderThatLeftEndsTheProcessAsSIGPIPEWouldEvenWhenIgnored() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50000) INSERT INTO records(key, record) SELECT 'Filler:' || i, '{}' FROM n")
        let script = "trap '' PIPE; '\(builtBinary)' keys '\(cache)' | head -1; echo \"status=${PIPESTATUS[0]}\""
        let result = try runProgram("/bin/bash", ["-c", script])
        XCTAssertEqual(result.stdout, "Droid:2001\nstatus=141\n")
        XCTAssertEqual(result.stderr, "")
    }

    func testOnlyCommandsThatHaveBusyTimeoutAreToldToRaiseIt() throws {
        XCTAssertTrue(Conventions.takesBusyTimeout(try GQLCache.parseAsRoot(["rm", "c.sqlite", "A:1"])))
        XCTAssertTrue(Conventions.takesBusyTimeout(try GQLCache.parseAsRoot(["gc", "c.sqlite", "--all"])))
        XCTAssertTrue(Conventions.takesBusyTimeout(try GQLCache.parseAsRoot(["info", "c.sqlite"])))
        XCTAssertTrue(Conventions.takesBusyTimeout(try GQLCache.parseAsRoot(["doctor", "c.sqlite"])))
        XCTAssertFalse(Conventions.takesBusyTimeout(try GQLCache.parseAsRoot(["completions", "bash"])))
        XCTAssertEqual(
            CacheStoreError.busyMessage(path: "c.sqlite", waited: 5, suggestingBusyTimeout: false),
            "c.sqlite: another process holds the database lock (waited 5s); try again")
        XCTAssertEqual(
            "\(CacheStoreError.busy(path: "c.sqlite", waited: 0.2))",
            "c.sqlite: another process holds the database lock (waited 0.2s); try again, or raise --busy-timeout")
    }

    /// Every command that opens the file takes --busy-timeout: a reader
    /// waits that long while another process holds an exclusive lock (an
    /// app committing, or in exclusive locking mode), then fails with 4.
    func testReadingCommandsAndDryRunsWaitAsLongAsBusyTimeoutSays() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let shell = Process()
        let input = Pipe()
        let output = Pipe()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = ["-batch", cache]
        shell.standardInput = input
        shell.standardOutput = output
        try shell.run()
        defer {
            try? input.fileHandleForWriting.write(contentsOf: Data("ROLLBACK;\n.quit\n".utf8))
            try? input.fileHandleForWriting.close()
            shell.waitUntilExit()
        }
        // BEGIN EXCLUSIVE keeps readers out, as the app's commit does.
        try input.fileHandleForWriting.write(contentsOf: Data(".timeout 10000\nBEGIN EXCLUSIVE;\nSELECT 'began';\n".utf8))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("began") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        XCTAssertTrue(String(decoding: seen, as: UTF8.self).contains("began"), "the shell took the lock")
        let busy = "gqlcache: \(cache): another process holds the database lock (waited 0.2s); try again, or raise --busy-timeout\n"
        for arguments in [
            ["info", cache], ["keys", cache, "--count"], ["show", cache, "QUERY_ROOT"], ["doctor", cache], ["export", cache],
            ["rm", cache, "Human:1000", "--dry-run"], ["gc", cache, "--all", "--dry-run"],
        ] {
            let start = Date()
            let result = gqlcache(arguments: arguments + ["--busy-timeout", "0.2"])
            XCTAssertEqual(result.status, .busy, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, busy, "\(arguments)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 3, "\(arguments) waited 0.2 s, not the default 5")
        }
    }

    // MARK: progress

    func testProgressLineShowsPercentOfTheScansAndNeverReaches100WhileRunning() {
        let halfway = ScanProgress(rowsVisited: 1_500, totalRows: 1_000)
        XCTAssertEqual(ProgressIndicator.line(label: "removing keys", progress: halfway, scans: 3, elapsed: 1.25), "gqlcache: removing keys 50% (1.2 s)")
        let over = ScanProgress(rowsVisited: 5_000, totalRows: 1_000)
        XCTAssertEqual(ProgressIndicator.line(label: "x", progress: over, scans: 3, elapsed: 2), "gqlcache: x 99% (2.0 s)")
    }

    /// A line wider than the terminal wraps, and each redraw then leaves a
    /// line behind: the label is cut to leave the last column free.
    func testProgressLineIsCutToTheTerminalWidth() {
        let progress = ScanProgress(rowsVisited: 40, totalRows: 100)
        let long = "checking /Users/someone/Library/Developer/cache.sqlite"
        let line = ProgressIndicator.line(label: long, progress: progress, scans: 1, elapsed: 0.5, width: 40)
        XCTAssertEqual(line, "gqlcache: checking /Users/… 40% (0.5 s)")
        XCTAssertEqual(line.count, 39)
        XCTAssertEqual(ProgressIndicator.line(label: "x", progress: progress, scans: 1, elapsed: 0.5, width: 40), "gqlcache: x 40% (0.5 s)")
        XCTAssertEqual(ProgressIndicator.line(label: long, progress: progress, scans: 1, elapsed: 0.5, width: 0), "gqlcache: \(long) 40% (0.5 s)")
        XCTAssertEqual(ProgressIndicator.line(label: long, progress: progress, scans: 1, elapsed: 0.5, width: 20), "40% (0.5 s)", "no room for the label")
        XCTAssertEqual(ProgressIndicator.line(label: long, progress: progress, scans: 1, elapsed: 0.5, width: 6), "40% (")
        let sink = StringSink()
        var now = 100.0
        let indicator = ProgressIndicator(label: long, scans: 1, sink: sink, clock: { now }, delay: 0.5, columns: { 30 })
        now = 101
        indicator.update(progress)
        XCTAssertEqual(sink.text, "\rgqlcache: checki… 40% (1.0 s)\u{1B}[K")
    }

    /// Ctrl-C is echoed as "^C" where the cursor stands (after a prompt,
    /// or in a line of output): the interruption is said on a line of its
    /// own, unless the progress line, which the echo followed, was erased.
    func testAnInterruptionIsSaidOnAFreshLineOfATerminal() throws {
        func said(onTerminal: Bool, afterProgress: Bool) -> String {
            let stderr = StringSink()
            let context = CommandContext(
                stdout: StringSink(), stderr: stderr, stdin: ScriptedLines([]),
                stdinIsTerminal: true, stdoutIsTerminal: true, environment: [:])
            context.stderrIsTerminal = onTerminal
            context.progressDelay = 0
            if afterProgress { context.withProgress("scanning") { $0?(ScanProgress(rowsVisited: 1, totalRows: 2)) } }
            context.report(.interrupted, "c.sqlite: interrupted; nothing was changed")
            return stderr.text
        }
        XCTAssertEqual(said(onTerminal: true, afterProgress: false), "\ngqlcache: c.sqlite: interrupted; nothing was changed\n")
        XCTAssertEqual(said(onTerminal: false, afterProgress: false), "gqlcache: c.sqlite: interrupted; nothing was changed\n")
        XCTAssertTrue(said(onTerminal: true, afterProgress: true).hasSuffix("\r\u{1B}[Kgqlcache: c.sqlite: interrupted; nothing was changed\n"))
        // Other failures come after a line the command ended itself.
        let stderr = StringSink()
        let context = CommandContext(stdout: StringSink(), stderr: stderr, stdin: ScriptedLines([]), stdinIsTerminal: true, stdoutIsTerminal: true, environment: [:])
        context.stderrIsTerminal = true
        context.report(.notFound, "no record 'A:1'")
        XCTAssertEqual(stderr.text, "gqlcache: no record 'A:1'\n")
    }

    func testProgressIsDrawnOnlyAfterTheDelayAndErasedAtTheEnd() {
        let sink = StringSink()
        var now = 100.0
        let indicator = ProgressIndicator(label: "scanning", scans: 1, sink: sink, clock: { now }, delay: 0.5)
        now = 100.3
        indicator.update(ScanProgress(rowsVisited: 10, totalRows: 100))
        XCTAssertEqual(sink.text, "", "nothing before half a second")
        now = 100.6
        indicator.update(ScanProgress(rowsVisited: 40, totalRows: 100))
        now = 100.65
        indicator.update(ScanProgress(rowsVisited: 45, totalRows: 100))
        XCTAssertEqual(sink.text, "\rgqlcache: scanning 40% (0.6 s)\u{1B}[K", "redrawn at most every 0.1 s")
        indicator.finish()
        XCTAssertTrue(sink.text.hasSuffix("\r\u{1B}[K"))

        let quick = StringSink()
        let fast = ProgressIndicator(label: "scanning", scans: 1, sink: quick, clock: { now }, delay: 0.5)
        fast.finish()
        XCTAssertEqual(quick.text, "", "a fast operation leaves no trace")
    }

    func testPatternRemovalShowsProgressOnATerminalStandardErrorOnly() throws {
        let cache = path("blog.sqlite")
        try BlogCache(users: 2_000).write(to: try CacheStore.create(at: cache))
        let copy = path("copy.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: copy)

        let shown = onTerminal("rm", cache, "--match", "Comment:", "--force", stderrIsTerminal: true, progressDelay: 0)
        XCTAssertEqual(shown.status, .success, shown.stderr)
        XCTAssertTrue(shown.stderr.hasPrefix("\rgqlcache: removing keys matching apollo pattern 'Comment:' "), shown.stderr)
        XCTAssertTrue(shown.stderr.hasSuffix("\r\u{1B}[K"), "the line is erased: \(shown.stderr.debugDescription)")
        XCTAssertFalse(shown.stdout.contains("gqlcache:"))

        let piped = onTerminal("rm", copy, "--match", "Comment:", "--force", stderrIsTerminal: false, progressDelay: 0)
        XCTAssertEqual(piped.stderr, "")
        XCTAssertEqual(piped.stdout, shown.stdout)
    }

    func testInfoShowsProgressOnATerminal() throws {
        let cache = path("blog.sqlite")
        try BlogCache(users: 2_000).write(to: try CacheStore.create(at: cache))
        let shown = onTerminal("info", cache, stderrIsTerminal: true, progressDelay: 0)
        XCTAssertTrue(shown.stderr.hasPrefix("\rgqlcache: reading \(cache) "), shown.stderr)
        XCTAssertEqual(shown.stdout, gqlcache("info", cache).stdout)
    }
}
