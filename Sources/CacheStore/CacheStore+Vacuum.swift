import Foundation
internal import GRDB

/// VACUUM, giving a file's free pages back.
extension CacheStore {
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
            do {
                try queue.vacuum()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
                // SQLite's VACUUM says "database or disk is full" also of a
                // page number out of range, which only damage gives.
                let problems = (try? read { try $0.sqliteIntegrityCheck(full: false) }) ?? []
                guard let first = problems.first else { throw error }
                let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
                throw CacheStoreError.damagedFile(path: path, finding: "quick_check: \(first)\(more)")
            }
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
}
