import CacheStore
import Foundation
@testable import GQLCacheCommands
import XCTest

/// How a removal's report places its dangling references, and what a
/// Ctrl-C in the middle of that (at the REPL) leaves of it.
final class RemovalReportTests: CommandTestCase {
    func removeHan(from store: CacheStore) throws -> RemovalOutcome {
        try store.write { tx in
            let references = try tx.references(to: ["Human:1002"])
            XCTAssertTrue(try tx.removeObject(for: "Human:1002"))
            return RemovalOutcome.with(keys: ["Human:1002"], dryRun: false, dangling: references, keepAll: false, cleaned: nil)
        }
    }

    func render(_ outcome: RemovalOutcome, placingIn store: CacheStore) -> (CommandResult, CommandContext) {
        let stdout = StringSink(), stderr = StringSink()
        let context = CommandContext(
            stdout: stdout, stderr: stderr, stdin: ScriptedLines([]), stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        outcome.render(format: .text, context: context, placingIn: store)
        return (CommandResult(status: context.status, stdout: stdout.text, stderr: stderr.text), context)
    }

    func testDanglingReferencesArePlacedInTheirLists() throws {
        let store = try CacheStore.open(at: try copyOfFixture("starwars.sqlite"), access: .readWrite)
        let (result, _) = render(try removeHan(from: store), placingIn: store)
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(result.stdout, "removed Human:1002\nremoved 1 record; left 1 reference dangling:\n  Droid:2001 friends[1] → Human:1002\n")
    }

    /// Listed unplaced, they would read `friends → Human:1002`, as if the
    /// field were the reference; the listing stops instead, and says why.
    func testACtrlCWhileTheyArePlacedCutsTheListingShortAndSaysTheChangeStands() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let store = try CacheStore.open(at: cache, access: .readWrite)
        let outcome = try removeHan(from: store)
        store.interrupt()
        let (result, _) = render(outcome, placingIn: store)
        XCTAssertEqual(result.status, .interrupted)
        XCTAssertEqual(result.stdout, "removed Human:1002\nremoved 1 record; left 1 reference dangling (not listed: interrupted)\n")
        XCTAssertEqual(result.stderr, "gqlcache: \(cache): interrupted while listing the dangling references; the change was written and stands\n")
        XCTAssertFalse(try keys(in: cache).contains("Human:1002"))
    }
}
