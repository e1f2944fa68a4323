import Foundation
internal import GRDB
internal import GRDBSQLite

/// A consistent view of the cache for the length of ``CacheStore/read(_:)``.
/// It has no member that changes the file, and it stops working once the
/// closure that received it returns.
public class ReadTransaction {
    private let connection: Database
    public let path: String
    private var isActive = true
    private var hasLookupCache = false
    /// Whether a read went on past a damaged page of the file (see
    /// ``recordsReadingAroundDamage(for:)``): SQLite then fails the
    /// transaction's COMMIT as well, which for a read changes nothing.
    private(set) var readAroundDamage = false
    /// The page cache batched lookups get, in SQLite's units (negative: KiB).
    static let lookupCacheSize = -8192

    let interruption: Interruption

    init(db: Database, path: String, interruption: Interruption) {
        self.connection = db
        self.path = path
        self.interruption = interruption
    }

    func end() { isActive = false }

    /// The connection, for the next statement; refused once the
    /// transaction ended or while an interrupt is pending.
    func database() throws -> Database {
        guard isActive else { throw CacheStoreError.transactionEnded }
        try checkInterrupt()
        return connection
    }

    /// Throws ``CacheStoreError/interrupted(path:)`` when ``CacheStore/interrupt()``
    /// was called since the transaction began: SQLite stops only the
    /// statement running at that moment, loops between statements ask here.
    /// A write whose wait for a lock timed out (SQLite then goes on, keeping
    /// in memory the pages it could not write to the file) ends busy here.
    func checkInterrupt() throws {
        if interruption.isPending { throw CacheStoreError.interrupted(path: path) }
        if let waited = interruption.gaveUpWaitingAfter { throw CacheStoreError.busy(path: path, waited: waited) }
    }

    // MARK: Records

    /// The record for `key`, or nil when there is none. Throws
    /// ``CacheStoreError/damagedRecord(key:problem:)`` for a damaged row.
    public func record(for key: CacheKey) throws -> Record? {
        // One cached statement: a typed read looks up thousands of keys one by one.
        let handle = try database().cachedStatement(sql: "SELECT record FROM records WHERE key = ?").sqliteStatement
        return try Self.stepping(handle, binding: [key]) {
            try Self.step(handle) ? try Self.record(key, column: 0, of: handle, fields: nil) : nil
        }
    }

    /// Loads records as Apollo does (`key IN (…)`, 500 keys a batch). Keys
    /// without a record are absent from the result; a damaged row is a failure
    /// for its key only.
    public func records(for keys: [CacheKey]) throws -> [CacheKey: Result<Record, CacheStoreError>] {
        try records(for: keys, decoding: nil)
    }

    /// ``records(for:)`` where a damaged page of the file may stop the
    /// read: then key by key, so that every record SQLite can still read
    /// is found, and `unreadable` holds the keys whose own read meets the
    /// damage, with SQLite's message (`show A B` shows A though B's page
    /// is damaged). Other errors stop the read as they do there.
    public func recordsReadingAroundDamage(
        for keys: [CacheKey]
    ) throws -> (records: [CacheKey: Result<Record, CacheStoreError>], unreadable: [CacheKey: String]) {
        func isDamage(_ error: DatabaseError) -> Bool { error.resultCode == .SQLITE_CORRUPT }
        do {
            return (try records(for: keys), [:])
        } catch let error as DatabaseError where isDamage(error) {
            readAroundDamage = true
            var found: [CacheKey: Result<Record, CacheStoreError>] = [:]
            var unreadable: [CacheKey: String] = [:]
            for key in keys.uniqued() {
                do {
                    if let record = try records(for: [key])[key] { found[key] = record }
                } catch let error as DatabaseError where isDamage(error) {
                    unreadable[key] = error.message ?? "database disk image is malformed"
                }
            }
            return (found, unreadable)
        }
    }

    /// ``records(for:)`` that decodes only `fields` of each record (see
    /// ``Record/init(key:jsonText:fields:)``).
    public func records(for keys: [CacheKey], onlyFields fields: Set<String>) throws -> [CacheKey: Result<Record, CacheStoreError>] {
        try records(for: keys, decoding: fields)
    }

    private func records(for keys: [CacheKey], decoding fields: Set<String>?) throws -> [CacheKey: Result<Record, CacheStoreError>] {
        let db = try database()
        if !hasLookupCache {
            // Records come in key order, which is not their order in the
            // file: with SQLite's default 2 MB page cache, a read of 6,000
            // records fetched the same pages some six times over. 8 MB holds
            // them, and a read's memory stays bounded however large the file.
            // A connection that never looks records up this way (the scans
            // of doctor, stats, gc) keeps the default; one that has keeps 8 MB
            // for its later transactions too. A writing connection's larger
            // cache is left as it is.
            if try pageCacheKiB() < -Self.lookupCacheSize {
                try db.execute(sql: "PRAGMA cache_size = \(Self.lookupCacheSize)")
            }
            hasLookupCache = true
        }
        let filter = fields.map(JSONReader.MemberFilter.init)
        let unique = keys.uniqued()
        var found: [CacheKey: Result<Record, CacheStoreError>] = [:]
        found.reserveCapacity(unique.count)
        // A typed read loads thousands of records: each is decoded where
        // SQLite holds its text, without GRDB's rows or a copy of the text.
        try forEachBatch(of: unique, sql: { "SELECT key, record FROM records WHERE key IN (\($0))" }) { handle in
            while try Self.step(handle) {
                guard let key = Self.key(handle, column: 0) else { continue }
                found[key] = Result { try Self.record(key, column: 1, of: handle, fields: filter) }.mapError { $0 as! CacheStoreError }
            }
        }
        return found
    }

    /// The connection's page cache limit, in KiB.
    func pageCacheKiB() throws -> Int {
        let db = try database()
        let size = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0
        return size < 0 ? -size : size * (try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096) / 1024
    }

    /// Which of `keys` have a record, looked up through the key index.
    public func existingKeys(among keys: [CacheKey]) throws -> Set<CacheKey> {
        var existing: Set<CacheKey> = []
        try forEachBatch(of: keys.uniqued(), sql: { "SELECT key FROM records WHERE key IN (\($0))" }) { handle in
            while try Self.step(handle) {
                if let key = Self.key(handle, column: 0) { existing.insert(key) }
            }
        }
        return existing
    }

    /// True when a record with exactly this key exists.
    public func contains(_ key: CacheKey) throws -> Bool {
        let handle = try database().cachedStatement(sql: "SELECT 1 FROM records WHERE key = ?").sqliteStatement
        return try Self.stepping(handle, binding: [key]) { try Self.step(handle) }
    }

    /// Calls `body` with every record, in `_id` order, one at a time, so
    /// memory does not grow with the file. Damaged rows come as failures;
    /// rows without a text key (keyless, or a BLOB key, which Apollo never
    /// finds) are skipped.
    public func forEachRecord(_ body: (CacheKey, Result<Record, CacheStoreError>) throws -> Void) throws {
        let statement = try database().makeStatement(sql: "SELECT key, record FROM records WHERE typeof(key) = 'text' ORDER BY _id")
        let handle = statement.sqliteStatement
        try Self.stepping(handle, binding: [CacheKey]()) {
            while try Self.step(handle) {
                guard let key = Self.key(handle, column: 0) else { continue }
                try body(key, Result { try Self.record(key, column: 1, of: handle, fields: nil) }.mapError { $0 as! CacheStoreError })
            }
        }
    }

    // MARK: Keys

    /// Calls `body` with each key that matches, in key (byte) order, streaming
    /// (the reverse order with `descending`). `typenames`, when not empty,
    /// keeps only records whose `__typename` is one of those strings.
    public func forEachKey(
        matching pattern: KeyPattern? = nil, typenames: [String] = [], limit: Int? = nil, descending: Bool = false,
        _ body: (CacheKey) throws -> Void
    ) throws {
        let filter = KeyFilter(pattern: pattern, typenames: typenames)
        var sql = "SELECT key FROM records WHERE \(filter.sql) ORDER BY key\(descending ? " DESC" : "")"
        var arguments = filter.arguments
        if let limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        try forEachKey(sql: sql, arguments: arguments, body)
    }

    /// Those of `typenames` that no record has as its `__typename`: a name
    /// mistyped among several that list records, which would otherwise pass
    /// unseen. One pass over the records, and only over those of the types
    /// asked for.
    public func absentTypenames(_ typenames: [String]) throws -> [String] {
        guard !typenames.isEmpty else { return [] }
        let filter = KeyFilter(pattern: nil, typenames: typenames)
        let held = try String.fetchSet(
            try database(), sql: "SELECT DISTINCT \(KeyFilter.typenameExpression) FROM records WHERE \(filter.sql)",
            arguments: filter.arguments)
        var seen = Set<String>()
        return typenames.filter { !held.contains($0) && seen.insert($0).inserted }
    }

    /// Calls `body` with the key in the first column of each row `sql`
    /// gives. Keys are read from SQLite's bytes: a String column value
    /// would stop at a NUL, and a key cut short names another record.
    func forEachKey(sql: String, arguments: StatementArguments, _ body: (CacheKey) throws -> Void) throws {
        let statement = try database().makeStatement(sql: sql)
        try statement.setArguments(arguments)
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        while try Self.step(handle) {
            guard let key = Self.key(handle, column: 0) else { continue }
            try body(key)
        }
    }

    /// The keys in the first column of the rows `sql` gives (``forEachKey(sql:arguments:_:)``).
    func fetchKeys(sql: String, arguments: StatementArguments) throws -> [CacheKey] {
        var keys: [CacheKey] = []
        try forEachKey(sql: sql, arguments: arguments) { keys.append($0) }
        return keys
    }

    /// The number of keys that match, counted by SQLite.
    public func countKeys(matching pattern: KeyPattern? = nil, typenames: [String] = []) throws -> Int {
        let filter = KeyFilter(pattern: pattern, typenames: typenames)
        return try Int.fetchOne(try database(), sql: "SELECT count(*) FROM records WHERE \(filter.sql)", arguments: filter.arguments) ?? 0
    }

    /// How many records whose key matches `pattern` (all, without one) are
    /// damaged so that no `__typename` can be read from them: a selection
    /// by type can say neither yes nor no to them.
    public func countDamagedWithoutTypename(matching pattern: KeyPattern? = nil) throws -> Int {
        let filter = KeyFilter(pattern: pattern, typenames: [])
        return try Int.fetchOne(
            try database(),
            sql: "SELECT count(*) FROM records WHERE \(filter.sql) AND \(KeyFilter.typenameExpression) IS NULL AND \(Self.isDamagedSQL) = 1",
            arguments: filter.arguments) ?? 0
    }

    /// How many keys match, and a digest of them all (FNV-1a over each
    /// key's bytes in key order): equal digests say the same keys match,
    /// so a removal confirmed by a person can see that the app changed
    /// them meanwhile. Reads the matching keys once.
    public func keyDigest(matching pattern: KeyPattern) throws -> KeyDigest {
        var digest = KeyDigest(count: 0, hash: 0xcbf2_9ce4_8422_2325)
        try forEachKey(matching: pattern) { key in
            digest.count += 1
            for byte in key.rawValue.utf8 { digest.hash = (digest.hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            // A separator, so that ["ab", "c"] and ["a", "bc"] differ.
            digest.hash = (digest.hash ^ 0xff) &* 0x100_0000_01b3
        }
        return digest
    }

    /// All matching keys, in key order.
    public func keys(matching pattern: KeyPattern? = nil, typenames: [String] = []) throws -> [CacheKey] {
        var keys: [CacheKey] = []
        try forEachKey(matching: pattern, typenames: typenames) { keys.append($0) }
        return keys
    }

    /// Up to `limit` keys on each side of `key` in key order: where a key
    /// that was mistyped near its end would sort. Uses the key index. (Every
    /// BLOB sorts after every text: none is before `key`.)
    public func keys(around key: CacheKey, limit: Int) throws -> [CacheKey] {
        let before = try fetchKeys(sql: "SELECT key FROM records WHERE key < ? ORDER BY key DESC LIMIT ?", arguments: [key.rawValue, limit])
        let after = try fetchKeys(sql: "SELECT key FROM records WHERE key > ? AND typeof(key) = 'text' ORDER BY key LIMIT ?", arguments: [key.rawValue, limit])
        return before.reversed() + after
    }

    /// The `_id` of the row whose key is the bytes of `key` stored as a
    /// BLOB (no record: Apollo looks keys up by text), or nil.
    public func rowID(ofBlobKey key: CacheKey) throws -> Int64? {
        try Int64.fetchOne(try database(), sql: "SELECT _id FROM records WHERE key = CAST(? AS BLOB)", arguments: [key.rawValue])
    }

    /// Rows whose key is text that is not UTF-8 and reads as `key` with
    /// U+FFFD in place of its bad bytes, as `keys` lists it: no lookup by
    /// text finds them, and Apollo never does. Only a key that holds U+FFFD
    /// can be one, and the row's bytes then go on after the text before
    /// that U+FFFD with a byte of 0x80 or more: the rows are read from the
    /// key index from there on, for as long as they start with that text.
    public func rowsNotUTF8(readingAs key: CacheKey) throws -> [BlobKeyRow] {
        let scalars = key.rawValue.unicodeScalars
        guard let cut = scalars.firstIndex(of: "\u{FFFD}") else { return [] }
        let prefix = String(scalars[..<cut])
        let start = Array(prefix.utf8) + [0x80]
        let wanted = Array(key.rawValue.utf8)
        var found: [BlobKeyRow] = []
        let statement = try database().makeStatement(
            sql: "SELECT _id, key FROM records WHERE key >= ? AND typeof(key) = 'text' ORDER BY key")
        let handle = statement.sqliteStatement
        try Self.stepping(handle, binding: [CacheKey]()) {
            try start.withUnsafeBufferPointer { try Self.bind(utf8: $0, to: handle, at: 1) }
            while try Self.step(handle) {
                guard let bytes = Self.column(handle, 1) else { continue }
                guard bytes.starts(with: prefix.utf8) else { break }
                if !Self.isUTF8(bytes) && String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(wanted) {
                    found.append(BlobKeyRow(rowID: sqlite3_column_int64(handle, 0), bytes: Array(bytes), isBlob: false))
                }
            }
        }
        return found
    }

    /// Keys equal to `key` but for ASCII case.
    public func keys(equalIgnoringCase key: CacheKey) throws -> [CacheKey] {
        try fetchKeys(sql: "SELECT key FROM records WHERE key = ? COLLATE NOCASE ORDER BY key", arguments: [key.rawValue])
    }

    // MARK: Facts about the file

    /// The names `grep --field` takes for the fields the records hold:
    /// each field cache key, and its name without arguments (`height` for
    /// `height(unit:FOOT)`). A full scan: for saying that a name no record
    /// has is mistyped. Damaged records are left out.
    public func fieldNames() throws -> Set<String> {
        let keys = try String.fetchAll(try database(), sql: """
            SELECT DISTINCT member.key FROM records, json_each(CASE WHEN \(Self.isDamagedSQL) = 0 THEN records.record ELSE '{}' END) AS member
            """)
        return Set(keys.flatMap { [$0, String($0.prefix { $0 != "(" })] })
    }

    /// The number of rows in `records`, with a key or not.
    public func recordCount() throws -> Int {
        try Int.fetchOne(try database(), sql: "SELECT count(*) FROM records") ?? 0
    }

    /// The journal mode, as `PRAGMA journal_mode` says (`delete`, `wal`, …).
    /// WAL, the one mode kept in the file, is read from the header, which
    /// also holds when the file was opened as immutable.
    public func journalMode() throws -> String {
        let mode = try String.fetchOne(try database(), sql: "PRAGMA journal_mode") ?? "unknown"
        return mode != "wal" && FileProbe.isWALMode(path) ? "wal" : mode
    }

    /// Whether the file is shorter than its header says (see ``FileCut``),
    /// asked inside the transaction, which keeps commits out meanwhile.
    public func fileCut() throws -> FileCut? {
        _ = try database()
        return FileCut.of(path)
    }

    /// The triggers on `records`, by name (see ``FormatDetector/triggers(in:)``).
    public func triggersOnRecords() throws -> [String] { try FormatDetector.triggers(in: try database()) }

    /// Page size, page count and free pages of the main database.
    public func pageStatistics() throws -> PageStatistics {
        let db = try database()
        return PageStatistics(
            pageSize: try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0,
            pageCount: try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
            freePages: try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
    }

    /// Which of `QUERY_ROOT`, `MUTATION_ROOT`, `SUBSCRIPTION_ROOT` exist.
    public func existingRoots() throws -> [CacheKey] {
        try CacheKey.roots.filter { try contains($0) }
    }

    // CASE, not OR: SQLite does not promise to stop at the first true term, and
    // json_type() fails on text that is not JSON. SQLite's JSON functions read
    // the text only up to a NUL, while the decoder reads every byte: a NUL is
    // damage, as the decoder says. (json_valid accepts half a surrogate
    // pair, \ud800 alone, which the decoder refuses: see
    // ``StoredRecord/holdsSurrogateEscape``.) json_valid also accepts up to
    // 2000 levels of nesting, where Apollo's reader stops at 512.
    static let isDamagedSQL = """
        (CASE WHEN record IS NULL THEN 1 WHEN instr(record, char(0)) > 0 THEN 1 WHEN NOT json_valid(record) THEN 1 \
        WHEN json_type(record) != 'object' THEN 1 WHEN \(NestingFunction.sqlName)(record) THEN 1 ELSE 0 END)
        """
}

/// A record count for one `__typename` (nil: records without one).
public struct TypenameCount: Equatable, Sendable {
    public let typename: String?
    public let count: Int
}

/// The size of one record's JSON text.
public struct RecordSize: Equatable, Sendable {
    public let key: CacheKey
    public let bytes: Int
}

/// Page facts of the main database file.
public struct PageStatistics: Equatable, Sendable {
    public let pageSize: Int
    public let pageCount: Int
    public let freePages: Int
}

/// The keys a pattern matches, as ``ReadTransaction/keyDigest(matching:)`` sums them up.
public struct KeyDigest: Equatable, Sendable {
    public var count: Int
    public var hash: UInt64
}
