internal import GRDB
internal import GRDBSQLite

/// Stepping a prepared statement through SQLite's own API, for the loops
/// over thousands of rows where GRDB's rows and value conversions would
/// cost more than the work itself.
extension ReadTransaction {
    /// Steps `handle`: true at a row, false when done; throws SQLite's error.
    static func step(_ handle: OpaquePointer) throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
    }

    /// Binds `text` to parameter `index` (from 1); SQLite keeps its own copy.
    static func bind(_ text: String, to handle: OpaquePointer, at index: Int32) throws {
        var text = text
        try text.withUTF8 { try bind(utf8: $0, to: handle, at: index) }
    }

    /// Binds `bytes` as TEXT as they are, with no check that they are UTF-8:
    /// a record's bytes that are not are written back as they were read.
    static func bind(utf8 bytes: UnsafeBufferPointer<UInt8>, to handle: OpaquePointer, at index: Int32) throws {
        let code = bytes.isEmpty
            // An empty buffer may have no address, which SQLite would bind as NULL.
            ? sqlite3_bind_text(handle, index, "", 0, transient)
            : bytes.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), transient) }
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
    }

    /// Runs `body` with `values` bound to the statement's parameters, from a
    /// fresh start; resets it and clears the bindings however `body` ends,
    /// so that the cached statement is left as GRDB expects to find it
    /// (GRDB binds its own arguments whenever it runs one).
    static func stepping<T, Value: StatementParameter>(
        _ handle: OpaquePointer, binding values: some Collection<Value>, _ body: () throws -> T
    ) throws -> T {
        sqlite3_reset(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (offset, value) in values.enumerated() {
            try value.bind(to: handle, at: Int32(offset + 1))
        }
        return try body()
    }

    /// Runs the statement `sql` makes of a list of `?`s for each batch of at
    /// most 500 of `values` (keys, as Apollo's loader batches them, or row
    /// ids), with the batch bound; `body` steps it.
    func forEachBatch<Value: StatementParameter>(
        of values: [Value], sql: (_ placeholders: String) -> String, _ body: (OpaquePointer) throws -> Void
    ) throws {
        let db = try database()
        for start in stride(from: 0, to: values.count, by: 500) {
            try checkInterrupt()
            let batch = values[start..<min(start + 500, values.count)]
            let placeholders = Array(repeating: "?", count: batch.count).joined(separator: ",")
            let handle = try db.cachedStatement(sql: sql(placeholders)).sqliteStatement
            try Self.stepping(handle, binding: batch) { try body(handle) }
        }
    }

    /// The key in column `index` of the current row, from its bytes; nil
    /// for NULL.
    static func key(_ handle: OpaquePointer, column index: Int32) -> CacheKey? {
        column(handle, index).map { CacheKey(String(decoding: $0, as: UTF8.self)) }
    }

    /// The record in column `index` of the current row: decoded from the
    /// bytes SQLite holds, so that every way of reading a row (one key, a
    /// batch, every row, the graph's scan) finds the same text, also where a
    /// damaged row holds a NUL or bytes that are not UTF-8.
    static func record(_ key: CacheKey, column index: Int32, of handle: OpaquePointer, fields: JSONReader.MemberFilter?) throws -> Record {
        guard let text = column(handle, index) else { throw CacheStoreError.damagedRecord(key: key, problem: .null) }
        return try Record(key: key, utf8: text, fields: fields)
    }

    /// Whether `bytes` are UTF-8. A key that is not is never found:
    /// Apollo looks keys up by Swift strings, which are UTF-8, and SQLite
    /// compares keys byte by byte. Keys are short and mostly ASCII.
    static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if !bytes.contains(where: { $0 >= 0x80 }) { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// The bytes of a column as SQLite holds them (valid until the next
    /// step), or nil for NULL. A BLOB's bytes are taken as they are, as text.
    static func column(_ handle: OpaquePointer, _ index: Int32) -> UnsafeBufferPointer<UInt8>? {
        let pointer: UnsafeRawPointer?
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: return nil
        case SQLITE_BLOB: pointer = sqlite3_column_blob(handle, index)
        default: pointer = sqlite3_column_text(handle, index).map(UnsafeRawPointer.init)
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer, count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The text of an SQL function's argument as UTF-8, whole (a NUL in it
    /// included) and converted from a UTF-16 file's encoding; nil for
    /// NULL, a number, or bytes that are not UTF-8 (a BLOB's included).
    static func utf8Text(_ value: OpaquePointer?) -> String? {
        let pointer: UnsafeRawPointer?
        switch sqlite3_value_type(value) {
        case SQLITE_TEXT: pointer = sqlite3_value_text(value).map(UnsafeRawPointer.init)
        case SQLITE_BLOB: pointer = sqlite3_value_blob(value)
        default: return nil
        }
        let count = Int(sqlite3_value_bytes(value))
        guard let pointer, count > 0 else { return "" }
        return String(validating: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// SQLITE_TRANSIENT, which the C macro defines as a cast of -1.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// A value bound to a statement's parameter by SQLite's own API.
protocol StatementParameter {
    func bind(to handle: OpaquePointer, at index: Int32) throws
}

extension CacheKey: StatementParameter {
    func bind(to handle: OpaquePointer, at index: Int32) throws {
        try ReadTransaction.bind(rawValue, to: handle, at: index)
    }
}

extension Int64: StatementParameter {
    func bind(to handle: OpaquePointer, at index: Int32) throws {
        let code = sqlite3_bind_int64(handle, index, self)
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
    }
}
