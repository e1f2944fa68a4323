import CacheStore
import GQLCacheCommands
import XCTest

final class ClearCommandTests: CommandTestCase {
    func testClearWithForceRemovesEveryRecord() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("clear", cache, "--force")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "removed 10 records\n")
        XCTAssertEqual(try keys(in: cache), [])
    }

    /// As every other command that writes: --dry-run says what would go,
    /// asks nothing (standard input need not be a terminal), takes no
    /// backup and leaves the file's bytes as they were.
    func testClearDryRunCountsTheRecordsAndChangesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let text = gqlcache("clear", cache, "--dry-run", "--vacuum", "--backup")
        XCTAssertEqual(text.status, .success, text.stderr)
        XCTAssertEqual(text.lines, [
            "would remove 10 records from \(cache)",
            "would vacuum the 16.0 KiB file: 0 free pages (0 B) now, and the pages the records free",
        ])
        XCTAssertEqual(text.stderr, "")
        let json = gqlcache("clear", cache, "--dry-run", "--format", "json")
        XCTAssertEqual(json.status, .success, json.stderr)
        XCTAssertEqual(try json.json() as? NSDictionary, [
            "dryRun": true, "removed": 10, "vacuumed": false, "bytesBefore": 16384, "bytesAfter": NSNull(),
        ])
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("backup") }, [])
        let done = gqlcache("clear", cache, "--force", "--format", "json")
        XCTAssertEqual((try done.json() as? [String: Any])?["dryRun"] as? Bool, false)
        XCTAssertEqual(gqlcache("clear", cache, "--dry-run").stdout, "\(cache) holds no records; nothing would be removed\n")
    }

    func testClearNeedsForceWhenNobodyCanAnswer() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("clear", cache)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    func testClearAsksOnATerminal() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("clear", cache, answers: ["no"]).status, .notFound)
        XCTAssertEqual(try keys(in: cache).count, 10)
        let result = gqlcache("clear", cache, answers: ["yes"])
        XCTAssertEqual(result.status, .success)
        XCTAssertTrue(result.stderr.contains("remove all 10 records from"), result.stderr)
        XCTAssertEqual(try keys(in: cache), [])
    }

    /// Ctrl-L pressed at the question, which clear's question names as
    /// the key that clears the screen, comes in the answer as a form feed:
    /// no part of it, so `^Ly` still says yes.
    func testACtrlLTypedAtTheQuestionIsNoPartOfTheAnswer() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("clear", cache, answers: ["\u{0C}n"]).status, .notFound)
        XCTAssertEqual(try keys(in: cache).count, 10)
        let result = gqlcache("clear", cache, answers: ["\u{0C}y"])
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(try keys(in: cache), [])
    }

    /// The app may write while the question waits: the answer was given
    /// for the records the question counted, as for rm --match and gc.
    func testClearWhoseRecordsChangedWhileAskingRemovesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let changed = gqlcache(arguments: ["clear", cache], answeringYesAfter: {
            _ = try? sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('Human:1009', '{}')")
        })
        XCTAssertEqual(changed.status, .busy)
        XCTAssertTrue(changed.stderr.hasSuffix(
            "gqlcache: \(cache) changed while you were asked (11 records now, 10 then): another process wrote the file; nothing removed; run clear again\n"),
            changed.stderr)
        XCTAssertEqual(try keys(in: cache).count, 11)
    }

    func testClearOnAnEmptyCacheHasNothingToAsk() throws {
        let cache = try makeCache("empty.sqlite", [])
        let result = gqlcache("clear", cache, answers: [])
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(result.stdout, "\(cache) holds no records; nothing to clear\n")
        XCTAssertEqual(result.stderr, "")
        // For a script, the report it asked for, as after removing records.
        let json = gqlcache("clear", cache, "--format", "json", answers: [])
        XCTAssertEqual(json.status, .success)
        let report = try XCTUnwrap(try json.json() as? [String: Any])
        XCTAssertEqual(report["removed"] as? Int, 0)
        XCTAssertEqual(report["vacuumed"] as? Bool, false)
        XCTAssertEqual(report["bytesBefore"] as? Int, report["bytesAfter"] as? Int)
        // VACUUM alone loses nothing: no question of removing "all 0 records".
        let vacuum = gqlcache("clear", cache, "--vacuum", answers: [])
        XCTAssertEqual(vacuum.status, .success, vacuum.stderr)
        XCTAssertFalse(vacuum.stdout.contains("?"), vacuum.stdout)
        XCTAssertEqual(vacuum.lines.first, "removed 0 records")
    }

    func testVacuumInWALModeReportsTheSpaceGivenBack() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let result = gqlcache("clear", cache, "--force", "--vacuum", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(report["bytesBefore"] as? Int, 16384)
        XCTAssertEqual(report["bytesAfter"] as? Int, try bytes(cache).count, "the -wal file was checkpointed and emptied")
        XCTAssertLessThanOrEqual(try bytes(cache).count, 16384)
    }

    func testClearInWALModeReportsTheSizeTheFileKeeps() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let result = gqlcache("clear", cache, "--force", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        // Without a checkpoint the removal's pages sat in the -wal file and were counted twice.
        XCTAssertEqual(report["bytesAfter"] as? Int, try bytes(cache).count)
        XCTAssertEqual(report["bytesAfter"] as? Int, report["bytesBefore"] as? Int, "clearing without --vacuum frees pages, not bytes")
    }

    /// While the app reads the -wal file, the checkpoint after VACUUM waits
    /// for no one, whatever --busy-timeout says: waiting, it would hold the
    /// writer lock and fail every write of the app's. clear ends at once,
    /// its removal and rebuild committed into the -wal file for a later
    /// checkpoint, and the app writes meanwhile.
    func testClearWithVacuumWhileTheAppReadsEndsAtOnceAndLeavesTheAppItsWrites() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "PRAGMA journal_mode=wal")
        let reader = try RunningSQLiteShell(cache, running: "BEGIN; SELECT count(*) FROM records; SELECT 'reading';", until: "reading")
        defer { reader.finish() }
        let started = Date()
        let clear = try runProgram(builtBinary, ["clear", cache, "--force", "--vacuum", "--busy-timeout", "120"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 60, "it waited for the reader")
        XCTAssertEqual(clear.status, 0, clear.stderr)
        XCTAssertTrue(clear.stdout.hasPrefix("removed 10 records\nvacuumed: "), clear.stdout)
        let app = try runProgram("/usr/bin/sqlite3", ["-batch", cache, ".timeout 0", "INSERT INTO records(key, record) VALUES ('App:1', '{}'); SELECT count(*) FROM records;"])
        XCTAssertEqual(app.stdout, "1\n", app.stderr)
    }

    func testVacuumShrinksTheFile() throws {
        let cache = path("big.sqlite")
        let store = try CacheStore.create(at: cache)
        try store.write { tx in
            try tx.merge((0..<2000).map { Record(key: CacheKey("Post:\($0)"), fields: ["body": .string(String(repeating: "x", count: 500))]) })
        }
        let before = try bytes(cache).count
        let result = gqlcache("clear", cache, "--force", "--vacuum", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(report["removed"] as? Int, 2000)
        XCTAssertLessThan(try bytes(cache).count, before / 10)
        XCTAssertEqual(try CacheStore.open(at: cache).format.ddl, .current)
    }
}
