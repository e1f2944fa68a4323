import ArgumentParser
import Foundation
@testable import GQLCacheCommands
import XCTest

/// `show` and `rm` given thousands of keys (`$(cat keys.txt)`, xargs): a
/// long line is parsed with its first key only and given the rest, into
/// the very command the parser makes of the whole line; any other line is
/// left to the parser.
final class ManyKeysCommandLineTests: CommandTestCase {
    private func described(_ command: ParsableCommand?) -> String {
        var text = ""
        if let command { dump(command, to: &text) }
        return text
    }

    private let manyKeys = (0..<100).map { "User:\($0)" }

    func testALongLineOfKeysBecomesTheCommandTheParserMakesOfIt() throws {
        let lines: [[String]] = [
            ["show", "c.sqlite"] + manyKeys,
            ["show", "--depth", "2", "c.sqlite"] + manyKeys + ["--format=jsonl", "-q"],
            ["show", "c.sqlite", "QUERY_ROOT", "--no-pager"] + manyKeys + ["--busy-timeout", "1.5", "--color", "never"],
            ["show", "c.sqlite"] + manyKeys + ["--", "-1", "--depth", "-"],
            ["rm", "c.sqlite", "--dry-run"] + manyKeys,
            ["rm", "--cascade", "c.sqlite"] + manyKeys + ["--backup", "--force", "--clean-references"],
            ["rm", "--", "-odd.sqlite"] + manyKeys,
        ]
        for line in lines {
            let fast = try XCTUnwrap(ManyKeysCommandLine.parse(line), "\(line.prefix(6)) is read quickly")
            let parsed = try GQLCache.parseAsRoot(line)
            XCTAssertEqual(described(fast), described(parsed), "\(line.prefix(6))")
        }
        let show = try XCTUnwrap(ManyKeysCommandLine.parse(lines[3]) as? GQLCache.Show)
        XCTAssertEqual(show.keys, manyKeys + ["-1", "--depth", "-"])
        XCTAssertEqual(show.file.path, "c.sqlite")
    }

    func testLongLinesThatAreNotPlainOrNotValidAreLeftToTheParser() {
        let lines: [[String]] = [
            ["show", "c.sqlite"] + manyKeys.prefix(10),  // short: the parser is quick there
            ["show", "c.sqlite", "--help"] + manyKeys,
            ["show", "c.sqlite", "-h"] + manyKeys,
            ["show", "c.sqlite", "--dpth", "2"] + manyKeys,
            ["show", "c.sqlite", "-qx"] + manyKeys,
            ["show", "c.sqlite", "--depth", "-3"] + manyKeys,
            ["show", "c.sqlite"] + manyKeys + ["--depth"],
            ["rm", "c.sqlite", "--match", "User:%"] + manyKeys,
            ["rm", "c.sqlite", "--type", "User"] + manyKeys,
            ["keys", "c.sqlite"] + manyKeys,
            ["show"] + Array(repeating: "--no-pager", count: 80) + ["c.sqlite"],
        ]
        for line in lines {
            XCTAssertNil(ManyKeysCommandLine.parse(line), "\(line.prefix(6))")
        }
    }

    func testRmOfManyKeysRemovesExactlyThemAndItsMistakesAreTheParsersMessages() throws {
        let keys = (1..<200).map { "User:\($0)" }
        let cache = try makeCache("many.sqlite", [], raw: (0..<300).map { ("User:\($0)", #"{"__typename":"User","id":"\#($0)"}"#) })
        let dryRun = gqlcache(arguments: ["rm", cache, "--dry-run", "--format", "jsonl"] + keys + ["User:999"])
        XCTAssertEqual(dryRun.status, .notFound, dryRun.stderr)
        XCTAssertTrue(dryRun.stderr.contains("'User:999'"), dryRun.stderr)
        let removed = gqlcache(arguments: ["rm", cache, "--quiet"] + keys)
        XCTAssertEqual(removed.status, .success, removed.stderr)
        XCTAssertEqual(try self.records(cache).keys.sorted(), (0..<300).map { "User:\($0)" }.filter { !keys.contains($0) }.sorted())
        let both = gqlcache(arguments: ["rm", cache, "--match", "User:%"] + keys)
        XCTAssertEqual(both.status, .usage)
        XCTAssertTrue(both.stderr.contains("give either keys or --match, not both"), both.stderr)
        let unknown = gqlcache(arguments: ["show", cache, "--dpth", "1"] + keys)
        XCTAssertEqual(unknown.status, .usage)
        XCTAssertTrue(unknown.stderr.contains("--dpth"), unknown.stderr)
    }
    /// Each missing key's nearest keys cost a pass over the key index: a
    /// script's thousands of missing keys took seconds apiece. The first
    /// ten are given theirs; the rest are named alone.
    func testOnlyTheFirstTenMissingKeysAreGivenTheirNearestKeys() throws {
        let cache = try makeCache("few.sqlite", [], raw: [("User:1", #"{"__typename":"User","id":"1"}"#)])
        let missing = (2...13).map { "User:\($0)" }
        for command in ["rm", "show"] {
            let result = gqlcache(arguments: [command, cache] + (command == "rm" ? ["--dry-run"] : []) + missing)
            XCTAssertEqual(result.status, .notFound)
            let lines = result.stderr.split(separator: "\n")
            XCTAssertEqual(lines.count, 12, result.stderr)
            XCTAssertEqual(lines.filter { $0.hasSuffix("; nearest keys: User:1") }.count, 10, result.stderr)
            XCTAssertEqual(lines.last, "gqlcache: no record 'User:13' in \(cache)")
        }
        // A key stored as a BLOB is still named as such past the tenth: one index lookup.
        try sqliteShell(cache, "INSERT INTO records (key, record) VALUES (CAST('User:13' AS BLOB), '{}')")
        let blob = gqlcache(arguments: ["rm", cache, "--dry-run"] + missing)
        XCTAssertTrue(blob.stderr.hasSuffix("gqlcache: no record 'User:13' in \(cache): row _id 2 has that key as a BLOB, which Apollo never finds; "
            + "'gqlcache gc \(cache) --stray-rows' deletes it\n"), blob.stderr)
    }
}
