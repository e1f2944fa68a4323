import CacheStore
import Foundation
import GQLCacheCommands
import XCTest

final class ReadCommandTests: CommandTestCase {
    /// The tests' starwars schema with one text replaced, written to `name`
    /// in the test folder: a schema older or stricter than the cache.
    func starwarsSchema(replacing text: String, with replacement: String, as name: String) throws -> String {
        let schema = path(name)
        let original = try String(
            contentsOfFile: starWarsSchema, encoding: .utf8)
        XCTAssertTrue(original.contains(text), "the schema has no '\(text)' to replace")
        try original.replacingOccurrences(of: text, with: replacement).write(toFile: schema, atomically: true, encoding: .utf8)
        return schema
    }

    /// The blog example's operations, shipped beside it.
    var blogDocument: String { repositoryRoot.appendingPathComponent("Examples/blog.graphql").path }
    var blogCache: String { repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path }

    func testReadPrintsTheDataInTheOperationsShape() throws {
        let result = gqlcache("read", blogCache, "Viewer", "--document", blogDocument, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"viewer":{"__typename":"User","id":"1","name":"Grace Lovelace","handle":"@user1","avatar":{"url":"https://img.example.com/u/1/64.png","width":64}}}"# + "\n")
    }

    func testVariablesComeFromVarVariablesAndFiles() throws {
        let fromVar = gqlcache("read", blogCache, "UserPosts", "--document", blogDocument, "--var", "id=2", "--format", "json")
        XCTAssertEqual(fromVar.status, .success, fromVar.stderr)
        let variablesFile = path("variables.json")
        try #"{"id": "2"}"#.write(toFile: variablesFile, atomically: true, encoding: .utf8)
        let fromFile = gqlcache("read", blogCache, "UserPosts", "--document", blogDocument, "--variables-file", variablesFile, "--format", "json")
        let fromJSON = gqlcache("read", blogCache, "UserPosts", "--document", blogDocument, "--variables", #"{"id": 2}"#, "--format", "json")
        let fromStandardInput = gqlcache(
            "read", blogCache, "UserPosts", "--document", blogDocument, "--variables-file", "-", "--format", "json",
            input: #"{"id":"# + "\n" + #""2"}"#)
        XCTAssertEqual(fromFile.stdout, fromVar.stdout)
        XCTAssertEqual(fromJSON.stdout, fromVar.stdout)
        XCTAssertEqual(fromStandardInput.stdout, fromVar.stdout, fromStandardInput.stderr)
        // Given together, --var wins over --variables, which wins over the file.
        try #"{"id": "1"}"#.write(toFile: variablesFile, atomically: true, encoding: .utf8)
        let layered = gqlcache("read", blogCache, "UserPosts", "--document", blogDocument, "--variables-file", variablesFile,
                               "--variables", #"{"id": "3"}"#, "--var", "id=2", "--format", "json")
        XCTAssertEqual(layered.stdout, fromVar.stdout, layered.stderr)
        let overFile = gqlcache("read", blogCache, "UserPosts", "--document", blogDocument, "--variables-file", variablesFile,
                                "--variables", #"{"id": "2"}"#, "--format", "json")
        XCTAssertEqual(overFile.stdout, fromVar.stdout, overFile.stderr)
    }

    func testADocumentThatIsAFolderOrNotTextIsNamedWithWhatItIs() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let folderResult = gqlcache("read", cache, "--document", folder.path)
        XCTAssertEqual(folderResult.status, .io)
        XCTAssertEqual(folderResult.stderr, "gqlcache: \(folder.path): is a directory, not the document\n")
        let binary = gqlcache("read", cache, "--document", cache)
        XCTAssertEqual(binary.status, .usage)
        XCTAssertEqual(binary.stderr, "gqlcache: \(cache): the document is not UTF-8 text (it is an SQLite database)\n")
        let variables = gqlcache("read", cache, "--text", "{ hero { name } }", "--variables-file", folder.path)
        XCTAssertEqual(variables.stderr, "gqlcache: \(folder.path): is a directory, not the variables file\n")
    }

    func testAFragmentKeyWithNoRecordIsNamedWithTheNearestKeys() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let fragment = path("human.graphql")
        try Data("fragment H on Human { name }".utf8).write(to: URL(fileURLWithPath: fragment))
        let result = gqlcache("read", cache, "--document", fragment, "--fragment", "H", "--key", "human:1000")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record 'human:1000' in \(cache); nearest keys: Human:1000\n")
        let partial = gqlcache("read", cache, "--document", fragment, "--fragment", "H", "--key", "human:1000", "--partial", "--format", "json")
        XCTAssertEqual(partial.status, .notFound)
        XCTAssertTrue(partial.stdout.hasPrefix(#"{"data":null,"errors":[{"message":"cache miss at (root): no record 'human:1000'""#), partial.stdout)
    }

    /// A --var for a variable declared String or ID keeps the text typed,
    /// even when it reads as a number or a boolean.
    func testAVarForAStringOrIDKeepsTheTextTyped() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = "query Hu($id: ID!) { human(id: $id) { name } }"
        XCTAssertEqual(gqlcache("read", cache, "--text", document, "--var", "id=1000", "--format", "json").stdout, #"{"human":{"name":"Luke Skywalker"}}"# + "\n")
        for typed in ["1e3", "1000.0", "12345678901234567890", "true"] {
            let result = gqlcache("read", cache, "--text", document, "--var", "id=\(typed)")
            XCTAssertEqual(result.status, .notFound)
            XCTAssertTrue(result.stderr.contains("has no field 'human(id:\(typed))'"), result.stderr)
        }
    }

    /// So too for a list of them: the one value typed is a list of one
    /// text, as the single value for a String is that text.
    func testAVarForAListOfStringsKeepsTheTextTypedAsAListOfOne() throws {
        let response = path("r.json")
        try Data(#"{"data":{"f":{"__typename":"C","count":1}}}"#.utf8).write(to: URL(fileURLWithPath: response))
        for type in ["[String]", "[ID!]!"] {
            let written = gqlcache("write", path("n.sqlite"), "--create", "--dry-run", "--response", response,
                                   "--text", "query Q($c: \(type)) { f(c: $c) { count } }", "--var", "c=1")
            XCTAssertEqual(written.status, .success, written.stderr)
            XCTAssertTrue(written.stdout.contains("+ f(c:[1]): "), written.stdout)
        }
    }

    /// GraphQL given where the operation's name goes is told to go in
    /// --text, before the missing document is; long text is cut short.
    func testGraphQLGivenAsTheOperationNameIsToldToUseText() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let read = gqlcache("read", cache, "{ hero { name } }")
        XCTAssertEqual(read.status, .usage)
        XCTAssertEqual(read.stderr, "gqlcache: '{ hero { name } }' is GraphQL, not an operation's name: give the document with --text GRAPHQL "
            + "(see 'gqlcache read --help')\n")
        let long = gqlcache("update", cache, "query HeroQuery($episode: Episode) { hero(episode: $episode) { name } }", "--set", "a=1")
        XCTAssertTrue(long.stderr.hasPrefix("gqlcache: 'query HeroQuery($episode: Episode) { he…' is GraphQL"), long.stderr)
        XCTAssertEqual(gqlcache("write", cache, "{ a }", "--response", "-").status, .usage)
        let unnamed = gqlcache("read", cache)
        XCTAssertTrue(unnamed.stderr.hasPrefix("gqlcache: give the operation's document with --document FILE"), unnamed.stderr)
        // Not "-: no such file": standard input is no document file, and --text takes what is piped in.
        let piped = gqlcache("read", cache, "--document", "-")
        XCTAssertEqual(piped.status, .usage)
        XCTAssertEqual(piped.stderr, #"gqlcache: --document takes a file, not standard input; give GraphQL piped in with --text "$(cat)" "#
            + "(see 'gqlcache read --help')\n")
        XCTAssertEqual(gqlcache("read", cache, "--text", "{ a }", "--schema", "-").stderr,
                       "gqlcache: --schema takes a file, not standard input (see 'gqlcache read --help')\n")
        XCTAssertEqual(gqlcache("read", cache, "--apollo-config", "-").stderr,
                       "gqlcache: --apollo-config takes a file, not standard input (see 'gqlcache read --help')\n")
    }

    func testAVarWithoutANameIsAUsageError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for assignment in ["=1", "noequals", "$=1", "$$id=1", "$id"] {
            let result = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name } }", "--var", assignment)
            XCTAssertEqual(result.status, .usage)
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: --var takes name=value, got '\(assignment)'"), result.stderr)
        }
    }

    func testAVarMayNameItsVariableWithTheDollarSignTheDocumentWrites() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query Q($id: ID!) { human(id: $id) { name } }"
        let result = gqlcache("read", cache, "--text", query, "--var", "$id=1000", "--format", "jsonl")
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdout, #"{"human":{"name":"Luke Skywalker"}}"# + "\n")
        let twice = gqlcache("read", cache, "--text", query, "--var", "$id=1000", "--var", "id=1001")
        XCTAssertEqual(twice.status, .usage)
        XCTAssertTrue(twice.stderr.hasPrefix("gqlcache: --var id is given twice, as '1000' and '1001'"), twice.stderr)
    }

    func testAMissExitsOneNamingTheFieldKeyAndTheKeysTheRecordHas() throws {
        let result = gqlcache("read", blogCache, "UserPosts", "--document", blogDocument, "--var", "id=3")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "gqlcache: cache miss at user: record 'QUERY_ROOT' has no field 'user(id:3)'; it has 'user(id:2)'\n")
    }

    /// A variable not given leaves its argument out of the key, as Apollo
    /// does: the miss says that this, not the data, is what differs.
    func testAMissForAVariableNotGivenSaysToGiveIt() throws {
        let query = "query H($episode: Episode, $first: Int) { hero(episode: $episode) { name friendsConnection(first: $first) { totalCount } } }"
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "--text", query)
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: cache miss at hero: record 'QUERY_ROOT' has no field 'hero'; it has 'hero(episode:NEWHOPE)' "
            + "($episode was not given, so Apollo leaves its argument out of the key: give --var episode=…)\n")
        // Each variable not given is named at the field whose argument it is.
        let given = gqlcache("read", cache, "--text", query, "--var", "episode=NEWHOPE")
        XCTAssertEqual(given.stderr, "gqlcache: cache miss at hero.friendsConnection: record 'Droid:2001' has no field 'friendsConnection'; "
            + "it has 'friendsConnection(after:null,first:2)' ($first was not given, so Apollo leaves its argument out of the key: give --var first=…)\n")
    }

    func testAMissOnAFieldNameTypedInOtherCaseOrALetterOffNamesTheFieldTheRecordHas() throws {
        for (text, expected) in [
            ("{ viewer { Name } }", "cache miss at viewer.Name: record 'User:1' has no field 'Name'; it has 'name'"),
            ("{ viewer { nme } }", "cache miss at viewer.nme: record 'User:1' has no field 'nme'; it has 'name'"),
            ("{ Viewer { name } }", "cache miss at Viewer: record 'QUERY_ROOT' has no field 'Viewer'; it has 'viewer'"),
            // Nothing near: no guess (not 'id' for 'ab').
            ("{ viewer { ab } }", "cache miss at viewer.ab: record 'User:1' has no field 'ab'"),
        ] {
            let result = gqlcache("read", blogCache, "--text", text)
            XCTAssertEqual(result.status, .notFound)
            XCTAssertEqual(result.stderr, "gqlcache: \(expected)\n", text)
        }
    }

    func testPartialPrintsTheDataFoundAndGraphQLStyleErrors() throws {
        let result = gqlcache("read", blogCache, "--text", #"{ viewer { name } user(id: 9) { name } }"#, "--partial", "--format", "json")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stdout, #"{"data":{"viewer":{"name":"Grace Lovelace"},"user":null},"errors":[{"message":"cache miss at user: record 'QUERY_ROOT' has no field 'user(id:9)'; it has 'user(id:2)'","path":["user"]}]}"# + "\n")
    }

    func testPartialExitsWithTheGravestProblemWhateverTheOrderOfTheFields() throws {
        let schema = try starwarsSchema(replacing: "mass: Float", with: "mass: Float!", as: "changed.graphqls")
        let cache = try copyOfFixture("starwars.sqlite")
        for text in [
            #"{ hero(episode: JEDI) { name } human(id: "1000") { mass } }"#,
            #"{ human(id: "1000") { mass } hero(episode: JEDI) { name } }"#,
        ] {
            let result = gqlcache("read", cache, "--text", text, "--schema", schema, "--partial", "--format", "json")
            XCTAssertEqual(result.status, .damagedRecord, text)
            XCTAssertEqual(try XCTUnwrap(try result.json() as? [String: Any])["errors"].map { ($0 as? [Any])?.count }, 2, text)
        }
    }

    func testAFragmentIsReadFromTheGivenKey() throws {
        let result = gqlcache("read", blogCache, "--fragment", "UserSummary", "--key", "User:3", "--document", blogDocument, "--format", "json")
        XCTAssertEqual(result.stdout, #"{"id":"3","name":"Edsger Lovelace","handle":"@user3"}"# + "\n")
    }

    /// A fragment declares no variables: with a schema, one used inside
    /// an argument (a member of an input object, an element of a list) is
    /// held as the type of its place, as the app's operation holds it, so
    /// `--var lng=-2` for a Float is `lng:-2.0` in the field key, as the
    /// operation form reads it.
    func testAFragmentsVariableInsideAnInputObjectTakesTheTypeOfItsPlace() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        let fragment = #"fragment S on Query { search(filter: {text: "sky", limit: $limit, tags: ["a", $tag], near: {lat: 1.5, lng: $lng}}) { __typename } }"#
        let result = gqlcache("read", cache, "--text", fragment, "--fragment", "S", "--key", "QUERY_ROOT", "--schema", schema,
                              "--var", "lng=-2", "--var", "limit=2", "--var", "tag=b", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"search":[[{"__typename":"Human"},null],[{"__typename":"Droid"}]]}"# + "\n")
        let wrong = gqlcache("read", cache, "--text", fragment, "--fragment", "S", "--key", "QUERY_ROOT", "--schema", schema,
                             "--var", "lng=west", "--var", "limit=2", "--var", "tag=b")
        XCTAssertEqual(wrong.status, .usage, wrong.stderr)
        XCTAssertTrue(wrong.stderr.contains("$lng"), wrong.stderr)
        // A number typed for a String stays the text typed, as for an operation's String variable.
        let text = #"fragment T on Query { search(filter: {text: $t, limit: 2, tags: ["a", "b"], near: {lat: 1.5, lng: -2.0}}) { __typename } }"#
        let number = gqlcache("read", cache, "--text", text, "--fragment", "T", "--key", "QUERY_ROOT", "--schema", schema, "--var", "t=123")
        XCTAssertEqual(number.status, .notFound, number.stderr)
        XCTAssertTrue(number.stderr.contains("text:123])'; it has"), number.stderr)
    }

    /// Without a schema a Float variable inside an input object is written
    /// as given (`lng:-2`), where Apollo's generated code writes `-2.0`: the
    /// miss names the key the record has and says that --schema is the fix.
    /// A file Apollo wrote on an Apple platform holds `-2`, which
    /// --apple-floats reads, and the miss says so.
    func testAMissOnlyInHowANumberIsWrittenSaysToGiveTheSchema() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query S($filter: SearchFilter) { search(filter: $filter) { __typename } }"
        func filter(lng: Int) -> String { #"{"filter":{"text":"sky","limit":2,"tags":["a","b"],"near":{"lat":1.5,"lng":\#(lng)}}}"# }
        let bare = gqlcache("read", cache, "--text", query, "--variables", filter(lng: -2))
        XCTAssertEqual(bare.status, .notFound)
        XCTAssertEqual(bare.stderr, "gqlcache: cache miss at search: record 'QUERY_ROOT' has no field "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])'; it has 'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])' "
            + "(only how a number is written differs: the record has -2.0 where this read has -2; if the app gave a Float there, give --schema, "
            + "and a Float variable is written as its type says, or write it -2.0)\n")
        // --partial's errors say so too.
        let partial = gqlcache("read", cache, "--text", query, "--variables", filter(lng: -2), "--partial")
        XCTAssertTrue(partial.stdout.contains("(only how a number is written differs: the record has -2.0 where this read has -2; "), partial.stdout)
        let typed = gqlcache("read", cache, "--text", query, "--variables", filter(lng: -2), "--schema", starWarsSchema)
        XCTAssertEqual(typed.status, .success, typed.stderr)
        // With the schema, a key written as Apollo on Apple platforms writes it is named as such, with no call for --schema.
        let device = try copyOfFixture("starwars.sqlite", as: "device.sqlite")
        _ = try sqliteShell(device, "UPDATE records SET record = replace(record, 'lng:-2.0', 'lng:-2') WHERE key = 'QUERY_ROOT'")
        let fromDevice = gqlcache("read", device, "--text", query, "--variables", filter(lng: -2), "--schema", starWarsSchema)
        XCTAssertEqual(fromDevice.status, .notFound)
        XCTAssertTrue(fromDevice.stderr.hasSuffix("(only how a number is written differs: the record has -2 where this read has -2.0; "
            + "Apollo on Apple platforms writes a Float inside a list or an input object so (a cache from a device or simulator): "
            + "give --apple-floats)\n"), fromDevice.stderr)
        // Which reads it, with or without the schema, and the file from Linux no longer.
        // (Without the schema the JSON -2 is an Int, written -2 in both forms: the device's file reads without the flag too.)
        for schema in [[], ["--schema", starWarsSchema]] {
            let apple = gqlcache(arguments: ["read", device, "--text", query, "--variables", filter(lng: -2), "--apple-floats"] + schema)
            XCTAssertEqual(apple.status, .success, apple.stderr)
        }
        let linuxFile = gqlcache("read", cache, "--text", query, "--variables", filter(lng: -2), "--schema", starWarsSchema, "--apple-floats")
        XCTAssertEqual(linuxFile.status, .notFound)
        XCTAssertTrue(linuxFile.stderr.hasSuffix("(only how a number is written differs: the record has -2.0 where this read has -2; "
            + "Apollo's Linux builds write a Float inside a list or an input object so: leave out --apple-floats)\n"), linuxFile.stderr)
        // Another value is another key: no such hint.
        let other = gqlcache("read", cache, "--text", query, "--variables", filter(lng: -3))
        XCTAssertEqual(other.status, .notFound)
        XCTAssertFalse(other.stderr.contains("--schema"), other.stderr)
    }

    /// An operation that uses a variable it does not define is refused; a
    /// fragment defines none, so one `--var` does not give is absent, its
    /// argument left out: the read, the write and the update say so.
    func testAFragmentsVariableNotGivenIsNamedInAWarning() throws {
        let fragment = "fragment F on User @apollo_client_ios_localCacheMutation { avatar(size: $size) { url } }"
        let warning = "gqlcache: warning: fragment 'F' uses $size, not given, so its argument is left out of the field keys, "
            + "as Apollo leaves out an absent variable; give --var size=VALUE\n"
        let read = gqlcache("read", blogCache, "--text", fragment, "--fragment", "F", "--key", "User:1")
        XCTAssertEqual(read.status, .notFound)
        XCTAssertEqual(read.stderr, warning + "gqlcache: cache miss at avatar: record 'User:1' has no field 'avatar'; it has 'avatar(size:64)' "
            + "($size was not given, so Apollo leaves its argument out of the key: give --var size=…)\n")
        let given = gqlcache("read", blogCache, "--text", fragment, "--fragment", "F", "--key", "User:1", "--var", "size=64")
        XCTAssertEqual(given.status, .success, given.stderr)
        XCTAssertEqual(given.stderr, "")
        let cache = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: blogCache, toPath: cache)
        try #"{"avatar":{"url":"u"}}"#.write(toFile: path("r.json"), atomically: true, encoding: .utf8)
        let write = gqlcache("write", cache, "--text", fragment, "--fragment", "F", "--key", "User:1", "--response", path("r.json"), "--dry-run", "--quiet")
        XCTAssertTrue(write.stderr.hasPrefix(warning), write.stderr)
        let update = gqlcache("update", cache, "--text", fragment, "--fragment", "F", "--key", "User:1", "--set", "avatar.url=v", "--dry-run", "--quiet")
        XCTAssertTrue(update.stderr.hasPrefix(warning), update.stderr)
        // A condition's variable leaves no argument out: the read says what it needs instead.
        let condition = gqlcache("read", blogCache, "--text", "fragment C on User { name avatar(size: 64) @include(if: $full) { url } }",
                                 "--fragment", "C", "--key", "User:1")
        XCTAssertEqual(condition.status, .usage)
        XCTAssertEqual(condition.stderr, "gqlcache: invalid variables: $full is not given, and @include(if: $full) needs a Boolean\n")
    }

    func testTheStarWarsMutationResultIsReadFromMutationRoot() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let text = """
            mutation CreateReview($episode: Episode, $review: ReviewInput!) {
              createReview(episode: $episode, review: $review) { __typename stars commentary }
            }
            """
        let result = gqlcache("read", cache, "--text", text, "--variables",
                              #"{"episode":"JEDI","review":{"stars":5,"commentary":"This is a great movie!"}}"#, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"createReview":{"__typename":"Review","stars":5,"commentary":"This is a great movie!"}}"# + "\n")
    }

    /// Apollo's JSON reading refuses a number too large for a Double, and
    /// the whole record with it: a read that reaches the record fails,
    /// whichever of its fields it selects, alone or in a list's batch.
    func testARecordHoldingANumberTooLargeForADoubleCannotBeRead() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"UPDATE records SET record = substr(record, 1, length(record) - 1) || ',"extra":{"kg":-2e308}}' WHERE key = 'Human:1000'"#)
        let problem = "record 'Human:1000' is damaged: field 'extra' holds -2e308, a number too large for a Double, which Apollo's JSON reading refuses with the whole record\n"
        let alone = gqlcache("read", cache, "--text", #"{ human(id: "1000") { name } }"#)
        XCTAssertEqual(alone.status, .damagedRecord)
        XCTAssertEqual(alone.stderr, "gqlcache: cannot read human: " + problem)
        let inBatch = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { friends { name } } }")
        XCTAssertEqual(inBatch.status, .damagedRecord)
        XCTAssertEqual(inBatch.stderr, "gqlcache: cannot read hero.friends.0: " + problem)
        XCTAssertEqual(gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name } }").status, .success, "other records read")
    }

    func testWithASchemaATypeErrorExitsSixAndSaysWhatDoesNotFit() throws {
        let schema = try starwarsSchema(replacing: "mass: Float", with: "mass: Float!", as: "changed.graphqls")
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "--text", #"{ human(id: "1000") { name mass } }"#, "--schema", schema)
        XCTAssertEqual(result.status, .damagedRecord)
        XCTAssertEqual(result.stderr, "gqlcache: type error at human.mass: record 'Human:1000', field 'mass': null in a non-null field of type Float!\n")
    }

    /// A schema older than the server lacks enum values the cache holds:
    /// Apollo's GraphQLEnum reads them as .unknown, so read gives them
    /// (exit 0) and warns; write stores one, as Apollo's normalizer does.
    func testAnEnumValueTheSchemaLacksIsReadAndWrittenWithAWarning() throws {
        let schema = try starwarsSchema(replacing: "enum Episode { NEWHOPE EMPIRE JEDI }", with: "enum Episode { NEWHOPE JEDI }", as: "older.graphqls")
        let cache = try copyOfFixture("starwars.sqlite")
        let read = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { appearsIn } }", "--schema", schema, "--format", "json")
        XCTAssertEqual(read.status, .success, read.stderr)
        XCTAssertEqual(read.stdout, #"{"hero":{"appearsIn":["NEWHOPE","EMPIRE","JEDI"]}}"# + "\n")
        XCTAssertEqual(read.stderr, #"gqlcache: warning: hero.appearsIn: "EMPIRE" is not a value of enum Episode in the schema; Apollo reads it as .unknown("EMPIRE"), as a value the server added since the schema was fetched"# + "\n")

        let response = path("future.json")
        try Data(#"{"hero":{"__typename":"Droid","appearsIn":["EMPIRE"]}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let write = gqlcache("write", path("new.sqlite"), "--create", "--text", "{ hero(episode: JEDI) { appearsIn } }",
                             "--response", response, "--schema", schema)
        XCTAssertEqual(write.status, .success, write.stderr)
        XCTAssertTrue(write.stderr.contains(#"is not a value of enum Episode in the schema; Apollo writes it all the same"#), write.stderr)
        XCTAssertEqual(try records(path("new.sqlite"))["QUERY_ROOT.hero(episode:JEDI)"]?["appearsIn"], .list([.string("EMPIRE")]))
    }

    /// A schema in several files: each --schema adds one, and an extension
    /// in one extends a type of another, as the codegen config's files do.
    /// Apollo iOS codegen declares @defer for the schema it is given, so a
    /// document that defers a fragment is valid without the SDL declaring
    /// it; the fragment is read from the cache as any other is.
    func testADeferredFragmentIsValidWithASchemaAndReadLikeAnyOther() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        for query in [
            #"{ hero(episode: NEWHOPE) { id ... on Droid @defer(label: "d") { name } } }"#,
            "{ hero(episode: NEWHOPE) { id ...D @defer(if: true) } } fragment D on Droid { name }",
        ] {
            let result = gqlcache("read", cache, "--text", query, "--schema", schema, "--format", "json")
            XCTAssertEqual(result.status, .success, result.stderr)
            XCTAssertEqual(result.stdout, #"{"hero":{"id":"2001","name":"R2-D2"}}"# + "\n")
        }
        let onAField = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name @defer } }", "--schema", schema)
        XCTAssertEqual(onAField.status, .usage)
        XCTAssertEqual(onAField.stderr, "gqlcache: --text:1:33: Directive \"@defer\" may not be used on FIELD.\n")
        // Without a schema, the same place is refused in the same words.
        let withoutSchema = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name @defer } }")
        XCTAssertEqual(withoutSchema.stderr, onAField.stderr)
        // A schema that declares @defer itself says where it goes, as Apollo's codegen then leaves it.
        let declaring = path("declaring.graphqls")
        try (try String(contentsOfFile: schema, encoding: .utf8)
            + "\ndirective @defer(if: Boolean! = true, label: String) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT\n")
            .write(toFile: declaring, atomically: true, encoding: .utf8)
        let declared = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name @defer } }", "--schema", declaring, "--format", "json")
        XCTAssertEqual(declared.status, .success, declared.stderr)
        XCTAssertEqual(declared.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n")
    }

    /// Apollo's String (and so ID) decodes an Int or a Double as its text:
    /// with a schema a number in a String or ID field is read as Apollo's
    /// model reads it, not as a type error; without one it is as stored.
    func testWithASchemaANumberInAStringOrIDFieldIsReadAsItsText() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.name', 5, '$.id', 1000.0) WHERE key = 'Human:1000'")
        let schema = starWarsSchema
        let query = #"{ human(id: "1000") { id name } }"#
        let typed = gqlcache("read", cache, "--text", query, "--schema", schema, "--format", "json")
        XCTAssertEqual(typed.status, .success, typed.stderr)
        XCTAssertEqual(typed.stdout, #"{"human":{"id":"1000","name":"5"}}"# + "\n")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.name', 1.5) WHERE key = 'Human:1000'")
        XCTAssertEqual(gqlcache("read", cache, "--text", query, "--schema", schema, "--format", "json").stdout, #"{"human":{"id":"1000","name":"1.5"}}"# + "\n")
        XCTAssertEqual(gqlcache("read", cache, "--text", query, "--format", "json").stdout, #"{"human":{"id":1000.0,"name":1.5}}"# + "\n")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.name', json('true')) WHERE key = 'Human:1000'")
        XCTAssertEqual(gqlcache("read", cache, "--text", query, "--schema", schema).status, .damagedRecord, "a Boolean is no String")
    }

    /// Apollo's Int decodes a number by NSNumber's intValue: a whole 5.0
    /// in an Int field reads as 5 with a schema, and a fraction as its whole
    /// part (4.5 as 4, -4.5 as -4); one beyond Int64 is a type error, and
    /// without a schema the value is as stored.
    func testWithASchemaANumberWithAFractionInAnIntFieldReadsAsItsWholePart() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.stars', 5.0) WHERE key = 'QUERY_ROOT.reviews(episode:JEDI,first:2).0'")
        let schema = starWarsSchema
        let query = "{ reviews(episode: JEDI, first: 2) { stars } }"
        let typed = gqlcache("read", cache, "--text", query, "--schema", schema, "--format", "json")
        XCTAssertEqual(typed.stdout, #"{"reviews":[{"stars":5},{"stars":3}]}"# + "\n", typed.stderr)
        XCTAssertEqual(gqlcache("read", cache, "--text", query, "--format", "json").stdout, #"{"reviews":[{"stars":5.0},{"stars":3}]}"# + "\n")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.stars', 4.5) WHERE key = 'QUERY_ROOT.reviews(episode:JEDI,first:2).0'")
        XCTAssertEqual(gqlcache("read", cache, "--text", query, "--schema", schema, "--format", "json").stdout, #"{"reviews":[{"stars":4},{"stars":3}]}"# + "\n")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.stars', -4.5) WHERE key = 'QUERY_ROOT.reviews(episode:JEDI,first:2).0'")
        XCTAssertEqual(gqlcache("read", cache, "--text", query, "--schema", schema, "--format", "json").stdout, #"{"reviews":[{"stars":-4},{"stars":3}]}"# + "\n")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.stars', 1e30) WHERE key = 'QUERY_ROOT.reviews(episode:JEDI,first:2).0'")
        let beyond = gqlcache("read", cache, "--text", query, "--schema", schema)
        XCTAssertEqual(beyond.status, .damagedRecord)
        XCTAssertEqual(beyond.stderr, "gqlcache: type error at reviews.0.stars: record 'QUERY_ROOT.reviews(episode:JEDI,first:2).0', field 'stars': expected Int, found 1e+30\n")
    }

    func testRepeatedSchemaFilesMakeOneSchema() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let starwars = starWarsSchema
        let extra = path("extra.graphqls")
        try "extend type Human { nickname: String! }".write(toFile: extra, atomically: true, encoding: .utf8)
        let text = #"{ human(id: "1000") { name nickname } }"#
        // The extension's non-null field, which the record lacks, is a miss; without it the field is unknown.
        let both = gqlcache("read", cache, "--text", text, "--schema", starwars, "--schema", extra)
        XCTAssertEqual(both.status, .notFound, both.stderr)
        XCTAssertTrue(both.stderr.contains("has no field 'nickname'"), both.stderr)
        let one = gqlcache("read", cache, "--text", text, "--schema", starwars)
        XCTAssertEqual(one.status, .usage)
        XCTAssertTrue(one.stderr.contains(#"Cannot query field "nickname" on type "Human""#), one.stderr)
    }

    func testDocumentProblemsAreOneLineUsageErrors() throws {
        let syntax = gqlcache("read", blogCache, "--text", "{ feed(first: 3) { title }")
        XCTAssertEqual(syntax.status, .usage)
        XCTAssertEqual(syntax.stderr, "gqlcache: --text:1:27: syntax error: Expected Name, found <EOF>\n")
        let ambiguous = gqlcache("read", blogCache, "--document", blogDocument)
        XCTAssertEqual(ambiguous.stderr, "gqlcache: the documents hold several operations; name one (operations: Feed, Viewer, UserPosts, RenameViewer)\n")
        // A name the documents lack is a mistake on the command line, not a miss.
        let unknown = gqlcache("read", blogCache, "Nope", "--document", blogDocument)
        XCTAssertEqual(unknown.status, .usage)
        XCTAssertTrue(unknown.stderr.hasPrefix("gqlcache: no operation named 'Nope'"), unknown.stderr)
        // The name of a fragment, or of Apollo's generated class, says what to give instead.
        let fragmentName = gqlcache("read", blogCache, "UserSummary", "--document", blogDocument)
        XCTAssertEqual(fragmentName.status, .usage)
        XCTAssertEqual(fragmentName.stderr, "gqlcache: 'UserSummary' is a fragment, not an operation: give it with --fragment UserSummary --key KEY\n")
        XCTAssertEqual(gqlcache("read", blogCache, "FeedQuery", "--document", blogDocument).stderr,
                       "gqlcache: no operation named 'FeedQuery' (operations: Feed, Viewer, UserPosts, RenameViewer); "
                       + "Apollo's generated FeedQuery is the operation 'Feed'\n")
        let unknownFragment = gqlcache("read", blogCache, "--text", "fragment F on User { name }", "--fragment", "Nope", "--key", "User:1")
        XCTAssertEqual(unknownFragment.status, .usage)
        XCTAssertEqual(gqlcache("update", blogCache, "Nope", "--document", blogDocument, "--set", "a=1").status, .usage)
        let missingVariable = gqlcache("read", blogCache, "UserPosts", "--document", blogDocument)
        XCTAssertEqual(missingVariable.status, .usage)
        XCTAssertTrue(missingVariable.stderr.contains("needs variable $id"), missingVariable.stderr)
        XCTAssertEqual(gqlcache("read", blogCache, "--document", path("nope.graphql")).status, .io)
        XCTAssertEqual(gqlcache("read", blogCache).status, .usage, "a document is required")
        XCTAssertEqual(gqlcache("read", blogCache, "--text", "{ viewer { name } }", "--fragment", "X").status, .usage, "--fragment needs --key")
        // A spread of a fragment no document defines is a mistake in the
        // document, named where it is; a script must not take it for a miss.
        let spread = gqlcache("read", blogCache, "--text", "{ viewer {\n  ...Nope } }")
        XCTAssertEqual(spread.status, .usage)
        XCTAssertEqual(spread.stderr, "gqlcache: --text:2:3: unknown fragment 'Nope'\n")
        // ...named before a variable it needs, which would not mend it.
        let both = gqlcache("read", blogCache, "--text", "query Q($id: ID!) { user(id: $id) {\n  ...Nope } }")
        XCTAssertEqual(both.stderr, "gqlcache: --text:2:3: unknown fragment 'Nope'\n")
        let fragment = gqlcache("read", blogCache, "--text", "fragment F on User { avatar(size: $size) { ...Nope } }", "--fragment", "F", "--key", "User:1")
        XCTAssertTrue(fragment.stderr.hasSuffix("gqlcache: --text:1:44: unknown fragment 'Nope' (fragments: F)\n"), fragment.stderr)
        // write says it first too.
        try #"{"user":{"__typename":"User","id":"1"}}"#.write(toFile: path("r.json"), atomically: true, encoding: .utf8)
        let written = gqlcache("write", blogCache, "--text", "query Q($id: ID!) { user(id: $id) {\n  ...Nope } }", "--response", path("r.json"), "--dry-run")
        XCTAssertEqual(written.stderr, "gqlcache: --text:2:3: unknown fragment 'Nope'\n")
    }

    /// A variable the operation does not define changes nothing, so a
    /// misspelled --var would silently read with the default: say so.
    func testAVariableTheOperationDoesNotDefineIsNamedInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query Hero($episode: Episode) { hero(episode: $episode) { name } }"
        let result = gqlcache("read", cache, "--text", query, "--var", "epsiode=JEDI", "--var", "episode=NEWHOPE", "--format", "json")
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(result.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n")
        XCTAssertEqual(result.stderr, "gqlcache: warning: operation 'Hero' does not define $epsiode, so it was not used; it defines $episode\n")
        let anonymous = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name } }", "--variables", #"{"b": 1, "a": 2}"#)
        XCTAssertEqual(anonymous.status, .success)
        XCTAssertEqual(anonymous.stderr, "gqlcache: warning: the operation does not define $a, $b, so they were not used; it defines none\n")
        // --quiet keeps warnings: a script passes it, and needs this one most.
        let quiet = gqlcache("read", cache, "--text", query, "--var", "epsiode=JEDI", "--var", "episode=NEWHOPE", "--quiet", "--format", "json")
        XCTAssertEqual(quiet.stdout, result.stdout)
        XCTAssertEqual(quiet.stderr, result.stderr)
    }

    /// Apollo reads a fragment from whatever record the key names; with a
    /// schema, a record of a type the fragment is not on gets a warning.
    func testAFragmentReadAtARecordOfAnotherTypeIsNamedInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        let fragments = "fragment HumanName on Human { name } fragment CharName on Character { name }"
        let result = gqlcache("read", cache, "--text", fragments, "--fragment", "HumanName", "--key", "Droid:2001", "--schema", schema, "--format", "json")
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(result.stdout, #"{"name":"R2-D2"}"# + "\n")
        XCTAssertEqual(result.stderr, "gqlcache: warning: fragment 'HumanName' is on Human, but Droid:2001 has __typename Droid; Apollo reads it all the same, so check the key\n")
        let interface = gqlcache("read", cache, "--text", fragments, "--fragment", "CharName", "--key", "Droid:2001", "--schema", schema)
        XCTAssertEqual(interface.status, .success)
        XCTAssertEqual(interface.stderr, "", "a Droid is a Character")
    }

    /// Without a schema, a fragment on an interface applies to nothing and
    /// its fields are silently missing: the read says so, and not for the
    /// usual `... on Human { } ... on Droid { }` of which one applies.
    func testWithoutASchemaAFragmentThatAppliedToNothingIsNamedInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "{ hero(episode: NEWHOPE) { name friends { ...CharName } } } fragment CharName on Character { name }"
        let result = gqlcache("read", cache, "--text", query, "--format", "json")
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(result.stdout, #"{"hero":{"name":"R2-D2","friends":[{},{},null]}}"# + "\n")
        XCTAssertEqual(result.stderr, "gqlcache: warning: without a schema, fragments on 'Character' applied to no object (they met 'Human'); if Character is an interface or union, give --schema to read as Apollo does\n")
        XCTAssertEqual(gqlcache("read", cache, "--text", query, "--quiet").stderr, result.stderr, "--quiet keeps warnings")
        let schema = starWarsSchema
        let withSchema = gqlcache("read", cache, "--text", query, "--schema", schema, "--format", "json")
        XCTAssertEqual(withSchema.stdout, #"{"hero":{"name":"R2-D2","friends":[{"name":"Luke Skywalker"},{"name":"Han Solo"},null]}}"# + "\n")
        XCTAssertEqual(withSchema.stderr, "")
        let json = repositoryRoot.appendingPathComponent("Tests/CacheQueryTests/starwars.json").path
        let withJSONSchema = gqlcache("read", cache, "--text", query, "--schema", json, "--format", "json")
        XCTAssertEqual(withJSONSchema.stdout, withSchema.stdout, "an introspection result reads as its SDL does")
        XCTAssertEqual(withJSONSchema.stderr, "")
        let alternatives = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name ... on Human { height } ... on Droid { primaryFunction } } }")
        XCTAssertEqual(alternatives.status, .success)
        XCTAssertEqual(alternatives.stderr, "")
    }

    /// Beside a fragment that applied, one on another object type of the
    /// cache (it has `Human:` records) is the other member, as expected;
    /// one on a name no record is keyed by (an interface) is named, its
    /// fields silently missing otherwise.
    func testBesideAFragmentThatAppliedOneOnAnInterfaceIsStillNamed() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { ... on Droid { id } ... on Character { name } } }", "--format", "json")
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(result.stdout, #"{"hero":{"id":"2001"}}"# + "\n")
        XCTAssertEqual(result.stderr, "gqlcache: warning: without a schema, fragments on 'Character' applied to no object (they met 'Droid'); if Character is an interface or union, give --schema to read as Apollo does\n")
        let member = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { ... on Droid { id } ... on Human { name } } }")
        XCTAssertEqual(member.stderr, "", "Human is an object type of this cache: the other member")
        // The first Human: keys may be children an rm left (rm does not cascade), however many: the record after them says the type.
        _ = try sqliteShell(cache, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20)
            INSERT INTO records(key, record) SELECT 'Human:0.starships.' || i, '{"__typename":"Starship"}' FROM n;
            """)
        let afterChild = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { ... on Droid { id } ... on Human { name } } }")
        XCTAssertEqual(afterChild.stderr, "", "Human:1000 after the child says Human is an object type")
        // An id may hold a '.': such a record is no child, and says the type.
        let dotted = try makeCache("dotted.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["hero": .reference("Droid:2001"), "friend": .reference("Human:luke.skywalker")]),
            Record(key: "Droid:2001", fields: ["__typename": .string("Droid"), "id": .string("2001")]),
            Record(key: "Human:luke.skywalker", fields: ["__typename": .string("Human"), "name": .string("Luke")]),
        ])
        let withDots = gqlcache("read", dotted, "--text", "{ hero { __typename ... on Droid { id } ... on Human { name } } }")
        XCTAssertEqual(withDots.stderr, "", "Human:luke.skywalker says Human is an object type")
        // Children of removed objects whose ids hold a '.', children of many
        // removed objects, or a record of another type first: a Human after them says it.
        for others in [["Human:u.1.friendsConnection"], ["Human:luke.skywalker.friendsConnection"], (1...12).map { "Human:\($0).friends" }, ["Human:1"]] {
            let layout = try makeCache("layout.sqlite", [
                Record(key: "QUERY_ROOT", fields: ["hero": .reference("Droid:2001")]),
                Record(key: "Droid:2001", fields: ["__typename": .string("Droid"), "id": .string("2001")]),
                Record(key: "Human:u.2", fields: ["__typename": .string("Human")]),
                Record(key: "Human:luke.skywalker2", fields: ["__typename": .string("Human")]),
            ] + others.map { Record(key: CacheKey($0), fields: ["__typename": .string("Person")]) })
            let read = gqlcache("read", layout, "--text", "{ hero { __typename ... on Droid { id } ... on Human { name } } }")
            XCTAssertEqual(read.stderr, "", "\(others)")
            try FileManager.default.removeItem(atPath: layout)
        }
    }

    /// An app may key records by a group named for an interface
    /// (`Character:2001` for a Droid): records keyed so are not of a type
    /// of that name, and a fragment on it that applied to nothing is named.
    func testAFragmentOnAnInterfaceThatIsAlsoAKeyGroupIsStillNamed() throws {
        let cache = try makeCache("group.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["hero": .reference("Character:2001")]),
            Record(key: "Character:2001", fields: ["__typename": .string("Droid"), "id": .string("2001"), "name": .string("R2-D2")]),
        ])
        let result = gqlcache("read", cache, "--text", "{ hero { __typename ... on Droid { id } ... on Character { name } } }", "--format", "json")
        XCTAssertEqual(result.status, .success)
        XCTAssertEqual(result.stdout, #"{"hero":{"__typename":"Droid","id":"2001"}}"# + "\n")
        XCTAssertEqual(result.stderr, "gqlcache: warning: without a schema, fragments on 'Character' applied to no object (they met 'Droid'); if Character is an interface or union, give --schema to read as Apollo does\n")
    }

    /// A `__typename` that holds null, or a value Apollo's String does not
    /// read (it reads a number as its digits), is a type error (status 6),
    /// selected or not, schema or not: Apollo's generated models read a
    /// `String!` there in every object, where a record without one misses.
    func testATypenameThatIsNullOrNoStringIsATypeError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            UPDATE records SET record = json_set(record, '$.__typename', json('null')) WHERE key = 'Human:1002';
            UPDATE records SET record = json_set(record, '$.__typename', json('true')) WHERE key = 'Human:1000';
            """)
        let queries = [
            "{ hero(episode: NEWHOPE) { friends { name } } }", "{ hero(episode: NEWHOPE) { friends { __typename name } } }",
            "{ hero(episode: NEWHOPE) { friends { ... on Human { name } } } }",
        ]
        for query in queries {
            for extra in [[], ["--schema", starWarsSchema]] {
                let result = gqlcache(arguments: ["read", cache, "--text", query] + extra)
                XCTAssertEqual(result.status, .damagedRecord, "\(query) \(extra)")
                XCTAssertTrue(result.stderr.hasPrefix("gqlcache: type error at hero.friends.0.__typename: record 'Human:1000', field '__typename': "),
                              result.stderr)
            }
        }
        // update fails as Apollo's does, and says how to mend the record: --data gives it whole.
        let fragment = "fragment H on Human @apollo_client_ios_localCacheMutation { __typename name }"
        let update = gqlcache("update", cache, "--text", fragment, "--fragment", "H", "--key", "Human:1002", "--set", "__typename=Human")
        XCTAssertEqual(update.status, .damagedRecord)
        XCTAssertTrue(update.stderr.hasSuffix(" (so Apollo's update fails here too; give the whole data, __typename included, with --data)\n"),
                      update.stderr)
        let data = path("h.json")
        try Data(#"{"__typename":"Human","name":"Han Solo"}"#.utf8).write(to: URL(fileURLWithPath: data))
        let mended = gqlcache("update", cache, "--text", fragment, "--fragment", "H", "--key", "Human:1002", "--data", data)
        XCTAssertEqual(mended.status, .success, mended.stderr)
        XCTAssertTrue(try sqliteShell(cache, "SELECT json_extract(record, '$.__typename') FROM records WHERE key = 'Human:1002'").hasPrefix("Human"))
        let partial = gqlcache("read", cache, "--text", queries[0], "--partial", "--format", "json")
        XCTAssertEqual(partial.status, .damagedRecord)
        let output = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(partial.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((output["errors"] as? [[String: Any]])?.compactMap { $0["message"] as? String }, [
            "type error at hero.friends.0.__typename: record 'Human:1000', field '__typename': true where Apollo's generated models, "
                + "which select it in every object, read a String!",
        ])
    }

    /// A record without `__typename` below the root is a miss, as it is
    /// for Apollo, whose generated models select `__typename` in every
    /// object. A partial read goes on with the record of no type, schema or
    /// not (an interface field): an inline fragment on a type is left out
    /// of it, and the read names the record.
    func testARecordWithoutATypeIsAMissAndAPartialReadNamesTheFragmentsItSkips() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_remove(record, '$.__typename') WHERE key IN ('Human:1000', 'Human:1002');")
        let schema = starWarsSchema
        let query = "{ hero(episode: NEWHOPE) { friends { name ... on Human { id } } } }"
        let miss = "cache miss at hero.friends.0.__typename: record 'Human:1000' has no field '__typename', "
            + "which Apollo's generated models select in every object"
        let warning = "gqlcache: warning: hero.friends.0 (Human:1000) and 1 record more have no __typename, so fragments on 'Human' were left out of them: "
            + "their types are unknown; Apollo's generated models select __typename, so Apollo's own read misses there\n"
        for extra in [["--schema", schema], []] {
            let whole = gqlcache(arguments: ["read", cache, "--text", query] + extra)
            XCTAssertEqual(whole.status, .notFound)
            XCTAssertEqual([whole.stdout, whole.stderr], ["", "gqlcache: \(miss)\n"])
            let result = gqlcache(arguments: ["read", cache, "--text", query, "--format", "json", "--partial"] + extra)
            XCTAssertEqual(result.status, .notFound)
            let output = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(output["data"] as? NSDictionary,
                           ["hero": ["friends": [["name": "Luke Skywalker"], ["name": "Han Solo"], NSNull()]]] as NSDictionary)
            XCTAssertEqual((output["errors"] as? [[String: Any]])?.compactMap { $0["message"] as? String }.first, miss)
            XCTAssertEqual(result.stderr, warning, "not once more as a fragment that applied to no object")
        }
        let typed = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name ... on Droid { id } } }")
        XCTAssertEqual(typed.status, .success)
        XCTAssertEqual(typed.stderr, "", "an object with a type, the root's aside")
    }

    /// Apollo's code generator gives the models of a root type no
    /// `__typename`: a fragment on Query reads QUERY_ROOT, which has none,
    /// and a local cache mutation through such a fragment updates it.
    func testAFragmentOnARootTypeNeedsNoTypename() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let read = gqlcache("read", cache, "--text", "fragment F on Query { hero(episode: NEWHOPE) { name } }", "--fragment", "F",
                            "--key", "QUERY_ROOT", "--format", "jsonl")
        XCTAssertEqual(read.status, .success, read.stderr)
        XCTAssertEqual(read.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n")
        let update = gqlcache(
            "update", cache, "--text", "fragment F on Query @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id name } }",
            "--fragment", "F", "--key", "QUERY_ROOT", "--set", "hero.name=Artoo")
        XCTAssertEqual(update.status, .success, update.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("Artoo"))
        let other = gqlcache("read", cache, "--text", "fragment F on Human { name }", "--fragment", "F", "--key", "QUERY_ROOT")
        XCTAssertEqual(other.status, .notFound)
        XCTAssertEqual(other.stderr, "gqlcache: cache miss at __typename: record 'QUERY_ROOT' has no field '__typename', "
            + "which Apollo's generated models select in every object; QUERY_ROOT is a root record, not a Human: read the fragment at the key of one\n")
        // update at a root says the same.
        let updateAtRoot = gqlcache("update", cache, "--text", "fragment H on Human @apollo_client_ios_localCacheMutation { name }",
                                    "--fragment", "H", "--key", "QUERY_ROOT", "--set", "name=X")
        XCTAssertEqual(updateAtRoot.stderr, "gqlcache: cannot update fragment H at QUERY_ROOT: cache miss at __typename: record 'QUERY_ROOT' has no "
            + "field '__typename', which Apollo's generated models select in every object; QUERY_ROOT is a root record, not a Human: "
            + "update the fragment at the key of one\n")
        // A fragment on the root type that selects __typename itself misses
        // at a root record without it, and is not told it is on another type.
        let typename = gqlcache("read", cache, "--text", "fragment F on Query { __typename }", "--fragment", "F", "--key", "QUERY_ROOT")
        XCTAssertEqual(typename.status, .notFound)
        XCTAssertEqual(typename.stderr, "gqlcache: cache miss at __typename: record 'QUERY_ROOT' has no field '__typename'\n")
        // Only a schema says that a root type is named RootQuery.
        let renamed = gqlcache("read", cache, "--text", "fragment R on RootQuery { __typename }", "--fragment", "R", "--key", "QUERY_ROOT")
        XCTAssertEqual(renamed.status, .notFound)
        XCTAssertTrue(renamed.stderr.hasSuffix("QUERY_ROOT is a root record, not a RootQuery: read the fragment at the key of one; "
            + "or, if RootQuery is the schema's root type, give --schema, which says so\n"), renamed.stderr)
        let written = gqlcache("write", cache, "--text", "fragment R on RootQuery { a }", "--fragment", "R", "--key", "QUERY_ROOT",
                               "--response", "-", input: #"{"data":{"a":1}}"#)
        XCTAssertEqual(written.status, .usage)
        XCTAssertTrue(written.stderr.hasSuffix("give --schema, which says so; nothing written\n"), written.stderr)
    }

    /// With a schema, a named fragment on a type the field's type need
    /// not be (`...HF` on Human in a Character field) is checked as the
    /// inline fragment Apollo's generated model wraps it in: a partial read
    /// leaves it out of a record without `__typename` (a miss, whatever the
    /// fragment) and names it in the warning, never reading the Droid as
    /// if it were a Human. One on the field's own type still applies;
    /// without a schema nothing can be checked, and the spread applies.
    func testWithASchemaASpreadOnAnotherTypeIsLeftOutOfARecordWithoutAType() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_remove(record, '$.__typename') WHERE key = 'Droid:2001';")
        let schema = starWarsSchema
        let human = "{ hero(episode: NEWHOPE) { ...HF } } fragment HF on Human { name }"
        func data(_ result: CommandResult) throws -> NSDictionary? {
            let output = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            XCTAssertEqual((output["errors"] as? [[String: Any]])?.count, 1, "the miss at hero.__typename")
            return output["data"] as? NSDictionary
        }
        let left = gqlcache("read", cache, "--text", human, "--schema", schema, "--format", "json", "--partial")
        XCTAssertEqual(left.status, .notFound)
        XCTAssertEqual(try data(left), ["hero": [:]] as NSDictionary)
        XCTAssertEqual(left.stderr, "gqlcache: warning: hero (Droid:2001) has no __typename, so fragments on 'Human' were left out of it: "
            + "its type is unknown; Apollo's generated models select __typename, so Apollo's own read misses there\n")
        let character = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { ...CF } } fragment CF on Character { name }",
                                 "--schema", schema, "--format", "json", "--partial")
        XCTAssertEqual(try data(character), ["hero": ["name": "R2-D2"]] as NSDictionary)
        XCTAssertEqual(character.stderr, "")
        let unchecked = gqlcache("read", cache, "--text", human, "--format", "json", "--partial")
        XCTAssertEqual(try data(unchecked), ["hero": ["name": "R2-D2"]] as NSDictionary)
    }

    func testWithASchemaTheStarWarsDemoReadsWithItsDocumentedVariables() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        let query = #"query Demo($filter: SearchFilter) { search(filter: $filter) { __typename ... on Character { name } } }"#
        let variables = #"{"filter":{"text":"sky","limit":2,"tags":["a","b"],"near":{"lat":1.5,"lng":-2}}}"#
        let without = gqlcache("read", cache, "--text", query, "--variables", variables)
        XCTAssertEqual(without.status, .notFound, "without the schema -2 is not rendered -2.0")
        let result = gqlcache("read", cache, "--text", query, "--variables", variables, "--schema", schema, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"search":[[{"__typename":"Human","name":"Luke Skywalker"},null],[{"__typename":"Droid","name":"R2-D2"}]]}"# + "\n")
        let invalid = gqlcache("read", cache, "--text", "{ hero { nme } }", "--schema", schema)
        XCTAssertEqual(invalid.status, .usage)
        XCTAssertEqual(invalid.stderr, "gqlcache: --text:1:10: Cannot query field \"nme\" on type \"Character\". Did you mean \"name\"?\n")
    }

    /// Apollo's codegen validates with graphql-js, which takes an Int
    /// literal only within 32 bits: so does validation with a schema.
    func testWithASchemaAnIntLiteralBeyond32BitsIsRefusedAsCodegenRefusesIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for literal in ["3000000000", "-2147483649", "12345678901234567890"] {
            let result = gqlcache("read", cache, "--text", "{ reviews(episode: JEDI, first: \(literal)) { stars } }", "--schema", starWarsSchema)
            XCTAssertEqual(result.status, .usage, literal)
            XCTAssertEqual(result.stderr, "gqlcache: --text:1:33: Int cannot represent non 32-bit signed integer value: \(literal)\n")
        }
        let largest = gqlcache("read", cache, "--text", "{ reviews(episode: JEDI, first: 2147483647) { stars } }", "--schema", starWarsSchema)
        XCTAssertEqual(largest.status, .notFound, "valid, and not in the cache: \(largest.stderr)")
        let fraction = gqlcache("read", cache, "--text", "{ reviews(episode: JEDI, first: 1.5) { stars } }", "--schema", starWarsSchema)
        XCTAssertEqual(fraction.stderr, "gqlcache: --text:1:33: Int cannot represent non-integer value: 1.5\n")
    }

    func testADocumentOfFragmentsOnlySaysHowToReadOne() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("read", cache, "--text", "fragment F on Character { name } fragment D on Droid { primaryFunction }")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(
            result.stderr, "gqlcache: the documents hold no operation; a fragment takes --fragment NAME --key KEY (fragments: D, F)\n")
    }

    func testValidationProblemsAreListedInTheOrderOfTheText() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        let result = gqlcache("read", cache, "--text", "{ hero { a b } }", "--text", "{ human(id: 1) { c } }", "--schema", schema)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(
            result.stderr.split(separator: "\n").map { $0.split(separator: ":").prefix(4).joined(separator: ":") },
            ["gqlcache: --text 1:1:10", "gqlcache: --text 1:1:12", "gqlcache: --text 2:1:18"])
    }

    /// GraphQL's rules check no operation against a root type the schema
    /// lacks: without this, a subscription only missed its root record.
    func testAnOperationOfAKindTheSchemaHasNoRootTypeForIsAUsageError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        let result = gqlcache("read", cache, "--text", "subscription { reviewAdded { stars } }", "--schema", schema)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(
            result.stderr, "gqlcache: --text:1:1: the schema has no subscription type, so a subscription cannot be checked or read with it\n")
    }
}
