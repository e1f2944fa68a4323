import CacheStore
import XCTest

@testable import CacheQuery

/// `@include` and `@skip` take one argument, `if`, a Boolean: anything else
/// is refused, with or without a schema, where reading it as false would
/// quietly drop or keep a field.
final class ConditionCheckTests: XCTestCase {
    private func parseProblem(_ text: String) -> String? { documentProblem(text, source: "c.graphql") }

    /// The misses and problems of reading `text` from a one-record cache.
    private func read(_ text: String, variables: [String: InputValue] = [:]) throws -> ReadResult {
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["name": .string("Ann"), "id": .string("1")])
        let document = try QueryDocument.parse([("c.graphql", text)])
        return try CacheReader(document: document, source: source).read(try document.operation(named: nil), variables: variables)
    }

    func testALiteralThatIsNotABooleanIsRefusedWithItsPlace() {
        XCTAssertEqual(parseProblem(#"{ name id @include(if: "true") }"#), #"c.graphql:1:24: @include(if:) takes a Boolean, found "true""#)
        XCTAssertEqual(parseProblem("{ name ... on Query @skip(if: 1) { id } }"), "c.graphql:1:31: @skip(if:) takes a Boolean, found 1")
        XCTAssertEqual(parseProblem("{ name ...F @skip(if: null) } fragment F on Query { id }"),
                       "c.graphql:1:23: @skip(if:) takes a Boolean, found null")
    }

    func testAConditionWithoutIfOrWithAnotherArgumentIsRefused() {
        XCTAssertEqual(parseProblem("{ name id @include }"), "c.graphql:1:11: @include needs its argument if: Boolean!")
        XCTAssertEqual(parseProblem("{ name id @skip(when: true) }"), "c.graphql:1:17: @skip has no argument 'when'; it takes if: Boolean!")
    }

    func testAConditionVariableThatIsNotABooleanIsRefused() throws {
        let text = "query Q($a: String) { name id @skip(if: $a) }"
        XCTAssertThrowsError(try read(text, variables: ["a": .string("true")])) { error in
            XCTAssertEqual("\(error)", #"invalid variables: $a: @skip(if:) needs a Boolean, found "true""#)
        }
        XCTAssertThrowsError(try read("query Q($a: Boolean) { name id @include(if: $a) }")) { error in
            XCTAssertEqual("\(error)", "invalid variables: $a is not given, and @include(if: $a) needs a Boolean")
        }
        let kept = try read("query Q($a: Boolean) { name id @include(if: $a) }", variables: ["a": .boolean(true)])
        guard case .object(let members)? = kept.data else { return XCTFail("\(kept.misses)") }
        XCTAssertEqual(members.map(\.0), ["name", "id"])
    }

    func testTwoFragmentsWithOneNameAreRefusedNamingWhere() {
        XCTAssertEqual(parseProblem("{ ...A } fragment A on Query { name } fragment A on Query { id }"),
                       "two fragments are named 'A' (in c.graphql); a fragment name must be unique")
        XCTAssertThrowsError(try QueryDocument.parse([("a.graphql", "fragment A on Query { name }"), ("b.graphql", "fragment A on Query { id }")])) {
            XCTAssertEqual("\($0)", "two fragments are named 'A' (in a.graphql and b.graphql); a fragment name must be unique")
        }
    }
}
