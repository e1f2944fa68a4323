import CacheStore
import Foundation
import GQLCacheCommands
import XCTest

final class BadInputTests: CommandTestCase {
    func sqlite(_ path: String, _ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path, script]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "sqlite3 \(script)")
    }

    /// A removal whose journal outgrows the room left on the disk fails
    /// with SQLITE_FULL; once rolled back, its journal has given the room
    /// back, but less than the file takes is left: the disk is named as
    /// full, not said to have room. Needs root, to mount a small tmpfs.
    func testAWriteWhoseJournalFillsTheDiskSaysTheDiskIsFull() throws {
        let disk = path("small-disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        guard getuid() == 0, (try? runProgram("/bin/mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", disk]))?.status == 0 else {
            throw XCTSkip("needs root and mount to make a small disk")
        }
        defer { _ = try? runProgram("/bin/umount", [disk]) }
        let text = String(repeating: "x", count: 1000)
        let built = try makeCache("big.sqlite", (0..<3000).map { Record(key: CacheKey("Item:\($0)"), fields: ["__typename": .string("Item"), "text": .string(text)]) })
        let cache = disk + "/c.sqlite"
        try FileManager.default.copyItem(atPath: built, toPath: cache)
        // Fill the disk to 1.5 MiB short of full: more than a full disk's
        // 1 MiB, less than the file's 3 MiB or so that the journal copies.
        var info = statvfs()
        XCTAssertEqual(statvfs(disk, &info), 0)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        XCTAssertTrue(FileManager.default.createFile(atPath: disk + "/filler", contents: Data(count: free - 3 * (1 << 19))))
        let before = try bytes(cache)
        let result = gqlcache("rm", cache, "--match", "Item", "--force")
        XCTAssertEqual(result.status, .io)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(cache): the disk is full: 1.5 MiB free, less than the file's own "), result.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    func testAMissingPathIsAnIOErrorAndIsNotCreated() throws {
        let missing = path("nope.sqlite")
        for arguments in [["info", missing], ["keys", missing], ["rm", missing, "A:1"], ["clear", missing, "--force"]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .io, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, "gqlcache: \(missing): no such file\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
    }

    /// A file whose name begins `file:` is that file, not a URI that
    /// SQLite would open (`file:app.sqlite` is `app.sqlite` to it, and
    /// `file:x?mode=memory` no file at all): reads, writes, backups and
    /// creation all touch the file named, and a missing one is said so.
    func testAPathBeginningFileColonIsTheFileNamedNotASQLiteURI() throws {
        let named = path("file:app.sqlite")
        try FileManager.default.copyItem(atPath: fixturesFolder.appendingPathComponent("legacy-sqlite-swift.sqlite").path, toPath: named)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: named)
        let other = path("app.sqlite")
        try FileManager.default.copyItem(atPath: fixturesFolder.appendingPathComponent("starwars.sqlite").path, toPath: other)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: other)
        let otherBytes = try bytes(other)
        let workingDirectory = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path), "cd \(folder.path)")
        defer { _ = FileManager.default.changeCurrentDirectoryPath(workingDirectory) }
        let legacyKeys = try keys(in: named)
        XCTAssertEqual(gqlcache("keys", "file:app.sqlite").lines, legacyKeys)
        let removed = gqlcache("rm", "file:app.sqlite", "QUERY_ROOT", "--backup")
        XCTAssertEqual(removed.status, .success, removed.stderr)
        XCTAssertEqual(try keys(in: named), legacyKeys.filter { $0 != "QUERY_ROOT" })
        XCTAssertEqual(try bytes(other), otherBytes, "app.sqlite is another file")
        let backup = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("file:app.sqlite.backup-") }
        XCTAssertEqual(backup.count, 1)
        XCTAssertEqual(try keys(in: path(backup[0])), legacyKeys)

        let missing = gqlcache("keys", "file:nothere.sqlite")
        XCTAssertEqual(missing.status, .io)
        XCTAssertEqual(missing.stderr, "gqlcache: file:nothere.sqlite: no such file\n")
        try """
            {"key":"QUERY_ROOT","record":{"hero":{"$reference":"Droid:1"}}}
            {"key":"Droid:1","record":{"__typename":"Droid","name":"R2"}}

            """.write(toFile: path("two.jsonl"), atomically: true, encoding: .utf8)
        let created = gqlcache("import", "file:made.sqlite?mode=memory", "two.jsonl", "--create")
        XCTAssertEqual(created.status, .success, created.stderr)
        XCTAssertEqual(try keys(in: path("file:made.sqlite?mode=memory")), ["Droid:1", "QUERY_ROOT"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("made.sqlite")))
    }

    /// A path that is not missing but cannot be reached says why, not
    /// "no such file": a loop of links, a file taken for a folder.
    func testAPathThatCannotBeReachedSaysWhy() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let loop = path("loop1.sqlite")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: path("loop2.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: path("loop2.sqlite"), withDestinationPath: loop)
        for arguments in [["info", loop], ["import", cache, loop], ["read", cache, "--document", loop], [loop]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .io, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(loop): cannot reach the file (Too many levels of symbolic links)"), result.stderr)
        }
        let underAFile = gqlcache("info", cache + "/x")
        XCTAssertEqual(underAFile.status, .io)
        XCTAssertEqual(underAFile.stderr, "gqlcache: \(cache)/x: cannot reach the file (Not a directory)\n")
    }

    /// A right-to-left override in a key would show the rest of the message
    /// reversed, a line separator would break it: both are escaped, and the
    /// nearest keys are listed as keys are shown, quoted when odd.
    func testMessagesEscapeCharactersThatMoveTextAndQuoteOddNearestKeys() throws {
        let cache = try makeCache("odd.sqlite", [
            Record(key: "Rlo:\u{202E}abc", fields: ["a": .int(1)]), Record(key: "Nl:a\nb", fields: ["a": .int(2)]),
        ])
        let reversed = gqlcache("show", cache, "Rlo:\u{202E}abd")
        XCTAssertEqual(reversed.status, .notFound)
        XCTAssertEqual(reversed.stderr, #"gqlcache: no record 'Rlo:\u202eabd' in \#(cache); nearest keys: "Rlo:\u202eabc""# + "\n")
        let broken = gqlcache("show", cache, "Nl:a\u{2028}c")
        XCTAssertEqual(broken.stderr, #"gqlcache: no record 'Nl:a\u2028c' in \#(cache); nearest keys: "Nl:a\nb""# + "\n")
    }

    func testAnEmptyCacheFileNameIsAUsageErrorThatSaysSo() {
        for arguments in [["info", ""], ["show", "", "QUERY_ROOT"], ["rm", "", "A:1"]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .usage, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: the cache file is an empty name; name a file, e.g. cache.sqlite"), result.stderr)
        }
    }

    /// An empty name for any other file (`--document ''`, a second cache
    /// for diff, a file to import) is said as a usage error naming what it
    /// was given for, never "gqlcache: : no such file".
    func testAnEmptyNameForAnyOtherFileIsAUsageErrorNamingWhatItWasFor() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = path("q.graphql")
        try "query Q { hero { name } }".write(toFile: document, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["diff", cache, ""], "gqlcache: the second cache file is an empty name; name a file, e.g. a backup of the first (see 'gqlcache diff --help')"),
            (["import", path("new.sqlite"), ""], "gqlcache: an empty name was given for the file to import; name a file, or - for standard input"),
            (["read", cache, "Q", "--document", ""], "gqlcache: an empty name was given for the document; name a file"),
            (["read", cache, "Q", "--document", document, "--schema", ""], "gqlcache: an empty name was given for the schema; name a file"),
            (["read", cache, "Q", "--document", document, "--variables-file", ""], "gqlcache: an empty name was given for the variables file; name a file"),
            (["read", cache, "--apollo-config", ""], "gqlcache: an empty name was given for the Apollo config; name a file"),
            (["write", cache, "Q", "--document", document, "--response", ""], "gqlcache: an empty name was given for the response; name a file"),
        ]
        for (arguments, message) in cases {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .usage, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, message + "\n", arguments.joined(separator: " "))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new.sqlite")), "import made no file")
    }

    /// `--key -dash:1` reads as an option with no value; the error says
    /// how such a value is given, and that form finds the key.
    func testAnOptionValueThatStartsWithADashIsShownHowToGive() throws {
        let cache = try makeCache("dash.sqlite", [
            Record(key: .queryRoot, fields: ["a": .int(1)]), Record(key: "-dash:1", fields: ["__typename": .string("Human"), "name": .string("D")]),
        ])
        let fragment = "fragment F on Human { name }"
        let refused = gqlcache("read", cache, "--fragment", "F", "--key", "-dash:1", "--text", fragment)
        XCTAssertEqual(refused.status, .usage)
        XCTAssertEqual(refused.stderr,
            "gqlcache: missing value for '--key <key>'; a value that starts with '-' is given as --key=-dash:1 (see 'gqlcache read --help')\n")
        let read = gqlcache("read", cache, "--fragment", "F", "--key=-dash:1", "--text", fragment, "--format", "json")
        XCTAssertEqual(read.status, .success, read.stderr)
        XCTAssertEqual(read.stdout, #"{"name":"D"}"# + "\n")
        // A value that is missing, not one that starts with '-', gets no such hint:
        // at the end, or where the next option follows.
        XCTAssertEqual(gqlcache("keys", cache, "--limit").stderr, "gqlcache: missing value for '--limit <n>' (see 'gqlcache keys --help')\n")
        XCTAssertEqual(gqlcache("read", cache, "--fragment", "F", "--key", "--text", fragment).stderr,
                       "gqlcache: missing value for '--key <key>' (see 'gqlcache read --help')\n")
    }

    func testErrorsAndWarningsStayOneLineWithTheKeysControlCharactersEscaped() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let missing = gqlcache("show", cache, "a\nb", "\u{1B}[31mred")
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertTrue(missing.stderr.contains("'a\\nb'"), missing.stderr)
        XCTAssertTrue(missing.stderr.contains("'\\u001b[31mred'"), missing.stderr)
        XCTAssertFalse(missing.stderr.contains("\u{1B}"))
        // A damaged record whose key holds an escape sequence and a C1 control, reported as export skips it.
        try sqlite(cache, "INSERT INTO records (key, record) VALUES ('Esc:' || char(27) || '[31m' || char(155), 'not json')")
        let exported = gqlcache("export", cache, "-o", path("out.jsonl"))
        let warning = try XCTUnwrap(exported.stderr.split(separator: "\n").first { $0.contains("Esc:") }, exported.stderr)
        XCTAssertTrue(warning.hasPrefix("gqlcache: "), String(warning))
        XCTAssertTrue(warning.contains("Esc:\\u001b[31m\\u009b"), String(warning))
        let searched = gqlcache("grep", cache, "R2-D2")
        XCTAssertTrue(searched.stderr.hasPrefix("gqlcache: \(cache): record "), searched.stderr)
        XCTAssertTrue(searched.stderr.contains("Esc:\\u001b[31m\\u009b"), searched.stderr)
        for result in [missing, exported, searched] {
            XCTAssertFalse(result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        }
    }

    func testCreatingACacheInAFolderThatDoesNotExistNamesTheFolder() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let input = path("all.jsonl")
        XCTAssertEqual(gqlcache("export", cache, "-o", input).status, .success)
        let target = path("no-such-folder/new.sqlite")
        let result = gqlcache("import", target, input, "--create")
        XCTAssertEqual(result.status, .io)
        XCTAssertEqual(result.stderr, "gqlcache: \(target): its folder \(path("no-such-folder")) does not exist\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("no-such-folder")))
        // Through a link into a folder that does not exist, that folder is named.
        let link = path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "no-such-folder/target.sqlite")
        let linked = gqlcache("import", link, input, "--create")
        XCTAssertEqual(linked.status, .io)
        XCTAssertEqual(linked.stderr, "gqlcache: \(link): its folder \(path("no-such-folder")) does not exist; cannot create the file\n")
        // A folder the user cannot write is named too, where SQLite would say
        // only that it could not open the file. (Run as another user: root writes any folder.)
        let readOnly = path("read-only")
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: input)
        let refused = try runBuiltBinaryAsAnotherUser(["import", readOnly + "/new.sqlite", input, "--create"])
        XCTAssertEqual(refused.status, 5)
        XCTAssertEqual(refused.stderr, "gqlcache: \(readOnly)/new.sqlite: its folder \(readOnly) is not writable; cannot create the file\n")
    }

    /// A dry run on a file the user may write, in a folder they may not,
    /// warns that the change itself would be refused: the write makes a
    /// -journal (or, in WAL mode, -wal and -shm files) beside the file.
    /// (Run as another user: root writes any folder.)
    func testADryRunInAFolderTheUserCannotWriteWarnsThatTheChangeWouldBeRefused() throws {
        for wal in [false, true] {
            let cache = wal ? try walCopyOfFixture("starwars.sqlite") : try copyOfFixture("starwars.sqlite")
            try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: cache)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
            let dryRun = try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001", "--dry-run"])
            XCTAssertEqual(dryRun.status, 0, "wal: \(wal)")
            XCTAssertEqual(dryRun.stdout, "would remove Starship:3001\nwould remove 1 record, leaving 1 reference dangling:\n  Human:1000 starships[0] → Starship:3001\n")
            XCTAssertEqual(dryRun.stderr, "gqlcache: warning: the change itself would be refused (exit status 5): \(cache): the file or its folder is read-only; cannot write\n")
            let refused = try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001"])
            XCTAssertEqual(refused.status, 5, "the warning says what the change gets")
            XCTAssertEqual(refused.stderr, "gqlcache: \(cache): the file or its folder is read-only; cannot write\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try FileManager.default.removeItem(atPath: cache)
        }
        // In WAL mode with the -wal and -shm files there (an app killed), the write needs those, not the folder.
        let cache = try walCopyOfFixture("starwars.sqlite")
        _ = try runProgram("/usr/bin/python3", ["-c", "import sqlite3, os; c = sqlite3.connect('\(cache)'); "
            + "c.execute(\"UPDATE records SET record = record WHERE key = 'QUERY_ROOT'\"); c.commit(); os._exit(0)"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache + "-shm"))
        for file in [cache, cache + "-wal"] { try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cache + "-shm")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let unwritableSideFile = try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001", "--dry-run"])
        XCTAssertEqual(unwritableSideFile.stderr, "gqlcache: warning: the change itself would be refused (exit status 5): \(cache): the file or its folder is read-only; cannot write\n")
        XCTAssertEqual(try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001"]).status, 5)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: cache + "-shm")
        XCTAssertEqual(try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001", "--dry-run"]).stderr, "", "the write would be made")
        // A --backup would be refused, though: its copy goes in the folder.
        let backup = try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001", "--dry-run", "--backup"])
        XCTAssertTrue(backup.stderr.hasPrefix("gqlcache: warning: the change itself would be refused (exit status 5): \(cache).backup-"), backup.stderr)
        XCTAssertTrue(backup.stderr.hasSuffix(": cannot create the backup (Permission denied); nothing was changed\n"), backup.stderr)
        XCTAssertEqual(try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001", "--backup"]).status, 5)
        XCTAssertEqual(try runBuiltBinaryAsAnotherUser(["rm", cache, "Starship:3001"]).status, 0)
        // A -wal file alone, which the user cannot write, in a folder they can: refused all the same.
        let alone = try copyOfFixture("starwars.sqlite", as: "alone.sqlite")
        _ = try sqliteShell(alone, "PRAGMA journal_mode=WAL;")
        _ = try runProgram("/usr/bin/python3", ["-c", "import sqlite3, os; c = sqlite3.connect('\(alone)'); "
            + "c.execute(\"UPDATE records SET record = record WHERE key = 'QUERY_ROOT'\"); c.commit(); os._exit(0)"])
        try FileManager.default.removeItem(atPath: alone + "-shm")
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: alone)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: alone + "-wal")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let walAlone = try runBuiltBinaryAsAnotherUser(["rm", alone, "Starship:3001", "--dry-run"])
        XCTAssertTrue(walAlone.stderr.hasPrefix("gqlcache: warning: the change itself would be refused (exit status 5): "), walAlone.stderr)
        XCTAssertEqual(try runBuiltBinaryAsAnotherUser(["rm", alone, "Starship:3001"]).status, 5)
    }

    func testANamedPipeIsRefusedInsteadOfWaitedOn() throws {
        let fifo = path("pipe.sqlite")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for arguments in [["info", fifo], ["keys", fifo], ["rm", fifo, "A:1"], ["doctor", fifo]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .io, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, "gqlcache: \(fifo): is a named pipe or socket, not a file\n")
        }
    }

    /// The first mistakes of a newcomer: the file before the command, or no
    /// file at all (the key is then taken for it), are named as such.
    func testTheCacheFileInTheWrongPlaceOrMissingIsNamed() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        assertEachFails([
            ([cache, "info"], "the command comes first, then the cache file: gqlcache info \(cache) …"),
            ([cache, "repl"], "the command comes first, then the cache file: gqlcache repl \(cache) …"),
            (["show", "Human:1000"], "show takes the cache file first: gqlcache show CACHE_FILE …; 'Human:1000' is no file"),
            (["refs", "Human:1000"], "refs takes the cache file first: gqlcache refs CACHE_FILE …; 'Human:1000' is no file"),
            (["show", cache], "missing expected argument '<key> ...' (see 'gqlcache show --help')"),
            // A command for the REPL to run goes in -c.
            (["repl", cache, "keys", "Hu", "--count"],
             "the REPL runs a command given with -c: gqlcache repl \(cache) -c 'keys Hu --count' (or, without the REPL: gqlcache keys \(cache) …)"),
        ], with: .usage)
        XCTAssertEqual(gqlcache("repl", cache, "-c", "keys Hu --count").stdout, "2\n")
        // The key before the file: taken for the file, which it names none.
        assertEachFails([
            (["show", "Human:1000", cache, "--depth", "1"],
             "Human:1000: no such file; the cache file comes first: gqlcache show \(cache) Human:1000 --depth 1"),
            (["rm", "Human:10 00", cache, "--dry-run"], "Human:10 00: no such file; the cache file comes first: gqlcache rm \(cache) 'Human:10 00' --dry-run"),
            // A missing file that looks like one is only missing.
            (["diff", path("gone.sqlite"), cache], "\(path("gone.sqlite")): no such file"),
        ], with: .io)
    }

    /// /dev/null reads as empty: it is no empty cache (which --create would make).
    func testADeviceIsRefusedAsNoFile() throws {
        try Data(#"{"a":1}"#.utf8).write(to: URL(fileURLWithPath: path("x.json")))
        try Data(#"{"key":"A:1","record":{"a":1}}"#.utf8).write(to: URL(fileURLWithPath: path("x.jsonl")))
        for arguments in [
            ["info", "/dev/null"], ["write", "/dev/null", "--create", "--text", "{ a }", "--response", path("x.json")],
            ["import", "/dev/null", path("x.jsonl"), "--create"],
        ] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .io, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, "gqlcache: /dev/null: is a device, not a file\n", arguments.joined(separator: " "))
        }
    }

    /// JSON typed at a terminal ends with Ctrl-D, and a Ctrl-C there (in
    /// the REPL) would end the typing and let the write go on: `-` is
    /// refused at a terminal, as `import -` refuses it, before anything is read.
    func testJSONFromStandardInputIsRefusedAtATerminal() throws {
        let cache = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: cache)
        let before = try bytes(cache)
        let document = repositoryRoot.appendingPathComponent("Examples/blog.graphql").path
        for (arguments, what) in [
            (["update", cache, "RenameViewer", "--document", document, "--data", "-"], "data"),
            (["write", cache, "RenameViewer", "--document", document, "--response", "-"], "response"),
            (["read", cache, "Viewer", "--document", document, "--variables-file", "-"], "variables file"),
        ] {
            let result = gqlcache(arguments: arguments, answers: [#"{"viewer":{"id":"1","name":"Typed"}}"#])
            XCTAssertEqual(result.status, .usage, "\(arguments)")
            XCTAssertEqual(result.stderr, "gqlcache: standard input is a terminal; pipe the \(what) in (… | gqlcache …), or name its file\n")
        }
        XCTAssertEqual(try bytes(cache), before)
        let piped = gqlcache("update", cache, "RenameViewer", "--document", document, "--data", "-", input: #"{"viewer":{"id":"1","name":"Piped"}}"#)
        XCTAssertEqual(piped.status, .success, piped.stderr)
    }

    func testADirectoryIsAnIOError() throws {
        let result = gqlcache("info", folder.path)
        XCTAssertEqual(result.status, .io)
        XCTAssertEqual(result.stderr, "gqlcache: \(folder.path): is a directory\n")
    }

    func testATextFileIsNotACache() throws {
        let text = path("notes.txt")
        try "hello\n".write(toFile: text, atomically: true, encoding: .utf8)
        let result = gqlcache("info", text)
        XCTAssertEqual(result.status, .notACache)
        XCTAssertEqual(result.stderr, "gqlcache: \(text): not an Apollo iOS cache: not an SQLite database (it looks like a text file)\n")
        XCTAssertEqual(try String(contentsOfFile: text, encoding: .utf8), "hello\n")
    }

    func testAnEmptyFileIsNotACacheAndStaysEmpty() throws {
        let empty = path("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        for arguments in [["info", empty], ["rm", empty, "--match", "x", "--force"]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .notACache)
            XCTAssertEqual(result.stderr, "gqlcache: \(empty): not an Apollo iOS cache: the file is empty (0 bytes)\n")
        }
        XCTAssertEqual(try bytes(empty).count, 0)
    }

    func testSQLiteFilesWithoutTheRecordsTableAreRefusedAndNotChanged() throws {
        let noTables = path("no-tables.sqlite")
        try sqlite(noTables, "PRAGMA user_version = 7;")
        let other = path("other.sqlite")
        try sqlite(other, "CREATE TABLE users(id INTEGER); CREATE TABLE posts(id INTEGER);")
        let columns = path("columns.sqlite")
        try sqlite(columns, "CREATE TABLE records(id INTEGER, payload TEXT);")
        let apollo3 = path("apollo3.sqlite")
        try sqlite(apollo3, """
            CREATE TABLE records(cache_key TEXT, field_name TEXT, value TEXT, written_at INTEGER);
            CREATE TABLE schema_metadata(key TEXT, value TEXT); INSERT INTO schema_metadata VALUES ('version', '3');
            """)
        let expectations = [
            (noTables, "not an Apollo iOS cache: an SQLite database with no tables"),
            (other, "not an Apollo iOS cache: an SQLite database without a 'records' table (tables: posts, users)"),
            (columns, "not an Apollo iOS cache: table 'records' has columns (id, payload), expected (_id, key, record)"),
            (apollo3, "an Apollo iOS 3 per-field cache (one row per field); this layout is not supported yet"),
        ]
        for (file, message) in expectations {
            let before = try bytes(file)
            for arguments in [["info", file], ["clear", file, "--force"]] {
                let result = gqlcache(arguments: arguments)
                XCTAssertEqual(result.status, .notACache, file)
                XCTAssertEqual(result.stderr, "gqlcache: \(file): \(message)\n")
            }
            XCTAssertEqual(try bytes(file), before, "\(file) changed")
        }
    }

    func testDamagedRecordsAreNamedAndTheGoodOnesStayReadable() throws {
        let cache = try makeCache("damaged.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["hero": .reference("Droid:2001"), "broken": .reference("Broken:1")]),
            Record(key: "Droid:2001", fields: ["__typename": .string("Droid"), "name": .string("R2-D2")]),
        ], raw: [("Broken:1", #"{"name": "unterminated"#), ("Null:1", nil), ("Array:1", "[1,2]")])

        let show = gqlcache("show", cache, "Broken:1", "Droid:2001", "Null:1")
        XCTAssertEqual(show.status, .damagedRecord)
        XCTAssertTrue(show.stdout.contains("Droid:2001 (Droid)\n├─ __typename: \"Droid\"\n└─ name: \"R2-D2\""), show.stdout)
        XCTAssertTrue(show.stderr.contains("gqlcache: \(cache): record 'Broken:1' is damaged: unterminated string at byte 23\n"), show.stderr)
        XCTAssertTrue(show.stderr.contains("gqlcache: \(cache): record 'Null:1' is damaged: its record column is NULL\n"), show.stderr)

        let root = gqlcache("show", cache, "QUERY_ROOT", "--depth", "1")
        XCTAssertEqual(root.status, .success, root.stderr)
        XCTAssertTrue(root.stdout.contains("├─ broken → Broken:1 (damaged: unterminated string at byte 23)"), root.stdout)
        XCTAssertTrue(root.stdout.contains("└─ hero → Droid:2001 (Droid)"), root.stdout)

        let info = gqlcache("info", cache)
        XCTAssertEqual(info.status, .success)
        XCTAssertTrue(info.stdout.contains("records       5"), info.stdout)
        XCTAssertEqual(info.stderr, "gqlcache: warning: 3 damaged records (NULL, not valid JSON, not a JSON object, or nested too deep): Array:1, Broken:1, Null:1\n")

        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "5\n")
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Droid").lines, ["Droid:2001"])
        let remove = gqlcache("rm", cache, "Droid:2001")
        XCTAssertEqual(remove.status, .success, remove.stderr)
        XCTAssertTrue(remove.stdout.contains("QUERY_ROOT hero → Droid:2001"), remove.stdout)
    }

    /// `gqlcache CACHE` opens the REPL, so a first word that names a file
    /// that is not there is a missing file, not an unknown command.
    func testAMissingCacheFileAsTheFirstWordIsNamedAsAFile() throws {
        let missing = gqlcache(path("nope.sqlite"))
        XCTAssertEqual(missing.status, .io)
        XCTAssertEqual(missing.stderr, "gqlcache: \(path("nope.sqlite")): no such file ('gqlcache CACHE' opens a cache in the REPL; see 'gqlcache --help')\n")
        let folder = gqlcache(self.folder.path + "/")
        XCTAssertEqual(folder.status, .io)
        XCTAssertTrue(folder.stderr.contains(": a folder, not a cache file"), folder.stderr)
        XCTAssertEqual(gqlcache("nope.db").stderr, "gqlcache: nope.db: no such file ('gqlcache CACHE' opens a cache in the REPL; see 'gqlcache --help')\n")
        XCTAssertEqual(gqlcache("nope").status, .usage, "a bare word is still an unknown command")
    }

    func testUnknownCommandsAndOptionsAreUsageErrors() throws {
        let unknown = gqlcache("frobnicate", "x")
        XCTAssertEqual(unknown.status, .usage)
        XCTAssertEqual(unknown.stderr, "gqlcache: unknown command 'frobnicate' (commands: info, keys, show, read, write, update, rm, clear, grep, diff, export, import, doctor, gc, stats, refs, repl, completions, help; see 'gqlcache --help')\n")
        let helpUnknown = gqlcache("help", "frobnicate")
        XCTAssertEqual(helpUnknown.status, .usage)
        XCTAssertEqual(helpUnknown.stderr, unknown.stderr)
        XCTAssertEqual(helpUnknown.stdout, "")
        XCTAssertTrue(gqlcache("help", "keys").stdout.hasPrefix("OVERVIEW: List record keys"))
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("keys", cache, "--frob")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: unknown option '--frob' (see 'gqlcache keys --help')\n")
        let missing = gqlcache("show", cache)
        XCTAssertEqual(missing.stderr, "gqlcache: missing expected argument '<key> ...' (see 'gqlcache show --help')\n")
        for command in ["keys", "rm"] {
            let empty = gqlcache(command, cache, "--type", "")
            XCTAssertEqual(empty.status, .usage, command)
            XCTAssertEqual(empty.stderr, "gqlcache: --type needs a type name (see 'gqlcache \(command) --help')\n")
        }
        let invalid = gqlcache("info", cache, "--top=-1")
        XCTAssertEqual(invalid.stderr, "gqlcache: --top must be zero or more (see 'gqlcache info --help')\n")
    }

    /// A key that starts with '-' reads as an option: the message says
    /// where it goes instead, as for a file named so.
    func testAKeyThatLooksLikeAnOptionIsToldToGoAfterDoubleDash() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let show = gqlcache("show", cache, "-dash:1")
        XCTAssertEqual(show.status, .usage)
        XCTAssertEqual(show.stderr, "gqlcache: unknown option '-dash:1'; a key that starts with '-' goes after '--', with every option before it (see 'gqlcache show --help')\n")
        XCTAssertTrue(gqlcache("grep", cache, "-1000").stderr.contains("; a value that starts with '-' goes after '--'"))
        XCTAssertTrue(gqlcache("keys", cache, "-Dro%").stderr.contains("; a pattern that starts with '-' goes after '--'"))
        XCTAssertEqual(gqlcache("info", cache, "-xy").stderr, "gqlcache: unknown option '-xy' (see 'gqlcache info --help')\n", "info takes nothing after the file")
        XCTAssertEqual(gqlcache("show", cache, "-x").stderr, "gqlcache: unknown option '-x' (see 'gqlcache show --help')\n", "a mistyped short option")
        XCTAssertEqual(gqlcache("show", cache, "--", "-dash:1").stderr.hasPrefix("gqlcache: no record '-dash:1'"), true)
    }

    /// A slip in a command's name, or in one of the root's own options,
    /// gets the nearest names; several when the slip fits several, and
    /// none when nothing is near.
    func testMistypedCommandsAndRootOptionsGetTheNearestNames() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let commands = "(commands: info, keys, show, read, write, update, rm, clear, grep, diff, export, import, doctor, gc, stats, refs, repl, completions, help; see 'gqlcache --help')"
        let cases: [([String], String)] = [
            (["inof", cache], "unknown command 'inof'. Did you mean 'info'? \(commands)"),
            (["kyes", cache], "unknown command 'kyes'. Did you mean 'keys'? \(commands)"),
            (["re", cache], "unknown command 're'. Did you mean 'read', 'refs' or 'repl'? \(commands)"),
            (["help", "sow"], "unknown command 'sow'. Did you mean 'show'? \(commands)"),
            (["x", cache], "unknown command 'x' \(commands)"),
            (["--verison"], "unknown option '--verison'. Did you mean '--version'? (see 'gqlcache --help')"),
            (["--hlep"], "unknown option '--hlep'. Did you mean '--help'? (see 'gqlcache --help')"),
            (["--zzzzzz"], "unknown option '--zzzzzz' (see 'gqlcache --help')"),
            // The parser's own guess for these was '--mode' and '--top'.
            (["keys", cache, "--for", "json"], "unknown option '--for'. Did you mean '--format'? (see 'gqlcache keys --help')"),
            (["info", cache, "--x"], "unknown option '--x' (see 'gqlcache info --help')"),
            (["rm", cache, "--for", "Droid:2001"], "unknown option '--for'. Did you mean '--force' or '--format'? (see 'gqlcache rm --help')"),
        ]
        assertEachFails(cases, with: .usage)
    }

    /// The parser names an unknown option only once everything else
    /// parsed: a missing argument or a failed check must not hide it.
    func testAMistypedOptionIsNamedEvenWhereAnArgumentIsMissingOrACheckFails() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let cases: [([String], String)] = [
            (["gc", cache, "--dangle"], "unknown option '--dangle'. Did you mean '--dangling'? (see 'gqlcache gc --help')"),
            (["gc", cache, "--unreach", "--force"], "unknown option '--unreach'. Did you mean '--unreachable'? (see 'gqlcache gc --help')"),
            (["rm", cache, "--bogus"], "unknown option '--bogus' (see 'gqlcache rm --help')"),
            (["rm", cache, "--forse", "Droid:2001"], "unknown option '--forse'. Did you mean '--force'? (see 'gqlcache rm --help')"),
            (["refs", cache, "--bogus"], "unknown option '--bogus' (see 'gqlcache refs --help')"),
            (["show", cache, "-x"], "unknown option '-x' (see 'gqlcache show --help')"),
        ]
        assertEachFails(cases, with: .usage)
        // A file whose name looks like an option, and a value after an option that takes one.
        let dashed = path("-e.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: dashed)
        let workingDirectory = FileManager.default.currentDirectoryPath
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(folder.path), "cd \(folder.path)")
        defer { _ = FileManager.default.changeCurrentDirectoryPath(workingDirectory) }
        XCTAssertEqual(
            gqlcache("info", "-e.sqlite").stderr,
            "gqlcache: unknown option '-e.sqlite'; a file whose name starts with '-' is given as ./-e.sqlite, or after '--' with every option before it (see 'gqlcache info --help')\n")
        XCTAssertEqual(gqlcache("info", "--", "-e.sqlite").status, .success)
        // diff and import take a second file, where the file hint stands.
        XCTAssertEqual(gqlcache("diff", "./-e.sqlite", "-e.sqlite").stderr,
                       "gqlcache: unknown option '-e.sqlite'; a file whose name starts with '-' is given as ./-e.sqlite, or after '--' with every option before it (see 'gqlcache diff --help')\n")
        // After the cache file, the same word is a key or pattern, whatever file is there.
        XCTAssertEqual(gqlcache("keys", "./-e.sqlite", "-e.sqlite").stderr,
                       "gqlcache: unknown option '-e.sqlite'; a pattern that starts with '-' goes after '--', with every option before it (see 'gqlcache keys --help')\n")
        // Alone, as `gqlcache FILE` opens the REPL: not flags run together (one an h, for help).
        let bare = gqlcache("-e.sqlite")
        XCTAssertEqual(bare.status, .usage)
        XCTAssertEqual(bare.stderr, "gqlcache: unknown option '-e.sqlite'; a file whose name starts with '-' is given as ./-e.sqlite, or after '--' with every option before it (see 'gqlcache --help')\n")
        XCTAssertEqual(bare.stdout, "")
        let afterDashes = gqlcache(arguments: ["--", "-e.sqlite"], input: "keys --count")
        XCTAssertEqual(afterDashes.status, .success, afterDashes.stderr)
        XCTAssertEqual(afterDashes.lines, ["10"])
        // The REPL opened so runs its commands on that file, not on an option.
        let repl = gqlcache("repl", "-c", "keys --count; rm Human:1002 --dry-run", "--", "-e.sqlite")
        XCTAssertEqual(repl.status, .success, repl.stderr)
        XCTAssertEqual(repl.lines.first, "10")
        // A word whose letters include h is not help run together with other flags.
        let dashed2 = gqlcache("rm", cache, "-dash")
        XCTAssertEqual(dashed2.status, .usage)
        XCTAssertEqual(dashed2.stdout, "")
        XCTAssertEqual(dashed2.stderr, "gqlcache: unknown option '-dash'; a key that starts with '-' goes after '--', with every option before it (see 'gqlcache rm --help')\n")
        XCTAssertEqual(try keys(in: cache).count, 10, "nothing removed")
        XCTAssertEqual(gqlcache("rm", "-h").status, .success)
        XCTAssertEqual(gqlcache("rm", cache, "--match", "-Droid").stderr, "gqlcache: missing value for '--match <pattern>'; a value that starts with '-' is given as --match=-Droid (see 'gqlcache rm --help')\n")
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n", "nothing was removed")
    }

    /// A value of 100 KB (a paste gone wrong) is named by its start and its
    /// size, as long keys and patterns are, not echoed whole.
    func testAVeryLongTypenameOrFieldArgumentIsCutInMessages() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let long = String(repeating: "K", count: 100_000)
        let cut = String(repeating: "K", count: 60) + "… (100000 bytes)"
        for arguments in [["keys", cache, "--type", long], ["rm", cache, "--type", long, "--force"]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .notFound)
            XCTAssertEqual(result.stderr, "gqlcache: no record has __typename '\(cut)' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship\n", arguments[0])
        }
        let read = gqlcache("read", cache, "--text", #"{ human(id: ""# + long + #"") { name } }"#)
        XCTAssertEqual(read.status, .notFound)
        XCTAssertLessThan(read.stderr.utf8.count, 300, read.stderr.prefix(300) + "…")
        XCTAssertTrue(read.stderr.contains("has no field 'human(id:KKKK"), read.stderr.prefix(300) + "…")
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    /// A negative number is read as the option's value and refused with the
    /// reason, not taken for another option and called a missing value.
    func testNegativeNumbersAreRefusedWithTheirReason() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let cases: [([String], String)] = [
            (["keys", cache, "--limit", "-1"], "--limit must be zero or more"),
            (["show", cache, "Droid:2001", "--depth", "-1"], "--depth must be from 0 to 1000"),
            (["show", cache, "Droid:2001", "--depth", "100000"], "--depth must be from 0 to 1000"),
            (["refs", cache, "Droid:2001", "--depth", "-2"], "--depth must be from 1 to 1000"),
            (["refs", cache, "Droid:2001", "--depth", "1001"], "--depth must be from 1 to 1000"),
            (["stats", cache, "--top", "-3"], "--top must be zero or more"),
            (["info", cache, "--top", "-3"], "--top must be zero or more"),
            (["rm", cache, "Droid:2001", "--busy-timeout", "-1"], "--busy-timeout must be from 0 to 2147483 seconds"),
        ]
        for (arguments, reason) in cases {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .usage, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(reason)"), result.stderr)
        }
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n", "nothing was removed")
    }

    func testHelpAndVersionGoToStandardOutputWithStatusZero() throws {
        let help = gqlcache("--help")
        XCTAssertEqual(help.status, .success)
        XCTAssertTrue(help.stdout.contains("SUBCOMMANDS:"), help.stdout)
        XCTAssertTrue(help.stdout.contains("rm"), help.stdout)
        let version = gqlcache("--version")
        XCTAssertEqual(version.status, .success)
        XCTAssertEqual(version.stdout, GQLCacheVersion.current + "\n")
        let rmHelp = gqlcache("help", "rm")
        XCTAssertTrue(rmHelp.stdout.contains("--match"), rmHelp.stdout)
    }

    /// An option that takes one value, given two different ones, is refused:
    /// the parser would keep the last alone, and `rm --match Human --match
    /// Droid` remove only the droids. The same value twice, a repeatable
    /// option, and words after `--` are fine.
    func testAnOptionTakingOneValueGivenTwoDifferentOnesIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let rm = gqlcache("rm", cache, "--match", "Human", "--match", "Droid", "--force")
        XCTAssertEqual(rm.status, .usage)
        XCTAssertEqual(rm.stderr, "gqlcache: --match is given twice, as 'Human' and 'Droid'; it takes one value (see 'gqlcache rm --help')\n")
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n", "nothing was removed")
        let short = gqlcache("export", cache, "-o", path("a.jsonl"), "--output=" + path("b.jsonl"))
        XCTAssertTrue(short.stderr.hasPrefix("gqlcache: --output is given twice, as "), short.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("a.jsonl")) || FileManager.default.fileExists(atPath: path("b.jsonl")))
        let key = gqlcache("read", cache, "--text", "fragment F on Human { name }", "--fragment", "F", "--key", "Human:1000", "--key", "Human:1002")
        XCTAssertEqual(key.status, .usage, key.stderr)
        XCTAssertEqual(gqlcache("keys", cache, "--limit", "2", "--limit", "2").stdout, "Droid:2001\nDroid:2001.friendsConnection(after:null,first:2)\n")
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Human", "--type", "Droid", "--count").stdout, "3\n")
        XCTAssertEqual(gqlcache("grep", cache, "--field", "name", "--", "--field").status, .notFound)
        XCTAssertTrue(gqlcache("keys", cache, "--limit", "1", "--limit", "2", "--help").stdout.hasPrefix("OVERVIEW: List record keys"), "help first")
        let repl = gqlcache("repl", cache, "-c", "keys --mode regex --mode=apollo Hu")
        XCTAssertEqual(repl.stderr, "gqlcache: --mode is given twice, as 'regex' and 'apollo'; it takes one value (see 'help keys')\n")
        // A line of many keys, which is parsed apart, is checked as well.
        let manyKeys = (1...70).map { "Nope:\($0)" }
        let show = gqlcache(arguments: ["show", cache, "Droid:2001"] + manyKeys + ["--format", "json", "--format", "text"])
        XCTAssertEqual(show.status, .usage)
        XCTAssertEqual(show.stderr, "gqlcache: --format is given twice, as 'json' and 'text'; it takes one value (see 'gqlcache show --help')\n")
        XCTAssertEqual(gqlcache(arguments: ["rm", cache] + manyKeys + ["--format", "json", "--format=jsonl", "--force"]).status, .usage)
        XCTAssertEqual(gqlcache(arguments: ["show", cache, "Droid:2001"] + manyKeys + ["--format", "json"]).status, .notFound, "given once")
    }
}
