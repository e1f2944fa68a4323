import Foundation

/// The bytes a cache occupies on disk.
public struct FileSizes: Equatable, Sendable {
    public let database: Int64
    public let wal: Int64?
    public let shm: Int64?
    public let journal: Int64?

    public var total: Int64 { database + (wal ?? 0) + (shm ?? 0) + (journal ?? 0) }

    /// The bytes that hold records: the database and its -wal file (not the
    /// -shm index or a rollback journal, which SQLite sizes for itself).
    public var recordBytes: Int64 { database + (wal ?? 0) }

    init(path: String) {
        // The file a link names, and the side files beside it, as SQLite keeps them.
        let path = FileProbe.resolved(path)
        func size(_ path: String) -> Int64? {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
        }
        database = size(path) ?? 0
        wal = size(path + "-wal")
        shm = size(path + "-shm")
        journal = size(path + "-journal")
    }
}
