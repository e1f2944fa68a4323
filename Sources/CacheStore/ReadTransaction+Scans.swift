import Foundation
internal import GRDB

extension ReadTransaction {
    /// Calls `body` with every row in key (byte) order, undecoded, through
    /// one cursor on the key index: memory does not grow with the file.
    /// Rows without a key (possible only in a damaged file) are skipped.
    public func forEachStoredRecord(_ body: (StoredRecord) throws -> Void) throws {
        let rows = try Row.fetchCursor(try database(), sql: "SELECT key, record FROM records WHERE key IS NOT NULL ORDER BY key")
        while let row = try rows.next() {
            try body(StoredRecord(key: CacheKey(row[0] as String), text: row[1]))
        }
    }

    /// ``forEachStoredRecord(_:)`` that also says, from SQLite's own JSON
    /// check, whether each row is well formed (a JSON object), so that a
    /// row can be passed on as text without being decoded.
    public func forEachStoredRecordCheckingJSON(_ body: (StoredRecord, _ isWellFormed: Bool) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            try database(),
            sql: "SELECT key, record, \(ReadTransaction.isDamagedSQL) FROM records WHERE key IS NOT NULL ORDER BY key")
        while let row = try rows.next() {
            try body(StoredRecord(key: CacheKey(row[0] as String), text: row[1]), row[2] == 0)
        }
    }

    /// Calls `body` in key order with every row whose text may hold
    /// `text` in a JSON string, number or key, and with every damaged row.
    /// The filter runs in SQLite and never drops a row that holds the text:
    /// a row is skipped only when its JSON is well formed, has no escape
    /// (`\`) that could hide the text, and does not contain it.
    public func forEachStoredRecord(mayContain text: String, _ body: (StoredRecord) throws -> Void) throws {
        let rows = try Row.fetchCursor(
            try database(),
            sql: """
                SELECT key, record FROM records
                WHERE key IS NOT NULL
                  AND (CASE WHEN record IS NULL THEN 1
                            WHEN instr(record, ?) > 0 THEN 1
                            WHEN instr(record, '\\') > 0 THEN 1
                            ELSE \(ReadTransaction.isDamagedSQL) END) = 1
                ORDER BY key
                """,
            arguments: [text])
        while let row = try rows.next() {
            try body(StoredRecord(key: CacheKey(row[0] as String), text: row[1]))
        }
    }
}
