import Foundation
internal import CSQLiteConfig
internal import GRDB
internal import GRDBSQLite

/// Checkpoints and closing: what a store leaves in the -wal file, and
/// what it copies into the file.
extension CacheStore {
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
    func truncateWAL() throws {
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
    func checkpointOnCloseWhenChanged() {
        guard access == .readWrite,
            hasCommittedChanges || (rolledBack.value > 0 && walWasEmptyAtOpen) || Self.walFrameBytes(path) == 0
        else { return }
        queue.inDatabase { db in
            // Nil once closed.
            guard let connection = db.sqliteConnection else { return }
            // A change made, which SQLite cannot copy in (a -wal file copied
            // beside the file from a copy of it that went its own way reads
            // as sound, yet its pages do not fit the file's): it stands in the
            // -wal file alone, which is said (``checkpointFailureAtClose``).
            // A checkpoint that waits for no one, as the close's own does not.
            if hasCommittedChanges, Self.walFrameBytes(path) > 0 {
                do {
                    _ = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(PASSIVE)")
                } catch let error as DatabaseError {
                    checkpointFailure.set(error.message ?? "\(error.resultCode)")
                } catch {}
            }
            _ = gqlcache_sqlite3_checkpoint_on_close(connection, 1)
        }
    }

    /// The bytes of the -wal file beside `path` past its 32-byte header:
    /// 0 when it holds no frame, or there is none.
    static func walFrameBytes(_ path: String) -> Int64 {
        max(0, (FileProbe.signature(FileProbe.resolved(path) + "-wal")?.size ?? 0) - 32)
    }
}

/// The closed connections ``CacheStore/leavesTeardownToExit`` keeps.
final class ExitTeardown: @unchecked Sendable {
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
