import Foundation
internal import GRDB
internal import GRDBSQLite

/// A copy of the cache to make, with SQLite's online backup API, before a
/// store next changes the file. See ``CacheStore/backUpBeforeNextWrite(_:)``.
public struct BackupRequest {
    /// When the copy is taken: it names the file, `cache.sqlite.backup-YYYYMMDD-HHMMSS`
    /// in the local time zone.
    public let date: Date
    /// Called with the path of the copy once it is complete.
    public let made: (String) -> Void

    public init(date: Date, made: @escaping (String) -> Void) {
        self.date = date
        self.made = made
    }
}

/// The one request a store holds, behind a lock.
final class PendingBackup: @unchecked Sendable {
    private let lock = NSLock()
    private var request: BackupRequest?

    func set(_ request: BackupRequest?) { lock.withLock { self.request = request } }

    func take() -> BackupRequest? {
        lock.withLock {
            defer { request = nil }
            return request
        }
    }
}

enum Backup {
    /// `PATH.backup-YYYYMMDD-HHMMSS`: the name of the copy, before a
    /// suffix (`-2`, `-3`, …) that keeps it from one that exists. Where
    /// `path` is a symbolic link, the copy goes beside the file it names:
    /// `mv` of the copy back over that file restores it, where one over the
    /// link would put a copy in the link's place and leave the file changed.
    static func baseName(besides path: String, date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let file = FileProbe.isSymbolicLink(path) ? FileProbe.resolved(path) : path
        return "\(file).backup-\(formatter.string(from: date))"
    }

    /// `base`, `base-2`, `base-3`, … up to `base-1000`: the names a copy may take.
    private static func names(from base: String) -> some Sequence<String> {
        (1...1000).lazy.map { $0 == 1 ? base : "\(base)-\($0)" }
    }

    /// Creates `base`, or `base-2`, `base-3`, … (the first that does not
    /// exist) empty with `mode`, never overwriting one (O_EXCL), and
    /// returns its path.
    static func createFile(named base: String, mode: mode_t) throws -> String {
        for candidate in names(from: base) {
            let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL, mode)
            if descriptor >= 0 {
                close(descriptor)
                return candidate
            }
            guard errno == EEXIST else { throw cannotCreate(candidate, errno) }
        }
        throw CacheStoreError.io(path: base, message: "cannot find a free name for the backup; nothing was changed")
    }

    /// The failure to create the copy `path`, for the C error `code`.
    static func cannotCreate(_ path: String, _ code: Int32) -> CacheStoreError {
        .io(path: path, message: "cannot create the backup (\(String(cString: strerror(code)))); nothing was changed")
    }

    /// Gives the finished copy at `partial` its name, `base` or the first
    /// free `base-N`: a hard link, which never replaces a file, then the
    /// partial name removed. Where the file system has no hard links, the
    /// name is taken empty (O_EXCL) and the copy renamed over it.
    static func name(_ partial: String, as base: String, mode: mode_t) throws -> String {
        for candidate in names(from: base) {
            if link(partial, candidate) == 0 {
                unlink(partial)
                return candidate
            }
            if errno == EEXIST { continue }
            let reserved = try createFile(named: base, mode: mode)
            guard rename(partial, reserved) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(reserved)
                throw CacheStoreError.io(path: reserved, message: "cannot name the backup (\(reason)); nothing was changed")
            }
            return reserved
        }
        throw CacheStoreError.io(path: base, message: "cannot find a free name for the backup; nothing was changed")
    }

    /// Copies the database at `path`, as committed now, into a new file
    /// beside it, and returns the copy's path. The copy is read through a
    /// connection of its own, in one read transaction, so it is a whole,
    /// consistent database (in the source's journal mode) even while other
    /// connections write. It is written under a `.partial` name, created
    /// with the cache's permissions, and named only once complete: a copy
    /// cut short (a kill, a full disk) never has a backup's name. It gets
    /// the cache's owner and group where this process may give them. On
    /// failure the partial file is removed.
    static func copy(fileAt path: String, busyTimeout: Double, date: Date) throws -> String {
        let base = baseName(besides: path, date: date)
        // The permissions, owner and group of the file a link names (stat
        // follows links), not the link's own.
        var source = stat()
        let sourceFound = stat(path, &source) == 0
        let mode = sourceFound ? source.st_mode & 0o7777 : 0o600
        // `BASE.partial`, or where that name is too long for the folder
        // and the backup's own is not, a short one beside it.
        var partialName = base + ".partial"
        if (partialName as NSString).lastPathComponent.utf8.count > Int(NAME_MAX),
           (base as NSString).lastPathComponent.utf8.count <= Int(NAME_MAX) {
            partialName = (base as NSString).deletingLastPathComponent + "/.gqlcache-backup-\(getpid()).partial"
        }
        let partial = try createFile(named: partialName, mode: mode)
        // And its owner and group, as far as this process may give them
        // (root may): restored with `mv`, the copy opens for the app that
        // owned the file, as SQLite gives its own -journal the file's owner.
        if sourceFound { _ = chown(partial, source.st_uid, source.st_gid) }
        do {
            var sourceConfiguration = Configuration()
            sourceConfiguration.readonly = true
            sourceConfiguration.busyMode = busyTimeout > 0 ? .timeout(busyTimeout) : .immediateError
            sourceConfiguration.label = "gqlcache-backup-source"
            let source = try DatabaseQueue(path: CacheStore.sqliteName(path), configuration: sourceConfiguration)
            var destinationConfiguration = Configuration()
            destinationConfiguration.label = "gqlcache-backup"
            // No -journal for the copy: one cut short is removed, never
            // rolled back, and the journal's longer name may not fit
            // (NAME_MAX) where the copy's does.
            destinationConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = OFF") }
            let copy = try DatabaseQueue(path: CacheStore.sqliteName(partial), configuration: destinationConfiguration)
            try source.backup(to: copy)
            try copy.close()
            try source.close()
        } catch {
            for suffix in [""] + CacheStore.sideFileSuffixes { try? FileManager.default.removeItem(atPath: partial + suffix) }
            // The backup's own failures come with the destination's last
            // message, which may be "not an error": the code says what happened.
            var reason = (error as? DatabaseError).map { error in
                error.message.flatMap { $0 == "not an error" ? nil : $0 }
                    ?? String(cString: sqlite3_errstr(error.extendedResultCode.rawValue))
            } ?? "\(error)"
            if let limit = FileProbe.writeLimit(near: path) { reason += ": \(limit)" }
            throw CacheStoreError.io(path: partial, message: "cannot write the backup (\(reason)); nothing was changed")
        }
        do {
            return try name(partial, as: base, mode: mode)
        } catch {
            unlink(partial)
            throw error
        }
    }
}

extension CacheStore {
    /// Makes the next ``write(_:)`` (or ``vacuum()``) on this store first copy
    /// the whole file beside it with SQLite's online backup API, then call
    /// `request.made` with the copy's path. nil cancels a pending request.
    ///
    /// ```swift
    /// store.backUpBeforeNextWrite(BackupRequest(date: Date()) { path in print("backed up to", path) })
    /// try store.write { tx in try tx.removeObject(for: "Human:1002") }
    /// ```
    ///
    /// The copy is taken once the write transaction holds the write lock and
    /// before anything changes, so it is exactly the state the change
    /// applies to, whatever the app wrote before. `request.made` is called
    /// once the change is committed; a write that changes no row, or rolls
    /// back, removes the copy and calls nothing. It is read in one read
    /// transaction of a second connection (SQLite's backup cannot read
    /// through a connection with a write transaction open), so it is
    /// consistent while the app has the file open, in WAL mode too. When the
    /// copy fails, nothing is written. The name is never one that exists.
    public func backUpBeforeNextWrite(_ request: BackupRequest?) {
        pendingBackup.set(request)
    }

    /// What a backup taken at `date` would fail with before any change,
    /// for a dry run, which takes none: its folder cannot be written. Nil
    /// when it could be made.
    public func refusalOfABackup(date: Date) -> CacheStoreError? {
        let base = Backup.baseName(besides: path, date: date)
        let folder = URL(fileURLWithPath: base).deletingLastPathComponent().path
        guard !FileManager.default.isWritableFile(atPath: folder) else { return nil }
        return Backup.cannotCreate(base, EACCES)
    }

    /// Makes a pending backup, if there is one, and returns the request
    /// with the copy's path, for the caller to announce (or remove).
    func makePendingBackup() throws -> (request: BackupRequest, copy: String)? {
        guard let request = pendingBackup.take() else { return nil }
        // A file this process cannot write is the problem to name, not the
        // copy, which gets the file's permissions and could not be written either.
        guard FileManager.default.isWritableFile(atPath: path) else { throw CacheStoreError.readOnly(path: path) }
        return (request, try Backup.copy(fileAt: path, busyTimeout: busyTimeout, date: request.date))
    }
}
