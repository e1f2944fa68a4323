import Foundation
internal import CSQLiteConfig
internal import GRDB
internal import GRDBSQLite

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
/// writes to it. (In WAL mode SQLite itself makes the -shm index beside a
/// -wal file that has none, in a folder it may write to, as any reader
/// of the file does.) A read-write store takes the write lock for the length of
/// one ``write(_:)`` call and, while another process holds it, waits up to the
/// busy timeout before failing with ``CacheStoreError/busy(path:waited:)``.
public final class CacheStore: Sendable {
    public enum Access: Sendable { case readOnly, readWrite }

    public let path: String
    public let access: Access
    public let format: ApolloIOSSQLiteFormat
    public let busyTimeout: Double
    /// True when a read-only open had to read a WAL file as immutable because
    /// its folder cannot be written (SQLite cannot create the -shm index):
    /// changes still in the -wal file are then not seen.
    public let isImmutableSnapshot: Bool
    /// For a file opened as immutable (read without locks): the file as it
    /// was before it was opened. A read that ends with the file otherwise
    /// (the app opened it, and may have checkpointed into it mid-read) is
    /// refused rather than trusted.
    let unlockedSignature: FileProbe.Signature?
    let queue: DatabaseQueue
    /// This store in ``OpenStoreFiles``, until its connection closes.
    private let openFilesToken: Int
    /// The copy to make before the next write (``backUpBeforeNextWrite(_:)``).
    let pendingBackup = PendingBackup()
    /// A Ctrl-C not yet answered by a transaction (``interrupt()``).
    let interruption: Interruption
    /// Counts the ``write(progress:_:)``s that committed a change.
    private let committed = CommitCount()
    /// Counts the ``write(progress:_:)``s that failed, and so rolled back.
    private let rolledBack = CommitCount()
    /// Counts the checks of the -wal file's changes found at open that
    /// passed (``refuseForeignWAL()``): one is enough for the store.
    let walChecked = CommitCount()

    /// True once a ``write(progress:_:)`` of this store has committed a
    /// change to the file: a caller whose later output fails can say that
    /// the change was made all the same.
    public var hasCommittedChanges: Bool { committed.value > 0 }

    /// The -wal file held no frames when the store opened (or there was
    /// none): whatever is in it at the close was written while the store
    /// had the file open, so it is this database's, never one copied
    /// beside it. Set for a store that may write.
    private let walWasEmptyAtOpen: Bool

    /// How many ``write(progress:_:)``s of this store committed a change:
    /// compared before and after, it says whether one did in between.
    public var committedWriteCount: Int { committed.value }

    private init(
        path: String, access: Access, format: ApolloIOSSQLiteFormat, busyTimeout: Double,
        isImmutableSnapshot: Bool = false, unlockedSignature: FileProbe.Signature? = nil, queue: DatabaseQueue, interruption: Interruption,
        walWasEmptyAtOpen: Bool = false
    ) {
        self.unlockedSignature = unlockedSignature
        self.walWasEmptyAtOpen = walWasEmptyAtOpen
        self.interruption = interruption
        self.path = path
        self.access = access
        self.format = format
        self.busyTimeout = busyTimeout
        self.isImmutableSnapshot = isImmutableSnapshot
        self.queue = queue
        openFilesToken = OpenStoreFiles.shared.opened(path)
    }

    /// Opens an existing cache file, refusing anything that is not one.
    /// `interrupt`: a Ctrl-C while the open still waits for another
    /// process's lock (which even reading the file's format needs while
    /// the app holds its exclusive lock) stops the wait, and the open
    /// fails as ``CacheStoreError/interrupted(path:)``.
    public static func open(
        at path: String, access: Access = .readOnly, busyTimeout: Double = 5, interrupt: OpeningInterrupt? = nil
    ) throws -> CacheStore {
        let interruption = interrupt?.interruption ?? Interruption()
        return try reportingInterrupt(interruption, path: path) {
            try open(at: path, access: access, busyTimeout: busyTimeout, interruption: interruption)
        }
    }

    /// Runs `body`; a wait for another process's lock that was given up
    /// for a pending interrupt fails as the interrupt it was, not as busy.
    private static func reportingInterrupt<T>(_ interruption: Interruption, path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch CacheStoreError.busy where interruption.isPending {
            throw CacheStoreError.interrupted(path: path)
        }
    }

    private static func open(at path: String, access: Access, busyTimeout: Double, interruption: Interruption) throws -> CacheStore {
        try FileProbe.checkIsSQLite(path)
        if let problem = FileProbe.nonUTF8RealPath(path) ?? FileProbe.sideFileProblem(path) { throw CacheStoreError.io(path: path, message: problem) }
        if let foreign = ForeignJournal.check(path) { throw CacheStoreError.io(path: path, message: foreign.description) }
        let readonly = access == .readOnly
        if !readonly, let protection = FileProbe.writeProtection(path) { throw CacheStoreError.io(path: path, message: protection) }
        if readonly && FileProbe.isWALMode(path) && !FileProbe.hasWALSideFiles(path) {
            // No -wal and no -shm: no connection has the file open (SQLite keeps
            // both while one does) and everything is in the main file. Reading
            // it as immutable creates neither file beside it, as a plain
            // read-only open of a WAL file would.
            return try openWithoutLocks(path, access: access, busyTimeout: busyTimeout, missingWAL: false, interruption: interruption)
        }
        // A journal whose first page matches the file's may still be
        // another cache's (two caches of one app, their counters alike):
        // after SQLite rolls it back, at the first read, the file is checked.
        let journalBeside = !readonly && ForeignJournal.isPresent(path)
        let walWasEmpty = !readonly && Self.walFrameBytes(path) == 0
        do {
            let (queue, format) = try openDetecting(
                sqlitePath: sqliteName(path), path: path, readonly: readonly, busyTimeout: busyTimeout, interruption: interruption)
            let store = CacheStore(
                path: path, access: access, format: format, busyTimeout: busyTimeout, queue: queue, interruption: interruption,
                walWasEmptyAtOpen: walWasEmpty)
            if journalBeside && !ForeignJournal.isPresent(path) { try store.checkAfterRollback() }
            return store
        } catch let error as CacheStoreError where readonly && FileProbe.isWALMode(path) && Self.needsAnIndexItCannotMake(error, path) {
            // A WAL file needs its -shm index, which SQLite cannot create in a
            // folder it may not write: read the file as an immutable snapshot.
            return try openWithoutLocks(path, access: access, busyTimeout: busyTimeout, missingWAL: true, interruption: interruption)
        }
    }

    /// SQLite's full check after it rolled back a journal left beside the
    /// file: one that came from another cache leaves it damaged, and
    /// nothing is then written to it.
    private func checkAfterRollback() throws {
        let problems = try read { try $0.sqliteIntegrityCheck(full: true) }
        guard let first = problems.first else { return }
        let more = problems.count > 1 ? " and \(problems.count - 1) more" : ""
        throw CacheStoreError.io(
            path: path,
            message: "SQLite rolled back the -journal file beside it (an interrupted write's), and the file is now damaged "
                + "(integrity_check: \(first)\(more)): the journal may have come from another cache; nothing more was written "
                + "('gqlcache doctor --full' says more)")
    }

    /// Opens `path` as immutable: read without locks, and checked against
    /// the file as it was before (see ``unlockedSignature``). `missingWAL`:
    /// changes in a -wal file beside it may go unseen (``isImmutableSnapshot``).
    private static func openWithoutLocks(
        _ path: String, access: Access, busyTimeout: Double, missingWAL: Bool, interruption: Interruption
    ) throws -> CacheStore {
        let signature = FileProbe.signature(path)
        let (queue, format) = try checkingUnchanged(path, since: signature) {
            try openDetecting(
                sqlitePath: immutableURI(for: FileProbe.resolved(path)), path: path, readonly: true, busyTimeout: busyTimeout,
                interruption: interruption)
        }
        return CacheStore(
            path: path, access: access, format: format, busyTimeout: busyTimeout, isImmutableSnapshot: missingWAL,
            unlockedSignature: signature, queue: queue, interruption: interruption)
    }

    /// True when a read holds off other processes' writes while it lasts:
    /// in a rollback-journal file every reader's lock does (a WAL file's
    /// readers do not, nor a read of a file opened as immutable). A caller
    /// whose output may stall keeps such a read short.
    public var readsHoldOffWriters: Bool {
        unlockedSignature == nil && !FileProbe.isWALMode(path)
    }

    /// True for a store that reads its file without locks (as immutable)
    /// when the file has changed since it was opened: the store no longer
    /// reads the file as it is, and a new one must be opened.
    public var isOutdatedSnapshot: Bool {
        unlockedSignature != nil && FileProbe.signature(path) != unlockedSignature
    }

    /// True for the errors SQLite gives when a WAL file's -shm index is
    /// missing and its folder cannot be written: "read-only", or, when a
    /// -wal is there without its -shm, "unable to open".
    private static func needsAnIndexItCannotMake(_ error: CacheStoreError, _ path: String) -> Bool {
        switch error {
        case .readOnly(let failed): return failed == path
        case .io(let failed, _):
            let file = FileProbe.resolved(path)
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            return failed == path && !FileManager.default.fileExists(atPath: file + "-shm") && !FileManager.default.isWritableFile(atPath: folder)
        default: return false
        }
    }

    /// Runs `body`, a read of a file without locks, and refuses what it
    /// read (or the error it met, a page half rewritten reading as
    /// corrupt) when the file changed meanwhile.
    static func checkingUnchanged<T>(_ path: String, since signature: FileProbe.Signature?, _ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            if FileProbe.signature(path) != signature { throw CacheStoreError.changedWhileRead(path: path) }
            throw error
        }
        if FileProbe.signature(path) != signature { throw CacheStoreError.changedWhileRead(path: path) }
        return result
    }

    private static func openDetecting(
        sqlitePath: String, path: String, readonly: Bool, busyTimeout: Double, interruption: Interruption
    ) throws -> (DatabaseQueue, ApolloIOSSQLiteFormat) {
        try StoreErrors.mapping(path: path, waited: busyTimeout) {
            let queue = try DatabaseQueue(
                path: sqlitePath, configuration: configuration(readonly: readonly, busyTimeout: busyTimeout, interruption: interruption))
            let format = try queue.read { db in
                let format = try FormatDetector.detect(in: db, path: path)
                if !readonly, case let triggers = try FormatDetector.triggers(in: db), !triggers.isEmpty {
                    throw CacheStoreError.notACacheFile(path: path, reason: .triggers(triggers))
                }
                return format
            }
            return (queue, format)
        }
    }

    /// What SQLite is given to open the file at `path`. SQLite reads a
    /// name that begins `file:` as a URI (as the store opens one to read
    /// without locks), so `file:app.sqlite` would open `app.sqlite`, and
    /// `file:x?mode=memory` no file at all: a relative path that begins so
    /// is given as `./file:…`, which names the same file.
    static func sqliteName(_ path: String) -> String {
        path.hasPrefix("file:") ? "./" + path : path
    }

    /// `file:PATH?immutable=1`, with the characters URIs reserve escaped.
    static func immutableURI(for path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return "file:" + (absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute) + "?immutable=1"
    }

    /// Creates a new, empty cache file with Apollo iOS's DDL, or makes one of
    /// an empty file (0 bytes). Refuses to touch any other file that exists.
    public static func create(at path: String, ddl: ApolloIOSSQLiteFormat.DDL = .current) throws -> CacheStore {
        guard !FileManager.default.fileExists(atPath: path) || isEmptyFile(at: path) else { throw CacheStoreError.fileExists(path: path) }
        // An empty file write-protected is kept as it is, as a cache is.
        if let protection = FileProbe.writeProtection(path) { throw CacheStoreError.io(path: path, message: protection) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CacheStoreError.io(path: path, message: "its folder \(folder) does not exist")
        }
        if let problem = FileProbe.nonUTF8RealPath(path) ?? FileProbe.nonUTF8RealPath(folder) ?? FileProbe.sideFileProblem(path) {
            throw CacheStoreError.io(path: path, message: problem)
        }
        // SQLite would say only "unable to open database file". (A link
        // that points nowhere yet is made where it points.)
        let linked = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { $0.hasPrefix("/") ? $0 : folder + "/" + $0 }
        let madeIn = URL(fileURLWithPath: linked ?? path).deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: path) && !FileManager.default.isWritableFile(atPath: madeIn) {
            // Through a link, the folder it points into may not exist.
            let exists = FileManager.default.fileExists(atPath: madeIn, isDirectory: &isDirectory) && isDirectory.boolValue
            throw CacheStoreError.io(path: path, message: "its folder \(madeIn) \(exists ? "is not writable" : "does not exist"); cannot create the file")
        }
        let format = ApolloIOSSQLiteFormat(ddl: ddl)
        let interruption = Interruption()
        let queue = try StoreErrors.mapping(path: path, waited: 0) {
            let queue = try DatabaseQueue(
                path: sqliteName(path), configuration: configuration(readonly: false, busyTimeout: 5, interruption: interruption))
            try queue.write { db in
                for statement in format.createStatements { try db.execute(sql: statement) }
            }
            return queue
        }
        return CacheStore(path: path, access: .readWrite, format: format, busyTimeout: 5, queue: queue, interruption: interruption)
    }

    /// What SQLite names the files it keeps beside a database while it is
    /// written (`cache.sqlite-journal`, `-wal`, `-shm`): the rollback
    /// journal, the write-ahead log and its index.
    public static let sideFileSuffixes = ["-journal", "-wal", "-shm"]

    /// A regular file of 0 bytes (`touch cache.sqlite`): to SQLite, and to
    /// Apollo, an empty database, which ``create(at:ddl:)`` makes a cache of.
    public static func isEmptyFile(at path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0
    }

    /// The longest busy timeout taken: SQLite's own (milliseconds in an Int32).
    public static let maximumBusyTimeout: Double = 2_147_483

    private static func configuration(readonly: Bool, busyTimeout: Double, interruption: Interruption) -> Configuration {
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

    /// Runs `body` in a read transaction: a consistent snapshot, no writes.
    /// `progress`, when given, hears how far its statements have scanned
    /// (see ``ScanProgress``); it costs a `count(*)` at the start.
    public func read<T>(progress: ProgressHandler? = nil, _ body: (ReadTransaction) throws -> T) throws -> T {
        guard unlockedSignature != nil else { return try transactionRead(progress: progress, body) }
        return try Self.checkingUnchanged(path, since: unlockedSignature) { try transactionRead(progress: progress, body) }
    }

    /// What opening the file to write would throw before any change, for
    /// a dry run, which opens it to read: a trigger on the records table, a
    /// write-protected file, or one this process cannot write. Nil when
    /// none holds.
    public func refusalOfAWrite() throws -> CacheStoreError? {
        let triggers = try read { tx in try FormatDetector.triggers(in: try tx.database()) }
        if !triggers.isEmpty { return .notACacheFile(path: path, reason: .triggers(triggers)) }
        if let protection = FileProbe.writeProtection(path) { return .io(path: path, message: protection) }
        if !FileManager.default.isWritableFile(atPath: FileProbe.resolved(path)) { return .readOnly(path: path) }
        return nil
    }

    private func transactionRead<T>(progress: ProgressHandler?, _ body: (ReadTransaction) throws -> T) throws -> T {
        try answeringInterrupts {
            // Done despite a damaged page the reading went around: SQLite
            // fails the COMMIT too (GRDB then rolls back), which for a read
            // loses nothing, and the damage met was said where it was met.
            var doneAroundDamage: T?
            do {
                return try queue.read { db in
                    let watcher = try progress.map { try ScanWatcher(db: db, handler: $0) }
                    defer { watcher?.stop() }
                    let transaction = ReadTransaction(db: db, path: path, interruption: interruption)
                    defer { transaction.end() }
                    let result = try body(transaction)
                    // The work is done, but whoever pressed Ctrl-C no longer wants it.
                    try transaction.checkInterrupt()
                    if transaction.readAroundDamage { doneAroundDamage = result }
                    return result
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
                guard let doneAroundDamage else { throw error }
                return doneAroundDamage
            }
        }
    }

    /// Runs `body` in one IMMEDIATE transaction that commits when `body`
    /// returns and rolls back when it throws. `progress` as in ``read(progress:_:)``.
    /// A pending backup is kept, and announced, only when the transaction
    /// commits a change: one that rolls back, or changes no row, leaves
    /// no copy behind.
    @discardableResult
    public func write<T>(progress: ProgressHandler? = nil, _ body: (ReadWriteTransaction) throws -> T) throws -> T {
        guard access == .readWrite else { throw CacheStoreError.readOnly(path: path) }
        try refuseForeignWAL()
        return try interruption.writing { try answeringInterrupts {
            var result: T?
            var backup: (request: BackupRequest, copy: String)?
            var changed = false
            do {
                try queue.inTransaction(.immediate) { db in
                    try refuseCutShortFile()
                    backup = try makePendingBackup()
                    let changesBefore = db.totalChangesCount
                    let watcher = try progress.map { try ScanWatcher(db: db, handler: $0) }
                    defer { watcher?.stop() }
                    let transaction = ReadWriteTransaction(db: db, path: path, interruption: interruption)
                    defer { transaction.end() }
                    result = try body(transaction)
                    // A Ctrl-C that came between statements rolls the write back.
                    try transaction.checkInterrupt()
                    changed = db.totalChangesCount - transaction.scratchChanges != changesBefore
                    return .commit
                }
            } catch {
                rolledBack.increment()
                if let backup { try? FileManager.default.removeItem(atPath: backup.copy) }
                throw error
            }
            if changed {
                committed.increment()
                // What the -wal file holds now is this process's, or was checked.
                VouchedWALs.shared.vouch(forWALBeside: FileProbe.resolved(path))
            }
            if let backup {
                if changed {
                    backup.request.made(backup.copy)
                } else {
                    try? FileManager.default.removeItem(atPath: backup.copy)
                    // Still owed to the next change the command makes (gc's VACUUM after nothing to collect).
                    pendingBackup.set(backup.request)
                }
            }
            afterCommit?()
            // A stop that came while the transaction committed, too late to
            // roll it back, still stops the command: answered here, it would
            // be forgotten, and a VACUUM after it would run.
            if interruption.isPending { throw changed ? CacheStoreError.stoppedAfterCommit(path: path) : CacheStoreError.interrupted(path: path) }
            return result!
        } }
    }

    /// Run once a write's transaction has committed, for tests: where a
    /// stop comes too late to roll the write back.
    nonisolated(unsafe) var afterCommit: (() -> Void)?

    /// Throws ``CacheStoreError/corrupt(path:message:walBytes:)`` when
    /// changes this process did not write wait in the -wal file (it held
    /// them at the open) and SQLite's full check finds the file damaged with
    /// them. One copied beside the cache from another can leave every page
    /// sound and only the key index at odds with the table; a write, and
    /// the checkpoint as the last connection closes, would copy it into the
    /// file for good. Checked once, before the first write, in a read
    /// transaction, which holds back no writer (the app sets no busy
    /// timeout): what another process commits meanwhile is that process's.
    private func refuseForeignWAL() throws {
        guard !walWasEmptyAtOpen, walChecked.value == 0 else { return }
        let resolved = FileProbe.resolved(path)
        guard !VouchedWALs.shared.vouches(forWALBeside: resolved), let pending = pendingWAL() else { return }
        let problems = try read { try $0.sqliteIntegrityCheck(full: true) }
        guard let first = problems.first else {
            walChecked.increment()
            return VouchedWALs.shared.vouch(forWALBeside: resolved)
        }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
        throw CacheStoreError.corrupt(path: path, message: "integrity_check: \(first)\(more)", walBytes: pending.walBytes)
    }

    /// Throws ``CacheStoreError/damagedFile(path:finding:)`` when the file
    /// is shorter than its header says (``FileCut``): a write would build
    /// on the zeros SQLite reads for the missing end of its last page.
    /// Checked under the write lock, so no other commit is half-way.
    private func refuseCutShortFile() throws {
        guard let cut = FileCut.of(path) else { return }
        throw CacheStoreError.damagedFile(path: path, finding: cut.description)
    }

    /// Run once VACUUM has committed, for tests: where a stop comes too
    /// late to be acted on.
    nonisolated(unsafe) var afterVacuum: (() -> Void)?

    /// Rebuilds the file to give free pages back to the file system. In WAL
    /// mode the rebuilt pages are then checkpointed into the file and the
    /// -wal file truncated, so the space is given back now.
    ///
    /// Returns true when ``interrupt()`` came while VACUUM ran but too late
    /// for it to stop (SQLite's copy of the rebuilt file back into place
    /// cannot be interrupted): the file was rebuilt all the same, and the
    /// caller says so rather than report an uninterrupted run.
    @discardableResult
    public func vacuum() throws -> Bool {
        guard access == .readWrite else { throw CacheStoreError.readOnly(path: path) }
        try refuseForeignWAL()
        return try interruption.writing { try answeringInterrupts {
            if interruption.isPending { throw CacheStoreError.interrupted(path: path) }
            // Under the write lock, as for a write: an app's commit half-way
            // (page 1's new size written, the pages that grow the file not
            // yet) would look like a file cut short.
            try queue.inTransaction(.immediate) { _ in
                try refuseCutShortFile()
                return .commit
            }
            if let backup = try makePendingBackup() { backup.request.made(backup.copy) }
            try queue.vacuum()
            // The file is rebuilt: a stop from now on ends a process whose change stands.
            committed.increment()
            afterVacuum?()
            do {
                try truncateWAL()
            } catch where interruption.isPending {
                // Stopped after the rebuild committed: in WAL mode it waits
                // in the -wal file for the next checkpoint.
                return true
            }
            return interruption.isPending
        } }
    }

    /// In WAL mode, copies the -wal file's changes into the file and
    /// truncates the -wal file, as closing the last connection would (the
    /// REPL keeps its store open); in other modes does nothing. A busy
    /// reader elsewhere may keep some frames in the -wal file.
    public func checkpoint() throws {
        guard access == .readWrite else { throw CacheStoreError.readOnly(path: path) }
        try answeringInterrupts { try truncateWAL() }
    }

    /// In WAL mode, a checkpoint that also truncates the -wal file, when
    /// nothing stands in its way. It waits for no one: a TRUNCATE
    /// checkpoint holds the writer lock while it waits for the app's
    /// readers, and the app, which sets no busy timeout, would fail every
    /// write meanwhile. With the app reading, it copies what it can, as a
    /// PASSIVE one does, and leaves the rest for a later checkpoint.
    private func truncateWAL() throws {
        try queue.writeWithoutTransaction { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal" else { return }
            // A checkpoint it could not finish is a row saying so, not an error.
            _ = try interruption.withoutWaiting { try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
    }

    /// Closes the file; the store is not to be used afterwards. When this is
    /// the last connection to a file in WAL mode and it may write, SQLite
    /// copies the -wal file's changes into the file and removes the -wal
    /// and -shm files, as the sqlite3 shell does on exit: a process that
    /// only exits leaves the changes in the -wal file. A read-only store
    /// never checkpoints. While another process (the app) has the file
    /// open, the -wal file stays for it.
    ///
    /// A store that changed nothing does not checkpoint: the -wal file
    /// holds only what others wrote, and copying it in is not this store's
    /// to do. A -wal file that belongs to another database (copied beside
    /// this one by mistake) makes every read fail as corrupt; copied in,
    /// it would overwrite the file's pages for good.
    public func close() throws {
        checkpointOnCloseWhenChanged()
        try StoreErrors.mapping(path: path, waited: 0) { try queue.close() }
        OpenStoreFiles.shared.closed(openFilesToken)
    }

    /// Whether a store no longer used leaves its connection's objects for
    /// the process's exit to free: for a process that ends when its
    /// command does. The connection itself still closes when the store
    /// goes, as it always does, so no lock outlives the store. What is
    /// spared is GRDB's teardown, which disposes of the connection's
    /// dispatch queue on a thread started for the purpose, and the exit
    /// then waits for that thread: a third of a millisecond at the end of
    /// every read-only command.
    public static var leavesTeardownToExit: Bool {
        get { ExitTeardown.shared.isOn }
        set { ExitTeardown.shared.isOn = newValue }
    }

    /// A connection that may write opens with its checkpoint on close off
    /// (see ``configuration(readonly:busyTimeout:interruption:)``), also
    /// when its open fails; it is turned on for a store that changed the file.
    /// So too when the -wal file holds no changes: there is nothing to copy
    /// in, and SQLite then removes the -wal and -shm files it made, as the
    /// file had none beside it before. And after a write rolled back
    /// (Ctrl-C, a full disk), when it held no frame at the open: the
    /// rolled-back frames are this store's, which SQLite's close then
    /// removes rather than leave a large -wal file.
    private func checkpointOnCloseWhenChanged() {
        guard access == .readWrite,
            hasCommittedChanges || (rolledBack.value > 0 && walWasEmptyAtOpen) || Self.walFrameBytes(path) == 0
        else { return }
        queue.inDatabase { db in
            // Nil once closed.
            guard let connection = db.sqliteConnection else { return }
            _ = gqlcache_sqlite3_checkpoint_on_close(connection, 1)
        }
    }

    /// The bytes of the -wal file beside `path` past its 32-byte header:
    /// 0 when it holds no frame, or there is none.
    private static func walFrameBytes(_ path: String) -> Int64 {
        max(0, (FileProbe.signature(FileProbe.resolved(path) + "-wal")?.size ?? 0) - 32)
    }

    deinit {
        checkpointOnCloseWhenChanged()
        // A connection that fails to close is left to GRDB's teardown,
        // which closes it once the statements holding it are gone; its
        // files stay held (``OpenStoreFiles``) until the process ends.
        guard (try? queue.close()) != nil else { return }
        OpenStoreFiles.shared.closed(openFilesToken)
        if ExitTeardown.shared.isOn { ExitTeardown.shared.keep(queue) }
    }

    /// Stops the statement running on this store, from any thread (a
    /// Ctrl-C handler): it throws ``CacheStoreError/interrupted(path:)``, and
    /// a write transaction rolls back.
    public func interrupt() {
        interruption.request()
        queue.interrupt()
    }

    /// True while ``write(progress:_:)`` or ``vacuum()`` runs: the file
    /// may then be half-changed, and a process ended now would leave a
    /// journal behind for the next writer to roll back. Whoever catches
    /// Ctrl-C asks this to decide between ``interrupt()`` and ending.
    public var isWriting: Bool { interruption.isWriting }

    /// Forgets an ``interrupt()`` that no transaction has answered yet (one
    /// that came while none was running), before new work starts: the REPL
    /// calls it as each command begins.
    public func forgetInterrupt() {
        interruption.take()
    }

    /// Runs one transaction, with SQLite's errors named for the file. An
    /// interrupt that came while it ran is answered by it: the transaction
    /// failed with ``CacheStoreError/interrupted(path:)`` (or had already
    /// committed), and the next one starts afresh.
    private func answeringInterrupts<T>(_ body: () throws -> T) throws -> T {
        defer { interruption.take() }
        return try Self.reportingInterrupt(interruption, path: path) { try StoreErrors.mapping(path: path, waited: busyTimeout, body) }
    }

    /// Sizes of the database and of the journal files beside it.
    public func fileSizes() -> FileSizes { FileSizes(path: path) }
}

/// The closed connections ``CacheStore/leavesTeardownToExit`` keeps.
private final class ExitTeardown: @unchecked Sendable {
    static let shared = ExitTeardown()
    private let lock = NSLock()
    private var on = false
    private var kept: [DatabaseQueue] = []

    var isOn: Bool {
        get { lock.withLock { on } }
        set { lock.withLock { on = newValue } }
    }

    func keep(_ queue: DatabaseQueue) { lock.withLock { kept.append(queue) } }
}

/// How many of a store's writes committed a change (``CacheStore/committedWriteCount``).
final class CommitCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}

/// A Ctrl-C for a store that is still being opened: whoever catches it
/// holds this before the store exists (see ``CacheStore/open(at:access:busyTimeout:interrupt:)``).
public final class OpeningInterrupt: @unchecked Sendable {
    let interruption = Interruption()

    public init() {}

    /// Stops the open's wait for a lock, from any thread.
    public func interrupt() { interruption.request() }
}
