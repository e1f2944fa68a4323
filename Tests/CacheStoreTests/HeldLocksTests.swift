import Foundation
import XCTest

@testable import CacheStore

/// SQLite's locks are the process's, and closing any descriptor of a file
/// releases all of them: the store's own looks at its files (the header,
/// the -shm index) must never leave an open store without its locks.
final class HeldLocksTests: XCTestCase {
    func testLookingAtAnOpenWALCacheKeepsItsLocksSoAnotherProcessNeitherDeletesTheWALNorLosesWrites() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Tool:1", text: #"{"name":"first"}"#) }

        // Everything that looks at the files beside the connection: another
        // store opening and closing, the -shm index, the header.
        let second = try CacheStore.open(at: path, access: .readOnly)
        try second.close()
        XCTAssertNotNil(store.pendingWAL())
        XCTAssertEqual(try store.read { tx in try tx.journalMode() }, "wal")
        XCTAssertTrue(FileProbe.isSQLiteFile(atPath: path))

        // Another process opens and closes the file: as it is not the last
        // connection, it leaves the -wal file (and its changes) in place.
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT count(*) FROM records WHERE key = 'Tool:1';"), "1\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"), "the other process took itself for the last connection")

        // Its write and the store's next one both stay.
        try SQLiteShell.run(path, #"INSERT INTO records (key, record) VALUES ('App:1', '{"name":"app"}');"#)
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Tool:2", text: #"{"name":"second"}"#) }
        try store.close()
        let keys = try SQLiteShell.run(path, "SELECT key FROM records WHERE key IN ('App:1', 'Tool:1', 'Tool:2') ORDER BY key;")
        XCTAssertEqual(keys, "App:1\nTool:1\nTool:2\n")
    }

    func testAReadTransactionKeepsItsSharedLockWhileItsJournalModeIsLookedUp() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readOnly, busyTimeout: 0)
        try store.read { tx in
            _ = try tx.recordCount()
            XCTAssertEqual(try tx.journalMode(), "delete")
            // The read holds SQLite's shared lock: another process cannot write under it.
            XCTAssertThrowsError(try SQLiteShell.run(path, ".timeout 0", "DELETE FROM records;")) { error in
                XCTAssertTrue("\(error)".contains("locked"), "\(error)")
            }
        }
        try store.close()
        XCTAssertNotEqual(try SQLiteShell.run(path, "SELECT count(*) FROM records;"), "0\n")
    }

    func testAFileReadWhileAStoreIsOpenIsClosedOnceNoStoreHoldsIt() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let other = folder.path("other.txt")
        try Data("not a cache".utf8).write(to: URL(fileURLWithPath: other))
        let store = try CacheStore.open(at: path)
        XCTAssertTrue(FileProbe.isHeldByAnOpenStore(path))
        XCTAssertFalse(FileProbe.isHeldByAnOpenStore(other))
        let before = try openDescriptors(on: path)
        XCTAssertEqual(try openDescriptors(on: other), 0)
        XCTAssertTrue(FileProbe.isSQLiteFile(atPath: path))
        XCTAssertFalse(FileProbe.isSQLiteFile(atPath: other))
        // One descriptor kept for the held file, none for the other, and none twice.
        XCTAssertTrue(FileProbe.isSQLiteFile(atPath: path))
        XCTAssertEqual(try openDescriptors(on: path), before + 1)
        XCTAssertEqual(try openDescriptors(on: other), 0)
        try store.close()
        XCTAssertFalse(FileProbe.isHeldByAnOpenStore(path))
        XCTAssertEqual(try openDescriptors(on: path), before - 1, "the connection's descriptor and the kept one are closed")
    }

    /// The process's descriptors open on `path`: other threads' come and go.
    private func openDescriptors(on path: String) throws -> Int {
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == file
        }.count
    }
}
