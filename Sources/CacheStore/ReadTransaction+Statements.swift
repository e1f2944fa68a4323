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
        let code = text.isEmpty
            // An empty buffer may have no address, which SQLite would bind as NULL.
            ? sqlite3_bind_text(handle, index, "", 0, transient)
            : text.withUTF8 { sqlite3_bind_text(handle, index, $0.baseAddress, Int32($0.count), transient) }
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
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

    /// SQLITE_TRANSIENT, which the C macro defines as a cast of -1.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
