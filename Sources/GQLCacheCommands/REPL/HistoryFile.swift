import CacheStore
import Foundation

/// The REPL's history file: one entry per line, oldest first, the last
/// `limit` entries kept, readable by its owner only (mode 0600).
///
/// A statement typed over several lines is one entry, so Up brings it back
/// whole. GNU readline's own file functions would write its newlines as they
/// are, and the next session would read every line back as an entry of its
/// own (a lone `}` would then run as a command). Readline 8 can join the
/// lines between timestamps instead (`history_multiline_entries`), but it
/// takes any line that starts with `#` and a digit for a timestamp, a
/// GraphQL comment such as `#1 first` included, and it truncates the file by
/// lines, not entries. Joining the lines with spaces would change the
/// statement: a `#` comment runs to the end of its line, and a block string
/// keeps its newlines. So, as psql does, a newline inside an entry is
/// written as U+0001, which is not typed at a prompt, and turned back into a
/// newline when the file is read: the entry comes back exactly as typed.
struct HistoryFile {
    let path: String
    let limit: Int

    private static let newline = "\n"
    private static let newlineInEntry = "\u{1}"

    /// The entries, oldest first; none when there is no file.
    func entries() -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return Self.lines(data).map { $0.replacingOccurrences(of: Self.newlineInEntry, with: Self.newline) }
    }

    /// Why the file is not one to keep history in, or nil: one that is not
    /// a regular file (a FIFO would hold the session before its first
    /// prompt, a device take every line), or that holds a NUL byte, which
    /// no typed line does (a cache file named by mistake, which appending
    /// and keeping the last lines would destroy). A missing file is fine.
    func refusal() -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if (status.st_mode & S_IFMT) == S_IFDIR { return "it is a folder" }
        // /dev/null, as for bash's HISTFILE, takes the lines and gives none back.
        var null = stat()
        if stat("/dev/null", &null) == 0, null.st_rdev == status.st_rdev, null.st_mode == status.st_mode { return nil }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return "it is not a regular file" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        if FileProbe.startsAsSQLite(head) { return "it is an SQLite database, not a history file" }
        if head.contains(0) { return "it holds binary data, not a history file" }
        return nil
    }

    /// Creates the file when there is none, readable by its owner only.
    /// Returns why it cannot be written (its folder is missing or not
    /// writable, say), so that the session can say its commands are not kept.
    func prepare() -> String? {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        close(descriptor)
        return nil
    }

    /// Adds `entry` at the end, then drops the oldest beyond `limit`. A
    /// file whose last line is unfinished (cut short, or edited by hand)
    /// gets its newline first, so that the two entries stay two. An entry
    /// that holds U+0001 itself (typed with Ctrl-V Ctrl-A) is not kept:
    /// read back, it would be two lines, and the second run as a command.
    func append(_ entry: String) {
        guard !entry.contains(Self.newlineInEntry) else { return }
        var line = entry.replacingOccurrences(of: Self.newline, with: Self.newlineInEntry) + Self.newline
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { return }
        var status = stat()
        var last: UInt8 = 0
        if fstat(descriptor, &status) == 0, status.st_size > 0, pread(descriptor, &last, 1, status.st_size - 1) == 1, last != UInt8(ascii: "\n") {
            line = Self.newline + line
        }
        _ = Array(line.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        keepLast()
    }

    /// Rewrites the file with its last `limit` lines when it has more, through
    /// a new file renamed over it, so that it is never seen half written.
    /// A symbolic link (a history kept in a dotfiles folder) is followed,
    /// and stays a link to the file rewritten; the file keeps its mode.
    private func keepLast() {
        guard let data = FileManager.default.contents(atPath: path) else { return }
        let lines = Self.lines(data)
        guard lines.count > limit else { return }
        let kept = Data(lines.suffix(limit).map { $0 + Self.newline }.joined().utf8)
        guard let resolved = realpath(path, nil) else { return }
        let target = String(cString: resolved)
        free(resolved)
        var status = stat()
        let mode = stat(target, &status) == 0 ? status.st_mode & 0o777 : 0o600
        let temporary = target + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { return }
        let written = kept.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        // Set after creation, as the process's umask would narrow a mode given to open.
        let moded = fchmod(descriptor, mode) == 0
        close(descriptor)
        if written != kept.count || !moded || rename(temporary, target) != 0 { unlink(temporary) }
    }

    private static func lines(_ data: Data) -> [String] {
        data.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
}
