import CacheStore
import Foundation
import GQLCacheCommands
import XCTest

/// A command that reads a rollback-journal file holds a lock that keeps
/// the app from committing, and Apollo gives up a write at once. Output
/// to a pipe (a pager, `| ssh`) is held until the read ends, so that a
/// reader who stalls never keeps the lock.
final class HeldOutputTests: CommandTestCase {
    private func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        return (ends[0], ends[1])
    }

    /// Everything the pipe holds now, without waiting.
    private func drain(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Fills the pipe until a write would wait: its reader has stalled.
    private func fill(_ writeEnd: Int32) -> Int {
        let flags = fcntl(writeEnd, F_GETFL)
        _ = fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(writeEnd, F_SETFL, flags) }
        let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        var total = 0
        while true {
            let written = filler.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            guard written > 0 else { return total }
            total += written
        }
    }

    func testHeldOutputGoesThroughWhileTheReaderKeepsUpAndWaitsInOrderOnceItStalls() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd); close(writeEnd) }
        // A small buffer and spool: most of what waits goes through the temporary file.
        let sink = FileDescriptorSink(fileDescriptor: writeEnd, bufferSize: 16, spoolMemoryLimit: 64)
        sink.hold()
        sink.write("taken at once\n")
        sink.flush()
        XCTAssertEqual(drain(readEnd), "taken at once\n", "a reader that keeps up gets the output as it comes")
        let filled = fill(writeEnd)
        sink.hold()
        var expected = ""
        for line in 0..<500 {
            sink.write("line \(line)\n")
            expected += "line \(line)\n"
        }
        sink.flush()
        sink.release()
        XCTAssertEqual(drain(readEnd), String(repeating: ".", count: filled), "nothing but the filler before the last release")
        sink.write("after\n")
        XCTAssertEqual(drain(readEnd), "", "once output waits, what follows waits behind it")
        sink.release()
        XCTAssertEqual(drain(readEnd), expected + "after\n")
        sink.write("direct\n")
        sink.flush()
        XCTAssertEqual(drain(readEnd), "direct\n", "no hold: written as it comes")
    }

    /// `| head`: the reader leaves while output is held; the command hears
    /// of it at its next flush, not after reading the whole file.
    func testAReaderThatLeavesWhileOutputIsHeldIsNoticedAtTheNextFlush() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(writeEnd) }
        let sink = FileDescriptorSink(fileDescriptor: writeEnd, bufferSize: 16, spoolMemoryLimit: 64)
        final class Gone: @unchecked Sendable { var count = 0 }
        let gone = Gone()
        sink.onReaderGone = { gone.count += 1 }
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        _ = fill(writeEnd)
        sink.hold()
        sink.write("waits\n")
        sink.flush()
        close(readEnd)
        sink.write(String(repeating: "x", count: 100))
        sink.flush()
        XCTAssertEqual(gone.count, 1)
        sink.release()
        XCTAssertEqual(gone.count, 1, "said once")
    }

    func testOutputToAFileIsNeverHeld() throws {
        let file = path("out.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: file))
        defer { try? handle.close() }
        let sink = FileDescriptorSink(fileDescriptor: handle.fileDescriptor, bufferSize: 0)
        sink.hold()
        sink.write("at once\n")
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "at once\n")
        sink.release()
    }

    /// export into a pipe nobody reads yet: the app's write, made with no
    /// busy timeout as Apollo makes it, goes through once the read is
    /// done, and the whole export then arrives.
    func testAnExportIntoAStalledPipeLetsTheAppWriteAsSoonAsItsReadEnds() throws {
        let records = (0..<3000).map { Record(key: CacheKey("User:\($0)"), fields: ["name": .string(String(repeating: "n", count: 100))]) }
        let cache = try makeCache("big.sqlite", records)
        XCTAssertEqual(try sqliteShell(cache, "PRAGMA journal_mode"), "delete")
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd) }
        let stderr = StringSink()
        let context = CommandContext(
            stdout: FileDescriptorSink(fileDescriptor: writeEnd, bufferSize: 1 << 16), stderr: stderr, stdin: ScriptedLines([]),
            stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        let done = DispatchSemaphore(value: 0)
        /// The run on its own thread, as the command line's: handed over whole.
        final class Run: @unchecked Sendable {
            let context: CommandContext
            var status: ExitStatus?
            init(_ context: CommandContext) { self.context = context }
        }
        let run = Run(context)
        Thread {
            run.status = GQLCacheMain.run(arguments: ["export", cache], context: run.context)
            close(writeEnd)
            done.signal()
        }.start()
        // Output arriving says the read has begun. The export's 300 KB cannot
        // all fit in the pipe, and nobody reads it: a read that waited for the
        // pipe would keep its lock, and the app's write be refused, for good.
        var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&ready, 1, 30_000), 1, "no output came")
        var attempt = (status: Int32(-1), stdout: "", stderr: "")
        let deadline = Date().addingTimeInterval(20)
        while attempt.status != 0 && Date() < deadline {
            attempt = try runProgram("/usr/bin/sqlite3", [cache, "UPDATE records SET record = '{\"name\":\"app\"}' WHERE key = 'User:1'"])
            if attempt.status != 0 { Thread.sleep(forTimeInterval: 0.05) }
        }
        XCTAssertEqual(attempt.status, 0, "the app's write was refused while the export's output waited in the pipe: \(attempt.stderr)")
        var output = ""
        while done.wait(timeout: .now() + 0.01) == .timedOut { output += drain(readEnd) }
        output += drain(readEnd)
        XCTAssertEqual(run.status, .success, stderr.text)
        let lines = output.split(separator: "\n")
        XCTAssertEqual(lines.count, 3000)
        let user = try XCTUnwrap(lines.first { $0.hasPrefix(#"{"key":"User:1","#) })
        XCTAssertTrue(user.contains(String(repeating: "n", count: 100)), "the export is the file as it was when it was read: \(user)")
    }
}
