import CacheStore
import XCTest

@testable import CacheQuery

/// Every rule of spec §3 for field cache keys.
final class FieldKeyTests: XCTestCase {
    /// The key of the first field of `query { … }` in `text`.
    private func key(_ text: String, variables: [String: InputValue] = [:]) throws -> String {
        let document = try QueryDocument.parse([("test.graphql", text)])
        let operation = try document.operation(named: nil)
        let scope = try VariableScope(given: variables, definitions: operation.variables, operationName: "test")
        guard case .field(let field) = operation.selections[0] else {
            XCTFail("the first selection of \(text) is not a field")
            throw CocoaError(.featureUnsupported)
        }
        return FieldKey.render(name: field.name, arguments: scope.arguments(of: field))
    }

    /// The keys of every top-level field of the operation in `text`.
    private func fieldKeys(_ text: String, variables: [String: InputValue] = [:]) throws -> [String] {
        let document = try QueryDocument.parse([("test.graphql", text)])
        let operation = try document.operation(named: nil)
        let scope = try VariableScope(given: variables, definitions: operation.variables, operationName: "test")
        return operation.selections.compactMap { selection in
            guard case .field(let field) = selection else { return nil }
            return FieldKey.render(name: field.name, arguments: scope.arguments(of: field))
        }
    }

    /// Apollo on Apple platforms writes a Float nested in a list or an
    /// input object as NSNumber describes it (`2`, `0.3`); its Linux builds
    /// as Swift describes the Double (`2.0`, `0.30000000000000004`). A
    /// field's own Float argument is the same on both.
    func testAppleFormWritesAFloatNestedInAListOrInputObjectAsNSNumberDescribesIt() {
        let arguments: [String: InputValue] = [
            "ratio": .float(2), "xs": .list([.float(1), .float(-2.5), .float(-0.0), .float(1e16), .float(0.1 + 0.2), .float(1e-7)]),
            "near": .object(["lat": .float(1.5), "lng": .float(-2)]), "items": .list([.object(["w": .float(3)])]),
        ]
        XCTAssertEqual(FieldKey.render(name: "f", arguments: arguments),
                       "f(items:[w:3.0],[near:lat:1.5,lng:-2.0],ratio:2.0,xs:[1.0, -2.5, -0.0, 1e+16, 0.30000000000000004, 1e-07])")
        XCTAssertEqual(FieldKey.render(name: "f", arguments: arguments, form: .apple),
                       "f(items:[w:3],[near:lat:1.5,lng:-2],ratio:2.0,xs:[1, -2.5, -0, 1e+16, 0.3, 1e-07])")
    }

    func testAFieldWithoutArgumentsIsItsName() throws {
        XCTAssertEqual(try key("{ name }"), "name")
    }

    func testAliasesNeverEnterTheKey() throws {
        XCTAssertEqual(try key(#"{ orphan: node(id: "b-9") { id } }"#), "node(id:b-9)")
    }

    func testArgumentsAreSortedByNameInByteOrderWithoutSpaces() throws {
        XCTAssertEqual(try key("{ reviews(first: 2, episode: JEDI) { stars } }"), "reviews(episode:JEDI,first:2)")
        XCTAssertEqual(try key("{ f(b: 1, B: 2, a: 3) }"), "f(B:2,a:3,b:1)")
    }

    func testScalarsRenderUnquotedAndNullAsNull() throws {
        XCTAssertEqual(try key(#"{ human(id: "1000") { name } }"#), "human(id:1000)")
        XCTAssertEqual(try key("{ f(flag: true, ratio: 1.5, x: null) }"), "f(flag:true,ratio:1.5,x:null)")
        XCTAssertEqual(try key("{ friendsConnection(first: 2, after: null) { totalCount } }"), "friendsConnection(after:null,first:2)")
    }

    func testVariablesAreSubstituted() throws {
        let text = "query Q($episode: Episode) { hero(episode: $episode) { name } }"
        XCTAssertEqual(try key(text, variables: ["episode": .string("JEDI")]), "hero(episode:JEDI)")
        XCTAssertEqual(try key(text, variables: ["episode": .null]), "hero(episode:null)", "an explicit null is kept")
    }

    func testAnAbsentNullableVariableDropsTheArgument() throws {
        XCTAssertEqual(try key("query Q($episode: Episode) { hero(episode: $episode) { name } }"), "hero")
        XCTAssertEqual(try key("query Q($e: Episode, $n: Int) { f(episode: $e, first: $n, x: 1) }"), "f(x:1)")
    }

    /// Apollo evaluates list elements as it does input object members, with
    /// compactMap: an absent variable is left out of the list, and a list
    /// that held only absent ones is empty (an explicit null is kept, and
    /// rendered as `String(describing:)` renders NSNull, `<null>`).
    func testAnAbsentVariableInAListIsLeftOutOfTheList() throws {
        let text = "query Q($x: Int, $t: String) { f(g: [1, $x]) h: f(g: [$x]) i: f(l: [[$x], []]) j: f(o: [{a: $x, t: $t}]) }"
        let keys = try fieldKeys(text)
        XCTAssertEqual(keys, ["f(g:[1])", "f(g:[])", "f(l:[[], []])", "f(o:[])"])
        XCTAssertEqual(try key("query Q($x: Int) { f(g: [1, $x]) }", variables: ["x": .null]), "f(g:[1, <null>])")
        XCTAssertEqual(try key("{ f(g: [null, \"a\"], x: null, o: {a: null}) }"), "f(g:[<null>, a],[o:a:null],x:null)")
        XCTAssertEqual(try key("query Q($x: Int) { f(g: [1, $x]) }", variables: ["x": .int(7)]), "f(g:[1, 7])")
    }

    func testOperationVariableDefaultsApply() throws {
        XCTAssertEqual(try key("query Q($first: Int = 3) { books(first: $first) { title } }"), "books(first:3)")
        XCTAssertEqual(try key("query Q($first: Int = 3) { books(first: $first) { title } }", variables: ["first": .int(5)]), "books(first:5)")
    }

    /// The app's generated operation holds a Float default of 2 as the
    /// Double 2.0, and renders it so; the document says it is a Float.
    func testAFloatVariableDefaultRendersAsADoubleWithoutASchema() throws {
        XCTAssertEqual(try key("query Q($r: Float = 2) { f(ratio: $r) }"), "f(ratio:2.0)")
        XCTAssertEqual(try key("query Q($r: Float) { f(ratio: $r) }", variables: ["r": .int(-2)]), "f(ratio:-2.0)")
    }

    func testAMissingNonNullVariableIsAnError() throws {
        XCTAssertThrowsError(try key("query Q($id: ID!) { human(id: $id) { name } }")) { error in
            XCTAssertEqual(error as? QueryError, .missingVariable("id", operation: "test"))
        }
    }

    func testAListOfScalarsUsesCommaAndSpace() throws {
        XCTAssertEqual(try key(#"{ f(ids: ["a", "b"]) }"#), "f(ids:[a, b])")
        XCTAssertEqual(try key("{ f(grid: [[1, 2], [3]]) }"), "f(grid:[[1, 2], [3]])")
    }

    func testAnInputObjectBracketsItsNameAndSortsItsMembersRecursively() throws {
        let text = "query Q($filter: SearchFilter) { search(filter: $filter) { id } }"
        let filter: InputValue = .object([
            "text": .string("sky"), "limit": .int(2), "tags": .list([.string("a"), .string("b")]),
            "near": .object(["lng": .float(-2.0), "lat": .float(1.5)]),
        ])
        XCTAssertEqual(try key(text, variables: ["filter": filter]),
                       "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])")
        XCTAssertEqual(try key(#"{ createReview(episode: JEDI, review: {stars: 5, commentary: "This is a great movie!"}) { stars } }"#),
                       "createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])")
    }

    func testAListOfInputObjectsJoinsTheObjectsWithCommas() throws {
        XCTAssertEqual(try key("{ f(items: [{b: 2, a: 1}, {a: 3}]) }"), "f(items:[a:1,b:2,a:3])")
    }

    func testAnAbsentVariableInsideAnInputObjectDropsThatMember() throws {
        XCTAssertEqual(try key("query Q($limit: Int) { search(filter: {text: \"sky\", limit: $limit}) { id } }"), "search([filter:text:sky])")
    }

    /// (That a schema's default never enters a key, a read with the schema
    /// checks: RoundTripTests.)
    func testArgumentsAreRenderedAsTheDocumentWritesThem() throws {
        // Written, a value the schema has as its default gives a key of its own.
        XCTAssertEqual(try key("{ books(first: 3) { title } }"), "books(first:3)")
        XCTAssertEqual(try key("{ books(status: AVAILABLE, first: 2) { title } }"), "books(first:2,status:AVAILABLE)")
    }

    /// Keys Apollo on Apple platforms and its Linux builds write apart
    /// (`lng:-2` and `lng:-2.0`) name the same arguments; other numbers,
    /// or the same key, do not count.
    func testTwoKeysDifferOnlyInNumbersWhenTheirNumbersAreEqualAsWritten() {
        XCTAssertTrue(FieldKey.differOnlyInNumbers("search([near:lat:1.5,lng:-2])", "search([near:lat:1.5,lng:-2.0])"))
        XCTAssertTrue(FieldKey.differOnlyInNumbers("f(x:1e2)", "f(x:100)"))
        XCTAssertFalse(FieldKey.differOnlyInNumbers("f(x:1)", "f(x:2)"))
        XCTAssertFalse(FieldKey.differOnlyInNumbers("f(x:1)", "f(x:1)"), "the same key is no difference")
        XCTAssertFalse(FieldKey.differOnlyInNumbers("f(x:1)", "f(y:1)"))
    }
}
