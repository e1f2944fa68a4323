import XCTest

@testable import CacheQuery

/// A name GraphQL allows once, given twice, is refused at the second
/// without a schema: read as it is, the last value would quietly win and
/// the read would look for another field than the first one names.
final class UniquenessCheckTests: XCTestCase {
    private func parseProblem(_ text: String) -> String? { documentProblem(text, source: "u.graphql") }

    func testAVariableDeclaredTwiceIsRefused() {
        XCTAssertEqual(parseProblem("query Q($a: Episode, $a: Episode = JEDI) { hero(episode: $a) { name } }"),
                       "u.graphql:1:22: $a is declared twice")
    }

    func testAnArgumentGivenTwiceIsRefusedOnAFieldAndOnADirective() {
        XCTAssertEqual(parseProblem("{ hero(episode: NEWHOPE, episode: JEDI) { name } }"),
                       "u.graphql:1:26: argument 'episode' is given twice to 'hero'")
        XCTAssertEqual(parseProblem("query Q($v: Boolean!) { name @include(if: $v, if: true) }"),
                       "u.graphql:1:47: argument 'if' is given twice to @include")
    }

    func testAnInputObjectFieldGivenTwiceIsRefusedAtAnyDepthAndInADefault() {
        XCTAssertEqual(parseProblem(#"{ search(filter: {text: "sky", text: "x"}) { __typename } }"#),
                       "u.graphql:1:32: input field 'text' is given twice in one object")
        XCTAssertEqual(parseProblem(#"{ search(filter: {near: [{lat: 1, lat: 2}]}) { __typename } }"#),
                       "u.graphql:1:35: input field 'lat' is given twice in one object")
        XCTAssertEqual(parseProblem(#"query Q($f: SearchFilter = {text: "a", text: "b"}) { search(filter: $f) { __typename } }"#),
                       "u.graphql:1:40: input field 'text' is given twice in one object")
    }

    func testAConditionGivenTwiceOnOneSelectionIsRefusedAndOnTwoIsNot() {
        XCTAssertEqual(parseProblem("{ hero { name @include(if: true) @include(if: false) } }"),
                       "u.graphql:1:34: @include is given twice in one place; give it once")
        XCTAssertEqual(parseProblem("{ hero { ... on Droid @skip(if: true) @skip(if: false) { name } } }"),
                       "u.graphql:1:39: @skip is given twice in one place; give it once")
        XCTAssertNil(parseProblem("{ hero { name @include(if: true) @skip(if: false) id @include(if: true) } }"))
        XCTAssertNil(parseProblem("{ a: hero(episode: JEDI) { name } b: hero(episode: NEWHOPE) { name } }"))
    }

    /// `__typename: name` would have a name taken for the object's type (and
    /// key, without a schema): refused, as Apollo's code generator refuses
    /// it. `__typename` aliased to another name is fine.
    func testAnotherFieldAliasedAsTypenameIsRefused() {
        XCTAssertEqual(parseProblem("{ hero(episode: JEDI) { id __typename: name } }"),
                       "u.graphql:1:28: '__typename: name' gives another field the response name __typename, "
                       + "which Apollo's generated models keep for the object's type; Apollo's code generator refuses it")
        XCTAssertNil(parseProblem("{ hero(episode: JEDI) { kind: __typename __typename: __typename name } }"))
    }
}
