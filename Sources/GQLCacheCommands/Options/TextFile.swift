import CacheStore
import Foundation

/// Text files named on the command line: documents, schemas, variables.
enum TextFile {
    /// The file's text, or a failure that says why it cannot be had, naming
    /// it `name` (the path when not given): an I/O failure when the bytes
    /// cannot be read (missing, a directory, unreadable), a usage error when
    /// they are not UTF-8 text, as for a document or JSON that does not parse.
    static func read(_ path: String, what: String, name: String? = nil) throws -> String {
        let name = name ?? path
        // "gqlcache: : no such file" would name nothing.
        if path.isEmpty { throw CommandFailure(.usage, "an empty name was given for the \(what); name a file") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure(.io, "\(name): \(FileProbe.whyUnreachable(path) ?? "no such file")")
        }
        guard !isDirectory.boolValue else { throw CommandFailure(.io, "\(name): is a directory, not the \(what)") }
        if FileProbe.isHeldByAnOpenStore(path) {
            throw CommandFailure(.usage, "\(name): the \(what) is not UTF-8 text (it is a cache file open in this session)")
        }
        // Read as a stream, not by its size: a pipe (a shell's <(…), a
        // named pipe, /dev/stdin) has none.
        let pipe = PipeWait.isPipe(path) ? try PipeWait.openPipe(path, name: name) : nil
        if pipe == -1 { throw CommandFailure(.io, "\(name): cannot read the \(what) (\(String(cString: strerror(errno))))") }
        guard let handle = pipe.map({ FileHandle(fileDescriptor: $0, closeOnDealloc: true) }) ?? FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(.io, "\(name): cannot read the \(what) (\(String(cString: strerror(errno))))")
        }
        defer { try? handle.close() }
        return try read(handle, what: what, name: name)
    }

    /// The text read from `handle` to its end (a file, a pipe, standard
    /// input), refused as in ``read(_:what:name:)``.
    static func read(_ handle: FileHandle, what: String, name: String) throws -> String {
        // Read a piece at a time: a NUL byte, which no GraphQL or JSON text
        // holds, ends the read there (/dev/zero, or a binary file, would
        // otherwise fill memory before the parse could say it is no text).
        var data = Data()
        do {
            while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
                if let nul = piece.firstIndex(of: 0) {
                    // UTF-16 and UTF-32 hold NUL bytes in every ASCII character.
                    if let named = otherForm(data.isEmpty ? piece : data, what: what, name: name) { throw named }
                    throw CommandFailure(.usage, "\(name): the \(what) is not text (it holds a NUL byte, at byte \(data.count + nul - piece.startIndex))")
                }
                data.append(piece)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(.io, "\(name): cannot read the \(what) (\(systemReason(error)))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw notUTF8(data, what: what, name: name) }
        return text
    }

    /// What the system said of a failed read (`Bad file descriptor`, for a
    /// closed standard input), rather than Foundation's wrapping of it.
    static func systemReason(_ error: Error) -> String {
        let wrapped = error as NSError
        if let underlying = wrapped.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return wrapped.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(wrapped.code))) : wrapped.localizedDescription
    }

    /// The input named for what it is by its first bytes (`head`) when it
    /// is an SQLite database, or UTF-16 or UTF-32 text; nil otherwise.
    private static func otherForm(_ head: Data, what: String, name: String) -> CommandFailure? {
        if FileProbe.startsAsSQLite(head) { return CommandFailure(.usage, "\(name): the \(what) is not UTF-8 text (it is an SQLite database)") }
        if let form = FileLines.otherForm(of: Array(head.prefix(4))[...], named: name), form.hasPrefix("UTF-") {
            return CommandFailure(.usage, "\(name): the \(what) is not UTF-8 text: it is \(form)")
        }
        return nil
    }

    /// Why `data` is no UTF-8 text: named for what it is (``otherForm(_:what:name:)``),
    /// else the first byte that is not UTF-8 placed by line, as an export's line is.
    private static func notUTF8(_ data: Data, what: String, name: String) -> CommandFailure {
        if let named = otherForm(data, what: what, name: name) { return named }
        let bytes = [UInt8](data)
        let offset = StreamLines.firstInvalidOffset(bytes[...])
        let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = bytes[..<lineStart].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return CommandFailure(.usage, "\(name):\(line): the \(what) is not UTF-8 text at byte \(offset - lineStart + 1) of the line")
    }
}
