import CacheStore
import Foundation
@testable import GQLCacheCommands
import XCTest

/// The committed completion scripts in real bash, zsh and fish, calling the
/// built gqlcache back for cache keys and definition names, on a copy of
/// starwars.sqlite. bash's completion function runs as bash calls it (its
/// words rebuilt from COMP_LINE and COMP_POINT) and once at a real prompt in
/// tmux; zsh runs at a real prompt in tmux; fish answers `complete -C`.
/// Skipped when a shell or tmux is missing, unless
/// GQLCACHE_REQUIRE_TERMINAL_TESTS is set (CI sets it).
final class ShellCompletionTests: CommandTestCase {
    var terminal: TmuxTerminal?

    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), "build gqlcache first: \(builtBinary)")
        _ = try copyOfFixture("starwars.sqlite")
        try """
            query HeroName { hero { name } }
            query HeroFriends { hero { friends { name } } }
            fragment DroidDetails on Droid { primaryFunction }
            """.write(toFile: path("starwars.graphql"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        terminal?.kill()
        try super.tearDownWithError()
    }

    func script(_ name: String) -> String { repositoryRoot.appendingPathComponent("completions/\(name)").path }

    func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A clean environment: the built gqlcache first on PATH, HOME the test folder.
    var environment: [String: String] {
        ["HOME": folder.path, "PATH": URL(fileURLWithPath: builtBinary).deletingLastPathComponent().path + ":/usr/bin:/bin", "TERM": "xterm"]
    }

    /// Runs `arguments` in the test folder; returns standard output. The
    /// shell loading the script, or completing, writes nothing on standard
    /// error: an error there would show in the user's prompt.
    func run(_ executable: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = folder
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(String(decoding: errorData, as: UTF8.self), "", "standard error", file: file, line: line)
        return String(decoding: data, as: UTF8.self)
    }

    /// Tab on a file the app holds with an exclusive lock (a commit under
    /// way) answers at once with no keys, not after the 5 s a command waits.
    func testKeysOfAFileHeldExclusivelyCompleteToNothingAtOnce() throws {
        let cache = path("starwars.sqlite")
        let app = try RunningSQLiteShell.holdingExclusiveLock(on: cache)
        defer { app.finish() }
        let started = Date()
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.sqlite Hu"), [])
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "it did not wait out the busy timeout")
    }

    // MARK: bash

    /// What bash's completion function offers with the cursor at the end of
    /// `line` (or after its first `cursor` characters), as bash calls it:
    /// COMP_LINE and COMP_POINT as typed, and COMP_WORDS split at
    /// COMP_WORDBREAKS as bash splits them.
    func bashCompletions(_ line: String, cursor: Int? = nil) throws -> [String] {
        let bash = try XCTUnwrap(shell("bash"))
        let program = """
            source "$1"
            COMP_LINE="$2"
            COMP_POINT=${3:-${#COMP_LINE}}
            # bash's own split: blanks and the COMP_WORDBREAKS characters.
            COMP_WORDS=($(printf '%s' "${COMP_LINE:0:${COMP_POINT}}" | sed -E 's/([:=(])/ \\1 /g'))
            [[ "${COMP_LINE:0:${COMP_POINT}}" =~ [[:space:]]$ ]] && COMP_WORDS+=('')
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _gqlcache_whole_words gqlcache "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        return try run(bash, ["--norc", "--noprofile", "-c", program, "bash", script("gqlcache.bash"), line] + (cursor.map { [String($0)] } ?? []))
            .split(separator: "\n").map(String.init)
    }

    /// bash at a real prompt in tmux, in the test folder, with the script sourced.
    func bashPrompt() throws -> TmuxTerminal {
        let env = environment.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let terminal = try TmuxTerminal("cd \(folder.path) && env -i \(env) PS1='$ ' bash --norc --noprofile")
        self.terminal = terminal
        try terminal.type("source \(script("gqlcache.bash")); echo READY\n")
        try terminal.waitFor("READY")
        return terminal
    }

    func testBashCompletesSubcommandsFlagsFilesAndKeysWithColonsWithoutChangingWordBreaks() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache sh"), ["show"])
        XCTAssertTrue(try bashCompletions("gqlcache ").contains("completions"))
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.sqlite --dr"), ["--dry-run"])
        // Typed whole, a command, flag or option is offered itself, so that bash ends it with a space.
        XCTAssertEqual(try bashCompletions("gqlcache info"), ["info"])
        XCTAssertEqual(try bashCompletions("gqlcache keys starwars.sqlite --count"), ["--count"])
        XCTAssertEqual(try bashCompletions("gqlcache keys starwars.sqlite --mode"), ["--mode"])
        XCTAssertEqual(try bashCompletions("gqlcache gc starwars.sqlite -q"), ["-q"])
        XCTAssertEqual(try bashCompletions("gqlcache keys starwars.sqlite --count --count"), [], "given already, it is not offered again")
        XCTAssertEqual(try bashCompletions("gqlcache show star"), ["starwars.sqlite"])
        // bash replaces only what follows the last ':' of the word, so that is what is offered.
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.sqlite Droid:"), ["2001", "2001.friendsConnection(after:null,first:2)"])
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite Hum"), ["Human:1000", "Human:1002"])
        XCTAssertEqual(try bashCompletions("gqlcache refs starwars.sqlite Hum"), ["Human:1000", "Human:1002"])
        // diff's second file is any file: usually a backup, which has no .sqlite at its end.
        try FileManager.default.copyItem(atPath: path("starwars.sqlite"), toPath: path("starwars.sqlite.backup-20261122-120000"))
        XCTAssertEqual(try bashCompletions("gqlcache diff starwars.sqlite starwars.sqlite.b"), ["starwars.sqlite.backup-20261122-120000"])
        // A backup is a cache file wherever one goes (diff's first, info, doctor); other files are not.
        try Data().write(to: URL(fileURLWithPath: path("starwars.sqlite.notes")))
        // (nor a copy cut short, left under its .partial name)
        try Data().write(to: URL(fileURLWithPath: path("starwars.sqlite.backup-20261122-130000.partial")))
        XCTAssertEqual(try bashCompletions("gqlcache diff starwars.sqlite."), ["starwars.sqlite.backup-20261122-120000"])
        XCTAssertEqual(try bashCompletions("gqlcache info starwars.sqlite."), ["starwars.sqlite.backup-20261122-120000"])
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.sqlite QUERY_ROOT.reviews(episode:JEDI,first:2)."), ["2).0", "2).1"])
        // A key typed with bash's own escapes, as bash completes it: an escaped
        // ':' does not break the word, so what follows the first ':' is offered.
        XCTAssertEqual(
            try bashCompletions(#"gqlcache rm starwars.sqlite Droid:2001.friendsConnection\(after\:"#), ["2001.friendsConnection(after:null,first:2)"])
    }

    /// A Tab leaves the shell as it was: no RETURN trap that would later
    /// reset every option at each `source`, no BASH_COMPAT, and the
    /// options the completion changes (extglob) back as the user had them.
    func testBashCompletionLeavesNoTrapVariableOrOptionBehind() throws {
        try requireProgram(shell("bash"), "bash")
        let bash = try XCTUnwrap(shell("bash"))
        let program = """
            source "$1"
            shopt -u extglob
            COMP_LINE="gqlcache sh"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(gqlcache sh); COMP_CWORD=1
            _gqlcache_whole_words gqlcache sh gqlcache
            printf 'offered %s\n' "${COMPREPLY[@]}"
            printf 'trap [%s]\n' "$(trap -p RETURN)"
            shopt -s globstar; source /dev/null; shopt -q globstar && echo 'globstar kept'
            shopt -q extglob || echo 'extglob off'
            declare -p BASH_COMPAT 2>/dev/null || echo 'no BASH_COMPAT'
            """
        let output = try run(bash, ["--norc", "--noprofile", "-c", program, "bash", script("gqlcache.bash")])
        XCTAssertEqual(output, "offered show\ntrap []\nglobstar kept\nextglob off\nno BASH_COMPAT\n")
    }

    /// A Tab reads the documents and the Apollo config named on the line
    /// only when they are regular files: a FIFO (or /dev/stdin) named by
    /// mistake would hang the prompt, /dev/zero would never end.
    func testDefinitionNamesReadNoFIFOOrDeviceNamedOnTheLine() throws {
        let fifo = path("config.json")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        final class Result: @unchecked Sendable { var names: (operations: [String], fragments: [String])? }
        let done = DispatchSemaphore(value: 0)
        let result = Result()
        Thread.detachNewThread {
            result.names = CompletionSources.definitionNames(documentFiles: [fifo, "/dev/zero"], apolloConfig: fifo)
            done.signal()
        }
        if done.wait(timeout: .now() + 5) == .timedOut {
            // Let the reader go: a writer that closes at once ends its read.
            FileHandle(forWritingAtPath: fifo)?.closeFile()
            _ = done.wait(timeout: .now() + 5)
            XCTFail("completion waited on a FIFO")
        }
        XCTAssertEqual(result.names?.operations, [])
        XCTAssertEqual(result.names?.fragments, [])
    }

    /// Nor a FIFO that a config's search path finds: a wildcard passes it
    /// by (a command's too), and a path the config names is read by a Tab
    /// only when it is a regular file. The other files are read.
    func testDefinitionNamesReadNoFIFOAConfigFinds() throws {
        let folder = path("app")
        try FileManager.default.createDirectory(atPath: folder + "/ops", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(folder + "/ops/a.graphql", 0o600), 0)
        XCTAssertEqual(mkfifo(folder + "/named.graphql", 0o600), 0)
        try "query Hero { hero { name } }".write(toFile: folder + "/ops/b.graphql", atomically: true, encoding: .utf8)
        let config = folder + "/apollo-codegen-config.json"
        try #"{"input": {"operationSearchPaths": ["ops/*.graphql", "named.graphql"], "schemaSearchPaths": ["schema.graphqls"]}}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        final class Result: @unchecked Sendable { var names: (operations: [String], fragments: [String])? }
        let done = DispatchSemaphore(value: 0)
        let result = Result()
        Thread.detachNewThread {
            result.names = CompletionSources.definitionNames(documentFiles: [], apolloConfig: config)
            done.signal()
        }
        if done.wait(timeout: .now() + 5) == .timedOut {
            for fifo in [folder + "/ops/a.graphql", folder + "/named.graphql"] { FileHandle(forWritingAtPath: fifo)?.closeFile() }
            _ = done.wait(timeout: .now() + 5)
            XCTFail("completion waited on a FIFO")
        }
        XCTAssertEqual(result.names?.operations, ["Hero"])
        XCTAssertEqual(try ApolloConfig.load(config).operationFiles(), [folder + "/ops/b.graphql", folder + "/named.graphql"])
    }

    func testBashCompletesOperationFragmentAndKeyFromTheDocumentOnTheCommandLine() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --document starwars.graphql Hero"), ["HeroFriends", "HeroName"])
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --document starwars.graphql --fragment "), ["DroidDetails"])
        // An operation does not go with --fragment: none is offered once it is given.
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --document starwars.graphql --fragment DroidDetails Hero"), [])
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --document starwars.graphql --fragment=DroidDetails Hero"), [])
        // The document may come after the word at the cursor.
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite HeroN --document starwars.graphql", cursor: 35), ["HeroName"])
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.sqlite Star --dry-run", cursor: 32), ["Starship:3001"])
        // A file named in double quotes, with a quote escaped in them.
        try FileManager.default.copyItem(atPath: path("starwars.sqlite"), toPath: path(#"it's "q".sqlite"#))
        XCTAssertEqual(try bashCompletions(#"gqlcache show "it's \"q\".sqlite" Star"#), ["Starship:3001"])
        // Before another character the backslash stays, as the shell keeps it.
        try FileManager.default.copyItem(atPath: path("starwars.sqlite"), toPath: path(#"a\b.sqlite"#))
        XCTAssertEqual(try bashCompletions(#"gqlcache show "a\b.sqlite" Star"#), ["Starship:3001"])
        // update is offered only the local cache mutations it takes.
        let blog = repositoryRoot.appendingPathComponent("Examples/blog.graphql").path
        XCTAssertEqual(try bashCompletions("gqlcache update starwars.sqlite --document \(blog) "), ["RenameViewer"])
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --document \(blog) R"), ["RenameViewer"])
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --fragment DroidDetails --key Dr"), ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        // No cache file, or not a cache: nothing offered, nothing printed, nothing created.
        XCTAssertEqual(try bashCompletions("gqlcache rm missing.sqlite Droid:"), [])
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.graphql Droid:"), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing.sqlite")))
    }

    /// The shells hand the words over as typed: a file named through an
    /// exported variable is read as the shell will read it.
    func testAFileNamedThroughAnExportedVariableCompletesItsKeysAndNames() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache show $HOME/starwars.sqlite Hum"), ["Human:1000", "Human:1002"])
        XCTAssertEqual(try bashCompletions(#"gqlcache show "${HOME}/starwars.sqlite" Hum"#), ["Human:1000", "Human:1002"])
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --document $HOME/starwars.graphql Hero"), ["HeroFriends", "HeroName"])
        // Single quotes, an escaped '$' and a variable not exported are taken as typed.
        XCTAssertEqual(try bashCompletions("gqlcache show '$HOME/starwars.sqlite' Hum"), [])
        XCTAssertEqual(try bashCompletions(#"gqlcache show \$HOME/starwars.sqlite Hum"#), [])
        XCTAssertEqual(try bashCompletions("gqlcache show $GQLCACHE_UNSET_VARIABLE/starwars.sqlite Hum"), [])
        XCTAssertEqual(ShellCompletion.unquoted(#"$A${A}$B "$A" '$A' \$A $1 ${A"#, expanding: ["A": "x"]), #"xx$B x $A $A $1 ${A"#)
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache show $HOME/starwars.sqlite Hu"), ["Human:1000", "Human:1002"])
    }

    func testBashCompletesTypeWithTheTypenamesTheFileHolds() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(
            try bashCompletions("gqlcache keys starwars.sqlite --type "), ["Droid", "FriendsConnection", "Human", "Review", "Starship"])
        XCTAssertEqual(try bashCompletions("gqlcache keys starwars.sqlite --type S"), ["Starship"])
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.sqlite --type Hu"), ["Human"])
        XCTAssertEqual(try bashCompletions("gqlcache rm missing.sqlite --type "), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing.sqlite")))
    }

    func testGrepFieldCompletesTheFieldNamesTheRecordsHold() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache grep starwars.sqlite Luke --field fr"), ["friends", "friendsConnection"])
        XCTAssertEqual(try bashCompletions("gqlcache grep starwars.sqlite Luke --field=pri"), ["primaryFunction"])
        XCTAssertEqual(try bashCompletions("gqlcache grep missing.sqlite Luke --field "), [])
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache grep starwars.sqlite Luke --field 'friendsConnection("), ["friendsConnection(after:null,first:2)"])
    }

    func testBashAtARealPromptCompletesAKeyAfterItsColon() throws {
        try requireProgram(shell("bash"), "bash")
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let terminal = try bashPrompt()
        try terminal.type("gqlcache rm starwars.sqlite Droid:")
        try terminal.press("Tab")
        try terminal.waitFor("$ gqlcache rm starwars.sqlite Droid:2001")
        try terminal.press("Tab", "Tab")
        try terminal.waitFor("2001.friendsConnection(after:null,first:2)")
        try terminal.type(".f")
        try terminal.press("Tab")
        try terminal.waitFor(#"$ gqlcache rm starwars.sqlite Droid:2001.friendsConnection\(after\:null\,first\:2\)"#)
        try terminal.press("C-u")
        try terminal.type(#"gqlcache rm starwars.sqlite 'QUERY_ROOT.reviews(episode:JEDI,first:2).1' QUERY_ROOT.reviews\(episode\:JEDI\,first\:2\).0 Starsh"#)
        try terminal.press("Tab")
        try terminal.waitFor(#"\,first\:2\).0 Starship\:3001"#)
        try terminal.press("Enter")
        try terminal.waitFor("removed 3 records")
        XCTAssertFalse(try keys(in: path("starwars.sqlite")).contains("Starship:3001"))
    }

    /// bash completes host names after '@' by default (hostcomplete), which
    /// makes '@' break words, and readline keeps it in the word it begins:
    /// a key like an e-mail address keeps its '@', typed or completed, with
    /// hostcomplete on or off (bash-completion turns it off).
    func testBashAtARealPromptKeepsTheAtSignOfAKey() throws {
        try requireProgram(shell("bash"), "bash")
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let cache = path("starwars.sqlite")
        XCTAssertEqual(gqlcache(arguments: ["import", cache, "-"], input: #"{"key":"User:alice@example.com","record":{"n":1}}"#).status, .success)
        let terminal = try bashPrompt()
        // Cleared, and known to be: what the step before showed is gone
        // (the marker is printed, computed, only once clear has run).
        func clearScreen() throws {
            try terminal.type("clear; echo CLEARED$((40+2))\n")
            try terminal.waitFor("CLEARED42")
        }
        for setting in ["-s", "-u"] {
            try terminal.type("shopt \(setting) hostcomplete\n")
            // Typed up to the @ and past it, Tab completes the whole key, which shows the record.
            for typed in ["User:alice@example.c", "User:al"] {
                try clearScreen()
                try terminal.type("gqlcache show starwars.sqlite \(typed)")
                try terminal.press("Tab")
                try terminal.waitFor("example.com ")
                try terminal.press("Enter")
                try terminal.waitFor("└─ n: 1")
            }
        }
    }

    /// In a folder holding one named like a command (the repository's
    /// completions/), the command still completes as a command.
    func testBashAtARealPromptCompletesACommandNamedLikeAFolderWithoutASlash() throws {
        try requireProgram(shell("bash"), "bash")
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        try FileManager.default.createDirectory(atPath: path("completions"), withIntermediateDirectories: true)
        try completeAndRun(in: try bashPrompt(), typing: "gqlcache comp", then: "bash | head -1",
                           line: "$ gqlcache completions bash | head -1", shows: "#!/bin/bash")
    }

    /// Types `typed` at the prompt, presses Tab, types `then`, waits for
    /// the whole `line`, runs it and waits for `shows`.
    func completeAndRun(in terminal: TmuxTerminal, typing typed: String, then rest: String, line: String, shows output: String) throws {
        try terminal.type(typed)
        try terminal.press("Tab")
        try terminal.type(rest)
        try terminal.waitFor(line)
        try terminal.press("Enter")
        try terminal.waitFor(output)
    }

    /// A key named like a folder beside the cache (QUERY_ROOT, or one made
    /// by hand) is a key: bash's file name completion would end it with
    /// '/', and the line would name no record.
    func testBashCompletesAKeyNamedLikeAFolderWithoutASlash() throws {
        try requireProgram(shell("bash"), "bash")
        for folderName in ["Starship:3001", "QUERY_ROOT"] {
            try FileManager.default.createDirectory(atPath: path(folderName), withIntermediateDirectories: true)
        }
        XCTAssertEqual(try bashCompletions("gqlcache rm starwars.sqlite Stars"), [#"Starship:3001"#])
        // Quoted as bash quotes file names, so that the line names the keys.
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite QUERY_R"), [
            "QUERY_ROOT", #"QUERY_ROOT.reviews\(episode:JEDI\,first:2\).0"#, #"QUERY_ROOT.reviews\(episode:JEDI\,first:2\).1"#,
        ])
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let terminal = try bashPrompt()
        try completeAndRun(in: terminal, typing: "gqlcache show starwars.sqlite Starsh", then: "| head -1",
                           line: "$ gqlcache show starwars.sqlite Starship:3001 | head -1", shows: "\nStarship:3001 (Starship)\n")
        // In an open quote, bash closes the quote after the key, escaping in
        // it what that quote needs.
        _ = try sqliteShell(path("starwars.sqlite"), #"INSERT INTO records(key, record) VALUES ('Z''z:1', '{}'), ('D$\"`:1', '{}');"#)
        for folderName in ["Z'z:1", #"D$\"`:1"#] {
            try FileManager.default.createDirectory(atPath: path(folderName), withIntermediateDirectories: true)
        }
        try terminal.press("C-l")
        try completeAndRun(in: terminal, typing: "gqlcache show starwars.sqlite 'Starsh", then: "| head -1",
                           line: "$ gqlcache show starwars.sqlite 'Starship:3001' | head -1", shows: "\nStarship:3001 (Starship)\n")
        try terminal.press("C-l")
        try completeAndRun(in: terminal, typing: "gqlcache show starwars.sqlite 'Z", then: "| head -1",
                           line: #"$ gqlcache show starwars.sqlite 'Z'\''z:1' | head -1"#, shows: "\nZ'z:1\n")
        try terminal.press("C-l")
        try completeAndRun(in: terminal, typing: "gqlcache show starwars.sqlite \"D$", then: "| head -1",
                           line: #"$ gqlcache show starwars.sqlite "D\$\\\"\`:1" | head -1"#, shows: "\n" + #"D$\"`:1"# + "\n")
    }

    /// A key beginning with '~' is escaped (bash would take '~root' for a
    /// home folder, end it with '/', and expand it on the line), also after
    /// a ':', where bash splits the word.
    func testBashEscapesAKeyBeginningWithATilde() throws {
        try requireProgram(shell("bash"), "bash")
        _ = try sqliteShell(path("starwars.sqlite"), #"INSERT INTO records(key, record) VALUES ('~root', '{}'), ('Tilde:~root', '{}');"#)
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite ~r"), [#"\~root"#])
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite Tilde:"), [#"\~root"#])
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let terminal = try bashPrompt()
        try completeAndRun(in: terminal, typing: "gqlcache show starwars.sqlite Tilde:", then: "| head -1",
                           line: #"$ gqlcache show starwars.sqlite Tilde:\~root | head -1"#, shows: "\nTilde:~root\n")
    }

    /// Past the limit, the last key offered is the greatest one a shell can
    /// take: one holding a tab or a line break, never offered, would leave
    /// its place empty, and Tab would fill in a prefix that hides the rest.
    func testPastTheKeyLimitTheLastKeyOfferedIsTheGreatestAShellCanTake() throws {
        try requireProgram(shell("bash"), "bash")
        _ = try sqliteShell(path("starwars.sqlite"), """
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 250)
            INSERT INTO records(key, record) SELECT 'K:aaa' || i, '{}' FROM c;
            INSERT INTO records(key, record) VALUES ('K:b', '{}'), ('K:c' || char(9) || 'x', '{}'), ('K:d' || char(10), '{}');
            """)
        let offered = try bashCompletions("gqlcache show starwars.sqlite K:")
        XCTAssertEqual(offered.count, 200)
        XCTAssertEqual(offered.last, "b")
        XCTAssertFalse(offered.contains { $0.hasPrefix("c") || $0.hasPrefix("d") })
    }

    /// Cache files come from devices and apps: completing a key must
    /// neither run nor expand what it holds, and the completed line must
    /// name the key.
    func testBashOffersKeysAsTheyAreAndRunsNothingInThem() throws {
        try requireProgram(shell("bash"), "bash")
        let cache = path("starwars.sqlite")
        _ = try sqliteShell(cache, """
            INSERT INTO records(key, record) VALUES
              ('Evil:$(touch ran)`touch ran2`', '{}'), ('Var:$HOME', '{}'), ('Quote:it''s "x" a\\b', '{}'),
              ('Line:a' || char(10) || 'b', '{}'), ('Line:c', '{}'), ('Line:t' || char(9) || 'x', '{}'),
              ('Line:n' || char(0) || 'x', '{}'), ('Line:e' || char(27) || '[31mRED', '{}'), ('Line:' || char(7), '{}'),
              (CAST(X'4C696E653AFF' AS TEXT), '{}'), ('Line:bidi' || char(8238) || 'x', '{}'), ('Line:zw' || char(8203) || 'x', '{}'),
              ('Line:é👩' || char(8205) || '👧', '{}'), ('Line:nbsp' || char(160), '{}'), ('Line:ideo' || char(12288), '{}'),
              ('Line:mid' || char(160) || 'x', '{}')
            """)
        // One candidate a line: a key with a line break would be two wrong
        // words, and fish takes a tab for the start of a description. A NUL
        // cuts the word (bash warns of it in the prompt), an escape sequence
        // would be inserted raw, and bytes that are not UTF-8 come out as
        // U+FFFD, naming another key. A right-to-left override or a
        // zero-width space would be inserted unseen, and so would a space
        // other than ASCII's at an end (between two letters it shows); a
        // joiner that joins two emoji shows what it joins, and is offered.
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite Li"), ["Line:c", "Line:mid\u{00A0}x", "Line:é👩\u{200D}👧"])
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite Ev"), [#"Evil:\$\(touch\ ran\)\`touch\ ran2\`"#])
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite Va"), [#"Var:\$HOME"#])
        // No '$' or '`': offered as printed, for bash's own file name quoting.
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite Quo"), [#"Quote:it's "x" a\b"#])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("ran")), "a Tab ran the command substitution in a key")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("ran2")), "a Tab ran the backquotes in a key")

        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let terminal = try bashPrompt()
        // At a real prompt: the completed word, run, shows that very record
        // (its key, as show prints it, appears only in the output).
        for (typed, key) in [("Ev", "Evil:$(touch ran)`touch ran2`"), ("Va", "Var:$HOME"), ("Quo", #"Quote:it's "x" a\b"#)] {
            try terminal.type("gqlcache show starwars.sqlite \(typed)")
            try terminal.press("Tab")
            try terminal.press("Enter")
            try terminal.waitFor("\n" + key + "\n")
            try terminal.type("clear\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("ran")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("ran2")))
    }

    func testHelpCompletesTheCommandToExplainOnce() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache help st"), ["stats"])
        XCTAssertTrue(try bashCompletions("gqlcache help ").contains("completions"))
        XCTAssertEqual(try bashCompletions("gqlcache help stats st"), [])
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache help st"), ["stats"])
        XCTAssertEqual(try fishCompletions("gqlcache help stats st"), [])
    }

    func testAValueTypedAfterEqualsCompletesAsTheOptionsValue() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache keys starwars.sqlite --format=j"), ["json", "jsonl"])
        XCTAssertEqual(try bashCompletions("gqlcache keys starwars.sqlite --type=Dr"), ["Droid"])
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --key=Dro"), ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        // bash's own word begins after the value's last ':'.
        XCTAssertEqual(try bashCompletions("gqlcache read starwars.sqlite --key=Droid:"), ["2001", "2001.friendsConnection(after:null,first:2)"])
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite --format=json Hu"), ["Human:1000", "Human:1002"])
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache read starwars.sqlite --key=Dro"), ["--key=Droid:2001", "--key=Droid:2001.friendsConnection(after:null,first:2)"])
        XCTAssertEqual(try fishCompletions("gqlcache keys starwars.sqlite --type=Dr"), ["--type=Droid"])
    }

    // MARK: zsh

    /// `gqlcache CACHE` opens the REPL: a first word that no command name
    /// starts is a file name, one that a command starts stays a command.
    func testAFirstWordNoCommandStartsCompletesAsACacheFile() throws {
        try FileManager.default.createDirectory(atPath: path("caches"), withIntermediateDirectories: true)
        _ = try copyOfFixture("starwars.sqlite", as: "caches/app cache.sqlite")
        // Only cache files, and folders on the way to them, as after 'gqlcache info '.
        try "notes".write(toFile: path("caches/notes.txt"), atomically: true, encoding: .utf8)
        try "notes".write(toFile: path("starwars.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("caches/old"), withIntermediateDirectories: true)
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache starwars."), ["starwars.sqlite"])
        XCTAssertEqual(try bashCompletions("gqlcache caches/").sorted(), ["caches/app cache.sqlite", "caches/old"])
        XCTAssertEqual(try bashCompletions("gqlcache st"), ["stats"])
        XCTAssertFalse(try bashCompletions("gqlcache ").contains("starwars.sqlite"))
        XCTAssertEqual(try bashCompletions("gqlcache --v"), ["--version"])
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache starwars."), ["starwars.sqlite"])
        XCTAssertEqual(try fishCompletions("gqlcache caches/").sorted(), ["caches/app cache.sqlite", "caches/old/"])
        XCTAssertEqual(try fishCompletions("gqlcache st"), ["stats"])
        XCTAssertFalse(try fishCompletions("gqlcache ").contains("starwars.sqlite"))
    }

    /// After `gqlcache CACHE ` come the REPL's options, as for `gqlcache
    /// repl CACHE `: a command name there is refused ("the command comes
    /// first"), so none is offered.
    func testAfterACacheFileFirstTheREPLsOptionsAreOfferedNotCommands() throws {
        try requireProgram(shell("bash"), "bash")
        XCTAssertEqual(try bashCompletions("gqlcache starwars.sqlite --b"), ["--bail", "--busy-timeout"])
        XCTAssertEqual(try bashCompletions("gqlcache starwars.sqlite ").filter { !$0.hasPrefix("-") }, [])
        XCTAssertEqual(try bashCompletions("gqlcache show starwars.sqlite Human:100"), ["1000", "1002"], "from the colon, where bash's word starts")
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache starwars.sqlite --b"), ["--bail", "--busy-timeout"])
        XCTAssertEqual(try fishCompletions("gqlcache starwars.sqlite "), [])
        XCTAssertEqual(try fishCompletions("gqlcache show starwars.sqlite Human:100"), ["Human:1000", "Human:1002"])
    }

    func testZshAtARealPromptCompletesSubcommandsFlagsFilesAndWholeKeys() throws {
        try requireProgram(shell("zsh"), "zsh")
        try requireProgram(TmuxTerminal.tmuxPath, "tmux")
        let functions = path("zfunc")
        try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: script("_gqlcache"), toPath: functions + "/_gqlcache")
        let env = environment.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let terminal = try TmuxTerminal("cd \(folder.path) && env -i \(env) zsh -f")
        self.terminal = terminal
        try terminal.type("fpath=(\(functions) $fpath); autoload -U compinit; compinit -u; PS1='%% '; echo READY\n")
        try terminal.waitFor("READY")

        try terminal.type("gqlcache sta")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache stats ")
        try terminal.press("C-u")
        // 'gqlcache CACHE' opens the REPL: a word no command starts is a file.
        try terminal.type("gqlcache starwars.s")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache starwars.sqlite ")
        // ...and what follows it is what follows 'gqlcache repl CACHE'.
        try terminal.type("--bu")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache starwars.sqlite --busy-timeout")
        try terminal.press("C-u")
        try terminal.type("gqlcache sh")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache show ")
        try terminal.type("star")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache show starwars.sqlite ")
        try terminal.type("--dep")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache show starwars.sqlite --depth ")
        try terminal.press("C-u")

        // Keys are offered whole: not cut at ':' into a value and a description.
        try terminal.type("gqlcache rm starwars.sqlite Droid:")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache rm starwars.sqlite Droid:2001")
        try terminal.press("Tab")
        try terminal.waitFor("Droid:2001                                        Droid:2001.friendsConnection(after:null,first:2)")
        try terminal.press("C-u")
        // A `!` in a key is escaped, or zsh would take it for a history event at Enter.
        try terminal.type("gqlcache rm starwars.sqlite MUTATION_ROOT.")
        try terminal.press("Tab")
        try terminal.waitFor(#"great\ movie\!,stars:5\]\)"#)
        try terminal.type(" --dry-run\n")
        try terminal.waitFor("would remove 1 record")
        try terminal.type("gqlcache read starwars.sqlite --document starwars.graphql HeroN")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache read starwars.sqlite --document starwars.graphql HeroName ")
        try terminal.press("C-u")
        try terminal.type("gqlcache keys starwars.sqlite --type Fr")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache keys starwars.sqlite --type FriendsConnection ")
        try terminal.press("C-u")
        try terminal.type("gqlcache help doc")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache help doctor ")
        try terminal.press("C-u")
        // A value after '=', and what follows such a word.
        try terminal.type("gqlcache keys starwars.sqlite --type=Dr")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache keys starwars.sqlite --type=Droid ")
        try terminal.press("C-u")
        try terminal.type("gqlcache show starwars.sqlite --format=text Hu")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache show starwars.sqlite --format=text Human:100")
        try terminal.press("C-u")
        // A key typed before an option, the cursor taken back to it: zsh
        // hands over the whole line, whose last word is not the key's.
        try terminal.type("gqlcache rm starwars.sqlite Star --dry-run")
        for _ in 0..<10 { try terminal.press("Left") }
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache rm starwars.sqlite Starship:3001  --dry-run")
        try terminal.press("C-u")
        // A word typed in quotes, which zsh takes out of LBUFFER while it
        // completes: the cursor's place is in the word as typed, so a field's
        // arguments complete after '(' and a space in the quotes is no break.
        try terminal.type("gqlcache grep starwars.sqlite Luke --field 'height(")
        try terminal.press("Tab")
        try terminal.waitFor("% gqlcache grep starwars.sqlite Luke --field 'height(unit:FOOT)'")
        try terminal.press("C-u")
        let spaced = (0..<250).map { #"{"key":"Aa:\#($0)","record":{"n":1}}"# } + [#"{"key":"Zz:has space","record":{"n":1}}"#]
        XCTAssertEqual(gqlcache(arguments: ["import", path("starwars.sqlite"), "-"], input: spaced.joined(separator: "\n")).status, .success)
        try terminal.type(#"gqlcache show starwars.sqlite "Zz:has s"#)
        try terminal.press("Tab")
        try terminal.waitFor(#"% gqlcache show starwars.sqlite "Zz:has space""#)
    }

    // MARK: fish

    func fishCompletions(_ line: String) throws -> [String] {
        let fish = try XCTUnwrap(shell("fish"))
        return try run(fish, ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script("gqlcache.fish"), line])
            .split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    func testFishCompletesSubcommandsFlagsFilesKeysAndOperations() throws {
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache sh"), ["show"])
        XCTAssertEqual(try fishCompletions("gqlcache rm starwars.sqlite --dr"), ["--dry-run"])
        XCTAssertEqual(try fishCompletions("gqlcache show star"), ["starwars.sqlite"])
        XCTAssertEqual(try fishCompletions("gqlcache rm starwars.sqlite Droid:"), ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        try FileManager.default.copyItem(atPath: path("starwars.sqlite"), toPath: path("starwars.sqlite.backup-20261122-120000"))
        XCTAssertEqual(try fishCompletions("gqlcache diff starwars.sqlite starwars.sqlite.b"), ["starwars.sqlite.backup-20261122-120000"])
        try Data().write(to: URL(fileURLWithPath: path("starwars.sqlite.notes")))
        XCTAssertEqual(try fishCompletions("gqlcache doctor starwars.sqlite."), ["starwars.sqlite.backup-20261122-120000"])
        XCTAssertEqual(try fishCompletions("gqlcache rm starwars.sqlite 'Human:1"), ["Human:1000", "Human:1002"])
        XCTAssertEqual(try fishCompletions("gqlcache read starwars.sqlite --document starwars.graphql Hero"), ["HeroFriends", "HeroName"])
        // Files of other kinds than caches: documents, schemas, JSON.
        try Data().write(to: URL(fileURLWithPath: path("schema.graphqls")))
        try Data().write(to: URL(fileURLWithPath: path("records.jsonl")))
        XCTAssertEqual(try fishCompletions("gqlcache read starwars.sqlite --document starwars.g"), ["starwars.graphql"])
        XCTAssertEqual(try fishCompletions("gqlcache read starwars.sqlite --schema sch"), ["schema.graphqls"])
        XCTAssertEqual(try fishCompletions("gqlcache import starwars.sqlite rec"), ["records.jsonl"])
        XCTAssertEqual(try fishCompletions("gqlcache export starwars.sqlite -o rec"), ["records.jsonl"])
        XCTAssertEqual(try fishCompletions("gqlcache rm starwars.sqlite --type H"), ["Human"])
        XCTAssertEqual(
            try fishCompletions("gqlcache keys starwars.sqlite --type "), ["Droid", "FriendsConnection", "Human", "Review", "Starship"])
        // A quote in the file's name, as typed: fish 3 unquotes the words it hands over, once.
        try FileManager.default.copyItem(atPath: path("starwars.sqlite"), toPath: path("Bob's cache.sqlite"))
        XCTAssertEqual(try fishCompletions(#"gqlcache show Bob\'s\ cache.sqlite Hu"#), ["Human:1000", "Human:1002"])
        XCTAssertEqual(try fishCompletions(#"gqlcache show "Bob's cache.sqlite" Hu"#), ["Human:1000", "Human:1002"])
        // Cache files in a folder whose name holds spaces, typed escaped or quoted, and under ~ (HOME is the test folder).
        try FileManager.default.createDirectory(atPath: path("with space/sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path("starwars.sqlite"), toPath: path("with space/sw copy.sqlite"))
        try Data().write(to: URL(fileURLWithPath: path("with space/notes.txt")))
        XCTAssertEqual(try fishCompletions(#"gqlcache show with\ space/"#), ["with space/sub/", "with space/sw copy.sqlite"])
        XCTAssertEqual(try fishCompletions(#"gqlcache show "with space/s"#), ["with space/sub/", "with space/sw copy.sqlite"])
        XCTAssertEqual(try fishCompletions("gqlcache show ~/star"), ["~/starwars.sqlite", "~/starwars.sqlite.backup-20261122-120000"])
        // Run by its path, as a freshly built binary is, it completes as gqlcache, calling back the binary typed.
        XCTAssertEqual(try fishCompletions("\(builtBinary) sh"), ["show"])
        XCTAssertEqual(try fishCompletions("\(builtBinary) show starwars.sqlite Hu"), ["Human:1000", "Human:1002"])
    }

    /// fish asks every registration's condition at each Tab; the line is
    /// parsed for the first and the outcome kept while the line is the same.
    func testFishParsesTheLineOnceForAllConditionsOfATab() throws {
        let fish = try XCTUnwrap(shell("fish"))
        let counted = """
            source $argv[1]
            functions -c __gqlcache_parse_line __gqlcache_parse_line_counted
            set -g parses 0
            function __gqlcache_parse_line -S
                set parses (math $parses + 1)
                __gqlcache_parse_line_counted
            end
            for line in $argv[2..]
                set parses 0
                set -l offered (complete -C $line | string replace -r '\t.*' '')
                echo "$parses $offered"
            end
            """
        let lines = [
            "gqlcache keys starwars.sqlite --f", "gqlcache keys starwars.sqlite --format json --f",
            "gqlcache keys starwars.sqlite --format json --f", "gqlcache keys starwars.sqlite --type Human --t",
            "gqlcache --version sh",
        ]
        let output = try run(fish, ["--no-config", "-c", counted, script("gqlcache.fish")] + lines)
        // Once for a new line, not at all for the same line again; what is
        // offered is still decided per condition: --format only once, --type again.
        XCTAssertEqual(output.split(separator: "\n"), ["1 --format", "1 ", "0 ", "1 --type", "1 show"])
    }

    /// A key that starts with '-' is offered only after `--`: before it
    /// the word is an option, and the key would be refused as one.
    func testAKeyStartingWithADashIsOfferedOnlyAfterDoubleDash() throws {
        _ = try sqliteShell(path("starwars.sqlite"), "INSERT INTO records(key, record) VALUES ('-dash:1', '{}')")
        try requireProgram(shell("fish"), "fish")
        XCTAssertEqual(try fishCompletions("gqlcache show starwars.sqlite -da"), [])
        XCTAssertEqual(try fishCompletions("gqlcache show starwars.sqlite -- -da"), ["-dash:1"])
    }
}
