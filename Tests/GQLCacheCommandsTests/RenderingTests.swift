import CacheQuery
import CacheStore
@testable import GQLCacheCommands
import XCTest

final class RenderingTests: XCTestCase {
    func testSuggestionsPreferAKeyThatDiffersOnlyInCase() {
        let candidates: [CacheKey] = ["User:1", "User:2", "User:3", "Post:2"]
        XCTAssertEqual(KeySuggestions.nearest(to: "user:2", among: candidates), ["User:2"])
        XCTAssertEqual(KeySuggestions.nearest(to: "User:22", among: candidates), ["User:2", "User:1", "User:3"])
        XCTAssertEqual(KeySuggestions.nearest(to: "Completely:Different", among: candidates), [])
    }

    /// Arguments typed as in a document: spaces, quotes, any order.
    func testApolloFormWritesArgumentsAsApolloDoes() {
        XCTAssertEqual(KeySuggestions.apolloForm(#"QUERY_ROOT.human(id: "1000")"#), "QUERY_ROOT.human(id:1000)")
        XCTAssertEqual(KeySuggestions.apolloForm("QUERY_ROOT.reviews( first: 2 , episode: JEDI ).0"), "QUERY_ROOT.reviews(episode:JEDI,first:2).0")
        XCTAssertEqual(
            KeySuggestions.apolloForm("QUERY_ROOT.search(text:sky,[filter:limit:2,tags:[a, b]])"), "QUERY_ROOT.search([filter:limit:2,tags:[a, b]],text:sky)",
            "an input object sorts by its name; what is inside stays")
        XCTAssertEqual(KeySuggestions.apolloForm("Droid:2001"), "Droid:2001")
        XCTAssertEqual(KeySuggestions.apolloForm("a(b:1"), "a(b:1", "an unclosed bracket stays as typed")
        XCTAssertEqual(KeySuggestions.nearest(to: "Q.f(b:2,a:1).0", among: ["Q.f(a:1,b:2).0", "Q.f(a:1,b:2).1"]), ["Q.f(a:1,b:2).0"])
    }

    func testEditDistanceCountsInsertionsDeletionsAndSubstitutions() {
        func distance(_ a: String, _ b: String) -> Int {
            NameSuggestions.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        XCTAssertEqual(distance("Droid:2001", "Droid:2001"), 0)
        XCTAssertEqual(distance("Droid:2010", "Droid:2001"), 2)
        XCTAssertEqual(distance("", "abc"), 3)
        XCTAssertEqual(distance("kitten", "sitting"), 3)
    }

    func testAKeyLineIsTheTextOfTheSameObjectRendered() {
        for key: CacheKey in ["User:1", "", "a\"b\\c/d", "Line\nBreak\u{1}", "caf\u{E9} \u{1F600}", "QUERY_ROOT.users(first:2)"] {
            var direct = JSONLines()
            direct.appendKeyLine("kind", "unreachable", key: key)
            var rendered = JSONLines()
            rendered.append(.object([("kind", .string("unreachable")), ("key", .string(key.rawValue))]))
            XCTAssertEqual(direct.string, rendered.string)
            XCTAssertEqual(direct.string, JSONOutput.object([("kind", .string("unreachable")), ("key", .string(key.rawValue))]).rendered(pretty: false) + "\n")
        }
    }

    func testByteCountsUseBinaryUnits() {
        XCTAssertEqual(formatBytes(512), "512 B")
        XCTAssertEqual(formatBytes(24576), "24.0 KiB")
        XCTAssertEqual(formatBytes(1_572_864), "1.5 MiB")
    }

    func testPrettyJSONKeepsMemberOrderAndWritesStoredValues() {
        let document = JSONOutput.object([
            ("key", .string("A/1")),
            ("record", .record(["b": .reference("B:1"), "a": .list([.int(1), .double(2.5)])])),
            ("empty", .array([])),
        ])
        XCTAssertEqual(document.rendered(pretty: false), #"{"key":"A/1","record":{"a":[1,2.5],"b":{"$reference":"B:1"}},"empty":[]}"#)
        XCTAssertEqual(document.rendered(pretty: true), """
            {
              "key": "A/1",
              "record": {
                "a": [
                  1,
                  2.5
                ],
                "b": {"$reference":"B:1"}
              },
              "empty": []
            }
            """)
    }

    func testARecordWithoutFieldsIsDrawnAsSuch() {
        var graph = RecordGraph()
        graph.entries["MUTATION_ROOT"] = .found(Record(key: "MUTATION_ROOT", fields: [:]))
        XCTAssertEqual(RecordTreeRenderer(graph: graph, maxDepth: 0).render("MUTATION_ROOT"), "MUTATION_ROOT\n└─ (no fields)")
    }

    func testDanglingReportCountsEveryReferenceButKeepsTheFirstTenInKeyOrder() {
        var sample = DanglingReport(keepAll: false)
        var all = DanglingReport(keepAll: true)
        for index in (0..<50).reversed() {
            let reference = ReferenceLocation(from: CacheKey("User:\(100 + index)"), field: "posts", to: CacheKey("Post:\(index)"))
            sample.add(reference)
            all.add(reference)
        }
        XCTAssertEqual(sample.count, 50)
        XCTAssertEqual(sample.references.map(\.from.rawValue), (100..<110).map { "User:\($0)" })
        XCTAssertEqual(all.references.count, 50)
        XCTAssertEqual(all.references.first?.from, "User:100")
    }

    /// The REPL's help at a terminal: broken at spaces, continued under an
    /// indent, wide characters counted as two columns; width 0 wraps nothing.
    func testTextWrapsAtSpacesToTheWidthWithAHangingIndent() {
        XCTAssertEqual("aaa bbb ccc ddd".wrapped(width: 11, start: 2, indent: 4), "aaa bbb\n    ccc ddd")
        XCTAssertEqual("aaa bbb".wrapped(width: 0, start: 2, indent: 4), "aaa bbb")
        XCTAssertEqual("一二 三四".wrapped(width: 6, start: 0, indent: 1), "一二\n 三四", "each character two columns")
        XCTAssertEqual("short averyveryverylongword end".wrapped(width: 10, start: 0, indent: 2), "short\n  averyveryverylongword\n  end")
    }
}
