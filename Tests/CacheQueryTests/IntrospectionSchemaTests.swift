import CacheStore
import Foundation
import GraphQL
import XCTest

@testable import CacheQuery

final class IntrospectionSchemaTests: XCTestCase {
    /// The introspection query tools such as `apollo-ios-cli fetch-schema`
    /// send, asking for everything a schema file holds.
    static let introspectionQuery = """
        query IntrospectionQuery {
          __schema {
            queryType { name } mutationType { name } subscriptionType { name }
            types { ...FullType }
            directives { name description isRepeatable locations args { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description isOneOf
          fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
          inputFields { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
        fragment TypeRef on __Type {
          kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } }
        }
        """

    static let starwarsSDL = try! String(
        contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("starwars.graphqls"), encoding: .utf8)

    /// What a server built from `schema` answers to the introspection query,
    /// as JSON text with its members sorted.
    func introspectionJSON(of schema: CacheSchema) async throws -> String {
        let result = try await graphql(schema: schema.schema, request: Self.introspectionQuery)
        XCTAssertEqual(result.errors, [])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(result), as: UTF8.self) + "\n"
    }

    static let starwarsJSONFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("starwars.json")

    /// starwars.json, which the command tests read as a project's schema.json,
    /// is what a server with starwars.graphqls answers.
    func testTheStarwarsSchemaJSONIsTheIntrospectionOfItsSDL() async throws {
        let json = try await introspectionJSON(of: CacheSchema.parse(sdl: Self.starwarsSDL, source: "starwars.graphqls"))
        XCTAssertEqual(try String(contentsOf: Self.starwarsJSONFile, encoding: .utf8), json)
    }

    // The GraphQL package's introspection sorts types and fields by name, so
    // a schema read from its JSON is checked by introspecting it again: the
    // same answer means nothing the JSON says was lost or changed.

    /// Whether two introspection results say the same, whatever the order
    /// of members and of an interface's possible types (the order in which
    /// the types were defined, which SDL keeps and introspection does not).
    func sameJSON(_ a: String, _ b: String) throws -> Bool {
        func normalized(_ value: FieldValue) -> FieldValue {
            switch value {
            case .list(let elements): return .list(elements.map(normalized))
            case .object(var members):
                if case .list(let types)? = members["possibleTypes"] {
                    members["possibleTypes"] = .list(types.sorted { "\($0)" < "\($1)" })
                }
                return .object(members.mapValues(normalized))
            default: return value
            }
        }
        return try normalized(FieldValue(jsonText: a)) == normalized(FieldValue(jsonText: b))
    }

    func testAnIntrospectionResultIsReadAsTheSchemaItDescribes() async throws {
        let fromSDL = try CacheSchema.parse(sdl: Self.starwarsSDL, source: "starwars.graphqls")
        let json = try await introspectionJSON(of: fromSDL)
        let fromJSON = try CacheSchema.parse([("schema.json", json)])
        let again = try await introspectionJSON(of: fromJSON)
        XCTAssertTrue(try sameJSON(again, json))
        XCTAssertEqual(fromJSON.objectTypes, fromSDL.objectTypes)
        XCTAssertTrue(fromJSON.matches(typeCondition: "Character", typename: "Droid"))
        XCTAssertTrue(printSchema(schema: fromJSON.schema).contains("  search(filter: SearchFilter): [[Character]]\n"))
    }

    func testTypePoliciesComeFromAnExtensionFileReadWithTheJSON() async throws {
        let json = try await introspectionJSON(of: CacheSchema.parse(sdl: Self.starwarsSDL, source: "starwars.graphqls"))
        // Introspection does not carry applied directives, as Apollo's codegen knows.
        XCTAssertEqual(try CacheSchema.parse([("schema.json", json)]).typePolicies, [:])
        let withExtension = try CacheSchema.parse([
            ("schema.json", json), ("extensions.graphqls", #"extend type Starship @typePolicy(keyFields: "id")"#),
        ])
        XCTAssertEqual(withExtension.typePolicies, ["Starship": ["id"]])
    }

    func testRenamedRootsRepeatableDirectivesOneOfInputsAndDefaultsSurviveTheTrip() async throws {
        let sdl = """
            schema { query: Root mutation: Change }
            directive @tag(name: String! = "x") repeatable on FIELD_DEFINITION | OBJECT
            interface Node { id: ID! }
            interface Named implements Node { id: ID! name: String }
            type Person implements Node & Named { id: ID! name: String grid: [[Int!]]! }
            union Result = Person
            input Where @oneOf { id: ID name: String }
            input Page { first: Int order: [String!] }
            type Root { find(page: Page = {first: 5, order: ["id"]}, color: Color = RED): [Result] node(where: Where!): Node }
            type Change { rename(id: ID!, name: String!): Person }
            enum Color { RED GREEN }
            """
        let json = try await introspectionJSON(of: CacheSchema.parse(sdl: sdl, source: "rich.graphqls"))
        let fromJSON = try CacheSchema.parse([("rich.json", json)])
        let again = try await introspectionJSON(of: fromJSON)
        XCTAssertTrue(try sameJSON(again, json))
        let printed = printSchema(schema: fromJSON.schema)
        for expected in [
            "schema {\n  query: Root\n  mutation: Change\n}",
            #"directive @tag(name: String! = "x") repeatable on FIELD_DEFINITION | OBJECT"#,
            "interface Named implements Node {",
            "type Person implements Node & Named {",
            "  grid: [[Int!]]!\n",
            "union Result = Person",
            "input Where @oneOf {",
            #"  find(page: Page = { first: 5, order: ["id"] }, color: Color = RED): [Result]"#,
            "enum Color {\n  RED\n  GREEN\n}",
        ] {
            XCTAssertTrue(printed.contains(expected), "\(expected) not in:\n\(printed)")
        }
    }

    func testTheSchemaMemberAloneIsTakenAndInputFieldsKeepTheirDefaults() throws {
        let json = """
            {"__schema": {"queryType": {"name": "Query"}, "mutationType": null, "subscriptionType": null,
              "types": [{"kind": "OBJECT", "name": "Query", "interfaces": [],
                "fields": [{"name": "count", "args": [{"name": "page", "type": {"kind": "INPUT_OBJECT", "name": "Page"}, "defaultValue": null}],
                  "type": {"kind": "NON_NULL", "name": null, "ofType": {"kind": "SCALAR", "name": "Int", "ofType": null}}}]},
                {"kind": "INPUT_OBJECT", "name": "Page", "inputFields": [{"name": "first", "type": {"kind": "SCALAR", "name": "Int"}, "defaultValue": "10"}]}],
              "directives": []}}
            """
        let printed = printSchema(schema: try CacheSchema.parse([("schema.json", json)]).schema)
        XCTAssertTrue(printed.hasSuffix("type Query {\n  count(page: Page): Int!\n}\n\ninput Page {\n  first: Int = 10\n}"), printed)
    }

    func testJSONThatIsNotAnIntrospectionResultIsRefusedWithWhatToGive() {
        let cases: [(json: String, message: String)] = [
            (#"{"__schema": "#, "schema.json: schema error: invalid JSON: unexpected end of JSON at byte 14"),
            (#"{"data": {"hero": null}}"#,
             "schema.json: schema error: a JSON schema must be an introspection result, with a __schema object; or give the schema as SDL (.graphqls)"),
            (#"{"__schema": {"types": []}}"#, "schema.json: schema error: __schema has no queryType"),
            (#"{"__schema": {"queryType": {"name": "Query"}, "types": [{"kind": "OBJECT", "name": "Query { x: Int } type Y", "fields": []}]}}"#,
             "schema.json: schema error: a member of __schema.types: 'Query { x: Int } type Y' is not a GraphQL name"),
            (#"{"__schema": {"queryType": {"name": "Query"}, "types": [{"kind": "TABLE", "name": "Query"}]}}"#,
             "schema.json: schema error: type Query has kind 'TABLE', which is not a GraphQL type kind"),
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try CacheSchema.parse([("schema.json", json)]), json) { error in
                XCTAssertEqual((error as? QueryError)?.description, message, json)
            }
        }
    }

    func testADefaultValueThatWouldAddToTheSchemaIsRefused() {
        let json = """
            {"__schema": {"queryType": {"name": "Query"}, "types": [{"kind": "OBJECT", "name": "Query", "interfaces": [],
              "fields": [{"name": "list", "args": [{"name": "first", "type": {"kind": "SCALAR", "name": "Int"},
                "defaultValue": "1) : Int\\n  evil(x: Int"}], "type": {"kind": "SCALAR", "name": "Int"}}]}]}}
            """
        XCTAssertThrowsError(try CacheSchema.parse([("schema.json", json)])) { error in
            XCTAssertEqual(
                (error as? QueryError)?.description,
                "schema.json: schema error: Query.list(first:) has a default value that is not one GraphQL value")
        }
    }

    /// A default nested ten thousand lists deep is refused, naming the
    /// argument, as any schema that deep: parsed on its own to be checked,
    /// it overflowed the stack.
    func testADefaultValueNestedTooDeepIsRefusedNotParsed() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let json = """
            {"__schema": {"queryType": {"name": "Query"}, "types": [{"kind": "OBJECT", "name": "Query", "interfaces": [],
              "fields": [{"name": "list", "args": [{"name": "first", "type": {"kind": "SCALAR", "name": "Int"},
                "defaultValue": "\(deep)"}], "type": {"kind": "SCALAR", "name": "Int"}}]}]}}
            """
        XCTAssertThrowsError(try CacheSchema.parse([("schema.json", json)])) { error in
            XCTAssertEqual((error as? QueryError)?.description,
                           "schema.json: schema error: Query.list(first:) has a default value with nesting deeper than 500 levels")
        }
    }
}
