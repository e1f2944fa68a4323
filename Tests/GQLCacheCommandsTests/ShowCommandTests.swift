import CacheStore
@testable import GQLCacheCommands
import XCTest

final class ShowCommandTests: CommandTestCase {
    func testShowDrawsFieldsAndReferencesAsLinks() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("show", cache, "Droid:2001")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, """
            Droid:2001 (Droid)
            ├─ __typename: "Droid"
            ├─ appearsIn: ["NEWHOPE", "EMPIRE", "JEDI"]
            ├─ friends [3]
            │  ├─ [0] → Human:1000
            │  ├─ [1] → Human:1002
            │  └─ [2]: null
            ├─ friendsConnection(after:null,first:2) → Droid:2001.friendsConnection(after:null,first:2)
            ├─ id: "2001"
            ├─ name: "R2-D2"
            └─ primaryFunction: "Astromech"

            """)
    }

    /// A key typed by mistake is named in one short line: cut when very
    /// long, its line break escaped.
    /// Several keys are one drawing, as the JSON forms give them: each
    /// record once, where it is nearest the top of any tree. A key given
    /// twice is drawn once; a record given that another tree reaches says
    /// there where it is drawn.
    func testSeveralKeysAreOneDrawingWithEachRecordOnce() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("show", cache, "Human:1002", "Human:1002").lines, [
            "Human:1002 (Human)", #"├─ __typename: "Human""#, #"├─ id: "1002""#, #"└─ name: "Han Solo""#,
        ])
        let both = gqlcache("show", cache, "Droid:2001", "Human:1000", "--depth", "1").lines
        XCTAssertTrue(both.contains("│  ├─ [0] → Human:1000 (Human) (below)"), both.joined(separator: "\n"))
        XCTAssertEqual(both.filter { $0.hasSuffix("name: \"Luke Skywalker\"") }.count, 1, both.joined(separator: "\n"))
        XCTAssertEqual(both.filter { $0.hasPrefix("Human:1000") }.count, 1)
        // A missing key given twice is said once, as it is drawn once.
        let missing = gqlcache("show", cache, "Nope:1", "Nope:1")
        XCTAssertEqual(missing.stderr.components(separatedBy: "no record 'Nope:1'").count, 2, missing.stderr)
    }

    func testAnUnknownKeyIsNamedInOneShortLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let long = gqlcache("show", cache, String(repeating: "x", count: 100_000))
        XCTAssertEqual(long.status, .notFound)
        XCTAssertEqual(long.stderr, "gqlcache: no record '\(String(repeating: "x", count: 120))… (100000 characters)' in \(cache)\n")
        let broken = gqlcache("show", cache, "Human:\n1000")
        XCTAssertEqual(broken.stderr, "gqlcache: no record 'Human:\\n1000' in \(cache); nearest keys: Human:1000, Human:1002\n")
    }

    func testTheExitStatusOfAMissingAndADamagedRecordIsTheGravestWhateverTheirOrder() throws {
        let cache = try makeCache("mixed.sqlite", [Record(key: "Good:1", fields: ["a": .int(1)])], raw: [("Broken:1", "[1,2]")])
        for keys in [["Nope:1", "Broken:1", "Good:1"], ["Broken:1", "Nope:1", "Good:1"], ["Good:1", "Nope:1", "Broken:1"]] {
            let result = gqlcache(arguments: ["show", cache] + keys)
            XCTAssertEqual(result.status, .damagedRecord, keys.joined(separator: " "))
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 2, result.stderr)
        }
    }

    func testShowMarksDanglingReferencesAsMissing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        let result = gqlcache("show", cache, "Droid:2001")
        XCTAssertTrue(result.stdout.contains("│  ├─ [1] → Human:1002 (missing)\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("│  ├─ [0] → Human:1000\n"), result.stdout)
    }

    /// Apollo reads any inline object with a string `$reference` back as a
    /// reference, also one with other members or inside a custom scalar's
    /// object: the text draws and follows those as --format jsonl lists
    /// them, dangling ones marked missing.
    func testReferencesInsideInlineObjectsAreDrawnAndFollowedAsJSONListsThem() throws {
        let cache = try makeCache("inline.sqlite", [], raw: [
            ("S:1", #"{"__typename":"S","meta":{"inner":{"$reference":"A:1"},"list":[{"$reference":"Gone:9"}],"n":1},"odd":{"$reference":"Gone:8","extra":1}}"#),
            ("A:1", #"{"__typename":"A","name":"a"}"#),
        ])
        let result = gqlcache("show", cache, "S:1", "--depth", "1")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, """
            S:1 (S)
            ├─ __typename: "S"
            ├─ meta {3}
            │  ├─ inner → A:1 (A)
            │  │  ├─ __typename: "A"
            │  │  └─ name: "a"
            │  ├─ list [1]
            │  │  └─ [0] → Gone:9 (missing)
            │  └─ n: 1
            └─ odd (an object with extra beside $reference) → Gone:8 (missing)

            """)
        let listed = gqlcache("show", cache, "S:1", "--depth", "1", "--format", "jsonl").lines
        XCTAssertEqual(listed.count, 4, "S:1, A:1 and the two missing: \(listed)")
    }

    /// A value holding a right-to-left override or a line separator would
    /// reorder or break the line it is shown on: text output escapes them,
    /// as it escapes them in keys.
    func testCharactersThatMoveTextAreEscapedInValuesShownAsText() throws {
        let cache = try makeCache("bidi.sqlite", [Record(key: "B:1", fields: [
            "v": .string("x\u{202E}y"), "ls": .string("a\u{2028}b"), "word": .string("Donau\u{00AD}dampf"),
        ])])
        // A soft hyphen is ordinary text: it stays.
        XCTAssertEqual(gqlcache("show", cache, "B:1").stdout, #"""
            B:1
            ├─ ls: "a\u2028b"
            ├─ v: "x\u202ey"
            └─ word: "Donau\#u{00AD}dampf"

            """#)
        XCTAssertEqual(gqlcache("grep", cache, "x").stdout, #"B:1 v: "x\u202ey""# + "\n")
        // In colour the match is marked as it is spelled on the line.
        XCTAssertEqual(gqlcache("grep", cache, "--regex", "x.y", "--color", "always").stdout,
                       "\u{1B}[1mB:1\u{1B}[0m v: \"\u{1B}[1;31mx\\u202ey\u{1B}[0m\"\n")
        // Where the match is, not an earlier place its text comes inside an escape (the `n` of `\n`, the `u` of `\u001b`).
        let escaped = try makeCache("escaped.sqlite", [Record(key: "E:1", fields: ["v": .string("a\nb n"), "w": .string("\u{1B}u")])])
        XCTAssertEqual(gqlcache("grep", escaped, "n", "--color", "always").stdout, "\u{1B}[1mE:1\u{1B}[0m v: \"a\\nb \u{1B}[1;31mn\u{1B}[0m\"\n")
        XCTAssertEqual(gqlcache("grep", escaped, "u", "--regex", "--color", "always").stdout,
                       "\u{1B}[1mE:1\u{1B}[0m w: \"\\u001b\u{1B}[1;31mu\u{1B}[0m\"\n")
        let other = try makeCache("other.sqlite", [Record(key: "B:1", fields: ["v": .string("x\u{202E}z"), "ls": .string("a\u{2028}b")])])
        XCTAssertTrue(gqlcache("diff", cache, other).stdout.contains(#"~ v: "x\u202ey" → "x\u202ez""#))
        // The record as stored, for scripts.
        XCTAssertTrue(gqlcache("show", cache, "B:1", "--format", "jsonl").stdout.contains("\"x\u{202E}y\""))
    }

    func testDepthExpandsReferencedRecordsInline() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("show", cache, "QUERY_ROOT.reviews(episode:JEDI,first:2).0", "MUTATION_ROOT", "--depth", "1")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.contains(#"├─ commentary: "Great! / \"quoted\" é""#), result.stdout)
        XCTAssertTrue(result.stdout.contains(#"├─ meta: {"score":1.5,"source":"web"}"#), result.stdout)
        XCTAssertTrue(result.stdout.contains("""
            └─ createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5]) → MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5]) (Review)
               ├─ __typename: "Review"
            """), result.stdout)
    }

    /// At the last level too, a record expanded elsewhere in the tree says
    /// where; one expanded nowhere (beyond the depth) says nothing.
    func testAtTheLastLevelARecordExpandedElsewhereSaysWhere() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let below = gqlcache("show", cache, "QUERY_ROOT", "--depth", "1").lines
        XCTAssertTrue(below.contains("│  │  ├─ [0] → Human:1000 (Human) (below)"), below.joined(separator: "\n"))
        let above = gqlcache("show", cache, "Droid:2001", "--depth", "1").lines
        XCTAssertTrue(above.contains("│  │  └─ [0] → Human:1000 (Human) (above)"), above.joined(separator: "\n"))
        XCTAssertTrue(above.contains("│  │     └─ [0] → Starship:3001"), "beyond the depth: \(above.joined(separator: "\n"))")
    }

    func testDepthStopsAtCycles() throws {
        let cache = try makeCache("cycle.sqlite", [
            Record(key: "A:1", fields: ["next": .reference("B:1")]),
            Record(key: "B:1", fields: ["next": .reference("A:1")]),
        ])
        let result = gqlcache("show", cache, "A:1", "--depth", "5")
        XCTAssertEqual(result.stdout, """
            A:1
            └─ next → B:1
               └─ next → A:1 (cycle)

            """)
    }

    /// Drawn once per path, six records that all point at each other made
    /// a tree of 6^depth lines (a 100,000-record cache was killed for its
    /// memory at --depth 1000). Each record is now expanded once, where it
    /// is nearest the top, and its other places say where it is.
    func testEachRecordIsExpandedOnceWhereItIsNearestTheTop() throws {
        let names = (1...6).map { "N:\($0)" }
        let cache = try makeCache("mesh.sqlite", names.map { name in
            Record(key: CacheKey(name), fields: ["__typename": .string("Node"),
                "next": .list(names.filter { $0 != name }.map { .reference(CacheKey($0)) })])
        } + [
            Record(key: "Root:1", fields: ["a": .reference("X:1"), "b": .reference("Y:1")]),
            Record(key: "X:1", fields: ["__typename": .string("X"), "y": .reference("Y:1")]),
            Record(key: "Y:1", fields: ["__typename": .string("Y"), "n": .int(1)]),
        ])
        let mesh = gqlcache("show", cache, "N:1", "--depth", "1000")
        XCTAssertEqual(mesh.status, .success, mesh.stderr)
        XCTAssertEqual(mesh.lines.filter { $0.hasSuffix("(Node)") }.count, 6, "N:1, then each other record expanded once")
        XCTAssertLessThan(mesh.lines.count, 100)
        // Y:1 is nearest through Root:1's b, met after X:1's y in the drawing.
        XCTAssertEqual(gqlcache("show", cache, "Root:1", "--depth", "5").stdout, """
            Root:1
            ├─ a → X:1 (X)
            │  ├─ __typename: "X"
            │  └─ y → Y:1 (Y) (below)
            └─ b → Y:1 (Y)
               ├─ __typename: "Y"
               └─ n: 1

            """)
    }

    func testTheDeepestDepthDrawsAThousandLevelsOfALongerChain() throws {
        // 1,500 records, each referencing the next: deeper than --depth may go.
        let chain = (1...1_500).map { i in
            Record(key: CacheKey("Node:\(i)"), fields: i < 1_500 ? ["next": .reference(CacheKey("Node:\(i + 1)"))] : [:])
        }
        let cache = try makeCache("chain.sqlite", chain)
        let text = gqlcache("show", cache, "Node:1", "--depth", "1000")
        XCTAssertEqual(text.status, .success, text.stderr)
        let lines = text.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 1_002, "Node:1, then 1,000 expanded references and the one after")
        XCTAssertTrue(lines.last!.hasSuffix("└─ next → Node:1002"), String(lines.last!.suffix(40)))
        let refs = gqlcache("refs", cache, "Node:1", "--depth", "1000", "--format", "json")
        XCTAssertEqual(refs.status, .success, refs.stderr)
        XCTAssertTrue(refs.stdout.contains(#""to":"Node:1001""#) || refs.stdout.contains(#""to": "Node:1001""#))
        XCTAssertFalse(refs.stdout.contains("Node:1002"))
        let tooDeep = gqlcache("show", cache, "Node:1", "--depth", "1001")
        XCTAssertEqual(tooDeep.status, .usage)
        XCTAssertEqual(tooDeep.stdout, "")
    }

    func testUnknownKeyExitsOneAndSuggestsTheNearestKeys() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let typo = gqlcache("show", cache, "Droid:2010")
        XCTAssertEqual(typo.status, .notFound)
        XCTAssertEqual(typo.stdout, "")
        XCTAssertEqual(typo.stderr, "gqlcache: no record 'Droid:2010' in \(cache); nearest keys: Droid:2001\n")
        let wrongCase = gqlcache("show", cache, "human:1000")
        XCTAssertTrue(wrongCase.stderr.contains("nearest keys: Human:1000"), wrongCase.stderr)
        // An empty cache is said to be one: no key is missing for a reason of its own.
        XCTAssertEqual(gqlcache("clear", cache, "--force").status, .success)
        let empty = gqlcache("show", cache, "QUERY_ROOT")
        XCTAssertEqual(empty.status, .notFound)
        XCTAssertEqual(empty.stderr, "gqlcache: no record 'QUERY_ROOT' in \(cache), which holds no records\n")
    }

    /// Apollo keys an object without an id by its path (QUERY_ROOT.hero),
    /// so people type paths as keys: one that runs through fields from a
    /// record that exists is followed, and where it leads is said.
    func testAMissingKeyThatIsAPathOfFieldsSaysWhereThePathLeads() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        func message(_ key: String) -> String {
            let result = gqlcache("show", cache, key)
            XCTAssertEqual(result.status, .notFound, key)
            XCTAssertEqual(result.stdout, "", key)
            return result.stderr
        }
        XCTAssertEqual(
            message("QUERY_ROOT.hero"),
            "gqlcache: no record 'QUERY_ROOT.hero' in \(cache); read as a path of fields: QUERY_ROOT hero(episode:NEWHOPE) → Droid:2001\n")
        // Arguments typed as in a document lead where Apollo's would.
        XCTAssertEqual(
            message(#"QUERY_ROOT.human(id: "1000")"#),
            "gqlcache: no record 'QUERY_ROOT.human(id: \"1000\")' in \(cache); read as a path of fields: QUERY_ROOT human(id:1000) → Human:1000\n")
        XCTAssertEqual(
            message("QUERY_ROOT.reviews(first: 2, episode: JEDI).0"),
            "gqlcache: no record 'QUERY_ROOT.reviews(first: 2, episode: JEDI).0' in \(cache); nearest keys: QUERY_ROOT.reviews(episode:JEDI,first:2).0\n")
        XCTAssertEqual(
            message("QUERY_ROOT.hero(episode:NEWHOPE).friends[0]"),
            "gqlcache: no record 'QUERY_ROOT.hero(episode:NEWHOPE).friends[0]' in \(cache); read as a path of fields: "
                + "QUERY_ROOT hero(episode:NEWHOPE) → Droid:2001 friends.0 → Human:1000\n")
        XCTAssertEqual(
            message("QUERY_ROOT.search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky]).1.0.name"),
            "gqlcache: no record 'QUERY_ROOT.search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky]).1.0.name' in \(cache); "
                + "read as a path of fields, it is field name of Droid:2001, not a record "
                + "(QUERY_ROOT search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky]).1.0 → Droid:2001)\n")
        XCTAssertEqual(message("Human:1000.name"), "gqlcache: no record 'Human:1000.name' in \(cache); read as a path of fields, it is field name of Human:1000, not a record\n")
        // Past a list's end, or a field no record has: only a key, with its nearest.
        XCTAssertFalse(message("QUERY_ROOT.hero.friends.7").contains("path"))
        XCTAssertEqual(message("Droid:2001.nope"), "gqlcache: no record 'Droid:2001.nope' in \(cache); nearest keys: Droid:2001\n")
        // A path to a key with no record says so, as refs and rm say it too.
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002", "--force", "--quiet").status, .success)
        let dangling = "no record 'QUERY_ROOT.hero.friends.1' in \(cache); read as a path of fields: "
            + "QUERY_ROOT hero(episode:NEWHOPE) → Droid:2001 friends.1 → Human:1002, which has no record (a dangling reference)"
        XCTAssertEqual(message("QUERY_ROOT.hero.friends.1"), "gqlcache: \(dangling)\n")
        XCTAssertEqual(gqlcache("refs", cache, "QUERY_ROOT.hero.friends.1").stderr, "gqlcache: \(dangling)\n")
        let remove = gqlcache("rm", cache, "QUERY_ROOT.hero.friends.1", "--force")
        XCTAssertEqual(remove.status, .notFound)
        XCTAssertTrue(remove.stderr.contains(dangling), remove.stderr)
    }

    func testShowPrintsTheKeysItFindsAndReportsTheOthers() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("show", cache, "Human:1002", "Human:9999")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertTrue(result.stdout.hasPrefix("Human:1002 (Human)\n"), result.stdout)
        XCTAssertTrue(result.stderr.contains("no record 'Human:9999'"), result.stderr)
    }

    func testJSONLinesGiveEachRecordAsStoredWithItsDepth() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("show", cache, "Human:1000", "--depth", "1", "--format", "jsonl")
        XCTAssertEqual(result.status, .success, result.stderr)
        let entries = try result.lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(entries.map { $0["key"] as? String }, ["Human:1000", "Starship:3001"])
        XCTAssertEqual(entries.map { $0["depth"] as? Int }, [0, 1])
        let record = try XCTUnwrap(entries[0]["record"] as? [String: Any])
        XCTAssertEqual(record["starships"] as? [[String: String]], [["$reference": "Starship:3001"]])
        XCTAssertEqual(record["height(unit:FOOT)"] as? Double, 5.6430448)
        XCTAssertTrue(record["mass"] is NSNull)
    }

    func testJSONReportsMissingKeysInline() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("show", cache, "Nope:1", "--format", "json")
        XCTAssertEqual(result.status, .notFound)
        let entries = try XCTUnwrap(try result.json() as? [[String: Any]])
        XCTAssertEqual(entries.first?["missing"] as? Bool, true)
    }

    /// QUERY_ROOT → A:1, B:1 and a missing C:9; A:1 → B:1 and the
    /// damaged D:1; B:1 → A:1 (a cycle) and E:1.
    func makeGraphWithACycleAMissingAndADamagedRecord() throws -> String {
        try makeCache(
            "graph.sqlite",
            [
                Record(key: "QUERY_ROOT", fields: ["hero": .reference("A:1"), "list": .list([.reference("B:1"), .reference("A:1"), .reference("C:9")])]),
                Record(key: "A:1", fields: ["__typename": .string("A"), "friend": .reference("B:1"), "damaged": .reference("D:1")]),
                Record(key: "B:1", fields: ["__typename": .string("B"), "back": .reference("A:1"), "next": .reference("E:1")]),
                Record(key: "E:1", fields: ["__typename": .string("E")]),
            ],
            raw: [("D:1", "{not json")])
    }

    func testJSONFormsListEachRecordOnceAtTheLevelNearestTheTop() throws {
        let cache = try makeGraphWithACycleAMissingAndADamagedRecord()
        let expected: [(key: String, depth: Int, kind: String)] = [
            ("QUERY_ROOT", 0, "record"), ("A:1", 1, "record"), ("B:1", 1, "record"), ("C:9", 1, "missing"),
            ("D:1", 2, "error"), ("E:1", 2, "record"),
        ]
        let lines = gqlcache("show", cache, "QUERY_ROOT", "--depth", "2", "--format", "jsonl")
        XCTAssertEqual(lines.status, .success, lines.stderr)
        let json = gqlcache("show", cache, "QUERY_ROOT", "--depth", "2", "--format", "json")
        XCTAssertEqual(json.status, .success, json.stderr)
        // Written a record at a time: still one pretty array.
        XCTAssertTrue(json.stdout.hasPrefix("[\n  {\n    \"key\": \"QUERY_ROOT\",\n    \"depth\": 0,\n"), json.stdout)
        XCTAssertTrue(json.stdout.hasSuffix("\n  }\n]\n"), json.stdout)
        let fromJSON = try XCTUnwrap(try json.json() as? [[String: Any]])
        let fromLines = try lines.lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        for entries in [fromJSON, fromLines] {
            XCTAssertEqual(entries.map { $0["key"] as? String }, expected.map(\.key))
            XCTAssertEqual(entries.map { $0["depth"] as? Int }, expected.map(\.depth))
            XCTAssertEqual(entries.map { Set($0.keys).subtracting(["key", "depth"]) }, expected.map { [$0.kind] })
        }
    }

    func testRecordsReadAFewAtATimeComeInTheSameOrderAsReadAllAtOnce() throws {
        let cache = try makeGraphWithACycleAMissingAndADamagedRecord()
        let store = try CacheStore.open(at: cache, access: .readOnly)
        func walked(chunkSize: Int) throws -> [String] {
            try store.read { tx in
                var seen: [String] = []
                let beyond = try RecordGraph.walk(["QUERY_ROOT", "B:1"], depth: 1, in: tx, chunkSize: chunkSize, collectingBeyond: true) { level, key, entry in
                    seen.append("\(level) \(key.rawValue) \(entry == .missing ? "missing" : "")")
                }
                return seen + beyond.map { "beyond \($0.rawValue)" }
            }
        }
        let whole = try walked(chunkSize: 4096)
        XCTAssertEqual(whole, ["0 QUERY_ROOT ", "0 B:1 ", "1 A:1 ", "1 C:9 missing", "1 E:1 ", "beyond D:1"])
        for chunkSize in 1...3 { XCTAssertEqual(try walked(chunkSize: chunkSize), whole, "chunks of \(chunkSize)") }
    }

    func testShowLeavesTheFileByteIdentical() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let shown = gqlcache("show", cache, "QUERY_ROOT", "--depth", "3")
        XCTAssertEqual(shown.status, .success, shown.stderr)
        XCTAssertTrue(shown.stdout.hasPrefix("QUERY_ROOT\n"), shown.stdout)
        XCTAssertEqual(gqlcache("show", cache, "Nope").status, .notFound)
        XCTAssertEqual(try bytes(cache), before)
    }
}
