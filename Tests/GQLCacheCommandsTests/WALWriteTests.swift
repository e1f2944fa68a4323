import Foundation
import XCTest

/// A command that writes a file in WAL mode leaves it as the sqlite3 shell
/// does: its changes in the file itself, with no -wal or -shm beside it
/// (when no other process has the file open). Run against the built
/// executable, whose process would otherwise exit with the connection
/// still open and the changes only in the -wal file.
final class WALWriteTests: CommandTestCase {
    private func runBuilt(_ arguments: [String]) throws -> Int32 {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), "build gqlcache first: \(builtBinary)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtBinary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The keys a copy of the main file alone holds: what is not in it is
    /// lost to anyone who copies the file without its -wal.
    private func keysInMainFileAlone(_ cache: String) throws -> [String] {
        let alone = folder.appendingPathComponent("alone").appendingPathComponent("copy.sqlite").path
        try? FileManager.default.removeItem(atPath: (alone as NSString).deletingLastPathComponent)
        try FileManager.default.createDirectory(atPath: (alone as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: cache, toPath: alone)
        return try sqliteShell(alone, "SELECT key FROM records ORDER BY key").split(separator: "\n").map(String.init)
    }

    func testAWriteToAWALFileLeavesItsChangesInTheFileAndNoWALBeside() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        XCTAssertEqual(try runBuilt(["rm", cache, "Human:1002"]), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["starwars.sqlite"])
        XCTAssertFalse(try keysInMainFileAlone(cache).contains("Human:1002"))
        XCTAssertEqual(try sqliteShell(cache, "PRAGMA journal_mode"), "wal", "the file stays in WAL mode")
    }

    /// A -wal file copied beside the file from a larger copy of it reads as
    /// sound, but SQLite could never copy it into the file: a write would
    /// stand in the -wal file alone, which a copy of the file lacks. It is
    /// refused before it begins, naming the -wal file, and doctor says the
    /// same; the file and the -wal file stay as they were.
    func testAWriteBesideAWALFileFromALargerCopyIsRefusedAndChangesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite", as: "a.sqlite")
        let other = try copyOfFixture("starwars.sqlite", as: "b.sqlite")
        _ = try sqliteShell(cache, "PRAGMA journal_mode=WAL;")
        _ = try sqliteShell(other, """
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000)
            INSERT INTO records(key, record) SELECT 'Big:' || i, '{"v":"x"}' FROM c; PRAGMA journal_mode=WAL;
            """)
        // Its change left in its -wal file, as an app killed before a checkpoint leaves one.
        _ = try runProgram("/usr/bin/sqlite3", ["-batch", "-cmd", ".dbconfig no_ckpt_on_close on", other,
                                                "PRAGMA wal_autocheckpoint=0; UPDATE records SET record='{\"zz\":1}' WHERE key='QUERY_ROOT';"])
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: cache + "-wal")
        let (file, wal) = (try bytes(cache), try bytes(cache + "-wal"))
        let result = gqlcache("rm", cache, "Human:1002", "--quiet")
        XCTAssertEqual(result.status, .io, result.stderr)
        let reason = "its last commit makes the database 26 pages, where the file holds 4 and the -wal file 1"
        XCTAssertEqual(result.stderr, "gqlcache: \(cache): its -wal file, \(cache)-wal, is not this file's (\(reason)): it came from another "
            + "copy of the cache, and SQLite cannot copy it in (a checkpoint fails as malformed); move it away (it was left as it is)\n")
        XCTAssertEqual(try bytes(cache), file)
        XCTAssertEqual(try bytes(cache + "-wal"), wal)

        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound, doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains("\n  WAL: 1 page of committed changes in \(cache)-wal (4.1 KiB) that are not this file's (\(reason)): "
            + "the -wal file came from another copy of the cache, and SQLite cannot copy it in (a checkpoint fails as malformed, and every "
            + "change written after stays in it); move it away while no program has the file open\n"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("to checkpoint"), doctor.stdout)
        let json = try XCTUnwrap(try gqlcache("doctor", cache, "--format", "json").json() as? [String: Any])
        let problems = try XCTUnwrap(json["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.first?["kind"] as? String, "foreignWAL")
        XCTAssertEqual(problems.first?["reason"] as? String, reason)
        XCTAssertEqual(try bytes(cache), file)
    }

    /// `rm --type` reads the file again once it has removed: the process
    /// keeps its readers open until it exits, but not past the writer's
    /// close, which must be the last to move the changes into the file.
    func testACommandThatAlsoReadsTheFileItWroteLeavesNoWALBeside() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        XCTAssertEqual(try runBuilt(["rm", cache, "--type", "Droid", "--force"]), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["starwars.sqlite"])
        XCTAssertFalse(try keysInMainFileAlone(cache).contains("Droid:2001"))
    }

    func testTheREPLLeavesAWALFileItWroteAsTheSqlite3ShellDoes() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        XCTAssertEqual(try runBuilt(["repl", cache, "-c", "rm Human:1002; keys --count"]), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["starwars.sqlite"])
        XCTAssertFalse(try keysInMainFileAlone(cache).contains("Human:1002"))
    }
}
