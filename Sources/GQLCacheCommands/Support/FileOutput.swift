import Foundation

/// Output to a named file, written as a temporary file beside it and moved
/// into place by ``commit()``: the file appears whole or not at all, and a
/// failure leaves an existing one as it was.
final class FileOutput: TextSink {
    let path: String
    private let temporaryPath: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var failure: String?

    init(path: String) throws {
        self.path = path
        let url = URL(fileURLWithPath: path)
        temporaryPath = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).gqlcache-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))").path
        // 0666 less the umask, as a shell's > gives.
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        guard descriptor >= 0 else {
            throw CommandFailure(.io, "\(path): cannot create the file (\(String(cString: strerror(errno))))")
        }
        buffer.reserveCapacity(1 << 16)
    }

    deinit { discard() }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
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
        if failure == nil && rename(temporaryPath, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            discard()
            throw CommandFailure(.io, "\(path): cannot write the file (\(failure)); it was left as it was")
        }
    }

    /// Removes the temporary file; an existing file at `path` stays as it was.
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(temporaryPath)
    }

    /// True when `output` names the cache file or one of SQLite's files beside it.
    static func isCacheFile(_ output: String, cache: String) -> Bool {
        var outputStat = stat()
        var cacheStat = stat()
        if stat(output, &outputStat) == 0, stat(cache, &cacheStat) == 0,
            outputStat.st_dev == cacheStat.st_dev, outputStat.st_ino == cacheStat.st_ino
        {
            return true
        }
        let outputPath = URL(fileURLWithPath: output).standardizedFileURL.path
        let cachePath = URL(fileURLWithPath: cache).standardizedFileURL.path
        return ["", "-wal", "-shm", "-journal"].contains { outputPath == cachePath + $0 }
    }
}
