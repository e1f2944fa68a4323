import CacheStore
import Foundation
import XCTest

/// The REPL in a real terminal: the built gqlcache run in tmux, typed at
/// with send-keys and read back with capture-pane. Skipped when tmux is not
/// installed, unless GQLCACHE_REQUIRE_TERMINAL_TESTS is set (CI sets it).
final class TerminalREPLTests: CommandTestCase {
    var terminal: TmuxTerminal?

    override func tearDownWithError() throws {
        terminal?.kill()
        try super.tearDownWithError()
    }

    func keys(_ keys: String...) throws {
        for key in keys { try terminal?.press(key) }
    }

    func type(_ text: String) throws { try terminal?.type(text) }

    func waitFor(_ text: String, atTop: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        try terminal?.waitFor(text, atTop: atTop, file: file, line: line)
    }

    /// What a shell command prints.
    func output(of command: String) throws -> String {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// `after`: a shell command run once the REPL has ended, before the wait.
    func start(_ cache: String, history: String, editor: String = "", after: String = "true") throws {
        let command = "cd \(folder.path) && env TERM=xterm HOME=\(folder.path) GQLCACHE_HISTORY=\(history) EDITOR=\(editor) \(builtBinary) repl \(cache); echo EXIT=$?; \(after); sleep 30"
        terminal = try TmuxTerminal(command)
        try waitFor("gqlcache QUERY_ROOT> ")
    }

    func testATerminalSessionCompletesKeysWalksReferencesRunsQueriesRemovesAndKeepsHistory() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), "build gqlcache first: \(builtBinary)")
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
        // On screen first: Ctrl-C's signal flushes the terminal's input that readline has not read yet.
        try waitFor("show this line is dropped")
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
        terminal?.kill()
        try start(cache, history: history)
        try keys("Up")
        try waitFor("gqlcache QUERY_ROOT> rm Starship:3001")
    }

    /// With output to a file the prompt, the typing, Tab's list and the
    /// greeting go to the terminal through standard error, as bash's
    /// prompt does: the file gets the data alone.
    func testWithOutputToAFileThePromptStaysOnTheTerminalAndTheFileGetsTheDataAlone() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        let saved = path("saved.txt")
        try start(cache + " > " + saved, history: path("history"))
        try waitFor("gqlcache 0.1.0 on")
        try type("keys Hum")
        try keys("Tab")
        try waitFor("gqlcache QUERY_ROOT> keys Human:100")
        try keys("BSpace", "BSpace", "BSpace", "BSpace", "Enter")
        try type("rm Human:1002\n")
        try waitFor("(Human:1002)? [y/N] ")
        try type("n\n")
        // The next prompt, drawn once readline reads keys one by one: a
        // Ctrl-D sent while the terminal still reads lines is taken by it.
        try waitFor("gqlcache: nothing removed\ngqlcache QUERY_ROOT> ")
        try keys("C-d")
        try waitFor("EXIT=1")
        XCTAssertEqual(try String(contentsOfFile: saved, encoding: .utf8), "Human:1000\nHuman:1002\n")
    }

    /// In the C locale (LANG unset, or LC_ALL=C) readline would edit bytes:
    /// Backspace after `ú` left half of it. The REPL edits characters.
    func testWithoutAUTF8LocaleBackspaceTakesAWholeCharacter() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('Café:ñandú', '{}')")
        // Unset, and named: readline sets the locale the environment names again at every line.
        for locale in ["-u LANG -u LC_ALL -u LC_CTYPE", "-u LANG LC_ALL=C", "-u LC_ALL -u LC_CTYPE LANG=POSIX"] {
            terminal?.kill()
            terminal = try TmuxTerminal(
                "cd \(folder.path) && env \(locale) TERM=xterm HOME=\(folder.path) GQLCACHE_HISTORY= \(builtBinary) repl \(cache); sleep 30")
            try waitFor("gqlcache QUERY_ROOT> ")
            try type("show Café:ñandúú")
            try keys("BSpace", "Enter")
            try waitFor("Café:ñandú\n└─ (no fields)\ngqlcache QUERY_ROOT> ")
            // The next line too: readline takes the environment's locale again for each.
            try type("show Café:ñandúú")
            try keys("BSpace", "Enter")
            try waitFor("Café:ñandú\n└─ (no fields)\ngqlcache QUERY_ROOT> show Café:ñandú\nCafé:ñandú\n└─ (no fields)")
        }
    }

    /// An editor the REPL starts in the C locale gets the C.UTF-8 the REPL
    /// took, whichever variable named C (LC_ALL or LC_CTYPE), or none.
    func testAnEditorStartedInTheCLocaleGetsCUTF8Too() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        let editor = path("editor.sh")
        try "#!/bin/sh\nenv | grep -E '^LC_(ALL|CTYPE)=' | sort > \"$0.out\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor)
        for (locale, expected) in [("-u LANG -u LC_CTYPE LC_ALL=C", "LC_ALL=C.UTF-8\n"), ("-u LANG -u LC_ALL LC_CTYPE=C", "LC_CTYPE=C.UTF-8\n")] {
            terminal?.kill()
            try? FileManager.default.removeItem(atPath: editor + ".out")
            terminal = try TmuxTerminal(
                "cd \(folder.path) && env \(locale) TERM=xterm HOME=\(folder.path) GQLCACHE_HISTORY= VISUAL=\(editor) \(builtBinary) repl \(cache); sleep 30")
            try waitFor("gqlcache QUERY_ROOT> ")
            try type("{ hero(episode: NEWHOPE) { name } }")
            try keys("Enter")
            try waitFor(#""name": "R2-D2""#)
            try type("edit")
            try keys("Enter")
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: editor + ".out") && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            Thread.sleep(forTimeInterval: 0.1)
            XCTAssertEqual(try String(contentsOfFile: editor + ".out", encoding: .utf8), expected, locale)
        }
    }

    /// A line typed with bytes that are not UTF-8 (a terminal set to
    /// Latin-1) is not run: read with U+FFFD for them, `rm X\xFF` removed
    /// the record keyed `X\u{FFFD}`.
    func testALineTypedWithBytesThatAreNotUTF8IsNotRun() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try makeCache("bytes.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["x": .reference("X\u{FFFD}")]), Record(key: "X\u{FFFD}", fields: ["__typename": .string("X")]),
        ])
        try start(cache, history: path("history"))
        try type("rm X")
        try terminal?.send(bytes: [0xFF])
        try keys("Enter")
        try waitFor("gqlcache: the line is not UTF-8 text at byte 5; it was not run")
        try type("keys --count")
        try keys("Enter")
        try waitFor("gqlcache QUERY_ROOT> keys --count\n2\ngqlcache QUERY_ROOT> ")
        XCTAssertEqual(try keys(in: cache), ["QUERY_ROOT", "X\u{FFFD}"])
        // In a paste, that line alone: the others run, and the offset is the line's own.
        try terminal?.clearScreen()
        try Data(Array("keys --count\nrm X".utf8) + [0xFF] + Array("\npwd\n".utf8)).write(to: URL(fileURLWithPath: path("paste.txt")))
        try terminal?.paste(file: path("paste.txt"))
        try keys("Enter")
        try waitFor("2\n")
        try waitFor("gqlcache: the line is not UTF-8 text at byte 5; it was not run")
        try waitFor("QUERY_ROOT\ngqlcache QUERY_ROOT> ")
        // Typed ahead of a command's question, so too.
        try terminal?.clearScreen()
        try terminal?.send(bytes: Array("rm QUERY_ROOT\rrm X".utf8) + [0xFF] + Array("\rpwd\r".utf8))
        try waitFor("? [y/N] ")
        try type("n")
        try keys("Enter")
        try waitFor("gqlcache: the line is not UTF-8 text at byte 5; it was not run")
        try waitFor("QUERY_ROOT\ngqlcache QUERY_ROOT> ")
        XCTAssertEqual(try keys(in: cache), ["QUERY_ROOT", "X\u{FFFD}"])
    }

    /// A session on the fixture with `query {` typed: at a continuation's prompt.
    private func startInAContinuation() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try start(try copyOfFixture("starwars.sqlite"), history: path("history"))
        try type("query {")
        try keys("Enter")
        try waitFor("    ...> ")
    }

    func testCtrlCInAContinuationDropsTheStatementAndPromptsForAFirstLineAgain() throws {
        try startInAContinuation()
        try type("  hero")
        try waitFor("    ...>   hero")
        try keys("C-c")
        try waitFor("    ...>   hero^C\ngqlcache QUERY_ROOT> ")
        try type("pwd")
        try keys("Enter")
        try waitFor("gqlcache QUERY_ROOT> pwd\nQUERY_ROOT\ngqlcache QUERY_ROOT> ")
    }

    /// Tab after `--var` gives `name=` with no space after it: the value
    /// is typed right there.
    func testTabAfterVarLeavesTheCursorAfterTheEqualsSign() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try "query Hero($episode: Episode) { hero(episode: $episode) { name } }".write(toFile: path("ops.graphql"), atomically: true, encoding: .utf8)
        try start(cache, history: path("history"))
        try type("read Hero --document ops.graphql --var ")
        try keys("Tab")
        try type("NEWHOPE")
        try keys("Enter")
        try waitFor("read Hero --document ops.graphql --var episode=NEWHOPE\n{\n  \"hero\": {\n    \"name\": \"R2-D2\"")
    }

    /// A line inside a document typed over several is GraphQL: Tab
    /// completes no command there (a pasted, tab-indented query would
    /// otherwise list them mid-query); after Ctrl-C, a first line's Tab does.
    func testTabInAContinuationCompletesNoCommand() throws {
        try startInAContinuation()
        try type("  he")
        try keys("Tab", "Tab", "Tab")
        try type("ro")
        try waitFor("    ...>   hero")
        try keys("C-c")
        try waitFor("    ...>   hero^C\ngqlcache QUERY_ROOT> ")
        try type("he")
        try keys("Tab")
        try waitFor("gqlcache QUERY_ROOT> help")
    }

    /// Ctrl-C in a reverse search (Ctrl-R) gives the search up with the
    /// line: what it found is not left to run on the next Enter.
    func testCtrlCInAReverseSearchGivesTheSearchUpAndWhatItFound() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try start(try copyOfFixture("starwars.sqlite"), history: path("history"))
        try type("keys Human:%")
        try keys("Enter")
        try waitFor("Human:1002\ngqlcache QUERY_ROOT> ")
        try keys("C-r")
        try type("keys H")
        try waitFor("`keys H': keys Human:%")
        try keys("C-c")
        try waitFor("gqlcache QUERY_ROOT> ^C\ngqlcache QUERY_ROOT> ")
        try type("pwd")
        try keys("Enter")
        try waitFor("gqlcache QUERY_ROOT> pwd\nQUERY_ROOT\ngqlcache QUERY_ROOT> ")
    }

    /// A Ctrl-C that comes while readline is busy with a key (here the
    /// half second vi mode waits after Escape) still cancels the line:
    /// Enter does not run it.
    func testCtrlCWhileReadlineWaitsAfterEscapeStillCancelsTheLine() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try "set editing-mode vi\n".write(toFile: path(".inputrc"), atomically: true, encoding: .utf8)
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"))
        try type("rm --force Human:1002")
        try waitFor("gqlcache QUERY_ROOT> rm --force Human:1002")
        try keys("Escape")
        try keys("C-c")
        try waitFor("gqlcache QUERY_ROOT> rm --force Human:1002^C\ngqlcache QUERY_ROOT> ")
        try keys("Enter")
        try type("pwd")
        try keys("Enter")
        try waitFor("gqlcache QUERY_ROOT> pwd\nQUERY_ROOT\ngqlcache QUERY_ROOT> ")
        XCTAssertTrue(try keys(in: cache).contains("Human:1002"))
    }

    /// Only a key pressed after the question answers it: a `y` typed
    /// ahead, while the command still worked out what to ask, is dropped.
    func testAnAnswerTypedBeforeTheQuestionIsNotTaken() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"))
        try type("rm Human:1002\ny\n")
        try waitFor("(Human:1002)? [y/N] ")
        try keys("C-c")
        try waitFor("gqlcache: nothing removed\ngqlcache QUERY_ROOT> ")
        XCTAssertTrue(try keys(in: cache).contains("Human:1002"))
    }

    /// Lines typed ahead of a question (a paste the terminal does not
    /// bracket) do not answer it, and are not lost either: they run after
    /// the command, shown at the prompt as if typed then. Typed in one
    /// burst with the command, Enter is a carriage return (the terminal was
    /// still raw); typed later, a newline.
    func testLinesTypedAheadOfAQuestionRunAfterTheCommand() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"))
        for (remove, keep, enter) in [("Human:1002", "Human:1000", "\r"), ("Human:1000", "Human:1003", "\n")] {
            if keep == "Human:1003" {
                try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('Human:1003', '{"__typename":"Human"}')"#)
            }
            try type("rm \(remove)\(enter)keys Hu\(enter)pwd\(enter)")
            try waitFor("(\(remove))? [y/N] ")
            try type("y")
            try keys("Enter")
            try waitFor("gqlcache QUERY_ROOT> keys Hu\n\(keep)\ngqlcache QUERY_ROOT> pwd\nQUERY_ROOT\ngqlcache QUERY_ROOT> ")
            XCTAssertFalse(try keys(in: cache).contains(remove))
        }
    }

    /// A line typed ahead but not ended (no Enter) is no command: it is
    /// dropped with the rest of the unanswered input, not run.
    func testALineTypedAheadButNotEndedIsNotRun() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"))
        try type("rm Human:1002\nkeys")
        try waitFor("(Human:1002)? [y/N] ")
        try type("y")
        try keys("Enter")
        try waitFor("removed Human:1002")
        try type("pwd")
        try keys("Enter")
        try waitFor("gqlcache QUERY_ROOT> pwd\nQUERY_ROOT\ngqlcache QUERY_ROOT> ")
        let screen = try terminal!.screen()
        XCTAssertFalse(screen.contains("QUERY_ROOT> keys"), screen)
    }

    /// A terminal editor runs in the foreground: `edit` opens vi on the
    /// last query, and what is saved runs.
    func testEditOpensATerminalEditorInTheForeground() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try requireProgram(FileManager.default.isExecutableFile(atPath: "/usr/bin/vi") ? "/usr/bin/vi" : nil, "vi")
        try start(try copyOfFixture("starwars.sqlite"), history: path("history"), editor: "vi")
        try type(#"{ human(id: "1000") { name } }"#)
        try keys("Enter")
        try waitFor(#""name": "Luke Skywalker""#)
        try type("edit")
        try keys("Enter")
        try waitFor(#"{ human(id: "1000") { name } }"#)
        try type(":s/name/homePlanet/")
        try keys("Enter")
        try type(":wq")
        try keys("Enter")
        try waitFor(#""homePlanet": "Tatooine""#)
        // What ran is in the history, after 'edit'.
        XCTAssertEqual(try String(contentsOfFile: path("history"), encoding: .utf8).split(separator: "\n").suffix(2),
                       ["edit", #"{ human(id: "1000") { homePlanet } }"#])
    }

    /// With output to a file, the editor draws on the terminal, as the
    /// prompt then does: the file holds the queries' data alone.
    func testWithOutputToAFileTheEditorDrawsOnTheTerminal() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try requireProgram(FileManager.default.isExecutableFile(atPath: "/usr/bin/vi") ? "/usr/bin/vi" : nil, "vi")
        let saved = path("saved.txt")
        try start(try copyOfFixture("starwars.sqlite") + " > " + saved, history: path("history"), editor: "vi")
        try type(#"{ human(id: "1000") { name } }"#)
        try keys("Enter")
        try waitFor("gqlcache QUERY_ROOT> { human(id: \"1000\") { name } }\ngqlcache QUERY_ROOT> ")
        try type("edit")
        try keys("Enter")
        // vi's screen: the query, then its marks for lines past the end.
        try waitFor(#"{ human(id: "1000") { name } }"# + "\n~\n~")
        try type(":s/name/homePlanet/")
        try keys("Enter")
        try type(":wq")
        try keys("Enter")
        try waitFor("gqlcache QUERY_ROOT> edit\ngqlcache QUERY_ROOT> ")
        try keys("C-d")
        try waitFor("EXIT=0")
        XCTAssertEqual(try String(contentsOfFile: saved, encoding: .utf8),
                       "{\n  \"human\": {\n    \"name\": \"Luke Skywalker\"\n  }\n}\n{\n  \"human\": {\n    \"homePlanet\": \"Tatooine\"\n  }\n}\n")
    }

    /// A paste of several lines runs them one by one, as typed, not as one
    /// command whose arguments are the other lines.
    func testAPasteOfSeveralLinesRunsEachLineAsACommand() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try start(try copyOfFixture("starwars.sqlite"), history: path("history"))
        try terminal?.paste("keys Droid:%\npwd\n")
        try keys("Enter")
        try waitFor("Droid:2001\nDroid:2001.friendsConnection(after:null,first:2)\nQUERY_ROOT\ngqlcache QUERY_ROOT> ")
    }

    /// A file name with a space completes in quotes, so that the command
    /// finds the file.
    func testTabCompletesAFileNameWithASpaceInQuotes() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: path("my cache.sqlite"))
        try start(cache, history: path("history"))
        try type("open my")
        try keys("Tab")
        try waitFor("gqlcache QUERY_ROOT> open \"my cache.sqlite\" ")
        try keys("Enter")
        try waitFor("opened my cache.sqlite\ngqlcache QUERY_ROOT> ")
        // A double quote or a backslash in the name is escaped inside the quotes.
        try FileManager.default.copyItem(atPath: cache, toPath: path(#"say "hi" \ x.sqlite"#))
        try type("open sa")
        try keys("Tab")
        try waitFor(#"gqlcache QUERY_ROOT> open "say \"hi\" \\ x.sqlite" "#)
        try keys("Enter")
        try waitFor(#"opened say "hi" \ x.sqlite"# + "\ngqlcache QUERY_ROOT> ")
    }

    /// Back from a stop (Ctrl-Z, then fg), the prompt and the line typed so
    /// far are drawn again.
    func testTheLineIsDrawnAgainWhenTheREPLContinuesAfterAStop() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"))
        try type("show Dro")
        try waitFor("gqlcache QUERY_ROOT> show Dro")
        let pid = try XCTUnwrap(Int32(try output(of: "pgrep -f '^\(builtBinary) repl \(cache)$'").trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGSTOP)
        try terminal?.clearScreen()
        XCTAssertFalse(try terminal!.screen().contains("show Dro"))
        kill(pid, SIGCONT)
        try waitFor("gqlcache QUERY_ROOT> show Dro")
        try type("id:2001")
        try keys("Enter")
        try waitFor("Droid:2001 (Droid)")
    }

    /// Ctrl-\ at the prompt does nothing, as in bash: quitting there would
    /// leave the terminal without echo.
    func testCtrlBackslashAtThePromptIsIgnored() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"))
        try type("show Dro")
        // On screen first: the signal flushes the terminal's input that readline has not read yet.
        try waitFor("gqlcache QUERY_ROOT> show Dro")
        try keys("C-\\")
        try type("id:2001")
        try keys("Enter")
        try waitFor("Droid:2001 (Droid)")
        XCTAssertFalse(try terminal!.screen().contains("crashed"))
    }

    /// Ctrl-\ (or SIGTERM, or a closed terminal) while a command writes:
    /// the write rolls back and the session ends with 130, as a command
    /// line's does, rather than dying with a hot -journal beside the file.
    func testCtrlBackslashDuringAWriteRollsItBackAndEndsTheSession() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = path("large.sqlite")
        _ = try CacheStore.create(at: cache)
        try sqliteShell(cache, """
            INSERT INTO records (key, record) VALUES ('QUERY_ROOT', '{"__typename":"Query"}');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000)
            INSERT INTO records (key, record) SELECT 'Post:' || i, '{"__typename":"Post","id":"' || i || '"}' FROM n;
            """)
        try start(cache, history: path("history"))
        try type("rm --type Post --force")
        try keys("Enter")
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: cache + "-journal") {
            guard Date() < deadline else { return XCTFail("the write never started") }
            usleep(500)
        }
        try keys("C-\\")
        try waitFor("gqlcache: \(cache): interrupted; nothing was changed\nEXIT=130")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-journal"))
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records", readOnly: true), "300001")
    }

    /// SIGTERM at the prompt ends the session as it ends any program, with
    /// the terminal given back as it was (readline's mode has no echo).
    func testSIGTERMAtThePromptGivesTheTerminalBackBeforeTheSessionEnds() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"), after: "stty -a | tr ' ' '\\n' | grep -x -- '-\\{0,1\\}icanon'")
        try type("show Dro")
        // Echoed, so readline has it, before the signal comes.
        try waitFor("gqlcache QUERY_ROOT> show Dro")
        let pid = try XCTUnwrap(Int32(try output(of: "pgrep -f '^\(builtBinary) repl \(cache)$'").trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        // (The shell may say "Terminated" on the line the prompt's is ended for.)
        try waitFor("EXIT=143\nicanon\n")
        XCTAssertTrue(try terminal!.screen().contains("gqlcache QUERY_ROOT> show Dro\n"))
    }

    /// Ctrl-C at a command's question gives the question up: nothing is
    /// removed, and what is typed next is a command again.
    func testCtrlCAtAQuestionAnswersNoAndTheNextLineIsACommand() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        try start(cache, history: path("history"))
        try type("rm Human:1002")
        try keys("Enter")
        try waitFor("(Human:1002)? [y/N] ")
        try keys("C-c")
        try waitFor("gqlcache: nothing removed\ngqlcache QUERY_ROOT> ")
        try type("y")
        try keys("Enter")
        try waitFor("gqlcache: unknown command 'y'")
        XCTAssertTrue(try keys(in: cache).contains("Human:1002"))
    }

    /// A named pipe given as a document or an import waits for a program
    /// to write to it; Ctrl-C stops that wait as it stops any command, and
    /// the command never runs. Written to, it reads as a file does.
    func testCtrlCStopsACommandWaitingOnANamedPipe() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(mkfifo(path("pipe.graphql"), 0o600), 0)
        try start(cache, history: path("history"))
        for command in ["read --document pipe.graphql", "import pipe.graphql"] {
            try type(command)
            try keys("Enter")
            Thread.sleep(forTimeInterval: 0.3)
            try keys("C-c")
            try waitFor("gqlcache: pipe.graphql: interrupted while waiting for a program to write to the named pipe\ngqlcache QUERY_ROOT> ")
            try type("status")
            try keys("Enter")
            try waitFor("status\n130\n")
        }
        try type("read --document pipe.graphql --format json")
        try keys("Enter")
        Thread.sleep(forTimeInterval: 0.3)
        _ = try output(of: "echo '{ hero(episode: NEWHOPE) { name } }' > '\(path("pipe.graphql"))'")
        try waitFor(#"{"hero":{"name":"R2-D2"}}"#)
    }

    /// A query typed over three lines is one history entry: Up brings it
    /// back whole, in this session and the next, and it runs as it did.
    func testAStatementOverSeveralLinesIsOneHistoryEntryAcrossSessions() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        let history = path("history")
        try start(cache, history: history)
        try type("query {")
        try keys("Enter")
        try type("  # a } in a comment")
        try keys("Enter")
        try type("  hero(episode: NEWHOPE) { name }")
        try keys("Enter")
        try type("}")
        try keys("Enter")
        // The prompt back first: keys pressed while the result prints reach the terminal's own line editing.
        try waitFor("    \"name\": \"R2-D2\"\n  }\n}\ngqlcache QUERY_ROOT> ")
        try keys("C-l", "Up")
        // At the top of the cleared screen, not the statement as it was typed.
        try waitFor("gqlcache QUERY_ROOT> query {\n  # a } in a comment\n  hero(episode: NEWHOPE) { name }\n}", atTop: true)
        try keys("C-u", "C-d")
        try waitFor("EXIT=0")
        terminal?.kill()

        try start(cache, history: history)
        try keys("C-l", "Up")
        try waitFor("gqlcache QUERY_ROOT> query {\n  # a } in a comment\n  hero(episode: NEWHOPE) { name }\n}")
        try keys("Enter")
        try waitFor("}\n{\n  \"hero\": {\n    \"name\": \"R2-D2\"\n  }\n}\ngqlcache QUERY_ROOT> ")
    }

    /// The history keeps a line once when it comes again, without the
    /// space a Tab left after it, and keeps a statement Ctrl-D left unfinished.
    func testHistoryKeepsRepeatsOnceAndAStatementLeftUnfinished() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = try copyOfFixture("starwars.sqlite")
        let history = path("history")
        try start(cache, history: history)
        for line in ["pwd", "pwd ", "pwd", #"show Note:a\ "#, "{ hero(episode: NEWHOPE) {"] {
            try type(line)
            try keys("Enter")
        }
        try waitFor("    ...> ")
        try keys("C-d")
        try waitFor("EXIT=2")
        let entries = try String(contentsOfFile: history, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(entries, ["pwd", #"show Note:a\ "#, "{ hero(episode: NEWHOPE) {"])
    }

    /// A key with spaces in it (a mutation's input) comes quoted from Tab,
    /// so the completed command finds it; inside a quote already opened too.
    func testTabQuotesKeysWithSpacesSoTheCompletedCommandFindsThem() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try start(try copyOfFixture("starwars.sqlite"), history: path("history"))
        let mutation = "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])"
        try type("show MUTATION_ROOT.")
        try keys("Tab")
        try waitFor("show '\(mutation)'")
        try keys("Enter")
        try waitFor("\(mutation) (Review)\n")
        try keys("C-l")
        try type("show \"MUTATION_ROOT.cr")
        try keys("Tab")
        try waitFor("show \"\(mutation)\"")
        try keys("Enter")
        try waitFor("\(mutation) (Review)\n")
        try keys("C-l")
        // A field's key with spaces that holds a list: Tab stops at the
        // index, its quote open, and the index goes on the same word.
        try type("cd sea")
        try keys("Tab")
        try waitFor("cd 'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky]).")
        try type("0.0'")
        try keys("Enter")
        try waitFor("gqlcache Human:1000> ")
    }

    /// Tab-Tab lists keys as every other listing shows them: a right-to-left
    /// override or a newline in one is escaped in quotes, so the list
    /// cannot reorder itself or break its lines.
    func testTabTabListsKeysWithControlCharactersEscaped() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let evil: [String: FieldValue] = ["__typename": .string("Evil")]
        let cache = try makeCache("evil.sqlite", [
            Record(key: .queryRoot, fields: ["a": .int(1)]),
            Record(key: "Evil:1\u{202E}gnp.exe", fields: evil), Record(key: "Evil:2", fields: evil), Record(key: "Evil:3\nx", fields: evil),
        ])
        try start(cache, history: path("history"))
        try type("show Evil:")
        try keys("Tab", "Tab")
        try waitFor(#""Evil:1\u202egnp.exe"  Evil:2                 "Evil:3\nx""#)
        // File names are listed by their last part, escaped the same way.
        try keys("C-u")
        let documents = folder.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        for name in ["q\nx.graphql", "q\u{202E}b.graphql", "qq.graphql"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: documents.appendingPathComponent(name).path, contents: Data()))
        }
        try type("read --document docs/q")
        try keys("Tab", "Tab")
        try waitFor(#""q\nx.graphql"      qq.graphql          "q\u202eb.graphql""#)
    }

    /// Output that ends mid-line (`keys -z`, NUL-separated) is ended
    /// before the prompt, which begins its own line.
    func testThePromptBeginsItsOwnLineAfterOutputThatEndsMidLine() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try start(try copyOfFixture("starwars.sqlite"), history: path("history"))
        try type("keys Starship -z")
        try keys("Enter")
        try waitFor("Starship:3001\ngqlcache QUERY_ROOT> \n")
    }

    /// At a terminal the REPL's help is wrapped to its width (150 here),
    /// the rest of an entry indented under it.
    func testHelpAtATerminalIsWrappedToItsWidth() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try start(try copyOfFixture("starwars.sqlite"), history: path("history"))
        try type("help cd")
        try keys("Enter")
        try waitFor("(or a path of them: cd\n  hero.friends.0), go back, return to where the last move started, or return to QUERY_ROOT\n")
    }

    /// Tab-Tab lists at most 200 keys; under a list cut short, a line says
    /// so, and how to see the rest.
    func testTabTabSaysWhenItListsOnlySomeOfTheKeys() throws {
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let post: [String: FieldValue] = ["__typename": .string("Post")]
        let cache = try makeCache("many.sqlite", (0..<250).map { Record(key: CacheKey("Post:\($0)"), fields: post) }
            + [Record(key: .queryRoot, fields: ["a": .int(1)])])
        try start(cache, history: path("history"))
        try type("show Post:")
        try keys("Tab", "Tab")
        try waitFor("(only the first 199 and the last of the keys that begin with 'Post:'; type more of the key to narrow them)")
    }
}
