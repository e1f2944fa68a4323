import CacheStore
import Foundation
import GQLCacheCommands
import XCTest

/// `stats`: where records and bytes go, per type, root field and key prefix.
final class StatsCommandTests: CommandTestCase {
    func testCountsAndBytesAddUpToTheWholeTable() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("stats", cache, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        let total = Int(try SQLiteShellOutput(cache, "SELECT sum(length(CAST(record AS BLOB))) FROM records"))!
        XCTAssertEqual(document["records"] as? Int, 10)
        XCTAssertEqual(document["bytes"] as? Int, total)
        XCTAssertEqual(document["pathKeyedRecords"] as? Int, 4)
        let types = try XCTUnwrap(document["types"] as? [[String: Any]])
        XCTAssertEqual(types.map { $0["records"] as? Int ?? 0 }.reduce(0, +), 10)
        XCTAssertEqual(types.map { $0["bytes"] as? Int ?? 0 }.reduce(0, +), total)
        let human = try XCTUnwrap(types.first { $0["typename"] as? String == "Human" })
        XCTAssertEqual(human["records"] as? Int, 2)
        XCTAssertEqual(human["bytes"] as? Int, Int(try SQLiteShellOutput(
            cache, "SELECT sum(length(CAST(record AS BLOB))) FROM records WHERE json_extract(record, '$.__typename') = 'Human'")))
        let prefixes = try XCTUnwrap(document["keyPrefixes"] as? [[String: Any]])
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: prefixes.map { ($0["prefix"] as! String, $0["records"] as! Int) }), [
            "QUERY_ROOT": 1, "MUTATION_ROOT": 1, "Droid:*": 1, "Human:*": 2, "Starship:*": 1,
            "QUERY_ROOT.*": 2, "MUTATION_ROOT.*": 1, "Droid:*.*": 1,
        ])
    }

    func testKeysWithNoPrefixAreANullPrefixInJSONAndNamedSoInText() throws {
        let cache = try makeCache("noprefix.sqlite", [], raw: [
            ("QUERY_ROOT", #"{"me":{"$reference":"viewer"}}"#), ("viewer", #"{"__typename":"User"}"#),
            ("(no prefix)", #"{"__typename":"User"}"#),
        ])
        let json = gqlcache("stats", cache, "--format", "json")
        let document = try XCTUnwrap(try json.json() as? [String: Any])
        let prefixes = try XCTUnwrap(document["keyPrefixes"] as? [[String: Any]])
        // A key that is literally "(no prefix)" is one of the keys without a prefix, not a label.
        XCTAssertEqual(prefixes.count, 2)
        XCTAssertTrue(prefixes.contains { $0["prefix"] is NSNull && $0["records"] as? Int == 2 }, "\(prefixes)")
        let text = gqlcache("stats", cache)
        XCTAssertTrue(text.stdout.contains("  (no prefix)     2"), text.stdout)
    }

    func testEachReachableRecordCountsOnceUnderTheRootFieldNearestToIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000").status, .success)
        let result = gqlcache("stats", cache, "--format", "json")
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        let fields = try XCTUnwrap(document["rootFields"] as? [[String: Any]])
        let records = Dictionary(uniqueKeysWithValues: fields.map { ("\($0["root"]!).\($0["field"]!)", $0["records"] as! Int) })
        // hero reaches Droid:2001, its friendsConnection and Human:1002; human(id:1000) now
        // dangles and reaches nothing, and Starship:3001 is unreachable.
        XCTAssertEqual(records, [
            "QUERY_ROOT.hero": 3, "QUERY_ROOT.human": 0, "QUERY_ROOT.reviews": 2, "QUERY_ROOT.search": 0,
            "MUTATION_ROOT.createReview": 1,
        ])
        XCTAssertEqual((document["unreachable"] as? [String: Any])?["records"] as? Int, 1)
    }

    func testFieldsThatDifferOnlyByArgumentsCountTogether() throws {
        let cache = try makeCache("users.sqlite", [
            Record(key: .queryRoot, fields: ["user(id:1)": .reference("User:1"), "user(id:2)": .reference("User:2")]),
            Record(key: "User:1", fields: ["__typename": .string("User"), "avatar": .reference("User:1.avatar")]),
            Record(key: "User:1.avatar", fields: ["url": .string("u")]),
            Record(key: "User:2", fields: ["__typename": .string("User")]),
        ])
        let result = gqlcache("stats", cache)
        XCTAssertTrue(result.stdout.contains("""
            by root field (first to reach)  field keys  records
            """), result.stdout)
        let line = try XCTUnwrap(result.lines.first { $0.hasPrefix("  QUERY_ROOT.user ") })
        XCTAssertEqual(line.split(separator: " ").prefix(3), ["QUERY_ROOT.user", "2", "3"])
        XCTAssertTrue(result.stdout.contains("path-keyed  1 (25.0%)"), result.stdout)
    }

    func testTopLimitsEveryListAndSaysHowManyMore() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("stats", cache, "--top", "2")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.contains("""
            largest records  bytes
              QUERY_ROOT     391 B
              Droid:2001     298 B

            """), result.stdout)
        XCTAssertTrue(result.stdout.contains("  … and 4 more (--top N)\n"), result.stdout)
        // In JSON each cut list comes with how many there are.
        let json = try XCTUnwrap(try gqlcache("stats", cache, "--top", "2", "--format", "json").json() as? [String: Any])
        XCTAssertEqual((json["types"] as? [Any])?.count, 2)
        XCTAssertEqual(json["typeCount"] as? Int, 6)
        XCTAssertEqual((json["keyPrefixes"] as? [Any])?.count, 2)
        XCTAssertGreaterThan(json["keyPrefixCount"] as? Int ?? 0, 2)
        XCTAssertNotNil(json["rootFieldCount"] as? Int)
        XCTAssertEqual(gqlcache("stats", cache, "--top", "-1").status, .usage)
        // --top 0: the summary lines alone, with no list or list heading.
        let summary = gqlcache("stats", cache, "--top", "0")
        XCTAssertEqual(summary.status, .success)
        XCTAssertEqual(summary.lines.map { String($0.prefix(10)) }, ["file      ", "records   ", "path-keyed", "free pages"])
    }
}

/// One value printed by the sqlite3 shell, read-only.
func SQLiteShellOutput(_ path: String, _ sql: String) throws -> String {
    try sqliteShell(path, sql, readOnly: true)
}
