import Foundation
internal import GRDB
internal import GRDBSQLite

extension ReadWriteTransaction {
    /// Removes every record whose key matches, as ``removeObjects(matching:)``
    /// does, and reports each reference that a remaining record holds to a
    /// removed one: the references the removal leaves dangling. Returns the
    /// removed keys; `body` is called after the removal, in row order.
    ///
    ///     let gone = try tx.removeObjects(matching: pattern) { report.add($0) }
    ///
    /// The references are found during the DELETE's own pass over the table,
    /// so the table is read once. (Even a prefix pattern reads the whole
    /// table: any record may hold a reference.)
    public func removeObjects(
        matching pattern: KeyPattern, reportingDangling body: (ReferenceLocation) -> Void
    ) throws -> Set<CacheKey> {
        guard !pattern.matchesNothing else { return [] }
        let result = try scanForRemoval(of: pattern, statement: "DELETE FROM records")
        result.dangling.forEach(body)
        return result.gone
    }
}

extension ReadTransaction {
    /// What ``ReadWriteTransaction/removeObjects(matching:reportingDangling:)``
    /// would remove and the references it would leave dangling, without
    /// removing anything, in the same single pass over the table.
    public func keysRemoved(
        byRemovingObjectsMatching pattern: KeyPattern, reportingDangling body: (ReferenceLocation) -> Void
    ) throws -> Set<CacheKey> {
        guard !pattern.matchesNothing else { return [] }
        let result = try scanForRemoval(of: pattern, statement: "SELECT count(*) FROM records")
        result.dangling.forEach(body)
        return result.gone
    }

    /// Runs `statement` (a DELETE or a SELECT over `records`) with a WHERE
    /// clause that selects the pattern's keys, exactly as the pattern's own
    /// condition does, and that shows every row to a ``RemovalScan`` on the
    /// way.
    func scanForRemoval(of pattern: KeyPattern, statement: String) throws -> RemovalScan.Result {
        let db = try database()
        let condition = pattern.sqlCondition()
        let scan = RemovalScan(pattern: pattern)
        let connection = db.sqliteConnection
        let name = "gqlcache_removal_scan"
        // SQLite's own C interface, so that each record is seen where SQLite
        // holds it, without a conversion into Swift values.
        let registered = sqlite3_create_function_v2(
            connection, name, 3, SQLITE_UTF8, Unmanaged.passUnretained(scan).toOpaque(),
            { context, _, arguments in
                let scan = Unmanaged<RemovalScan>.fromOpaque(sqlite3_user_data(context)!).takeUnretainedValue()
                sqlite3_result_int(context, RemovalScan.visit(arguments, scan))
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
        } catch {
            _ = scan.finish()
            throw error
        }
        return scan.finish()
    }
}

extension RemovalScan {
    /// The SQL function's body: hands the row to the scan, answers whether
    /// the condition (the third argument) selected it.
    fileprivate static func visit(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ scan: RemovalScan) -> Int32 {
        guard let arguments, let keyValue = arguments[0], let recordValue = arguments[1], let matched = arguments[2] else { return 0 }
        let removed = sqlite3_value_int(matched) != 0
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
