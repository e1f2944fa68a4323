import Foundation
internal import GRDB

/// Read and read-write transactions, and the checks a write makes first.
extension CacheStore {
    /// Runs `body` in a read transaction: a consistent snapshot, no writes.
    /// `progress`, when given, hears how far its statements have scanned
    /// (see ``ScanProgress``); it costs a `count(*)` at the start.
    public func read<T>(progress: ProgressHandler? = nil, _ body: (ReadTransaction) throws -> T) throws -> T {
        guard unlockedSignature != nil else { return try transactionRead(progress: progress, body) }
        return try Self.checkingUnchanged(path, since: unlockedSignature) { try transactionRead(progress: progress, body) }
    }

    /// What opening the file to write would throw before any change, for
    /// a dry run, which opens it to read: a trigger on the records table, a
    /// write-protected file, or one this process cannot write, or whose
    /// folder it cannot write where the write makes a file beside it. Nil
    /// when none holds.
    public func refusalOfAWrite() throws -> CacheStoreError? {
        let triggers = try read { tx in try FormatDetector.triggers(in: try tx.database()) }
        if !triggers.isEmpty { return .notACacheFile(path: path, reason: .triggers(triggers)) }
        if let protection = FileProbe.writeProtection(path) { return .io(path: path, message: protection) }
        let file = FileProbe.resolved(path)
        if !FileManager.default.isWritableFile(atPath: file) { return .readOnly(path: path) }
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
        if FileProbe.isWALMode(path) {
            // Each of the -wal and -shm files is written where it is, or made in the folder.
            for side in [file + "-wal", file + "-shm"] {
                let writable = FileManager.default.fileExists(atPath: side)
                    ? FileManager.default.isWritableFile(atPath: side) : FileManager.default.isWritableFile(atPath: folder)
                if !writable { return .readOnly(path: path) }
            }
        } else if !FileManager.default.isWritableFile(atPath: folder) {
            // The -journal is made, and deleted, in the folder.
            return .readOnly(path: path)
        }
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
                if Self.mayLeaveAHotJournal(error) { rollBackLeftJournal() }
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

    /// After a write that failed, rolls back the -journal file it may have
    /// left hot. A write that fails as it spills pages into the file (one
    /// that may not grow past `ulimit -f`, a full disk) leaves the file
    /// changed and its journal hot, for the next reader to roll back; the
    /// file's own old pages fit where they were, so this reader can.
    /// Failing, it leaves the journal to the next one, as SQLite would.
    /// Whether a failed write may have left its journal hot: one that
    /// failed writing the file (an I/O error, a full disk). After a busy
    /// one the -journal beside the file is the app's, live: a read would
    /// hold a lock the app, which waits for none, may then fail on.
    private static func mayLeaveAHotJournal(_ error: Error) -> Bool {
        switch error {
        case let error as DatabaseError: return error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_FULL
        case CacheStoreError.io: return true
        default: return false
        }
    }

    private func rollBackLeftJournal() {
        guard FileManager.default.fileExists(atPath: FileProbe.resolved(path) + "-journal") else { return }
        try? queue.inDatabase { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
    }

    /// Throws ``CacheStoreError/corrupt(path:message:walBytes:)`` when
    /// changes this process did not write wait in the -wal file (it held
    /// them at the open) and SQLite's full check finds the file damaged with
    /// them. One copied beside the cache from another can leave every page
    /// sound and only the key index at odds with the table; a write, and
    /// the checkpoint as the last connection closes, would copy it into the
    /// file for good. Checked once, before the first write, in a read
    /// transaction, which holds back no writer (the app sets no busy
    /// timeout): what another process commits meanwhile is that process's.
    /// One whose last commit does not fit the file (``ForeignWAL``), which
    /// reads as sound but which SQLite cannot copy in, throws
    /// ``CacheStoreError/io(path:message:)`` first.
    func refuseForeignWAL() throws {
        guard !walWasEmptyAtOpen, walChecked.value == 0 else { return }
        let resolved = FileProbe.resolved(path)
        guard !VouchedWALs.shared.vouches(forWALBeside: resolved), let pending = pendingWAL() else { return }
        if let misfit = pending.misfit { throw CacheStoreError.io(path: path, message: misfit.description) }
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
    func refuseCutShortFile() throws {
        guard let cut = FileCut.of(path) else { return }
        throw CacheStoreError.damagedFile(path: path, finding: cut.description)
    }
}

/// How many of a store's writes committed a change (``CacheStore/committedWriteCount``).
final class CommitCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}

/// A text set once from any thread and read from another.
final class LockedText: @unchecked Sendable {
    private let lock = NSLock()
    private var text: String?

    var value: String? { lock.withLock { text } }

    func set(_ newValue: String) { lock.withLock { text = newValue } }
}
