import Foundation
import XCTest

@testable import CacheStore

/// `backUpBeforeNextWrite`: a consistent copy, made with SQLite's online
/// backup API inside the write transaction, before anything changes.
final class BackupTests: XCTestCase {
    private let date = Date(timeIntervalSince1970: 1_800_000_000)

    private func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }

    func testTheCopyHoldsTheRecordsAsTheyWereBeforeTheWrite() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        var made: [String] = []
        store.backUpBeforeNextWrite(BackupRequest(date: date) { made.append($0) })
        try store.write { tx in try tx.removeObject(for: "Human:1002") }

        XCTAssertEqual(made, ["\(path).backup-\(stamp(date))"])
        XCTAssertEqual(try CacheStore.open(at: made[0]).allKeys(), Fixtures.starwarsKeys)
        XCTAssertFalse(try store.allKeys().contains("Human:1002"))
        XCTAssertEqual(try CacheStore.open(at: made[0]).format, store.format)
    }

    /// A backup keeps the cache's permissions: through a link, those of the
    /// file it names, not the link's own (0777), which would let everyone
    /// read a private cache's copy.
    func testABackupThroughASymbolicLinkKeepsTheFilesPermissions() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        chmod(path, 0o600)
        let link = path + "-link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let store = try CacheStore.open(at: link, access: .readWrite)
        var made: [String] = []
        store.backUpBeforeNextWrite(BackupRequest(date: date) { made.append($0) })
        try store.write { tx in try tx.removeObject(for: "Human:1002") }
        // Beside the file, where moving it back restores the file, not the link.
        XCTAssertEqual(made, ["\(path).backup-\(stamp(date))"])
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: made[0])[.posixPermissions] as? NSNumber).uint16Value
        XCTAssertEqual(mode, 0o600)
    }

    func testOnlyTheNextWriteIsBackedUp() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        var made: [String] = []
        store.backUpBeforeNextWrite(BackupRequest(date: date) { made.append($0) })
        try store.write { tx in try tx.removeObject(for: "Human:1002") }
        try store.write { tx in try tx.removeObject(for: "Human:1000") }
        XCTAssertEqual(made.count, 1)
        XCTAssertEqual(try folder.contents(), ["starwars.sqlite", "starwars.sqlite.backup-\(stamp(date))"])
    }

    func testACancelledRequestMakesNoCopy() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        store.backUpBeforeNextWrite(BackupRequest(date: date) { _ in XCTFail("no copy was asked for") })
        store.backUpBeforeNextWrite(nil)
        try store.write { tx in try tx.removeObject(for: "Human:1002") }
        XCTAssertEqual(try folder.contents(), ["starwars.sqlite"])
    }

    func testAnExistingFileIsNeverOverwritten() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let taken = "\(path).backup-\(stamp(date))"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: taken))
        let store = try CacheStore.open(at: path, access: .readWrite)
        var made: [String] = []
        store.backUpBeforeNextWrite(BackupRequest(date: date) { made.append($0) })
        try store.write { tx in try tx.removeObject(for: "Human:1002") }
        XCTAssertEqual(made, [taken + "-2"])
        XCTAssertEqual(try String(contentsOfFile: taken, encoding: .utf8), "keep me")
        XCTAssertEqual(try CacheStore.open(at: made[0]).allKeys().count, 10)
    }

    func testVacuumIsBackedUpToo() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        var made: [String] = []
        store.backUpBeforeNextWrite(BackupRequest(date: date) { made.append($0) })
        try store.vacuum()
        XCTAssertEqual(made.count, 1)
        XCTAssertEqual(try CacheStore.open(at: made[0]).allKeys(), Fixtures.starwarsKeys)
    }

    /// The app has the WAL file open and has committed a record that is
    /// still only in the -wal file: the copy has it, and nothing of ours.
    func testTheCopyIsConsistentWhileTheAppHoldsAWALFileOpen() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.walCopy(Fixtures.starwars)
        let app = try InteractiveSQLiteShell(path)
        defer { app.finish(with: ".quit\n") }
        app.send("""
            INSERT INTO records (key, record) VALUES ('Human:1003', '{"__typename":"Human","id":"1003"}');
            SELECT 'inserted';

            """)
        XCTAssertTrue(app.read(until: "inserted").contains("inserted"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"))

        let store = try CacheStore.open(at: path, access: .readWrite)
        var made: [String] = []
        store.backUpBeforeNextWrite(BackupRequest(date: date) { made.append($0) })
        try store.write { tx in try tx.removeObject(for: "Human:1002") }

        let copy = try XCTUnwrap(made.first)
        let keys = try CacheStore.open(at: copy).allKeys()
        XCTAssertTrue(keys.contains("Human:1003"), "the app's committed write, still in the -wal file, is in the copy")
        XCTAssertTrue(keys.contains("Human:1002"), "the copy was taken before the removal")
        XCTAssertEqual(keys.count, 11)
        // The app still reads the file, and sees the removal.
        app.send("SELECT count(*) || ' rows' FROM records;\n")
        XCTAssertTrue(app.read(until: " rows").contains("10 rows"))
    }
}
