import CacheStore
import Foundation
import GQLCacheCommands
import XCTest

/// What one in-process run of the command line gave.
struct CommandResult {
    let status: ExitStatus
    let stdout: String
    let stderr: String

    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// Standard output parsed as one JSON document.
    func json(file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }
}

/// Runs `gqlcache ARGS` in-process, with scripted answers on a pretend
/// terminal when `answers` is given, or `input` on standard input (not a
/// terminal).
func gqlcache(_ arguments: String..., answers: [String]? = nil, input: String? = nil, environment: [String: String] = [:]) -> CommandResult {
    gqlcache(arguments: arguments, answers: answers, input: input, environment: environment)
}

func gqlcache(arguments: [String], answers: [String]? = nil, input: String? = nil, environment: [String: String] = [:]) -> CommandResult {
    let stdout = StringSink()
    let stderr = StringSink()
    let lines = input.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    let context = CommandContext(
        stdout: stdout, stderr: stderr, stdin: ScriptedLines(answers ?? lines ?? []),
        stdinIsTerminal: answers != nil, stdoutIsTerminal: false, environment: environment)
    let status = GQLCacheMain.run(arguments: arguments, context: context)
    return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
}

/// Runs `gqlcache ARGS` in-process on a pretend terminal whose person runs
/// `change` (another process writing the file, say) before answering "y"
/// to the command's question.
func gqlcache(arguments: [String], answeringYesAfter change: @escaping () -> Void) -> CommandResult {
    final class AnswerAfter: LineSource {
        let change: () -> Void
        init(_ change: @escaping () -> Void) { self.change = change }
        func readLine() -> String? {
            change()
            return "y"
        }
    }
    let stdout = StringSink()
    let stderr = StringSink()
    let context = CommandContext(
        stdout: stdout, stderr: stderr, stdin: AnswerAfter(change), stdinIsTerminal: true, stdoutIsTerminal: false, environment: [:])
    let status = GQLCacheMain.run(arguments: arguments, context: context)
    return CommandResult(status: status, stdout: stdout.text, stderr: stderr.text)
}

/// Runs each command line and checks that it fails with `status` and
/// exactly `gqlcache: MESSAGE` on standard error.
func assertEachFails(
    _ cases: [([String], String)], with status: ExitStatus, file: StaticString = #filePath, line: UInt = #line
) {
    for (arguments, message) in cases {
        let result = gqlcache(arguments: arguments)
        XCTAssertEqual(result.status, status, "\(arguments)", file: file, line: line)
        XCTAssertEqual(result.stderr, "gqlcache: \(message)\n", file: file, line: line)
    }
}

/// The shared folder beside the repository.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The Star Wars schema the fixtures were written with, for reads and writes that take `--schema`.
let starWarsSchema = repositoryRoot.appendingPathComponent("Tests/CacheQueryTests/starwars.graphqls").path
let fixturesFolder = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/apollo-ios")

/// A fresh temporary folder per test, removed afterwards.
class CommandTestCase: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gqlcache-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A copy of a fixture in the test's folder; fixtures are never opened in place.
    /// `as`: the copy's name, for a second copy of one fixture. The copy
    /// may be written (the fixtures may be write-protected, and a copy
    /// keeps their mode).
    func copyOfFixture(_ name: String, as copyName: String? = nil) throws -> String {
        let source = fixturesFolder.appendingPathComponent(name)
        let target = folder.appendingPathComponent(copyName ?? name)
        try FileManager.default.copyItem(at: source, to: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        return target.path
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func keys(in path: String) throws -> [String] {
        try CacheStore.open(at: path).read { tx in try tx.keys().map(\.rawValue) }
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Every record of a cache file, as JSON values by key.
    func records(_ path: String) throws -> [String: [String: FieldValue]] {
        try CacheStore.open(at: path).read { tx in
            var records: [String: [String: FieldValue]] = [:]
            try tx.forEachRecord { key, record in records[key.rawValue] = try record.get().fields }
            return records
        }
    }

    /// A copy of a fixture switched to WAL mode by the sqlite3 shell, with
    /// no -wal or -shm file left beside it.
    func walCopyOfFixture(_ name: String) throws -> String {
        let cache = try copyOfFixture(name)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [cache, "PRAGMA journal_mode=WAL;"]
        sqlite.standardOutput = FileHandle.nullDevice
        try sqlite.run()
        sqlite.waitUntilExit()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [name])
        return cache
    }

    /// A cache file holding `records`, written through the store.
    func makeCache(_ name: String, _ records: [Record], raw: [(String, String?)] = []) throws -> String {
        let target = path(name)
        let store = try CacheStore.create(at: target)
        try store.write { tx in
            try tx.merge(records)
            for (key, text) in raw { try tx.unsafeWriteRawRecord(key: CacheKey(key), text: text) }
        }
        return target
    }
}

/// Runs `sql` in the sqlite3 shell on `path` and returns what it printed,
/// trimmed.
@discardableResult
func sqliteShell(_ path: String, _ sql: String, readOnly: Bool = false) throws -> String {
    try runProgram("/usr/bin/sqlite3", (readOnly ? ["-readonly"] : ["-batch"]) + [path, sql])
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs the built gqlcache as another user (nobody), for what root alone
/// may do (write any file); skips the test unless run as root with setpriv.
func runBuiltBinaryAsAnotherUser(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let setpriv = "/usr/bin/setpriv"
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: setpriv) else {
        throw XCTSkip("needs root and setpriv to run the command as another user")
    }
    XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), "build gqlcache first: \(builtBinary)")
    return try runProgram(setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", builtBinary] + arguments)
}

/// Runs a program to its end: its exit status and what it printed on each
/// stream. `environment` nil passes the tests' own; `standardInput` is a
/// file to read from.
func runProgram(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, standardInput: String? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let standardInput { process.standardInput = FileHandle(forReadingAtPath: standardInput) }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Standard error is read beside standard output, so that neither pipe
    // fills while the other is read.
    nonisolated(unsafe) var errorData = Data()
    let finished = DispatchSemaphore(value: 0)
    Thread {
        errorData = errors.fileHandleForReading.readDataToEndOfFile()
        finished.signal()
    }.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    finished.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
}

/// An sqlite3 shell left running on a file after `statements`: another
/// process, as the app is, holding a transaction open on it until
/// ``finish()`` closes the shell's input and waits for it to end.
final class RunningSQLiteShell {
    private let process = Process()
    private let input = Pipe()

    /// `until`: text the statements print once they have run, waited for
    /// (a transaction begun, a lock taken) before the test goes on.
    init(_ path: String, running statements: String, until marker: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [path]
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = marker == nil ? FileHandle.nullDevice : output
        try process.run()
        // A busy timeout: a test polling the file for the lock holds a read
        // lock now and then, and without one the shell's BEGIN EXCLUSIVE
        // would fail at such a moment and never take the lock.
        input.fileHandleForWriting.write(Data((".timeout 5000\n" + statements + "\n").utf8))
        guard let marker else { return }
        var printed = ""
        while !printed.contains(marker) {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw MarkerNeverPrinted(marker: marker, printed: printed) }
            printed += String(decoding: data, as: UTF8.self)
        }
    }

    struct MarkerNeverPrinted: Error, CustomStringConvertible {
        let marker: String
        let printed: String
        var description: String { "the sqlite3 shell ended before printing \(marker): \(printed)" }
    }

    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Ends the shell as a crash would (SIGKILL): SQLite does not close the
    /// file, so a -wal file keeps its changes and -shm its index.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    struct LockNotTaken: Error, CustomStringConvertible {
        var description: String { "the sqlite3 shell never took the lock" }
    }

    /// A shell that holds an exclusive lock on `path`, as the app does while
    /// it commits, returned once the file can no longer be opened.
    static func holdingExclusiveLock(on path: String) throws -> RunningSQLiteShell {
        let shell = try RunningSQLiteShell(path, running: "BEGIN EXCLUSIVE; DELETE FROM records WHERE key = 'Human:1000';")
        let deadline = Date().addingTimeInterval(30)
        while (try? CacheStore.open(at: path, busyTimeout: 0)) != nil {
            guard Date() < deadline else {
                shell.finish()
                throw LockNotTaken()
            }
            usleep(10_000)
        }
        return shell
    }
}

extension CommandTestCase {
    /// A cache of 2,010 records, the last 2,000 of them filler, and the
    /// number of a leaf page of its table or of its key index, to damage.
    func largerCache(pageOf tree: String) throws -> (cache: String, page: Int) {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000)
            INSERT INTO records(key, record) SELECT 'Filler:' || x, '{"__typename":"Filler","pad":"' || hex(zeroblob(100)) || '"}' FROM n
            """)
        let page = try XCTUnwrap(Int(try sqliteShell(
            cache, "SELECT pageno FROM dbstat WHERE name = '\(tree)' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 5")))
        return (cache, page)
    }

    /// Overwrites 200 bytes of `page` at `offset` with 0x13.
    func damage(_ cache: String, page: Int, offset: Int) throws {
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: cache))
        try handle.seek(toOffset: UInt64((page - 1) * 4096 + offset))
        handle.write(Data(repeating: 0x13, count: 200))
        try handle.close()
    }
}
