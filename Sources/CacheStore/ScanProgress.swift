import Foundation
internal import GRDB
internal import GRDBSQLite

/// How far the statements of one transaction have got through the records,
/// for a progress indicator. The store only counts; the caller draws.
///
/// ```swift
/// let removed = try store.write(progress: { print("\($0.rowsVisited) of \($0.totalRows)") }) { tx in
///     try tx.removeObjects(matching: pattern)
/// }
/// ```
public struct ScanProgress: Equatable, Sendable {
    /// Rows the transaction's statements have stepped over in full scans so
    /// far (SQLite's `SQLITE_STMTSTATUS_FULLSCAN_STEP`, summed over every
    /// statement): each statement that reads the whole table adds about
    /// ``totalRows``. Lookups through an index add nothing.
    public var rowsVisited: Int
    /// Rows in the records table when the transaction began.
    public var totalRows: Int

    public init(rowsVisited: Int, totalRows: Int) {
        self.rowsVisited = rowsVisited
        self.totalRows = totalRows
    }
}

/// Called on the transaction's own thread while a statement runs, every few
/// thousand SQLite instructions. It must not use the store.
public typealias ProgressHandler = (ScanProgress) -> Void

/// Watches one connection for the length of a transaction through SQLite's
/// progress handler, and sums the full-scan steps of its statements.
final class ScanWatcher {
    /// SQLite virtual machine instructions between two calls.
    static let instructionsPerCall: Int32 = 20_000

    private let connection: OpaquePointer
    private let handler: ProgressHandler
    private let totalRows: Int
    /// The count each statement had at the last call, to notice statements
    /// finalized (or prepared again at the same address) in between.
    private var lastSeen: [OpaquePointer: Int] = [:]
    private var retired = 0

    /// Counts the rows, resets the statements' counters and starts watching.
    init(db: Database, handler: @escaping ProgressHandler) throws {
        guard let connection = db.sqliteConnection else { throw CacheStoreError.transactionEnded }
        self.connection = connection
        self.handler = handler
        self.totalRows = try Int.fetchOne(db, sql: "SELECT count(*) FROM records") ?? 0
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            _ = sqlite3_stmt_status(current, Int32(SQLITE_STMTSTATUS_FULLSCAN_STEP), 1)
            statement = sqlite3_next_stmt(connection, current)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_progress_handler(connection, Self.instructionsPerCall, { context in
            guard let context else { return 0 }
            Unmanaged<ScanWatcher>.fromOpaque(context).takeUnretainedValue().tick()
            return 0
        }, context)
    }

    /// Stops watching; call before the transaction's closure returns.
    func stop() {
        sqlite3_progress_handler(connection, 0, nil, nil)
    }

    private func tick() {
        handler(ScanProgress(rowsVisited: rowsVisited(), totalRows: totalRows))
    }

    private func rowsVisited() -> Int {
        var seen: [OpaquePointer: Int] = [:]
        var statement = sqlite3_next_stmt(connection, nil)
        while let current = statement {
            let count = Int(sqlite3_stmt_status(current, Int32(SQLITE_STMTSTATUS_FULLSCAN_STEP), 0))
            if let last = lastSeen[current], last > count { retired += last }
            seen[current] = count
            statement = sqlite3_next_stmt(connection, current)
        }
        for (statement, count) in lastSeen where seen[statement] == nil { retired += count }
        lastSeen = seen
        return retired + seen.values.reduce(0, +)
    }
}
