import Foundation
import XCTest

@testable import CacheStore

/// The busy timeout: while someone else holds the write lock, a write waits
/// up to `busyTimeout` and then fails with CacheStoreError.busy.
final class BusyTimeoutTests: XCTestCase {

    /// An sqlite3 shell in another process that holds the write lock
    /// (`BEGIN IMMEDIATE`) until released, as an app writing would.
    final class LockHolder: @unchecked Sendable {
        let shell: InteractiveSQLiteShell

        init(path: String) throws {
            shell = try InteractiveSQLiteShell(path)
            // The shell waits for the lock rather than failing at once, and
            // says when its BEGIN has run; the probe below then checks that
            // the lock is really held, once, so it never competes with it.
            shell.send(".timeout 10000\nBEGIN IMMEDIATE;\nSELECT 'began';\n")
            guard shell.read(until: "began\n").hasSuffix("began\n") else {
                release()
                throw CacheStoreError.io(path: path, message: "the sqlite3 shell ended before it took the write lock")
            }
            let probe = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 0)
            do {
                try probe.write { _ in }
            } catch CacheStoreError.busy {
                return
            }
            release()
            throw CacheStoreError.io(path: path, message: "the sqlite3 shell never took the write lock")
        }

        func release() { shell.finish(with: "ROLLBACK;\n.quit\n") }

        deinit { release() }
    }

    private func elapsed<T>(_ body: () throws -> T) rethrows -> (T, TimeInterval) {
        let start = Date()
        let result = try body()
        return (result, Date().timeIntervalSince(start))
    }

    func testWriteFailsWithBusyAfterTheTimeoutWhileAnotherProcessHoldsTheWriteLock() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let holder = try LockHolder(path: path)
        defer { holder.release() }
        let store = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 0.2)
        XCTAssertEqual(store.busyTimeout, 0.2)
        var ran = false
        let (result, seconds) = elapsed { Result { try store.write { tx in ran = true; try tx.clear() } } }
        XCTAssertThrowsCacheError(try result.get(), .busy(path: path, waited: 0.2))
        XCTAssertFalse(ran, "the closure never runs without the lock")
        XCTAssertGreaterThanOrEqual(seconds, 0.15, "it waited for the timeout")
        XCTAssertLessThan(seconds, 3, "and not much longer")

        holder.release()
        XCTAssertEqual(try store.write { tx in try tx.removeObject(for: "Human:1002") }, true, "the lock is free again")
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records"), ["9"])
    }

    func testZeroBusyTimeoutFailsAtOnce() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let holder = try LockHolder(path: path)
        defer { holder.release() }
        let store = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 0)
        let (result, seconds) = elapsed { Result { try store.write { tx in try tx.clear() } } }
        XCTAssertThrowsCacheError(try result.get(), .busy(path: path, waited: 0))
        // Well short of the 5 s the default would wait, also on a loaded machine.
        XCTAssertLessThan(seconds, 2.5)
    }

    func testReadsAreNotBlockedByAnotherProcessHoldingTheWriteLock() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let holder = try LockHolder(path: path)
        defer { holder.release() }
        let store = try CacheStore.open(at: path, access: .readOnly, busyTimeout: 0.2)
        XCTAssertEqual(try store.read { try $0.recordCount() }, 10)
        XCTAssertEqual(store.format.ddl, .current)
    }

    func testWriteSucceedsWhenTheLockIsReleasedWithinTheTimeout() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let holder = try LockHolder(path: path)
        defer { holder.release() }
        let store = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 10)
        let released = expectation(description: "lock released")
        // When the release began: however late this thread runs, the write
        // cannot have finished before it.
        let releaseStarted = LockedDate()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
            releaseStarted.set(Date())
            holder.release()
            released.fulfill()
        }
        let (removed, seconds) = try elapsed { try store.write { tx in try tx.removeObject(for: "Human:1002") } }
        let finished = Date()
        XCTAssertTrue(removed)
        let releaseTime = try XCTUnwrap(releaseStarted.value, "the write finished before the lock was released")
        XCTAssertGreaterThanOrEqual(finished, releaseTime, "it waited for the other process")
        XCTAssertLessThan(seconds, 9)
        wait(for: [released], timeout: 5)
    }

    func testASecondStoreWritingDuringTheFirstStoresWriteGetsBusy() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let first = try CacheStore.open(at: path, access: .readWrite)
        let second = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 0.2)
        var innerRan = false
        var innerSeconds: TimeInterval = 0
        try first.write { tx in
            try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])])
            let (result, seconds) = elapsed { Result { try second.write { inner in innerRan = true; try inner.clear() } } }
            innerSeconds = seconds
            XCTAssertThrowsCacheError(try result.get(), .busy(path: path, waited: 0.2))
        }
        XCTAssertFalse(innerRan)
        XCTAssertGreaterThanOrEqual(innerSeconds, 0.15)
        XCTAssertLessThan(innerSeconds, 3)
        // The first write committed; the second store works once the lock is free.
        XCTAssertEqual(try second.read { try $0.record(for: "Droid:2001")?["name"] }, .string("Artoo"))
        XCTAssertEqual(try second.write { tx in try tx.recordCount() }, 10)
    }

    /// In WAL mode the checkpoint after a change (clear, VACUUM, the REPL
    /// closing its stores) waits for no reader: a TRUNCATE checkpoint holds
    /// the writer lock while it waits, for the whole busy timeout, and the
    /// app, which sets none, fails every write meanwhile. It copies what it
    /// can, leaves the rest in the -wal file, and frees the lock at once.
    func testACheckpointWhileAnotherConnectionReadsWaitsForNoOne() throws {
        let path = try TemporaryDirectory(self).walCopy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 120)
        let reader = try CacheStore.open(at: path, access: .readOnly)
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Tool:1", text: "{}") }
        try reader.read { tx in
            XCTAssertEqual(try tx.recordCount(), 11)
            let (result, seconds) = elapsed { Result { try store.checkpoint() } }
            XCTAssertNoThrow(try result.get())
            XCTAssertLessThan(seconds, 60, "it waited for the reader")
            XCTAssertNoThrow(try SQLiteShell.run(path, ".timeout 0", "INSERT INTO records(key, record) VALUES ('App:1', '{}');"))
        }
        // The wait is given up for the checkpoint alone: the next write waits as before.
        let waits = Interruption()
        let busy = BusyWait(timeout: 60, interruption: waits)
        waits.withoutWaiting { XCTAssertFalse(busy.shouldTryAgain(after: 0)) }
        XCTAssertTrue(busy.shouldTryAgain(after: 0))
        try reader.close()
        try store.close()
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT count(*) FROM records WHERE key IN ('Tool:1', 'App:1');"), "2\n")
    }

    /// In the default rollback-journal mode, a reader in another process
    /// keeps a commit from finishing: the write must fail as busy after the
    /// timeout and leave nothing of itself behind.
    func testCommitBlockedByAnotherProcessesReadFailsAsBusyAndRollsBack() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let reader = try InteractiveSQLiteShell(path)
        defer { reader.finish(with: "ROLLBACK;\n.quit\n") }
        // A read transaction that stays open: it holds SHARED until ROLLBACK.
        reader.send("BEGIN; SELECT count(*) FROM records;\n")
        XCTAssertEqual(reader.read(until: "\n"), "10\n")

        let store = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 0.2)
        var bodyRan = false
        XCTAssertThrowsCacheError(try store.write { tx in
            bodyRan = true
            return try tx.clear()
        }, .busy(path: path, waited: 0.2))
        XCTAssertTrue(bodyRan, "the write lock itself was free; only the commit waited")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(try store.read { try $0.recordCount() }, 10)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-journal"), "no lock or journal is left behind")
    }

    /// A write larger than its page cache must write pages to the file
    /// before its commit, which a reader in another process forbids: SQLite
    /// then asks for the lock again at every page, waiting the whole busy
    /// timeout each time (a large import took as long as the reader stayed,
    /// whatever --busy-timeout said). After one timeout the write now ends
    /// busy at its next statement, and the store reads as before.
    func testAWriteThatMustSpillPagesWhileAnotherProcessReadsEndsBusyAfterOneTimeout() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let reader = try InteractiveSQLiteShell(path)
        defer { reader.finish(with: "ROLLBACK;\n.quit\n") }
        reader.send("BEGIN; SELECT count(*) FROM records;\n")
        XCTAssertEqual(reader.read(until: "\n"), "10\n")

        let store = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 0.1)
        let batches = 40
        var merged = 0
        XCTAssertThrowsCacheError(try store.write { tx in
            // A page cache of a few pages: the merges spill at once.
            try tx.database().execute(sql: "PRAGMA cache_size = 4")
            for batch in 0..<batches {
                // Each batch asks for the connection, as every statement of a transaction does.
                let db = try tx.database()
                for index in 0..<100 {
                    try db.execute(
                        sql: "INSERT INTO records (key, record) VALUES (?, ?)",
                        arguments: ["Pad:\(batch):\(index)", #"{"pad":""# + String(repeating: "p", count: 200) + #""}"#])
                }
                merged += 1
            }
        }, .busy(path: path, waited: 0.1))
        XCTAssertLessThan(merged, batches, "the write went on through every batch, waiting at each page")
        XCTAssertEqual(try store.read { try $0.recordCount() }, 10)
        reader.send("SELECT count(*) FROM records;\n")
        XCTAssertEqual(reader.read(until: "\n"), "10\n")
    }

    func testBusyErrorSaysHowLongItWaitedAndWhatToDo() {
        let error = CacheStoreError.busy(path: "/tmp/c.sqlite", waited: 0.2)
        XCTAssertTrue(error.description.hasPrefix("/tmp/c.sqlite: "))
        XCTAssertTrue(error.description.contains("0.2s"), error.description)
        XCTAssertTrue(error.description.contains("--busy-timeout"))
        XCTAssertTrue(CacheStoreError.busy(path: "/x", waited: 5).description.contains("waited 5s"))
    }
}

/// A date handed from one thread to another.
final class LockedDate: @unchecked Sendable {
    private let lock = NSLock()
    private var date: Date?
    var value: Date? { lock.withLock { date } }
    func set(_ value: Date) { lock.withLock { date = value } }
}

/// An interrupt (Ctrl-C) stops a wait for another process's lock at once,
/// where SQLite's own interrupt would wait out the whole busy timeout.
final class BusyWaitInterruptTests: XCTestCase {
    func testAnInterruptStopsAWriteWaitingForTheLockAndNothingChanges() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let holder = try BusyTimeoutTests.LockHolder(path: path)
        defer { holder.release() }
        let store = try CacheStore.open(at: path, access: .readWrite, busyTimeout: 60)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { store.interrupt() }
        let start = Date()
        var ran = false
        XCTAssertThrowsCacheError(try store.write { tx in ran = true; try tx.clear() }, .interrupted(path: path))
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "the wait ended at the interrupt")
        XCTAssertFalse(ran)
        holder.release()
        XCTAssertEqual(try store.write { tx in try tx.recordCount() }, 10, "the next write starts afresh")
    }
}
