import Foundation
import XCTest

@testable import CacheStore

/// CacheStore.read/write, ReadTransaction and ReadWriteTransaction: commit,
/// rollback, use after the closure, access mode, and creating files.
final class TransactionTests: XCTestCase {

    private struct Abort: Error, Equatable {}

    func testWriteCommitsWhenTheClosureReturns() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in
            try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])])
            XCTAssertTrue(try tx.removeObject(for: "Human:1002"))
        }
        // Seen by another process straight away.
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT json_extract(record, '$.name') FROM records WHERE key = 'Droid:2001'"), ["Artoo"])
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records"), ["9"])
        // And by a second store.
        let other = try CacheStore.open(at: path)
        XCTAssertEqual(try other.read { try $0.record(for: "Droid:2001")?["name"] }, .string("Artoo"))
        XCTAssertFalse(try other.read { try $0.contains("Human:1002") })
    }

    func testAStoreSaysWhetherAWriteCommittedAChange() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in _ = try tx.recordCount() }
        XCTAssertFalse(store.hasCommittedChanges, "a write that changed no row")
        XCTAssertThrowsError(try store.write { tx in
            _ = try tx.removeObject(for: "Human:1002")
            throw Abort()
        })
        XCTAssertFalse(store.hasCommittedChanges, "a write that rolled back")
        try store.write { tx in _ = try tx.removeObject(for: "Human:1002") }
        XCTAssertTrue(store.hasCommittedChanges)
    }

    func testWriteReturnsTheClosureResult() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        XCTAssertEqual(try store.write { tx in try tx.recordCount() * 2 }, 20)
        XCTAssertEqual(try store.read { tx in try tx.keys().count }, 10)
    }

    func testWriteRollsBackEverythingWhenTheClosureThrows() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try CacheStore.open(at: path, access: .readWrite)
        XCTAssertThrowsError(try store.write { tx in
            XCTAssertTrue(try tx.removeObject(for: "Human:1000"))
            try tx.merge([Record(key: "New:1", fields: ["a": .int(1)])])
            XCTAssertFalse(try tx.contains("Human:1000"), "removed inside the transaction")
            throw Abort()
        }) { error in
            XCTAssertEqual(error as? Abort, Abort(), "the closure's own error comes out unchanged")
        }
        XCTAssertTrue(try store.read { try $0.contains("Human:1000") })
        XCTAssertFalse(try store.read { try $0.contains("New:1") })
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records WHERE key IN ('Human:1000', 'New:1')"), ["1"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before, "a rolled-back write leaves the file as it was")
    }

    func testUsingAReadTransactionAfterItsClosureReturnedThrowsTransactionEnded() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        let escaped = try store.read { tx in tx }
        XCTAssertThrowsCacheError(try escaped.record(for: "Droid:2001"), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.records(for: ["Droid:2001"]), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.keys(), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.countKeys(), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.recordCount(), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.contains("Droid:2001"), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.census(largest: 1, damagedKeys: 1), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.references(to: ["Droid:2001"]), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.forEachRecord { _, _ in XCTFail("must not be called") }, .transactionEnded)
    }

    func testUsingAWriteTransactionAfterItsClosureReturnedThrowsTransactionEnded() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let escaped = try store.write { tx in tx }
        XCTAssertThrowsCacheError(try escaped.merge([Record(key: "Droid:2001", fields: ["name": .string("x")])]), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.removeObject(for: "Droid:2001"), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.removeObjects(matching: KeyPattern("%", mode: .apollo)), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.clear(), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.unsafeWriteRawRecord(key: "X", text: "{}"), .transactionEnded)
        XCTAssertThrowsCacheError(try escaped.record(for: "Droid:2001"), .transactionEnded)
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records"), ["10"])
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT json_extract(record, '$.name') FROM records WHERE key = 'Droid:2001'"), ["R2-D2"])
    }

    func testATransactionThatEscapedAFailedWriteIsAlsoEnded() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        var escaped: ReadWriteTransaction?
        XCTAssertThrowsError(try store.write { tx -> Void in
            escaped = tx
            throw Abort()
        })
        XCTAssertThrowsCacheError(try XCTUnwrap(escaped).clear(), .transactionEnded)
        XCTAssertEqual(try store.read { try $0.recordCount() }, 10)
    }

    func testWriteOnAReadOnlyStoreThrowsReadOnlyAndChangesNothing() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try CacheStore.open(at: path, access: .readOnly)
        XCTAssertEqual(store.access, .readOnly)
        var ran = false
        XCTAssertThrowsCacheError(try store.write { tx in ran = true; try tx.clear() }, .readOnly(path: path))
        XCTAssertFalse(ran, "the closure is never called")
        XCTAssertThrowsCacheError(try store.vacuum(), .readOnly(path: path))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testOpenDefaultsToReadOnly() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        XCTAssertEqual(store.access, .readOnly)
        XCTAssertThrowsError(try store.write { _ in })
    }

    // MARK: create(at:)

    func testCreateWritesApollosCurrentDDLAndAnEmptyTable() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("new.sqlite")
        let store = try CacheStore.create(at: path)
        XCTAssertEqual(store.format, ApolloIOSSQLiteFormat(ddl: .current))
        XCTAssertEqual(store.access, .readWrite)
        XCTAssertEqual(try store.read { try $0.recordCount() }, 0)
        // Same schema text as the file Apollo 2.4 wrote.
        XCTAssertEqual(try SQLiteShell.run(path, ".schema"), try SQLiteShell.runReadOnly(Fixtures.starwars.path, ".schema"))
        XCTAssertEqual(try CacheStore.open(at: path).format.ddl, .current)
    }

    func testCreateWithLegacyDDLWritesTheSQLiteSwiftSchema() throws {
        let path = try TemporaryDirectory(self).path("legacy.sqlite")
        let store = try CacheStore.create(at: path, ddl: .legacy)
        XCTAssertEqual(store.format.ddl, .legacy)
        XCTAssertEqual(try SQLiteShell.run(path, ".schema"), try SQLiteShell.runReadOnly(Fixtures.legacy.path, ".schema"))
        XCTAssertEqual(try CacheStore.open(at: path).format.ddl, .legacy)
    }

    func testCreateRefusesAnExistingFileAndLeavesItAlone() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsCacheError(try CacheStore.create(at: path), .fileExists(path: path))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testVacuumKeepsTheRecordsAndGivesBackFreePages() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("blog.sqlite")
        let store = try CacheStore.create(at: path)
        _ = try store.write { tx in
            try tx.merge((0..<400).map { Record(key: CacheKey("Big:\($0)"), fields: ["text": .string(String(repeating: "x", count: 500))]) })
        }
        try store.write { tx in _ = try tx.removeObjects(matching: KeyPattern("Big:", mode: .prefix)) }
        _ = try store.write { tx in try tx.merge([Record(key: "Small:1", fields: ["a": .int(1)])]) }
        let before = try store.read { try $0.pageStatistics() }
        XCTAssertGreaterThan(before.freePages, 0)
        try store.vacuum()
        let after = try store.read { try $0.pageStatistics() }
        XCTAssertEqual(after.freePages, 0)
        XCTAssertLessThan(after.pageCount, before.pageCount)
        XCTAssertEqual(try store.allKeys(), ["Small:1"])
    }
}
