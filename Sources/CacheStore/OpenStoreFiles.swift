import Foundation

/// The files this process's open stores hold SQLite's locks on, and reads
/// of them that keep those locks.
///
/// SQLite locks a database (and, in WAL mode, its -shm index) with POSIX
/// advisory locks, which belong to the process, not to a descriptor:
/// closing *any* descriptor of the file releases every lock the process
/// holds on it. A header read through a descriptor of its own, opened and
/// closed while a store has the file open, would leave that store reading
/// without locks: another process could then think itself the last one
/// with the file open and delete the -wal file under it, or write pages
/// under a read transaction. Reads of those files therefore go through a
/// descriptor that is kept, and reused, until no store holds the file.
final class OpenStoreFiles: @unchecked Sendable {
    static let shared = OpenStoreFiles()

    /// A file as the file system names it, whatever path leads to it.
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }

        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            self.init(status)
        }

        init?(descriptor: Int32) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return nil }
            self.init(status)
        }
    }

    private struct Store {
        /// The file SQLite opens (links followed), for its -shm index made later.
        let resolvedPath: String
        /// The database and -shm files as they were when the store opened.
        let files: Set<FileID>
    }

    private let lock = NSLock()
    private var nextToken = 0
    private var stores: [Int: Store] = [:]
    /// Descriptors of held files that were read: closing one would release the locks.
    private var kept: [FileID: Int32] = [:]

    /// Records that a store now has `path` open; the token is for ``closed(_:)``.
    func opened(_ path: String) -> Int {
        let resolved = FileProbe.resolved(path)
        let files = Set([FileID(path: resolved), FileID(path: resolved + "-shm")].compactMap { $0 })
        return lock.withLock {
            nextToken += 1
            stores[nextToken] = Store(resolvedPath: resolved, files: files)
            return nextToken
        }
    }

    /// Records that the store given `token` closed its connection, and
    /// closes the descriptors kept for files no store holds any more.
    func closed(_ token: Int) {
        lock.withLock {
            guard stores.removeValue(forKey: token) != nil else { return }
            let held = heldFiles()
            for (file, descriptor) in kept where !held.contains(file) {
                Foundation.close(descriptor)
                kept[file] = nil
            }
        }
    }

    /// True when `path` is a file an open store of this process holds locks on.
    func isHeld(_ path: String) -> Bool {
        guard let file = FileID(path: path) else { return false }
        return lock.withLock { heldFiles().contains(file) }
    }

    /// Up to `count` bytes of the file at `path` from `offset`, or the
    /// `errno` that kept them from being read. A file an open store holds
    /// is read through a descriptor kept open for it.
    func read(_ path: String, offset: Int64 = 0, count: Int) -> Result<[UInt8], POSIXError> {
        withDescriptor(path) { Self.read($0, offset: offset, count: count) }.flatMap { $0 }
    }

    /// `body` given a read-only descriptor of the file at `path`: the one
    /// kept for a file an open store holds (kept from now on if none was),
    /// else one opened and closed around it; or the `errno` that kept the
    /// file from being opened.
    private func withDescriptor<T>(_ path: String, _ body: (Int32) -> T) -> Result<T, POSIXError> {
        lock.withLock {
            if let file = FileID(path: path), let descriptor = kept[file] { return .success(body(descriptor)) }
            // Non-blocking: opening a named pipe would otherwise wait for a writer.
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor >= 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
            let result = body(descriptor)
            if let file = FileID(descriptor: descriptor), heldFiles().contains(file) {
                kept[file] = descriptor
            } else {
                Foundation.close(descriptor)
            }
            return .success(result)
        }
    }

    /// Whether another process holds a lock on byte `offset` of the file at
    /// `path` (this process's own locks are not seen); nil when that cannot
    /// be told, as for a file that is not there. Asked as ``read(_:offset:count:)``
    /// reads, through the descriptor kept for a file an open store holds.
    func anotherProcessLocks(_ path: String, offset: Int64) -> Bool? {
        (try? withDescriptor(path) { Self.anotherProcessLocks($0, offset: offset) }.get()) ?? nil
    }

    private static func anotherProcessLocks(_ descriptor: Int32, offset: Int64) -> Bool? {
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = off_t(offset)
        probe.l_len = 1
        guard fcntl(descriptor, F_GETLK, &probe) == 0 else { return nil }
        return probe.l_type != Int16(F_UNLCK)
    }

    /// The files open stores hold: each one's database and -shm as when it
    /// opened, and the -shm there is now (made once the file turned to WAL).
    /// Called with the lock held.
    private func heldFiles() -> Set<FileID> {
        var files = Set<FileID>()
        for store in stores.values {
            files.formUnion(store.files)
            if let index = FileID(path: store.resolvedPath + "-shm") { files.insert(index) }
        }
        return files
    }

    private static func read(_ descriptor: Int32, offset: Int64, count: Int) -> Result<[UInt8], POSIXError> {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                // A directory or a pipe with nothing in it: nothing to read.
                if errno == EISDIR || errno == EAGAIN || errno == ESPIPE { break }
                return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
            if got == 0 { break }
            filled += got
        }
        return .success(Array(bytes.prefix(filled)))
    }
}
