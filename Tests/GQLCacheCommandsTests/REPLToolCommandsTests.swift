import CacheStore
import Foundation
import XCTest

@testable import GQLCacheCommands

/// grep, diff, export and import at the REPL's prompt, on the open file.
final class REPLToolCommandsTests: CommandTestCase {
    private func session(_ cache: String) throws -> (REPLSession, StringSink, StringSink) {
        let stdout = StringSink()
        let stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines([]), stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        let session = REPLSession(cachePath: cache, context: context, interactive: false)
        try session.start()
        return (session, stdout, stderr)
    }

    func testTheCommandsRunOnTheOpenFile() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let exported = path("export.jsonl")
        let (session, stdout, stderr) = try session(cache)
        let status = session.run(reader: SourceLineReader(lines: [
            "grep Sky",
            "export -o \(exported)",
            "rm Human:1002 --force",
            "diff \(fixturesFolder.appendingPathComponent("starwars.sqlite").path) --keys-only",
            "import \(exported)",
            "diff \(fixturesFolder.appendingPathComponent("starwars.sqlite").path) --summary",
        ]), bail: false)
        XCTAssertEqual(status, .success, "the last diff finds the same records: \(stderr.text)")
        XCTAssertEqual(stderr.text, "")
        XCTAssertEqual(stdout.text, """
            Human:1000 name: "Luke Skywalker"
            exported 10 records (jsonl) to \(exported)
            removed Human:1002
            removed 1 record; left 1 reference dangling:
              Droid:2001 friends[1] → Human:1002
            + Human:1002
            1 record differs: 1 added; 9 the same
            imported 10 records (jsonl) into \(cache): 1 added, 0 changed (3 fields)
            same records: 10 records in each

            """)
    }

    func testTheirFileArgumentsCompleteAsFiles() throws {
        let (session, _, _) = try session(try copyOfFixture("starwars.sqlite"))
        let completer = REPLCompleter(session: session)
        XCTAssertEqual(completer.complete(word: "", before: "diff "), .fileNames)
        XCTAssertEqual(completer.complete(word: "", before: "import "), .fileNames)
        XCTAssertEqual(completer.complete(word: "", before: "export -o "), .fileNames)
        XCTAssertEqual(completer.complete(word: "--key", before: "diff "), .candidates(["--keys-only"]))
        XCTAssertEqual(completer.complete(word: "Human:100", before: "grep "), .candidates(["Human:1000", "Human:1002"]))
    }
}
