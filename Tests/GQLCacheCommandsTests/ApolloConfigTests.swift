import Foundation
import XCTest

@testable import GQLCacheCommands

/// `read --apollo-config`: the schema and operations of an Apollo iOS project,
/// found through its codegen config.
final class ApolloConfigTests: CommandTestCase {
    /// The project's folder, and its config.
    var project: String { path("project") }
    var config: String { path("project/apollo-codegen-config.json") }

    static let input = #"{"schemaSearchPaths": ["schema/**/*.graphqls"], "operationSearchPaths": ["**/*.graphql", "!Sources/Legacy/**"]}"#

    /// An Apollo iOS project for the starwars fixture: the fixture's schema in
    /// two files (search and reviews added by `extend type Query`), the Demo
    /// query and HeroQuery in nested folders, HeroQuery's fragment in a third;
    /// broken documents where Apollo never looks (.build) and where the
    /// config excludes them.
    func makeProject(input: String = ApolloConfigTests.input) throws {
        try write("""
            {
              "schemaNamespace": "StarWarsAPI",
              "input": \(input),
              "output": {
                "schemaTypes": {"path": "./StarWarsAPI", "moduleType": {"swiftPackageManager": {}}},
                "operations": {"inSchemaModule": {}}
              },
              "options": {"pruneGeneratedFiles": true}
            }
            """, to: "apollo-codegen-config.json")
        let schema = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/CacheQueryTests/starwars.graphqls"), encoding: .utf8)
        let base = schema.components(separatedBy: "\n")
            .filter { !$0.hasPrefix("type Query") && !$0.hasPrefix("  search(filter") }
            .joined(separator: "\n")
        try write(base + "\ntype Query { hero(episode: Episode): Character human(id: ID!): Human }\n", to: "schema/starwars.graphqls")
        try write("""
            extend type Query {
              search(filter: SearchFilter): [[Character]]
              reviews(episode: Episode!, first: Int): [Review]
            }
            """, to: "schema/extensions/search.graphqls")
        try write(try Self.demo, to: "Sources/Feature/Demo/Demo.graphql")
        try write("query HeroQuery($episode: Episode) {\n  hero(episode: $episode) { ...HeroDetails }\n}\n", to: "Sources/Feature/Hero/HeroQuery.graphql")
        try write("fragment HeroDetails on Character {\n  __typename id name\n  ... on Droid { primaryFunction }\n}\n", to: "Sources/Shared/Fragments/HeroDetails.graphql")
        try write("query Legacy {\n", to: "Sources/Legacy/Legacy.graphql")
        try write("query Checkout {\n", to: ".build/checkouts/Package/Checkout.graphql")
    }

    func write(_ text: String, to relativePath: String) throws {
        let url = URL(fileURLWithPath: project).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The fixture's query, variables and network response (its README),
    /// kept with the round-trip corpus.
    static var demo: String {
        get throws { try String(contentsOf: RoundTripTests.corpus.appendingPathComponent("starwars-demo.graphql"), encoding: .utf8) }
    }
    static let variables = #"{"episode":"NEWHOPE","filter":{"text":"sky","limit":2,"tags":["a","b"],"near":{"lat":1.5,"lng":-2}},"unit":"FOOT"}"#
    /// The response's data.
    static var response: Data {
        get throws {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: RoundTripTests.corpus.appendingPathComponent("starwars-demo-response.json")))
            return try JSONSerialization.data(withJSONObject: (object as! NSDictionary)["data"]!)
        }
    }

    // MARK: Reading through a config

    func testTheDemoQueryReadsByNameAloneWithTheConfigsSchemaAndDocumentedVariables() throws {
        try makeProject()
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "Demo", "--apollo-config", config, "--variables", Self.variables, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let expected = try JSONSerialization.jsonObject(with: try Self.response) as? NSDictionary
        XCTAssertEqual(try result.json() as? NSDictionary, expected)
    }

    func testAFragmentInAnotherFolderAppliesToTheOperationThatSpreadsIt() throws {
        try makeProject()
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "HeroQuery", "--apollo-config", config, "--var", "episode=NEWHOPE", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","primaryFunction":"Astromech"}}"# + "\n")
        let miss = gqlcache("read", cache, "HeroQuery", "--apollo-config", config, "--var", "episode=JEDI")
        XCTAssertEqual(miss.status, .notFound)
        XCTAssertEqual(miss.stderr, "gqlcache: cache miss at hero: record 'QUERY_ROOT' has no field 'hero(episode:JEDI)'; it has 'hero(episode:NEWHOPE)'\n")
    }

    func testTextAddsToTheConfigsDocumentsAndMayUseItsFragments() throws {
        try makeProject()
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "Extra", "--apollo-config", config, "--text", "query Extra { human(id: \"1000\") { ...HeroDetails } }", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"human":{"__typename":"Human","id":"1000","name":"Luke Skywalker"}}"# + "\n")
    }

    func testAnAnonymousTextQueryIsReadBesideTheProjectsNamedOperations() throws {
        try makeProject()
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "--apollo-config", config, "--text", "{ hero(episode: NEWHOPE) { ...HeroDetails } }", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","primaryFunction":"Astromech"}}"# + "\n")
    }

    func testAnExplicitSchemaIsUsedInsteadOfTheConfigs() throws {
        try makeProject(input: #"{"schemaSearchPaths": ["nowhere/*.graphqls"], "operationSearchPaths": ["Sources/Feature/**/*.graphql", "Sources/Shared/**/*.graphql"]}"#)
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        let result = gqlcache("read", cache, "Demo", "--apollo-config", config, "--schema", schema, "--variables", Self.variables, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
    }

    func testSearchPathsLeftOutTakeApollosDefaults() throws {
        try makeProject(input: "{}")
        try FileManager.default.removeItem(atPath: path("project/Sources/Legacy"))
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "HeroQuery", "--apollo-config", config, "--var", "episode=NEWHOPE")
        XCTAssertEqual(result.status, .success, "**/*.graphqls and **/*.graphql: " + result.stderr)
    }

    /// A schema named schema.graphql is found by the default operation
    /// search `**/*.graphql` too: it is the schema, not an operation file.
    func testASchemaFileTheOperationSearchAlsoFindsIsReadAsTheSchemaOnly() throws {
        try makeProject(input: #"{"schemaSearchPaths": ["schema/**/*.graphql", "schema/**/*.graphqls"], "operationSearchPaths": ["**/*.graphql", "!Sources/Legacy/**"]}"#)
        try FileManager.default.moveItem(atPath: path("project/schema/starwars.graphqls"), toPath: path("project/schema/schema.graphql"))
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "HeroQuery", "--apollo-config", config, "--var", "episode=NEWHOPE")
        XCTAssertEqual(result.status, .success, result.stderr)
    }

    /// The schema given as --document: its types would be skipped and the
    /// error would only say that no operation has the name asked for.
    func testASchemaGivenAsADocumentIsNamedAsSuch() throws {
        let schema = starWarsSchema
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "Hero", "--document", schema)
        XCTAssertEqual(result.status, .usage)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(schema):"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix(": this is a type definition (a schema), not an operation or fragment; give a schema with --schema\n"), result.stderr)
    }

    func testTheBlogExampleReadsThroughItsConfig() throws {
        let blog = repositoryRoot.appendingPathComponent("Examples")
        let viaConfig = gqlcache("read", blog.appendingPathComponent("blog.sqlite").path, "UserPosts", "--var", "id=2",
                                 "--apollo-config", blog.appendingPathComponent("apollo-codegen-config.json").path)
        let viaDocument = gqlcache("read", blog.appendingPathComponent("blog.sqlite").path, "UserPosts", "--var", "id=2",
                                   "--document", blog.appendingPathComponent("blog.graphql").path)
        XCTAssertEqual(viaConfig.status, .success, viaConfig.stderr)
        XCTAssertEqual(viaConfig.stdout, viaDocument.stdout)
    }

    func testFoundFilesAreNamedFromWhereTheCommandRuns() throws {
        let config = try ApolloConfig(jsonText: #"{"input": {}}"#, file: "ios/apollo-codegen-config.json", folder: "/projects/app/ios")
        XCTAssertEqual(config.displayName("/projects/app/ios/Sources/HeroQuery.graphql"), "ios/Sources/HeroQuery.graphql")
        XCTAssertEqual(config.displayName("/projects/app/ios/../schema.graphqls"), "ios/../schema.graphqls")
        XCTAssertEqual(config.displayName("/elsewhere/schema.graphqls"), "/elsewhere/schema.graphqls")
        let here = try ApolloConfig(jsonText: #"{"input": {}}"#, file: "apollo-codegen-config.json", folder: "/projects/app/ios")
        XCTAssertEqual(here.displayName("/projects/app/ios/Sources/HeroQuery.graphql"), "Sources/HeroQuery.graphql")
    }

    // MARK: Errors

    func testAMissingConfigIsAnIOError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "Demo", "--apollo-config", path("nope.json"))
        XCTAssertEqual(result.status, .io)
        XCTAssertEqual(result.stderr, "gqlcache: \(path("nope.json")): no such file\n")
    }

    func testAConfigOfTheWrongShapeIsAUsageErrorNamingTheFileAndKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let cases: [(String, String)] = [
            ("[1, 2]", "not an Apollo codegen config: the top level is not a JSON object"),
            (#"{"schemaNamespace": "API"}"#,
             #"not an Apollo codegen config: it has no "input", which looks like "input": {"schemaSearchPaths": ["**/*.graphqls"], "operationSearchPaths": ["**/*.graphql"]}"#),
            (#"{"input": ["**/*.graphql"]}"#,
             #""input" must be an object, like "input": {"schemaSearchPaths": ["**/*.graphqls"], "operationSearchPaths": ["**/*.graphql"]}"#),
            (#"{"input": {"schemaSearchPaths": "schema.graphqls"}}"#, #"input.schemaSearchPaths must be a list of path patterns, like ["**/*.graphqls"]"#),
            (#"{"input": {"operationSearchPaths": ["a.graphql", 3]}}"#, "input.operationSearchPaths must hold only strings (path patterns), not 3"),
            (#"{"input": {"operationSearchPaths": ["Sources/!Legacy/*.graphql"]}}"#,
             "input.operationSearchPaths: 'Sources/!Legacy/*.graphql': '!' may only start a pattern, to exclude the files it matches"),
        ]
        try "{\"input\": ".write(toFile: path("config.json"), atomically: true, encoding: .utf8)
        let notJSON = gqlcache("read", cache, "--apollo-config", path("config.json"))
        XCTAssertEqual(notJSON.status, .usage)
        XCTAssertEqual(notJSON.stderr, "gqlcache: \(path("config.json")):1:11: the config is not JSON: unexpected end of JSON\n")
        for (text, message) in cases {
            try text.write(toFile: path("config.json"), atomically: true, encoding: .utf8)
            let result = gqlcache("read", cache, "--apollo-config", path("config.json"))
            XCTAssertEqual(result.status, .usage, text)
            XCTAssertEqual(result.stderr, "gqlcache: \(path("config.json")): \(message)\n", text)
        }
    }

    func testASchemaSearchThatFindsNothingNamesItsPatterns() throws {
        try makeProject(input: #"{"schemaSearchPaths": ["graphql/*.graphqls", "!graphql/old.graphqls"], "operationSearchPaths": ["Sources/Feature/**/*.graphql"]}"#)
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "HeroQuery", "--apollo-config", config)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: \(config): no schema file matches input.schemaSearchPaths 'graphql/*.graphqls', '!graphql/old.graphqls' in \(project)\n")
    }

    func testAnOperationSearchThatFindsNothingIsAnErrorUnlessDocumentsAreGiven() throws {
        try makeProject(input: #"{"schemaSearchPaths": ["schema/**/*.graphqls"], "operationSearchPaths": ["graphql/**/*.graphql"]}"#)
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "--apollo-config", config)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: \(config): no operation file matches input.operationSearchPaths 'graphql/**/*.graphql' in \(project); "
                       + "give documents with --document or --text\n")
        let withText = gqlcache("read", cache, "--apollo-config", config, "--text", "{ hero(episode: NEWHOPE) { name } }")
        XCTAssertEqual(withText.status, .success, withText.stderr)
    }

    func testAProblemInAFoundFileNamesTheFileLineAndColumn() throws {
        try makeProject()
        let cache = try copyOfFixture("starwars.sqlite")
        try write("query HeroQuery($episode: Episode) {\n  hero(episode: $episode) {\n", to: "Sources/Feature/Hero/HeroQuery.graphql")
        let syntax = gqlcache("read", cache, "Demo", "--apollo-config", config)
        XCTAssertEqual(syntax.status, .usage)
        XCTAssertEqual(syntax.stderr, "gqlcache: \(project)/Sources/Feature/Hero/HeroQuery.graphql:3:1: syntax error: Expected Name, found <EOF>\n")

        try write("query HeroQuery($episode: Episode) {\n  hero(episode: $episode) { nme }\n}\n", to: "Sources/Feature/Hero/HeroQuery.graphql")
        let invalid = gqlcache("read", cache, "Demo", "--apollo-config", config)
        XCTAssertEqual(invalid.status, .usage)
        XCTAssertEqual(invalid.stderr, "gqlcache: \(project)/Sources/Feature/Hero/HeroQuery.graphql:2:29: Cannot query field \"nme\" on type \"Character\". Did you mean \"name\"?\n")

        try write("extend type Query {\n  search(filter: SearchFilter): [[Character]]\n  reviews Int\n}\n", to: "schema/extensions/search.graphqls")
        let schema = gqlcache("read", cache, "Demo", "--apollo-config", config)
        XCTAssertEqual(schema.status, .usage)
        XCTAssertEqual(schema.stderr, "gqlcache: \(project)/schema/extensions/search.graphqls:3:11: schema error: syntax error: Expected :, found Name \"Int\"\n")
    }

    /// A project whose schema is the introspection result `schema.json`,
    /// with its type policies in an extension file, as Apollo's codegen takes it.
    func testAnIntrospectionJSONSchemaIsReadAsItsSDLIs() throws {
        let input = #"{"schemaSearchPaths": ["schema.json", "schema/extensions/*.graphqls"], "operationSearchPaths": ["Sources/**/*.graphql", "!Sources/Legacy/**"]}"#
        try makeProject(input: input)
        try FileManager.default.copyItem(
            atPath: repositoryRoot.appendingPathComponent("Tests/CacheQueryTests/starwars.json").path, toPath: path("project/schema.json"))
        // The JSON already has search and reviews; the extension adds a type policy.
        try write(#"extend type Starship @typePolicy(keyFields: "id")"#, to: "schema/extensions/search.graphqls")
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "Demo", "--apollo-config", config, "--variables", Self.variables, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let expected = try JSONSerialization.jsonObject(with: try Self.response) as? NSDictionary
        XCTAssertEqual(try result.json() as? NSDictionary, expected)

        try write(#"{"data": {"hero": null}}"#, to: "schema.json")
        let response = gqlcache("read", cache, "Demo", "--apollo-config", config)
        XCTAssertEqual(response.status, .usage)
        XCTAssertEqual(response.stderr, "gqlcache: \(project)/schema.json: schema error: a JSON schema must be an introspection result, with a __schema object; or give the schema as SDL (.graphqls)\n")
    }
}
