import CacheStore
import XCTest

@testable import CacheQuery

/// Documents and schemas nested too deep are refused with their place
/// before the parser, which recurses once a level, could overflow the stack.
final class NestingLimitTests: XCTestCase {
    private func nested(_ levels: Int) -> String {
        "{ viewer " + String(repeating: "{ a ", count: levels - 1) + String(repeating: "}", count: levels - 1) + " }"
    }

    /// Fragments that each spread the same two others, 30 levels down, are
    /// 2³⁰ paths to the last ones but 62 fragments: the walks that gather
    /// response names and deferred labels take each fragment once (per
    /// field path), where walking every path would not end.
    func testFragmentsSpreadingTheSameOthersAreWalkedOncePerFragment() throws {
        let levels = 30
        var text = "query Q { ... @defer(label: \"d\") { ...A0 } }\n"
        for level in 0..<levels {
            for name in ["A", "B"] { text += "fragment \(name)\(level) on Query { ...A\(level + 1) ...B\(level + 1) }\n" }
        }
        text += "fragment A\(levels) on Query { hero { id } }\nfragment B\(levels) on Query { droid: hero { name } }\n"
        let document = try QueryDocument.parse([("fan.graphql", text)])
        let operation = try XCTUnwrap(document.operations.first)
        XCTAssertEqual(document.rootResponseNames(of: operation), ["hero", "droid"])
        XCTAssertEqual(document.rootResponseNames(of: try document.fragment(named: "B0")), ["hero", "droid"])
        let labels = ResponseNormalizer(document: document).deferredLabels(in: operation)
        XCTAssertEqual(labels.map(\.label), ["d"])
    }

    func testADocumentDeeperThanTheLimitIsASyntaxErrorAtItsPlace() throws {
        XCTAssertNoThrow(try QueryDocument.parse([("ok.graphql", nested(NestingLimit.maximumDepth))]))
        XCTAssertThrowsError(try QueryDocument.parse([("deep.graphql", "\n" + nested(5_000))])) { error in
            XCTAssertEqual(error as? QueryError, .syntax(source: "deep.graphql", line: 2, column: 2_006, message: "nesting deeper than 500 levels"))
        }
        let listDefault = "query Q($v: Int = " + String(repeating: "[", count: 5_000) + "1" + String(repeating: "]", count: 5_000) + ") { a }"
        XCTAssertThrowsError(try QueryDocument.parse([("list.graphql", listDefault)]))
    }

    /// Each fragment spread is a level of every walk over the selections,
    /// though the text does not nest: a chain of fragments spreading each
    /// other deeper than the limit is refused at the spread that goes past
    /// it (30,000 of them overflowed the stack), and a cycle is still named
    /// as one.
    func testFragmentsSpreadingEachOtherDeeperThanTheLimitAreRefusedAtTheSpread() throws {
        func chain(_ count: Int) -> String {
            "query Q { hero { ...F0 } }\n" + (0..<count).map { "fragment F\($0) on Droid { name ...F\($0 + 1) }" }.joined(separator: "\n")
                + "\nfragment F\(count) on Droid { name }"
        }
        XCTAssertNoThrow(try QueryDocument.parse([("ok.graphql", chain(400))]))
        XCTAssertThrowsError(try QueryDocument.parse([("chain.graphql", chain(3_000))])) { error in
            guard case .syntax(let source, let line, let column, let message)? = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, "chain.graphql")
            XCTAssertEqual(message, "fragment 'F2499' spreads 'F2500', and the spreads from there nest more than 500 levels deep; "
                + "no real operation is that deep")
            XCTAssertEqual(line, 2_501)
            XCTAssertEqual(column, 32)
        }
        // Named at the spread in the fragment that goes past the limit, not
        // at the first spread of that name in the documents (the operation's).
        let early = "query Q { hero { ...F100 } }\n" + chain(600).split(separator: "\n").dropFirst().joined(separator: "\n")
        XCTAssertThrowsError(try QueryDocument.parse([("early.graphql", early)])) { error in
            guard case .syntax(_, let line, let column, let message)? = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.hasPrefix("fragment 'F99' spreads 'F100'"), message)
            XCTAssertEqual(line, 101)
            XCTAssertEqual(column, 30)
        }
        let cycle = try QueryDocument.parse([("cycle.graphql", "{ hero { ...A } }\nfragment A on Droid { ...B }\nfragment B on Droid { ...A }")])
        XCTAssertThrowsError(try cycle.checkFragmentSpreads(in: cycle.operations[0].selections)) { error in
            XCTAssertEqual(error as? QueryError, .fragmentCycle(["A", "B", "A"]))
        }
    }

    /// Fragments that each spread the next twice double what a read walks
    /// at every level: 40 of them, over a record that leads back to itself,
    /// grew a read past 2 GB. Refused before the read, at the spread of the
    /// first fragment that comes to more than the limit written out; a
    /// document as large that spreads no fragment that large names the
    /// largest; and one fragment spread side by side thousands of times,
    /// as large as real operations get and more, is read.
    func testFragmentsThatMultiplyPastTheLimitAreRefusedBeforeARead() throws {
        func doubling(_ levels: Int) -> String {
            "query Q { node { ...F0 } }\n" + (0..<levels).map { "fragment F\($0) on Node { a: next { ...F\($0 + 1) } b: next { ...F\($0 + 1) } }" }
                .joined(separator: "\n") + "\nfragment F\(levels) on Node { id }"
        }
        let bomb = try QueryDocument.parse([("bomb.graphql", doubling(40))])
        XCTAssertThrowsError(try bomb.checkFragmentSpreads(in: bomb.operations[0].selections)) { error in
            guard case .validation(let source, let line, let column, let message)? = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, "bomb.graphql")
            XCTAssertEqual(message, "fragment 'F24' comes to more than 250000 selections with the fragments it spreads written out, each spread "
                + "counted where it is spread (a fragment spread twice counts twice); no real operation is that large")
            XCTAssertEqual(line, 25, "at the spread of F24 in F23")
            XCTAssertEqual(column, 34)
        }
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["node": .reference(CacheKey("Node:1"))])
        source.add("Node:1", ["__typename": .string("Node"), "next": .reference(CacheKey("Node:1"))])
        XCTAssertThrowsError(try CacheReader(document: bomb, source: source).read(try bomb.operation(named: "Q"))) { error in
            guard case .validation? = error as? QueryError else { return XCTFail("\(error)") }
        }

        let root = try QueryDocument.parse([("root.graphql", doubling(16))])
        XCTAssertThrowsError(try root.checkFragmentSpreads(in: try root.fragment(named: "F0").selections)) { error in
            guard case .validation(_, _, _, let message)? = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.hasPrefix("the selections read come to more than 250000 with the fragments they spread written out "
                + "('F1' alone to 163836), "), message)
        }

        let fields = (0..<10).map { "f\($0)" }.joined(separator: " ")
        let wide = "query W { " + (0..<10_000).map { "a\($0): node { ...N }" }.joined(separator: " ") + " }\nfragment N on Node { \(fields) }"
        let large = try QueryDocument.parse([("wide.graphql", wide)])
        XCTAssertNoThrow(try large.checkFragmentSpreads(in: large.operations[0].selections))
    }

    func testBracesInStringsBlockStringsAndCommentsDoNotCount() throws {
        let braces = String(repeating: "{[(", count: 1_000)
        let text = """
            # \(braces)
            query Q($s: String = "\(braces) \\" \(braces)") {
              a(text: \"\"\"
                \(braces) \\\"\"\" \(braces)
              \"\"\")
            }
            """
        XCTAssertNil(NestingLimit.firstTooDeep(in: text))
        XCTAssertNoThrow(try QueryDocument.parse([("strings.graphql", text)]))
    }

    func testASchemaDeeperThanTheLimitIsASchemaErrorAtItsPlace() {
        let sdl = "type Query { a: " + String(repeating: "[", count: 5_000) + "Int" + String(repeating: "]", count: 5_000) + " }"
        XCTAssertThrowsError(try CacheSchema.parse(sdl: sdl, source: "deep.graphqls")) { error in
            XCTAssertEqual(error as? QueryError, .schema(source: "deep.graphqls", line: 1, column: 516, message: "nesting deeper than 500 levels"))
        }
    }

    /// A line ends at a lone CR or CRLF too, in comments as elsewhere, and
    /// columns count UTF-16 code units, as graphql-js does.
    func testLinesEndAtCRAndColumnsCountUTF16CodeUnits() {
        let deep = String(repeating: "{ a ", count: 600)
        XCTAssertEqual(NestingLimit.firstTooDeep(in: "# note\r" + deep)?.line, 2)
        XCTAssertEqual(NestingLimit.firstTooDeep(in: "# one\r\n# two\r" + deep)?.line, 3)
        XCTAssertEqual(NestingLimit.firstTooDeep(in: "\"unterminated\r" + deep)?.line, 2)
        XCTAssertEqual(NestingLimit.firstTooDeep(in: "\"\"\"block\rstring\"\"\"\r" + deep)?.line, 3)
        let place = NestingLimit.firstTooDeep(in: #"{ a(s: "ééé😀") "# + deep)
        XCTAssertEqual(place?.line, 1)
        XCTAssertEqual(place?.column, #"{ a(s: "ééé😀") "#.utf16.count + 4 * 499 + 1)
        XCTAssertThrowsError(try QueryDocument.parse([("cr.graphql", "# note\r" + deep)]))
    }

    func testTheSameTextGivenTwiceIsReadOnce() throws {
        let text = "query A { x } fragment F on T { y }"
        let document = try QueryDocument.parse([("a.graphql", text), ("./a.graphql", text)])
        XCTAssertEqual(document.operations.count, 1)
    }
}
