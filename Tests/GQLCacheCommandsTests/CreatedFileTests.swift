import CacheStore
import Foundation
import XCTest

@testable import GQLCacheCommands

/// `--create` when another program makes or writes the same file at once
/// (two `import --create` run together).
final class CreatedFileTests: CommandTestCase {
    private func context() -> CommandContext {
        CommandContext(stdout: StringSink(), stderr: StringSink(), stdin: ScriptedLines([]), stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
    }

    /// Made by another program after the command found it missing: the
    /// command writes into it, as into a file that was there, rather than
    /// fail with "file already exists" and its records unwritten.
    func testAFileAnotherProgramMadeMeanwhileIsWrittenIntoRatherThanRefused() throws {
        let cache = try makeCache("race.sqlite", [Record(key: "A:1", fields: ["x": .int(1)])])
        XCTAssertNil(try CreatedFile.make(cache, context: context()))
        let made = try XCTUnwrap(try CreatedFile.make(path("new.sqlite"), context: context()))
        XCTAssertEqual(try made.read { try $0.recordCount() }, 0)
    }

    /// The file is made whole beside itself and linked into place (so
    /// that of two made at once one is made, and no one meets it half
    /// made): nothing else stays in the folder, and through a link that
    /// points nowhere yet the file is made where it points.
    func testMakingAFileLeavesNothingElseInItsFolder() throws {
        _ = try XCTUnwrap(try CreatedFile.make(path("new.sqlite"), context: context()))
        try FileManager.default.createSymbolicLink(atPath: path("link.sqlite"), withDestinationPath: "target.sqlite")
        _ = try XCTUnwrap(try CreatedFile.make(path("link.sqlite"), context: context()))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["link.sqlite", "new.sqlite", "target.sqlite"])
        XCTAssertEqual(try keys(in: path("target.sqlite")), [])
    }

    /// Through a chain of links that points nowhere yet, the file is made
    /// at its end, as SQLite would make it.
    func testAFileIsMadeAtTheEndOfAChainOfLinks() throws {
        try FileManager.default.createSymbolicLink(atPath: path("a.sqlite"), withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: path("b"), withDestinationPath: "c")
        _ = try XCTUnwrap(try CreatedFile.make(path("a.sqlite"), context: context()))
        XCTAssertEqual(try keys(in: path("c")), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["a.sqlite", "b", "c"])
    }

    /// Eight `import --create` at once on a missing file: one makes it
    /// (and says "created"), the others write into it, and every record
    /// lands.
    func testOfRunsThatCreateOneFileAtOnceExactlyOneMakesIt() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), "build gqlcache first: \(builtBinary)")
        for round in 1...3 {
            let cache = path("race\(round).sqlite")
            let script = (1...8).map { index in
                "printf '{\"key\":\"A:\(index)\",\"record\":{\"x\":\(index)}}\\n' | '\(builtBinary)' import '\(cache)' - --create > '\(cache).\(index).out' 2>&1 &"
            }.joined(separator: "\n") + "\nwait\n"
            XCTAssertEqual(try runProgram("/bin/sh", ["-c", script]).status, 0)
            let outputs = try (1...8).map { try String(contentsOfFile: "\(cache).\($0).out", encoding: .utf8) }
            XCTAssertEqual(outputs.filter { $0.contains(", created:") }.count, 1, outputs.joined())
            XCTAssertEqual(outputs.filter { !$0.hasPrefix("imported 1 record") }, [], "every run imported")
            XCTAssertEqual(try keys(in: cache).count, 8)
        }
    }

    /// A --create that fails removes the file it made, but not when
    /// another program wrote records into it meanwhile: those are theirs.
    func testAFailedCreateKeepsTheFileWhenAnotherProgramWroteRecordsIntoIt() throws {
        let shared = path("shared.sqlite")
        let store = try XCTUnwrap(try CreatedFile.make(shared, context: context()))
        try CacheStore.open(at: shared, access: .readWrite).write { tx in try tx.merge([Record(key: "B:1", fields: ["x": .int(2)])]) }
        CreatedFile.undo(shared, store: store, wasEmpty: false)
        XCTAssertEqual(try keys(in: shared), ["B:1"])

        let own = path("own.sqlite")
        let empty = try XCTUnwrap(try CreatedFile.make(own, context: context()))
        CreatedFile.undo(own, store: empty, wasEmpty: false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: own))
    }

    /// Through a link that pointed nowhere, a failed --create removes the
    /// file it made where the link points, and keeps the link, as it was.
    func testAFailedCreateThroughALinkRemovesTheFileItMadeAndKeepsTheLink() throws {
        try FileManager.default.createDirectory(atPath: path("t"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path("link.sqlite"), withDestinationPath: "t/target.sqlite")
        let input = path("bad.jsonl")
        try Data("{\"key\":\"A:1\",\"record\":{\"a\":1}}\n{\"key\":\"A:2\",\"record\":\n".utf8).write(to: URL(fileURLWithPath: input))
        let result = gqlcache("import", path("link.sqlite"), input, "--create")
        XCTAssertEqual(result.status, .usage, result.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.sqlite")), "t/target.sqlite")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("t")), [])
    }

    /// Another program in the middle of writing into the file when the
    /// failed --create is undone: the undo waits for that write, and keeps
    /// the file and its records, rather than remove the file beneath it
    /// (its commit would then land in a file no longer there).
    func testAFailedCreateWaitsForAWriteUnderWayAndKeepsItsRecords() throws {
        let shared = path("shared.sqlite")
        let store = try XCTUnwrap(try CreatedFile.make(shared, context: context()))
        let other = try CacheStore.open(at: shared, access: .readWrite)
        let writing = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        final class Outcome: @unchecked Sendable { var error: Error? }
        let outcome = Outcome()
        Thread.detachNewThread {
            do {
                try other.write { tx in
                    try tx.merge([Record(key: "B:1", fields: ["x": .int(2)])])
                    writing.signal()
                    Thread.sleep(forTimeInterval: 0.5)
                }
            } catch {
                outcome.error = error
            }
            done.signal()
        }
        writing.wait()
        CreatedFile.undo(shared, store: store, wasEmpty: false)
        done.wait()
        XCTAssertNil(outcome.error)
        XCTAssertEqual(try keys(in: shared), ["B:1"])
    }

    /// A -journal or -wal file left beside a missing (or empty) cache by
    /// an earlier database of that name: SQLite would replay it into the
    /// new file, which would then hold that database's pages, or damage.
    /// --create refuses, naming it, and makes nothing; the leftover stays.
    func testCreateRefusesALeftoverJournalOrWALBesideTheFile() throws {
        let records = path("in.jsonl")
        try Data(#"{"key":"QUERY_ROOT","record":{"a":1}}"#.utf8).write(to: URL(fileURLWithPath: records))
        // Each begins as SQLite's does: a journal's header, a write-ahead log's.
        let journal = Data([0xD9, 0xD5, 0x05, 0xF9, 0x20, 0xA1, 0x63, 0xD7] + Array("the rest of a journal".utf8))
        let wal = Data([0x37, 0x7F, 0x06, 0x82] + Array("the rest of a write-ahead log".utf8))
        let missing = path("missing.sqlite")
        try journal.write(to: URL(fileURLWithPath: missing + "-journal"))
        let refused = gqlcache("import", missing, records, "--create")
        XCTAssertEqual(refused.status, .io)
        XCTAssertEqual(refused.stderr, "gqlcache: \(missing): missing.sqlite-journal is beside it, left by an earlier database of that name, "
            + "which SQLite would take for the new file's (replaying that database's pages into it, or deleting them); move it away "
            + "(or remove it, if that database is gone) and run again\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing))
        XCTAssertEqual(try bytes(missing + "-journal"), journal)
        // A dry run refuses as the run would.
        XCTAssertEqual(gqlcache("import", missing, records, "--create", "--dry-run").stderr, refused.stderr)

        let empty = path("empty.sqlite")
        FileManager.default.createFile(atPath: empty, contents: Data())
        try wal.write(to: URL(fileURLWithPath: empty + "-wal"))
        for dryRun in [[], ["--dry-run"]] {
            let write = gqlcache(arguments: ["write", empty, "--create", "--text", "{ a }", "--response", "-"] + dryRun, input: #"{"data":{"a":1}}"#)
            XCTAssertEqual(write.status, .io)
            XCTAssertTrue(write.stderr.hasPrefix("gqlcache: \(empty): empty.sqlite-wal is beside it, left by an earlier database"), write.stderr)
        }
        XCTAssertEqual(try bytes(empty), Data())
        XCTAssertEqual(try bytes(empty + "-wal"), wal)

        // A -journal SQLite would not roll back (empty, or its header
        // zeroed, as journal_mode=PERSIST leaves one) is no leftover.
        try Data(count: 512).write(to: URL(fileURLWithPath: missing + "-journal"))
        XCTAssertEqual(gqlcache("import", missing, records, "--create", "--quiet").status, .success)
        XCTAssertEqual(try keys(in: missing), ["QUERY_ROOT"])
    }

    /// A file removed while a write waited (a failed --create undone, or
    /// another program): said so, not taken for a read-only file.
    func testAWriteToAFileRemovedSinceItWasOpenedSaysSoNotReadOnly() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let store = try CacheStore.open(at: cache, access: .readWrite)
        _ = try store.read { try $0.recordCount() }
        try FileManager.default.removeItem(atPath: cache)
        XCTAssertThrowsError(try store.write { tx in try tx.merge([Record(key: "A:1", fields: ["x": .int(1)])]) }) { error in
            XCTAssertEqual("\(error)", "\(cache): the file was removed or replaced while this command had it open "
                + "(by another program, or a failed --create undone); nothing written: run the command again")
        }
    }
}
