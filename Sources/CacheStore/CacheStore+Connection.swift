import Foundation
internal import CSQLiteConfig
internal import GRDB
internal import GRDBSQLite

/// How each connection to a cache file is set up: busy waits, the SQL
/// functions and collation the store's statements call, the page cache.
extension CacheStore {
    static func configuration(readonly: Bool, busyTimeout: Double, interruption: Interruption) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        let busyTimeout = busyTimeout.isNaN ? 0 : min(busyTimeout, maximumBusyTimeout)
        configuration.busyMode = busyTimeout > 0 ? BusyWait(timeout: busyTimeout, interruption: interruption).mode : .immediateError
        configuration.foreignKeysEnabled = false
        configuration.label = "gqlcache"
        configuration.prepareDatabase { db in
            // See close(): nothing is checkpointed on close unless this store changed the file (or tried to).
            if !readonly, let connection = db.sqliteConnection { _ = gqlcache_sqlite3_checkpoint_on_close(connection, 0) }
            // Through SQLite's own API, which hands a key over whole (GRDB's
            // text stops at a NUL in it) and as UTF-8 whatever the file's
            // encoding (a BLOB cast would give a UTF-16 file's bytes).
            if let connection = db.sqliteConnection {
                _ = sqlite3_create_function_v2(
                    connection, RegexCache.sqlFunctionName, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                    { context, _, values in
                        // Bytes that are not UTF-8 (a stray row) match no pattern.
                        guard let values, let pattern = ReadTransaction.utf8Text(values[0]), let key = ReadTransaction.utf8Text(values[1])
                        else { return sqlite3_result_int(context, 0) }
                        switch RegexCache.shared.sqlMatches(pattern: pattern, key: key) {
                        case .success(let matched): sqlite3_result_int(context, matched ? 1 : 0)
                        case .failure(let error): sqlite3_result_error(context, error.description, -1)
                        }
                    }, nil, nil, nil)
                _ = sqlite3_create_function_v2(
                    connection, KeyPattern.sqlFunctionName, 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                    { context, _, values in
                        guard let values, let mode = ReadTransaction.utf8Text(values[0]), let pattern = ReadTransaction.utf8Text(values[1]),
                            let key = ReadTransaction.utf8Text(values[2])
                        else { return sqlite3_result_int(context, 0) }
                        sqlite3_result_int(context, KeyPattern.sqlFunction(mode: mode, pattern: pattern, key: key) ? 1 : 0)
                    }, nil, nil, nil)
                // UTF-8 byte order for the text of a UTF-16 file (see ReadTransaction.orderByKey).
                _ = sqlite3_create_collation_v2(connection, ReadTransaction.utf8OrderCollation, SQLITE_UTF8, nil, { _, count1, bytes1, count2, bytes2 in
                    func bytes(_ pointer: UnsafeRawPointer?, _ count: Int32) -> UnsafeBufferPointer<UInt8> {
                        UnsafeBufferPointer(start: pointer?.assumingMemoryBound(to: UInt8.self), count: Int(count))
                    }
                    return Int32(ReadTransaction.compareBytes(bytes(bytes1, count1), bytes(bytes2, count2)).signum())
                }, nil)
            }
            if let connection = db.sqliteConnection {
                _ = sqlite3_create_function_v2(
                    connection, NestingFunction.sqlName, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                    { context, _, values in
                        guard let values else { return sqlite3_result_int(context, 0) }
                        let type = sqlite3_value_type(values[0])
                        // The length first: most records are far too short to be too deep, and it costs nothing in a UTF-8 file.
                        guard type == SQLITE_TEXT || type == SQLITE_BLOB, sqlite3_value_bytes(values[0]) > 2 * JSONReader.maximumDepth,
                            let start = type == SQLITE_TEXT ? sqlite3_value_text(values[0]).map(UnsafeRawPointer.init) : sqlite3_value_blob(values[0])
                        else { return sqlite3_result_int(context, 0) }
                        let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: Int(sqlite3_value_bytes(values[0])))
                        sqlite3_result_int(context, NestingFunction.isTooDeep(bytes) ? 1 : 0)
                    }, nil, nil, nil)
            }
            db.add(function: DatabaseFunction(TypenameFunction.sqlName, argumentCount: 1, pure: true) { values in
                TypenameFunction.typename(of: values[0])
            })
            if !readonly {
                // A large removal or import changes pages all over the file.
                // With SQLite's default 2 MB page cache it writes changed
                // pages out (syncing the journal first) hundreds of times
                // before its commit; 32 MB spares most of those syncs. The
                // cache only grows as a transaction uses it.
                try db.execute(sql: "PRAGMA cache_size = \(writeCacheSize)")
            }
        }
        return configuration
    }

    /// The page cache of a connection that writes, in SQLite's units
    /// (negative: KiB). Reading connections keep SQLite's default, which
    /// ``ReadTransaction/records(for:)`` raises to
    /// ``ReadTransaction/lookupCacheSize`` for its lookups.
    static let writeCacheSize = -32768
}
