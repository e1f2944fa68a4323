import Foundation
import XCTest

@testable import CacheStore

/// Committed changes still in the -wal file are found, from the -shm
/// index or, without one, from the -wal file's frames.
final class PendingWALTests: XCTestCase {
    func testChangesInTheWALOfAnOpenConnectionArePendingUntilItCloses() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        XCTAssertNil(PendingWAL.inspect(path: path))
        var writer: CacheStore? = try CacheStore.open(at: path, access: .readWrite)
        try writer!.write { tx in try tx.unsafeWriteRawRecord(key: "New:1", text: "{}") }
        let pending = try XCTUnwrap(PendingWAL.inspect(path: path))
        XCTAssertGreaterThan(pending.frames, 0)
        XCTAssertEqual(pending.walBytes, FileSizes(path: path).wal)

        // The same -wal file with no -shm beside it: the frames are counted.
        let copy = folder.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        XCTAssertEqual(PendingWAL.inspect(path: copy)?.frames, pending.frames)

        writer = nil  // closing the last connection checkpoints
        XCTAssertNil(PendingWAL.inspect(path: path))
    }

    /// A write rolled back after SQLite had spilled its pages into the -wal
    /// file (Ctrl-C, a full disk) leaves no -wal beside a file that had
    /// none: the close removes it, as it does after a committed write.
    func testAWriteRolledBackLeavesNoWALBesideAFileThatHadNone() throws {
        struct Stop: Error {}
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        let before = try SQLiteShell.lines(path, "SELECT key, record FROM records ORDER BY key")
        var store: CacheStore? = try CacheStore.open(at: path, access: .readWrite)
        // A page cache of two pages: the write's pages go to the -wal file before any commit.
        try store!.queue.inDatabase { db in try db.execute(sql: "PRAGMA cache_size = 2") }
        XCTAssertThrowsError(try store!.write { tx in
            for index in 0..<300 {
                try tx.unsafeWriteRawRecord(key: CacheKey("Filler:\(index)"), text: #"{"text":"\#(String(repeating: "x", count: 4000))"}"#)
            }
            throw Stop()
        })
        XCTAssertGreaterThan(FileSizes(path: path).wal ?? 0, 100_000, "the rolled-back write's pages were in the -wal file")
        XCTAssertFalse(store!.hasCommittedChanges)
        store = nil
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-shm"))
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT key, record FROM records ORDER BY key"), before)
    }

    /// Changes another process left in the -wal file are checked once,
    /// before a store's first write; those this process wrote, through
    /// another store it still has open, need no check.
    func testOnlyChangesThisProcessDidNotWriteAreCheckedBeforeAWrite() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        // An app killed after its commit: the change waits in the -wal file.
        try SQLiteShell.run(path, ".dbconfig no_ckpt_on_close on", "DELETE FROM records WHERE key = 'Human:1002'")
        let first = try CacheStore.open(at: path, access: .readWrite)
        try first.write { tx in _ = try tx.removeObject(for: "Human:1003") }
        try first.write { tx in _ = try tx.removeObject(for: "Human:1000") }
        XCTAssertEqual(first.walChecked.value, 1, "checked once, at the first write")
        // Another store of this process, while the first is open: the frames are this process's.
        let second = try CacheStore.open(at: path, access: .readWrite)
        try second.write { tx in _ = try tx.removeObject(for: "Droid:2001") }
        XCTAssertEqual(second.walChecked.value, 0)
        XCTAssertEqual(try second.read { try $0.recordCount() }, 7)
    }

    /// What this process wrote or checked is known by the -wal file itself:
    /// another cache's put in its place later (a fresh copy pulled from a
    /// device between two REPL commands) is checked, and refused when the
    /// file reads as damaged with it; the file and the -wal stay as they are.
    func testAnotherCachesWALPutWhereThisProcessWroteIsCheckedAgain() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        do {
            let store = try CacheStore.open(at: path, access: .readWrite)
            try store.write { tx in _ = try tx.removeObject(for: "Human:1002") }
            XCTAssertTrue(store.hasCommittedChanges)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"), "checkpointed as the store closed")
        // The blog example, an app killed after its commit, and its -wal file put beside the Star Wars cache.
        let blog = try folder.copy(Fixtures.repositoryRoot.appendingPathComponent("Examples/blog.sqlite"))
        try SQLiteShell.run(blog, "PRAGMA journal_mode=WAL;")
        try SQLiteShell.run(blog, ".dbconfig no_ckpt_on_close on", #"INSERT INTO records(key, record) VALUES ('Post:99', '{"__typename":"Post"}')"#)
        try FileManager.default.copyItem(atPath: blog + "-wal", toPath: path + "-wal")
        let (file, wal) = (try Data(contentsOf: URL(fileURLWithPath: path)), try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
        do {
            let store = try CacheStore.open(at: path, access: .readWrite)
            XCTAssertThrowsError(try store.write { tx in _ = try tx.removeObject(for: "Droid:2001") }) { error in
                guard case .corrupt(_, let message, let walBytes)? = error as? CacheStoreError else { return XCTFail("\(error)") }
                XCTAssertTrue(message.hasPrefix("integrity_check: "), message)
                XCTAssertEqual(walBytes, Int64(wal.count))
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), file)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")), wal)
    }
}
