import Foundation

/// Checks a path before SQLite sees it, so that a missing file is never
/// created and a non-SQLite file is described rather than misread.
public enum FileProbe {
    static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

    /// True when `bytes` begin as an SQLite database does.
    public static func startsAsSQLite(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.starts(with: sqliteHeader)
    }

    /// True when `path` is a readable file that begins as an SQLite database does.
    /// Only a regular file is read: opening a named pipe would wait for a
    /// writer, and a device may be anything.
    public static func isSQLiteFile(atPath path: String) -> Bool {
        guard regularFileSize(atPath: path) != nil else { return false }
        guard case .success(let head) = OpenStoreFiles.shared.read(path, count: sqliteHeader.count) else { return false }
        return startsAsSQLite(head)
    }

    /// What `path` is when it belongs to an SQLite database without being
    /// one: a write-ahead log or a rollback journal by its first bytes
    /// (renamed or not), or by its name the `-wal`, `-shm` or `-journal`
    /// file of an SQLite database beside it; through symbolic links, what
    /// the file they lead to is. Nil for any other path. Replacing such a
    /// file loses the database's committed changes, or the means to roll
    /// back a half-done write.
    public static func sqliteSideFile(atPath path: String) -> String? {
        if regularFileSize(atPath: path) != nil, case .success(let head) = OpenStoreFiles.shared.read(path, count: 8) {
            if head.count >= 4, PendingWAL.isWALMagic(head.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }) {
                return "an SQLite write-ahead log (a database's -wal file)"
            }
            if Array(head) == ForeignJournal.magic { return "an SQLite rollback journal (a database's -journal file)" }
        }
        let destination = String(decoding: endOfLinks(path), as: UTF8.self)
        for name in Set([path, destination]) {
            // In any case: a file system that ignores it (APFS, as a rule) finds the file by either.
            for suffix in CacheStore.sideFileSuffixes where name.lowercased().hasSuffix(suffix) {
                let database = String(name.dropLast(suffix.count))
                if isSQLiteFile(atPath: database) { return "the \(suffix) file of the SQLite database \(database)" }
            }
        }
        return nil
    }

    /// The size of `path` when it is a regular file (a symbolic link
    /// followed), else nil: a named pipe, a device or a folder, which
    /// reading could wait on forever or never end.
    public static func regularFileSize(atPath path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int64(status.st_size)
    }

    /// True when `path` is a cache file (or its -shm index) that a store of
    /// this process has open. Such a file is not to be opened for anything
    /// else: closing that descriptor would release the store's locks (see
    /// ``OpenStoreFiles``).
    public static func isHeldByAnOpenStore(_ path: String) -> Bool {
        OpenStoreFiles.shared.isHeld(path)
    }

    /// What stops the way to `path` other than its absence: a loop of
    /// links, a file where a folder should be, a name too long, a folder
    /// that may not be searched. Nil when it is there, or simply missing.
    public static func whyUnreachable(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) != 0 else { return nil }
        let code = errno
        return code == ENOENT ? nil : "cannot reach the file (\(String(cString: strerror(code))))"
    }

    /// The failure of a write to the database at `path` that has a side
    /// file this process may not write (`-wal`, `-journal`, `-shm`, left
    /// by an app run as another user): named, with its owner and mode, as
    /// the file or its folder are not at fault. Nil when there is none.
    static func unwritableSideFile(of path: String) -> CacheStoreError? {
        let file = resolved(path)
        for suffix in CacheStore.sideFileSuffixes {
            var info = stat()
            guard lstat(file + suffix, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(file + suffix, W_OK) != 0 else { continue }
            let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(info.st_uid)"
            // Named as given, unless given through a link: the file it names is the one beside it.
            return .io(path: (isSymbolicLink(path) ? file : path) + suffix, message: "this user may not write it (owner \(owner), mode \(modeText(info))), "
                + "and SQLite writes it to change \((file as NSString).lastPathComponent); run the command as \(owner), "
                + "or let this user write it; nothing was changed")
        }
        return nil
    }

    /// A file's permissions as `ls -l` users write them in octal: `0644`.
    static func modeText(_ info: stat) -> String { "0" + String(info.st_mode & 0o7777, radix: 8) }

    /// Why a write beside `path` may have failed where SQLite says only
    /// "disk I/O error": the disk holding it is full, or the process may
    /// not write files past a size (`ulimit -f`); nil when neither holds.
    /// The disk counts as full also with less room than the file itself
    /// takes: a write's `-journal` holds a copy of each page it changes
    /// (a backup, of all of them), and once the failed write is rolled
    /// back, the journal it could not finish has given its room back.
    static func writeLimit(near path: String) -> String? {
        var disk = statvfs()
        let file = resolved(path)
        let folder = (file as NSString).deletingLastPathComponent
        if statvfs(folder.isEmpty ? "." : folder, &disk) == 0 {
            let free = UInt64(disk.f_bavail) * UInt64(disk.f_frsize)
            if free < 1 << 20 { return "the disk is full" }
            var info = stat()
            if stat(file, &info) == 0, info.st_size > 0, free < UInt64(info.st_size) {
                func mebibytes(_ bytes: UInt64) -> String { String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
                return "the disk is full: \(mebibytes(free)) free, less than the file's own \(mebibytes(UInt64(info.st_size))), "
                    + "as much as a write's journal or a copy may need"
            }
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            return "a file may not grow past \(limit.rlim_cur) bytes here (ulimit -f)"
        }
        return nil
    }

    /// Why a file whose mode has no write bit (0444) is not written to:
    /// root could write it, as sqlite3 run as root does, but the mode says
    /// the file is to be kept as it is, and a command run as another user
    /// could not. Nil for a file with a write bit.
    static func writeProtection(_ path: String) -> String? {
        var info = stat()
        guard stat(resolved(path), &info) == 0, info.st_mode & 0o222 == 0 else { return nil }
        return "the file is write-protected (mode \(modeText(info))); "
            + "make it writable (chmod u+w) to change it; nothing was changed"
    }

    static func checkIsSQLite(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            if let why = whyUnreachable(path) { throw CacheStoreError.io(path: path, message: why) }
            throw CacheStoreError.fileNotFound(path: path)
        }
        guard !isDirectory.boolValue else { throw CacheStoreError.io(path: path, message: "is a directory") }
        // Opening a named pipe waits for a writer, forever if none comes.
        var status = stat()
        if stat(path, &status) == 0, [S_IFIFO, S_IFSOCK].contains(status.st_mode & S_IFMT) {
            throw CacheStoreError.io(path: path, message: "is a named pipe or socket, not a file")
        }
        // /dev/null reads as empty, which would be called an empty cache file.
        if stat(path, &status) == 0, [S_IFCHR, S_IFBLK].contains(status.st_mode & S_IFMT) {
            throw CacheStoreError.io(path: path, message: "is a device, not a file")
        }
        let head: Data
        switch OpenStoreFiles.shared.read(path, count: 512) {
        case .success(let bytes): head = Data(bytes)
        case .failure(let error) where [.EACCES, .EPERM].contains(error.code):
            throw CacheStoreError.io(path: path, message: "cannot open for reading (permission denied)")
        case .failure(let error):
            throw CacheStoreError.io(path: path, message: "cannot read (\(String(cString: strerror(error.code.rawValue))))")
        }
        guard !head.isEmpty else { throw CacheStoreError.notACacheFile(path: path, reason: .empty) }
        guard startsAsSQLite(head) else {
            // The first 512 bytes may end inside a multi-byte character: allow a cut of up to 3 bytes.
            let looksLikeText = !head.contains(0)
                && (0...min(3, head.count - 1)).contains { String(data: head.dropLast($0), encoding: .utf8) != nil }
            throw CacheStoreError.notACacheFile(path: path, reason: .notSQLite(looksLikeText: looksLikeText))
        }
    }

    /// True when a -wal or -shm file sits beside the database.
    static func hasWALSideFiles(_ path: String) -> Bool {
        let file = resolved(path)
        return FileManager.default.fileExists(atPath: file + "-wal") || FileManager.default.fileExists(atPath: file + "-shm")
    }

    /// Why the file at `path` cannot be worked with when its real path
    /// (links followed, the folders' real names) is not UTF-8 text: that
    /// path, as a String, would name another file, and SQLite's -journal
    /// and -wal beside it, and a backup, would be looked for or made there.
    /// Nil when it is UTF-8, or when there is no such file yet.
    static func nonUTF8RealPath(_ path: String) -> String? {
        var bytes: [UInt8]
        if let real = realpath(path, nil) {
            bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(real).assumingMemoryBound(to: UInt8.self), count: strlen(real)))
            free(real)
        } else {
            // A link to no file yet (--create would make it), or a chain of them.
            bytes = endOfLinks(path)
            guard bytes != Array(path.utf8) else { return nil }
        }
        guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
        let shown = bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
        return "its real path, \(shown), is not UTF-8 text, by which the files SQLite keeps beside it would be missed; "
            + "rename the file (or its folder) to UTF-8"
    }

    /// Where the chain of symbolic links that starts at `path` ends (at
    /// most 40, as the kernel follows), made or not, as bytes, so that a
    /// name that is not UTF-8 stays as it is; `path` when it is no link.
    /// A relative target is in the folder of the link that names it.
    public static func endOfLinks(_ path: String) -> [UInt8] {
        var current = Array(path.utf8)
        for _ in 0..<40 {
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = buffer.withUnsafeMutableBufferPointer { target in
                (current + [0]).withUnsafeBufferPointer { link in
                    readlink(UnsafeRawPointer(link.baseAddress!).assumingMemoryBound(to: CChar.self),
                             UnsafeMutableRawPointer(target.baseAddress!).assumingMemoryBound(to: CChar.self), target.count - 1)
                }
            }
            guard count > 0 else { break }
            var target = Array(buffer.prefix(count))
            if target.first != UInt8(ascii: "/"), let slash = current.lastIndex(of: UInt8(ascii: "/")) { target = Array(current[...slash]) + target }
            current = target
        }
        return current
    }

    /// Why a file SQLite keeps beside `path` (`-journal`, `-wal`, `-shm`)
    /// cannot be used, when it is there and is not a regular file: SQLite
    /// would wait for ever on a FIFO, and take a device for a journal.
    /// A `-journal` or `-wal` that is a symbolic link SQLite does not open
    /// at all (whatever it names), so no write can be made: said for a
    /// `writing` open, and for a read when it names a file with bytes in
    /// it, which SQLite takes for an unfinished write's journal.
    static func sideFileProblem(_ path: String, writing: Bool) -> String? {
        let file = resolved(path)
        for suffix in CacheStore.sideFileSuffixes {
            let name = (file as NSString).lastPathComponent + suffix
            var named = stat()
            if suffix != "-shm", isSymbolicLink(file + suffix), writing || (stat(file + suffix, &named) == 0 && named.st_size > 0) {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: file + suffix)).map { " (to \(JSONWriter.quoted($0, asStored: false)))" } ?? ""
                return "its \(suffix) beside it is a symbolic link\(target), which SQLite does not open, so no write can be made and "
                    + "it is taken for an unfinished write's; remove \(name) (the link) if nothing else uses it"
            }
            var status = stat()
            guard stat(file + suffix, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG else { continue }
            let kind = (status.st_mode & S_IFMT) == S_IFIFO ? "a FIFO" : (status.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "a device or socket"
            return "its \(suffix) beside it is \(kind), not a file SQLite can use (it would wait on it, or fail); "
                + "remove \((file as NSString).lastPathComponent + suffix) if nothing else uses it"
        }
        return nil
    }

    /// The file `path` names, symbolic links followed, as SQLite opens it:
    /// its -wal, -shm and -journal files sit beside that file, not beside
    /// a link to it. `path` itself when it cannot be resolved.
    public static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Whether `path` itself is a symbolic link.
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// True when the header says the file is in WAL mode (format bytes 18 and 19 are 2).
    static func isWALMode(_ path: String) -> Bool {
        guard case .success(let head) = OpenStoreFiles.shared.read(path, count: 20) else { return false }
        return head.count == 20 && head[18] == 2 && head[19] == 2
    }

    /// The file's size and the size its header gives (page count × page
    /// size) when the file is shorter: cut short by a copy that stopped, a
    /// full disk or `head -c`. Nil when it is not, or the header's count is
    /// not kept up to date (an old SQLite that did not write it).
    static func truncation(_ path: String) -> (size: Int64, expected: Int64)? {
        guard case .success(let head) = OpenStoreFiles.shared.read(path, count: 100), head.count == 100 else { return nil }
        func bigEndian(_ offset: Int, _ count: Int) -> Int64 { head[offset..<offset + count].reduce(0) { $0 << 8 | Int64($1) } }
        let rawPageSize = bigEndian(16, 2)
        let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
        // The page count is valid only when the change counter matches "version-valid-for".
        guard pageSize >= 512, bigEndian(24, 4) == bigEndian(92, 4), let size = signature(path)?.size else { return nil }
        let expected = bigEndian(28, 4) * pageSize
        return size < expected ? (size, expected) : nil
    }

    /// What changes when another process opens or writes a file: its size,
    /// modification time and inode, and whether a -wal or -shm file sits
    /// beside it. Nil when the file cannot be examined.
    struct Signature: Equatable {
        let size: Int64
        let seconds: Int
        let nanoseconds: Int
        let inode: UInt64
        let hasSideFiles: Bool
    }

    static func signature(_ path: String) -> Signature? {
        let file = resolved(path)
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        return Signature(
            size: Int64(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec),
            inode: UInt64(info.st_ino), hasSideFiles: hasWALSideFiles(path))
    }
}
