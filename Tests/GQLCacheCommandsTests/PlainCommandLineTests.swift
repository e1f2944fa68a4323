import ArgumentParser
import CacheStore
import Foundation
@testable import GQLCacheCommands
import XCTest

/// `keys` reads a plain command line without the argument parser, into
/// the very command the parser would make of it, and leaves every other
/// line to the parser.
final class PlainCommandLineTests: CommandTestCase {
    /// Every value of the command, read back from its options: a property
    /// the plain reading left unset would stop the test here.
    private func values(_ command: GQLCache.Keys) -> String {
        [
            command.file.path, String(describing: command.pattern), String(describing: command.mode),
            command.typenames.description, String(describing: command.limit), String(command.count), String(command.null),
            command.output.format.rawValue, String(describing: command.display.color), String(command.display.quiet),
            String(command.pager.noPager), String(command.reading.busyTimeout),
        ].joined(separator: " | ")
    }

    func testPlainKeysCommandLinesBecomeTheCommandTheParserMakesOfThem() throws {
        let lines: [[String]] = [
            ["c.sqlite"],
            ["c.sqlite", "User:"],
            ["c.sqlite", "User:", "--mode", "prefix", "--count"],
            ["c.sqlite", "--mode=glob", "User:*"],
            ["--count", "c.sqlite", "User:", "--mode", "regex"],
            ["c.sqlite", "--type", "Human", "--type=Droid", "--limit", "3"],
            ["c.sqlite", "--limit=0", "--format", "jsonl"],
            ["c.sqlite", "--format=json", "--color", "never", "-q", "--no-pager"],
            ["c.sqlite", "--quiet", "--color=always", "%Post%"],
            ["c.sqlite", ""],
            ["c.sqlite", "--type=-odd"],
            ["c.sqlite", "--busy-timeout", "0.5", "--count"], ["c.sqlite", "--busy-timeout=0"],
            ["c.sqlite", "User:", "-z"], ["c.sqlite", "--null", "--type", "Human"],
            ["help"],  // a file named help
        ]
        for line in lines {
            let plain = try XCTUnwrap(GQLCache.Keys.parsePlainly(line[...]), "\(line) is plain")
            let parsed = try GQLCache.Keys.parse(line)
            XCTAssertEqual(values(plain), values(parsed), "\(line)")
        }
    }

    func testKeysCommandLinesThatAreNotPlainAreLeftToTheParser() {
        let lines: [[String]] = [
            [],  // the cache file is missing
            ["c.sqlite", "a", "b"],  // one pattern at most
            ["c.sqlite", "--help"], ["c.sqlite", "-h"], ["c.sqlite", "--version"],
            ["c.sqlite", "--", "-x"],
            ["c.sqlite", "-qq"], ["c.sqlite", "--count", "--count"], ["c.sqlite", "--count=yes"],
            ["c.sqlite", "-z", "--count"], ["c.sqlite", "-zq"],
            ["c.sqlite", "--frmat", "json"],
            ["c.sqlite", "--format", "json", "--format", "text"],
            ["c.sqlite", "--mode"], ["c.sqlite", "p", "--mode", "--count"], ["c.sqlite", "p", "--mode", "-x"],
            ["c.sqlite", "p", "--mode=bogus"], ["c.sqlite", "--color", "sometimes"],
            ["c.sqlite", "--limit", "-1"], ["c.sqlite", "--limit", "many"], ["c.sqlite", "--limit"],
            ["c.sqlite", "--busy-timeout", "-1"], ["c.sqlite", "--busy-timeout", "soon"],
            ["c.sqlite", "--mode", "prefix"],  // a mode without a pattern
            ["c.sqlite", "--type="],  // an empty type name
            ["", "--count"],  // an empty cache file name
            ["c.sqlite", "-"],
        ]
        for line in lines {
            XCTAssertNil(GQLCache.Keys.parsePlainly(line[...]), "\(line)")
        }
    }

    func testTheMistakesOfKeysAreStillTheParsersMessages() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let mode = gqlcache("keys", cache, "--mode", "prefix")
        XCTAssertEqual(mode.status, .usage)
        XCTAssertTrue(mode.stderr.contains("--mode goes with a PATTERN"), mode.stderr)
        let limit = gqlcache("keys", cache, "Human", "--limit", "-1")
        XCTAssertEqual(limit.status, .usage)
        XCTAssertTrue(limit.stderr.contains("--limit must be zero or more"), limit.stderr)
        let format = gqlcache("keys", cache, "--format", "yaml")
        XCTAssertEqual(format.status, .usage)
        XCTAssertTrue(format.stderr.contains("yaml"), format.stderr)
    }

    /// A new option of `keys` must be read by its plain reading too.
    func testThePlainNamesOfKeysAreEveryOptionItTakesButHelpAndVersion() {
        XCTAssertEqual(
            Set(GQLCache.Keys.plainNames.keys).union(["-h", "--help", "--version"]),
            Set(OptionTable.commands.names["keys"] ?? []))
        XCTAssertEqual(
            Mirror(reflecting: GQLCache.Keys()).children.compactMap(\.label),
            ["_file", "_pattern", "_mode", "_typenames", "_limit", "_count", "_null", "_output", "_reading", "_display", "_pager"],
            "each stored property is set by parsePlainly")
    }

    func testTheConventionOptionsKeysNamesAreTheOnesReflectionFinds() throws {
        for line in [["c.sqlite"], ["c.sqlite", "--format", "json", "--color", "always", "-q", "--no-pager"]] {
            let command = try GQLCache.Keys.parse(line)
            let named = command.conventionOptions
            let found = Conventions.options(of: command)
            XCTAssertEqual(named.format, found.format)
            XCTAssertEqual(named.display?.color, found.display?.color)
            XCTAssertEqual(named.display?.quiet, found.display?.quiet)
            XCTAssertEqual(named.pager?.noPager, found.pager?.noPager)
        }
    }

    func testTheProcessContextHasTheProcessEnvironment() {
        XCTAssertEqual(CommandContext.standard().environment, ProcessInfo.processInfo.environment)
    }
}
