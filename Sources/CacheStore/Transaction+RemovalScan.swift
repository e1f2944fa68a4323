import Foundation
internal import GRDB
internal import GRDBSQLite

extension ReadWriteTransaction {
    /// Removes every record whose key matches, as ``removeObjects(matching:)``
    /// does, and reports each reference that a remaining record holds to a
    /// removed one: the references the removal leaves dangling. Says how
    /// many records went, and which when `listingKeys`; `body` is called
    /// after the removal, in row order.
    ///
    ///     let removal = try tx.removeObjects(matching: pattern) { report.add($0) }
    ///
    /// The references are found during the DELETE's own pass over the table,
    /// so the table is read once. (Even a prefix pattern reads the whole
    /// table: any record may hold a reference.)
    public func removeObjects(
        matching pattern: KeyPattern, listingKeys: Bool = false, reportingDangling body: (ReferenceLocation) -> Void
    ) throws -> PatternRemoval {
        try beginRemovingObjects(matching: pattern, listingKeys: listingKeys).result(reportingDangling: body)
    }

    /// ``removeObjects(matching:listingKeys:reportingDangling:)`` that
    /// returns as soon as the records are gone, while the references are
    /// still being worked out on another thread: the transaction can commit
    /// meanwhile. The result holds nothing of the transaction.
    ///
    ///     let pending = try store.write { tx in try tx.beginRemovingObjects(matching: pattern) }
    ///     let removal = pending.result { report.add($0) }
    public func beginRemovingObjects(matching pattern: KeyPattern, listingKeys: Bool = false) throws -> PendingPatternRemoval {
        try pendingRemoval(of: pattern, statement: "DELETE FROM records", listingKeys: listingKeys)
    }
}

/// A pattern removal done in the file, whose dangling references another
/// thread may still be finding.
public final class PendingPatternRemoval: @unchecked Sendable {
    private var scan: RemovalScan?
    private var finished: RemovalScan.Result?

    init(_ scan: RemovalScan) { self.scan = scan }

    init(nothingFor listingKeys: Bool) {
        finished = RemovalScan.Result(removal: PatternRemoval(count: 0, keys: listingKeys ? [] : nil), dangling: [])
    }

    deinit { _ = scan?.finish() }

    /// Waits for the references, calls `body` with each, in row order, and
    /// says what went. Later calls give the same answer and report nothing.
    public func result(reportingDangling body: (ReferenceLocation) -> Void) -> PatternRemoval {
        if let scan {
            let result = scan.finish()
            self.scan = nil
            finished = RemovalScan.Result(removal: result.removal, dangling: [])
            result.dangling.forEach(body)
            return result.removal
        }
        return finished!.removal
    }
}

extension ReadTransaction {
    /// What ``ReadWriteTransaction/removeObjects(matching:listingKeys:reportingDangling:)``
    /// would remove and the references it would leave dangling, without
    /// removing anything, in the same single pass over the table.
    public func previewRemovingObjects(
        matching pattern: KeyPattern, listingKeys: Bool = false, reportingDangling body: (ReferenceLocation) -> Void
    ) throws -> PatternRemoval {
        try pendingRemoval(of: pattern, statement: "SELECT count(*) FROM records", listingKeys: listingKeys).result(reportingDangling: body)
    }

    /// The scan of `statement` under way; nothing to scan for a pattern
    /// that matches nothing (Apollo ignores it).
    func pendingRemoval(of pattern: KeyPattern, statement: String, listingKeys: Bool) throws -> PendingPatternRemoval {
        guard !pattern.matchesNothing else { return PendingPatternRemoval(nothingFor: listingKeys) }
        return PendingPatternRemoval(try startRemovalScan(of: pattern, statement: statement, listingKeys: listingKeys))
    }

    /// Runs `statement` (a DELETE or a SELECT over `records`) with a WHERE
    /// clause that selects the pattern's keys, exactly as the pattern's own
    /// condition does, and that shows every row to a ``RemovalScan`` on the
    /// way. Returns the scan, whose thread may still be at work; when the
    /// statement fails, the scan is finished before the error is thrown.
    func startRemovalScan(of pattern: KeyPattern, statement: String, listingKeys: Bool) throws -> RemovalScan {
        let db = try database()
        let condition = pattern.sqlCondition()
        let scan = RemovalScan(pattern: pattern, listsKeys: listingKeys)
        let connection = db.sqliteConnection
        let name = "gqlcache_removal_scan"
        // SQLite's own C interface, so that each record is seen where SQLite
        // holds it, without a conversion into Swift values.
        let registered = sqlite3_create_function_v2(
            connection, name, 3, SQLITE_UTF8, Unmanaged.passUnretained(scan).toOpaque(),
            { context, _, arguments in
                // The scan outlives the statement (withExtendedLifetime
                // below): no retain and release for each of its rows.
                let matched = Unmanaged<RemovalScan>.fromOpaque(sqlite3_user_data(context)!)
                    ._withUnsafeGuaranteedRef { RemovalScan.visit(arguments, $0) }
                sqlite3_result_int(context, matched)
            }, nil, nil, nil)
        defer {
            sqlite3_create_function_v2(connection, name, 3, SQLITE_UTF8, nil, nil, nil, nil, nil)
        }
        guard registered == SQLITE_OK else {
            _ = scan.finish()
            throw DatabaseError(resultCode: ResultCode(rawValue: registered), message: "cannot register \(name)")
        }
        do {
            // The function answers its third argument: the statement selects
            // exactly the rows the condition selects. Rows that go are seen
            // without their record, which SQLite then never reads.
            try withExtendedLifetime(scan) {
                try db.execute(
                    sql: "\(statement) WHERE CASE WHEN \(condition.sql) THEN \(name)(key, NULL, 1) ELSE \(name)(key, record, 0) END",
                    arguments: StatementArguments(condition.arguments))
            }
            // The worker settles its findings while the transaction commits.
            scan.endOfRows()
        } catch {
            _ = scan.finish()
            throw error
        }
        return scan
    }
}

extension RemovalScan {
    /// The SQL function's body: hands the row to the scan, answers whether
    /// the condition (the third argument) selected it.
    fileprivate static func visit(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ scan: RemovalScan) -> Int32 {
        guard let arguments, let keyValue = arguments[0], let recordValue = arguments[1], let matched = arguments[2] else { return 0 }
        let removed = sqlite3_value_int(matched) != 0
        // A row whose key is no text (a BLOB: a stray row, which Apollo never
        // finds) holds no reference that dangles, as for every other removal.
        if !removed && sqlite3_value_type(keyValue) != SQLITE_TEXT { return 0 }
        // sqlite3_value_text before sqlite3_value_bytes, as SQLite asks.
        guard let keyText = sqlite3_value_text(keyValue) else { return 0 }
        let key = UnsafeBufferPointer(start: keyText, count: Int(sqlite3_value_bytes(keyValue)))
        var record: UnsafeBufferPointer<UInt8>?
        if !removed, let recordText = sqlite3_value_text(recordValue) {
            record = UnsafeBufferPointer(start: recordText, count: Int(sqlite3_value_bytes(recordValue)))
        }
        scan.visit(key: key, record: record, removed: removed)
        return removed ? 1 : 0
    }
}
