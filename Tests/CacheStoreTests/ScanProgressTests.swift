import CacheStore
import ExampleCaches
import Foundation
import XCTest

/// The progress hook of read and write transactions: the store counts rows
/// scanned and calls back; it never prints.
final class ScanProgressTests: XCTestCase {
    private func blogStore(users: Int, in directory: TemporaryDirectory) throws -> CacheStore {
        let store = try CacheStore.create(at: directory.path("blog.sqlite"))
        try BlogCache(users: users).write(to: store)
        return store
    }

    func testAFullScanInAReadReportsRowsVisitedUpToTheTableSize() throws {
        let directory = try TemporaryDirectory(self)
        let store = try blogStore(users: 2_000, in: directory)
        let total = try store.read { tx in try tx.recordCount() }
        var reports: [ScanProgress] = []
        let census = try store.read(progress: { reports.append($0) }) { tx in try tx.census(largest: 1, damagedKeys: 1) }
        XCTAssertEqual(census.typeCounts.reduce(0) { $0 + $1.count }, total)
        XCTAssertFalse(reports.isEmpty, "a scan of \(total) records calls back")
        XCTAssertTrue(reports.allSatisfy { $0.totalRows == total })
        XCTAssertEqual(reports.map(\.rowsVisited), reports.map(\.rowsVisited).sorted(), "rows visited never go down")
        let last = try XCTUnwrap(reports.last).rowsVisited
        XCTAssertGreaterThan(last, 0)
        XCTAssertLessThanOrEqual(last, total)
    }

    func testAPatternRemovalCountsEveryStatementsScanAndCommits() throws {
        let directory = try TemporaryDirectory(self)
        let store = try blogStore(users: 2_000, in: directory)
        let total = try store.read { tx in try tx.recordCount() }
        var last = ScanProgress(rowsVisited: 0, totalRows: 0)
        let removed = try store.write(progress: { last = $0 }) { tx in
            _ = try tx.countKeys(matching: KeyPattern("Comment:", mode: .apollo))
            return try tx.removeObjects(matching: KeyPattern("Comment:", mode: .apollo))
        }
        XCTAssertEqual(removed, 4_000)
        XCTAssertEqual(last.totalRows, total)
        // Two statements each read the whole key index: more than one table's worth.
        XCTAssertGreaterThan(last.rowsVisited, total)
        XCTAssertEqual(try store.read { tx in try tx.countKeys(matching: KeyPattern("Comment:", mode: .apollo)) }, 0)
    }

    func testWithoutAHandlerNothingIsWatchedAndAfterOneTheNextTransactionIsQuiet() throws {
        let directory = try TemporaryDirectory(self)
        let store = try blogStore(users: 2_000, in: directory)
        var calls = 0
        _ = try store.read(progress: { _ in calls += 1 }) { tx in try tx.census(largest: 1, damagedKeys: 1) }
        let afterFirst = calls
        XCTAssertGreaterThan(afterFirst, 0)
        _ = try store.read { tx in try tx.census(largest: 1, damagedKeys: 1) }
        XCTAssertEqual(calls, afterFirst, "the handler is removed when its transaction ends")
    }
}
