import CacheStore
import Foundation
import XCTest

@testable import GQLCacheCommands

/// `--backup` on every command that writes: a copy beside the file, made
/// before the change, its path on standard error.
final class BackupCommandTests: CommandTestCase {
    private let date = Date(timeIntervalSince1970: 1_800_000_000)

    private var stamp: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }

    /// Runs a command at a fixed time, with `input` on standard input.
    private func run(_ arguments: String..., answers: [String]? = nil) -> CommandResult {
        run(arguments: arguments, answers: answers)
    }

    private func run(arguments: [String], answers: [String]? = nil) -> CommandResult {
        let stdout = StringSink()
        let stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines(answers ?? []),
            stdinIsTerminal: answers != nil, stdoutIsTerminal: false, environment: [:])
        context.now = { self.date }
        let status = GQLCacheMain.run(arguments: arguments, context: context)
        return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
    }

    private func backups() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".backup-") }.sorted()
    }

    func testRemoveBacksUpFirstAndPrintsWhere() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = run("rm", cache, "Human:1002", "--backup")
        XCTAssertEqual(result.status, .success, result.stderr)
        let backup = "\(cache).backup-\(stamp)"
        XCTAssertEqual(result.stderr, "gqlcache: backed up \(cache) to \(backup)\n")
        XCTAssertEqual(try keys(in: backup).count, 10)
        XCTAssertEqual(try keys(in: cache).count, 9)
    }

    /// Run as root on an app's cache, the copy gets the cache's owner and
    /// group besides its mode: moved back over the cache (as the README
    /// says to restore it), it opens for the app's user. So does an
    /// export that replaces a file of that user.
    func testAsRootTheBackupAndAReplacedExportKeepTheFilesOwner() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to give files another owner") }
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(chown(cache, 65534, 65534), 0)
        XCTAssertEqual(chmod(cache, 0o600), 0)
        let result = run("rm", cache, "Human:1002", "--backup")
        XCTAssertEqual(result.status, .success, result.stderr)
        var copied = stat()
        XCTAssertEqual(stat("\(cache).backup-\(stamp)", &copied), 0)
        XCTAssertEqual([copied.st_uid, copied.st_gid], [65534, 65534])
        XCTAssertEqual(copied.st_mode & 0o7777, 0o600)

        let export = path("export.jsonl")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: export))
        XCTAssertEqual(chown(export, 65534, 65534), 0)
        XCTAssertEqual(gqlcache("export", cache, "-o", export).status, .success)
        var exported = stat()
        XCTAssertEqual(stat(export, &exported), 0)
        XCTAssertEqual([exported.st_uid, exported.st_gid], [65534, 65534])
    }

    /// Through a symbolic link the copy goes beside the file the link
    /// names, so that moving it back restores that file, not the link.
    func testThroughASymbolicLinkTheBackupGoesBesideTheFileItNames() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try FileManager.default.createDirectory(atPath: path("links"), withIntermediateDirectories: false)
        let link = path("links/cache.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../starwars.sqlite")
        let result = run("rm", link, "Human:1002", "--backup")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(try backups(), ["starwars.sqlite.backup-\(stamp)"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("links")), ["cache.sqlite"])
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: backed up \(link) to "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("starwars.sqlite.backup-\(stamp)\n"), result.stderr)
        XCTAssertEqual(try keys(in: "\(cache).backup-\(stamp)").count, 10)
    }

    /// A link to a file whose name is not UTF-8: that name, as text, names
    /// another file, where the backup (and SQLite's -journal, looked for
    /// before a write) would go. The file is refused, changed in nothing.
    func testALinkToAFileWhoseNameIsNotUTF8IsRefusedAndNothingIsMade() throws {
        let source = try copyOfFixture("starwars.sqlite")
        let made = try runProgram("/bin/sh", ["-c", #"cd "$1" && name="$(printf 'bad\377\376name.sqlite')" && mv "$2" "$name" && ln -s "$name" good.sqlite"#, "sh", folder.path, source])
        XCTAssertEqual(made.status, 0, made.stderr)
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).count
        for arguments in [["rm", path("good.sqlite"), "Human:1002", "--backup"], ["keys", path("good.sqlite"), "--count"]] {
            let result = run(arguments: arguments)
            XCTAssertEqual(result.status, .io, result.stderr)
            XCTAssertEqual(result.stderr, "gqlcache: \(path("good.sqlite")): its real path, \(FileProbe.resolved(folder.path))/bad\\xFF\\xFEname.sqlite, "
                + "is not UTF-8 text, by which the files SQLite keeps beside it would be missed; rename the file (or its folder) to UTF-8\n")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, listing, "no backup was made")
        // A link to no file yet: --create does not make one under such a name either.
        let dangling = try runProgram("/bin/sh", ["-c", #"cd "$1" && ln -s "$(printf 'new\376.sqlite')" dangling.sqlite && : > empty.jsonl"#, "sh", folder.path])
        XCTAssertEqual(dangling.status, 0, dangling.stderr)
        let created = run("import", path("dangling.sqlite"), path("empty.jsonl"), "--create")
        XCTAssertEqual(created.status, .io, created.stderr)
        XCTAssertTrue(created.stderr.contains("is not UTF-8 text, by which the files SQLite keeps beside it would be missed"), created.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, listing + 2, "only the link and the input")
        // Nor through a chain of links.
        XCTAssertEqual(try runProgram("/bin/sh", ["-c", #"cd "$1" && ln -s "$(printf 'deep\376.sqlite')" inner && ln -s inner outer.sqlite"#, "sh", folder.path]).status, 0)
        XCTAssertEqual(run("import", path("outer.sqlite"), path("empty.jsonl"), "--create").status, .io)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, listing + 4, "only the links and the input")
    }

    /// A name that fits, but not with the '-journal' SQLite writes beside
    /// it, reads and fails every write: said as that, not "unable to open
    /// database file".
    func testANameTooLongForItsJournalIsSaidOnAWrite() throws {
        let name = String(repeating: "c", count: 245) + ".sqlite"
        let cache = try copyOfFixture("starwars.sqlite", as: name)
        XCTAssertEqual(run("keys", cache, "--count").stdout, "10\n")
        let removal = run("rm", cache, "Human:1002")
        XCTAssertEqual(removal.status, .io)
        XCTAssertEqual(removal.stderr, "gqlcache: \(cache): cannot write: the file's name is too long for the -journal file SQLite writes beside it "
            + "(252 bytes, with '-journal' 260; a name may have 255); give the file a shorter name\n")
        XCTAssertEqual(try keys(in: cache).count, 10)
        // In WAL mode the file written beside it is the -wal.
        let short = try copyOfFixture("starwars.sqlite", as: "wal.sqlite")
        _ = try sqliteShell(short, "PRAGMA journal_mode=WAL")
        let wal = path(String(repeating: "w", count: 246) + ".sqlite")
        try FileManager.default.moveItem(atPath: short, toPath: wal)
        XCTAssertEqual(run("rm", wal, "Human:1002").stderr, "gqlcache: \(wal): cannot write: the file's name is too long for the -wal file SQLite writes beside it "
            + "(253 bytes, with '-wal' 257; a name may have 255); give the file a shorter name\n")
    }

    /// A backup whose name fits, of a file whose name is long, is made:
    /// the copy is written without a -journal, and under a short name
    /// where `NAME.backup-….partial` would not fit (a name may have 255
    /// bytes). Before, names of 216 to 232 bytes wrote without --backup
    /// and failed with it.
    func testALongNameWhoseBackupNameFitsIsBackedUp() throws {
        for length in [216, 224, 232] {
            let cache = try copyOfFixture("starwars.sqlite", as: String(repeating: "b", count: length - 7) + ".sqlite")
            let result = run("rm", cache, "Human:1002", "--backup")
            XCTAssertEqual(result.status, .success, result.stderr)
            XCTAssertEqual(result.stderr, "gqlcache: backed up \(cache) to \(cache).backup-\(stamp)\n")
            XCTAssertEqual(try keys(in: "\(cache).backup-\(stamp)").count, 10)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("partial") || $0.hasSuffix("-journal") }, [])
    }

    /// A file name with a newline or an escape sequence is escaped in the
    /// notice, as in every other message: it is one line, and the terminal
    /// is not sent the name's escape sequences.
    func testTheBackupNoticeEscapesControlCharactersInTheFileName() throws {
        let cache = try copyOfFixture("starwars.sqlite", as: "new\nline\u{1B}[31m.sqlite")
        let result = run("rm", cache, "Human:1002", "--backup")
        XCTAssertEqual(result.status, .success, result.stderr)
        let backup = "\(cache).backup-\(stamp)"
        XCTAssertEqual(result.stderr, "gqlcache: backed up \(cache.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u001b")) to \(backup.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u001b"))\n")
        XCTAssertEqual(try keys(in: backup).count, 10)
    }

    /// A cache the user cannot write is named as the problem, not its
    /// backup (which gets the cache's permissions). Run as another user:
    /// root writes any file.
    func testWithACacheTheUserCannotWriteTheCacheIsNamedAndNoBackupIsLeft() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: cache)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let run = try runBuiltBinaryAsAnotherUser(["gc", cache, "--all", "--force", "--backup"])
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stderr, "gqlcache: \(cache): the file or its folder is read-only; cannot write\n")
        XCTAssertEqual(try backups(), [])
    }

    /// A -wal the user may not write (the app, run as another user, left
    /// it) is named as the problem, with its owner and mode, not the
    /// cache or its folder, which the user may write.
    func testAWALFileTheUserCannotWriteIsNamedWithItsOwner() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        try sqliteShell(cache, "PRAGMA journal_mode=wal")
        XCTAssertTrue(FileManager.default.createFile(atPath: cache + "-wal", contents: Data(), attributes: [.posixPermissions: 0o644]))
        XCTAssertEqual(chown(cache, 65534, 65534), 0)
        let before = try bytes(cache)
        let run = try runBuiltBinaryAsAnotherUser(["rm", cache, "Human:1002"])
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stderr, "gqlcache: \(cache)-wal: this user may not write it (owner root, mode 0644), and SQLite writes it to change "
            + "starwars.sqlite; run the command as root, or let this user write it; nothing was changed\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// A file whose mode has no write bit is kept as it is by every
    /// command that writes, also run as root, which could write it.
    func testAWriteProtectedCacheIsNotWrittenAlsoByRoot() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: cache)
        let before = try bytes(cache)
        for arguments in [["rm", cache, "Starship:3001", "--backup"], ["clear", cache, "--force"], ["gc", cache, "--vacuum"],
                          ["repl", cache, "-c", "rm Starship:3001 --force"]] {
            let run = gqlcache(arguments: arguments)
            XCTAssertEqual(run.status, .io, "\(arguments)")
            XCTAssertEqual(run.stderr, "gqlcache: \(cache): the file is write-protected (mode 0444); make it writable (chmod u+w) to change it; nothing was changed\n")
        }
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertEqual(try backups(), [])
        let dryRun = gqlcache("rm", cache, "Starship:3001", "--dry-run")
        XCTAssertEqual(dryRun.status, .success, "a dry run writes nothing")
        XCTAssertTrue(dryRun.stdout.hasPrefix("would remove Starship:3001\n"), dryRun.stdout)
        XCTAssertTrue(dryRun.stderr.hasPrefix("gqlcache: warning: the change itself would be refused (exit status 5): \(cache): the file is write-protected"),
                      dryRun.stderr)
        // An empty file, which --create would make a cache of, too.
        let empty = path("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data(), attributes: [.posixPermissions: 0o444]))
        let export = path("in.jsonl")
        try gqlcache("export", cache).stdout.write(toFile: export, atomically: true, encoding: .utf8)
        let created = gqlcache("import", empty, export, "--create")
        XCTAssertEqual(created.status, .io)
        XCTAssertEqual(created.stderr, "gqlcache: \(empty): the file is write-protected (mode 0444); make it writable (chmod u+w) to change it; nothing was changed\n")
        XCTAssertEqual(try bytes(empty), Data())
    }

    func testEveryWritingCommandTakesBackup() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let input = path("in.jsonl")
        try Data(#"{"key":"A:1","record":{"n":1}}"#.utf8).write(to: URL(fileURLWithPath: input))
        let response = path("response.json")
        try Data(#"{"data":{"human":{"__typename":"Human","id":"1003","name":"Leia"}}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let document = "query Rename @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id name } }"
        let runs: [[String]] = [
            ["import", cache, input, "--backup"],
            ["update", cache, "--text", document, "--set", "hero.name=Artoo", "--backup"],
            ["write", cache, "--text", #"{ human(id: "1003") { __typename id name } }"#, "--key-field", "*=id", "--response", response, "--backup"],
            ["rm", cache, "--match", "Human", "--force", "--backup"],
            ["clear", cache, "--force", "--backup"],
        ]
        var expected: [String] = []
        for (index, arguments) in runs.enumerated() {
            let result = run(arguments: arguments)
            XCTAssertEqual(result.status, .success, "\(arguments[0]): \(result.stderr)")
            let name = "starwars.sqlite.backup-\(stamp)" + (index == 0 ? "" : "-\(index + 1)")
            expected.append(name)
            XCTAssertTrue(result.stderr.hasSuffix("to \(path(name))\n"), "\(arguments[0]): \(result.stderr)")
        }
        XCTAssertEqual(try backups(), expected.sorted())
        // Each copy holds the state the next command started from.
        XCTAssertEqual(try keys(in: path(expected[0])).count, 10)
        XCTAssertEqual(try keys(in: path(expected[1])).count, 11, "after the import")
        XCTAssertEqual(try records(path(expected[2]))["Droid:2001"]?["name"], .string("Artoo"), "after the update")
        XCTAssertEqual(try keys(in: path(expected[3])).count, 12, "after the write")
        XCTAssertEqual(try keys(in: path(expected[4])).count, 9, "after rm --match Human")
        XCTAssertEqual(try keys(in: cache), [])
    }

    /// A script reads the copy's path from the JSON document, not from the
    /// message, which a path with spaces makes hard to cut.
    func testTheJSONDocumentNamesTheBackupCopy() throws {
        let folder = path("my caches")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cache = folder + "/app cache.sqlite"
        try FileManager.default.copyItem(atPath: try copyOfFixture("starwars.sqlite"), toPath: cache)
        let document = "query Rename @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id name } }"
        for arguments in [
            ["rm", cache, "Human:1002", "--backup", "--format", "json"],
            ["update", cache, "--text", document, "--set", "hero.name=Artoo", "--backup", "--format", "json"],
            ["gc", cache, "--all", "--force", "--backup", "--format", "json"],
        ] {
            let result = run(arguments: arguments)
            XCTAssertEqual(result.status, .success, "\(arguments[0]): \(result.stderr)")
            let copy = try XCTUnwrap(try XCTUnwrap(try result.json() as? [String: Any])["backup"] as? String, arguments[0])
            XCTAssertTrue(copy.hasPrefix(cache + ".backup-"), copy)
            XCTAssertTrue(FileManager.default.fileExists(atPath: copy), copy)
            XCTAssertTrue(result.stderr.hasSuffix("to \(copy)\n"), result.stderr)
        }
        let without = run("rm", cache, "Starship:3001", "--format", "json")
        XCTAssertNil(try XCTUnwrap(try without.json() as? [String: Any])["backup"], "no copy, no member")
    }

    /// With JSON Lines, the summary line names the copy, as the JSON
    /// document does; the lines before it are the records' own.
    func testTheJSONLinesSummaryNamesTheBackupCopy() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let export = gqlcache("export", cache).stdout
        let without = gqlcache("rm", cache, "Starship:3001", "--format", "jsonl")
        XCTAssertEqual(without.status, .success)
        XCTAssertTrue(without.stdout.hasSuffix(#"{"type":"summary","dryRun":false,"removed":1,"danglingReferences":1}"# + "\n"), "no copy, no member: \(without.stdout)")
        for arguments in [
            ["rm", cache, "Human:1002", "--backup", "--format", "jsonl"],
            ["gc", cache, "--all", "--force", "--backup", "--format", "jsonl"],
            ["import", cache, "-", "--backup", "--format", "jsonl"],
            ["clear", cache, "--force", "--backup", "--format", "jsonl"],
        ] {
            let result = gqlcache(arguments: arguments, input: export)
            XCTAssertEqual(result.status, .success, "\(arguments[0]): \(result.stderr)")
            let lines = try result.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            let summary = try XCTUnwrap(lines.last, arguments[0])
            let copy = try XCTUnwrap(summary["backup"] as? String, "\(arguments[0]): \(summary)")
            XCTAssertTrue(copy.hasPrefix(cache + ".backup-"), copy)
            XCTAssertTrue(result.stderr.hasSuffix("to \(copy)\n"), result.stderr)
            XCTAssertTrue(lines.dropLast().allSatisfy { $0["backup"] == nil }, arguments[0])
        }
    }

    func testNothingIsBackedUpWhenNothingIsWritten() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(run("rm", cache, "Human:1002", "--dry-run", "--backup").status, .success)
        XCTAssertEqual(run("clear", cache, "--backup", answers: ["n"]).status, .notFound)
        XCTAssertEqual(run("rm", cache, "--match", "Human", "--backup", answers: ["no"]).status, .notFound)
        // Write transactions that change no row, or fail, leave no copy either.
        let document = "query Rename @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id name } }"
        let unchanged = run("update", cache, "--text", document, "--set", "hero.name=R2-D2", "--backup")
        XCTAssertEqual(unchanged.status, .success, unchanged.stderr)
        XCTAssertEqual(unchanged.stderr, "")
        XCTAssertTrue(unchanged.stdout.hasPrefix("nothing to write"), unchanged.stdout)
        XCTAssertEqual(run("update", cache, "--text", document, "--set", "hero.nope=X", "--backup").status, .usage)
        XCTAssertEqual(run("rm", cache, "--match", "Nobody", "--force", "--backup").status, .notFound)
        XCTAssertEqual(run("rm", cache, "Nobody:1", "--backup").status, .notFound)
        XCTAssertEqual(try backups(), [])
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    /// A first step that changes nothing leaves the copy owed to the next
    /// one that changes the file: gc's VACUUM after nothing to collect, and
    /// clear's after an empty cache, rebuild the file after a backup.
    func testAVacuumAfterAStepThatChangedNothingIsBackedUpFirst() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let gc = run("gc", cache, "--dangling", "--vacuum", "--backup", "--force")
        XCTAssertEqual(gc.status, .success, gc.stderr)
        XCTAssertTrue(gc.stdout.hasPrefix("nothing to collect"), gc.stdout)
        XCTAssertEqual(gc.stderr, "gqlcache: backed up \(cache) to \(cache).backup-\(stamp)\n")
        XCTAssertEqual(try backups(), ["starwars.sqlite.backup-\(stamp)"])
        try FileManager.default.removeItem(atPath: "\(cache).backup-\(stamp)")
        XCTAssertEqual(run("clear", cache, "--force").status, .success)
        let clear = run("clear", cache, "--vacuum", "--backup", "--force")
        XCTAssertEqual(clear.stderr, "gqlcache: backed up \(cache) to \(cache).backup-\(stamp)\n")
        XCTAssertEqual(try backups(), ["starwars.sqlite.backup-\(stamp)"])
    }

    /// The REPL keeps the store open: a --backup that wrote nothing must
    /// not make the next command, which did not ask, take a copy.
    func testAtTheREPLOnlyTheCommandThatAsksIsBackedUp() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let stdout = StringSink()
        let stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines(["n"]), stdinIsTerminal: true, stdoutIsTerminal: false, environment: [:])
        let session = REPLSession(cachePath: cache, context: context, interactive: true)
        try session.start()
        _ = session.run(reader: SourceLineReader(lines: ["clear --backup", "rm Human:1002 --force", "rm Human:1000 --force --backup"]), bail: false)
        let made = try backups()
        XCTAssertEqual(made.count, 1, stderr.text)
        XCTAssertEqual(try keys(in: path(made[0])).count, 9, "taken before the second removal, after the first")
    }

    func testBackupWhileTheAppHoldsAWALFileOpen() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let app = Process()
        let input = Pipe()
        app.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        app.arguments = ["-batch", cache]
        app.standardInput = input
        app.standardOutput = FileHandle.nullDevice
        try app.run()
        defer {
            input.fileHandleForWriting.write(Data(".quit\n".utf8))
            app.waitUntilExit()
        }
        input.fileHandleForWriting.write(Data("INSERT INTO records (key, record) VALUES ('Human:1003', '{\"id\":\"1003\"}');\n".utf8))
        let deadline = Date().addingTimeInterval(10)
        // A look taken as the app opens the file may be refused as read mid-change: it is only looked at again.
        while (try? keys(in: cache))?.contains("Human:1003") != true, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }

        let result = run("rm", cache, "Human:1000", "--backup")
        XCTAssertEqual(result.status, .success, result.stderr)
        let backup = "\(cache).backup-\(stamp)"
        XCTAssertEqual(try keys(in: backup).count, 11, "the app's write, still in the -wal file, and Human:1000")
        let diff = run("diff", backup, cache, "--keys-only")
        XCTAssertEqual(diff.lines, ["- Human:1000", "1 record differs: 1 removed; 10 the same"])
    }
}
