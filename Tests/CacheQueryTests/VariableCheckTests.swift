import XCTest

@testable import CacheQuery

/// With a schema, given variables must fit their declared types, as a
/// server would insist; what fits is held as Apollo holds it.
final class VariableCheckTests: XCTestCase {
    private let document = try! QueryDocument.parse([("v.graphql", """
        query V($e: Episode, $n: Int, $x: Float, $id: ID!, $s: String, $b: Boolean, $f: SearchFilter, $tags: [String!], $when: DateTime) {
          hero(episode: $e) { name }
        }
        """)])

    private func scope(_ given: [String: InputValue]) throws -> VariableScope {
        let operation = try document.operation(named: "V")
        return try VariableScope(given: ["id": .string("1")].merging(given) { $1 }, definitions: operation.variables,
                                 operationName: "V", schema: CacheReaderTests.schema)
    }

    private func problem(_ given: [String: InputValue]) -> String? {
        do {
            _ = try scope(given)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// A number beyond a Double (1e400 read as infinity) is refused where it
    /// sits, also in a custom scalar, which takes any other value: Apollo's
    /// JSON cannot hold it, and a field key would say `inf`.
    func testANumberBeyondADoubleIsRefusedWhereverItSits() {
        XCTAssertEqual(problem(["x": .float(.infinity)]), "invalid variables: $x: a number beyond a Double, which Apollo's JSON cannot hold")
        XCTAssertEqual(problem(["when": .object(["at": .list([.int(1), .float(-.infinity)])])]),
                       "invalid variables: $when.at[1]: a number beyond a Double, which Apollo's JSON cannot hold")
    }

    func testValuesThatFitAreHeldAsApolloHoldsThem() throws {
        let values = try scope([
            "e": .string("JEDI"), "n": .float(10), "x": .int(-2), "id": .int(1000), "s": .string("7"), "b": .boolean(true),
            "f": .object(["text": .string("sky"), "limit": .int(2)]), "tags": .list([.string("a")]), "when": .object(["any": .null]),
        ]).values
        XCTAssertEqual(values["e"], .enumValue("JEDI"))
        XCTAssertEqual(values["n"], .int(10))
        XCTAssertEqual(values["x"], .float(-2))
        XCTAssertEqual(values["id"], .string("1000"))
        XCTAssertEqual(values["s"], .string("7"))
        XCTAssertEqual(values["f"], .object(["text": .string("sky"), "limit": .int(2)]))
        XCTAssertEqual(values["when"], .object(["any": .null]), "a custom scalar takes any value")
        XCTAssertNoThrow(try scope(["e": .null, "tags": .null]), "null fits a nullable type")
        // JSON's 1000.0 is the number 1000, for an ID as for an Int; 2.5 fits neither.
        XCTAssertEqual(try scope(["id": .float(1000)]).values["id"], .string("1000"))
        XCTAssertEqual(problem(["id": .float(2.5)]), "invalid variables: $id: expected ID, found 2.5")
        XCTAssertNotNil(problem(["id": .float(12345678901234568)]), "past 2^53 the Double may hold another integer than the one written (12345678901234567 reads as this)")
    }

    func testALongStringOfTheWrongTypeIsShortenedInTheMessage() throws {
        let long = String(repeating: "[", count: 10_000)
        XCTAssertEqual(problem(["n": .string(long)]), #"invalid variables: $n: expected Int, found ""# + String(repeating: "[", count: 60) + #"… (10000 bytes)""#)
    }

    /// A whole JSON number is an Int when an Int64 holds it exactly: to
    /// its last whole Double below 2^63, and not at 2^63 or past it.
    func testAWholeNumberIsAnIntExactlyWithinInt64() throws {
        XCTAssertEqual(try scope(["n": .float(9.22e18)]).values["n"], .int(9_220_000_000_000_000_000))
        XCTAssertEqual(try scope(["n": .float(-9_223_372_036_854_775_808)]).values["n"], .int(Int64.min))
        XCTAssertEqual(problem(["n": .float(9.25e18)]), "invalid variables: $n: expected Int, found a whole number beyond the 64 bits of Apollo's Int (9.25e+18)")
        XCTAssertEqual(problem(["n": .float(9_223_372_036_854_775_808)]), "invalid variables: $n: expected Int, found a whole number beyond the 64 bits of Apollo's Int (9.223372036854776e+18)")
        XCTAssertEqual(problem(["n": .float(1e20)]), "invalid variables: $n: expected Int, found a whole number beyond the 64 bits of Apollo's Int (1e+20)")
        // A field declared Int reads such a number alike, and refuses one past Int64.
        let schema = try CacheSchema.parse(sdl: "type Query { n: Int }", source: "s.graphqls")
        // (FieldValue's == holds 9.22e18 and the integer equal: the case is asked.)
        guard case .int(let read) = schema.readByApollo(.double(9.22e18), type: .named("Int", .scalar)) else { return XCTFail("read as a Double") }
        XCTAssertEqual(read, 9_220_000_000_000_000_000)
        XCTAssertNil(schema.leafProblem(.double(9.22e18), type: .named("Int", .scalar)))
        XCTAssertEqual(schema.leafProblem(.double(9.25e18), type: .named("Int", .scalar))?.message, "expected Int, found 9.25e+18")
        XCTAssertEqual(schema.leafProblem(.double(-9.3e18), type: .named("Int", .scalar))?.message, "expected Int, found -9.3e+18")
    }

    func testValuesThatDoNotFitAreRefusedNamingTheVariableAndThePlace() {
        XCTAssertEqual(problem(["e": .string("FOO")]), #"invalid variables: $e: expected one of Episode's values (NEWHOPE, EMPIRE, JEDI), found "FOO""#)
        XCTAssertEqual(problem(["n": .string("abc")]), #"invalid variables: $n: expected Int, found "abc""#)
        XCTAssertEqual(problem(["n": .float(2.5)]), "invalid variables: $n: expected Int, found 2.5")
        XCTAssertEqual(problem(["b": .string("yes")]), #"invalid variables: $b: expected Boolean, found "yes""#)
        // GraphQL takes a number for an ID, never for a String.
        XCTAssertEqual(problem(["s": .int(7)]), "invalid variables: $s: expected String, found 7")
        XCTAssertEqual(problem(["id": .null]), "invalid variables: $id: expected a non-null ID!, found null")
        XCTAssertEqual(problem(["f": .object(["limit": .int(2)])]), "invalid variables: $f: SearchFilter needs its field 'text'")
        XCTAssertEqual(problem(["f": .object(["text": .string("a"), "bogus": .int(1)])]), "invalid variables: $f: SearchFilter has no field 'bogus'")
        XCTAssertEqual(problem(["f": .list([])]), "invalid variables: $f: expected SearchFilter, found a list")
        XCTAssertEqual(problem(["f": .object(["text": .string("a"), "tags": .list([.string("x"), .null])])]),
                       "invalid variables: $f.tags[1]: expected a non-null String!, found null")
    }

    func testWithoutASchemaEnumsInputObjectsAndCustomScalarsAreTakenAsGiven() throws {
        let operation = try document.operation(named: "V")
        let values = try VariableScope(
            given: ["id": .string("1"), "e": .string("FOO"), "f": .int(3), "when": .boolean(true)], definitions: operation.variables,
            operationName: "V").values
        XCTAssertEqual(values["e"], .string("FOO"))
        XCTAssertEqual(values["f"], .int(3))
        XCTAssertEqual(values["when"], .boolean(true))
    }

    /// The built-in scalars, lists and non-null are declared in the
    /// document itself: no schema is needed to hold a value as the app's
    /// generated operation holds it, or to refuse one it could not hold.
    func testWithoutASchemaBuiltInTypesListsAndNonNullAreCheckedAsDeclared() throws {
        let operation = try document.operation(named: "V")
        func scope(_ given: [String: InputValue]) throws -> VariableScope {
            try VariableScope(given: ["id": .string("1")].merging(given) { $1 }, definitions: operation.variables, operationName: "V")
        }
        func problem(_ given: [String: InputValue]) -> String? {
            do {
                _ = try scope(given)
                return nil
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(problem(["id": .null]), "invalid variables: $id: expected a non-null ID!, found null")
        XCTAssertEqual(problem(["n": .string("abc")]), #"invalid variables: $n: expected Int, found "abc""#)
        XCTAssertEqual(problem(["b": .string("true")]), #"invalid variables: $b: expected Boolean, found "true""#)
        XCTAssertEqual(problem(["s": .object([:])]), "invalid variables: $s: expected String, found an object")
        XCTAssertEqual(problem(["tags": .list([.string("a"), .int(1)])]), "invalid variables: $tags[1]: expected String, found 1")
        let values = try scope(["id": .int(7), "x": .int(2), "n": .float(3), "tags": .string("a")]).values
        XCTAssertEqual(values["id"], .string("7"))
        XCTAssertEqual(values["x"], .float(2))
        XCTAssertEqual(values["n"], .int(3))
        XCTAssertEqual(values["tags"], .list([.string("a")]))
    }

    /// A fragment read on its own declares no variables: with a schema, the
    /// argument each one is given to says its type.
    func testAFragmentsVariablesAreCheckedAsTheArgumentsTheyAreGivenTo() throws {
        let document = try QueryDocument.parse([("f.graphql", "fragment R on Query { reviews(episode: $e, first: $n) { stars } }")])
        let fragment = try document.fragment(named: "R")
        func scope(_ given: [String: InputValue], schema: CacheSchema? = CacheReaderTests.schema) throws -> VariableScope {
            try VariableScope(given: given, fragment: fragment, document: document, schema: schema)
        }
        XCTAssertThrowsError(try scope(["n": .string("abc")])) { XCTAssertEqual("\($0)", #"invalid variables: $n: expected Int, found "abc""#) }
        XCTAssertThrowsError(try scope(["e": .string("FOO")])) {
            XCTAssertEqual("\($0)", #"invalid variables: $e: expected one of Episode's values (NEWHOPE, EMPIRE, JEDI), found "FOO""#)
        }
        let values = try scope(["e": .string("JEDI"), "n": .float(2)]).values
        XCTAssertEqual(values["e"], .enumValue("JEDI"))
        XCTAssertEqual(values["n"], .int(2))
        XCTAssertEqual(try scope(["n": .string("abc")], schema: nil).values["n"], .string("abc"), "without a schema, as given")
    }

    func testASingleValueForAListIsAListOfOneAsTheAppHoldsIt() throws {
        XCTAssertEqual(try scope(["tags": .string("a")]).values["tags"], .list([.string("a")]))
        XCTAssertEqual(try scope(["f": .object(["text": .string("a"), "tags": .string("x")])]).values["f"],
                       .object(["text": .string("a"), "tags": .list([.string("x")])]))
    }

    /// A default is held as the app's generated operation holds it: the
    /// fixture's search was written with lng -2.0, a Float.
    func testDefaultsAreHeldAsTheirDeclaredTypesToo() throws {
        let document = try QueryDocument.parse([("d.graphql", """
            query D($f: SearchFilter = {text: "sky", limit: 2, tags: ["a", "b"], near: {lat: 1.5, lng: -2}}) {
              search(filter: $f) { __typename }
            }
            """)])
        let operation = try document.operation(named: "D")
        let values = try VariableScope(given: [:], definitions: operation.variables, operationName: "D", schema: CacheReaderTests.schema).values
        guard case .object(let filter)? = values["f"], case .object(let near)? = filter["near"] else { return XCTFail("\(values)") }
        XCTAssertEqual(near["lng"], .float(-2))
    }
}
