import CacheStore
import Foundation
@testable import GQLCacheCommands
import XCTest

/// `refs`: what a record references, where, and who references it.
final class RefsCommandTests: CommandTestCase {
    func testOutgoingAndIncomingReferencesWithTheirPositions() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("refs", cache, "Droid:2001")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, """
            Droid:2001 (Droid)
            ├─ friends[0] → Human:1000 (Human)
            ├─ friends[1] → Human:1002 (Human)
            └─ friendsConnection(after:null,first:2) → Droid:2001.friendsConnection(after:null,first:2) (FriendsConnection)
            incoming references (2)
              QUERY_ROOT hero(episode:NEWHOPE)
              QUERY_ROOT search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])[1][0]

            """)
    }

    /// A record that holds the key twice in one list is listed once per place.
    /// refs draws no fields: the records of its last level keep only their
    /// `__typename` and whether they hold references, so a root listing a
    /// million keys does not hold a million decoded records. show, which
    /// draws them, keeps them whole.
    func testRefsKeepsOnlyTheTypenameOfItsLastLevelsRecords() throws {
        let cache = try makeCache("summary.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["users": .list([.reference("User:1"), .reference("User:2")])]),
            Record(key: "User:1", fields: ["__typename": .string("User"), "name": .string("Ann"), "best": .reference("User:2")]),
            Record(key: "User:2", fields: ["__typename": .string("User"), "name": .string("Bo")]),
        ])
        let store = try CacheStore.open(at: cache)
        let summarized = try store.read { tx in try RecordGraph.load(["QUERY_ROOT"], depth: 1, in: tx, summarizingLastLevel: true) }
        XCTAssertEqual(summarized.entries["User:1"], .found(Record(key: "User:1", fields: ["__typename": .string("User")])))
        XCTAssertTrue(summarized.holdsReferences("User:1"))
        XCTAssertFalse(summarized.holdsReferences("User:2"))
        let whole = try store.read { tx in try RecordGraph.load(["QUERY_ROOT"], depth: 1, in: tx) }
        guard case .found(let user)? = whole.entries["User:1"] else { return XCTFail("User:1 not loaded") }
        XCTAssertEqual(user.fields["name"], .string("Ann"))
        // What refs prints is the same either way: a user with references is marked beyond the depth.
        let json = gqlcache("refs", cache, "QUERY_ROOT", "--format", "jsonl").stdout
        XCTAssertTrue(json.contains(#""to":"User:1","exists":true,"typename":"User","beyondDepth":true"#), json)
    }

    /// JSON Lines give a line per reference, with its depth and the record
    /// holding it, flat at any depth: nested JSON grows two levels a step,
    /// which at --depth 300 is more than some JSON parsers take (jq 1.6
    /// stops near 85 steps).
    func testJSONLinesGiveALinePerReferenceFlatAtAnyDepth() throws {
        let chain = (0..<301).map { index in
            Record(key: CacheKey("C:\(index)"), fields: ["__typename": .string("C")].merging(index < 300 ? ["next": .reference(CacheKey("C:\(index + 1)"))] : [:]) { $1 })
        }
        let cache = try makeCache("chain.sqlite", chain)
        let result = gqlcache("refs", cache, "C:0", "--depth", "300", "--format", "jsonl")
        XCTAssertEqual(result.status, .success, result.stderr)
        let lines = result.lines
        XCTAssertEqual(lines.count, 301)
        XCTAssertEqual(lines.first, #"{"type":"record","key":"C:0","exists":true,"typename":"C"}"#)
        XCTAssertEqual(lines[1], #"{"type":"reference","depth":1,"from":"C:0","field":"next","location":"next","to":"C:1","exists":true,"typename":"C"}"#)
        XCTAssertEqual(lines.last, #"{"type":"reference","depth":300,"from":"C:299","field":"next","location":"next","to":"C:300","exists":true,"typename":"C"}"#)
        for line in lines { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8))) }
        let incoming = gqlcache("refs", cache, "C:1", "--format", "jsonl").lines
        XCTAssertEqual(incoming.last, #"{"type":"referencedBy","from":"C:0","field":"next","location":"next"}"#)
    }

    func testIncomingReferencesNameEachPlaceInAList() throws {
        let cache = try makeCache("twice.sqlite", [
            Record(key: .queryRoot, fields: ["people": .list([.reference("P:1"), .reference("P:2"), .reference("P:1")])]),
            Record(key: "P:1", fields: ["__typename": .string("P")]),
            Record(key: "P:2", fields: ["__typename": .string("P")]),
        ])
        let result = gqlcache("refs", cache, "P:1")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines.suffix(3), ["incoming references (2)", "  QUERY_ROOT people[0]", "  QUERY_ROOT people[2]"])
        let json = try XCTUnwrap(try gqlcache("refs", cache, "P:1", "--format", "json").json() as? [String: Any])
        XCTAssertEqual(json["referencedBy"] as? [[String: String]], [
            ["from": "QUERY_ROOT", "field": "people", "location": "people[0]"],
            ["from": "QUERY_ROOT", "field": "people", "location": "people[2]"],
        ])
    }

    /// A record that refers to itself is among what refers to it.
    func testASelfReferenceIsAmongTheIncomingReferences() throws {
        let cache = try makeCache("self.sqlite", [
            Record(key: .queryRoot, fields: ["me": .reference("User:1")]),
            Record(key: "User:1", fields: ["__typename": .string("User"), "self": .reference("User:1")]),
        ])
        let result = gqlcache("refs", cache, "User:1", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let referencedBy = try XCTUnwrap((try result.json() as? [String: Any])?["referencedBy"] as? [[String: String]])
        XCTAssertEqual(referencedBy, [
            ["from": "QUERY_ROOT", "field": "me", "location": "me"], ["from": "User:1", "field": "self", "location": "self"],
        ])
    }

    func testDepthDrawsWhatTheReachedRecordsReferenceOnceEach() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("refs", cache, "Droid:2001", "--depth", "3")
        XCTAssertEqual(result.lines.prefix(6), [
            "Droid:2001 (Droid)",
            "├─ friends[0] → Human:1000 (Human)",
            "│  └─ starships[0] → Starship:3001 (Starship)",
            "├─ friends[1] → Human:1002 (Human)",
            "└─ friendsConnection(after:null,first:2) → Droid:2001.friendsConnection(after:null,first:2) (FriendsConnection)",
            "   └─ friends[0] → Human:1000 (Human) (above)",
        ])
        // In JSON the repeated record says so, rather than looking like one without references.
        let json = try XCTUnwrap(try gqlcache("refs", cache, "Droid:2001", "--depth", "3", "--format", "json").json() as? [String: Any])
        let references = try XCTUnwrap(json["references"] as? [[String: Any]])
        let first = try XCTUnwrap(references.first)
        XCTAssertNil(first["shownAbove"], "the first Human:1000 is expanded here")
        XCTAssertEqual((first["references"] as? [[String: Any]])?.first?["to"] as? String, "Starship:3001")
        let connection = try XCTUnwrap(references.last?["references"] as? [[String: Any]])
        XCTAssertEqual(connection.first?["to"] as? String, "Human:1000")
        XCTAssertEqual(connection.first?["shownAbove"] as? Bool, true)
        XCTAssertNil(connection.first?["references"])
    }

    /// At the last level too, a record drawn elsewhere says where: not
    /// "beyond the depth", as if its references had not been drawn.
    func testARecordDrawnElsewhereSaysWhereAtTheLastLevelToo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("refs", cache, "Droid:2001", "--depth", "2")
        XCTAssertEqual(result.lines.prefix(6).last, "   └─ friends[0] → Human:1000 (Human) (above)")
        let json = try XCTUnwrap(try gqlcache("refs", cache, "Droid:2001", "--depth", "2", "--format", "json").json() as? [String: Any])
        let connection = try XCTUnwrap((json["references"] as? [[String: Any]])?.last?["references"] as? [[String: Any]])
        XCTAssertEqual(connection.first?["shownAbove"] as? Bool, true)
        XCTAssertNil(connection.first?["beyondDepth"])
    }

    func testDepthDrawsEveryRecordWithinReachWhereItIsNearestTheTop() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        // Human:1000 is one reference from the root (human) and two through
        // the hero: its starship is two levels down, so --depth 2 draws it.
        let result = gqlcache("refs", cache, "QUERY_ROOT", "--depth", "2")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.lines.contains("│  └─ starships[0] → Starship:3001 (Starship)"), result.stdout)
        XCTAssertTrue(result.lines.contains("├─ human(id:1000) → Human:1000 (Human)"), result.stdout)
        let deeper = gqlcache("refs", cache, "QUERY_ROOT", "--depth", "3")
        XCTAssertTrue(deeper.lines.contains("│  ├─ friends[0] → Human:1000 (Human) (below)"), deeper.stdout)
        let json = try XCTUnwrap(try gqlcache("refs", cache, "QUERY_ROOT", "--depth", "3", "--format", "json").json() as? [String: Any])
        let hero = try XCTUnwrap((json["references"] as? [[String: Any]])?.first)
        let friend = try XCTUnwrap((hero["references"] as? [[String: Any]])?.first)
        XCTAssertEqual(friend["to"] as? String, "Human:1000")
        XCTAssertEqual(friend["shownBelow"] as? Bool, true)
    }

    func testAReferenceBackToARecordBeingDrawnIsACycle() throws {
        let cache = try makeCache("cycle.sqlite", [
            Record(key: "User:1", fields: ["__typename": .string("User"), "best": .reference("User:2")]),
            Record(key: "User:2", fields: ["__typename": .string("User"), "best": .reference("User:1")]),
        ])
        XCTAssertEqual(gqlcache("refs", cache, "User:1", "--depth", "3").lines.prefix(3), [
            "User:1 (User)",
            "└─ best → User:2 (User)",
            "   └─ best → User:1 (User) (cycle)",
        ])
        // JSON tells the cycle from a record shown above elsewhere in the tree.
        let json = try XCTUnwrap(try gqlcache("refs", cache, "User:1", "--depth", "3", "--format", "json").json() as? [String: Any])
        let second = try XCTUnwrap((json["references"] as? [[String: Any]])?.first)
        let back = try XCTUnwrap((second["references"] as? [[String: Any]])?.first)
        XCTAssertEqual(back["shownAbove"] as? Bool, true)
        XCTAssertEqual(back["cycle"] as? Bool, true)
        XCTAssertNil(second["cycle"])
    }

    func testAMissingKeyStillShowsWhoHoldsADanglingReferenceToIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        let result = gqlcache("refs", cache, "Human:1002", "--format", "json")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record 'Human:1002' in \(cache); nearest keys: Human:1000\n")
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(document["exists"] as? Bool, false)
        XCTAssertEqual((document["referencedBy"] as? [[String: String]]), [["from": "Droid:2001", "field": "friends", "location": "friends[1]"]])
        XCTAssertEqual(gqlcache("refs", cache, "Droid:2001").lines[2], "├─ friends[1] → Human:1002 (missing)")
    }

    func testADamagedRecordIsDrawnAndFailsWithTheDamagedStatusAsShowDoes() throws {
        let cache = try makeCache("damaged.sqlite", [Record(key: "A:1", fields: ["b": .reference("B:1")])], raw: [("B:1", "not json")])
        let result = gqlcache("refs", cache, "B:1")
        XCTAssertEqual(result.status, .damagedRecord)
        XCTAssertEqual(result.status, gqlcache("show", cache, "B:1").status)
        XCTAssertEqual(result.stderr, "gqlcache: \(cache): record 'B:1' is damaged: text that is not JSON, not a JSON object\n")
        XCTAssertEqual(result.lines, ["B:1 (damaged: text that is not JSON, not a JSON object)", "incoming references (1)", "  A:1 b"])
    }

    /// A damaged record whose text names the key may hold a reference to it
    /// that cannot be read: the incoming list is said to be possibly short,
    /// as grep warns of a record it could not search.
    func testADamagedRecordThatNamesTheKeyIsWarnedOfBesideTheIncomingReferences() throws {
        let cache = try makeCache("damaged.sqlite", [Record(key: "A:1", fields: ["b": .reference("B:1")]), Record(key: "B:1", fields: ["n": .int(1)])],
                                  raw: [("Bad:1", #"{"x":{"$reference":"B:1"}"#), ("Other:1", "not json"),
                                        // Damaged, and naming another key that starts alike, or an escape any key may hide in.
                                        ("Near:1", #"{"x":{"$reference":"B:10"}"#), ("Escape:1", #"{"name":"Caf\u00e9""#)])
        let result = gqlcache("refs", cache, "B:1")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines, ["B:1", "└─ (no references)", "incoming references (1)", "  A:1 b"])
        XCTAssertEqual(result.stderr, "gqlcache: warning: \(cache): record 'Bad:1' is damaged (not a JSON object) and its text holds 'B:1'; "
            + "any reference it holds cannot be read and is not listed ('gqlcache doctor' lists damaged records)\n")
    }

    /// A script tells a damaged record, and one whose references lie
    /// beyond --depth, from a record without references.
    func testJSONMarksDamagedRecordsAndReferencesBeyondTheDepth() throws {
        let cache = try makeCache("damaged.sqlite", [
            Record(key: "A:1", fields: ["b": .reference("B:1"), "c": .reference("C:1")]),
            Record(key: "C:1", fields: ["d": .reference("D:1")]),
            Record(key: "D:1", fields: ["e": .string("leaf")]),
        ], raw: [("B:1", "not json")])
        let root = try XCTUnwrap(try gqlcache("refs", cache, "B:1", "--format", "json").json() as? [String: Any])
        XCTAssertEqual(root["error"] as? String, "text that is not JSON, not a JSON object")
        let tree = try XCTUnwrap(try gqlcache("refs", cache, "A:1", "--format", "json").json() as? [String: Any])
        let references = try XCTUnwrap(tree["references"] as? [[String: Any]])
        XCTAssertEqual(references.map { $0["to"] as? String }, ["B:1", "C:1"])
        XCTAssertEqual(references[0]["error"] as? String, "text that is not JSON, not a JSON object")
        XCTAssertEqual(references[1]["beyondDepth"] as? Bool, true)
        XCTAssertNil(references[1]["error"])
        let deeper = try XCTUnwrap(try gqlcache("refs", cache, "A:1", "--depth", "2", "--format", "json").json() as? [String: Any])
        let c = try XCTUnwrap((deeper["references"] as? [[String: Any]])?[1])
        XCTAssertNil(c["beyondDepth"])
        let d = try XCTUnwrap((c["references"] as? [[String: Any]])?.first)
        XCTAssertEqual(d["to"] as? String, "D:1")
        XCTAssertNil(d["beyondDepth"], "D:1 has no references")
        XCTAssertNil(tree["error"])
    }

    func testJSONNestsReferencesToTheDepthAsked() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("refs", cache, "Human:1000", "--depth", "2", "--format", "json")
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(document["typename"] as? String, "Human")
        let references = try XCTUnwrap(document["references"] as? [[String: Any]])
        XCTAssertEqual(references.count, 1)
        XCTAssertEqual(references[0]["location"] as? String, "starships[0]")
        XCTAssertEqual(references[0]["to"] as? String, "Starship:3001")
        XCTAssertEqual(references[0]["exists"] as? Bool, true)
        XCTAssertEqual((document["referencedBy"] as? [[String: String]])?.count, 4)
        XCTAssertEqual(gqlcache("refs", cache, "Human:1000", "--depth", "0").status, .usage)
    }
    /// A file whose text SQLite keeps in UTF-16: the references scanned
    /// for were looked for in its bytes as they are, and none was found,
    /// so rm's dry run called a removal safe that left one dangling.
    func testIncomingReferencesAreFoundInAUTF16File() throws {
        let cache = path("utf16.sqlite")
        try sqliteShell(cache, """
            PRAGMA encoding = 'UTF-16le';
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);
            INSERT INTO records(key, record) VALUES ('QUERY_ROOT', '{"x":{"$reference":"A:1"}}'), ('A:1', '{"__typename":"A","name":"Zoë"}');
            """)
        XCTAssertEqual(try sqliteShell(cache, "PRAGMA encoding", readOnly: true), "UTF-16le")
        let refs = gqlcache("refs", cache, "A:1")
        XCTAssertEqual(refs.status, .success, refs.stderr)
        XCTAssertTrue(refs.stdout.hasSuffix("incoming references (1)\n  QUERY_ROOT x\n"), refs.stdout)
        let removal = gqlcache("rm", cache, "A:1", "--dry-run")
        XCTAssertEqual(removal.stdout, "would remove A:1\nwould remove 1 record, leaving 1 reference dangling:\n  QUERY_ROOT x → A:1\n")
    }
}
