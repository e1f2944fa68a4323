import Foundation
import CacheStore

/// Output to a named file, written as a temporary file beside it and moved
/// into place by ``commit()``: the file appears whole or not at all, and a
/// failure leaves an existing one as it was. A symbolic link stays a link:
/// the file it points to is the one replaced. What is not a regular file
/// (`/dev/stdout`, a named pipe, a terminal, a link to one) is written to
/// directly, as a shell's `>` does, and never replaced.
final class FileOutput: TextSink {
    let path: String
    /// The temporary file; nil when writing straight to `path`.
    private let temporaryPath: String?
    /// The file the temporary one replaces: `path`, or where its link points.
    private let destination: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: String?
    private var removedOnStop = false
    /// Writing straight to a pipe or device: through a sink that can hold
    /// output back while a read lasts (``CommandContext/holdingOutput(of:while:_:)``),
    /// as standard output does.
    let direct: FileDescriptorSink?

    /// Whether `path` is where standard output already goes (`-o
    /// /dev/stdout`, `/dev/fd/1`): a summary printed there would land in
    /// the data.
    let isStandardOutput: Bool

    /// `removedOnStop`: a signal that ends the process removes the
    /// temporary file first (``StopSignals``), as a command line wants.
    init(path: String, removedOnStop: Bool = false) throws {
        self.path = path
        var status = stat()
        let exists = stat(path, &status) == 0
        var standardOutput = stat()
        isStandardOutput = exists && fstat(STDOUT_FILENO, &standardOutput) == 0
            && standardOutput.st_dev == status.st_dev && standardOutput.st_ino == status.st_ino
        if exists && status.st_mode & S_IFMT == S_IFDIR {
            throw CommandFailure(.io, "\(path): is a folder; name a file to write")
        }
        if exists && status.st_mode & S_IFMT != S_IFREG {
            // A device, pipe or socket (or a link to one): written in place.
            temporaryPath = nil
            destination = path
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw CommandFailure(.io, "\(path): cannot open for writing (\(String(cString: strerror(errno))))")
            }
            direct = FileDescriptorSink(fileDescriptor: descriptor, bufferSize: 1 << 16)
            return
        }
        direct = nil
        destination = FileOutput.linkDestination(of: path)
        // A file the user may not write is not replaced behind its back
        // (the folder allowing it): refused, as a shell's > refuses it.
        if access(destination, F_OK) == 0 && access(destination, W_OK) != 0 {
            throw CommandFailure(.io, "\(path): cannot write the file (\(String(cString: strerror(errno)))); it was left as it was")
        }
        let url = URL(fileURLWithPath: destination)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).gqlcache-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))").path
        temporaryPath = temporary
        // Before the file exists, so that no moment leaves it behind.
        if removedOnStop {
            StopSignals.shared.removeOnStop(temporary)
            self.removedOnStop = true
        }
        // 0666 less the umask, as a shell's > gives.
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            if removedOnStop { StopSignals.shared.forget(temporary) }
            throw CommandFailure(.io, "\(path): cannot create the file (\(String(cString: strerror(errno))))")
        }
        // A file replaced keeps its permissions: an export can be as private as what it replaces.
        // And its owner and group, where this process may give them (as
        // root), as a shell's > writing into it keeps them.
        var replaced = stat()
        if stat(destination, &replaced) == 0, replaced.st_mode & S_IFMT == S_IFREG {
            _ = fchown(descriptor, replaced.st_uid, replaced.st_gid)
            fchmod(descriptor, replaced.st_mode & 0o7777)
        }
        buffer.reserveCapacity(1 << 16)
    }

    /// Where `path` leads through symbolic links (also to a file not made
    /// yet); `path` itself when it is no link.
    private static func linkDestination(of path: String) -> String {
        String(decoding: FileProbe.endOfLinks(path), as: UTF8.self)
    }

    deinit { discard() }

    func write(_ text: String) {
        if let direct { return direct.write(text) }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        if let direct {
            direct.flush()
            if let error = direct.takeWriteError(), failure == nil { failure = String(cString: strerror(error)) }
            return
        }
        var offset = 0
        while offset < buffer.count, failure == nil, descriptor >= 0 {
            let written = buffer[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
            } else {
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and moves the file into place.
    func commit() throws {
        flush()
        if failure == nil && close(descriptor) != 0 { failure = String(cString: strerror(errno)) }
        descriptor = -1
        if failure == nil, let temporaryPath, rename(temporaryPath, destination) != 0 { failure = String(cString: strerror(errno)) }
        if removedOnStop, let temporaryPath, failure == nil { StopSignals.shared.forget(temporaryPath) }
        if let failure {
            discard()
            let outcome = temporaryPath == nil ? "" : "; it was left as it was"
            throw CommandFailure(.io, "\(path): cannot write the file (\(failure))\(outcome)")
        }
    }

    /// Removes the temporary file; an existing file at `path` stays as it was.
    func discard() {
        // What the sink still has goes out before its descriptor closes, never to another file that takes the number.
        if descriptor >= 0, let direct { direct.flush() }
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if let temporaryPath {
            unlink(temporaryPath)
            if removedOnStop { StopSignals.shared.forget(temporaryPath) }
        }
    }

    /// What `output` is when it names the cache file ("the cache file
    /// itself") or one of SQLite's files beside it ("the cache's -wal
    /// file"); nil for any other file.
    /// SQLite's files sit beside the file a link to the cache leads to, and
    /// an output may reach one through links of its own: files that exist
    /// are compared as files, and a path is compared with its folder's
    /// links followed.
    static func cachePart(_ output: String, cache: String) -> String? {
        func sameFile(_ one: String, _ other: String) -> Bool {
            var first = stat(), second = stat()
            return stat(one, &first) == 0 && stat(other, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
        }
        func resolvedPath(_ path: String) -> String {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let folder = FileProbe.resolved(url.deletingLastPathComponent().path)
            return URL(fileURLWithPath: folder).appendingPathComponent(url.lastPathComponent).standardizedFileURL.path
        }
        let realCache = FileProbe.resolved(cache)
        // The file the output is written to: a link's destination, made or not.
        let outputPath = resolvedPath(linkDestination(of: output))
        if sameFile(output, cache) || outputPath == resolvedPath(realCache) { return "the cache file itself" }
        return CacheStore.sideFileSuffixes.first { suffix in
            sameFile(output, realCache + suffix) || outputPath == resolvedPath(realCache + suffix)
        }.map { "the cache's \($0) file, which SQLite keeps beside it" }
    }
}
