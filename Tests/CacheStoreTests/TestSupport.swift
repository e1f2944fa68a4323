import ExampleCaches
import Foundation
import XCTest

@testable import CacheStore

/// Where the shared fixtures live, found from this file's own path: the
/// repository is `<root>/main` and the shared folder is `<root>/shared`.
enum Fixtures {
    /// `<repo>/Tests/CacheStoreTests/TestSupport.swift` → `<repo>`.
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CacheStoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root

    static let directory: URL = repositoryRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/apollo-ios", isDirectory: true)
        .standardizedFileURL

    static var starwars: URL { directory.appendingPathComponent("starwars.sqlite") }
    static var legacy: URL { directory.appendingPathComponent("legacy-sqlite-swift.sqlite") }

    /// The ten keys of starwars.sqlite, in byte order.
    static let starwarsKeys: [CacheKey] = [
        "Droid:2001",
        "Droid:2001.friendsConnection(after:null,first:2)",
        "Human:1000",
        "Human:1002",
        "MUTATION_ROOT",
        "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])",
        "QUERY_ROOT",
        "QUERY_ROOT.reviews(episode:JEDI,first:2).0",
        "QUERY_ROOT.reviews(episode:JEDI,first:2).1",
        "Starship:3001",
    ]
}

/// A fresh temporary folder, removed when the test ends.
final class TemporaryDirectory {
    let url: URL

    /// A folder someone else created and removes (see ``runIsolated``).
    init(existing url: URL) { self.url = url }

    init(_ testCase: XCTestCase, function: String = #function) throws {
        let name = "gqlcache-tests-" + function.filter { $0.isLetter || $0.isNumber } + "-" + UUID().uuidString
        url = FileManager.default.temporaryDirectory.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let url = self.url
        testCase.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Copies a fixture byte for byte into this folder as a writable file
    /// (the fixtures themselves are read-only and must never be opened
    /// read-write).
    func copy(_ fixture: URL, as name: String? = nil) throws -> String {
        let destination = path(name ?? fixture.lastPathComponent)
        let data = try Data(contentsOf: fixture)
        try data.write(to: URL(fileURLWithPath: destination))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination)
        return destination
    }

    /// A copy of `fixture` switched to WAL mode by the sqlite3 shell (which
    /// leaves no -wal or -shm beside it).
    func walCopy(_ fixture: URL) throws -> String {
        let path = try copy(fixture)
        try SQLiteShell.run(path, "PRAGMA journal_mode=WAL;")
        return path
    }

    /// The names of the files in this folder, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
}

/// Runs the sqlite3 command-line shell, independent of the store's own
/// SQLite connection, and returns its standard output.
enum SQLiteShell {
    static let executable = "/usr/bin/sqlite3"

    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        let standardError: String
        var description: String { "sqlite3 exited with \(status): \(standardError)" }
    }

    @discardableResult
    static func run(_ path: String, _ commands: String..., input: String? = nil) throws -> String {
        try run(arguments: ["-batch", path] + commands, input: input)
    }

    /// Runs the shell with `-readonly`: the way to look at the fixtures
    /// themselves, which must never be opened for writing.
    static func runReadOnly(_ path: String, _ commands: String...) throws -> String {
        try run(arguments: ["-batch", "-readonly", path] + commands, input: nil)
    }

    private static func run(arguments: [String], input: String?) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = Pipe()
        process.standardInput = inputPipe
        try process.run()
        if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
        try inputPipe.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(status: process.terminationStatus, standardError: String(decoding: errorData, as: UTF8.self))
        }
        return String(decoding: outputData, as: UTF8.self)
    }

    /// One line per row, as the shell prints them (`|` between columns).
    static func lines(_ path: String, _ sql: String) throws -> [String] {
        try run(path, sql).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The `_id` and raw `record` text of one row, read byte for byte
    /// through `hex()` so that nothing is normalised on the way.
    static func row(_ path: String, key: String) throws -> (id: Int, record: String)? {
        let escapedKey = key.replacingOccurrences(of: "'", with: "''")
        let lines = try lines(path, "SELECT _id, hex(record) FROM records WHERE key = '\(escapedKey)'")
        guard let line = lines.first else { return nil }
        let parts = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let id = Int(parts[0]) else { return nil }
        return (id, String(decoding: hexDecode(String(parts[1])), as: UTF8.self))
    }

    static func hexDecode(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var iterator = hex.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(String([high, low]), radix: 16)!)
        }
        return bytes
    }
}

/// Parses JSON text with Foundation, independent of the store's own parser.
func foundationJSONObject(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> NSDictionary {
    let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    guard let dictionary = object as? NSDictionary else {
        XCTFail("not a JSON object: \(text)", file: file, line: line)
        return [:]
    }
    return dictionary
}

/// Asserts that `expression` throws exactly `expected`.
func XCTAssertThrowsCacheError<T>(
    _ expression: @autoclosure () throws -> T, _ expected: CacheStoreError,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), file: file, line: line) { error in
        XCTAssertEqual(error as? CacheStoreError, expected, "\(error)", file: file, line: line)
    }
}

extension CacheStore {
    /// Every record of the file, decoded, by key. Fails the test on a damaged row.
    func allRecords(file: StaticString = #filePath, line: UInt = #line) throws -> [CacheKey: Record] {
        try read { tx in
            var records: [CacheKey: Record] = [:]
            try tx.forEachRecord { key, result in
                switch result {
                case .success(let record): records[key] = record
                case .failure(let error): XCTFail("damaged \(key): \(error)", file: file, line: line)
                }
            }
            return records
        }
    }

    func allKeys() throws -> [CacheKey] { try read { try $0.keys() } }
}

/// Runs `body` in a child copy of the test process, so that a crash (a
/// `fatalError` deep in a library) fails this one test instead of ending the
/// whole run. In the child, `body` runs directly; in the parent, the child's
/// exit status is asserted. The folder handed to `body` belongs to the parent.
func runIsolated(
    _ testCase: XCTestCase, function: String = #function, file: StaticString = #filePath, line: UInt = #line,
    asUser user: String? = nil, prepare: (TemporaryDirectory) throws -> Void = { _ in },
    _ body: (TemporaryDirectory) throws -> Void
) throws {
    let className = String(describing: type(of: testCase))
    let method = function.hasSuffix("()") ? String(function.dropLast(2)) : function
    let identifier = "CacheStoreTests.\(className)/\(method)"
    let environment = ProcessInfo.processInfo.environment
    if environment["GQLCACHE_ISOLATED_TEST"] == identifier, let folder = environment["GQLCACHE_ISOLATED_DIR"] {
        try body(TemporaryDirectory(existing: URL(fileURLWithPath: folder)))
        return
    }
    let directory = try TemporaryDirectory(testCase, function: function)
    try prepare(directory)
    let process = Process()
    if let user {
        // Run the child as another user, for what root could otherwise always do.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", CommandLine.arguments[0], identifier]
    } else {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [identifier]
    }
    process.environment = environment.merging(
        ["GQLCACHE_ISOLATED_TEST": identifier, "GQLCACHE_ISOLATED_DIR": directory.url.path]) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let interesting = text.split(separator: "\n")
        .filter { $0.contains("error") || $0.contains("Fatal") || $0.contains("crashed") }
        .prefix(12).joined(separator: "\n")
    XCTAssertEqual(process.terminationReason, .exit, "the isolated test crashed:\n\(interesting)", file: file, line: line)
    XCTAssertEqual(process.terminationStatus, 0, "the isolated test failed:\n\(interesting)", file: file, line: line)
    // Ran, not skipped: a child that skips itself also exits 0.
    XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), "the child ran exactly this test, whole:\n\(interesting)", file: file, line: line)
}

/// True in the child process ``runIsolated`` starts: a test's own checks of
/// who runs it (root, to start a child as another user) are the parent's.
var isIsolatedChild: Bool { ProcessInfo.processInfo.environment["GQLCACHE_ISOLATED_TEST"] != nil }

/// An sqlite3 shell kept running on a file, fed statements on its standard
/// input: another process holding locks, or one that crashes mid-write.
final class InteractiveSQLiteShell {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(_ path: String) throws {
        process.executableURL = URL(fileURLWithPath: SQLiteShell.executable)
        process.arguments = ["-batch", path]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func send(_ statements: String) {
        input.fileHandleForWriting.write(Data(statements.utf8))
    }

    /// Output until it contains `marker` (or the shell closes it).
    func read(until marker: String) -> String {
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(marker) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        return String(decoding: seen, as: UTF8.self)
    }

    /// Ends the shell: politely with `statements`, or killed when nil.
    func finish(with statements: String?) {
        guard process.isRunning else { return }
        if let statements {
            send(statements)
            try? input.fileHandleForWriting.close()
        } else {
            process.terminate()
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }
}

/// The random numbers of a test that tries many random inputs: its seed is
/// printed, and GQLCACHE_TEST_SEED gives the same inputs again, to replay
/// a failure.
struct TestRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    init(_ function: String = #function) {
        let seed = ProcessInfo.processInfo.environment["GQLCACHE_TEST_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: .min ... .max)
        print("\(function): random seed \(seed) (GQLCACHE_TEST_SEED=\(seed) gives these inputs again)")
        generator = SplitMix64(seed: seed)
    }

    mutating func next() -> UInt64 { generator.next() }
}
