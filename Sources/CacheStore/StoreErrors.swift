import Foundation
internal import GRDB

/// Turns SQLite errors into ``CacheStoreError`` values that name the file.
enum StoreErrors {
    static func mapping<T>(path: String, waited: Double, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw translate(error, path: path, waited: waited)
        }
    }

    static func translate(_ error: DatabaseError, path: String, waited: Double) -> CacheStoreError {
        // A regular expression that ICU gave up on, in the SQL function.
        // Taken only for the error the function raised (its message), so that
        // a failure left by a statement whose error went elsewhere is not.
        if error.resultCode == .SQLITE_ERROR, let failure = RegexCache.shared.takeFailure(), error.message == failure.description { return failure }
        switch error.resultCode {
        case .SQLITE_INTERRUPT:
            return .interrupted(path: path)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .busy(path: path, waited: waited)
        case .SQLITE_READONLY where error.extendedResultCode == .SQLITE_READONLY_ROLLBACK:
            return .io(path: path, message: "an interrupted write left a hot -journal file, which must be rolled back before the records can be read; "
                + "a read-only open never writes, so open the file once with the app or sqlite3, which roll it back "
                + "(as a gqlcache command that writes does before its change)")
        case .SQLITE_READONLY where error.extendedResultCode == .SQLITE_READONLY_DBMOVED:
            // Removed or renamed while open: the writer's own file is gone.
            return .io(path: path, message: "the file was removed or replaced while this command had it open "
                + "(by another program, or a failed --create undone); nothing written: run the command again")
        case .SQLITE_READONLY:
            return FileProbe.unwritableSideFile(of: path) ?? .readOnly(path: path)
        case .SQLITE_NOTADB:
            // A file that begins as SQLite's do, yet SQLite refuses: cut
            // short inside its header, a damaged database; with the whole
            // header, maybe a damaged one, maybe one this SQLite cannot read
            // (encrypted, a newer format), which is not to be called damaged.
            guard FileProbe.isSQLiteFile(atPath: FileProbe.resolved(path)), let size = FileProbe.signature(path)?.size else {
                return .notACacheFile(path: path, reason: .notSQLite(looksLikeText: false))
            }
            guard size < 100 else { return .notACacheFile(path: path, reason: .sqliteRefuses) }
            return .corrupt(path: path, message: "\(error.message ?? "file is not a database"); "
                + "the file is cut short: \(size) bytes, less than the 100 bytes of the header")
        case .SQLITE_CORRUPT:
            var message = error.message ?? "malformed"
            if let cut = FileProbe.truncation(path) {
                message += "; \(FileCut(size: cut.size, expected: cut.expected))"
            }
            let wal = FileProbe.signature(FileProbe.resolved(path) + "-wal").map(\.size).flatMap { $0 > 32 ? $0 : nil }
            return .corrupt(path: path, message: message, walBytes: wal)
        case .SQLITE_FULL:
            // SQLite says "database or disk is full" also of a file at a
            // limit of its own: its AUTOINCREMENT counter (every upsert
            // takes an _id) or its max_page_count; or of full temporary space.
            if let limit = FileProbe.writeLimit(near: path) { return .io(path: path, message: limit) }
            return .io(
                path: path,
                message: "SQLite found the database full (\(error.message ?? "database or disk is full")), though its disk has room: "
                    + "the _id counter (sqlite_sequence) may be at its maximum, the file at its max_page_count, "
                    + "or the space for temporary files full")
        case .SQLITE_IOERR:
            // SQLite says no more than "disk I/O error" of a write that met
            // a full disk in WAL mode, or the file-size limit: said when a
            // write failed and one of them holds.
            // A -journal or -wal this user may not write (the app, run as
            // another user, left it): SQLite says only "disk I/O error".
            if let side = FileProbe.unwritableSideFile(of: path) { return side }
            let message = error.message ?? "disk I/O error"
            let writing: [ResultCode] = [.SQLITE_IOERR_WRITE, .SQLITE_IOERR_FSYNC, .SQLITE_IOERR_TRUNCATE, .SQLITE_IOERR_SHMSIZE]
            guard writing.contains(error.extendedResultCode), let limit = FileProbe.writeLimit(near: path) else { return .io(path: path, message: message) }
            return .io(path: path, message: "\(message): \(limit)")
        case .SQLITE_CANTOPEN:
            // A write makes 'NAME-journal' (in WAL mode 'NAME-wal') beside the
            // file: a name that fits, but not with those bytes more, fails the write alone.
            let name = (FileProbe.resolved(path) as NSString).lastPathComponent
            let suffix = FileProbe.isWALMode(path) ? "-wal" : "-journal"
            let longest = Int(NAME_MAX)
            if name.utf8.count <= longest, name.utf8.count + suffix.utf8.count > longest {
                return .io(path: path, message: "cannot write: the file's name is too long for the \(suffix) file SQLite writes beside it "
                    + "(\(name.utf8.count) bytes, with '\(suffix)' \(name.utf8.count + suffix.utf8.count); a name may have \(longest)); "
                    + "give the file a shorter name")
            }
            return .io(path: path, message: "cannot open the database (\(error.message ?? "unable to open"))")
        default:
            return .io(path: path, message: "SQLite error \(error.resultCode.rawValue): \(error.message ?? "unknown")")
        }
    }
}
