import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes to a file descriptor through a buffer, so that streaming a million
/// keys makes few system calls.
///
/// While held (``hold()``), what the descriptor takes without waiting is
/// written; once it would wait, the rest goes to an ``OutputSpool`` and
/// reaches the descriptor at ``release()``: a command reading the file
/// holds its output for as long as the read lasts, so that a reader of the
/// output that stalls (a pager on its first page, a slow pipe) never keeps
/// the read, and its lock, open, while one that keeps up (`| head`, `| jq`)
/// gets it as it comes.
public final class FileDescriptorSink: TextSink {
    private let fileDescriptor: Int32
    private let bufferSize: Int
    private var buffer: [UInt8] = []
    /// The errno of the first write that failed; output is dropped from then on.
    private var writeError: Int32?
    /// Called when a write finds the reader gone (EPIPE: SIGPIPE is
    /// ignored, or the sink is a pager's pipe).
    public var onReaderGone: (() -> Void)?
    /// Called once, before the first bytes are written (a pager starts then).
    var beforeFirstWrite: (() -> Void)?
    /// Output held back, and how many holds are open.
    private var spool: OutputSpool?
    private var holds = 0
    private let spoolMemoryLimit: Int

    /// The errno of a failed write since the last call, if any.
    func takeWriteError() -> Int32? {
        defer { writeError = nil }
        return writeError
    }

    /// `spoolMemoryLimit`: how much held output stays in memory before the
    /// rest goes to a temporary file.
    public init(fileDescriptor: Int32, bufferSize: Int, spoolMemoryLimit: Int = 8 << 20) {
        self.fileDescriptor = fileDescriptor
        self.bufferSize = bufferSize
        self.spoolMemoryLimit = spoolMemoryLimit
        buffer.reserveCapacity(bufferSize)
    }

    deinit {
        holds = 0
        releaseSpool()
        flush()
    }

    /// Whether the descriptor is a pipe or a socket, whose reader may stall
    /// for as long as it likes; a file or a terminal takes output at once.
    lazy var readerMayStall: Bool = {
        var info = stat()
        guard fstat(fileDescriptor, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFIFO || kind == S_IFSOCK
    }()

    /// Holds what is written from now on until as many ``release()``s,
    /// when a reader of the descriptor may stall; otherwise does nothing.
    public func hold() {
        guard readerMayStall else { return }
        holds += 1
        if spool == nil { spool = OutputSpool(memoryLimit: spoolMemoryLimit) }
    }

    /// Ends a ``hold()``; the last one writes what was held.
    public func release() {
        guard holds > 0 else { return }
        holds -= 1
        if holds == 0 { releaseSpool() }
    }

    /// Whether the last text written ended other than with a line break
    /// (`keys -z`): a prompt after it would follow it on its line.
    public private(set) var endsMidLine = false

    public func write(_ text: String) {
        if let last = text.utf8.last { endsMidLine = last != UInt8(ascii: "\n") }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= bufferSize { flush() }
    }

    public func flush() {
        if let spool {
            if writeError != nil {
                buffer.removeAll(keepingCapacity: true)
                return
            }
            // Held: what the reader takes at once goes to it (`| head` still
            // ends the command early, a pager shows its first page); once it
            // stalls, the rest waits in the spool, in order, until release.
            if spool.isEmpty { writeBuffer(onlyWithoutWaiting: true) }
            if buffer.isEmpty { return }
            if readerIsGone() {
                writeBuffer()  // fails as EPIPE, and says so
                return
            }
            // One that cannot take more (the disk is full) lets go at once:
            // the output matters more than the lock.
            if spool.append(buffer) {
                buffer.removeAll(keepingCapacity: true)
                return
            }
            holds = 0
            releaseSpool()
        }
        writeBuffer()
    }

    /// What a pipe that polls writable takes in one write without waiting (PIPE_BUF).
    private static let atomicPipeWrite = 4096

    /// Whether the descriptor's reader has closed its end (a pipe polls as
    /// an error then).
    private func readerIsGone() -> Bool {
        var state = pollfd(fd: fileDescriptor, events: 0, revents: 0)
        return poll(&state, 1, 0) == 1 && state.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Writes what the spool holds, then what the buffer does, and ends the holding.
    private func releaseSpool() {
        guard let spool else { return }
        self.spool = nil
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        spool.drain { chunk in
            buffer.append(contentsOf: chunk)
            writeBuffer()
        }
        buffer.append(contentsOf: pending)
        writeBuffer()
    }

    /// Writes the buffer to the descriptor; output is dropped once a write
    /// fails. `onlyWithoutWaiting`: only what the descriptor takes without
    /// waiting, a pipe's atomic size at a time; the rest stays in the buffer.
    private func writeBuffer(onlyWithoutWaiting: Bool = false) {
        if !buffer.isEmpty, let first = beforeFirstWrite {
            beforeFirstWrite = nil
            first()
        }
        var offset = 0
        while offset < buffer.count && writeError == nil {
            var end = buffer.count
            if onlyWithoutWaiting {
                var ready = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                guard poll(&ready, 1, 0) == 1, ready.revents & Int16(POLLOUT | POLLERR) != 0 else { break }
                end = min(buffer.count, offset + Self.atomicPipeWrite)
            }
            let written = buffer[offset..<end].withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if written <= 0 {
                if written < 0 && errno == EINTR { continue }
                writeError = written < 0 ? errno : EIO
                if writeError == EPIPE { onReaderGone?() }
                break
            }
            offset += written
        }
        buffer.removeFirst(writeError == nil ? offset : buffer.count)
    }
}
