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

    func testHeldOutputReachesAPipeOnlyAtReleaseInOrderThroughATemporaryFile() throws {
        let (readEnd, writeEnd) = makePipe()
        defer { close(readEnd); close(writeEnd) }
        // A small buffer and spool: most of it goes through the temporary file.
        let sink = FileDescriptorSink(fileDescriptor: writeEnd, bufferSize: 16, spoolMemoryLimit: 64)
        sink.hold()
        sink.hold()
        var expected = ""
        for line in 0..<500 {
            sink.write("line \(line)\n")
            expected += "line \(line)\n"
        }
        sink.flush()
        sink.release()
        XCTAssertEqual(drain(readEnd), "", "nothing before the last release")
        sink.write("after\n")
        sink.release()
        XCTAssertEqual(drain(readEnd), expected + "after\n")
        sink.write("direct\n")
        sink.flush()
        XCTAssertEqual(drain(readEnd), "direct\n", "no hold: written as it comes")
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
        // The export's 300 KB cannot all fit in the pipe. Once output arrives,
        // a held export has ended its read; one that was not held would be
        // stuck inside it, with its lock, until the pipe is read.
        var ready = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&ready, 1, 30_000), 1, "no output came")
        let attempt = try runProgram("/usr/bin/sqlite3", [cache, "UPDATE records SET record = '{\"name\":\"app\"}' WHERE key = 'User:1'"])
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
