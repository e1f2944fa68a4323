import Foundation
internal import GRDB

/// An open cache file: the one resource of the store.
///
/// ```swift
/// let store = try CacheStore.open(at: "cache.sqlite")
/// let hero = try store.read { tx in try tx.record(for: "Droid:2001") }
///
/// let writable = try CacheStore.open(at: "cache.sqlite", access: .readWrite)
/// let removed = try writable.write { tx in
///     try tx.removeObjects(matching: KeyPattern("Human:", mode: .apollo))
/// }
/// ```
///
/// A read-only store never creates the file, changes its journal mode or
/// writes anything. A read-write store takes the write lock for the length of
/// one ``write(_:)`` call and, while another process holds it, waits up to the
/// busy timeout before failing with ``CacheStoreError/busy(path:waited:)``.
public final class CacheStore {
    public enum Access: Sendable { case readOnly, readWrite }

    public let path: String
    public let access: Access
    public let format: ApolloIOSSQLiteFormat
    public let busyTimeout: Double
    let queue: DatabaseQueue

    private init(path: String, access: Access, format: ApolloIOSSQLiteFormat, busyTimeout: Double, queue: DatabaseQueue) {
        self.path = path
        self.access = access
        self.format = format
        self.busyTimeout = busyTimeout
        self.queue = queue
    }

    /// Opens an existing cache file, refusing anything that is not one.
    public static func open(at path: String, access: Access = .readOnly, busyTimeout: Double = 5) throws -> CacheStore {
        try FileProbe.checkIsSQLite(path)
        let queue = try StoreErrors.mapping(path: path, waited: busyTimeout) {
            try DatabaseQueue(path: path, configuration: configuration(readonly: access == .readOnly, busyTimeout: busyTimeout))
        }
        let format = try StoreErrors.mapping(path: path, waited: busyTimeout) {
            try queue.read { db in try FormatDetector.detect(in: db, path: path) }
        }
        return CacheStore(path: path, access: access, format: format, busyTimeout: busyTimeout, queue: queue)
    }

    /// Creates a new, empty cache file with Apollo iOS's DDL. Refuses to touch
    /// a file that exists.
    public static func create(at path: String, ddl: ApolloIOSSQLiteFormat.DDL = .current) throws -> CacheStore {
        guard !FileManager.default.fileExists(atPath: path) else { throw CacheStoreError.fileExists(path: path) }
        let format = ApolloIOSSQLiteFormat(ddl: ddl)
        let queue = try StoreErrors.mapping(path: path, waited: 0) {
            let queue = try DatabaseQueue(path: path, configuration: configuration(readonly: false, busyTimeout: 5))
            try queue.write { db in
                for statement in format.createStatements { try db.execute(sql: statement) }
            }
            return queue
        }
        return CacheStore(path: path, access: .readWrite, format: format, busyTimeout: 5, queue: queue)
    }

    private static func configuration(readonly: Bool, busyTimeout: Double) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.busyMode = busyTimeout > 0 ? .timeout(busyTimeout) : .immediateError
        configuration.foreignKeysEnabled = false
        configuration.label = "gqlcache"
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction(RegexCache.sqlFunctionName, argumentCount: 2, pure: true) { values in
                guard let pattern = String.fromDatabaseValue(values[0]),
                    let key = String.fromDatabaseValue(values[1])
                else { return false }
                return RegexCache.shared.matches(pattern: pattern, in: key)
            })
        }
        return configuration
    }

    /// Runs `body` in a read transaction: a consistent snapshot, no writes.
    public func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
        try StoreErrors.mapping(path: path, waited: busyTimeout) {
            try queue.read { db in
                let transaction = ReadTransaction(db: db, path: path)
                defer { transaction.end() }
                return try body(transaction)
            }
        }
    }

    /// Runs `body` in one IMMEDIATE transaction that commits when `body`
    /// returns and rolls back when it throws.
    public func write<T>(_ body: (ReadWriteTransaction) throws -> T) throws -> T {
        guard access == .readWrite else { throw CacheStoreError.readOnly(path: path) }
        return try StoreErrors.mapping(path: path, waited: busyTimeout) {
            var result: T?
            try queue.inTransaction(.immediate) { db in
                let transaction = ReadWriteTransaction(db: db, path: path)
                defer { transaction.end() }
                result = try body(transaction)
                return .commit
            }
            return result!
        }
    }

    /// Rebuilds the file to give free pages back to the file system.
    public func vacuum() throws {
        guard access == .readWrite else { throw CacheStoreError.readOnly(path: path) }
        try StoreErrors.mapping(path: path, waited: busyTimeout) {
            try queue.vacuum()
        }
    }

    /// Sizes of the database and of the journal files beside it.
    public func fileSizes() -> FileSizes { FileSizes(path: path) }
}

/// The bytes a cache occupies on disk.
public struct FileSizes: Equatable, Sendable {
    public let database: Int64
    public let wal: Int64?
    public let shm: Int64?
    public let journal: Int64?

    public var total: Int64 { database + (wal ?? 0) + (shm ?? 0) + (journal ?? 0) }

    init(path: String) {
        func size(_ path: String) -> Int64? {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        }
        database = size(path) ?? 0
        wal = size(path + "-wal")
        shm = size(path + "-shm")
        journal = size(path + "-journal")
    }
}

/// Checks a path before SQLite sees it, so that a missing file is never
/// created and a non-SQLite file is described rather than misread.
enum FileProbe {
    static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    static func checkIsSQLite(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CacheStoreError.fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else { throw CacheStoreError.io(path: path, message: "is a directory") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CacheStoreError.io(path: path, message: "cannot open for reading (permission denied?)")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 512)) ?? Data()
        guard !head.isEmpty else { throw CacheStoreError.notACacheFile(path: path, reason: .empty) }
        guard head.count >= sqliteHeader.count, Array(head.prefix(sqliteHeader.count)) == sqliteHeader else {
            // The first 512 bytes may end inside a multi-byte character: allow a cut of up to 3 bytes.
            let looksLikeText = !head.contains(0)
                && (0...min(3, head.count - 1)).contains { String(data: head.dropLast($0), encoding: .utf8) != nil }
            throw CacheStoreError.notACacheFile(path: path, reason: .notSQLite(looksLikeText: looksLikeText))
        }
    }
}

/// Turns SQLite errors into ``CacheStoreError`` values that name the file.
enum StoreErrors {
    static func mapping<T>(path: String, waited: Double, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw translate(error, path: path, waited: waited)
        }
    }

    static func translate(_ error: DatabaseError, path: String, waited: Double) -> CacheStoreError {
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .busy(path: path, waited: waited)
        case .SQLITE_READONLY where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK:
            return .io(path: path, message: "an interrupted write left a hot -journal file that must be rolled back first, which needs write access (open the file once with the app or sqlite3)")
        case .SQLITE_READONLY:
            return .readOnly(path: path)
        case .SQLITE_NOTADB:
            return .notACacheFile(path: path, reason: .notSQLite(looksLikeText: false))
        case .SQLITE_CORRUPT:
            return .io(path: path, message: "the database file is corrupt (SQLite: \(error.message ?? "malformed"))")
        case .SQLITE_FULL:
            return .io(path: path, message: "the disk is full")
        case .SQLITE_CANTOPEN:
            return .io(path: path, message: "cannot open the database (\(error.message ?? "unable to open"))")
        default:
            return .io(path: path, message: "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")")
        }
    }
}
