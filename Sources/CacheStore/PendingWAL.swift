import Foundation

/// Changes committed to a `-wal` file that are not yet copied
/// (checkpointed) into the database file.
public struct PendingWAL: Equatable, Sendable {
    /// WAL frames (page images) not yet checkpointed.
    public let frames: Int
    /// The size of the -wal file.
    public let walBytes: Int64
    /// The -wal file: beside the file the path names, or, where the path
    /// is a symbolic link, beside the file it leads to, where SQLite keeps it.
    public let walPath: String
    /// Another process (the app) has the file open in WAL mode, and will
    /// checkpoint the changes in time or when it closes the file: normal.
    /// False when none has: the file was not closed cleanly. Nil when that
    /// cannot be told (no -shm file, or a file system without POSIX locks).
    public var isOpenElsewhere: Bool?
    /// The -wal file's last commit, when it does not fit the file (read once, with the whole -wal file).
    var misfit: ForeignWAL?
    /// Why the -wal file cannot be this file's, when it cannot: it came
    /// from another copy of the cache, and SQLite cannot copy it in (see
    /// ``ForeignWAL``).
    public var foreignBecause: String? { misfit.flatMap { $0.fileIsCutShort ? nil : $0.reason } }
    /// Why the -wal file, though it may be the file's own, cannot make up
    /// the pages of a file cut short (see ``ForeignWAL/fileIsCutShort``).
    public var cutShortBecause: String? { misfit.flatMap { $0.fileIsCutShort ? $0.reason : nil } }

    /// Reads the -wal file beside `path` and, when there is one, its -shm
    /// index: nil when there is no -wal file or every frame in it has been
    /// checkpointed. Without a -shm file, the frames of the -wal file's
    /// current generation that end in a commit are counted.
    static func inspect(path: String) -> PendingWAL? {
        guard var pending = framesNotCheckpointed(path: path) else { return nil }
        // Each connection that has the file open in WAL mode holds a shared
        // lock on the -shm file's "DMS" byte, 128 (after the 120 bytes of
        // the index header and the 8 bytes of SQLite's WAL locks), as long
        // as it is open: SQLite's own test for whether it is the last one.
        pending.isOpenElsewhere = OpenStoreFiles.shared.anotherProcessLocks(FileProbe.resolved(path) + "-shm", offset: 128)
        pending.misfit = ForeignWAL.check(path)
        return pending
    }

    private static func framesNotCheckpointed(path: String) -> PendingWAL? {
        // Only headers are read: a -wal file may be large.
        let named = path
        let path = FileProbe.resolved(path)
        let walPath = (FileProbe.isSymbolicLink(named) ? path : named) + "-wal"
        guard let wal = FileHandle(forReadingAtPath: path + "-wal") else { return nil }
        defer { try? wal.close() }
        let walBytes = Int64((try? wal.seekToEnd()) ?? 0)
        guard walBytes >= 32, let header = read(wal, at: 0, count: 32) else { return nil }
        let magic = bigEndian32(header, 0)
        guard isWALMagic(magic) else { return nil }
        // The -shm file is read as the store's own connection holds its locks (``OpenStoreFiles``).
        if case .success(let bytes) = OpenStoreFiles.shared.read(path + "-shm", count: 136), bytes.count == 136 {
            let index = Data(bytes)
            if index[12] != 0 {
                // WalIndexHdr.mxFrame (offset 16) and WalCkptInfo.nBackfill (offset 96), native byte order.
                let maxFrame = native32(index, 16)
                let backfilled = native32(index, 96)
                guard maxFrame > backfilled else { return nil }
                return PendingWAL(frames: Int(maxFrame - backfilled), walBytes: walBytes, walPath: walPath)
            }
        }
        let pageSize = Int64(bigEndian32(header, 8))
        guard pageSize >= 512 else { return nil }
        let salt = (bigEndian32(header, 16), bigEndian32(header, 20))
        var frame = 0
        var committed = 0
        var offset: Int64 = 32
        while offset + 24 + pageSize <= walBytes, let frameHeader = read(wal, at: offset, count: 24) {
            guard bigEndian32(frameHeader, 8) == salt.0, bigEndian32(frameHeader, 12) == salt.1 else { break }
            frame += 1
            if bigEndian32(frameHeader, 4) != 0 { committed = frame }
            offset += 24 + pageSize
        }
        return committed > 0 ? PendingWAL(frames: committed, walBytes: walBytes, walPath: walPath) : nil
    }

    /// The first four bytes of a -wal file, big-endian: its checksums' byte order in the last bit.
    static func isWALMagic(_ magic: UInt32) -> Bool { magic == 0x377f_0682 || magic == 0x377f_0683 }

    private static func read(_ handle: FileHandle, at offset: Int64, count: Int) -> Data? {
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
            let data = try? handle.read(upToCount: count), data.count == count
        else { return nil }
        return data
    }

    static func bigEndian32(_ data: Data, _ offset: Int) -> UInt32 {
        let start = data.startIndex + offset
        return data[start..<start + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func native32(_ data: Data, _ offset: Int) -> UInt32 {
        let start = data.startIndex + offset
        return data[start..<start + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
}

extension CacheStore {
    /// Committed changes in the -wal file beside the cache that are not yet
    /// in the database file; nil when there are none.
    public func pendingWAL() -> PendingWAL? { PendingWAL.inspect(path: path) }
}

/// The -wal files this process wrote changes to or found whole, by the
/// real path of their cache: what such a file holds is explained, also to
/// a store opened after another of this process wrote (the REPL opens one
/// for each set of options). Each is known by its inode and the header
/// fields SQLite draws anew for each generation of the file (its
/// checkpoint sequence and salts): one copied over it, or put in its
/// place, is another, and is checked again.
final class VouchedWALs: @unchecked Sendable {
    static let shared = VouchedWALs()
    private let lock = NSLock()
    private var known: [String: Identity] = [:]

    struct Identity: Equatable {
        let inode: UInt64
        let generation: [UInt8]
    }

    /// The -wal file beside the cache at `path` (real), as it is now; nil without one.
    static func identity(ofWALBeside path: String) -> Identity? {
        let wal = path + "-wal"
        guard let inode = FileProbe.signature(wal)?.inode, let handle = FileHandle(forReadingAtPath: wal) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 24), header.count == 24 else { return nil }
        return Identity(inode: inode, generation: Array(header[12..<24]))
    }

    /// Whether the -wal file beside `path` (real) is the one vouched for.
    func vouches(forWALBeside path: String) -> Bool {
        guard let now = Self.identity(ofWALBeside: path) else { return false }
        return lock.withLock { known[path] == now }
    }

    /// The -wal file beside `path` (real), as it is now, holds what this process wrote or checked.
    func vouch(forWALBeside path: String) {
        guard let now = Self.identity(ofWALBeside: path) else { return }
        lock.withLock { known[path] = now }
    }
}
