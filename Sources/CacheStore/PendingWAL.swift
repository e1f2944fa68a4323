import Foundation

/// Changes committed to a `-wal` file that are not yet copied
/// (checkpointed) into the database file.
public struct PendingWAL: Equatable, Sendable {
    /// WAL frames (page images) not yet checkpointed.
    public let frames: Int
    /// The size of the -wal file.
    public let walBytes: Int64

    /// Reads the -wal file beside `path` and, when there is one, its -shm
    /// index: nil when there is no -wal file or every frame in it has been
    /// checkpointed. Without a -shm file, the frames of the -wal file's
    /// current generation that end in a commit are counted.
    static func inspect(path: String) -> PendingWAL? {
        guard let wal = FileManager.default.contents(atPath: path + "-wal"), wal.count >= 32 else { return nil }
        let magic = bigEndian32(wal, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { return nil }
        if let shm = FileManager.default.contents(atPath: path + "-shm"), shm.count >= 136, shm[12] != 0 {
            // WalIndexHdr.mxFrame (offset 16) and WalCkptInfo.nBackfill (offset 96), native byte order.
            let maxFrame = native32(shm, 16)
            let backfilled = native32(shm, 96)
            guard maxFrame > backfilled else { return nil }
            return PendingWAL(frames: Int(maxFrame - backfilled), walBytes: Int64(wal.count))
        }
        let pageSize = Int(bigEndian32(wal, 8))
        guard pageSize >= 512 else { return nil }
        let salt = (bigEndian32(wal, 16), bigEndian32(wal, 20))
        var frame = 0
        var committed = 0
        var offset = 32
        while offset + 24 + pageSize <= wal.count {
            guard bigEndian32(wal, offset + 8) == salt.0, bigEndian32(wal, offset + 12) == salt.1 else { break }
            frame += 1
            if bigEndian32(wal, offset + 4) != 0 { committed = frame }
            offset += 24 + pageSize
        }
        return committed > 0 ? PendingWAL(frames: committed, walBytes: Int64(wal.count)) : nil
    }

    private static func bigEndian32(_ data: Data, _ offset: Int) -> UInt32 {
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
