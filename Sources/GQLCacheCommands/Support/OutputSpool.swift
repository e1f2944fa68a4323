import Foundation

/// Output kept back for a while: in memory up to a limit, then in a
/// temporary file, removed as soon as it is made, so nothing is left
/// behind whatever ends the process.
final class OutputSpool {
    private let memoryLimit: Int
    private var memory: [UInt8] = []
    /// The temporary file, once memory is full.
    private var file: Int32 = -1

    init(memoryLimit: Int) { self.memoryLimit = memoryLimit }

    deinit { if file >= 0 { close(file) } }

    /// Whether nothing is kept.
    var isEmpty: Bool { memory.isEmpty && file < 0 }

    /// Keeps `bytes`; false when they cannot be kept (no temporary file
    /// can be made or written), and nothing of them was.
    func append(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        if file < 0 && memory.count + bytes.count <= memoryLimit {
            memory.append(contentsOf: bytes)
            return true
        }
        if file < 0 {
            guard let made = Self.makeTemporaryFile() else { return false }
            file = made
        }
        let start = lseek(file, 0, SEEK_END)
        guard writeAll(bytes) else {
            // Cut back to what was whole before, so the spool stays as it was.
            _ = ftruncate(file, start)
            return false
        }
        return true
    }

    /// Hands everything kept to `body`, in order, a piece at a time.
    func drain(_ body: ([UInt8]) -> Void) {
        if !memory.isEmpty { body(memory) }
        memory = []
        guard file >= 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            body(Array(chunk[..<count]))
            offset += off_t(count)
        }
        close(file)
        file = -1
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(file, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// A new file in the temporary folder, already removed from it.
    private static func makeTemporaryFile() -> Int32? {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast()) + Array("gqlcache-output-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return nil }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        // Not handed to a program started meanwhile (an editor, the pager).
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }
}
