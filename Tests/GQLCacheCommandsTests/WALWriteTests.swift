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

    /// A -wal file copied beside the file from a copy of it that went its
    /// own way reads as sound, and a write goes on; but SQLite cannot copy
    /// the -wal file into the file at the close, and the change stands in
    /// the -wal file alone: said, not left for a copy of the file to lose.
    func testAWriteWhoseChangeCannotLeaveTheWALFileSaysSo() throws {
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
        let result = gqlcache("rm", cache, "Human:1002", "--quiet")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: \(cache): the change stands in \(cache)-wal alone: SQLite could not copy it into the "
            + "file (database disk image is malformed), so keep that file beside it (a copy of the file alone lacks the change); the -wal "
            + "file may belong to another copy of the cache: 'gqlcache doctor' says more\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache + "-wal"))
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
