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
