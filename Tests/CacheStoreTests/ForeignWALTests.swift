import Foundation
import XCTest

@testable import CacheStore

/// A -wal file that cannot be its cache's (copied beside it from a larger
/// copy of the cache) is told from the file's own, which may hold many more
/// pages than the file: SQLite's checkpoint fails on the one, never on
/// the other.
final class ForeignWALTests: XCTestCase {
    /// The file's own -wal file, grown far past the file by an app killed
    /// before its checkpoint, is the file's: a write goes on.
    func testAWALThatGrowsTheFileIsItsOwn() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        try SQLiteShell.run(path, ".dbconfig no_ckpt_on_close on", """
            PRAGMA wal_autocheckpoint=0;
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000)
            INSERT INTO records(key, record) SELECT 'Big:' || i, '{"v":"' || hex(randomblob(100)) || '"}' FROM c;
            """)
        let commit = try XCTUnwrap(ForeignWAL.lastCommit(inWALAt: path + "-wal"))
        let fileSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(Int(commit.databasePages) * commit.pageSize, fileSize + 65_536, "the -wal file makes the database larger")
        XCTAssertNil(ForeignWAL.check(path))
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in _ = try tx.removeObject(for: "Human:1002") }
        XCTAssertEqual(try store.read { try $0.recordCount() }, 2009)
    }

    /// The -wal file of a larger copy of the cache: its last commit makes
    /// the database more pages than the file and the -wal file hold, which
    /// SQLite's checkpoint calls malformed. A write is refused before it
    /// begins, and the file and the -wal file stay as they were.
    func testAWALFromALargerCopyIsNotTheFilesAndNoWriteIsMade() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        let other = try folder.copy(Fixtures.starwars, as: "other.sqlite")
        try SQLiteShell.run(other, """
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000)
            INSERT INTO records(key, record) SELECT 'Big:' || i, '{"v":"x"}' FROM c; PRAGMA journal_mode=WAL;
            """)
        try SQLiteShell.run(other, ".dbconfig no_ckpt_on_close on", "PRAGMA wal_autocheckpoint=0; UPDATE records SET record='{\"zz\":1}' WHERE key='Big:1500';")
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: path + "-wal")
        let foreign = try XCTUnwrap(ForeignWAL.check(path))
        XCTAssertTrue(foreign.reason.hasPrefix("its last commit makes the database "), foreign.reason)
        XCTAssertTrue(foreign.reason.hasSuffix(" pages, where the file holds 4 and the -wal file 1"), foreign.reason)
        XCTAssertEqual(PendingWAL.inspect(path: path)?.foreignBecause, foreign.reason)
        // SQLite's own checkpoint, on a copy of both, calls them malformed.
        let probe = try folder.copy(URL(fileURLWithPath: path), as: "probe.sqlite")
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: probe + "-wal")
        XCTAssertThrowsError(try SQLiteShell.run(probe, "PRAGMA wal_checkpoint;")) { error in
            XCTAssertTrue("\(error)".contains("malformed"), "\(error)")
        }
        let (file, wal) = (try Data(contentsOf: URL(fileURLWithPath: path)), try Data(contentsOf: URL(fileURLWithPath: path + "-wal")))
        do {
            let store = try CacheStore.open(at: path, access: .readWrite)
            XCTAssertThrowsError(try store.write { tx in _ = try tx.removeObject(for: "Human:1002") }) { error in
                XCTAssertEqual("\(error)", "\(path): \(foreign)")
            }
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), file)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path + "-wal")), wal)
    }

    /// A file cut short (a copy that stopped) beside its own -wal file
    /// fails the same size test; its header, which says the file is as
    /// large as the -wal file's commit has it, tells it apart: the -wal
    /// file is not called another copy's, to be moved away and lost, and
    /// the cut is said. A write is refused all the same.
    func testAFileCutShortBesideItsOwnWALIsNotSaidToHaveAnotherCopysWAL() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        try SQLiteShell.run(path, """
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 2000)
            INSERT INTO records(key, record) SELECT 'Big:' || i, '{"v":"' || hex(randomblob(100)) || '"}' FROM c;
            """)
        try SQLiteShell.run(path, ".dbconfig no_ckpt_on_close on", "PRAGMA wal_autocheckpoint=0; UPDATE records SET record='{\"a\":1}' WHERE key='Human:1002';")
        XCTAssertNil(ForeignWAL.check(path), "whole, the file and its -wal file fit")
        XCTAssertEqual(truncate(path, 40 * 4096), 0)
        let misfit = try XCTUnwrap(ForeignWAL.check(path))
        XCTAssertTrue(misfit.fileIsCutShort)
        XCTAssertTrue(misfit.description.hasPrefix("the file is cut short, and its -wal file, \(path)-wal, does not hold the pages it lacks ("),
                      misfit.description)
        let pending = try XCTUnwrap(PendingWAL.inspect(path: path))
        XCTAssertNil(pending.foreignBecause)
        XCTAssertEqual(pending.cutShortBecause, misfit.reason)
        let store = try CacheStore.open(at: path, access: .readWrite)
        XCTAssertThrowsError(try store.write { tx in _ = try tx.removeObject(for: "Human:1000") }) { error in
            XCTAssertEqual("\(error)", "\(path): \(misfit)")
        }
    }

    /// A -wal file of pages of another size than the file's.
    func testAWALOfAnotherPageSizeIsNotTheFiles() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        let other = folder.path("small-pages.sqlite")
        try SQLiteShell.run(other, """
            PRAGMA page_size=1024; CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);
            PRAGMA journal_mode=WAL;
            """)
        try SQLiteShell.run(other, ".dbconfig no_ckpt_on_close on", "PRAGMA wal_autocheckpoint=0; INSERT INTO records(key, record) VALUES ('A:1', '{}');")
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: path + "-wal")
        XCTAssertEqual(ForeignWAL.check(path)?.reason, "its pages are 1024 bytes, the file's 4096")
    }

    /// A frame whose checksum does not follow on from the one before (torn
    /// by a crash) ends what SQLite reads of the -wal file: the last commit
    /// is the one before it.
    func testTheLastCommitIsTheLastWholeOne() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        try SQLiteShell.run(path, ".dbconfig no_ckpt_on_close on", "PRAGMA wal_autocheckpoint=0; UPDATE records SET record='{\"a\":1}' WHERE key='Human:1002';")
        let first = try XCTUnwrap(ForeignWAL.lastCommit(inWALAt: path + "-wal"))
        try SQLiteShell.run(path, ".dbconfig no_ckpt_on_close on", """
            PRAGMA wal_autocheckpoint=0;
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 50)
            INSERT INTO records(key, record) SELECT 'Big:' || i, '{"v":"' || hex(randomblob(250)) || '"}' FROM c;
            """)
        let whole = try XCTUnwrap(ForeignWAL.lastCommit(inWALAt: path + "-wal"))
        XCTAssertGreaterThan(whole.frames, first.frames)
        XCTAssertGreaterThan(whole.databasePages, first.databasePages)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        bytes[bytes.count - 100] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: path + "-wal"))
        XCTAssertEqual(ForeignWAL.lastCommit(inWALAt: path + "-wal"), first)
    }
}
