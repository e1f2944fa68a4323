import Foundation
internal import GRDB
internal import GRDBSQLite

extension ReadTransaction {
    /// Reads the whole table once, in row order, and returns its
    /// ``CacheGraph``: keys, sizes, typenames, damaged rows and references.
    /// Each record's text is walked where SQLite holds it, for its
    /// references and `__typename`, and never decoded or kept.
    public func graph() throws -> CacheGraph {
        let db = try database()
        // The largest _id bounds the row count, from the end of the table's b-tree.
        let capacity = min(try Int.fetchOne(db, sql: "SELECT max(_id) FROM records") ?? 0, 50_000_000)
        // The key table is filled on a second thread while this one reads
        // and scans the records (GraphBuilder).
        let builder = GraphBuilder(capacity: capacity + capacity / 8)
        // The one loop over a million rows steps SQLite's statement itself:
        // GRDB's cursor and rows would wrap each column in a Data value.
        let statement = try db.makeStatement(sql: "SELECT _id, key, record FROM records")
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        // Not captured by a local function: closures that capture a variable
        // such a function also captures check each access at run time.
        var batch = ScanBatch()
        do {
            while try Self.step(handle) {
                guard let key = Self.column(handle, 1) else {
                    Self.handOver(&batch, to: builder)
                    builder.send(.keylessRow(id: sqlite3_column_int64(handle, 0)))
                    continue
                }
                guard let text = Self.column(handle, 2) else {
                    Self.handOver(&batch, to: builder)
                    builder.send(.nullRecord(key: Array(key)))
                    continue
                }
                batch.beginRow()
                let isObject = ReferenceScanner.scan(
                    inUTF8: text,
                    references: { field, target in
                        Self.withUnescaped(text, field) { field in
                            Self.withUnescaped(text, target) { target in batch.addReference(field: field, target: target) }
                        }
                    },
                    typename: { range in Self.withUnescaped(text, range) { batch.setTypename($0) } })
                if isObject {
                    batch.endRow(key: key, size: text.count)
                    if batch.isFull { Self.handOver(&batch, to: builder) }
                    continue
                }
                // The scanner refused the text: decode it to say why, or, where the
                // decoder is more lenient than the scanner, to read it after all.
                batch.dropRow()
                Self.handOver(&batch, to: builder)
                builder.send(.decode(key: Array(key), text: Array(text)))
            }
        } catch {
            _ = builder.finish()
            throw error
        }
        Self.handOver(&batch, to: builder)
        return builder.finish()
    }

    /// Sends the batch's rows to the builder, when it has any, and starts a new one.
    private static func handOver(_ batch: inout ScanBatch, to builder: GraphBuilder) {
        guard !batch.isEmpty else { return }
        builder.send(.batch(batch))
        batch = ScanBatch()
    }

    /// Calls `body` with the bytes of a JSON string's contents, unescaped
    /// when they hold an escape (rare in keys and field names).
    private static func withUnescaped<T>(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T {
        let slice = UnsafeBufferPointer(rebasing: text[range])
        guard slice.contains(UInt8(ascii: "\\")) else { return body(slice) }
        var decoded = ReferenceScanner.decodeString(text, range)
        return decoded.withUTF8(body)
    }

    /// SQLite's own check of the file: `PRAGMA quick_check`, or the slower
    /// `integrity_check` that also compares every index with its table.
    /// Returns the problems SQLite lists; empty when it says `ok`.
    public func sqliteIntegrityCheck(full: Bool) throws -> [String] {
        let lines = try String.fetchAll(try database(), sql: full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
        return lines == ["ok"] ? [] : lines
    }
}
