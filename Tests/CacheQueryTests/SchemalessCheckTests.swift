import XCTest

@testable import CacheQuery

/// GraphQL's rules that need no schema. A name GraphQL allows once, given
/// twice, is refused at the second: read as it is, the last value would
/// quietly win and the read would look for another field than the first
/// one names. A literal the app's operation cannot hold is refused where
/// it is written.
final class SchemalessCheckTests: XCTestCase {
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

    /// `@skip` on an operation or a fragment's definition would be passed
    /// over without a schema, as if it skipped nothing: refused where a
    /// schema's validation refuses it, in its words. Apollo's local cache
    /// mutation marker belongs on an operation or a fragment's definition.
    /// With a schema, which may declare `@defer` or the marker itself, its
    /// validation says where they go: the document parses either way.
    func testADirectiveOutsideItsDeclaredPlacesIsRefusedWithoutASchema() throws {
        func problem(_ text: String) throws -> String? {
            let document = try QueryDocument.parse([("u.graphql", text)])
            do {
                try document.checkDirectivePlacesWithoutSchema()
                return nil
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(try problem("query Q @skip(if: true) { hero { name } }"),
                       #"u.graphql:1:9: Directive "@skip" may not be used on QUERY."#)
        XCTAssertEqual(try problem("{ hero { ...F } } fragment F on Droid @include(if: false) { name }"),
                       #"u.graphql:1:39: Directive "@include" may not be used on FRAGMENT_DEFINITION."#)
        XCTAssertEqual(try problem("query Q($v: Int @skip(if: true)) { hero { name } }"),
                       #"u.graphql:1:17: Directive "@skip" may not be used on VARIABLE_DEFINITION."#)
        XCTAssertEqual(try problem("{ hero { name @defer } }"), #"u.graphql:1:15: Directive "@defer" may not be used on FIELD."#)
        XCTAssertEqual(try problem("{ hero { name @apollo_client_ios_localCacheMutation } }"),
                       #"u.graphql:1:15: Directive "@apollo_client_ios_localCacheMutation" may not be used on FIELD."#)
        XCTAssertEqual(try problem("query A @skip(if: true) { hero { a @defer } }"),
                       #"u.graphql:1:9: Directive "@skip" may not be used on QUERY."#, "the first in the text")
        XCTAssertNil(try problem("""
            mutation M @apollo_client_ios_localCacheMutation { hero { name @skip(if: false) ...F @include(if: true) \
            ... on Droid @defer { id } } }
            fragment F on Character @apollo_client_ios_localCacheMutation { name }
            """))
    }

    /// GraphQL's rule, which needs no schema: `query A { … } { … }` in one
    /// document is refused, as a schema's validation refuses it.
    func testAnAnonymousOperationBesideAnotherInOneDocumentIsRefused() {
        XCTAssertEqual(parseProblem("query A { hero { name } }\n{ hero { id } }"),
                       "u.graphql:2:1: This anonymous operation must be the only defined operation.")
        XCTAssertEqual(parseProblem("{ hero { id } } { hero { name } }"),
                       "u.graphql:1:1: This anonymous operation must be the only defined operation.")
        XCTAssertNil(parseProblem("{ hero { id } } fragment F on Droid { name }"))
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

    func testANumberLiteralBeyondADoubleIsRefusedWhereItIsNotKeyedInf() {
        XCTAssertEqual(parseProblem("{ n(x: 1e400) }"), "u.graphql:1:8: 1e400 is a number beyond a Double, which Apollo's JSON cannot hold")
        XCTAssertEqual(parseProblem("{ n(x: {a: [1, -1e400]}) }"),
                       "u.graphql:1:16: -1e400 is a number beyond a Double, which Apollo's JSON cannot hold")
        XCTAssertEqual(parseProblem("query Q($f: Float = 2e308) { n(x: $f) }"),
                       "u.graphql:1:21: 2e308 is a number beyond a Double, which Apollo's JSON cannot hold")
        let digits = "1" + String(repeating: "0", count: 400)
        XCTAssertEqual(parseProblem("{ n(x: \(digits)) }")?.hasSuffix("is a number beyond a Double, which Apollo's JSON cannot hold"), true)
        XCTAssertNil(parseProblem("{ n(x: 1.7e308, y: 99999999999999999999) }"))
    }

    func testAVariableDefaultOfAnotherBuiltInTypeIsRefusedAtTheDefault() {
        XCTAssertEqual(parseProblem(#"query Q($n: Int = "x") { posts(first: $n) { id } }"#), #"u.graphql:1:19: the default of $n: expected Int, found "x""#)
        XCTAssertEqual(parseProblem("query Q($n: Int! = null) { posts(first: $n) { id } }"),
                       "u.graphql:1:20: the default of $n: expected a non-null Int!, found null")
        XCTAssertEqual(parseProblem(#"query Q($n: [Int] = [1, "a"]) { posts(first: $n) { id } }"#),
                       #"u.graphql:1:21: the default of $n[1]: expected Int, found "a""#)
        // A literal is no JSON number: Int and ID take no Float literal.
        XCTAssertEqual(parseProblem("query Q($n: Int = 1.0) { a }"), "u.graphql:1:19: the default of $n: expected Int, found 1.0")
        XCTAssertEqual(parseProblem("query Q($i: [ID!] = [1, 2.0]) { a }"), "u.graphql:1:25: the default of $i[1]: expected ID, found 2.0")
        // Defaults a generated operation holds: coerced as GraphQL coerces them, or left to a schema.
        XCTAssertNil(parseProblem("query Q($e: Episode = JEDI, $f: Float = 2, $i: ID = 3, $l: [Int] = 4, $o: In = {a: 1}) { n(a: $e, b: $f, c: $i, d: $l, e: $o) }"))
    }

    func testTheLocalCacheMutationDirectiveTakesNoArgumentsAndIsGivenOnce() {
        XCTAssertEqual(parseProblem("query Q @apollo_client_ios_localCacheMutation(x: 1) { a }"),
                       "u.graphql:1:47: @apollo_client_ios_localCacheMutation takes no arguments")
        XCTAssertEqual(parseProblem("fragment F on Droid @apollo_client_ios_localCacheMutation @apollo_client_ios_localCacheMutation { a }"),
                       "u.graphql:1:59: @apollo_client_ios_localCacheMutation is given twice in one place; give it once")
        XCTAssertNil(parseProblem("query Q @apollo_client_ios_localCacheMutation { a }"))
    }
}
