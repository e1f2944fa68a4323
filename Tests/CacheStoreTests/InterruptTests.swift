import Foundation
import XCTest

@testable import CacheStore

/// Ctrl-C in the REPL reaches the store through ``CacheStore/interrupt()``
/// from another thread: the transaction stops with `.interrupted`, and a
/// write rolls back, whether a statement was running at that moment or the
/// store was working between statements.
final class InterruptTests: XCTestCase {
    /// A cache of `count` records written by the sqlite3 shell in one statement.
    func largeCache(_ folder: TemporaryDirectory, count: Int) throws -> String {
        let path = folder.path("large.sqlite")
        _ = try CacheStore.create(at: path)
        try SQLiteShell.run(path, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO records (key, record) SELECT 'Item:' || i || '.' || hex(randomblob(16)), '{"__typename":"Item"}' FROM n;
            """)
        return path
    }

    func testAnInterruptFromAnotherThreadStopsARunningReadWithInterrupted() throws {
        let folder = try TemporaryDirectory(self)
        let path = try largeCache(folder, count: 100_000)
        let store = try CacheStore.open(at: path, access: .readOnly)
        let interrupter = InterruptFromAnotherThread(store)
        XCTAssertThrowsError(try store.read(progress: interrupter.handler) { tx in
            try tx.countKeys(matching: KeyPattern("Item:", mode: .apollo))
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertTrue(interrupter.interrupted)
        XCTAssertEqual("\(CacheStoreError.interrupted(path: path))", "\(path): interrupted; nothing was changed")
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 100_000, "the next transaction runs")
    }

    func testAnInterruptStopsARegularExpressionInTheMiddleOfOneValue() throws {
        let folder = try TemporaryDirectory(self)
        let path = folder.path("regex.sqlite")
        let store = try CacheStore.create(at: path)
        // (x+x+)+y on 30 x's takes ICU about a minute: it tries every way to split them.
        try store.write { tx in try tx.merge([Record(key: "User:1", fields: ["bio": .string(String(repeating: "x", count: 30))])]) }
        let pattern = try ValuePattern("(x+x+)+y", isRegex: true, ignoringCase: false)
        let started = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { store.interrupt() }
        XCTAssertThrowsError(try store.read { tx in
            try tx.forEachStoredRecord(mayMatch: pattern) { stored in _ = try tx.matches(of: pattern, in: stored) }
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the search stopped soon after the interrupt")
        // Without an interrupt the same search finds what it finds.
        let quick = try ValuePattern("x{3}", isRegex: true, ignoringCase: false)
        XCTAssertEqual(try store.read { tx in
            var found: [String] = []
            try tx.forEachStoredRecord(mayMatch: quick) { stored in found += try tx.matches(of: quick, in: stored).map(\.matched) }
            return found
        }, ["xxx"])
    }

    func testAnInterruptedRemovalRollsBack() throws {
        let folder = try TemporaryDirectory(self)
        let path = try largeCache(folder, count: 100_000)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let interrupter = InterruptFromAnotherThread(store)
        XCTAssertThrowsError(try store.write(progress: interrupter.handler) { tx in
            try tx.removeObjects(matching: KeyPattern("Item:", mode: .apollo))
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertTrue(interrupter.interrupted)
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records"), ["100000"])
    }

    func testAnInterruptedRemovalThatReportsDanglingReferencesRollsBackAndReportsNothing() throws {
        let folder = try TemporaryDirectory(self)
        let path = try largeCache(folder, count: 100_000)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let interrupter = InterruptFromAnotherThread(store)
        var reported = 0
        XCTAssertThrowsError(try store.write(progress: interrupter.handler) { tx in
            try tx.removeObjects(matching: KeyPattern("Item:", mode: .apollo)) { _ in reported += 1 }
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(reported, 0)
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records"), ["100000"])
    }

    // SQLite forgets an interrupt that comes while no statement runs; the store must not.

    func testAWriteInterruptedBetweenStatementsRollsBackInsteadOfCommitting() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        XCTAssertThrowsError(try store.write { tx in
            try tx.removeObject(for: "Human:1002")
            store.interrupt()
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records WHERE key = 'Human:1002'"), ["1"])
        // The interrupt was answered: the next write runs and commits.
        XCTAssertTrue(try store.write { tx in try tx.removeObject(for: "Human:1002") })
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records WHERE key = 'Human:1002'"), ["0"])
    }

    func testAStatementStartedAfterAnInterruptIsRefused() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        var statementsRun = 0
        XCTAssertThrowsError(try store.read { tx in
            _ = try tx.recordCount()
            statementsRun += 1
            store.interrupt()
            _ = try tx.recordCount()
            statementsRun += 1
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(statementsRun, 1)
        // Loops that step statements of their own (a batched removal) ask too.
        XCTAssertThrowsError(try store.write { tx in
            store.interrupt()
            try tx.removeObjects(forKeys: ["Human:1000", "Human:1002"])
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 10)
    }

    func testAReadWhoseWorkIsDoneWhenInterruptedStillReportsInterrupted() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readOnly)
        XCTAssertThrowsError(try store.read { tx in
            let count = try tx.recordCount()
            store.interrupt()
            return count
        }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 10)
    }

    /// A stop that comes once VACUUM has committed (its copy back into
    /// place cannot be interrupted) cannot undo it: vacuum says it came,
    /// the rebuild stands, and counts as a change committed.
    func testAStopAfterVacuumCommittedIsReportedAndTheRebuildStands() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        _ = try store.write { tx in
            try tx.merge((0..<400).map { Record(key: CacheKey("Big:\($0)"), fields: ["text": .string(String(repeating: "x", count: 500))]) })
        }
        try store.write { tx in _ = try tx.removeObjects(matching: KeyPattern("Big:", mode: .prefix)) }
        XCTAssertGreaterThan(try store.read { try $0.pageStatistics() }.freePages, 0)
        let writes = store.committedWriteCount
        store.afterVacuum = { store.interrupt() }
        XCTAssertTrue(try store.vacuum())
        XCTAssertEqual(try store.read { try $0.pageStatistics() }.freePages, 0)
        XCTAssertEqual(store.committedWriteCount, writes + 1)
        store.afterVacuum = nil
        XCTAssertFalse(try store.vacuum(), "the stop was taken")
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 10)
    }

    /// A stop that comes while a write commits, too late to roll it back,
    /// is not forgotten: the write throws that it stopped after the change,
    /// which stands, so that the command ends (a VACUUM after it does not
    /// run); one after a write that changed nothing is a plain interrupt.
    func testAStopWhileAWriteCommitsSaysTheChangeStandsAndStopsWhatFollows() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let writes = store.committedWriteCount
        store.afterCommit = { store.interrupt() }
        XCTAssertThrowsError(try store.write { tx in try tx.removeObject(for: "Human:1002") }) { error in
            XCTAssertEqual(error as? CacheStoreError, .stoppedAfterCommit(path: path))
        }
        XCTAssertEqual("\(CacheStoreError.stoppedAfterCommit(path: path))",
                       "\(path): stopped as the change was being written, too late to undo it: it stands, and its report is left out")
        XCTAssertEqual(store.committedWriteCount, writes + 1)
        XCTAssertThrowsError(try store.write { tx in _ = try tx.removeObjects(matching: KeyPattern("Nope:", mode: .prefix)) }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        store.afterCommit = nil
        XCTAssertFalse(try store.vacuum(), "the stop was taken")
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 9)
    }

    func testAnInterruptWhileNoTransactionRunsStopsTheNextOneUnlessForgotten() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        store.interrupt()
        XCTAssertThrowsError(try store.write { tx in try tx.clear() }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 10)
        XCTAssertThrowsError(try { store.interrupt(); try store.vacuum() }()) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        store.interrupt()
        store.forgetInterrupt()
        XCTAssertEqual(try store.read { tx in try tx.recordCount() }, 10)
    }
}

/// Ctrl-C from another thread while a statement surely runs: the first call
/// of SQLite's progress handler wakes a thread that interrupts the store,
/// and waits until it has.
final class InterruptFromAnotherThread: @unchecked Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var started = false
    private(set) var interrupted = false

    init(_ store: CacheStore) {
        let thread = Thread { [go, done] in
            // A statement too short to call the handler leaves the thread waiting: it gives up.
            guard go.wait(timeout: .now() + 60) == .success else { return }
            store.interrupt()
            done.signal()
        }
        thread.start()
    }

    var handler: ProgressHandler {
        { [self] _ in
            guard !started else { return }
            started = true
            go.signal()
            interrupted = done.wait(timeout: .now() + 60) == .success
        }
    }
}
