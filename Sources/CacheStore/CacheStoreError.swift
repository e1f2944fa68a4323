import Foundation

/// Everything that can go wrong in the store, as one pattern-matchable type.
///
/// Each description is one lowercase sentence that names the file, key or
/// pattern involved and, where it helps, what to do. Cached values are never
/// included.
public enum CacheStoreError: Error, Equatable, Sendable {
    /// Why a file is not an Apollo iOS SQLite cache.
    public enum NotACacheReason: Equatable, Sendable {
        case empty
        case notSQLite(looksLikeText: Bool)
        /// Begins as an SQLite database, whole header and all, but SQLite
        /// refuses it: a damaged header, a newer file format, or an
        /// encrypted database that keeps its header plain (SQLCipher).
        case sqliteRefuses
        case noTables
        case noRecordsTable(tables: [String])
        case unexpectedColumns([String])
        case keyNotUnique
        /// Keys are compared with a collation other than BINARY.
        case keyCollation(String)
        /// The key column declared with a type (INTEGER, REAL, NUMERIC…)
        /// under which SQLite stores text that looks like a number as a number.
        case numericColumn(column: String, type: String)
        case idNotRowID
        case apollo3PerFieldLayout
        /// Triggers on `records`, which Apollo's DDL never creates: a write
        /// would run them, changing records it was not asked to.
        case triggers([String])
    }

    /// Why one record cannot be decoded.
    public enum RecordProblem: Equatable, Sendable, CustomStringConvertible {
        case null
        case invalidJSON(offset: Int, message: String)
        /// The text is, or begins as, something other than a JSON object.
        case notAnObject(String)
        /// The record decodes, but holds a number Apollo's JSON reading
        /// refuses, and the whole record with it (see ``NumberApolloCannotRead``).
        case numberApolloCannotRead(NumberApolloCannotRead)

        /// What is wrong, without the key: "its record column is NULL".
        public var description: String {
            switch self {
            case .null: return "its record column is NULL"
            case .invalidJSON(let offset, let message): return "\(message) at byte \(offset + 1)"
            case .notAnObject(let kind): return "\(kind), not a JSON object"
            case .numberApolloCannotRead(let found): return found.description
            }
        }
    }

    case fileNotFound(path: String)
    case fileExists(path: String)
    case notACacheFile(path: String, reason: NotACacheReason)
    case busy(path: String, waited: Double)
    case readOnly(path: String)
    case io(path: String, message: String)
    /// SQLite found a page of the file damaged (`SQLITE_CORRUPT`).
    /// `walBytes`: the size of a -wal file with changes beside it, which
    /// SQLite reads as part of the file, and which may be another cache's.
    case corrupt(path: String, message: String, walBytes: Int64? = nil)
    /// What a pass over the table found shows the file damaged (see
    /// ``CacheGraph/rowOrderBreak``, SQLite's `quick_check`): nothing is
    /// repaired in it.
    case damagedFile(path: String, finding: String)
    /// A scan in key order met a key not above the one before: the key
    /// index is damaged, and what was read in its order may be wrong.
    case keyIndexOutOfOrder(path: String, previous: CacheKey, next: CacheKey)
    case damagedRecord(key: CacheKey, problem: RecordProblem)
    case invalidJSON(offset: Int, message: String)
    case invalidPattern(pattern: String, message: String)
    /// ICU's matcher gave a regular expression up on a text (too much
    /// backtracking for its stack): no answer, rather than a wrong "no match".
    /// `place`: "on key 'K'", "in a value of 'K'".
    case patternGaveUp(pattern: String, place: String)
    /// A merge would write a record nested deeper than Apollo's reader
    /// takes (``JSONReader/maximumDepth`` objects and arrays).
    case recordNestedTooDeep(key: CacheKey)
    /// Records cannot be converted to or from an exchange form (JSON Lines,
    /// Apollo Client's `extract()` object): `message` says where and why.
    case cannotConvert(message: String)
    case transactionEnded
    /// The operation was stopped by ``CacheStore/interrupt()`` (Ctrl-C);
    /// a write was rolled back.
    case interrupted(path: String)
    /// ``CacheStore/interrupt()`` came while a write committed, too late to
    /// roll it back: the change stands, and whoever asked is told so rather
    /// than carry on (a VACUUM after it) as if no stop had come.
    case stoppedAfterCommit(path: String)
    /// Damaged records may hold references nobody can read, so what is
    /// reachable (for gc --unreachable, rm --cascade) cannot be told.
    case reachabilityUnknown(path: String, damaged: [CacheKey])
    /// Input to import gives an object one member twice; `offset` in its text.
    case repeatedMember(offset: Int, name: String)
    /// No root record: every record would count as unreachable.
    case noRootRecord(path: String)
    /// No QUERY_ROOT, where every query's data starts, yet records no
    /// other root reaches: what queries wrote would count as unreachable.
    case noQueryRoot(path: String, unreachable: Int)
    /// A record to write has a key with a NUL character, which SQLite's text
    /// binding would cut short (and so write another key).
    case keyHoldsNUL(CacheKey)
    /// A file read as an immutable snapshot (no locks) was changed by
    /// another process while it was read: what was read may mix its states.
    case changedWhileRead(path: String)
}

extension CacheStoreError: CustomStringConvertible, LocalizedError {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "\(path): no such file"
        case .fileExists(let path):
            return "\(path): file already exists"
        case .notACacheFile(let path, let reason):
            return "\(path): \(reason.sentence)"
        case .busy(let path, let waited):
            return Self.busyMessage(path: path, waited: waited, suggestingBusyTimeout: true)
        case .readOnly(let path):
            return "\(path): the file or its folder is read-only; cannot write"
        case .changedWhileRead(let path):
            return "\(path): another process (the app) opened and changed the file while it was read without locks, "
                + "so what was read may mix two states; run the command again"
        case .io(let path, let message):
            return "\(path): \(message)"
        case .corrupt(let path, let message, let walBytes):
            // SQLite reads a -wal file beside the file as part of it, even one
            // copied there from another database: say so (it is left as it is).
            let wal = walBytes.map {
                "; the -wal file beside it (\($0) bytes) is read as part of it, so if it came from another cache, move it away (it was left as it is)"
            }
            return "\(path): the database file is corrupt (SQLite: \(message)\(wal ?? ""))"
        case .damagedFile(let path, let finding):
            return "\(path): the database file is corrupt (\(finding)); nothing was changed, as gqlcache "
                + "does not write to a damaged file ('gqlcache doctor' says more)"
        case .keyIndexOutOfOrder(let path, let previous, let next):
            return "\(path): the database file is corrupt (its key index is out of order: '\(next)' after '\(previous)', which only a damaged index gives); "
                + "the reading stopped there, and what came before may be wrong too ('gqlcache doctor --full' says more)"
        case .damagedRecord(let key, let problem):
            return "record '\(key)' is damaged: \(problem)"
        case .invalidJSON(let offset, let message):
            return "invalid JSON: \(message) at byte \(offset + 1)"
        case .invalidPattern(let pattern, let message):
            return "invalid pattern '\(pattern.shortenedForMessage)': \(message)"
        case .recordNestedTooDeep(let key):
            return "record '\(key.rawValue.shortenedForMessage)' would nest more than \(JSONReader.maximumDepth) objects and arrays, "
                + "which Apollo's JSON reader refuses, and the whole record with it; nothing written"
        case .patternGaveUp(let pattern, let place):
            return "the regular expression '\(pattern.shortenedForMessage)' gave up \(place): it backtracks too much for the matcher "
                + "(a repeated group over long text, such as (a|b)+, does); a character class or a possessive quantifier, "
                + "such as [ab]+ or (?:a|b)++, matches the same without it; nothing was decided"
        case .cannotConvert(let message):
            return message
        case .keyHoldsNUL(let key):
            return "the key \(JSONWriter.quoted(key.rawValue, asStored: false)) holds a NUL character, which a cache key cannot; nothing was written"
        case .transactionEnded:
            return "a transaction was used after its closure returned"
        case .interrupted(let path):
            return "\(path): interrupted; nothing was changed"
        case .stoppedAfterCommit(let path):
            return "\(path): stopped as the change was being written, too late to undo it: it stands, and its report is left out"
        case .repeatedMember(_, let name):
            return "the member \(JSONWriter.quoted(name, asStored: false)) is given twice (or in two spellings of one character), "
                + "and which value is meant cannot be told"
        case .reachabilityUnknown(let path, let damaged):
            let shown = damaged.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (damaged.count > 3 ? ", …" : "")
            return "\(path): cannot tell which records are reachable: \(damaged.count) damaged record\(damaged.count == 1 ? "" : "s") (\(shown)) "
                + "may hold references that cannot be read; nothing was changed. Remove or repair them first (gqlcache doctor lists them)"
        case .noRootRecord(let path):
            return "\(path): there is no root record (QUERY_ROOT, MUTATION_ROOT, SUBSCRIPTION_ROOT), so every record would count "
                + "as unreachable; nothing was changed. To remove every record use 'gqlcache clear'"
        case .noQueryRoot(let path, let unreachable):
            let records = unreachable == 1 ? "record" : "\(unreachable) records"
            return "\(path): there is no QUERY_ROOT record, where every query's data starts, so the \(records) queries wrote "
                + "would count as unreachable, though the app's next query writes QUERY_ROOT again and reaches those keyed by id; "
                + "nothing was changed. To remove them anyway use 'gqlcache rm' (by key, --match or --type) or 'gqlcache clear'"
        }
    }
}

extension CacheStoreError.NotACacheReason {
    var sentence: String {
        switch self {
        case .empty:
            return "not an Apollo iOS cache: the file is empty (0 bytes)"
        case .notSQLite(let looksLikeText):
            return "not an Apollo iOS cache: not an SQLite database (\(looksLikeText ? "it looks like a text file" : "unknown binary data"))"
        case .sqliteRefuses:
            return "not an Apollo iOS cache that can be read: the file begins as an SQLite database, but SQLite refuses it "
                + "(file is not a database): its header is damaged, or it is encrypted or of a newer SQLite format"
        case .noTables:
            return "not an Apollo iOS cache: an SQLite database with no tables"
        case .noRecordsTable(let tables):
            return "not an Apollo iOS cache: an SQLite database without a 'records' table (tables: \(tables.joined(separator: ", ")))"
        case .unexpectedColumns(let columns):
            return "not an Apollo iOS cache: table 'records' has columns (\(columns.joined(separator: ", "))), expected (_id, key, record)"
        case .idNotRowID:
            return "not an Apollo iOS cache: table 'records' does not make '_id' its row id (_id INTEGER PRIMARY KEY, as Apollo's table does)"
        case .numericColumn(let column, let type):
            return "not an Apollo iOS cache: table 'records' declares column '\(column)' \(type), under which SQLite stores text that looks like "
                + "a number as the number ('0099' as 99); Apollo's table declares it TEXT, which keeps what is written"
        case .keyNotUnique:
            return "not an Apollo iOS cache: table 'records' does not keep its keys unique (no UNIQUE constraint or index on every 'key')"
        case .keyCollation(let collation):
            return "not an Apollo iOS cache: table 'records' compares keys with collation \(collation), under which two different keys "
                + "(such as 'a' and 'A' for NOCASE) can be one; Apollo's table tells keys apart byte by byte (BINARY), and a write "
                + "could replace another key's record"
        case .apollo3PerFieldLayout:
            return "an Apollo iOS 3 per-field cache (one row per field); this layout is not supported yet"
        case .triggers(let names):
            return "not an Apollo iOS cache to write to: table 'records' has \(names.count == 1 ? "a trigger" : "triggers") ("
                + names.map { "'\($0)'" }.joined(separator: ", ") + "), which Apollo's table never has, "
                + "and which a write would run, changing records it was not asked to (commands that only read still read it)"
        }
    }
}

extension CacheStoreError {
    /// True for JSON that fails only for nesting deeper than Apollo's
    /// reader takes (512 objects and arrays), a text that is JSON in form.
    public var isJSONNestedTooDeep: Bool {
        if case .invalidJSON(_, let message) = self { return message == JSONReader.tooDeepMessage }
        return false
    }

    /// The text of ``busy(path:waited:)``; `suggestingBusyTimeout` false
    /// for a command that has no `--busy-timeout` to raise (one that only
    /// reads, waiting out an app's exclusive lock).
    public static func busyMessage(path: String, waited: Double, suggestingBusyTimeout: Bool) -> String {
        let seconds = waited == waited.rounded() ? String(Int(waited)) : String(waited)
        return "\(path): another process holds the database lock (waited \(seconds)s); try again"
            + (suggestingBusyTimeout ? ", or raise --busy-timeout" : "")
    }
}
