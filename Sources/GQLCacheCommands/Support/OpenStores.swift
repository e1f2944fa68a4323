import CacheStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Cache files opened once and kept open across commands, as the REPL
/// does. An open store holds no lock between transactions, so other
/// processes may write the file meanwhile and the next command sees it.
public final class OpenStores: @unchecked Sendable {
    private struct Key: Hashable {
        let path: String
        let access: CacheStore.Access
        let busyTimeout: Double
    }

    /// The file a path named when its store was opened (device and inode).
    private struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private var stores: [Key: (store: CacheStore, file: FileIdentity?)] = [:]
    /// The interrupt of the store being opened, while one is.
    private var opening: OpeningInterrupt?
    private let lock = NSLock()

    public init() {}

    /// The store kept for `path`, or a new one from `open`. An app that
    /// deletes its cache and makes a new one (at logout, say) leaves a
    /// kept store reading the deleted file: when the path names another
    /// file than it did, the old store is closed and the file opened again.
    func store(path: String, access: CacheStore.Access, busyTimeout: Double, open: (OpeningInterrupt) throws -> CacheStore) throws -> CacheStore {
        let key = Key(path: path, access: access, busyTimeout: busyTimeout)
        let file = FileIdentity(path: path)
        if let kept = lock.withLock({ stores[key] }), kept.file != nil, kept.file == file {
            if !kept.store.isOutdatedSnapshot { return kept.store }
            // A file read without locks that the app has since opened is read anew, with them.
            lock.withLock { stores[key] = nil }
            try? kept.store.close()
        }
        // Every store still on another file at this path is closed first:
        // a writer left open on a replaced WAL-mode file holds its -wal,
        // which the new file's connection would take for its own. SQLite
        // does not checkpoint a moved file as it closes, and so leaves that
        // -wal beside the new file: it is emptied into the old one first.
        let stale = lock.withLock {
            let keys = stores.filter { $0.key == key || ($0.key.path == path && $0.value.file != file) }.map(\.key)
            defer { for key in keys { stores[key] = nil } }
            return keys.compactMap { stores[$0]?.store }
        }
        Self.close(stale, checkpointingWriters: true)
        // A Ctrl-C while the open waits for the app's lock stops that wait.
        let interrupt = OpeningInterrupt()
        lock.withLock { opening = interrupt }
        defer { lock.withLock { opening = nil } }
        let store = try open(interrupt)
        lock.withLock { stores[key] = (store, file) }
        return store
    }

    /// Stops whatever statement any open store is running, and the wait of
    /// one being opened (Ctrl-C).
    public func interruptAll() {
        let (kept, opening) = lock.withLock { (Array(stores.values), self.opening) }
        for kept in kept { kept.store.interrupt() }
        opening?.interrupt()
        PipeWait.interrupt()
    }

    /// Forgets interrupts no transaction answered, before a new command.
    public func forgetInterrupts() {
        for kept in lock.withLock({ Array(stores.values) }) { kept.store.forgetInterrupt() }
        PipeWait.forget()
    }

    /// Closes every store (`open` of another file, the end of the REPL).
    public func closeAll() {
        let closing = lock.withLock {
            defer { stores.removeAll() }
            return stores.values.map(\.store)
        }
        Self.close(closing, checkpointingWriters: false)
    }

    /// Closes readers first: in WAL mode the last connection to close moves
    /// the changes into the file and removes the -wal, which only a writer
    /// can. `checkpointingWriters`: each writer checkpoints first, for a
    /// file since moved, which SQLite does not checkpoint as it closes.
    private static func close(_ stores: [CacheStore], checkpointingWriters: Bool) {
        for store in stores where store.access == .readOnly { try? store.close() }
        for store in stores where store.access == .readWrite {
            if checkpointingWriters { try? store.checkpoint() }
            try? store.close()
        }
    }
}
