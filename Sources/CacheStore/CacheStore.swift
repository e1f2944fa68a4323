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
    let openFilesToken: Int
    /// The copy to make before the next write (``backUpBeforeNextWrite(_:)``).
    let pendingBackup = PendingBackup()
    /// A Ctrl-C not yet answered by a transaction (``interrupt()``).
    let interruption: Interruption
    /// Counts the ``write(progress:_:)``s that committed a change.
    let committed = CommitCount()
    /// Counts the ``write(progress:_:)``s that failed, and so rolled back.
    let rolledBack = CommitCount()
    /// Counts the checks of the -wal file's changes found at open that
    /// passed (``refuseForeignWAL()``): one is enough for the store.
    let walChecked = CommitCount()

    /// Run once a write's transaction has committed, for tests: where a
    /// stop comes too late to roll the write back.
    nonisolated(unsafe) var afterCommit: (() -> Void)?

    /// Run once VACUUM has committed, for tests: where a stop comes too
    /// late to be acted on.
    nonisolated(unsafe) var afterVacuum: (() -> Void)?

    /// True once a ``write(progress:_:)`` of this store has committed a
    /// change to the file: a caller whose later output fails can say that
    /// the change was made all the same.
    public var hasCommittedChanges: Bool { committed.value > 0 }

    /// Why SQLite could not copy this store's committed changes from the
    /// -wal file into the file at its close, if it could not: the changes
    /// stand in the -wal file alone, which a copy of the file lacks.
    public var checkpointFailureAtClose: String? { checkpointFailure.value }
    let checkpointFailure = LockedText()

    /// The -wal file held no frames when the store opened (or there was
    /// none): whatever is in it at the close was written while the store
    /// had the file open, so it is this database's, never one copied
    /// beside it. Set for a store that may write.
    let walWasEmptyAtOpen: Bool

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
    static func reportingInterrupt<T>(_ interruption: Interruption, path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch CacheStoreError.busy where interruption.isPending {
            throw CacheStoreError.interrupted(path: path)
        }
    }

    private static func open(at path: String, access: Access, busyTimeout: Double, interruption: Interruption) throws -> CacheStore {
        try FileProbe.checkIsSQLite(path)
        if let problem = FileProbe.nonUTF8RealPath(path) ?? FileProbe.sideFileProblem(path, writing: access != .readOnly) { throw CacheStoreError.io(path: path, message: problem) }
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
    /// `noteScratch` is told of each file made for a moment beside a missing
    /// one (see ``makeWhole(at:shownAs:format:noteScratch:)``), true as it
    /// is made and false once gone, so that a signal that ends the process
    /// meanwhile can remove it.
    public static func create(
        at path: String, ddl: ApolloIOSSQLiteFormat.DDL = .current, noteScratch: (String, Bool) -> Void = { _, _ in }
    ) throws -> CacheStore {
        let missing = !FileManager.default.fileExists(atPath: path)
        guard missing || isEmptyFile(at: path) else { throw CacheStoreError.fileExists(path: path) }
        // An empty file write-protected is kept as it is, as a cache is.
        if let protection = FileProbe.writeProtection(path) { throw CacheStoreError.io(path: path, message: protection) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CacheStoreError.io(path: path, message: "its folder \(folder) does not exist")
        }
        if let problem = FileProbe.nonUTF8RealPath(path) ?? FileProbe.nonUTF8RealPath(folder) ?? FileProbe.sideFileProblem(path, writing: true) {
            throw CacheStoreError.io(path: path, message: problem)
        }
        // SQLite would say only "unable to open database file". (A link
        // that points nowhere yet is made where it points.)
        let linked = linkTarget(of: path)
        if let problem = leftoverJournalProblem(forNewFileAt: path) {
            // Made meanwhile by another program, whose write is under way: its journal.
            guard !FileManager.default.fileExists(atPath: path) || isEmptyFile(at: path) else { throw CacheStoreError.fileExists(path: path) }
            throw CacheStoreError.io(path: path, message: problem)
        }
        let madeIn = URL(fileURLWithPath: linked ?? path).deletingLastPathComponent().path
        if missing && !FileManager.default.isWritableFile(atPath: madeIn) {
            // Through a link, the folder it points into may not exist.
            let exists = FileManager.default.fileExists(atPath: madeIn, isDirectory: &isDirectory) && isDirectory.boolValue
            throw CacheStoreError.io(path: path, message: "its folder \(madeIn) \(exists ? "is not writable" : "does not exist"); cannot create the file")
        }
        let format = ApolloIOSSQLiteFormat(ddl: ddl)
        // A missing file is made whole beside it and linked into place, which
        // fails when another program made it meanwhile: no one sees it half
        // made, and of two made at once one is made, the other's maker told
        // (also when the other's came since it was found missing).
        let madeWhole = missing ? try makeWhole(at: linked ?? path, shownAs: path, format: format, noteScratch: noteScratch) : false
        let interruption = Interruption()
        let queue = try StoreErrors.mapping(path: path, waited: 0) {
            try writableQueue(sqliteName(path), format: format, interruption: interruption, makingTable: !madeWhole)
        }
        return CacheStore(path: path, access: .readWrite, format: format, busyTimeout: 5, queue: queue, interruption: interruption)
    }

    /// A connection that may write to the file SQLite names `name`, with
    /// Apollo's table made in it when `makingTable` (an empty file's, or a
    /// new one's).
    private static func writableQueue(
        _ name: String, format: ApolloIOSSQLiteFormat, interruption: Interruption, makingTable: Bool
    ) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: name, configuration: configuration(readonly: false, busyTimeout: 5, interruption: interruption))
        if makingTable {
            try queue.write { db in
                for statement in format.createStatements { try db.execute(sql: statement) }
            }
        }
        return queue
    }

    /// Makes an empty cache at `target` (a missing file) from one made
    /// under another name in its folder, hard-linked into place; throws
    /// ``CacheStoreError/fileExists(path:)`` when `target` appeared
    /// meanwhile. False where the folder takes no hard links: the file is
    /// left to be made in place.
    private static func makeWhole(
        at target: String, shownAs path: String, format: ApolloIOSSQLiteFormat, noteScratch: (String, Bool) -> Void
    ) throws -> Bool {
        let url = URL(fileURLWithPath: target)
        let scratch = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let files = [""] + sideFileSuffixes
        for suffix in files { noteScratch(scratch + suffix, true) }
        defer {
            for suffix in files {
                unlink(scratch + suffix)
                noteScratch(scratch + suffix, false)
            }
        }
        try StoreErrors.mapping(path: path, waited: 0) {
            try writableQueue(scratch, format: format, interruption: Interruption(), makingTable: true).close()
        }
        guard link(scratch, target) == 0 else {
            if errno == EEXIST { throw CacheStoreError.fileExists(path: path) }
            return false
        }
        return true
    }

    /// Takes back a file ``create(at:ddl:noteScratch:)`` made, once the
    /// write meant for it failed: removes it with its journals, or, when
    /// `emptying` (it was an empty file), makes it empty again. Decided
    /// under the write lock, and done before it is let go: another program
    /// writing into the file meanwhile (a second `--create` that found it
    /// made) has its records kept, and one that waited for the lock finds
    /// the file gone rather than commits into a file removed beneath it.
    /// False, and the file kept, when it holds records, or the lock or a
    /// count could not be had.
    @discardableResult
    public func removeUnlessItHoldsRecords(emptying: Bool) -> Bool {
        guard access == .readWrite else { return false }
        var removed = false
        // Through a link (one that pointed nowhere), the file made is where
        // it points, with its journals beside it; the link is the user's.
        let file = FileProbe.resolved(path)
        try? queue.inTransaction(.immediate) { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM records") == 0 else { return .rollback }
            for suffix in Self.sideFileSuffixes { unlink(file + suffix) }
            if emptying { truncate(file, 0) } else { unlink(file) }
            removed = true
            return .rollback
        }
        return removed
    }

    /// Why a cache cannot be made at `path` (missing, or empty) for a
    /// -journal or -wal file beside where it would be that an earlier
    /// database of that name left: SQLite takes it for the new file's, and
    /// rolls a journal back into it, or reads the -wal file's frames as its
    /// pages (or, for an empty file, deletes either), where it may be all
    /// that is left of that database. Only one SQLite would act on counts:
    /// a journal that begins with a journal's header, a -wal file with a
    /// write-ahead log's. Nil when there is none.
    public static func leftoverJournalProblem(forNewFileAt path: String) -> String? {
        let file = FileManager.default.fileExists(atPath: path) ? FileProbe.resolved(path) : linkTarget(of: path) ?? path
        let head = { (side: String) -> [UInt8] in
            // Not a FIFO, which would wait for a writer (see ``FileProbe/sideFileProblem(_:writing:)``).
            var status = stat()
            guard stat(file + side, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
                let handle = FileHandle(forReadingAtPath: file + side)
            else { return [] }
            defer { try? handle.close() }
            return Array((try? handle.read(upToCount: 8)) ?? Data())
        }
        let journal = head("-journal"), wal = head("-wal")
        let stray: String
        if journal.count == 8 && journal == ForeignJournal.magic {
            stray = "-journal"
        } else if wal.count >= 4, PendingWAL.isWALMagic(wal.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }) {
            stray = "-wal"
        } else {
            return nil
        }
        let name = (file as NSString).lastPathComponent + stray
        return "\(name) is beside it, left by an earlier database of that name, which SQLite would take for the new file's "
            + "(replaying that database's pages into it, or deleting them); move it away (or remove it, if that database is gone) "
            + "and run again"
    }

    /// The end of the chain of links `path` is (where a link that points
    /// nowhere yet makes the file), or nil when it is no link.
    static func linkTarget(of path: String) -> String? {
        var current = path
        var followed = false
        // As many as the system follows (SYMLOOP_MAX): past that, a loop.
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { break }
            current = destination.hasPrefix("/") ? destination : URL(fileURLWithPath: current).deletingLastPathComponent().path + "/" + destination
            followed = true
        }
        return followed ? current : nil
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

    deinit {
        checkpointOnCloseWhenChanged()
        // A connection that fails to close is left to GRDB's teardown,
        // which closes it once the statements holding it are gone; its
        // files stay held (``OpenStoreFiles``) until the process ends.
        guard (try? queue.close()) != nil else { return }
        OpenStoreFiles.shared.closed(openFilesToken)
        if ExitTeardown.shared.isOn { ExitTeardown.shared.keep(queue) }
    }

    /// Sizes of the database and of the journal files beside it.
    public func fileSizes() -> FileSizes { FileSizes(path: path) }
}
