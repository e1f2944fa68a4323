import Foundation
import XCTest

@testable import CacheStore

/// Ctrl-C in the REPL reaches a running statement through
/// ``CacheStore/interrupt()``: it stops with `.interrupted`, and a write
/// transaction rolls back.
final class InterruptTests: XCTestCase {
    /// A cache of `count` records written by the sqlite3 shell in one statement.
    func largeCache(_ folder: TemporaryDirectory, count: Int) throws -> String {
        let path = folder.path("large.sqlite")
        let store = try CacheStore.create(at: path)
        _ = store
        try SQLiteShell.run(path, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO records (key, record) SELECT 'Item:' || i || '.' || hex(randomblob(16)), '{"__typename":"Item"}' FROM n;
            """)
        return path
    }

    func testInterruptStopsARunningReadWithInterrupted() throws {
        let folder = try TemporaryDirectory(self)
        let path = try largeCache(folder, count: 400_000)
        let store = try CacheStore.open(at: path, access: .readOnly)
        // A regex that must be tried at every position of every key takes long enough to interrupt.
        let pattern = try KeyPattern("(.*[A-F]){9}Z", mode: .regex)
        let interrupter = Thread { Thread.sleep(forTimeInterval: 0.2); store.interrupt() }
        let started = Date()
        interrupter.start()
        XCTAssertThrowsError(try store.read { tx in try tx.countKeys(matching: pattern) }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        XCTAssertEqual("\(CacheStoreError.interrupted(path: path))", "\(path): interrupted; nothing was changed")
    }

    func testAnInterruptedRemovalRollsBack() throws {
        let folder = try TemporaryDirectory(self)
        let path = try largeCache(folder, count: 400_000)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let pattern = try KeyPattern("(.*[A-F]){9}Z", mode: .regex)
        let interrupter = Thread { Thread.sleep(forTimeInterval: 0.2); store.interrupt() }
        interrupter.start()
        XCTAssertThrowsError(try store.write { tx in try tx.removeObjects(matching: pattern) }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 400_000)
    }

    func testAnInterruptedRemovalThatReportsDanglingReferencesRollsBackAndReportsNothing() throws {
        let folder = try TemporaryDirectory(self)
        let path = try largeCache(folder, count: 400_000)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let pattern = try KeyPattern("(.*[A-F]){9}Z", mode: .regex)
        let interrupter = Thread { Thread.sleep(forTimeInterval: 0.2); store.interrupt() }
        interrupter.start()
        var reported = 0
        XCTAssertThrowsError(try store.write { tx in try tx.removeObjects(matching: pattern) { _ in reported += 1 } }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(reported, 0)
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 400_000)
    }
}
