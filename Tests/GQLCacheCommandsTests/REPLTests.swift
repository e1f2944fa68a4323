import CacheStore
import Foundation
import XCTest

@testable import GQLCacheCommands

/// The REPL's logic with scripted input: the same session the readline
/// prompt drives, minus the terminal.
final class REPLTests: CommandTestCase {
    struct Run {
        let status: ExitStatus
        let stdout: String
        let stderr: String
        let session: REPLSession
    }

    func repl(_ cache: String, _ lines: [String], interactive: Bool = false, answers: [String] = [], bail: Bool = false) throws -> Run {
        try repl(cache, reader: SourceLineReader(lines: lines), interactive: interactive, answers: answers, bail: bail)
    }

    func repl(_ cache: String, reader: LineReader, interactive: Bool = false, answers: [String] = [], bail: Bool = false) throws -> Run {
        let stdout = StringSink()
        let stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines(answers), stdinIsTerminal: interactive, stdoutIsTerminal: false,
            environment: [:])
        let session = REPLSession(cachePath: cache, context: context, interactive: interactive)
        try session.start()
        let status = session.run(reader: reader, bail: bail)
        return Run(status: status, stdout: stdout.text, stderr: stderr.text, session: session)
    }

    /// A line that ends in an unquoted backslash continues the command on
    /// the next, as in a shell: a script's `rm A \` then `B` removes both.
    /// One quoted or escaped is a character of the word, and one in a
    /// comment is the comment's.
    func testALineEndingInABackslashContinuesTheCommandOnTheNextLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["rm Human:1000 \\", "   Human:1002", "keys Human:% # a comment \\", "read --format jsonl \\", "{ hero(episode: NEWHOPE) { name } }"])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("removed Human:1000\nremoved Human:1002\nremoved 2 records;"), run.stdout)
        XCTAssertTrue(run.stdout.hasSuffix(#"{"hero":{"name":"R2-D2"}}"# + "\n"), run.stdout)
        XCTAssertEqual(run.stderr, "gqlcache: no key matches apollo pattern 'Human:%' in \(cache)\n")
        XCTAssertTrue(ShellWords.continuesOnNextLine("rm A \\"))
        XCTAssertFalse(ShellWords.continuesOnNextLine("rm 'A \\"))
        XCTAssertFalse(ShellWords.continuesOnNextLine("rm 'A\\'"))
        XCTAssertFalse(ShellWords.continuesOnNextLine("rm A\\\\"))
        XCTAssertTrue(ShellWords.continuesOnNextLine("rm A\\\\\\"))
        // A -c of several lines joins them so too.
        XCTAssertEqual(ShellWords.commands("rm Human:1000 \\\nHuman:1002; pwd\nkeys 'A \\\nB'"), ["rm Human:1000 Human:1002", " pwd", "keys 'A \\\nB'"])
        XCTAssertEqual(ShellWords.commands("rm A\\\r\nB"), ["rm AB"])
    }

    /// A key with a space or quotes, typed bare, is read as the prompt
    /// reads words and misses; where the text typed is a key, the message
    /// says how to type it.
    func testAKeyTypedBareThatMissesIsShownQuotedWhenTheTextIsAKey() throws {
        let cache = try makeCache("odd.sqlite", [
            Record(key: "Space Key:1", fields: ["__typename": .string("S")]),
            Record(key: #"QUERY_ROOT.hero(episode:"JEDI")"#, fields: ["__typename": .string("H")]),
            Record(key: "Note:a #1", fields: ["__typename": .string("N")]),
        ])
        let run = try repl(cache, [
            "show Space Key:1", #"show QUERY_ROOT.hero(episode:"JEDI")"#, "show Nope:1", "show Space Key:1 --depth 1 # a note", "refs Space Key:1",
            "show Note:a #1", "rm Space Key:1",
        ])
        XCTAssertEqual(run.status, .notFound)
        let hints = run.stderr.split(separator: "\n").filter { $0.contains(", typed after ") }
        XCTAssertEqual(hints, [
            "gqlcache: 'Space Key:1', typed after show, is a key of the file: quote it so, show 'Space Key:1'",
            #"gqlcache: 'QUERY_ROOT.hero(episode:"JEDI")', typed after show, is a key of the file: quote it so, show 'QUERY_ROOT.hero(episode:"JEDI")'"#,
            "gqlcache: 'Space Key:1', typed after show, is a key of the file: quote it so, show 'Space Key:1'",
            "gqlcache: 'Space Key:1', typed after refs, is a key of the file: quote it so, refs 'Space Key:1'",
            "gqlcache: 'Note:a #1', typed after show, is a key of the file: quote it so, show 'Note:a #1'",
            "gqlcache: 'Space Key:1', typed after rm, is a key of the file: quote it so, rm 'Space Key:1'",
        ])
        XCTAssertEqual(try keys(in: cache).count, 3)
    }

    /// `cd ~` goes home, as in a shell: to the root, as `cd` alone, not to
    /// a key named as the home folder; `cd '~'` is the key `~`.
    func testCdTildeGoesToTheRootAsCdAlone() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd Droid:2001", "cd ~", "pwd", "cd Droid:2001", "cd ~ # home", "pwd", "cd Droid:2001", "cd ~/", "pwd", "cd '~'"])
        XCTAssertEqual(run.stdout, "QUERY_ROOT\nQUERY_ROOT\nQUERY_ROOT\n")
        XCTAssertTrue(run.stderr.hasPrefix("gqlcache: no field '~' with a reference in QUERY_ROOT, and no record '~'"), run.stderr)
    }

    /// At the prompt no pipe comes in: standard input refused for a
    /// document, a response or an import says what to do there, not how
    /// a shell pipes.
    func testStandardInputRefusedAtThePromptSaysWhatToDoThere() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "read --document -", "write --text '{ hero { name } }' --response -", "import -",
        ], interactive: true)
        XCTAssertEqual(run.stderr, """
            gqlcache: --document takes a file, not standard input; type the GraphQL at the prompt, or give it with --text (see 'help read')
            gqlcache: standard input is the terminal the prompt reads; name a file in place of '-'
            gqlcache: standard input is the terminal the prompt reads; name the file to import

            """)
    }

    /// A script saved with a byte order mark runs from its first command.
    func testAScriptBeginningWithAByteOrderMarkRunsItsFirstCommand() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["\u{FEFF}pwd", "keys Droid:%"])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertEqual(run.stdout, "QUERY_ROOT\nDroid:2001\nDroid:2001.friendsConnection(after:null,first:2)\n")
    }

    /// Input that ends after such a line runs nothing of that command: a
    /// half-typed `rm A \` could remove less than meant.
    func testInputEndingAfterAContinuedLineRunsNothingOfThatCommand() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let run = try repl(cache, ["pwd", "rm Human:1000 \\"])
        XCTAssertEqual(run.status, .usage)
        XCTAssertEqual(run.stderr, "gqlcache: the command 'rm Human:1000' ends in '\\', which continues it on the next line, and the input ended; it was not run\n")
        XCTAssertEqual(try bytes(cache), before)
        let piece = try repl(cache, reader: SourceLineReader(pieces: [["rm Human:1000 \\"], ["Human:1002"]]))
        XCTAssertEqual(piece.stderr, """
            gqlcache: the command 'rm Human:1000' ends in '\\', which continues it on the next line, and its -c ended; it was not run
            gqlcache: unknown command 'Human:1002' (type 'help' for the commands)

            """)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// At the prompt a command takes no cache file and its help is 'help
    /// NAME': hints and help say so, not the shell's 'gqlcache NAME FILE'.
    func testHintsAndHelpAtThePromptNameCommandsAsTheREPLTakesThem() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let mistyped = try repl(cache, ["keys --typ Human", "rm --cascade"])
        XCTAssertEqual(mistyped.stderr, """
            gqlcache: unknown option '--typ'. Did you mean '--type'? (see 'help keys')
            gqlcache: --cascade goes with the keys to start from (see 'help rm')

            """)
        let help = try repl(cache, ["help keys"]).stdout
        XCTAssertTrue(help.contains("USAGE: keys [<pattern>] [--mode <mode>]"), help)
        XCTAssertFalse(help.contains("cache-file"), help)
        XCTAssertFalse(help.contains("container."), "the file argument's wrapped help goes with it")
        // A hint naming another command names it as typed at the prompt.
        let hinted = try repl(cache, ["rm --match '' --force"])
        XCTAssertTrue(hinted.stderr.contains("to remove every record use 'clear'"), hinted.stderr)
        XCTAssertTrue(gqlcache("rm", cache, "--match", "", "--force").stderr.contains("use 'gqlcache clear'"))
        // A command's --help is 'help NAME', for the REPL's own commands too.
        let flagged = try repl(cache, ["keys --help"])
        XCTAssertEqual(flagged.stdout, help)
        let own = try repl(cache, ["ls -h", "cd --help"])
        XCTAssertEqual(own.status, .success, own.stderr)
        XCTAssertTrue(own.stdout.hasPrefix("ls — show the record you are at"), own.stdout)
        XCTAssertTrue(own.stdout.contains("\ncd KEY | cd FIELD"), own.stdout)
        XCTAssertTrue(help.contains("  <pattern>               Only keys matching this pattern"), help)
        // Nothing the prompt has no use for: it never pages, and the version is the program's.
        XCTAssertFalse(help.contains("--no-pager"), help)
        XCTAssertFalse(help.contains("--version"), help)
        XCTAssertTrue(help.contains("\n  -h, --help              Show help information."), help)
        // show and refs take the record you are at when no key is named.
        let show = try repl(cache, ["help show"]).stdout
        XCTAssertTrue(show.contains("USAGE: show [<key> ...] [--depth <n>]"), show)
        XCTAssertTrue(show.contains("'Droid:2001'.\n                          Without one, the record you are at.\n"), show)
        let refs = try repl(cache, ["help refs"]).stdout
        XCTAssertTrue(refs.contains("USAGE: refs [<key>] [--depth <n>]"), refs)
        XCTAssertTrue(refs.contains("The exact key of the record.\n                          Without one, the record you are at.\n"), refs)
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "--no", before: "keys "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "--ver", before: "show "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "--nu", before: "keys "), .candidates(["--null"]))
        // An option's value joined to it with `=`, as the commands take it, completes as after a space.
        XCTAssertEqual(completer.complete(word: "--type=Hu", before: "keys "), .candidates(["--type=Human"]))
        XCTAssertEqual(completer.complete(word: "--mode=re", before: "keys Hu "), .candidates(["--mode=regex"]))
        XCTAssertEqual(completer.complete(word: "--match=Human:100", before: "rm "), .candidates(["--match=Human:1000", "--match=Human:1002"]))
        XCTAssertEqual(completer.complete(word: "--type=Hu", before: "keys -- "), .candidates([]), "after --, a key")
        // A usage too long for one line puts [<options>] before the file.
        for command in ["rm", "gc"] {
            let usage = try repl(cache, ["help \(command)"]).stdout.split(separator: "\n").first { $0.hasPrefix("USAGE:") }
            XCTAssertEqual(usage.map(String.init), "USAGE: \(command) [<options>]" + (command == "rm" ? " [<key> ...]" : ""))
        }
    }

    /// Naming the open file first, as on the command line, would make it
    /// a key or a pattern: the REPL says to leave it out, and how.
    func testTheOpenFileNamedOutOfHabitIsExplainedNotTakenForAKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        // Another spelling of the same file counts too.
        let respelled = folder.path + "/./" + URL(fileURLWithPath: cache).lastPathComponent
        let run = try repl(cache, ["keys \(cache) 'Human*' --mode glob", "show \(respelled) Human:1000", "info \(cache)"])
        let hint = "gqlcache: commands at this prompt work on \(cache), the file the REPL opened: leave its name out"
        // Quoted as the prompt reads words, which expands no '*'.
        XCTAssertEqual(run.stderr, """
            \(hint) (keys Human* --mode glob)
            \(hint) (show Human:1000)
            \(hint) (info)

            """)
        XCTAssertEqual(run.status, .usage)
        XCTAssertEqual(run.stdout, "")
        // Without the file name the same lines run; diff names another file there.
        let fixed = try repl(cache, ["keys 'Human:%'", "diff \(cache) --summary"])
        XCTAssertEqual(fixed.stderr, "")
        XCTAssertTrue(fixed.stdout.hasPrefix("Human:1000\nHuman:1002\n"), fixed.stdout)
        // ...unless another file follows it, as in `diff CACHE OTHER` and `import CACHE FILE`.
        let other = try copyOfFixture("starwars.sqlite", as: "other.sqlite")
        let both = try repl(cache, ["diff \(cache) \(other) --format json", "import \(cache) all.jsonl --dry-run"])
        XCTAssertEqual(both.stderr, """
            \(hint) (diff \(other) --format json)
            \(hint) (import all.jsonl --dry-run)

            """)
    }

    /// `diff BACKUP FILE` names both files, as on the command line, so that
    /// a backup taken before a change comes first and the change shows as
    /// made; `diff BACKUP` compares the open file first. Tab offers files
    /// for both places.
    func testDiffNamesBothFilesWithTheBackupFirst() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let backup = path("starwars.sqlite.backup")
        try FileManager.default.copyItem(atPath: cache, toPath: backup)
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002", "-q").status, .success)
        let run = try repl(cache, ["diff \(backup) \(cache) --summary", "diff \(backup) --summary"])
        XCTAssertEqual(run.stdout, "1 record differs: 1 removed; 9 the same\n1 record differs: 1 added; 9 the same\n")
        XCTAssertEqual(run.stderr, "")
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "sta", before: "diff \(backup) "), .fileNames)
        // An option's value is no file: its values are offered.
        XCTAssertEqual(completer.complete(word: "", before: "diff --format "), .candidates(["text", "json", "jsonl"]))
        XCTAssertEqual(completer.complete(word: "", before: "diff \(backup) --format "), .candidates(["text", "json", "jsonl"]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "diff \(backup) \(cache) "), .candidates([]))
    }

    /// quit, pwd and their like take no arguments: 'exit 3' would end with
    /// another status than the one typed, so it is refused, not dropped.
    func testCommandsWithoutArgumentsRefuseThemRatherThanDropThem() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["pwd extra", "status 5", "back now", "edit q.graphql", "exit 3", "keys --count"])
        XCTAssertEqual(run.stderr, """
            gqlcache: pwd takes no arguments, not 'extra'
            gqlcache: status takes no arguments, not '5'
            gqlcache: back takes no arguments, not 'now'
            gqlcache: edit takes no arguments, not 'q.graphql'
            gqlcache: exit takes no arguments, not '3' (the REPL ends with the last command's status)

            """)
        XCTAssertEqual(run.stdout, "10\n", "exit 3 did not end the script")
        XCTAssertEqual(run.status, .success)
    }

    /// A script piped into the REPL is its standard input: a command
    /// reading '-' would swallow the rest of the script, so it is refused.
    /// With -c, standard input is free for it.
    func testAScriptOnStandardInputCannotBeReadAgainAsACommandsInput() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        func run(_ arguments: [String], stdin lines: [String]) -> CommandResult {
            let stdout = StringSink(), stderr = StringSink()
            let context = CommandContext(
                stdout: stdout, stderr: stderr, stdin: ScriptedLines(lines), stdinIsTerminal: false, stdoutIsTerminal: false,
                environment: [:])
            let status = GQLCacheMain.run(arguments: arguments, context: context)
            return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
        }
        let line = #"{"key":"Z:1","record":{"a":1}}"#
        let piped = run(["repl", cache], stdin: ["import - --dry-run", "keys --count"])
        XCTAssertEqual(
            piped.stderr,
            "gqlcache: line 1: '-' would read the rest of this script, which comes from standard input; name a file instead, or give the commands with -c\n")
        XCTAssertEqual(piped.stdout, "10\n", "the script went on with its next line")
        let exported = run(["repl", cache], stdin: ["export -o - --format jsonl"])
        XCTAssertEqual(exported.status, .success, "-o - writes to standard output: " + exported.stderr)
        let withC = run(["repl", cache, "-c", "import - --dry-run"], stdin: [line])
        XCTAssertEqual(withC.status, .success, withC.stderr)
        XCTAssertTrue(withC.stdout.contains("would import 1 record"), withC.stdout)
        // An editor would read the script's next lines as its keys: edit, \e and update --edit are refused.
        let edited = run(["repl", cache], stdin: ["edit", "\\e", "update --fragment F --key Human:1000 --edit", "keys --count"])
        let refusal = "the editor would read the rest of this script, which comes from standard input, as its keys; "
            + "give the commands with -c, or run the REPL at a terminal\n"
        XCTAssertEqual(edited.stderr, (1...3).map { "gqlcache: line \($0): " + refusal }.joined())
        XCTAssertEqual(edited.stdout, "10\n")
    }

    func testACtrlCNoTransactionAnsweredIsForgottenBeforeTheNextCommand() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let stores = OpenStores()
        let store = try stores.store(path: cache, access: .readOnly, busyTimeout: 5) { _ in try CacheStore.open(at: cache) }
        // Ctrl-C pressed after a command's last transaction: it is kept for the command...
        stores.interruptAll()
        XCTAssertThrowsError(try store.read { tx in try tx.recordCount() })
        // ...and forgotten as the REPL starts the next one.
        stores.interruptAll()
        stores.forgetInterrupts()
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 10)
    }

    /// An app deletes its cache and makes a new one (at logout, say): the
    /// REPL's kept store must not go on reading the deleted file while its
    /// writes open the new one.
    func testAKeptStoreOfAFileReplacedAtItsPathIsOpenedAgain() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let stores = OpenStores()
        func count(_ access: CacheStore.Access) throws -> Int {
            let store = try stores.store(path: cache, access: access, busyTimeout: 5) { _ in try CacheStore.open(at: cache, access: access) }
            return try store.read { tx in try tx.recordCount() }
        }
        XCTAssertEqual(try count(.readOnly), 10)
        XCTAssertEqual(try count(.readWrite), 10)
        try FileManager.default.removeItem(atPath: cache)
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: cache)
        XCTAssertEqual(try count(.readOnly), 32)
        XCTAssertEqual(try count(.readWrite), 32)
        try FileManager.default.removeItem(atPath: cache)
        XCTAssertThrowsError(try count(.readOnly), "a file gone is not read from the kept store")
        stores.closeAll()
    }

    func testCdFollowsReferencesThroughFieldsAndListIndexesAndBackReturns() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["pwd", "cd hero(episode:NEWHOPE)", "cd friends.1", "pwd", "back", "pwd", "cd friends[0]", "pwd", "cd ..", "cd ..", "pwd"])
        XCTAssertEqual(run.stdout, """
            QUERY_ROOT
            QUERY_ROOT → Droid:2001 → Human:1002
            QUERY_ROOT → Droid:2001
            QUERY_ROOT → Droid:2001 → Human:1000
            QUERY_ROOT

            """)
        XCTAssertEqual(run.stderr, "")
    }

    /// `cd` to the record you are at is no step on the trail, so `back`
    /// still leaves it, as `cd .` in a shell.
    /// At a record whose key begins with `-` (`-h`, `--format=json`),
    /// show, ls and refs with no key are about it: the key is not read
    /// as an option.
    func testShowLsAndRefsAtARecordWhoseKeyBeginsWithADash() throws {
        let cache = try makeCache("dash.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["h": .reference(CacheKey("-h")), "f": .reference(CacheKey("--format=json"))]),
            Record(key: "-h", fields: ["__typename": .string("K"), "name": .string("dash")]),
            Record(key: "--format=json", fields: ["__typename": .string("K"), "name": .string("format")]),
        ])
        let run = try repl(cache, ["cd h", "show", "ls --depth 0", "refs", "cd /", "cd f", "show --format json", "refs --format json"])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertEqual(run.stderr, "")
        XCTAssertTrue(run.stdout.hasPrefix("-h (K)\n"), run.stdout)
        XCTAssertEqual(run.stdout.components(separatedBy: "-h (K)\n").count, 4, "show, ls and refs: \(run.stdout)")
        XCTAssertTrue(run.stdout.contains("incoming references (1)\n  QUERY_ROOT h\n"), run.stdout)
        XCTAssertEqual(run.stdout.components(separatedBy: #""key": "--format=json""#).count, 3, "show and refs: \(run.stdout)")
        XCTAssertFalse(run.stdout.contains("USAGE"), run.stdout)
    }

    func testCdToTheRecordYouAreAtAddsNoStep() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd QUERY_ROOT", "pwd", "cd Droid:2001", "cd Droid:2001", "pwd", "back", "pwd"])
        XCTAssertEqual(run.stdout, "QUERY_ROOT\nQUERY_ROOT → Droid:2001\nQUERY_ROOT\n")
        XCTAssertEqual(run.stderr, "")
    }

    /// A field's cache key may hold dots and brackets of its own (a Float
    /// argument, an input list): the index after it is still found, and
    /// the list's hint is one that can be typed as shown.
    func testCdTakesAListIndexAfterAFieldWhoseKeyHoldsDotsAndBrackets() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let field = "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"
        let run = try repl(cache, ["cd '\(field)'", "cd '\(field).0.0'", "pwd", "cd /", "cd '\(field)[1][0]'", "pwd"])
        XCTAssertEqual(run.stderr, "gqlcache: \(field) is a list of 2; say which element, e.g. \"cd '\(field).0.0'\"\n")
        XCTAssertEqual(run.stdout, "QUERY_ROOT → Human:1000\nQUERY_ROOT → Droid:2001\n")
        XCTAssertEqual(run.status, .success)
        // Typed bare, the key splits at its space: the hint quotes it.
        let bare = try repl(cache, ["cd \(field).1.0"])
        XCTAssertEqual(bare.stderr, "gqlcache: cd takes one key or field; one with spaces is quoted: cd '\(field).1.0'\n")
        // In a list of lists, the inner list is the one named.
        let inner = try repl(cache, ["cd '\(field).1'", "cd '\(field).1.4'"])
        XCTAssertEqual(inner.stderr.split(separator: "\n").map(String.init), [
            "gqlcache: \(field).1 is a list of 1; say which element, e.g. \"cd '\(field).1.0'\"",
            "gqlcache: \(field).1 has 1 element; no index 4",
        ])
    }

    /// `cd -` goes back to where the last move started, as a shell's does
    /// (and says where it went); twice returns. `cd -- -` is the key '-'.
    func testCdDashReturnsToWhereTheLastMoveStarted() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "cd -", "cd hero(episode:NEWHOPE)", "cd friends.0", "cd /", "cd -", "pwd", "cd -", "pwd", "cd Starship:3001", "..", "cd -", "pwd",
        ])
        XCTAssertEqual(run.stderr, "gqlcache: cd -: no move yet to go back on\n")
        XCTAssertEqual(run.stdout, """
            Human:1000
            QUERY_ROOT → Droid:2001 → Human:1000
            QUERY_ROOT
            QUERY_ROOT
            Starship:3001
            QUERY_ROOT → Starship:3001

            """)
        try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('-', '{"__typename":"Dash"}')"#)
        let dash = try repl(cache, ["cd -- -", "pwd", "open \(cache)", "cd -"])
        XCTAssertEqual(dash.stdout, "QUERY_ROOT → -\nopened \(cache)\n")
        XCTAssertEqual(dash.stderr, "gqlcache: cd -: no move yet to go back on\n", "another file starts afresh")
        // A record removed since is an error and no move, as a shell's `cd -` to a removed folder.
        let removed = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.0", "cd /", "rm Human:1000 --force", "pwd", "cd -"])
        XCTAssertTrue(removed.stderr.hasSuffix("gqlcache: cd -: Human:1000 is no longer in the cache; still at QUERY_ROOT\n"), removed.stderr)
        XCTAssertTrue(removed.stdout.hasSuffix("QUERY_ROOT\n"), removed.stdout)
        XCTAssertEqual(removed.status, .notFound, "the last command's status")
        // One removed on the way there is left, and said, as before any command.
        let onTheWay = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.1", "cd /", "rm Droid:2001 --force", "cd -", "pwd"])
        XCTAssertTrue(onTheWay.stderr.hasSuffix("gqlcache: Droid:2001, on the way here, is gone; back leads to QUERY_ROOT\n"), onTheWay.stderr)
        XCTAssertTrue(onTheWay.stdout.hasSuffix("Human:1002\nQUERY_ROOT → Human:1002\n"), onTheWay.stdout)
    }

    /// `cd ../..` goes back as many records, as in a shell, and stops at QUERY_ROOT.
    func testCdDotDotSlashDotDotGoesBackAsManyRecords() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "cd hero(episode:NEWHOPE)", "cd friends.0", "cd starships.0", "cd ../..", "pwd", "cd -", "cd ../", "pwd", "cd ../../../..", "pwd",
        ])
        XCTAssertEqual(run.stdout, """
            QUERY_ROOT → Droid:2001
            Starship:3001
            QUERY_ROOT → Droid:2001 → Human:1000
            QUERY_ROOT

            """)
        XCTAssertEqual(run.stderr, "")
    }

    /// As in a shell, `..` and `.` lead a path on to a field or key:
    /// `cd ../friends.1` goes to a sibling; a miss moves nowhere.
    func testCdDotDotThenAFieldGoesOnFromTheRecordBefore() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "cd hero(episode:NEWHOPE)", "cd friends.0", "cd ../friends.1", "pwd", "cd ../friends.0", "cd ./starships.0", "pwd", "cd .", "pwd",
            "cd ../../nope", "pwd", "cd ../../Human:1002", "pwd",
        ])
        XCTAssertEqual(run.stdout, """
            QUERY_ROOT → Droid:2001 → Human:1002
            QUERY_ROOT → Droid:2001 → Human:1000 → Starship:3001
            QUERY_ROOT → Droid:2001 → Human:1000 → Starship:3001
            QUERY_ROOT → Droid:2001 → Human:1000 → Starship:3001
            QUERY_ROOT → Droid:2001 → Human:1002

            """)
        XCTAssertTrue(run.stderr.hasPrefix("gqlcache: no field 'nope' with a reference in Droid:2001, and no record 'nope'"), run.stderr)
        // Doubled slashes read as one, and a key that begins with `../` is still found whole.
        try sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('../odd', '{}')")
        let more = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.0", "cd ..//", "pwd", "cd ../odd", "pwd"])
        XCTAssertEqual(more.stdout, "QUERY_ROOT → Droid:2001\nQUERY_ROOT → Droid:2001 → ../odd\n")
        XCTAssertEqual(more.stderr, "")
    }

    /// `cd` alone goes home, as a shell's does: to QUERY_ROOT, the trail
    /// cleared, as `cd /` does.
    func testCdAloneReturnsToQueryRootFromAnyDepth() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.0", "pwd", "cd", "pwd", "back", "pwd"])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, "QUERY_ROOT → Droid:2001 → Human:1000\nQUERY_ROOT\nQUERY_ROOT\n")
    }

    func testCdToAKeyAndItsMistakesAreExplained() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(
            cache, ["cd Starship:3001", "pwd", "cd /", "cd friends", "cd hero(episode:NEWHOPE)", "cd friends", "cd appearsIn", "cd name", "cd friends.2", "cd Human:100"])
        XCTAssertEqual(run.stdout, "QUERY_ROOT → Starship:3001\n")
        XCTAssertEqual(run.stderr.split(separator: "\n").map(String.init), [
            "gqlcache: no field 'friends' with a reference in QUERY_ROOT, and no record 'friends'; fields with references: hero(episode:NEWHOPE), human(id:1000), reviews(episode:JEDI,first:2), search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])",
            "gqlcache: friends is a list of 3; say which element, e.g. 'cd friends.0'",
            "gqlcache: appearsIn is a list of 3 holding no reference, so there is nothing to go to",
            "gqlcache: name holds a value, not a reference",
            "gqlcache: friends.2 is null, not a reference",
            "gqlcache: no field 'Human:100' with a reference in Droid:2001, and no record 'Human:100'; fields with references: friends, friendsConnection(after:null,first:2); nearest keys: Human:1000, Human:1002",
        ])
        XCTAssertEqual(run.status, .notFound)
    }

    /// A key typed as a path of fields from a record (as Apollo keys an
    /// object without an id), or a path from the record you are at, is
    /// gone along as a shell's cd goes along `a/b/c`: `..` then goes back
    /// a step of it, and one from the root is the way there. A path that
    /// ends at a value, or at a reference with no record, is said, and cd
    /// stays put.
    func testCdGoesAlongAPathOfFieldsAsAShellGoesAlongFolders() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "cd Starship:3001", "cd QUERY_ROOT.hero.friends.0", "pwd", "cd ..", "pwd", "cd friends.1", "pwd",
            "cd /", "cd hero.friendsConnection.friends.0", "pwd", "ls ..", "cd Human:1002", "cd Droid:2001.friends.0", "pwd",
        ])
        XCTAssertEqual(run.status, .success, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("QUERY_ROOT → ") }, [
            "QUERY_ROOT → Droid:2001 → Human:1000", "QUERY_ROOT → Droid:2001", "QUERY_ROOT → Droid:2001 → Human:1002",
            "QUERY_ROOT → Droid:2001 → Droid:2001.friendsConnection(after:null,first:2) → Human:1000",
            "QUERY_ROOT → Droid:2001 → Droid:2001.friendsConnection(after:null,first:2) → Human:1000 → Human:1002 → Droid:2001 → Human:1000",
        ])
        // ls shows where the path leads, as cd goes.
        XCTAssertTrue(lines.contains("Droid:2001.friendsConnection(after:null,first:2) (FriendsConnection)"), run.stdout)

        let ends = try repl(cache, ["rm Human:1002", "cd QUERY_ROOT.hero.friends.1", "pwd", "cd hero.name"])
        XCTAssertTrue(ends.stdout.hasSuffix("\nQUERY_ROOT\n"), ends.stdout)
        XCTAssertEqual(ends.stderr.split(separator: "\n").map(String.init).suffix(2), [
            "gqlcache: no field 'QUERY_ROOT.hero.friends.1' with a reference in QUERY_ROOT, and no record 'QUERY_ROOT.hero.friends.1'; "
                + "read as a path of fields: QUERY_ROOT hero(episode:NEWHOPE) → Droid:2001 friends.1 → Human:1002, which has no record (a dangling reference)",
            "gqlcache: no field 'hero.name' with a reference in QUERY_ROOT, and no record 'hero.name'; did you mean: cd hero(episode:NEWHOPE)",
        ])
        XCTAssertEqual(ends.status, .notFound)
    }

    /// A field is typed by its name, without the arguments of its field
    /// key: cd goes along the one field of that name that holds a
    /// reference, and says which it meant where that one is a list, the
    /// element typed is not in it, or the arguments typed are others.
    func testCdOfAFieldsNameWithoutItsArgumentsGoesThereOrSuggestsTheField() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let gone = try repl(cache, ["cd hero", "pwd", "cd /", "cd reviews.1", "pwd", "cd /", "ls hero"])
        XCTAssertEqual(gone.status, .success, gone.stderr)
        XCTAssertEqual(gone.stdout.split(separator: "\n").prefix(3).map(String.init), [
            "QUERY_ROOT → Droid:2001", "QUERY_ROOT → QUERY_ROOT.reviews(episode:JEDI,first:2).1", "Droid:2001 (Droid)",
        ])
        let run = try repl(cache, ["cd search", "cd hero(episode:JEDI)", "cd reviews", "cd reviews.5"])
        XCTAssertEqual(run.stderr.split(separator: "\n").map(String.init), [
            // A list is no place: its first element with a reference is.
            "gqlcache: no field 'search' with a reference in QUERY_ROOT, and no record 'search'; "
                + "did you mean: cd 'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky]).0.0' (the field is a list of 2)",
            "gqlcache: no field 'hero(episode:JEDI)' with a reference in QUERY_ROOT, and no record 'hero(episode:JEDI)'; did you mean: cd hero(episode:NEWHOPE)",
            "gqlcache: no field 'reviews' with a reference in QUERY_ROOT, and no record 'reviews'; "
                + "did you mean: cd reviews(episode:JEDI,first:2).0 (the field is a list of 2)",
            "gqlcache: no field 'reviews.5' with a reference in QUERY_ROOT, and no record 'reviews.5'; "
                + "did you mean: cd reviews(episode:JEDI,first:2).0 (the field is a list of 2)",
        ])
        // ls says it as cd does.
        let listed = try repl(cache, ["ls reviews.5"])
        XCTAssertEqual(listed.stderr, "gqlcache: no field 'reviews.5' with a reference in QUERY_ROOT, and no record 'reviews.5'; "
            + "did you mean: ls reviews(episode:JEDI,first:2).0 (the field is a list of 2)\n")
        // Through a path, and for ls, the suggestion is typed as the mistake was.
        let relative = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd ../reviews", "ls ../reviews"])
        XCTAssertEqual(relative.stderr.split(separator: "\n").map(String.init), [
            "gqlcache: no field 'reviews' with a reference in QUERY_ROOT, and no record 'reviews'; did you mean: cd ../reviews(episode:JEDI,first:2).0 (the field is a list of 2)",
            "gqlcache: no field 'reviews' with a reference in QUERY_ROOT, and no record 'reviews'; did you mean: ls ../reviews(episode:JEDI,first:2).0 (the field is a list of 2)",
        ])
    }

    func testCdThroughADanglingReferenceSaysSoAndStaysPut() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["rm Human:1002", "cd hero(episode:NEWHOPE)", "cd friends.1", "pwd"])
        XCTAssertTrue(run.stdout.hasSuffix("QUERY_ROOT → Droid:2001\n"), run.stdout)
        XCTAssertEqual(run.stderr, "gqlcache: Droid:2001 friends.1 → Human:1002, which is not in the cache (a dangling reference)\n")
    }

    func testCommandsRunWithoutTheCacheFileAndShowDefaultsToWhereYouAre() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["keys Human: --mode prefix", "cd human(id:1000)", "show --format json"])
        XCTAssertTrue(run.stdout.hasPrefix("Human:1000\nHuman:1002\n[\n  {\n    \"key\": \"Human:1000\""), run.stdout)
        // ls is show: options alone show where you are.
        let listed = try repl(cache, ["cd human(id:1000)", "ls --depth 1"])
        XCTAssertEqual(listed.status, .success, listed.stderr)
        XCTAssertTrue(listed.stdout.hasPrefix("Human:1000 (Human)\n"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("└─ [0] → Starship:3001 (Starship)\n"), "expanded one level: \(listed.stdout)")
    }

    /// With no key, an option value out of range is what is refused, not
    /// a key the prompt never needs.
    func testAnOptionOutOfRangeWithNoKeyIsRefusedForTheOptionNotForAMissingKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["show --depth 1001", "ls --depth -1", "refs --depth -2", "show --busy-timeout -1", "refs --depth"])
        XCTAssertEqual(run.stderr, """
            gqlcache: --depth must be from 0 to 1000 (see 'help show')
            gqlcache: --depth must be from 0 to 1000 (ls takes the options of show: see 'help show')
            gqlcache: --depth must be from 1 to 1000 (see 'help refs')
            gqlcache: --busy-timeout must be from 0 to 2147483 seconds (see 'help show')
            gqlcache: missing value for '--depth <n>' (see 'help refs')

            """)
        XCTAssertEqual(run.status, .usage)
    }

    /// Tab offers ls what it offers cd: `..` and the fields that hold
    /// references, which ls shows without going there.
    func testLsShowsTheRecordAFieldOrDotDotNamesAsCdWouldGo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd hero(episode:NEWHOPE)", "ls friends.1", "ls ..", "pwd"])
        XCTAssertEqual(run.status, .success, run.stderr)
        let titles = run.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !"├└│".contains($0.first!) }
        XCTAssertEqual(titles, ["Human:1002 (Human)", "QUERY_ROOT", "QUERY_ROOT → Droid:2001"])
    }

    /// At a damaged record no field can be followed, but cd KEY still goes
    /// to the key, as it does from anywhere else.
    func testAtADamagedRecordCdStillGoesToAKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "UPDATE records SET record = substr(record, 1, 12) WHERE key = 'Human:1000'")
        let run = try repl(cache, ["cd human(id:1000)", "cd friends.0", "cd Starship:3001", "pwd"])
        XCTAssertEqual(run.stdout, "QUERY_ROOT → Human:1000 → Starship:3001\n")
        XCTAssertEqual(run.stderr, "gqlcache: record 'Human:1000' is damaged: expected ':' at byte 13\n", "a field of it cannot be followed")
    }

    /// A list's example is typed from where the path was: `cd ../friends`
    /// suggests `cd ../friends.0`, not this record's own `friends.0`.
    func testAListReachedThroughAPathIsExplainedWithThePath() throws {
        let run = try repl(try copyOfFixture("starwars.sqlite"),
                           ["cd hero(episode:NEWHOPE)", "cd friendsConnection(after:null,first:2)", "cd ../friends", "ls ../friends", "cd friends"])
        XCTAssertEqual(run.stderr.split(separator: "\n").map(String.init), [
            "gqlcache: friends is a list of 3; say which element, e.g. 'cd ../friends.0'",
            "gqlcache: friends is a list of 3; say which element, e.g. 'ls ../friends.0'",
            "gqlcache: friends is a list of 1; say which element, e.g. 'cd friends.0'",
        ])
    }

    /// show's options go with a field or `..` as with a key, before it or after.
    func testLsOfAFieldOrDotDotTakesShowsOptions() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd hero(episode:NEWHOPE)", "ls friends.1 --depth 0", "ls --format jsonl friends.0", "ls .. --depth 0", "pwd"])
        XCTAssertEqual(run.status, .success, run.stderr)
        let lines = run.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !"├└│".contains($0.first!) }
        XCTAssertEqual(lines.count, 4, run.stdout)
        XCTAssertEqual(lines[0], "Human:1002 (Human)")
        XCTAssertTrue(lines[1].hasPrefix(#"{"key":"Human:1000","depth":0,"#), String(lines[1]))
        XCTAssertEqual(lines[2...], ["QUERY_ROOT", "QUERY_ROOT → Droid:2001"])
        // After `--` the word is a key as typed.
        let typed = try repl(cache, ["ls --depth 0 -- friends.1"])
        XCTAssertEqual(typed.session.lastStatus, .notFound)
    }

    /// ls takes the paths cd takes: `../friends.1` shows a sibling,
    /// `./friends.0` and `.` name from here, and nothing moves.
    func testLsShowsTheRecordARelativePathNamesAsCdWouldGo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.0", "ls ../friends.1", "ls ./starships.0", "ls .", "ls ../..", "pwd"])
        XCTAssertEqual(run.status, .success, run.stderr)
        let titles = run.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !"├└│".contains($0.first!) }
        XCTAssertEqual(titles, ["Human:1002 (Human)", "Starship:3001 (Starship)", "Human:1000 (Human)", "QUERY_ROOT", "QUERY_ROOT → Droid:2001 → Human:1000"])
        // An index that is not there is said of the record before.
        let missing = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.0", "ls ../friends.9"])
        XCTAssertEqual(missing.session.lastStatus, .notFound)
        XCTAssertEqual(missing.stderr, "gqlcache: friends has 3 elements; no index 9\n")
        // A field that is not there, as cd says it; a key that begins with `../` is still shown.
        let misspelt = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.0", "ls ../friends1"])
        XCTAssertEqual(misspelt.session.lastStatus, .notFound)
        XCTAssertTrue(misspelt.stderr.hasPrefix("gqlcache: no field 'friends1' with a reference in Droid:2001, and no record 'friends1'; fields with references: friends,"), misspelt.stderr)
        // A key after the path, as cd takes it.
        let keyed = try repl(cache, ["cd hero(episode:NEWHOPE)", "ls ../Human:1002", "cd human(id:1000)", "ls ./Starship:3001"])
        XCTAssertEqual(keyed.session.lastStatus, .success, keyed.stderr)
        XCTAssertEqual(keyed.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") && !"├└│".contains($0.first!) },
                       ["Human:1002 (Human)", "Starship:3001 (Starship)"])
        let odd = try makeCache("odd.sqlite", [Record(key: .queryRoot, fields: ["a": .int(1)]), Record(key: "../x", fields: ["v": .int(7)])])
        let shown = try repl(odd, ["ls ../x"])
        XCTAssertEqual(shown.session.lastStatus, .success, shown.stderr)
        XCTAssertTrue(shown.stdout.hasPrefix("../x\n"), shown.stdout)
    }

    func testGraphQLTypedOverSeveralLinesRunsWithRead() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["query {", "  hero(episode: NEWHOPE) {", "    name # a } in a comment", "  }", "}", "{ human(id: \"1000\") { name } }"])
        XCTAssertEqual(run.stdout, """
            {
              "hero": {
                "name": "R2-D2"
              }
            }
            {
              "human": {
                "name": "Luke Skywalker"
              }
            }

            """)
        XCTAssertEqual(run.session.lastStatus, .success)
    }

    /// `read { … }` is GraphQL typed at the prompt, over several lines too;
    /// `read query` alone still names an operation.
    func testGraphQLAfterReadRunsAsIfTypedAlone() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "read { hero(episode: NEWHOPE) { name } }", "  read query Q {", "  human(id: 1000) { name }", "}", "read --format jsonl",
        ])
        XCTAssertEqual(run.stdout, "{\n  \"hero\": {\n    \"name\": \"R2-D2\"\n  }\n}\n{\n  \"human\": {\n    \"name\": \"Luke Skywalker\"\n  }\n}\n"
            + #"{"human":{"name":"Luke Skywalker"}}"# + "\n")
        XCTAssertEqual(run.stderr, "")
        // Options after it are said to go to a later read, not taken for GraphQL at '-'.
        let options = try repl(cache, ["read { hero(episode: NEWHOPE) { name } } --format jsonl"])
        XCTAssertEqual(options.stderr, "gqlcache: options after GraphQL are not read ('--format jsonl'): type them before it, "
            + "'read --format jsonl { … }'\n")
        XCTAssertEqual(GraphQLInput.optionsAfter("{ a } # -x"), nil)
        XCTAssertNil(GraphQLInput.afterRead("read query"))
        XCTAssertNil(GraphQLInput.afterRead("read query --variables '{\"id\":1}'"), "an operation named query")
        XCTAssertNil(GraphQLInput.afterRead("reader { a }"))
        // What comes before is blanked, so that columns stay the line's.
        XCTAssertEqual(GraphQLInput.afterRead("read\t{ a }")?.graphQL, "     { a }")
        XCTAssertEqual(GraphQLInput.afterRead(" read query Q($a: Int) {")?.graphQL, "      query Q($a: Int) {")
        XCTAssertEqual(GraphQLInput.afterRead("read fragment F on Droid { name }")?.graphQL, "     fragment F on Droid { name }")
        XCTAssertNil(GraphQLInput.afterRead("read fragment --fragment F"))
    }

    /// Options typed between `read` and the GraphQL are the read's, as on
    /// the command line they come before the document; an option's value
    /// (a JSON object for --variables) is no GraphQL, and a word that is no
    /// option (an operation's name) leaves the line to the command line.
    func testOptionsTypedBeforeGraphQLAreTheReads() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "read --format jsonl { hero(episode: NEWHOPE) { name } }",
            #"read --variables '{"e": "NEWHOPE"}' --format=jsonl query Q($e: Episode) {"#, "  hero(episode: $e) { id }", "}",
        ])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n" + #"{"hero":{"id":"2001"}}"# + "\n")
        // The operation's name, as on the command line: the one of the typed document to run.
        let named = try repl(cache, ["read --format jsonl B query A { hero(episode: NEWHOPE) { id } } query B { hero(episode: NEWHOPE) { name } }"])
        XCTAssertEqual(named.stderr, "")
        XCTAssertEqual(named.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n")
        let valueTaking = REPLSession.readValueTaking
        XCTAssertTrue(valueTaking.contains("--variables") && valueTaking.contains("--format"), "\(valueTaking)")
        let typed = try XCTUnwrap(GraphQLInput.afterRead("read --var id=1 --format json { a }", valueTaking: valueTaking))
        XCTAssertEqual(typed.graphQL, String(repeating: " ", count: 30) + "{ a }")
        XCTAssertEqual(typed.options, "--var id=1 --format json")
        XCTAssertEqual(GraphQLInput.afterRead(#"read --variables "{ \"a\": 1 }" { a }"#, valueTaking: valueTaking)?.options, #"--variables "{ \"a\": 1 }""#)
        XCTAssertNil(GraphQLInput.afterRead("read HeroName --format json", valueTaking: valueTaking))
        XCTAssertEqual(GraphQLInput.afterRead("read Q --format json query Q { a }", valueTaking: valueTaking)?.options, "Q --format json")
        XCTAssertNil(GraphQLInput.afterRead("read --format { a }", valueTaking: valueTaking), "{ is --format's value; no GraphQL follows")
        XCTAssertNil(GraphQLInput.afterRead("read -- { a }", valueTaking: valueTaking))
    }

    /// Lines from a list, with what the session puts in the history kept.
    final class RecordingReader: LineReader {
        var lines: [String]
        var history: [String] = []
        init(_ lines: [String]) { self.lines = lines }
        func readLine(prompt: String, freshPrompt: String) -> String? { lines.isEmpty ? nil : lines.removeFirst() }
        func addToHistory(_ line: String) { history.append(line) }
    }

    /// `read { … }` runs the GraphQL, and goes into the history as typed,
    /// over several lines too: Up brings back what was typed.
    func testGraphQLAfterReadIsKeptInTheHistoryAsTyped() throws {
        let reader = RecordingReader(["read { hero(episode: NEWHOPE) {", "  name } }", "{ human(id: 1000) { name } }"])
        let run = try repl(try copyOfFixture("starwars.sqlite"), reader: reader, interactive: true)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(reader.history, ["read { hero(episode: NEWHOPE) {\n  name } }", "{ human(id: 1000) { name } }"])
    }

    /// GraphQL typed later may spread the fragments typed or named before
    /// (in a document file too): their definitions come with it. A fragment
    /// it defines itself is its own.
    func testTypedGraphQLSpreadsFragmentsTypedOrNamedEarlier() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let file = path("hero.graphql")
        try "query Hero { hero(episode: NEWHOPE) { ...HeroF } }\nfragment HeroF on Droid { name primaryFunction }\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let run = try repl(cache, [
            "cd Droid:2001", "fragment G on Droid { name }", "fragment H on Droid { id ...G }", "cd /",
            "read --document \(file) Hero --format jsonl",
            "query Q2 { hero(episode: NEWHOPE) { ...HeroF ...G } }", "read Q2 --format jsonl",
            "read --text '{ hero(episode: NEWHOPE) { ...H } }' --format jsonl",
            "{ hero(episode: NEWHOPE) { ...G } } fragment G on Droid { id }",
        ])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"") }, [
            #"{"hero":{"name":"R2-D2","primaryFunction":"Astromech"}}"#, #"{"hero":{"name":"R2-D2","primaryFunction":"Astromech"}}"#,
            #"{"hero":{"id":"2001","name":"R2-D2"}}"#,
        ])
        XCTAssertTrue(run.stdout.hasSuffix("{\n  \"hero\": {\n    \"id\": \"2001\"\n  }\n}\n"), "its own G: " + run.stdout)
        // Only the fragments come: a query typed again under its name, without
        // the fragment it was typed with, or under the name of a file's, is no clash.
        let again = try repl(cache, [
            "query Q { hero(episode: NEWHOPE) { ...G } } fragment G on Droid { name }", "query Q { hero(episode: NEWHOPE) { id ...G } }",
            "read --document \(file) Hero --format jsonl", "query Hero { hero(episode: NEWHOPE) { id ...HeroF } }",
        ])
        XCTAssertEqual(again.stderr, "")
        XCTAssertTrue(again.stdout.hasSuffix("{\n  \"hero\": {\n    \"id\": \"2001\",\n    \"name\": \"R2-D2\",\n    \"primaryFunction\": \"Astromech\"\n  }\n}\n"),
                      again.stdout)
    }

    /// A script may hold comments, as a shell script does; inside a GraphQL
    /// document a '#' line is GraphQL's own comment.
    func testLinesThatStartWithAHashAreComments() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["# how many records", "  # indented too", "keys --count", "{ hero(episode: NEWHOPE) {", "# a GraphQL comment", "name } }"], bail: true)
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.status, .success)
        XCTAssertTrue(run.stdout.hasPrefix("10\n{\n  \"hero\": {\n    \"name\": \"R2-D2\""), run.stdout)
    }

    /// As sqlite3 does with unfinished SQL: input that ends inside a
    /// GraphQL document is a mistake, in the message and the exit status.
    func testInputThatEndsInsideAGraphQLDocumentExitsWithUsage() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["keys --count", "{ hero(episode: NEWHOPE) {", "  name"])
        XCTAssertEqual(run.stdout, "10\n")
        XCTAssertEqual(run.stderr, "gqlcache: the GraphQL document begun with '{ hero(episode: NEWHOPE) {' was not finished (a '}' is missing); its 2 lines, to the end of the input, were not run\n")
        XCTAssertEqual(run.status, .usage)
        // `query` alone begins a document, which takes the lines after it: the message says how many.
        let swallowed = try repl(cache, ["query", "keys --count", "info"])
        XCTAssertEqual(swallowed.stdout, "")
        XCTAssertEqual(swallowed.stderr, "gqlcache: the GraphQL document begun with 'query' was not finished (no '{' came); its 3 lines, to the end of the input, were not run\n")
        XCTAssertEqual(try repl(cache, ["{"]).stderr, "gqlcache: the GraphQL document begun with '{' was not finished (a '}' is missing); not run\n")
    }

    /// A word of megabytes piped in as a command is named shortened, as
    /// a long pattern is, not echoed whole on one line.
    func testALongUnknownCommandIsNamedShortened() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [String(repeating: "a", count: 100_000), "\\" + String(repeating: "b", count: 5_000)])
        XCTAssertEqual(run.stderr, """
            gqlcache: unknown command '\(String(repeating: "a", count: 60))… (100000 bytes)' (type 'help' for the commands)
            gqlcache: unknown command '\\\(String(repeating: "b", count: 59))… (5001 bytes)' (the backslash commands are \\e, \\q, \\h and \\?; type 'help' for the others)

            """)
    }

    func testErrorsPrintAndTheLoopGoesOnUnlessBail() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let lines = ["show Nope:1", "status", "frobnicate", "kyes --count", "KEYS", "keys --count"]
        let goesOn = try repl(cache, lines)
        XCTAssertEqual(goesOn.stdout, "1\n10\n")
        XCTAssertEqual(goesOn.stderr, """
            gqlcache: no record 'Nope:1' in \(cache)
            gqlcache: unknown command 'frobnicate' (type 'help' for the commands)
            gqlcache: unknown command 'kyes'. Did you mean 'keys'? (type 'help' for the commands)
            gqlcache: unknown command 'KEYS'. Did you mean 'keys'? (type 'help' for the commands)

            """)
        XCTAssertEqual(goesOn.status, .success)
        let bails = try repl(cache, lines, bail: true)
        XCTAssertEqual(bails.stdout, "")
        XCTAssertEqual(bails.status, .notFound)
    }

    /// 'help NAME' for a name that is no command answers as typing it does:
    /// near names that work at the prompt, and 'help', not the shell's list
    /// (with repl and completions) and 'gqlcache --help'.
    func testHelpForAnUnknownCommandSuggestsOnlyWhatWorksAtThePrompt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["help nosuch", "help kyes", "nosuch", "help repl", "help exit"])
        XCTAssertEqual(run.stderr, """
            gqlcache: unknown command 'nosuch' (type 'help' for the commands)
            gqlcache: unknown command 'kyes'. Did you mean 'keys'? (type 'help' for the commands)
            gqlcache: unknown command 'nosuch' (type 'help' for the commands)
            gqlcache: already in the REPL; use 'open FILE' to switch files

            """)
        XCTAssertEqual(run.stdout, "quit (or exit, \\q, or Ctrl-D) — leave\n")
        let failed = try repl(cache, ["help nosuch"])
        XCTAssertEqual(failed.status, .usage)
    }

    /// The backslash names are commands too: `help \e` explains edit, where
    /// the shell quoting of the line took the backslash away.
    func testHelpOfABackslashNameExplainsItsCommand() throws {
        let run = try repl(try copyOfFixture("starwars.sqlite"), [#"help \e"#, #"? \q"#, #"help \h"#])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.stdout, "edit (or \\e) — edit the last query in $VISUAL or $EDITOR, then read it\n"
            + "quit (or exit, \\q, or Ctrl-D) — leave\n" + "help [COMMAND] (or \\h, \\?) — this list, or a command's options\n")
    }

    /// A backslash name takes what its command takes: `\h rm` is `help
    /// rm`, `\q now` is told that quit takes no arguments, and an unknown
    /// one is named with its backslash.
    func testABackslashNameWithArgumentsIsItsCommandWithThem() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [#"\h rm"#, #"  \? keys"#, #"\q now"#, #"\x"#, "keys --count"])
        XCTAssertTrue(run.stdout.hasPrefix("OVERVIEW: Remove records by key"), run.stdout)
        XCTAssertTrue(run.stdout.contains("\nOVERVIEW: List record keys"), run.stdout)
        XCTAssertTrue(run.stdout.hasSuffix("\n10\n"), "quit with an argument does not leave")
        XCTAssertEqual(run.stderr, "gqlcache: quit takes no arguments, not 'now' (the REPL ends with the last command's status)\n"
            + #"gqlcache: unknown command '\x' (the backslash commands are \e, \q, \h and \?; type 'help' for the others)"# + "\n")
    }

    /// A cache without QUERY_ROOT starts at its first key, and `cd` or
    /// `cd /` says there is no root to go to rather than move to a record
    /// that is not; an empty cache stays at QUERY_ROOT.
    func testWithoutAQueryRootTheSessionStartsAtTheFirstKeyAndCdHomeSaysSo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "DELETE FROM records WHERE key IN ('QUERY_ROOT', 'MUTATION_ROOT')")
        let run = try repl(cache, ["pwd", "cd Human:1000", "cd", "cd /", "pwd"])
        XCTAssertEqual(run.stdout, "Droid:2001\nDroid:2001 → Human:1000\n")
        let missing = "gqlcache: no record 'QUERY_ROOT' in \(cache), which holds no query root; still at Human:1000\n"
        XCTAssertEqual(run.stderr, missing + missing)
        _ = try sqliteShell(cache, "DELETE FROM records")
        let empty = try repl(cache, ["cd", "pwd"])
        XCTAssertEqual(empty.stdout, "QUERY_ROOT\n")
        XCTAssertEqual(empty.stderr, "")
    }

    /// ls runs show: a mistaken option says ls takes show's options, not
    /// as if show had been typed.
    func testAnUnknownOptionOfLsSaysItTakesShowsOptions() throws {
        let run = try repl(try copyOfFixture("starwars.sqlite"), ["ls -l", "ls friends --dept 2", "show --bogus"])
        XCTAssertEqual(run.stderr, """
            gqlcache: unknown option '-l' (ls takes the options of show: see 'help show')
            gqlcache: unknown option '--dept'. Did you mean '--depth'? (ls takes the options of show: see 'help show')
            gqlcache: unknown option '--bogus' (see 'help show')

            """)
    }

    func testTheExitStatusIsTheLastCommandsWhateverFailedBefore() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let text = path("text.txt")
        try "not a cache".write(toFile: text, atomically: true, encoding: .utf8)
        // (But a failed open, which stops a script: see below.)
        for script in ["cd nope; keys --count", "bogus; keys --count", "show Nope:1; keys --count"] {
            let result = gqlcache("repl", cache, "-c", script)
            XCTAssertEqual(result.status, .success, script)
            XCTAssertTrue(result.stdout.hasSuffix("10\n"), script)
            XCTAssertFalse(result.stderr.isEmpty, "the failure was still reported: \(script)")
        }
        XCTAssertEqual(gqlcache("repl", cache, "-c", "keys --count; cd nope").status, .notFound)
        let open = gqlcache("repl", cache, "-c", "open \(text); keys --count")
        XCTAssertEqual(open.status, .notACache)
        XCTAssertEqual(open.stdout, "")
    }

    /// With -c as typed: a `#` comment, in a command or in a query, runs to
    /// the end of its line, and a `;` in it ends no command.
    func testACommentWithASemicolonIsACommentWithDashC() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = gqlcache("repl", cache, "-c", "query {\n  # note; see ticket\n  hero(episode: NEWHOPE) { name } # trailing; comment\n}")
        XCTAssertEqual(query.status, .success, query.stderr)
        XCTAssertEqual(query.stdout, "{\n  \"hero\": {\n    \"name\": \"R2-D2\"\n  }\n}\n")
        let command = gqlcache("repl", cache, "-c", "keys Human # the people; all of them\nkeys --count")
        XCTAssertEqual(command.status, .success, command.stderr)
        XCTAssertEqual(command.stdout, "Human:1000\nHuman:1002\n10\n")
    }

    /// Each -c holds whole statements, as psql runs each in turn: a
    /// document not finished in its -c is said and not run, and the next
    /// -c is read on its own.
    func testAGraphQLDocumentDoesNotRunOnIntoTheNextDashC() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let split = gqlcache("repl", cache, "-c", "{ hero(episode: NEWHOPE) {\n  id", "-c", "pwd")
        XCTAssertEqual(split.status, .success, "the last command's status")
        XCTAssertEqual(split.stdout, "QUERY_ROOT\n")
        XCTAssertEqual(split.stderr, "gqlcache: the GraphQL document begun with '{ hero(episode: NEWHOPE) {' was not finished "
            + "(a '}' is missing); its 2 lines, to the end of its -c, were not run\n")
        let bail = gqlcache("repl", cache, "--bail", "-c", "query Q", "-c", "pwd")
        XCTAssertEqual(bail.status, .usage)
        XCTAssertEqual(bail.stdout, "")
        // Within one -c, a document over several lines is whole.
        let whole = gqlcache("repl", cache, "-c", "{ hero(episode: NEWHOPE) {\nname } }", "-c", "pwd")
        XCTAssertEqual(whole.stdout, "{\n  \"hero\": {\n    \"name\": \"R2-D2\"\n  }\n}\nQUERY_ROOT\n")
    }

    /// A key of thousands of characters would fill the screen as the
    /// prompt: it is cut in its middle, and pwd still gives it whole.
    func testAVeryLongKeyIsCutInThePromptButNotInPwd() throws {
        let long = "Item:" + String(repeating: "x", count: 3000) + ":end"
        let cache = try makeCache("long.sqlite", [Record(key: .queryRoot, fields: ["a": .int(1)]), Record(key: CacheKey(long), fields: ["a": .int(2)])])
        let session = try startedSession(cache)
        _ = session.execute("cd \(long)")
        XCTAssertEqual(session.prompt, "gqlcache Item:" + String(repeating: "x", count: 27) + "…" + String(repeating: "x", count: 20) + ":end> ")
        let pwd = gqlcache("repl", cache, "-c", "cd \(long); pwd")
        XCTAssertEqual(pwd.stdout, "QUERY_ROOT → \(long)\n")
    }

    /// As show does, refs without a key is about the record you are at.
    func testRefsWithoutAKeyIsAboutTheRecordYouAreAt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("repl", cache, "-c", "cd Starship:3001; refs; refs --format json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Starship:3001 (Starship)\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("  Human:1000 starships[0]\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains(#""key": "Starship:3001""#), result.stdout)
    }

    /// As psql runs each -c in turn: none is dropped for the last.
    func testEveryDashCRunsInTurn() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("repl", cache, "-c", "keys --count", "-c", "cd Human:1000; pwd", "-c", "keys --type Droid")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "10\nQUERY_ROOT → Human:1000\nDroid:2001\n")
    }

    func testHelpListsEveryCommandTheREPLRunsByItsWholeName() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let help = try repl(cache, ["help"]).stdout.split(separator: "\n").map(String.init)
        let listed = help.filter { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        for command in GQLCache.configuration.subcommands.map({ $0._commandName }) {
            if ["repl", "completions"].contains(command) {
                XCTAssertFalse(listed.contains(command), "\(command) is refused in the REPL")
            } else {
                XCTAssertTrue(listed.contains(command), "help lacks \(command): \(listed)")
            }
        }
        XCTAssertTrue(help.contains { $0.hasPrefix("  import  Merge the records") }, "names and abstracts line up")
        // What the prompt takes beyond the commands: separators, comments, no shell, history.
        let text = help.joined(separator: " ")
        for said in ["';' separates commands", "'#' begins a comment", "no pipes or redirections", "Ctrl-R searches the history", "GQLCACHE_HISTORY"] {
            XCTAssertTrue(text.contains(said), "help lacks \(said)")
        }
    }

    /// A record cd went through, removed, no longer lies on the way back:
    /// back leads to the nearest one left, and the session says so.
    func testARemovedRecordOnTheWayHereIsDroppedFromTheTrailAndBackSkipsIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd hero(episode:NEWHOPE)", "cd friends.0", "rm Droid:2001 --force --quiet", "pwd", "back", "pwd"])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertEqual(run.stdout, "QUERY_ROOT → Human:1000\nQUERY_ROOT\n")
        XCTAssertEqual(run.stderr, "gqlcache: Droid:2001, on the way here, is gone; back leads to QUERY_ROOT\n")
        // Cleared whole: the root is where cd .. ends, and it is said to have no record.
        let cleared = try repl(cache, ["cd Human:1002", "clear --force --quiet", "pwd"])
        XCTAssertEqual(cleared.stdout, "QUERY_ROOT\n")
        XCTAssertEqual(cleared.stderr, "gqlcache: Human:1002 is gone; now at QUERY_ROOT (which has no record either)\n")
    }

    /// Another program removing the record you are at (the app, a second
    /// shell) is noticed at the next line: the move is said, and the
    /// command runs where the session now is.
    func testARecordRemovedByAnotherProgramIsLeftAtTheNextLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        var lines = ["cd hero(episode:NEWHOPE)", "cd friends.0", "pwd", "..", "pwd", "keys --count"][...]
        let run = try repl(cache, reader: SourceLineReader(source: LinesFrom {
            // After the first pwd, another connection removes Human:1000;
            // the move up it makes is the one '..' asked for, not one more.
            if lines.count == 3 { _ = try? sqliteShell(cache, "DELETE FROM records WHERE key = 'Human:1000';") }
            return lines.popFirst()
        }))
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertEqual(run.stdout, "QUERY_ROOT → Droid:2001 → Human:1000\nQUERY_ROOT → Droid:2001\n9\n")
        XCTAssertEqual(run.stderr, "gqlcache: Human:1000 is gone; now at Droid:2001\n")
    }

    /// `ls FIELD` names the field's record as cd does; a field that holds
    /// no reference is said to be what it is, not "no record 'friends'".
    func testLsOfAFieldThatHoldsNoReferenceSaysWhatItHoldsAsCdDoes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd Droid:2001", "ls friends", "ls name", "ls friends.1"])
        XCTAssertEqual(run.stderr, """
            gqlcache: friends is a list of 3; say which element, e.g. 'ls friends.0'
            gqlcache: name holds a value, not a reference

            """)
        XCTAssertTrue(run.stdout.hasPrefix("Human:1002 (Human)\n"), run.stdout)
        // A reference to no record is said as cd says it, not as a key typed that is not there.
        try sqliteShell(cache, "DELETE FROM records WHERE key = 'Human:1002'")
        let dangling = try repl(cache, ["cd Droid:2001", "ls friends.1", "cd friends.1"])
        XCTAssertEqual(dangling.stderr, String(
            repeating: "gqlcache: Droid:2001 friends.1 → Human:1002, which is not in the cache (a dangling reference)\n", count: 2))
        XCTAssertEqual(dangling.status, .notFound)
    }

    /// Ctrl-C at a question, which the terminal's answers report as given
    /// up: nothing changes, as for "no", and the status is Ctrl-C's 130.
    func testCtrlCAtAQuestionChangesNothingAndGivesStatus130() throws {
        final class GivenUp: InterruptibleLineSource {
            private var interrupted = false
            func readLine() -> String? { interrupted = true; return nil }
            func takeInterruption() -> Bool { defer { interrupted = false }; return interrupted }
        }
        let cache = try copyOfFixture("starwars.sqlite")
        let stdout = StringSink(), stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines([]), stdinIsTerminal: true, stdoutIsTerminal: false, environment: [:])
        let session = REPLSession(cachePath: cache, context: context, interactive: true)
        session.answers = GivenUp()
        try session.start()
        let before = try bytes(cache)
        XCTAssertEqual(session.run(reader: SourceLineReader(lines: ["rm --match Human"]), bail: false), .interrupted)
        XCTAssertTrue(stderr.text.hasSuffix("? [y/N] \ngqlcache: nothing removed\n"), stderr.text)
        XCTAssertEqual(session.run(reader: SourceLineReader(lines: ["rm Nope:1"]), bail: false), .notFound, "a later command's own status")
        XCTAssertEqual(try bytes(cache), before)
    }

    func testAtThePromptEvenAnExactKeyIsRemovedOnlyAfterConfirming() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let declined = try repl(cache, ["rm Starship:3001"], interactive: true, answers: ["n"])
        XCTAssertEqual(declined.status, .notFound)
        XCTAssertEqual(try keys(in: cache).contains("Starship:3001"), true)
        let confirmed = try repl(cache, ["cd Starship:3001", "rm Starship:3001", "pwd"], interactive: true, answers: ["y"])
        XCTAssertEqual(confirmed.status, .success, confirmed.stderr)
        XCTAssertTrue(confirmed.stderr.contains("remove 1 record from \(cache) (Starship:3001)? [y/N]"), confirmed.stderr)
        XCTAssertFalse(try keys(in: cache).contains("Starship:3001"))
        XCTAssertTrue(confirmed.stdout.hasSuffix("\nQUERY_ROOT\n\n"), "the removed record is left: \(confirmed.stdout)")
        XCTAssertTrue(confirmed.stderr.hasSuffix("gqlcache: Starship:3001 is gone; now at QUERY_ROOT\n"), "and the move said: \(confirmed.stderr)")
        // Where clear clears the screen in a shell or redis-cli, the question says what it does here.
        let cleared = try repl(cache, ["clear"], interactive: true, answers: ["n"])
        XCTAssertTrue(cleared.stderr.contains(
            "remove all 9 records from \(cache)? (this empties the cache; Ctrl-L clears the screen) [y/N]"), cleared.stderr)
        let forced = try repl(cache, ["rm Human:1002 --force"], interactive: true)
        XCTAssertEqual(forced.status, .success, forced.stderr)
        XCTAssertFalse(try keys(in: cache).contains("Human:1002"))
        // A key without a record is named, not asked about; the question lists only those that have one.
        let missing = try repl(cache, ["rm Post:%"], interactive: true, answers: ["y"])
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertEqual(missing.stderr, "gqlcache: no record 'Post:%' in \(cache)\n")
        let some = try repl(cache, ["rm Nope:1 Human:1000"], interactive: true, answers: ["y"])
        XCTAssertTrue(some.stderr.hasPrefix("remove 1 record from \(cache) (Human:1000)? [y/N] "), some.stderr)
        XCTAssertFalse(try keys(in: cache).contains("Human:1000"))
        // A key of thousands of characters is cut in the question, saying how long it is.
        let long = String(repeating: "k", count: 5000)
        _ = gqlcache(arguments: ["import", cache, "-"], input: #"{"key":"\#(long)","record":{"a":1}}"#)
        let asked = try repl(cache, ["rm \(long)"], interactive: true, answers: ["n"])
        XCTAssertTrue(asked.stderr.contains("(\(String(repeating: "k", count: 120))… (5000 characters))? [y/N]"), asked.stderr)
        XCTAssertLessThan(asked.stderr.count, 500)
        // A key with a tab, or a space at its start, is quoted as keys shows
        // it: seen raw, `Tab\tkey:1` would read as a backslash and a t.
        _ = gqlcache(arguments: ["import", cache, "-"], input: #"{"key":"Tab\tkey:1","record":{"a":1}}"# + "\n" + #"{"key":" lead:1","record":{"a":1}}"#)
        let odd = try repl(cache, [#"rm "Tab\tkey:1" " lead:1""#], interactive: true, answers: ["n"])
        XCTAssertTrue(odd.stderr.contains(#"(" lead:1", "Tab\tkey:1")? [y/N]"#) || odd.stderr.contains(#"("Tab\tkey:1", " lead:1")? [y/N]"#), odd.stderr)
    }

    func testTheFileIsOpenedOnceAndAnotherWriterIsSeenByTheNextCommand() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let stdout = StringSink()
        let context = CommandContext(stdout: stdout, stderr: StringSink(), stdin: ScriptedLines([]), stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        let session = REPLSession(cachePath: cache, context: context, interactive: false)
        try session.start()
        _ = session.execute("keys --count")
        // Another process (here, another connection) writes between two commands.
        _ = try CacheStore.open(at: cache, access: .readWrite).write { tx in try tx.removeObject(for: CacheKey("Starship:3001")) }
        _ = session.execute("keys --count")
        XCTAssertEqual(stdout.text, "10\n9\n")
    }

    /// In WAL mode every open connection, even idle, holds a lock that
    /// tells SQLite another one is there: had the session kept its
    /// connections between commands, the app closing the file would not
    /// take itself for the last and would leave its changes in the -wal
    /// file. Nothing is held at the prompt; within a command, the file's
    /// own name given as an input is still told from an export.
    func testNothingIsHeldAtThePromptSoTheAppsLastCloseCheckpointsTheWAL() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let export = path("one.jsonl")
        try #"{"key":"Tool:1","record":{"name":"first"}}"#.appending("\n").write(toFile: export, atomically: true, encoding: .utf8)
        let run = try repl(cache, ["import \(export)", "info", "doctor", "import \(cache)", "export -o \(cache)"])
        XCTAssertTrue(run.stderr.contains("\(cache): a cache file open in this session, not an export"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-wal"), "the session's write was checkpointed as it closed")
        // After a read, too: the app (the sqlite3 shell) writes and closes as the last connection.
        XCTAssertEqual(run.session.run(reader: SourceLineReader(lines: ["keys --count"]), bail: false), .success)
        try sqliteShell(cache, #"INSERT INTO records (key, record) VALUES ('App:1', '{"name":"app"}')"#)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-wal"), "the app's close found the session's connection")
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records WHERE key IN ('App:1', 'Tool:1')"), "2")
    }

    /// A store kept open on a file that was since replaced (the app made
    /// a new cache, or one was copied over it) is closed before the new
    /// file is opened: a writer left on the old WAL-mode file holds its
    /// -wal, which the new file's connection would read as its own, call
    /// the file corrupt, and write into it on the next checkpoint.
    func testAFileReplacedWhileAWriterHeldItIsOpenedAfterTheWriterCloses() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let other = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: other)
        try sqliteShell(other, "PRAGMA journal_mode=WAL")
        let export = path("one.jsonl")
        try #"{"key":"Tool:1","record":{"name":"first"}}"#.appending("\n").write(toFile: export, atomically: true, encoding: .utf8)
        let run = try repl(cache, [])
        // execute() alone keeps the stores open, as within one line.
        XCTAssertEqual(run.session.execute("import \(export) -q"), .success)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache + "-wal"))
        let count = try sqliteShell(other, "SELECT count(*) FROM records")
        XCTAssertEqual(rename(other, cache), 0)
        let stdout = run.session.context.stdout as! StringSink
        let before = stdout.text.count
        XCTAssertEqual(run.session.execute("keys --count"), .success)
        XCTAssertEqual(String(stdout.text.dropFirst(before)), count + "\n", (run.session.context.stderr as! StringSink).text)
        XCTAssertEqual(run.session.execute("import \(export) -q"), .success)
        run.session.stores.closeAll()
        XCTAssertEqual(try sqliteShell(cache, "PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records"), String(Int(count)! + 1))
    }

    /// A document a command could not read (here the cache file itself) is
    /// not remembered: Tab would read it for operation names, and reading
    /// the open cache file through a descriptor of its own would release
    /// the session's locks on it.
    /// A document that reads well is remembered also when the command
    /// failed for another reason, such as naming no operation of several.
    func testADocumentThatReadsWellIsRememberedWhenItsCommandFailedOtherwise() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("ops.graphql")
        try "query HeroName { hero(episode: NEWHOPE) { name } }\nquery HumanName { human(id: \"1000\") { name } }"
            .write(toFile: document, atomically: true, encoding: .utf8)
        let run = try repl(cache, ["read --document \(document)", "read HeroName --format jsonl"])
        XCTAssertTrue(run.stderr.hasPrefix("gqlcache: the documents hold several operations; name one"), run.stderr)
        XCTAssertEqual(run.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n")
        XCTAssertEqual(run.session.documentFiles, [document])
    }

    func testADocumentACommandCouldNotReadIsNotOfferedToLaterCommands() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("hero.graphql")
        try "query Hero { hero { name } }".write(toFile: document, atomically: true, encoding: .utf8)
        let run = try repl(cache, ["read --document \(cache)", "read --document \(document)"])
        XCTAssertEqual(run.session.documentFiles, [document])
        XCTAssertEqual(CompletionSources.definitionNames(documentFiles: [cache, document]).operations, ["Hero"])
    }

    /// A write at the prompt is checkpointed when its command ends (the
    /// session is the last connection): doctor finds no changes waiting in
    /// a -wal file, and a copy of the file alone holds the write.
    func testAWriteAtThePromptLeavesNoWALForDoctorToFind() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let export = path("one.jsonl")
        try #"{"key":"Droid:2001","record":{"name":"Artoo"}}"#.appending("\n").write(toFile: export, atomically: true, encoding: .utf8)
        let run = try repl(cache, ["import \(export)", "doctor"])
        XCTAssertEqual(run.status, .success, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("WAL: no changes waiting for a checkpoint"), run.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-wal"))
    }

    /// doctor's suggested repair is typed at the prompt as shown: without
    /// `gqlcache` and the file, which the prompt refuses.
    func testDoctorAtThePromptSuggestsRepairsAsTheyAreTypedThere() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = gqlcache("rm", cache, "Human:1002", "--force", "-q")
        let run = try repl(cache, ["doctor", "gc --dangling --force"])
        XCTAssertTrue(run.stdout.contains("repair with: gc --dangling (add --dry-run to see each change first)\n"), run.stdout)
        XCTAssertEqual(gqlcache("doctor", cache).status, .success, "the repair as suggested ran at the prompt")
    }

    /// A key that is a shell's pipe or redirection on its own (`|`, `>`)
    /// comes quoted from Tab, as the prompt refuses it bare.
    func testTabQuotesAKeyThatIsAPipeOrARedirectionOnItsOwn() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('|', '{"a":1}'), ('>', '{"a":1}'), ('>x', '{"a":1}')"#)
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "|", before: "show "), .candidates(["|"]))
        for (key, quoted) in [("|", "'|'"), (">", "'>'"), ("2>&1", "'2>&1'"), (">x", ">x")] {
            let typed = ShellWords.partialWord("show " + key)
            XCTAssertEqual(REPLCompleter.insertion(for: [key], completing: typed)?.text, quoted, key)
        }
        let run = try repl(cache, ["show '|'", "show '>'", "show >x"])
        XCTAssertEqual(run.status, .success, run.stderr)
    }

    func testOpenSwitchesFilesAndAFileThatIsNotACacheKeepsTheOldOne() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let legacy = try copyOfFixture("legacy-sqlite-swift.sqlite")
        let text = path("notes.txt")
        try "hello".write(toFile: text, atomically: true, encoding: .utf8)
        let run = try repl(cache, ["open \(text)", "keys --count", "open \(legacy)", "keys --count"], interactive: true)
        XCTAssertEqual(run.stdout, "10\nopened \(legacy)\n2\n\n", "at the end of input, a line break after the prompt")
        XCTAssertTrue(run.stderr.hasPrefix("gqlcache: \(text): "), run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("; still on \(cache)\n"), run.stderr)
        XCTAssertEqual(run.session.cachePath, legacy)
    }

    /// The prompt runs no shell: a pipe or redirection typed as in one is
    /// said to be none, with the shell's command line, not taken for an
    /// option or a key; quoted, it is a key as any other.
    func testAPipeOrRedirectionAtThePromptIsSaidToBeNone() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["keys | head -2", "show --depth 2 > out.txt", "show '|'", "ls | less", "read | head", #"grep 'x > y' '>'"#],
                           interactive: true)
        XCTAssertEqual(run.stdout, "\n", "at the end of input, a line break after the prompt")
        XCTAssertEqual(run.stderr, "gqlcache: the prompt runs no shell, so '|' pipes nothing; from a shell: gqlcache keys \(cache) | head -2\n"
            + "gqlcache: the prompt runs no shell, so '>' redirects nothing\n"
            + "gqlcache: no record '|' in \(cache)\n"
            // No shell command line for the prompt's own commands, nor for
            // one that may work on the record you are at or a query typed
            // before, which a shell's does not know.
            + "gqlcache: the prompt runs no shell, so '|' pipes nothing\n"
            + "gqlcache: the prompt runs no shell, so '|' pipes nothing\n"
            // Quoted, '>' is a word, also beside another word holding ' > '.
            + "gqlcache: unexpected argument '>' (see 'help grep')\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.txt")))
        // A shell's import reads standard input only when its input is `-`.
        let redirected = try repl(cache, ["import < ex.jsonl", "import --format jsonl < ex.jsonl", "import other.jsonl < ex.jsonl", "import --dry-run - < 'my ex.jsonl'"], interactive: true)
        XCTAssertEqual(redirected.stderr.split(separator: "\n").map(String.init), [
            "gqlcache: the prompt runs no shell, so '<' redirects nothing; from a shell: gqlcache import \(cache) - < ex.jsonl",
            "gqlcache: the prompt runs no shell, so '<' redirects nothing; from a shell: gqlcache import \(cache) --format jsonl - < ex.jsonl",
            "gqlcache: the prompt runs no shell, so '<' redirects nothing; from a shell: gqlcache import \(cache) other.jsonl < ex.jsonl",
            "gqlcache: the prompt runs no shell, so '<' redirects nothing; from a shell: gqlcache import \(cache) --dry-run - < 'my ex.jsonl'",
        ])
        // Each word is written as a shell reads it: parentheses, a backtick
        // and a JSON escape the prompt read in double quotes.
        let quoted = try repl(cache, ["keys Droid:2001.friendsConnection(after:null,first:2) | wc -l", "keys Tag:`% | head -1",
                                      #"keys "New\nline:%" --mode literal > "out file""#], interactive: true)
        XCTAssertEqual(quoted.stderr.split(separator: "\n").map(String.init), [
            "gqlcache: the prompt runs no shell, so '|' pipes nothing; from a shell: gqlcache keys \(cache) 'Droid:2001.friendsConnection(after:null,first:2)' | wc -l",
            "gqlcache: the prompt runs no shell, so '|' pipes nothing; from a shell: gqlcache keys \(cache) 'Tag:`%' | head -1",
            "gqlcache: the prompt runs no shell, so '>' redirects nothing; from a shell: gqlcache keys \(cache) $'New\\nline:%' --mode literal > 'out file'",
        ])
        for line in quoted.stderr.split(separator: "\n") {
            // bash reads each command line as it stands.
            let command = String(line.split(separator: "from a shell: ", maxSplits: 1)[1])
            XCTAssertEqual(try runProgram("/bin/bash", ["-n", "-c", command]).status, 0, command)
        }
    }

    /// In double quotes the prompt reads JSON escapes, so "\bSolo\b" is
    /// backspaces, not a regular expression's word boundaries: warned of,
    /// with the word in single quotes, which reads as a shell's do. A
    /// backslash before a letter JSON gives no escape stays, unwarned.
    func testABackspaceEscapeInDoubleQuotesIsWarnedOfWithTheWordInSingleQuotes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [#"grep --regex "\bSolo\b""#, #"grep --regex '\bSolo\b'"#, #"keys --mode regex "^Human:\d+$""#])
        XCTAssertEqual(run.stderr.split(separator: "\n").map(String.init), [
            #"gqlcache: warning: "\b" in double quotes is a backspace (a JSON escape), not a regular expression's \b; "#
                + #"for that, quote it in single quotes: '\bSolo\b'"#,
            #"gqlcache: no field value matches the regular expression '\u0008Solo\u0008' in \#(cache)"#,
        ])
        XCTAssertEqual(run.stdout, "Human:1002 name: \"Han Solo\"\nHuman:1000\nHuman:1002\n")
    }

    /// A file name with a space, typed bare, is two words: the message
    /// says how to quote it, as cd's does, and, as every failed open at
    /// the prompt, which file the next commands still go to.
    func testOpenOfTwoWordsSaysHowToQuoteAFileNameWithASpace() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["open app cache.sqlite", "open", "open ''"], interactive: true)
        XCTAssertEqual(run.stderr, "gqlcache: open takes one cache file; one with spaces is quoted: open 'app cache.sqlite'; still on \(cache)\n"
            + "gqlcache: open takes the cache file to switch to; still on \(cache)\n"
            + "gqlcache: open takes the cache file to switch to; still on \(cache)\n")
    }

    /// At the prompt a failed open keeps the file open; in a script the
    /// commands after it were meant for the other file, and would run on
    /// this one (`open scratch.sqlite` mistyped, then `clear --force`):
    /// the script stops there, with the open's status, as psql stops at a
    /// failed \connect.
    func testInAScriptAFailedOpenStopsItBeforeTheNextCommandRunsOnTheOldFile() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let missing = path("scratch-typo.sqlite")
        let run = try repl(cache, ["open \(missing)", "clear --force"])
        XCTAssertEqual(run.status, .io)
        XCTAssertEqual(run.stderr, "gqlcache: \(missing): no such file; the script stops here, so that no command meant for that file runs on \(cache)\n")
        XCTAssertEqual(run.stdout, "")
        let usage = try repl(cache, ["open", "rm --force Human:1000"])
        XCTAssertEqual(usage.status, .usage)
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n", "nothing was removed")
        let commandLine = gqlcache("repl", cache, "-c", "open \(missing); rm --force --type Human")
        XCTAssertEqual(commandLine.status, .io)
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n")
    }

    /// A script piped in names the line of each error and warning, as
    /// sqlite3 says "near line 3" (a document's first line, blank lines
    /// and comments counted); -c and a prompt do not number theirs.
    func testAScriptOnStandardInputNamesTheLineOfEachMessage() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let script = [
            "keys --count", "", "# a comment", "show Nope:1", "{ hero(episode: NEWHOPE) {", "  nme } }",
            "keys Nope; bogus", #"read --text '{ hero(episode: NEWHOPE) { name } }' --variables '{"x":1}' --format jsonl"#,
            "{ hero(episode: NEWHOPE) {", "  name", "  friends {", "  }", "} }", "read",
            "read { hero(episode: NEWHOPE) { name friends { } } }", "query Q {",
        ].joined(separator: "\n") + "\n"
        try script.write(toFile: path("script.txt"), atomically: true, encoding: .utf8)
        let piped = try runProgram(builtBinary, ["repl", cache], standardInput: path("script.txt"))
        XCTAssertEqual(piped.stdout, "10\n" + #"{"hero":{"name":"R2-D2"}}"# + "\n")
        let messages = piped.stderr.split(separator: "\n").map { String($0.prefix(while: { $0 != "'" })) }
        XCTAssertEqual(messages, [
            "gqlcache: line 4: no record ", "gqlcache: line 5: cache miss at hero.nme: record ",
            "gqlcache: line 7: no key matches apollo pattern ", "gqlcache: line 7: unknown command ",
            "gqlcache: line 8: warning: the operation does not define $x, so it was not used; it defines none",
            // A place in GraphQL typed in the script is the script's line and column.
            "gqlcache: line 12:3: syntax error: Expected Name, found }",
            // Read again on a later line, it is placed where it was typed; after 'read', at its column on the line.
            "gqlcache: line 12:3: syntax error: Expected Name, found }",
            "gqlcache: line 15:48: syntax error: Expected Name, found }",
            "gqlcache: line 16: the GraphQL document begun with ",
        ], piped.stderr)
        let withC = gqlcache("repl", cache, "-c", "keys --count; show Nope:1")
        XCTAssertEqual(withC.stderr, "gqlcache: no record 'Nope:1' in \(cache)\n")
    }

    /// A script line that is not UTF-8 (a Latin-1 file) is refused, naming
    /// its line, as an argument that is not is: read with U+FFFD for its
    /// bad bytes, `rm X\xFF` removed the record keyed `X\u{FFFD}`, and
    /// `--set name=Caf\xE9` wrote U+FFFD into the cache. The lines after
    /// it run; --bail stops there.
    func testAScriptLineThatIsNotUTF8IsRefusedAndNothingItNamedIsChanged() throws {
        let cache = try makeCache("bytes.sqlite", [
            Record(key: "X\u{FFFD}", fields: ["__typename": .string("X")]),
            Record(key: "Y:1", fields: ["__typename": .string("Y"), "name": .string("Y")]),
        ])
        let before = try bytes(cache)
        // A bad line inside a GraphQL document, or beginning one, drops the whole document: none of its other lines runs.
        let parts: [[UInt8]] = [
            Array("keys --count\nrm X".utf8), [0xFF], Array("\n{\n  y(id: \"1".utf8), [0xE9],
            Array("\")\n  {\n    name\n  }\n}\nread { x".utf8), [0xE9], Array(" {\n name } }\nkeys --count\n".utf8),
        ]
        var script = Data(parts.joined())
        try script.write(to: URL(fileURLWithPath: path("script.txt")))
        let piped = try runProgram(builtBinary, ["repl", cache], standardInput: path("script.txt"))
        XCTAssertEqual(piped.status, 0, "the last command's status")
        XCTAssertEqual(piped.stdout, "2\n2\n")
        let why = "(gqlcache reads keys, paths and values as UTF-8, and read so it would name something else)"
        XCTAssertEqual(piped.stderr, """
            gqlcache: line 2: the line is not UTF-8 text at byte 5; it was not run \(why)
            gqlcache: line 4: the line is not UTF-8 text at byte 11; it was not run, nor the GraphQL document it is part of \(why)
            gqlcache: line 9: the line is not UTF-8 text at byte 9; it was not run, nor the GraphQL document it is part of \(why)

            """)
        XCTAssertEqual(try bytes(cache), before)
        script = Data("rm X".utf8) + Data([0xFF]) + Data("\nrm Y:1\n".utf8)
        try script.write(to: URL(fileURLWithPath: path("script.txt")))
        let bailed = try runProgram(builtBinary, ["repl", cache, "--bail"], standardInput: path("script.txt"))
        XCTAssertEqual(bailed.status, 2)
        XCTAssertEqual(try bytes(cache), before, "--bail stops at the line")
    }

    func testQuitEndsTheLoopAndLaterLinesDoNotRun() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["keys --count", "quit", "keys --count"])
        XCTAssertEqual(run.stdout, "10\n")
    }

    func testDashCRunsCommandsSeparatedBySemicolonsAndExitsWithTheLastStatus() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let ok = gqlcache("repl", cache, "-c", "cd hero(episode:NEWHOPE); pwd; keys 'Human:%' --count")
        XCTAssertEqual(ok.status, .success, ok.stderr)
        XCTAssertEqual(ok.stdout, "QUERY_ROOT → Droid:2001\n2\n")
        let failing = gqlcache("repl", cache, "-c", "show Nope; keys --count", "--bail")
        XCTAssertEqual(failing.status, .notFound)
        XCTAssertEqual(failing.stdout, "")
        let scripted = gqlcache("repl", cache, "-c", "keys --count; show Nope")
        XCTAssertEqual(scripted.status, .notFound)
        XCTAssertEqual(scripted.stdout, "10\n")
        // A script's lines given with -c run as its lines; a quoted line break stays in its word.
        let lines = gqlcache("repl", cache, "-c", "cd hero(episode:NEWHOPE)\npwd\nread --text '{\n hero(episode: NEWHOPE) { name } }' --format json")
        XCTAssertEqual(lines.status, .success, lines.stderr)
        XCTAssertEqual(lines.stdout, "QUERY_ROOT → Droid:2001\n{\"hero\":{\"name\":\"R2-D2\"}}\n")
    }

    /// A line typed at the prompt, or piped in, runs its commands separated
    /// by ';' as -c does (sqlite3 users type them); a quoted ';' is text,
    /// and --bail stops the rest of the line too.
    func testSemicolonsSeparateCommandsOnATypedOrPipedLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, ["cd hero(episode:NEWHOPE); pwd; keys 'Human:%' --count", "keys 'a;b' --count"])
        XCTAssertEqual(run.stdout, "QUERY_ROOT → Droid:2001\n2\n0\n")
        XCTAssertEqual(run.stderr, "")
        try "keys --count; show Nope; keys 'Human:%' --count\n".write(toFile: path("script.txt"), atomically: true, encoding: .utf8)
        let piped = try runProgram(builtBinary, ["repl", cache], standardInput: path("script.txt"))
        XCTAssertEqual(piped.stdout, "10\n2\n")
        XCTAssertTrue(piped.stderr.hasPrefix("gqlcache: line 1: no record 'Nope'"), piped.stderr)
        XCTAssertEqual(piped.status, 0)
        let bailed = try repl(cache, ["show Nope; keys --count", "keys --count"], bail: true)
        XCTAssertEqual(bailed.stdout, "")
        XCTAssertEqual(bailed.status, .notFound)
        // GraphQL begins a line: after a ';' it is said so, not taken for an unknown command.
        let graphQL = try repl(cache, ["cd /; fragment H on Human { name }", "keys --count; { hero { name } }"])
        XCTAssertEqual(graphQL.stderr, String(repeating: "gqlcache: GraphQL runs when it begins a line, not after a ';': "
            + "type it on a line of its own, or give it with 'read --text'\n", count: 2))
        // Completion quotes a key holding ';', which would end the command.
        XCTAssertEqual(ShellWords.quote("a;b"), "'a;b'")
    }

    /// Completion writes a key that holds a line break as JSON escapes in
    /// double quotes: it reads back whole, also one that begins with a
    /// combining mark, which makes one character with the quote before it.
    func testAKeyCompletionQuotesWithEscapesReadsBackWhole() throws {
        for key in ["\u{301}a\nb", "a\nb\u{600}"] {
            XCTAssertEqual(try ShellWords.split(ShellWords.quote(key)), [key], ShellWords.quote(key))
        }
    }

    func testEditOpensTheLastQueryInTheEditorAndReadsWhatWasSaved() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let editor = path("editor.sh")
        try "#!/bin/sh\nsed -i 's/name/primaryFunction/' \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor)
        let stdout = StringSink()
        let context = CommandContext(stdout: stdout, stderr: StringSink(), stdin: ScriptedLines([]), stdinIsTerminal: false,
                                     stdoutIsTerminal: false, environment: ["EDITOR": editor])
        let session = REPLSession(cachePath: cache, context: context, interactive: false)
        try session.start()
        // A fragment typed after the query is no query: \e opens the query, as read reads it.
        _ = session.run(reader: SourceLineReader(lines: ["{ hero(episode: NEWHOPE) { name } }", "fragment N on Droid { name }", "\\e"]), bail: false)
        XCTAssertEqual(stdout.text, """
            {
              "hero": {
                "name": "R2-D2"
              }
            }
            fragment N on Droid is defined; cd to a Droid record to read it, or give 'read --fragment N --key KEY'
            {
              "hero": {
                "primaryFunction": "Astromech"
              }
            }

            """)
    }

    /// The first edit of a session starts from empty braces: saved as they
    /// are, nothing was typed, and nothing runs.
    func testAnEditThatLeavesTheStartingBracesRunsNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let stdout = StringSink(), stderr = StringSink()
        let context = CommandContext(stdout: stdout, stderr: stderr, stdin: ScriptedLines([]), stdinIsTerminal: false,
                                     stdoutIsTerminal: false, environment: ["EDITOR": "true"])
        let session = REPLSession(cachePath: cache, context: context, interactive: false)
        try session.start()
        let status = session.run(reader: SourceLineReader(lines: ["edit"]), bail: false)
        XCTAssertEqual(status, .success, stderr.text)
        XCTAssertEqual(stdout.text, "empty query; nothing run\n")
        XCTAssertEqual(stderr.text, "")
    }

    /// A query saved in another encoding (Latin-1) is refused as a document
    /// file that is not UTF-8 is, not taken for an empty one.
    func testAnEditSavedAsTextThatIsNotUTF8IsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let editor = path("editor.sh")
        try "#!/bin/sh\nprintf '{ hero(episode: NEWHOPE) { name } } # caf\\351\\n' > \"$1\"\n".write(toFile: editor, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor)
        let stdout = StringSink(), stderr = StringSink()
        let context = CommandContext(stdout: stdout, stderr: stderr, stdin: ScriptedLines([]), stdinIsTerminal: false,
                                     stdoutIsTerminal: false, environment: ["EDITOR": editor])
        let session = REPLSession(cachePath: cache, context: context, interactive: false)
        try session.start()
        let status = session.run(reader: SourceLineReader(lines: ["edit"]), bail: false)
        XCTAssertEqual(status, .usage)
        XCTAssertEqual(stdout.text, "")
        XCTAssertEqual(stderr.text, "gqlcache: edit:1: the query is not UTF-8 text at byte 42 of the line; nothing run\n")
    }

    func testGqlcacheFollowedByAFileOpensTheREPLOnIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache(cache, "-c", "keys --count")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "10\n")
        let notAFile = gqlcache("frobnicate")
        XCTAssertEqual(notAFile.status, .usage)
        XCTAssertTrue(notAFile.stderr.hasPrefix("gqlcache: unknown command 'frobnicate'"), notAFile.stderr)
    }

    func testGcAtThePromptAsksFirstAndDeclinedChangesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000").status, .success)
        let before = try bytes(cache)
        let declined = try repl(cache, ["gc --all"], interactive: true, answers: ["n"])
        XCTAssertEqual(declined.status, .notFound)
        // The question names the first few of each, as rm's names its keys.
        XCTAssertTrue(declined.stderr.contains("remove 1 record (Starship:3001) and drop 4 references (Droid:2001 friends[0] → Human:1000, "
            + "Droid:2001.friendsConnection(after:null,first:2) friends[0] → Human:1000, QUERY_ROOT human(id:1000) → Human:1000, …) "
            + "in \(cache)? [y/N]"), declined.stderr)
        XCTAssertEqual(try bytes(cache), before)
        // Only what it would do: no "remove 0 records".
        let onlyDrops = try repl(cache, ["gc --dangling"], interactive: true, answers: ["n"])
        XCTAssertTrue(onlyDrops.stderr.hasPrefix("drop 4 references (Droid:2001 friends[0] → Human:1000, "), onlyDrops.stderr)
        XCTAssertFalse(onlyDrops.stderr.contains("remove"), onlyDrops.stderr)
        XCTAssertEqual(try bytes(cache), before)
        let confirmed = try repl(cache, ["gc --all", "doctor"], interactive: true, answers: ["y"])
        XCTAssertEqual(confirmed.status, .success, confirmed.stderr)
        XCTAssertTrue(confirmed.stdout.contains("removed 1 unreachable record:\n  Starship:3001\n"), confirmed.stdout)
    }

    /// `repl --busy-timeout S` is the session's wait while the app holds
    /// the lock: for its own `cd` and for every command that names no wait
    /// of its own; one that does keeps it.
    func testREPLBusyTimeoutHoldsForItsCommandsUnlessOneGivesItsOwn() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let stdout = StringSink()
        let stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines([]), stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        let session = REPLSession(cachePath: cache, context: context, interactive: false, busyTimeout: 0.2)
        try session.start()
        XCTAssertEqual(session.sessionWait(for: ["keys", "Hu%"]), ["--busy-timeout", "0.2"])
        XCTAssertEqual(session.sessionWait(for: ["keys", "--busy-timeout=1"]), [])
        XCTAssertEqual(session.sessionWait(for: ["grep", "--", "--busy-timeout"]), ["--busy-timeout", "0.2"], "a value after -- is no option")

        let app = try RunningSQLiteShell.holdingExclusiveLock(on: cache)
        defer { app.finish() }
        let started = Date()
        let status = session.run(reader: SourceLineReader(lines: ["keys --count", "cd Human:1000", "info --busy-timeout 0.3"]), bail: false)
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "each waited a fraction of a second, not the standard 5 s")
        XCTAssertEqual(status, .busy)
        let lines = stderr.text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, stderr.text)
        XCTAssertTrue(lines[0].contains("(waited 0.2s)"), stderr.text)
        XCTAssertTrue(lines[1].contains("(waited 0.2s)"), "cd reads with the session's wait: \(stderr.text)")
        XCTAssertTrue(lines[2].contains("(waited 0.3s)"), "a command's own --busy-timeout wins: \(stderr.text)")
    }

    /// Ctrl-C while a REPL command waits to open the file (the app holds
    /// its exclusive lock) stops the wait: it reaches the store being
    /// opened, not only the stores already open.
    func testAnInterruptStopsTheWaitOfAStoreBeingOpened() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let app = try RunningSQLiteShell.holdingExclusiveLock(on: cache)
        defer { app.finish() }
        let stores = OpenStores()
        let started = Date()
        let outcome = UncheckedResult()
        let opening = Thread {
            outcome.value = Result {
                try stores.store(path: cache, access: .readOnly, busyTimeout: 60) {
                    try CacheStore.open(at: cache, access: .readOnly, busyTimeout: 60, interrupt: $0)
                }
            }
            outcome.done.signal()
        }
        opening.start()
        usleep(300_000)
        stores.interruptAll()
        XCTAssertEqual(outcome.done.wait(timeout: .now() + 20), .success, "the open stopped waiting")
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        guard case .failure(CacheStoreError.interrupted(let path))? = outcome.value else {
            return XCTFail("expected an interrupted open, got \(String(describing: outcome.value))")
        }
        XCTAssertEqual(path, cache)
    }

    /// Starting the REPL on a file the app holds fails after the wait given,
    /// with the option to raise named.
    func testREPLThatCannotOpenItsFileSaysToRaiseBusyTimeout() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let app = try RunningSQLiteShell.holdingExclusiveLock(on: cache)
        defer { app.finish() }
        let result = gqlcache(arguments: ["repl", cache, "--busy-timeout", "0.2", "-c", "keys"])
        XCTAssertEqual(result.status, .busy)
        XCTAssertEqual(result.stderr, "gqlcache: \(cache): another process holds the database lock (waited 0.2s); try again, or raise --busy-timeout\n")
    }

    // MARK: - Completion

    /// A session on `cache`, started, with no terminal and its output kept apart.
    func startedSession(_ cache: String) throws -> REPLSession {
        let context = CommandContext(stdout: StringSink(), stderr: StringSink(), stdin: ScriptedLines([]), stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        let session = REPLSession(cachePath: cache, context: context, interactive: false)
        try session.start()
        return session
    }

    func completer(_ cache: String, at place: String = "QUERY_ROOT") throws -> REPLCompleter {
        let session = try startedSession(cache)
        if place != "QUERY_ROOT" { _ = session.execute("cd \(place)") }
        return REPLCompleter(session: session)
    }

    func testCompletionOffersCommandsFlagsAndKeysWithColonsAndParentheses() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "re", before: ""), .candidates(["read", "refs", "repl"].filter { $0 != "repl" }))
        XCTAssertEqual(completer.complete(word: "--dr", before: "rm "), .candidates(["--dry-run"]))
        XCTAssertEqual(completer.complete(word: "Human:10", before: "show "), .candidates(["Human:1000", "Human:1002"]))
        XCTAssertEqual(completer.complete(word: "Droid:2001.f", before: "rm "), .candidates(["Droid:2001.friendsConnection(after:null,first:2)"]))
        XCTAssertEqual(completer.complete(word: "QUERY_ROOT.reviews(episode:JEDI,first:2).", before: "show "),
                       .candidates(["QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1"]))
        XCTAssertEqual(completer.complete(word: "", before: "read --document "), .fileNames)
        XCTAssertEqual(completer.complete(word: "", before: "open "), .fileNames)
    }

    /// A line may hold several commands; Tab completes for the one after
    /// the last `;`, not the first, and a `;` in quotes ends none.
    func testCompletionAfterASemicolonIsForTheCommandAfterIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "sh", before: "pwd; "), .candidates(["show"]))
        XCTAssertEqual(completer.complete(word: "Human:10", before: "pwd; show "), .candidates(["Human:1000", "Human:1002"]))
        XCTAssertEqual(completer.complete(word: "--cas", before: "show Droid:2001; rm "), .candidates(["--cascade"]))
        XCTAssertEqual(completer.complete(word: "", before: "pwd;open "), .fileNames)
        XCTAssertEqual(completer.complete(word: "Human:10", before: "read --text 'a;b' --fragment F --key "), .candidates(["Human:1000", "Human:1002"]))
        let word = ShellWords.partialWord("pwd;sh")
        XCTAssertEqual(word.value, "sh")
        XCTAssertEqual(word.start, 4)
    }

    /// Tab after `../` offers what cd can reach from the record before,
    /// so `cd ../fr<Tab>` completes as `cd fr<Tab>` does there.
    func testCompletionOfARelativePathOffersTheFieldsOfTheRecordItGoesBackTo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache, at: "hero(episode:NEWHOPE)")
        _ = completer.session.execute("cd friends.0")
        XCTAssertEqual(completer.complete(word: "../friends.", before: "cd "), .candidates(["../friends.0", "../friends.1"]), "friends.2 is null")
        XCTAssertEqual(completer.complete(word: "../..", before: "ls "), .candidates(["../.."]))
        XCTAssertEqual(completer.complete(word: "./st", before: "cd "), .candidates(["./starships.0"]))
        guard case .candidates(let fromRoot) = completer.complete(word: "../../h", before: "cd ") else { return XCTFail() }
        XCTAssertTrue(fromRoot.contains("../../hero(episode:NEWHOPE)"), "\(fromRoot)")
        XCTAssertEqual(completer.complete(word: "../friends.0/", before: "cd "), .candidates([]))
        // `..` is offered where it leads back, never at the root, where it stays.
        XCTAssertEqual(completer.complete(word: "../.", before: "cd "), .candidates(["../.."]))
        XCTAssertFalse(fromRoot.contains("../../.."), "\(fromRoot)")
        _ = completer.session.execute("cd /")
        guard case .candidates(let atRoot) = completer.complete(word: "", before: "cd ") else { return XCTFail() }
        XCTAssertFalse(atRoot.contains(".."), "\(atRoot)")
        XCTAssertTrue(atRoot.contains("hero(episode:NEWHOPE)"), "\(atRoot)")
    }

    /// More keys match than are listed: the last one listed is the
    /// greatest match, so what the list shares, which Tab inserts, is
    /// what all of them share, not the first 200's longer beginning.
    func testKeysCutShortStillShareOnlyWhatEveryMatchShares() throws {
        let post: [String: FieldValue] = ["__typename": .string("Post")]
        let cache = try makeCache("many.sqlite", (0..<250).map { Record(key: CacheKey("Post:1\($0)"), fields: post) }
            + [Record(key: "Post:2", fields: post), Record(key: .queryRoot, fields: ["a": .int(1)])])
        let completer = try completer(cache)
        guard case .candidates(let found) = completer.complete(word: "Post:", before: "show ") else { return XCTFail() }
        XCTAssertEqual(found.count, REPLCompleter.keyLimit)
        XCTAssertEqual(found.first, "Post:10")
        XCTAssertEqual(found.last, "Post:2")
        let word = ShellWords.partialWord("Post:")
        XCTAssertEqual(REPLCompleter.insertion(for: found, completing: word)?.text, "Post:")
        guard case .candidates(let ones) = completer.complete(word: "Post:1", before: "show ") else { return XCTFail() }
        XCTAssertEqual(ones.last, "Post:199", "the greatest of the 250 that begin Post:1")
        XCTAssertEqual(REPLCompleter.insertion(for: ones, completing: ShellWords.partialWord("Post:1"))?.text, "Post:1")
        // The list says it is cut (Tab-Tab shows a line under it); one with every match does not.
        XCTAssertTrue(completer.keysCut)
        guard case .candidates(let all) = completer.complete(word: "Post:124", before: "show ") else { return XCTFail() }
        XCTAssertEqual(all.count, 11)
        XCTAssertFalse(completer.keysCut)
    }

    /// `café:1` composed and decomposed are two keys: Tab offers both and
    /// inserts only what both share by their bytes, never one for the other.
    func testKeysThatDifferOnlyInUnicodeNormalizationAreBothOffered() throws {
        let composed = "caf\u{E9}:1", decomposed = "cafe\u{301}:1"
        let cache = try makeCache("cafe.sqlite", [
            Record(key: .queryRoot, fields: ["a": .int(1)]),
            Record(key: CacheKey(composed), fields: ["v": .int(1)]), Record(key: CacheKey(decomposed), fields: ["v": .int(2)]),
        ])
        let completer = try completer(cache)
        guard case .candidates(let found) = completer.complete(word: "caf", before: "show ") else { return XCTFail() }
        XCTAssertEqual(Set(found.map { Array($0.utf8) }), [Array(composed.utf8), Array(decomposed.utf8)])
        XCTAssertEqual(REPLCompleter.insertion(for: found, completing: ShellWords.partialWord("caf"))?.text, "caf")
    }

    func testTypeCompletesTheTypenamesTheFileHoldsUntilTheNextCommand() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let session = try startedSession(cache)
        let completer = REPLCompleter(session: session)
        XCTAssertEqual(completer.complete(word: "", before: "keys --type "), .candidates(["Droid", "FriendsConnection", "Human", "Review", "Starship"]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "rm --type "), .candidates(["Human"]))
        _ = session.execute("rm --type Starship --force")
        XCTAssertEqual(completer.complete(word: "S", before: "keys --type "), .candidates([]), "worked out again after a command ran")
    }

    func testGrepFieldCompletesTheFieldNamesTheRecordsHold() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "fr", before: "grep Luke --field "), .candidates(["friends", "friendsConnection"]))
        // The arguments once a '(' is typed; no field of that name, nothing.
        XCTAssertEqual(
            completer.complete(word: "friendsConnection(", before: "grep Luke --field "), .candidates(["friendsConnection(after:null,first:2)"]))
        XCTAssertEqual(completer.complete(word: "zz", before: "grep Luke --field "), .candidates([]))
    }

    /// Field names take a scan of every record: gathered once, they are
    /// kept until the next command runs, as the typenames are.
    func testGrepFieldNamesAreGatheredOnceUntilTheNextCommand() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "zz", before: "grep x --field "), .candidates([]))
        _ = try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('Z:1', '{"zzTop":1}')"#)
        XCTAssertEqual(completer.complete(word: "zz", before: "grep x --field "), .candidates([]), "kept from the first Tab")
        _ = completer.session.execute("keys --count")
        XCTAssertEqual(completer.complete(word: "zz", before: "grep x --field "), .candidates(["zzTop"]), "gathered again after a command ran")
    }

    /// A Tab while the app holds the file locked offers nothing, and that
    /// nothing is not kept: the next Tab reads the names.
    func testNamesAFileHeldLockedCouldNotGiveAreReadAtTheNextTab() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        let app = try RunningSQLiteShell.holdingExclusiveLock(on: cache)
        XCTAssertEqual(completer.complete(word: "na", before: "grep x --field "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "keys --type "), .candidates([]))
        app.finish()
        XCTAssertEqual(completer.complete(word: "na", before: "grep x --field "), .candidates(["name"]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "keys --type "), .candidates(["Human"]))
    }

    func testAfterDoubleDashTabOffersKeysNotFlags() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "--dr", before: "rm -- "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "Human:10", before: "rm --dry-run -- "), .candidates(["Human:1000", "Human:1002"]))
        XCTAssertEqual(completer.complete(word: "", before: "diff -- "), .fileNames)
        XCTAssertEqual(REPLCompleter.positionals(["rm", "--dry-run", "--", "--force", "-x"]), ["--force", "-x"])
    }

    func testOptionsThatTakeOneOfAFewValuesCompleteThem() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "", before: "keys --mode "), .candidates(["apollo", "literal", "prefix", "glob", "regex"]))
        XCTAssertEqual(completer.complete(word: "j", before: "show Droid:2001 --format "), .candidates(["json", "jsonl"]))
        XCTAssertEqual(completer.complete(word: "a", before: "rm --match x --color "), .candidates(["auto", "always"]))
        // Once an option's free value is given, the words after it are keys again.
        XCTAssertEqual(completer.complete(word: "Human:100", before: "keys --limit 3 "), .candidates(["Human:1000", "Human:1002"]))
    }

    /// Keys are offered where a key goes, and nowhere else: not for an
    /// option's number or text, nor after commands that take no key.
    func testTabOffersKeysOnlyWhereTheCommandTakesAKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache)
        for before in ["keys --limit ", "show --depth ", "info ", "pwd ", "stats --top ", "read --var ",
                       "read --text ", "gc ", "export -- "] {
            XCTAssertEqual(completer.complete(word: "", before: before), .candidates([]), before)
        }
        // grep --field takes a field name, never a key.
        XCTAssertEqual(completer.complete(word: "Hu", before: "grep --field "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "rm --match "), .candidates(["Human:1000", "Human:1002"]), "a pattern starts like a key")
        XCTAssertEqual(completer.complete(word: "Hu", before: "refs "), .candidates(["Human:1000", "Human:1002"]))
        XCTAssertEqual(completer.complete(word: "st", before: "help "), .candidates(["stats", "status"]))
        XCTAssertEqual(completer.complete(word: "", before: "help keys "), .candidates([]))
        // cd and ls take one record; once it is named, nothing more (an option still may come).
        XCTAssertEqual(completer.complete(word: "Hu", before: "cd Droid:2001 "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "ls Droid:2001 "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "ls --depth 1 "), .candidates(["Human:1000", "Human:1002"]))
        XCTAssertEqual(completer.complete(word: "--de", before: "ls Droid:2001 "), .candidates(["--depth"]), "ls takes show's options")
        XCTAssertEqual(completer.complete(word: "j", before: "ls --format "), .candidates(["json", "jsonl"]))
        XCTAssertEqual(completer.complete(word: "", before: "ls --depth "), .candidates([]), "a number, as after show --depth")
        XCTAssertEqual(completer.complete(word: "Hu", before: "ls -- Droid:2001 "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "Hu", before: "cd -- "), .candidates(["Human:1000", "Human:1002"]))
    }

    func testCdCompletesTheCurrentRecordsReferenceFields() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let completer = try completer(cache, at: "hero(episode:NEWHOPE)")
        XCTAssertEqual(completer.complete(word: "fr", before: "cd "),
                       .candidates(["friends.0", "friends.1", "friendsConnection(after:null,first:2)"]), "a list's elements, not the list")
        XCTAssertEqual(completer.complete(word: "friends.", before: "cd "), .candidates(["friends.0", "friends.1"]), "null holds no reference")
    }

    func testOperationNamesCompleteFromDocumentsNamedEarlier() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("ops.graphql")
        try "query HeroName { hero(episode: NEWHOPE) { name } }\nquery HumanName { human(id: \"1000\") { name } }\nfragment F on Human { name }"
            .write(toFile: document, atomically: true, encoding: .utf8)
        let session = try startedSession(cache)
        _ = session.execute("read HeroName --document \(document)")
        let completer = REPLCompleter(session: session)
        XCTAssertEqual(completer.complete(word: "H", before: "read "), .candidates(["HeroName", "HumanName"]))
        XCTAssertEqual(completer.complete(word: "", before: "read --fragment "), .candidates(["F"]))
        XCTAssertEqual(completer.complete(word: "H", before: "read --fragment F "), .candidates([]), "an operation does not go with --fragment")
        // update takes only local cache mutations, and is offered only those.
        let blog = repositoryRoot.appendingPathComponent("Examples/blog.graphql").path
        XCTAssertEqual(completer.complete(word: "", before: "update --document \(blog) "), .candidates(["RenameViewer"]))
        XCTAssertEqual(completer.complete(word: "", before: "update --document \(blog) --fragment "), .candidates([]))
        XCTAssertEqual(completer.complete(word: "", before: "read --document \(blog) --fragment "), .candidates(["F", "UserSummary"]))
        // Names typed at the prompt, and given with --text on the line, are offered too.
        _ = session.run(reader: SourceLineReader(lines: ["cd Droid:2001", "fragment Typed on Droid { name }", "query Q { hero(episode: JEDI) { id } }"]), bail: false)
        XCTAssertEqual(completer.complete(word: "", before: "read --fragment "), .candidates(["F", "Typed"]))
        XCTAssertEqual(completer.complete(word: "", before: "read "), .candidates(["HeroName", "HumanName", "Q"]))
        XCTAssertEqual(completer.complete(word: "", before: "read --text 'fragment Line on Human { id }' --fragment "), .candidates(["F", "Line", "Typed"]))
    }

    /// After `--var`, Tab offers `name=` for each variable the operation
    /// the command would read declares, less those the line gives: the
    /// one it names, or with none the query typed last.
    func testVarCompletesTheVariablesOfTheOperationRead() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("ops.graphql")
        try "query Hero($episode: Episode, $withFriends: Boolean!) { hero(episode: $episode) { name } }\nquery Plain { hero { id } }"
            .write(toFile: document, atomically: true, encoding: .utf8)
        let session = try startedSession(cache)
        let completer = REPLCompleter(session: session)
        XCTAssertEqual(completer.complete(word: "", before: "read Hero --document \(document) --var "), .candidates(["episode=", "withFriends="]))
        XCTAssertTrue(completer.continuesWord, "no space after 'episode='")
        XCTAssertEqual(completer.complete(word: "w", before: "read Hero --document \(document) --var "), .candidates(["withFriends="]))
        XCTAssertEqual(completer.complete(word: "", before: "read Hero --document=\(document) --var episode=JEDI --var "), .candidates(["withFriends="]))
        XCTAssertEqual(completer.complete(word: "", before: "read Hero --document=\(document) --var '$episode=JEDI' --var "), .candidates(["withFriends="]))
        XCTAssertEqual(completer.complete(word: "$w", before: "read Hero --document \(document) --var "), .candidates(["$withFriends="]))
        XCTAssertEqual(completer.complete(word: "", before: "read Plain --document \(document) --var "), .candidates([]))
        // With --fragment, the variables the fragment uses (a fragment declares none).
        try "fragment F on Human { name friends @include(if: $full) { height(unit: $unit) } }".write(toFile: path("f.graphql"), atomically: true, encoding: .utf8)
        XCTAssertEqual(completer.complete(word: "", before: "read --fragment F --key Human:1000 --document \(path("f.graphql")) --var "),
                       .candidates(["full=", "unit="]))
        // A key is no word to continue: a space follows it as before.
        XCTAssertEqual(completer.complete(word: "Human:100", before: "show "), .candidates(["Human:1000", "Human:1002"]))
        XCTAssertFalse(completer.continuesWord)
        // With no name, the query typed last; after a file named since, its names.
        _ = session.run(reader: SourceLineReader(lines: ["query Q($id: ID!) { human(id: $id) { name } }"]), bail: false)
        XCTAssertEqual(completer.complete(word: "", before: "read --var "), .candidates(["id="]))
        XCTAssertEqual(completer.complete(word: "", before: "read Hero --var "), .candidates([]), "Hero is in no document named yet")
        _ = session.execute("read Plain --document \(document)")
        XCTAssertEqual(completer.complete(word: "", before: "read Hero --var "), .candidates(["episode=", "withFriends="]))
    }

    /// An Apollo codegen config names documents as --document does: Tab
    /// offers their operations and variables on its line, and a later read
    /// that names none reads them.
    func testAnApolloConfigNamesDocumentsForTabAndLaterReads() throws {
        let examples = repositoryRoot.appendingPathComponent("Examples")
        let cache = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: examples.appendingPathComponent("blog.sqlite").path, toPath: cache)
        let config = examples.appendingPathComponent("apollo-codegen-config.json").path
        let session = try startedSession(cache)
        let completer = REPLCompleter(session: session)
        XCTAssertEqual(completer.complete(word: "Vi", before: "read --apollo-config \(config) "), .candidates(["Viewer"]))
        XCTAssertEqual(completer.complete(word: "", before: "read --apollo-config \(config) UserPosts --var "), .candidates(["id="]))
        let run = try repl(cache, ["read --apollo-config \(config) UserPosts --var id=2 --format jsonl", "read Viewer --format jsonl"])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertTrue(run.stdout.hasSuffix(#"{"viewer":{"__typename":"User","id":"1","name":"Grace Lovelace","handle":"@user1","avatar":{"url":"https://img.example.com/u/1/64.png","width":64}}}"# + "\n"), run.stdout)
    }

    /// The names Tab offered can be run: a read that names no document
    /// reads the ones named earlier in the session; one that names its own
    /// reads only that.
    func testAReadThatNamesNoDocumentReadsTheDocumentsNamedEarlier() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("ops.graphql")
        try "query HeroName { hero(episode: NEWHOPE) { name } }\nquery HumanName { human(id: \"1000\") { name } }"
            .write(toFile: document, atomically: true, encoding: .utf8)
        let run = try repl(cache, [
            "read HumanName", "read HeroName --document \(document) --format jsonl", "read HumanName --format jsonl", "read HumanName --text '{ x }'",
        ])
        XCTAssertEqual(run.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n" + #"{"human":{"name":"Luke Skywalker"}}"# + "\n")
        XCTAssertTrue(run.stderr.hasPrefix("gqlcache: give the operation's document with --document FILE"), run.stderr)
        XCTAssertTrue(run.stderr.contains("no operation named 'HumanName'"), run.stderr)
    }

    /// A `--document` that could not be read (a mistyped name) is not
    /// remembered, and does not take the place of the query typed last:
    /// `read --var` still reads that query.
    func testADocumentFileThatCouldNotBeReadLeavesTheTypedQueryTheOneRead() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "query Q($id: ID!) { human(id: $id) { name } }", "read --document \(path("hero.graphq")) --format jsonl",
            "read --var id=1000 --format jsonl",
        ])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertEqual(run.stdout, "query Q is defined; it needs $id: read it with 'read --var id=VALUE'\n" + #"{"human":{"name":"Luke Skywalker"}}"# + "\n")
        XCTAssertEqual(run.stderr, "gqlcache: \(path("hero.graphq")): no such file\n")
    }

    /// A query typed at the prompt has no command line for `--var`: the
    /// message says to give it to `read`, which reads that query when it
    /// names its operation (and no file named since defines it), or names
    /// none and no document was named since; never that query and files
    /// together.
    func testAReadAfterATypedQueryGivesItTheVariablesItNeeds() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("ops.graphql")
        try "query HeroName { hero(episode: NEWHOPE) { name } }".write(toFile: document, atomically: true, encoding: .utf8)
        let run = try repl(cache, [
            "read HeroName --document \(document) --format jsonl",
            "query Q($id: ID!) { human(id: $id) { name } }", "read", "read --var id=1000 --format jsonl", "read Q --var id=1000 --format jsonl",
            "read HeroName --format jsonl",
            "query HeroName($e: Episode = NEWHOPE) { hero(episode: $e) { id } }", "read HeroName --format jsonl", "read --format jsonl",
            "read --document \(document) --format jsonl", "read --format jsonl", "read HeroName --format jsonl",
        ])
        XCTAssertEqual(run.stdout, [
            // Typed alone, a query that needs variables is defined, to be read with them: no failure.
            #"{"hero":{"name":"R2-D2"}}"#, "query Q is defined; it needs $id: read it with 'read --var id=VALUE'",
            #"{"human":{"name":"Luke Skywalker"}}"#, #"{"human":{"name":"Luke Skywalker"}}"#,
            #"{"hero":{"name":"R2-D2"}}"#, "{\n  \"hero\": {\n    \"id\": \"2001\"\n  }\n}",
            // HeroName is the one typed since the file was named; a read that names none reads the query typed
            // last, until a document is named, and the file's HeroName is then the newer.
            #"{"hero":{"id":"2001"}}"#, #"{"hero":{"id":"2001"}}"#, #"{"hero":{"name":"R2-D2"}}"#, #"{"hero":{"name":"R2-D2"}}"#,
            #"{"hero":{"name":"R2-D2"}}"#,
        ].joined(separator: "\n") + "\n")
        XCTAssertEqual(run.stderr, "gqlcache: operation 'Q' needs variable $id (a non-null variable without a default); "
            + "give it with 'read --var id=VALUE', which reads the query typed last\n")
        // So a script under --bail goes on to the read that gives them; one
        // spreading a fragment nothing defines is still a failure there.
        let script = try repl(cache, ["query Q($id: ID!) {", "  human(id: $id) { name }", "}", "read --var id=1000 --format jsonl"], bail: true)
        XCTAssertEqual(script.status, .success, script.stderr)
        XCTAssertTrue(script.stdout.hasSuffix(#"{"human":{"name":"Luke Skywalker"}}"# + "\n"), script.stdout)
        let undefined = try repl(cache, ["query U($id: ID!) { human(id: $other) { name } }", "read --var id=1000"], bail: true)
        XCTAssertEqual(undefined.status, .usage, "a query that can never run is no definition")
        XCTAssertEqual(undefined.stdout, "")
        let broken = try repl(cache, ["query B($id: ID!) { human(id: $id) { ...Nope } }", "read --var id=1000"], bail: true)
        XCTAssertEqual(broken.status, .usage)
        XCTAssertEqual(broken.stderr, "gqlcache: input:1:38: unknown fragment 'Nope'\n")
    }

    /// A fragment typed at the prompt is read from the record you are at,
    /// and again with `read --fragment F --key K`; a query given with
    /// `read --text` is typed too, and `read` alone runs it again.
    func testAFragmentTypedAtThePromptAndAReadOfTextAreReadAgain() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "fragment F on Human { name }", "read --fragment F --key Human:1000 --format jsonl", "read --fragment=F --key Human:1002 --format jsonl",
            "query A { hero(episode: NEWHOPE) { id } }", "read --text '{ human(id: 1000) { name } }' --format jsonl", "read --format jsonl",
            "read A --format jsonl",
        ])
        // Typed at QUERY_ROOT, a fragment on Human is defined, not read there, where it could only miss.
        XCTAssertEqual(run.stdout, [
            "fragment F on Human is defined; cd to a Human record to read it, or give 'read --fragment F --key KEY'",
            #"{"name":"Luke Skywalker"}"#, #"{"name":"Han Solo"}"#, "{\n  \"hero\": {\n    \"id\": \"2001\"\n  }\n}",
            #"{"human":{"name":"Luke Skywalker"}}"#, #"{"human":{"name":"Luke Skywalker"}}"#, #"{"hero":{"id":"2001"}}"#,
        ].joined(separator: "\n") + "\n")
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.status, .success)
        // Read there on purpose, it says why it misses.
        let atRoot = try repl(cache, ["fragment F on Human { name }", "read --fragment F"])
        XCTAssertEqual(
            atRoot.stderr, "gqlcache: cache miss at __typename: record 'QUERY_ROOT' has no field '__typename', which Apollo's generated models select in every object; "
                + "QUERY_ROOT is a root record, not a Human: read the fragment at the key of one (cd to it, or give --key KEY)\n")
        let onQuery = try repl(cache, ["fragment R on Query { hero(episode: NEWHOPE) { name } }"])
        XCTAssertEqual(onQuery.stdout, "{\n  \"hero\": {\n    \"name\": \"R2-D2\"\n  }\n}\n", "a fragment on the root type is read at once")
    }

    /// Fragments typed after a query are no operation to read: `read` alone
    /// still reads the query typed last, with the variables given, also
    /// after an update through a typed local cache mutation fragment.
    func testAReadThatNamesNoneReadsTheLastQueryAlsoAfterFragmentsAreTyped() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "cd hero(episode:NEWHOPE)",
            "query Q2($e: Episode) { hero(episode: $e) { name } }", "read --var e=NEWHOPE --format jsonl",
            "fragment G on Droid { id }", "read --var e=NEWHOPE --format jsonl",
            "fragment L on Droid @apollo_client_ios_localCacheMutation { name }", "update --fragment L --set name=Artoo --format jsonl",
            "read --var e=NEWHOPE --format jsonl",
        ])
        XCTAssertEqual(run.stdout, [
            #"{"hero":{"name":"R2-D2"}}"#, "{\n  \"id\": \"2001\"\n}", #"{"hero":{"name":"R2-D2"}}"#,
            "{\n  \"name\": \"R2-D2\"\n}",
            #"{"key":"Droid:2001","new":false,"field":"name","before":"R2-D2","after":"Artoo"}"#, #"{"hero":{"name":"Artoo"}}"#,
        ].joined(separator: "\n") + "\n")
        XCTAssertEqual(run.status, .success, run.stderr)
        // Fragments alone typed: what to give instead is said, naming them.
        let fragmentsOnly = try repl(cache, ["fragment A on Human { name }", "read"])
        XCTAssertEqual(
            fragmentsOnly.stderr, "gqlcache: the documents hold no operation; for a fragment, give 'read --fragment NAME' (at the record you are at, "
                + "or --key KEY) (fragments: A)\n")
        // A document named since the query was typed is read instead, as if the fragment were not typed.
        let document = path("ops.graphql")
        try "query HeroName { hero(episode: NEWHOPE) { name } }".write(toFile: document, atomically: true, encoding: .utf8)
        let afterFile = try repl(try copyOfFixture("starwars.sqlite", as: "fresh.sqlite"), [
            "query Q { hero(episode: NEWHOPE) { id } }", "read HeroName --document \(document) --format jsonl", "fragment A on Human { name }",
            "read --format jsonl",
        ])
        XCTAssertEqual(afterFile.stdout, [
            "{\n  \"hero\": {\n    \"id\": \"2001\"\n  }\n}", #"{"hero":{"name":"R2-D2"}}"#,
            "fragment A on Human is defined; cd to a Human record to read it, or give 'read --fragment A --key KEY'", #"{"hero":{"name":"R2-D2"}}"#,
        ].joined(separator: "\n") + "\n", afterFile.stderr)
    }

    /// At the prompt a fragment is read from, or updated at, the record you
    /// are at unless --key names another; typed alone, with the fragments it
    /// spreads, it is read at once. Two that spread neither say to pick one.
    func testAFragmentIsReadAndUpdatedAtTheRecordYouAreAt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let local = path("local.graphql")
        try "fragment Rename on Human @apollo_client_ios_localCacheMutation { name }".write(toFile: local, atomically: true, encoding: .utf8)
        let run = try repl(cache, [
            "cd human(id:1000)", "fragment F on Human { name ...H } fragment H on Human { id }", "read --fragment F --format jsonl",
            "read --fragment F --key Human:1002 --format jsonl", "update --document \(local) --fragment Rename --set name=Luke --format jsonl",
            "fragment A on Human { name } fragment B on Human { id }",
        ])
        XCTAssertEqual(run.stdout, [
            "{\n  \"name\": \"Luke Skywalker\",\n  \"id\": \"1000\"\n}", #"{"name":"Luke Skywalker","id":"1000"}"#,
            #"{"name":"Han Solo","id":"1002"}"#,
            #"{"key":"Human:1000","new":false,"field":"name","before":"Luke Skywalker","after":"Luke"}"#,
        ].joined(separator: "\n") + "\n")
        XCTAssertEqual(try sqliteShell(cache, "SELECT json_extract(record, '$.name') FROM records WHERE key = 'Human:1000'"), "Luke")
        XCTAssertEqual(
            run.stderr, "gqlcache: the documents hold no operation; for a fragment, give 'read --fragment NAME' (at the record you are at, "
                + "or --key KEY) (fragments: A, B)\n")
        XCTAssertEqual(run.status, .usage)
        // A key that begins with '-' is the record's, not an option.
        try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('-x', '{"__typename":"Human","name":"Dash"}')"#)
        let dash = try repl(cache, ["cd -- -x", "fragment F on Human { name }"])
        XCTAssertEqual(dash.stdout, "{\n  \"name\": \"Dash\"\n}\n", dash.stderr)
    }

    /// GraphQL typed at the prompt is updated and written through as it is
    /// read: `update --fragment F` (or `update F`) after `fragment F …`,
    /// `update L` or `update` alone after `query L …`. A name nothing typed
    /// defines is said with the names the query typed last has.
    func testGraphQLTypedAtThePromptIsUpdatedThroughAndUnknownNamesAreListed() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let run = try repl(cache, [
            "cd Droid:2001", "fragment D on Droid @apollo_client_ios_localCacheMutation { name }",
            "update --fragment D --set name=Artoo --format jsonl", "update D --set name=Artoo2 --format jsonl", "read D --format jsonl",
            "cd /", "query L @apollo_client_ios_localCacheMutation { human(id: 1000) { id name } }",
            "update L --set human.name=Luke --format jsonl", "update --set human.name=Luke2 --format jsonl", "read Z",
        ])
        XCTAssertEqual(run.stdout, [
            "{\n  \"name\": \"R2-D2\"\n}",
            #"{"key":"Droid:2001","new":false,"field":"name","before":"R2-D2","after":"Artoo"}"#,
            #"{"key":"Droid:2001","new":false,"field":"name","before":"Artoo","after":"Artoo2"}"#,
            #"{"name":"Artoo2"}"#,
            "{\n  \"human\": {\n    \"id\": \"1000\",\n    \"name\": \"Luke Skywalker\"\n  }\n}",
            #"{"key":"Human:1000","new":false,"field":"name","before":"Luke Skywalker","after":"Luke"}"#,
            #"{"key":"Human:1000","new":false,"field":"name","before":"Luke","after":"Luke2"}"#,
        ].joined(separator: "\n") + "\n")
        XCTAssertEqual(run.stderr, "gqlcache: no operation named 'Z' (operations: L)\n")
        XCTAssertEqual(run.status, .usage)
    }

    /// GraphQL typed at the prompt is named `input` in a message, not an
    /// option the user never typed.
    func testASyntaxErrorInATypedQueryNamesTheInput() throws {
        let run = try repl(try copyOfFixture("starwars.sqlite"), ["{ hero( }", "read"])
        XCTAssertEqual(run.stderr, String(repeating: "gqlcache: input:1:9: syntax error: Expected Name, found }\n", count: 2), "read again too")
        XCTAssertEqual(run.status, .usage)
    }

    func testOperationNamesCompleteFromADocumentNamedEarlierOnTheSameLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("ops.graphql")
        try "query HeroName { hero(episode: NEWHOPE) { name } }\nfragment F on Human { name }".write(toFile: document, atomically: true, encoding: .utf8)
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "", before: "read --document \(document) "), .candidates(["HeroName"]))
        XCTAssertEqual(completer.complete(word: "He", before: "read --var id=1 --document \(document) "), .candidates(["HeroName"]))
        XCTAssertEqual(completer.complete(word: "", before: "read --document \(document) --fragment "), .candidates(["F"]))
        // Once the operation is named, keys (for --key) again.
        XCTAssertEqual(completer.complete(word: "Human:100", before: "read --document \(document) HeroName --key "), .candidates(["Human:1000", "Human:1002"]))
    }

    func testKeyOptionCompletesCacheKeysEvenWithADocumentOnTheLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("ops.graphql")
        try "query HeroName { hero(episode: NEWHOPE) { name } }\nfragment F on Droid { name }".write(toFile: document, atomically: true, encoding: .utf8)
        let completer = try completer(cache)
        XCTAssertEqual(completer.complete(word: "Dr", before: "read --document \(document) --fragment F --key "),
                       .candidates(["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"]))
        XCTAssertEqual(completer.complete(word: "Human:100", before: "update --document \(document) --key "), .candidates(["Human:1000", "Human:1002"]))
        XCTAssertEqual(completer.complete(word: "Human:100", before: "write --key "), .candidates(["Human:1000", "Human:1002"]))
    }

    /// The line after Tab: `line` up to where the insertion goes, then the
    /// insertion (and readline's space after a whole candidate).
    func tab(_ line: String, _ candidates: [String]) throws -> String {
        let word = ShellWords.partialWord(line)
        let insertion = try XCTUnwrap(REPLCompleter.insertion(for: candidates, completing: word))
        return String(decoding: Array(line.utf8.prefix(insertion.from)), as: UTF8.self) + insertion.text
    }

    /// Keys and fields hold spaces, quotes and backslashes: Tab writes them
    /// so that the REPL splits the line back into the very key, typed
    /// bare, in an open quote of either kind, or with backslashes.
    func testTabWritesAKeySoTheLineSplitsBackIntoIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let mutation = "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])"
        let completer = try completer(cache)
        for typed in ["show MUTATION_ROOT.", "show 'MUTATION_ROOT.cr", "show \"MUTATION_ROOT.cr", #"show MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This\ is"#] {
            let word = ShellWords.partialWord(typed)
            XCTAssertEqual(completer.complete(word: word.value, before: "show "), .candidates([mutation]), typed)
            let line = try tab(typed, [mutation])
            XCTAssertEqual(try ShellWords.split(line), ["show", mutation], line)
        }
        XCTAssertEqual(try tab("show MUTATION_ROOT.", [mutation]), "show '\(mutation)'")
        // A backslash typed last escapes what is not typed yet: what several keys share would drop it.
        let slashed = ["Back\\slash:1", "Back`tick`:1"]
        XCTAssertNil(REPLCompleter.insertion(for: slashed, completing: ShellWords.partialWord(#"show Back\"#)))
        XCTAssertEqual(try ShellWords.split(try tab(#"show Back\"#, ["Back\\slash:1"])), ["show", "Back\\slash:1"])
        XCTAssertEqual(try tab("show \"MUTATION_ROOT.", [mutation]), "show \"\(mutation)\"")
        let search = "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"
        XCTAssertEqual(completer.complete(word: "sea", before: "cd "), .candidates([search + ".0.0", search + ".1.0"]))
        // What the elements share, its quote left open: the index goes on the same word.
        XCTAssertEqual(try ShellWords.split(try tab("cd sea", [search + ".0.0", search + ".1.0"]) + "1.0'"), ["cd", search + ".1.0"])

        // Several candidates: what they share, its quote left open for the next Tab.
        let notes = ["Note:it's a b1", "Note:it's a b2"]
        let shared = try tab("show Note:i", notes)
        XCTAssertEqual(shared, #"show 'Note:it'\''s a b"#)
        XCTAssertEqual(ShellWords.partialWord(shared).value, "Note:it's a b")
        XCTAssertEqual(try ShellWords.split(try tab(shared + "2", ["Note:it's a b2"])), ["show", "Note:it's a b2"])
        let odd = #"Note:say "hi" \ there"#
        for typed in ["show Note:s", "show \"Note:s", "show 'Note:s", "show No'te:'s"] {
            XCTAssertEqual(try ShellWords.split(try tab(typed, [odd])), ["show", odd], typed)
        }
        // A character that would reorder the line or show nothing goes in
        // escaped, as keys are shown, and splits back into itself.
        for key in ["RTL:\u{202E}abc", "Zero:\u{200B}1", "Tab:\t1"] {
            let line = try tab("show \(key.prefix(3))", [key])
            XCTAssertEqual(try ShellWords.split(line), ["show", key], line)
            XCTAssertFalse(line.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x200B || $0 == "\t" }, line)
        }
        XCTAssertEqual(try tab("show RTL", ["RTL:\u{202E}abc"]), #"show "RTL:\u202eabc""#)
        // Plain candidates stay bare.
        XCTAssertEqual(try tab("show Human:10", ["Human:1000", "Human:1002"]), "show Human:100")
        XCTAssertEqual(try tab("show Human:100", ["Human:1000"]), "show Human:1000")
    }

    // MARK: - Words and GraphQL input

    /// The prompt and pwd show a key as output does: one that holds a
    /// carriage return or an escape sequence is quoted, not acted on by the
    /// terminal (which could show another key), and DEL is escaped.
    func testThePromptAndPwdShowKeysQuotedWhenTheyHoldControlCharacters() throws {
        let cache = try makeCache("odd.sqlite", [
            Record(key: .queryRoot, fields: ["evil": .reference("Evil:cr\rHuman:1000")]),
            Record(key: "Evil:cr\rHuman:1000", fields: ["__typename": .string("Evil")]),
        ])
        let run = try repl(cache, ["cd evil", "pwd"])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertEqual(run.stdout, #"QUERY_ROOT → "Evil:cr\rHuman:1000""# + "\n")
        XCTAssertEqual(CacheKey("Evil:del\u{7F}").display, #""Evil:del\u007f""#)
        let session = try startedSession(cache)
        _ = session.execute("cd evil")
        XCTAssertEqual(session.prompt, #"gqlcache "Evil:cr\rHuman:1000"> "#)
    }

    func testLinesSplitIntoWordsLikeAShellDoes() throws {
        XCTAssertEqual(try ShellWords.split(#"read --text '{ hero { name } }' --var "id=a b" x\ y"#),
                       ["read", "--text", "{ hero { name } }", "--var", "id=a b", "x y"])
        XCTAssertEqual(try ShellWords.split("show hero(episode:JEDI) ''"), ["show", "hero(episode:JEDI)", ""])
        XCTAssertThrowsError(try ShellWords.split("show 'open"))
        XCTAssertEqual(try ShellWords.split("keys Human#1 '#2' \\#3 # the rest, 'open"), ["keys", "Human#1", "#2", "#3"])
        XCTAssertEqual(ShellWords.quote("#1"), "'#1'", "quoted, a key that begins with # is no comment")
        // Commands are kept as typed, indentation too (a GraphQL line's columns count from its start).
        XCTAssertEqual(ShellWords.commands("keys 'a;b'; show x ;; pwd"), ["keys 'a;b'", " show x ", " pwd"])
        XCTAssertEqual(ShellWords.commands("{ viewer {\n    name ! }\n}"), ["{ viewer {", "    name ! }", "}"])
        // A comment, a shell script's or a GraphQL document's, runs to the end of its line: ';' and quotes in it are text.
        XCTAssertEqual(ShellWords.commands("query {\n  # note; don't\n  hero { name } # the; end\n}; pwd #x;y\nkeys Human#1;pwd"),
                       ["query {", "  # note; don't", "  hero { name } # the; end", "}", " pwd #x;y", "keys Human#1", "pwd"])
        XCTAssertEqual(ShellWords.commands(#"show A\ #1; pwd"#), [#"show A\ #1"#, " pwd"], "an escaped space is part of the word")
        // An unquoted ~/ at a word's start is the home folder, as in a shell; nowhere else.
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "~"
        XCTAssertEqual(try ShellWords.split(#"open ~/a.sqlite ~ '~/b' a~/c ~user \~/d"#),
                       ["open", home + "/a.sqlite", home, "~/b", "a~/c", "~user", "~/d"])
    }

    /// A key with a line break or a control character is shown quoted as a
    /// JSON string (`"New\nline:1"`); typed back as shown it names that key.
    func testAKeyShownQuotedIsTypedBackAsShown() throws {
        XCTAssertEqual(try ShellWords.split(#"show "New\nline:1" "tab\there" "\u00e9\ud83d\ude00" "a\"b\\c\/d""#),
                       ["show", "New\nline:1", "tab\there", "é😀", #"a"b\c/d"#])
        // Outside double quotes a backslash still keeps the next character; in single quotes it is kept itself;
        // in double quotes before what starts no escape it stays, as a shell keeps it there (a regex's \d).
        XCTAssertEqual(try ShellWords.split(#"show New\nline 'a\nb' "\x" "\u12""#), ["show", "Newnline", #"a\nb"#, #"\x"#, #"\u12"#])
        XCTAssertEqual(try ShellWords.split(#"keys --mode regex "^Post:\d+\.x$""#), ["keys", "--mode", "regex", #"^Post:\d+\.x$"#])
        let cache = try makeCache("odd.sqlite", [
            Record(key: .queryRoot, fields: ["a": .int(1)]), Record(key: "New\nline:1", fields: ["__typename": .string("Odd")]),
        ])
        let run = try repl(cache, [#"show "New\nline:1""#])
        XCTAssertEqual(run.status, .success, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix(#""New\nline:1" (Odd)"#), run.stdout)
        // Tab writes such a key so, never with a line break that would end the line;
        // in a single quote the user opened, after an empty '' that closes it.
        for (typed, expected) in [
            ("show Ne", #"show "New\nline:1""#), ("show 'Ne", #"show ''"New\nline:1""#), (#"show "New\nl"#, #"show "New\nline:1""#),
        ] {
            let completed = try tab(typed, ["New\nline:1"])
            XCTAssertEqual(completed, expected, typed)
            XCTAssertEqual(try ShellWords.split(completed), ["show", "New\nline:1"])
        }
        // A key that begins ~/ is quoted, lest it be read as the home folder.
        XCTAssertEqual(try tab("show ~", ["~/homekey"]), "show '~/homekey'")
        XCTAssertEqual(try ShellWords.split(try tab("show ~", ["~/homekey"])), ["show", "~/homekey"])
        XCTAssertEqual(ShellWords.partialWord(#"show "New\nl"#).value, "New\nl")
    }

    func testGraphQLInputIsCompleteWhenItsBracesBalance() {
        XCTAssertTrue(GraphQLInput.begins("query Hero {"))
        XCTAssertTrue(GraphQLInput.begins("  { hero { name } }"))
        XCTAssertFalse(GraphQLInput.begins("queryx"))
        XCTAssertFalse(GraphQLInput.begins("keys"))
        XCTAssertFalse(GraphQLInput.isComplete("query Hero {\n hero {"))
        XCTAssertTrue(GraphQLInput.isComplete("query Hero {\n hero { name }\n}"))
        XCTAssertFalse(GraphQLInput.isComplete(#"{ hero(name: "}") { name "#))
        XCTAssertFalse(GraphQLInput.isComplete("{ hero # }\n"))
        XCTAssertTrue(GraphQLInput.isComplete(#"{ a(t: """ } """) }"#))
        // An escaped \""" is text of the block string, which goes on.
        XCTAssertTrue(GraphQLInput.isComplete(#"{ search(text: """say \""" { """) { id } }"#))
        XCTAssertTrue(GraphQLInput.isComplete(#"{ a(t: """"{""") }"#), "a block string may begin with a quote")
        XCTAssertTrue(GraphQLInput.isComplete(#"{ a(t: """""") b(t: "") }"#))
        XCTAssertTrue(GraphQLInput.isComplete(#"{ a(t: "\"{\\") }"#))
        // A string no quote ends stops at its line, as GraphQL's does, and the
        // document is run (to say so) rather than waited on.
        XCTAssertTrue(GraphQLInput.isComplete("{ a(t: \"open)\n}"))
        XCTAssertTrue(GraphQLInput.isComplete("{ a(t: \"x\\\n}"), "a backslash at the line's end does not carry the string on")
    }
}

/// What a thread gave, for the test that waits on it.
private final class UncheckedResult: @unchecked Sendable {
    var value: Result<CacheStore, Error>?
    let done = DispatchSemaphore(value: 0)
}

/// Lines from a closure, which may change the cache between them as
/// another program would.
private final class LinesFrom: LineSource {
    let next: () -> String?
    init(_ next: @escaping () -> String?) { self.next = next }
    func readLine() -> String? { next() }
}
