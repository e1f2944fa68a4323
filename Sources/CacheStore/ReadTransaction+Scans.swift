import Foundation
internal import GRDB
internal import GRDBSQLite

extension ReadTransaction {
    /// Calls `body` with every row in key (byte) order, undecoded, through
    /// one cursor on the key index: memory does not grow with the file.
    /// Rows without a text key (keyless, or a BLOB key, which Apollo never
    /// finds; possible only in a file other code wrote) are skipped.
    public func forEachStoredRecord(_ body: (StoredRecord) throws -> Void) throws {
        try forEachStoredRow(sql: "SELECT key, record FROM records WHERE typeof(key) = 'text' \(try orderByKey())") { stored, _ in try body(stored) }
    }

    /// How many rows the scans above skip: a NULL or BLOB key (the column's
    /// TEXT affinity makes any number text). Two ranges of the key index,
    /// not a scan.
    public func rowsWithoutTextKeyCount() throws -> Int {
        try Int.fetchOne(try database(), sql: "SELECT count(*) FROM records WHERE key IS NULL OR key >= X''") ?? 0
    }

    /// ``forEachStoredRecord(_:)`` that also says, from SQLite's own JSON
    /// check, whether each row is surely well formed (a JSON object), so
    /// that a row can be passed on as text without being decoded; a row
    /// that is not may still decode. And whether the row's bytes are
    /// UTF-8: where they are not, the text holds U+FFFD in place of the
    /// bad bytes, as Apollo's reading of the row (a Swift string) does.
    /// Rows whose key is text that is not UTF-8 (Apollo never finds them,
    /// and their key could not be written out as it is) are skipped, and
    /// counted in the number returned.
    @discardableResult
    public func forEachStoredRecordCheckingJSON(_ body: (StoredRecord, _ isWellFormed: Bool, _ isUTF8: Bool) throws -> Void) throws -> Int {
        var skipped = 0
        try forEachStoredRow(sql: "SELECT key, record, \(ReadTransaction.isDamagedSQL) FROM records WHERE typeof(key) = 'text' \(try orderByKey())") {
            stored, handle in
            guard Self.column(handle, 0).map(Self.isUTF8) ?? true else { return skipped += 1 }
            let isUTF8 = Self.column(handle, 1).map(Self.isUTF8) ?? true
            try body(stored, sqlite3_column_int64(handle, 2) == 0 && !stored.holdsSurrogateEscape, isUTF8)
        }
        return skipped
    }

    /// Calls `body` in key order with every row whose text may hold
    /// `text` in a JSON string, number or key, and with every damaged row.
    /// The filter runs in SQLite and never drops a row that holds the text:
    /// a row is skipped only when its JSON is well formed, has no escape
    /// (`\`) that could hide the text, and does not contain it. A text
    /// holding U+FFFD skips no row: bytes that are not UTF-8 read as that,
    /// as Apollo reads them, and SQLite's `instr` looks at the bytes.
    public func forEachStoredRecord(mayContain text: String, _ body: (StoredRecord) throws -> Void) throws {
        try forEachStoredRow(
            sql: """
                SELECT key, record FROM records
                WHERE typeof(key) = 'text'
                  AND (CASE WHEN record IS NULL THEN 1
                            WHEN instr(record, ?1) > 0 THEN 1
                            WHEN instr(record, '\\') > 0 THEN 1
                            ELSE \(ReadTransaction.isDamagedSQL) END) = 1
                \(try orderByKey())
                """,
            // instr finds the empty text in every row.
            binding: text.unicodeScalars.contains("\u{FFFD}") ? "" : text
        ) { stored, _ in try body(stored) }
    }

    /// The name of the collation that orders text by its UTF-8 bytes,
    /// whatever the file's encoding.
    static let utf8OrderCollation = "gqlcache_utf8_order"

    /// `ORDER BY key` in UTF-8 byte order, the order of Apollo's keys and
    /// of every scan's order check. SQLite orders a UTF-16 file's text by
    /// its UTF-16 bytes, in which `ā` comes before `é`; there the order is
    /// had through a collation (a sort, as the key index cannot give it).
    func orderByKey() throws -> String {
        let encoding = try String.fetchOne(try database(), sql: "PRAGMA encoding") ?? "UTF-8"
        return encoding == "UTF-8" ? "ORDER BY key" : "ORDER BY key COLLATE \(Self.utf8OrderCollation)"
    }

    /// Steps `sql` (key, record, …) and hands each row over as a
    /// ``StoredRecord`` whose text holds every byte SQLite holds, NUL
    /// included, so that its decoding agrees with every other read.
    private func forEachStoredRow(
        sql: String, binding text: String? = nil, _ body: (StoredRecord, OpaquePointer) throws -> Void
    ) throws {
        let statement = try database().makeStatement(sql: sql)
        let handle = statement.sqliteStatement
        var order = KeyOrderCheck(path: path)
        try Self.stepping(handle, binding: [CacheKey]()) {
            if let text { try Self.bind(text, to: handle, at: 1) }
            while try Self.step(handle) {
                guard let bytes = Self.column(handle, 0) else { continue }
                try order.check(bytes)
                let key = CacheKey(String(decoding: bytes, as: UTF8.self))
                let record = Self.column(handle, 1).map { String(decoding: $0, as: UTF8.self) }
                try body(StoredRecord(key: key, text: record), handle)
            }
        }
    }
}

/// Checks that a scan in key order (through the key index) meets each key
/// above the one before, as an index that is sound gives them. A damaged
/// index can give a key that is not the row's, out of order; a scan that
/// went on would hand out wrong keys (export) or invent differences (diff).
struct KeyOrderCheck {
    let path: String
    private var previous: [UInt8] = []
    private var started = false

    init(path: String) { self.path = path }

    mutating func check(_ key: UnsafeBufferPointer<UInt8>) throws {
        if started && !previous.lexicographicallyPrecedes(key) {
            throw CacheStoreError.keyIndexOutOfOrder(
                path: path, previous: CacheKey(String(decoding: previous, as: UTF8.self)), next: CacheKey(String(decoding: key, as: UTF8.self)))
        }
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: key)
        started = true
    }
}
