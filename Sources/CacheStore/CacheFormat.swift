internal import GRDB
internal import GRDBSQLite

/// A kind of cache file the store can open. Each format is one type, found by
/// ``FormatDetector`` from what the file holds, never assumed.
public protocol CacheFileFormat: Sendable {
    /// A stable identifier for scripts, e.g. `apollo-ios-sqlite`.
    var identifier: String { get }
    /// The schema variant, e.g. `current` or `legacy`.
    var variant: String { get }
    /// One line for people.
    var summary: String { get }
}

/// Apollo iOS's `SQLiteNormalizedCache` file: one `records` table of
/// `(_id, key, record)`, in either of its two DDL variants. Both are read and
/// written as they are; the schema is never rewritten.
public struct ApolloIOSSQLiteFormat: CacheFileFormat, Equatable {
    public enum DDL: String, Sendable {
        /// Apollo iOS 1.21 and later, all of 2.x.
        case current
        /// Apollo iOS 0.x up to 1.20 (SQLite.swift): NOT NULL columns and
        /// the extra unique index `index_records_on_key`.
        case legacy
    }

    public let ddl: DDL

    public init(ddl: DDL) { self.ddl = ddl }

    public var identifier: String { "apollo-ios-sqlite" }
    public var variant: String { ddl.rawValue }
    public var summary: String {
        switch ddl {
        case .current: return "Apollo iOS SQLite cache (current DDL: Apollo iOS 1.21+ and 2.x)"
        case .legacy: return "Apollo iOS SQLite cache (legacy DDL: Apollo iOS 0.x to 1.20, SQLite.swift)"
        }
    }

    /// The DDL Apollo iOS runs to create a file of this variant.
    var createStatements: [String] {
        switch ddl {
        case .current:
            return [
                """
                CREATE TABLE IF NOT EXISTS "records" (
                  "_id"  INTEGER,
                  "key"  TEXT UNIQUE,
                  "record"  TEXT,
                  PRIMARY KEY("_id" AUTOINCREMENT)
                )
                """
            ]
        case .legacy:
            return [
                """
                CREATE TABLE IF NOT EXISTS "records" ("_id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, \
                "key" TEXT NOT NULL UNIQUE, "record" TEXT NOT NULL)
                """,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "index_records_on_key" ON "records" ("key")"#,
            ]
        }
    }
}

/// Finds the format of an open SQLite file from its schema.
enum FormatDetector {
    static func detect(in db: Database, path: String) throws -> ApolloIOSSQLiteFormat {
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        func refuse(_ reason: CacheStoreError.NotACacheReason) -> CacheStoreError {
            .notACacheFile(path: path, reason: reason)
        }
        guard !tables.isEmpty else { throw refuse(.noTables) }
        // SQLite folds the case of ASCII letters in names, so Apollo's SQL
        // (`FROM records`, `key`) finds a table "Records" or a column "KEY".
        guard tables.contains(where: { asciiLowercased($0) == "records" }) else { throw refuse(.noRecordsTable(tables: tables)) }

        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(records)")
        let declaredNames: [String] = columns.map { $0["name"] }
        let names = declaredNames.map(asciiLowercased)
        if tables.contains(where: { asciiLowercased($0) == "schema_metadata" }) || (names.contains("cache_key") && names.contains("field_name")) {
            throw refuse(.apollo3PerFieldLayout)
        }
        guard Set(names) == ["_id", "key", "record"], names.count == 3 else {
            throw refuse(.unexpectedColumns(declaredNames))
        }
        // Both DDL variants make _id the table's row id (INTEGER PRIMARY KEY);
        // passes over the table go in _id order and take rows out of it as
        // damage. A WITHOUT ROWID table, or a primary key of another type,
        // has an index for its key (origin 'pk'); a rowid alias has none.
        let idIsRowID = columns.contains { asciiLowercased($0["name"]) == "_id" && $0["pk"] == 1 && ($0["type"] as String?)?.uppercased() == "INTEGER" }
            && columns.filter { ($0["pk"] as Int?) ?? 0 > 0 }.count == 1
        let indexes = try Row.fetchAll(db, sql: "PRAGMA index_list(records)")
        guard idIsRowID, !indexes.contains(where: { $0["origin"] == "pk" }) else { throw refuse(.idNotRowID) }
        // A key column of numeric affinity would store a key written
        // '0099' or '1e3' as the number 99 or 1000.0: keys would change as
        // they are written, and no longer be text to list. (A record is a
        // JSON object, which no affinity turns into a number.)
        for column in columns {
            let name: String = column["name"], type: String = column["type"] ?? ""
            if asciiLowercased(name) == "key", Self.hasNumericAffinity(type) {
                throw refuse(.numericColumn(column: name, type: type))
            }
        }
        // Apollo's writes (INSERT OR REPLACE, ON CONFLICT(key)) and its
        // removals rely on one row per key; both DDL variants keep it. A
        // partial index (CREATE UNIQUE INDEX … WHERE) keeps only some.
        let uniqueIndexes: [String] = indexes.filter { $0["unique"] == 1 && $0["partial"] != 1 }.map { $0["name"] }
        var keyCollations: [String] = []
        for index in uniqueIndexes {
            let keyColumns = try Row.fetchAll(db, sql: "SELECT name, coll FROM pragma_index_xinfo(?) WHERE key = 1", arguments: [index])
            if keyColumns.count == 1, (keyColumns[0]["name"] as String?).map(asciiLowercased) == "key" { keyCollations.append(keyColumns[0]["coll"] ?? "BINARY") }
        }
        guard !keyCollations.isEmpty else { throw refuse(.keyNotUnique) }
        // Apollo's keys are told apart byte by byte: a column or index that
        // compares them otherwise (COLLATE NOCASE) makes 'a' and 'A' one
        // key, and a write to one would replace the other's record.
        let columnCollation = Self.declaredCollation(of: "key", in: db) ?? "BINARY"
        for collation in [columnCollation] + keyCollations where collation.uppercased() != "BINARY" {
            throw refuse(.keyCollation(collation))
        }
        let keyIsNotNull = columns.contains { asciiLowercased($0["name"]) == "key" && $0["notnull"] == 1 }
        let hasLegacyIndex = try Bool.fetchOne(
            db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'index' AND name = 'index_records_on_key' COLLATE NOCASE") ?? false
        return ApolloIOSSQLiteFormat(ddl: (keyIsNotNull || hasLegacyIndex) ? .legacy : .current)
    }

    /// The triggers on `records`, which Apollo's DDL never creates: a
    /// write would run them, changing records it was not asked to, so a
    /// store that may write refuses the file; reads never run them.
    static func triggers(in db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'records' COLLATE NOCASE ORDER BY name")
    }

    /// Whether SQLite gives a column declared `type` an affinity that turns
    /// number-like text into numbers (INTEGER, REAL or NUMERIC), by its
    /// rules: INT anywhere is INTEGER; then CHAR, CLOB or TEXT is TEXT;
    /// BLOB or no type at all keeps values as given; anything else converts.
    static func hasNumericAffinity(_ type: String) -> Bool {
        let type = type.uppercased()
        if type.contains("INT") { return true }
        if ["CHAR", "CLOB", "TEXT"].contains(where: type.contains) { return false }
        if type.isEmpty || type.contains("BLOB") { return false }
        return true
    }

    /// `name` with A-Z as a-z and nothing else changed, as SQLite folds
    /// names (a Kelvin sign is no K to it), and as LIKE folds text.
    private static func asciiLowercased(_ name: String) -> String {
        String(decoding: name.utf8.map(LikeMatcher.foldASCII), as: UTF8.self)
    }

    /// The collation a column of `records` compares with, as declared
    /// (nil when SQLite cannot say).
    private static func declaredCollation(of column: String, in db: Database) -> String? {
        var type: UnsafePointer<CChar>?
        var collation: UnsafePointer<CChar>?
        var notNull: Int32 = 0
        var primaryKey: Int32 = 0
        var autoincrement: Int32 = 0
        let code = sqlite3_table_column_metadata(
            db.sqliteConnection, "main", "records", column, &type, &collation, &notNull, &primaryKey, &autoincrement)
        guard code == SQLITE_OK, let collation else { return nil }
        return String(cString: collation)
    }
}
