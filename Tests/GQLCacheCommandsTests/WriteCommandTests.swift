import CacheStore
import Foundation
import XCTest

final class WriteCommandTests: CommandTestCase {
    var demo: String { RoundTripTests.corpus.appendingPathComponent("starwars-demo.graphql").path }
    var demoResponse: String { RoundTripTests.corpus.appendingPathComponent("starwars-demo-response.json").path }
    let demoVariables = #"{"episode":"NEWHOPE","filter":{"text":"sky","limit":2,"tags":["a","b"],"near":{"lat":1.5,"lng":-2}},"unit":"FOOT"}"#

    func testWritingTheDemoResponseGivesTheRecordsApolloWrote() throws {
        let cache = path("new.sqlite")
        let result = gqlcache("write", cache, "--create", "--document", demo, "--schema", starWarsSchema, "--variables", demoVariables,
                              "--response", demoResponse, "--key-field", "Human=id", "--key-field", "Droid=id")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines.last, "8 records added (39 fields)")
        var apollo = try records(fixturesFolder.appendingPathComponent("starwars.sqlite").path)
        // The fixture also holds the mutation's result, written by a second response.
        apollo = apollo.filter { !$0.key.hasPrefix("MUTATION_ROOT") }
        XCTAssertEqual(try records(cache), apollo)
        // Spelled as Apollo spells them too: a whole Float as an integer
        // (`[3.5,4]`, not `[3.5,4.0]`), which SQLite's JSON types tell apart.
        let types = "SELECT r.key, t.fullkey, t.type FROM records r, json_tree(r.record) t WHERE r.key NOT LIKE 'MUTATION_ROOT%' ORDER BY 1, 2"
        XCTAssertEqual(try sqliteShell(cache, types), try sqliteShell(fixturesFolder.appendingPathComponent("starwars.sqlite").path, types))
    }

    /// A cache from a device holds a nested Float as Apollo on Apple
    /// platforms writes it (`lng:-2`): a write of the same field with the
    /// Linux form would add a second field beside it, and says so, naming
    /// --apple-floats, which writes the field that is there.
    func testAWriteBesideTheSameFieldWrittenOtherwiseWarnsAndAppleFloatsWritesTheFieldThere() throws {
        let device = try copyOfFixture("starwars.sqlite", as: "device.sqlite")
        _ = try sqliteShell(device, "UPDATE records SET record = replace(record, 'lng:-2.0', 'lng:-2') WHERE key = 'QUERY_ROOT'")
        let query = #"query S($f: Float!) { search(filter: {text: "sky", limit: 2, tags: ["a", "b"], near: {lat: 1.5, lng: $f}}) { __typename } }"#
        try #"{"data":{"search":[[{"__typename":"Human"}]]}}"#.write(toFile: path("r.json"), atomically: true, encoding: .utf8)
        let linux = gqlcache("write", device, "--text", query, "--var", "f=-2", "--response", path("r.json"), "--dry-run")
        XCTAssertEqual(linux.status, .success, linux.stderr)
        XCTAssertTrue(linux.stdout.contains("+ search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"), linux.stdout)
        XCTAssertTrue(linux.stderr.hasPrefix("gqlcache: warning: record 'QUERY_ROOT' has no field "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])', which this write adds beside "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])' (only how a number is written differs: the record has -2 "
            + "where this write has -2.0; give --apple-floats if the file came from a device or simulator, where Apollo writes a Float inside "
            + "a list or an input object so; if the app gave an Int there, write it -2 in the document or the variables)\n"), linux.stderr)
        let apple = gqlcache("write", device, "--text", query, "--var", "f=-2", "--response", path("r.json"), "--apple-floats")
        XCTAssertEqual(apple.status, .success, apple.stderr)
        XCTAssertFalse(apple.stderr.contains("only how a number is written differs"), apple.stderr)
        let fields = try records(device)["QUERY_ROOT"].map { Array($0.keys).filter { $0.hasPrefix("search(") } }
        XCTAssertEqual(fields, ["search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])"], "written in the field there, no second one")
        // The flag on the Linux file: leaving it out is the one fix named (with it, -2.0 given is written -2 all the same).
        let linuxFile = try copyOfFixture("starwars.sqlite", as: "linux.sqlite")
        let flagged = gqlcache("write", linuxFile, "--text", query, "--var", "f=-2", "--response", path("r.json"), "--dry-run", "--apple-floats")
        XCTAssertTrue(flagged.stderr.hasPrefix("gqlcache: warning: record 'QUERY_ROOT' has no field "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])', which this write adds beside "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])' (only how a number is written differs: the record has -2.0 "
            + "where this write has -2; leave out --apple-floats if the file came from Apollo's Linux builds, which write a Float inside a list "
            + "or an input object so)\n"), flagged.stderr)
    }

    func testTheResponsesTypenameIsStoredAsApolloStoresItThoughTheDocumentDoesNotSelectIt() throws {
        // Apollo's code generator selects __typename in every selection set
        // but the operation's root, so the response has it and Apollo stores it.
        let cache = path("typename.sqlite")
        let document = "query Hero { hero { name ... on Droid { primaryFunction } } }"
        try #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2","primaryFunction":"Astromech"}}}"#
            .write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        let result = gqlcache("write", cache, "--create", "--text", document, "--response", path("hero.json"))
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let written = try records(cache)
        XCTAssertEqual(written["QUERY_ROOT.hero"]?["__typename"], .string("Droid"))
        XCTAssertNil(written["QUERY_ROOT"]?["__typename"], "the operation's root gets none")
        // Read back, the fragment on Droid applies.
        let read = gqlcache("read", cache, "--text", document, "--format", "json")
        XCTAssertEqual(read.status, .success, read.stderr)
        XCTAssertEqual(try read.json() as? NSDictionary, ["hero": ["name": "R2-D2", "primaryFunction": "Astromech"]])

        // With a schema, an object field's type gives the __typename the data leaves out.
        let withSchema = path("schema.sqlite")
        try #"{"data":{"human":{"name":"Luke"}}}"#.write(toFile: path("human.json"), atomically: true, encoding: .utf8)
        let typed = gqlcache("write", withSchema, "--create", "--schema", starWarsSchema, "--text", #"{ human(id: "1000") { name } }"#,
                             "--response", path("human.json"))
        XCTAssertEqual(typed.status, .success, typed.stderr)
        XCTAssertEqual(try records(withSchema)[#"QUERY_ROOT.human(id:1000)"#]?["__typename"], .string("Human"))
    }

    func testWithASchemaAnObjectWhoseTypeConditionsNeedItsTypenameIsRefusedWithoutOne() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        try #"{"data":{"hero":{"name":"R2-D2","primaryFunction":"Astromech"}}}"#.write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        let result = gqlcache("write", cache, "--schema", starWarsSchema, "--text", "{ hero { name ... on Droid { primaryFunction } } }",
                              "--response", path("hero.json"))
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: \(path("hero.json")): cannot write hero.__typename: the data has no '__typename', which says "
            + "whether the fragment on Droid applies (its type, Character, has several possible types); give it for the object, "
            + "e.g. \"__typename\": \"Droid\"; nothing written\n")
        XCTAssertEqual(try records(cache), before)
        // A named fragment needs it as much; an alias of __typename gives it.
        let spread = gqlcache("write", cache, "--schema", starWarsSchema, "--text",
                              "query H { hero { name ...D } } fragment D on Droid { primaryFunction }", "--response", path("hero.json"))
        XCTAssertEqual(spread.status, .usage)
        XCTAssertTrue(spread.stderr.contains("which says whether the fragment on Droid applies"), spread.stderr)
        try #"{"data":{"hero":{"kind":"Droid","name":"R2-D2","primaryFunction":"Astromech"}}}"#.write(toFile: path("aliased.json"), atomically: true, encoding: .utf8)
        let aliased = gqlcache("write", cache, "--schema", starWarsSchema, "--text", "{ hero { kind: __typename name ... on Droid { primaryFunction } } }",
                               "--response", path("aliased.json"), "--dry-run")
        XCTAssertEqual(aliased.status, .success, aliased.stderr)
        XCTAssertTrue(aliased.stdout.contains(#"primaryFunction: "Astromech""#), aliased.stdout)
    }

    /// The app's generated model of a fragment carries its __typename, and
    /// Apollo writes it: with --schema, a fragment on an object type
    /// written at a new key, or at a record without a type, gets the
    /// fragment's type. Where nothing says one type (a fragment on an
    /// interface, no schema) the data must give it, as a model would.
    func testAFragmentAtANewKeyGetsItsObjectTypeOrNeedsTheDataToSayIt() throws {
        let cache = try makeCache("f.sqlite", [Record(key: "Untyped:1", fields: ["name": .string("x")])])
        try #"{"name":"Artoo","height":1}"#.write(toFile: path("f.json"), atomically: true, encoding: .utf8)
        let fragments = "fragment H on Human { name height } fragment C on Character { name }"
        for key in ["New:1", "Untyped:1"] {
            let result = gqlcache("write", cache, "--schema", starWarsSchema, "--text", fragments, "--fragment", "H", "--key", key, "--response", path("f.json"))
            XCTAssertEqual(result.status, .success, result.stderr)
            XCTAssertEqual(try records(cache)[key]?["__typename"], .string("Human"), key)
        }
        try #"{"name":"Artoo"}"#.write(toFile: path("c.json"), atomically: true, encoding: .utf8)
        let before = try bytes(cache)
        let interface = gqlcache("write", cache, "--schema", starWarsSchema, "--text", fragments, "--fragment", "C", "--key", "New:2", "--response", path("c.json"))
        XCTAssertEqual(interface.status, .usage)
        XCTAssertTrue(interface.stderr.contains("cannot write __typename: the data has no '__typename'"), interface.stderr)
        // Without a schema, H could be an interface.
        let noSchema = gqlcache("write", cache, "--text", fragments, "--fragment", "H", "--key", "New:3", "--response", path("f.json"))
        XCTAssertEqual(noSchema.status, .usage)
        XCTAssertEqual(try bytes(cache), before)
        try #"{"__typename":"Droid","name":"Artoo"}"#.write(toFile: path("c.json"), atomically: true, encoding: .utf8)
        let given = gqlcache("write", cache, "--schema", starWarsSchema, "--text", fragments, "--fragment", "C", "--key", "New:2", "--response", path("c.json"))
        XCTAssertEqual(given.status, .success, given.stderr)
        XCTAssertEqual(try records(cache)["New:2"], ["__typename": .string("Droid"), "name": .string("Artoo")])
    }

    /// The empty string is no key Apollo gives a record, and export and
    /// import refuse one: write and update refuse it as --key too.
    func testAnEmptyKeyIsRefusedForAFragmentAndNothingIsWritten() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try #"{"__typename":"Human","name":"Artoo"}"#.write(toFile: path("e.json"), atomically: true, encoding: .utf8)
        let before = try bytes(cache)
        let write = gqlcache("write", cache, "--text", "fragment H on Human { name }", "--fragment", "H", "--key", "", "--response", path("e.json"))
        XCTAssertEqual(write.status, .usage)
        XCTAssertTrue(write.stderr.contains("--key is empty, which no Apollo cache key is"), write.stderr)
        let update = gqlcache(
            "update", cache, "--text", "fragment H on Human @apollo_client_ios_localCacheMutation { name }", "--fragment", "H", "--key", "", "--set", "name=X")
        XCTAssertEqual(update.status, .usage)
        XCTAssertTrue(update.stderr.contains("--key is empty, which no Apollo cache key is"), update.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// A fragment written at a key of another type keeps the record's type:
    /// only a __typename in the data would change it.
    func testAFragmentWrittenAtARecordOfAnotherTypeLeavesItsTypename() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try #"{"primaryFunction":"Pilot"}"#.write(toFile: path("f.json"), atomically: true, encoding: .utf8)
        let result = gqlcache("write", cache, "--schema", starWarsSchema, "--text", "fragment D on Droid { primaryFunction }",
                              "--fragment", "D", "--key", "Human:1000", "--response", path("f.json"))
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(try records(cache)["Human:1000"]?["__typename"], .string("Human"))
        XCTAssertEqual(try records(cache)["Human:1000"]?["primaryFunction"], .string("Pilot"))
        XCTAssertEqual(
            result.stderr, "gqlcache: warning: fragment 'D' is on Droid, but Human:1000 has __typename Human; Apollo writes it all the same, so check the key\n")
    }

    /// A root record is no object of a fragment's type: a User's fields
    /// written into QUERY_ROOT (at the REPL's first place, --key forgotten)
    /// are refused, as update and read refuse such a fragment there. A
    /// fragment on the root type itself is written.
    func testAFragmentOnAnObjectTypeIsNotWrittenIntoARootRecord() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        try #"{"__typename":"Human","name":"Bogus"}"#.write(toFile: path("h.json"), atomically: true, encoding: .utf8)
        let cli = gqlcache("write", cache, "--text", "fragment W on Human { name }", "--fragment", "W", "--key", "QUERY_ROOT", "--response", path("h.json"))
        XCTAssertEqual(cli.status, .usage)
        XCTAssertEqual(cli.stderr, "gqlcache: QUERY_ROOT is a root record, not a Human: write the fragment at the key of one; nothing written\n")
        let repl = gqlcache(arguments: ["repl", cache], input: "fragment W on Human { name }\nwrite --fragment W --response \(path("h.json"))")
        XCTAssertEqual(repl.status, .usage)
        XCTAssertTrue(repl.stderr.hasSuffix("QUERY_ROOT is a root record, not a Human: write the fragment at the key of one "
            + "(cd to it, or give --key KEY); nothing written\n"), repl.stderr)
        XCTAssertEqual(try bytes(cache), before)
        try #"{"__typename":"Query","hero":{"__typename":"Droid","id":"2001","name":"Artoo"}}"#.write(toFile: path("q.json"), atomically: true, encoding: .utf8)
        let root = gqlcache("write", cache, "--text", "fragment Q on Query { hero(episode: NEWHOPE) { __typename id name } }", "--fragment", "Q",
                            "--key", "QUERY_ROOT", "--response", path("q.json"), "--key-field", "*=id")
        XCTAssertEqual(root.status, .success, root.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("Artoo"))
    }

    /// Data whose key fields give another key than --key is written at
    /// --key, as Apollo writes a fragment, with a warning naming both.
    func testAFragmentWhoseDataKeysAnotherRecordIsWarnedOf() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try #"{"__typename":"Human","id":"1001","name":"X"}"#.write(toFile: path("f.json"), atomically: true, encoding: .utf8)
        let other = gqlcache("write", cache, "--text", "fragment F on Human { id name }", "--fragment", "F", "--key", "Human:1000",
                             "--response", path("f.json"), "--key-field", "Human=id", "--dry-run")
        XCTAssertEqual(other.status, .success, other.stderr)
        XCTAssertEqual(
            other.stderr, "gqlcache: warning: the data's key fields give Human:1001, not Human:1000; Apollo writes a fragment at the key it is given, "
                + "so the record would stay Human:1000 and a reference to Human:1001 does not reach it\n")
        try #"{"__typename":"Human","id":"1000","name":"X"}"#.write(toFile: path("f.json"), atomically: true, encoding: .utf8)
        let same = gqlcache("write", cache, "--text", "fragment F on Human { id name }", "--fragment", "F", "--key", "Human:1000",
                            "--response", path("f.json"), "--key-field", "Human=id", "--dry-run")
        XCTAssertEqual(same.status, .success, same.stderr)
        XCTAssertEqual(same.stderr, "")
    }

    /// Data whose __typename is not the type of the record at --key changes
    /// that record's type: without a schema to tell the fragment's types,
    /// the change itself is warned of.
    func testAFragmentWhoseDataChangesTheTypeAtItsKeyIsWarnedOf() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try #"{"__typename":"Human","name":"X"}"#.write(toFile: path("f.json"), atomically: true, encoding: .utf8)
        let changing = gqlcache("write", cache, "--text", "fragment F on Character { __typename name }",
                                "--fragment", "F", "--key", "Droid:2001", "--response", path("f.json"), "--dry-run")
        XCTAssertEqual(changing.status, .success, changing.stderr)
        XCTAssertEqual(
            changing.stderr,
            "gqlcache: warning: the data would change the __typename of Droid:2001 from \"Droid\" to \"Human\"; Apollo writes it all the same, so check the key\n")
        try #"{"__typename":"Droid","name":"X"}"#.write(toFile: path("f.json"), atomically: true, encoding: .utf8)
        let keeping = gqlcache("write", cache, "--schema", starWarsSchema, "--text", "fragment F on Character { __typename name }",
                               "--fragment", "F", "--key", "Droid:2001", "--response", path("f.json"))
        XCTAssertEqual(keeping.status, .success, keeping.stderr)
        XCTAssertEqual(keeping.stderr, "")
    }

    func testResponseAndVariablesCannotBothReadStandardInput() {
        let result = gqlcache("write", path("c.sqlite"), "--text", "{ hero { name } }", "--response", "-", "--variables-file", "-")
        XCTAssertEqual(result.status, .usage)
        XCTAssertTrue(result.stderr.contains("--response and --variables-file cannot both read standard input (-)"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
    }

    func testAResponseWithErrorsAndNoDataIsRefusedWithItsMessages() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        for (name, text) in [("errors.json", #"{"errors":[{"message":"x"},{"message":"y is wrong"}]}"#),
                             ("null-data.json", #"{"data":null,"errors":[{"message":"x"},{"message":"y is wrong"}]}"#)] {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
            let result = gqlcache("write", cache, "--text", "{ hero(episode: JEDI) { __typename id name } }", "--response", path(name))
            XCTAssertEqual(result.status, .usage, name)
            XCTAssertEqual(result.stderr, "gqlcache: \(path(name)): the response holds errors and no data (x; y is wrong); nothing written\n")
        }
        XCTAssertEqual(try records(cache), before)
    }

    /// A deferred response as Apollo 2.x writes it, payload by payload:
    /// the first (`hasNext` beside `data`) without the deferred fragment,
    /// also when its data holds the fragment's fields (said in a warning);
    /// a later one's part at the key of its path from the root. A part
    /// without a label or of a fragment the operation lacks is refused.
    func testADeferredResponseIsWrittenPayloadByPayloadAsApolloWritesIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = #"{ hero(episode: EMPIRE) { __typename id name ... on Droid @defer(label: "more") { primaryFunction } } }"#
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"Artoo","primaryFunction":"Early"}},"hasNext":true}"#
            .write(toFile: path("first.json"), atomically: true, encoding: .utf8)
        let first = gqlcache("write", cache, "--text", query, "--response", path("first.json"))
        XCTAssertEqual(first.status, .success, first.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.hero(episode:EMPIRE)"]?["name"], .string("Artoo"))
        XCTAssertNil(try records(cache)["QUERY_ROOT.hero(episode:EMPIRE)"]?["primaryFunction"])
        XCTAssertEqual(first.stderr, "gqlcache: warning: QUERY_ROOT.hero(episode:EMPIRE) was written as a new record, though the cache holds the same "
            + "Droid as Droid:2001: if the app keys Droid by id, give --key-field Droid=id (or '*=id') or a schema with @typePolicy to write it there\n"
            + "gqlcache: warning: the data holds 'primaryFunction' of deferred fragment 'more' at hero, which was "
            + "not written: Apollo writes a deferred fragment from the incremental payload that delivers it, not from the response that defers it\n")
        // Read back, the fragment is pending: the rest is read, and the miss is said.
        let pending = gqlcache("read", cache, "--text", query)
        XCTAssertEqual(pending.status, .success, pending.stderr)
        XCTAssertEqual(pending.stdout, "{\n  \"hero\": {\n    \"__typename\": \"Droid\",\n    \"id\": \"2001\",\n    \"name\": \"Artoo\"\n  }\n}\n")
        XCTAssertEqual(pending.stderr, "gqlcache: warning: deferred fragment 'more' at hero is left out, pending, as Apollo leaves it: "
            + "cache miss at hero.primaryFunction: record 'QUERY_ROOT.hero(episode:EMPIRE)' has no field 'primaryFunction'\n")

        try #"{"incremental":[{"data":{"primaryFunction":"Astromech"},"path":["hero"],"label":"more"}],"hasNext":false}"#
            .write(toFile: path("later.json"), atomically: true, encoding: .utf8)
        let later = gqlcache("write", cache, "--text", query, "--response", path("later.json"))
        XCTAssertEqual(later.status, .success, later.stderr)
        XCTAssertEqual(later.stdout, "QUERY_ROOT.hero (new record)\n  + primaryFunction: \"Astromech\"\n1 record added (1 field)\n")

        // The same flags for every payload: a later one that keys nothing is no typo.
        let keyed = gqlcache("write", cache, "--text", query, "--response", path("later.json"), "--key-field", "Droid=id", "--dry-run")
        XCTAssertEqual(keyed.status, .success, keyed.stderr)
        XCTAssertEqual(keyed.stderr, "")

        let before = try bytes(cache)
        for (name, text, message) in [
            ("unlabelled.json", #"{"incremental":[{"data":{"primaryFunction":"x"},"path":["hero"]}]}"#,
             "incremental part 0 has no 'label'; Apollo needs it to find the deferred fragment (label each @defer); nothing written"),
            ("unknown.json", #"{"incremental":[{"data":{"primaryFunction":"x"},"path":["hero"],"label":"less"}]}"#,
             "incremental part 0: cannot write hero: the operation has no fragment deferred with label 'less' at hero; it defers 'more' at hero; nothing written"),
        ] {
            try text.write(toFile: path(name), atomically: true, encoding: .utf8)
            let refused = gqlcache("write", cache, "--text", query, "--response", path(name))
            XCTAssertEqual(refused.status, .usage, name)
            XCTAssertEqual(refused.stderr, "gqlcache: \(path(name)): \(message)\n")
        }
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Partial data beside errors is written as Apollo writes it, null where
    /// a field failed, and the errors are said.
    func testAResponseWithErrorsAndPartialDataIsWrittenWithAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try #"{"data":{"hero":null},"errors":[{"message":"hero failed","path":["hero"]}]}"#.write(toFile: path("partial.json"), atomically: true, encoding: .utf8)
        let result = gqlcache("write", cache, "--text", "{ hero(episode: NEWHOPE) { __typename id name } }", "--response", path("partial.json"))
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: \(path("partial.json")): the response holds 1 error (hero failed); "
            + "its data is written as Apollo writes it, null where a field failed\n")
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["hero(episode:NEWHOPE)"], .null)
    }

    /// A field the response's errors name and the data leaves out (not
    /// null, as a server gives it) is refused, saying that the error there
    /// is why; one no error names gets no such word.
    func testARefusedFieldThatTheResponsesErrorNamesSaysTheErrorFailedIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        let document = #"{ human(id: "1000") { __typename id name homePlanet } }"#
        try #"{"data":{"human":{"__typename":"Human","id":"1000","name":"Luke"}},"errors":[{"message":"planet down","path":["human","homePlanet"]}]}"#
            .write(toFile: path("missing.json"), atomically: true, encoding: .utf8)
        let result = gqlcache("write", cache, "--text", document, "--response", path("missing.json"))
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr.split(separator: "\n").last.map(String.init),
            "gqlcache: \(path("missing.json")): cannot write human.homePlanet: the data has no 'homePlanet', which the selection asks for; "
            + "the response's error at human.homePlanet (planet down) failed it, and a server gives a failed field as null "
            + "(or nulls the nearest nullable field above it); nothing written")
        XCTAssertEqual(try records(cache), before)
        try #"{"data":{"human":{"__typename":"Human","id":"1000","name":"Luke"}},"errors":[{"message":"other","path":["hero"]}]}"#
            .write(toFile: path("elsewhere.json"), atomically: true, encoding: .utf8)
        let elsewhere = gqlcache("write", cache, "--text", document, "--response", path("elsewhere.json"))
        XCTAssertEqual(elsewhere.status, .usage)
        XCTAssertTrue(elsewhere.stderr.hasSuffix("which the selection asks for; nothing written\n"), elsewhere.stderr)
        XCTAssertEqual(try records(cache), before)
    }

    /// A response read from standard input is text or nothing: bytes that
    /// are not UTF-8 are refused, naming the line, not written as U+FFFD
    /// (as a response file's are), and half a surrogate pair too.
    func testAResponseThatIsNotUTF8TextIsRefusedAndNothingIsWritten() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        let response = path("latin1.json")
        try (Data("{\"data\":\n{\"hero\":{\"__typename\":\"Droid\",\"id\":\"2001\",\"name\":\"R".utf8) + Data([0xFF]) + Data("\"}}}\n".utf8))
            .write(to: URL(fileURLWithPath: response))
        let document = "{ hero(episode: NEWHOPE) { __typename id name } }"
        let piped = try runProgram(builtBinary, ["write", cache, "--text", document, "--response", "-"], standardInput: response)
        XCTAssertEqual(piped.status, 2)
        XCTAssertEqual(piped.stderr, "gqlcache: standard input:2: the response is not UTF-8 text at byte 52 of the line\n")
        let named = gqlcache("write", cache, "--text", document, "--response", response)
        XCTAssertEqual(named.status, .usage)
        XCTAssertEqual(named.stderr, "gqlcache: \(response):2: the response is not UTF-8 text at byte 52 of the line\n")
        let surrogate = gqlcache(
            arguments: ["write", cache, "--text", document, "--response", "-"],
            input: #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R\ud800"}}}"#)
        XCTAssertEqual(surrogate.status, .usage)
        XCTAssertEqual(
            surrogate.stderr,
            #"gqlcache: standard input:1:60: the response is not JSON: lone surrogate \ud800 (half of a pair)"# + "\n")
        let twice = gqlcache(
            arguments: ["write", cache, "--text", document, "--response", "-", "--variables", #"{"a": 1, "a": 2}"#],
            input: #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2","name":"R3"}}}"#)
        XCTAssertEqual(twice.status, .usage)
        XCTAssertEqual(
            twice.stderr, #"gqlcache: --variables:1:10: in the variables text, the member "a" is given twice "#
                + "(or in two spellings of one character), and which value is meant cannot be told\n")
        let twiceInResponse = gqlcache(
            arguments: ["write", cache, "--text", document, "--response", "-"],
            input: #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2","name":"R3"}}}"#)
        XCTAssertEqual(twiceInResponse.status, .usage)
        XCTAssertEqual(
            twiceInResponse.stderr, #"gqlcache: standard input:1:63: in the response, the member "name" is given twice "#
                + "(or in two spellings of one character), and which value is meant cannot be told\n")
        XCTAssertEqual(try records(cache), before)
    }

    /// `touch cache.sqlite` leaves what SQLite and Apollo take for an empty
    /// database: --create makes a cache of it; without --create, the file
    /// is refused with the flag that would.
    func testCreateMakesACacheOfAnEmptyFileAndAFailedImportLeavesItEmpty() throws {
        let empty = path("touched.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        let response = path("r.json")
        try #"{"data":{"hero":{"__typename":"Droid","name":"R2"}}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let refused = gqlcache("write", empty, "--text", "{ hero { __typename name } }", "--response", response)
        XCTAssertEqual(refused.status, .notACache)
        XCTAssertEqual(refused.stderr, "gqlcache: \(empty): not an Apollo iOS cache: the file is empty (0 bytes); --create makes a cache of it\n")
        let written = gqlcache("write", empty, "--create", "--text", "{ hero { __typename name } }", "--response", response)
        XCTAssertEqual(written.status, .success, written.stderr)
        XCTAssertEqual(try keys(in: empty), ["QUERY_ROOT", "QUERY_ROOT.hero"])

        let other = path("touched2.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: other, contents: Data()))
        let failed = gqlcache(arguments: ["import", other, "-", "--create"], input: #"{"key":"A","record":{"a":1}}"# + "\n" + "not json")
        XCTAssertEqual(failed.status, .usage)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: other)[.size] as? Int, 0, "left as empty as it was, not removed")
        let imported = gqlcache(arguments: ["import", other, "-", "--create"], input: #"{"key":"A","record":{"a":1}}"#)
        XCTAssertEqual(imported.status, .success, imported.stderr)
        XCTAssertEqual(try keys(in: other), ["A"])
        let missing = gqlcache("write", path("missing.sqlite"), "--text", "{ hero { __typename name } }", "--response", response)
        XCTAssertEqual(missing.status, .io)
        XCTAssertEqual(missing.stderr, "gqlcache: \(path("missing.sqlite")): no such file; --create makes a new cache file\n")
    }

    /// As import does: --create with --dry-run shows every record as new
    /// and makes no file.
    func testADryRunIntoACacheToBeCreatedMakesNoFile() throws {
        let cache = path("new.sqlite")
        let result = gqlcache("write", cache, "--create", "--dry-run", "--document", demo, "--schema", starWarsSchema, "--variables", demoVariables,
                              "--response", demoResponse, "--key-field", "Human=id", "--key-field", "Droid=id")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines.last, "8 records added (39 fields); dry run, nothing written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache))
    }

    /// Without the app's key fields, an object the cache holds as
    /// `Droid:2001` is written under a path key and the reference moves:
    /// said in a warning, which the key field makes go away.
    func testAReferenceMovedToAPathKeyIsWarnedOf() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let response = path("r.json")
        try Data(#"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2"}}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let query = "{ hero(episode: NEWHOPE) { __typename id name } }"
        let planned = gqlcache("write", cache, "--text", query, "--response", response, "--dry-run")
        XCTAssertEqual(planned.status, .success, planned.stderr)
        XCTAssertEqual(planned.stderr, "gqlcache: warning: QUERY_ROOT hero(episode:NEWHOPE) would point at QUERY_ROOT.hero(episode:NEWHOPE), not Droid:2001: objects without a key field are keyed by their path; if the app keys them (by id, say), give --key-field (e.g. '*=id') or a schema with @typePolicy\n")
        let keyed = gqlcache("write", cache, "--text", query, "--response", response, "--key-field", "*=id")
        XCTAssertEqual(keyed.status, .success, keyed.stderr)
        XCTAssertEqual(keyed.stderr, "")
        // A type no object has keys nothing: said, as a misspelling would be.
        let misspelled = gqlcache("write", cache, "--text", query, "--response", response, "--key-field", "Driod=id", "--dry-run")
        XCTAssertEqual(misspelled.stderr.split(separator: "\n").last,
                       "gqlcache: warning: --key-field Driod=id: no object of type Driod was written, so it keyed nothing (types written: Droid); did you mean Droid?")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R2"))
    }

    /// Without key fields, an object the cache holds as `Post:1` (the app
    /// keys Post by id) goes to a new path-keyed record: a copy, said in a
    /// warning, which the key field makes go away.
    func testANewPathKeyedCopyOfARecordTheCacheHoldsIsWarnedOf() throws {
        let cache = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: cache)
        let response = path("feed.json")
        try Data(#"{"data":{"feed":[{"__typename":"Post","id":"1","title":"T1"}]}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let query = "query F { feed(first: 1) { __typename id title } }"
        let copy = gqlcache("write", cache, "--text", query, "--response", response, "--dry-run", "-q")
        XCTAssertEqual(copy.status, .success, copy.stderr)
        XCTAssertEqual(copy.stderr, "gqlcache: warning: QUERY_ROOT.feed(first:1).0 would be written as a new record, though the cache holds the same "
            + "Post as Post:1: if the app keys Post by id, give --key-field Post=id (or '*=id') or a schema with @typePolicy to write it there\n")
        XCTAssertEqual(gqlcache("write", cache, "--text", query, "--response", response, "--dry-run", "-q", "--key-field", "*=id").stderr, "")
        // Keyed by the fields the user gave, the record is no path-keyed copy.
        try Data(#"{"data":{"feed":[{"__typename":"Post","id":"1","title":"A"}]}}"#.utf8).write(to: URL(fileURLWithPath: response))
        XCTAssertEqual(gqlcache("write", cache, "--text", query, "--response", response, "--dry-run", "-q", "--key-field", "Post=title").stderr, "")
        // A warning of another object does not hide it.
        try Data(#"{"data":{"viewer":{"__typename":"User","name":"V"},"feed":[{"__typename":"Post","id":"1","title":"T1"}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: response))
        let both = gqlcache("write", cache, "--text", "query F { viewer { __typename name } feed(first: 1) { __typename id title } }",
                            "--response", response, "--dry-run", "-q", "--key-field", "User=id")
        XCTAssertTrue(both.stderr.contains("QUERY_ROOT.feed(first:1).0 would be written as a new record, though the cache holds the same Post as Post:1"), both.stderr)
        // An id the cache holds no record for is no copy, but the cache
        // keys its other Posts by id, which the write did not.
        try Data(#"{"data":{"feed":[{"__typename":"Post","id":"999","title":"T"}]}}"#.utf8).write(to: URL(fileURLWithPath: response))
        XCTAssertEqual(gqlcache("write", cache, "--text", query, "--response", response, "--dry-run", "-q").stderr,
                       "gqlcache: warning: QUERY_ROOT.feed(first:1).0 would be written as a new record, though the cache holds other Post records "
                       + "under keys of their own, as Post:1: if the app keys Post by id, give --key-field Post=id (or '*=id') "
                       + "or a schema with @typePolicy to write it as Post:999\n")
        // A type the cache holds under no key of its own is keyed by path, as everywhere.
        try Data(#"{"data":{"feed":[{"__typename":"Draft","id":"999","title":"T"}]}}"#.utf8).write(to: URL(fileURLWithPath: response))
        XCTAssertEqual(gqlcache("write", cache, "--text", query, "--response", response, "--dry-run", "-q").stderr, "")
    }

    /// A reference moved to another identity key is no move to a path key,
    /// also when the new key begins as the holder's path keys do
    /// (`Category:x` to `Category:a.c`, a dotted id, in `Category:a`).
    func testAReferenceMovedToADottedIdentityKeyIsNotWarnedOf() throws {
        let cache = path("categories.sqlite")
        let response = path("r.json")
        try Data(#"{"category":{"__typename":"Category","id":"a","sub":[{"__typename":"Category","id":"a.c"}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: response))
        let query = #"{ category(id: "a") { __typename id sub { __typename id } } }"#
        try Data(#"{"category":{"__typename":"Category","id":"a","sub":[{"__typename":"Category","id":"x"}]}}"#.utf8).write(to: URL(fileURLWithPath: path("first.json")))
        XCTAssertEqual(gqlcache("write", cache, "--create", "--text", query, "--response", path("first.json"), "--key-field", "*=id", "-q").status, .success)
        let moved = gqlcache("write", cache, "--text", query, "--response", response, "--key-field", "*=id")
        XCTAssertEqual(moved.status, .success, moved.stderr)
        XCTAssertEqual(moved.stderr, "")
        XCTAssertEqual(try records(cache)["Category:a"]?["sub"], .list([.reference(CacheKey("Category:a.c"))]))
    }

    /// Spec §3: key fields are not added to a selection. A response that
    /// holds an `id` the selection does not ask for (a hand-written one may)
    /// keys nothing: the object goes to its path key, with a warning that
    /// says which key selecting `id` would give.
    func testAKeyFieldTheSelectionLacksKeysNothingEvenWhenTheDataHoldsIt() throws {
        let cache = path("unselected.sqlite")
        let response = path("human.json")
        try Data(#"{"human":{"__typename":"Human","id":"1000","name":"Luke"}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let unselected = gqlcache("write", cache, "--create", "--text", #"{ human(id: "1000") { name } }"#, "--response", response,
                                  "--key-field", "Human=id")
        XCTAssertEqual(unselected.status, .success, unselected.stderr)
        XCTAssertEqual(unselected.stderr, "gqlcache: warning: human: the Human was written at its path key, QUERY_ROOT.human(id:1000): the selection has no 'id' (its key field; Apollo adds none to a selection), so the data's value keys nothing; select 'id' to write it into Human:1000\n")
        XCTAssertEqual(Set(try keys(in: cache)), ["QUERY_ROOT", "QUERY_ROOT.human(id:1000)"])
        XCTAssertEqual(try records(cache)["QUERY_ROOT.human(id:1000)"], ["__typename": .string("Human"), "name": .string("Luke")])

        // The same with the schema's @typePolicy.
        let blog = path("blog.sqlite")
        let user = path("user.json")
        try Data(#"{"user":{"__typename":"User","id":"5","name":"Ada"}}"#.utf8).write(to: URL(fileURLWithPath: user))
        let policy = gqlcache("write", blog, "--create", "--text", "{ user(id: 5) { name } }", "--response", user, "--schema", repositoryRoot.appendingPathComponent("Examples/blog.graphqls").path)
        XCTAssertEqual(policy.status, .success, policy.stderr)
        XCTAssertTrue(policy.stderr.contains("select 'id' to write it into User:5"), policy.stderr)
        XCTAssertEqual(Set(try keys(in: blog)), ["QUERY_ROOT", "QUERY_ROOT.user(id:5)"])

        // Selected, it keys the object, without a word.
        let selected = gqlcache("write", cache, "--text", #"{ human(id: "1000") { id name } }"#, "--response", response, "--key-field", "Human=id")
        XCTAssertEqual(selected.stderr, "")
        XCTAssertEqual(try records(cache)["Human:1000"]?["name"], .string("Luke"))
    }

    /// Of two key fields, the warning names the one at fault: the one the
    /// selection lacks, or the one whose value cannot key, not both.
    func testAKeyFieldWarningNamesOnlyTheKeyFieldsAtFault() throws {
        let response = path("book.json")
        try Data(#"{"book":{"__typename":"Book","isbn":"1","lang":"en"}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let unselected = gqlcache("write", path("one.sqlite"), "--create", "--text", "{ book { isbn } }", "--response", response,
                                  "--key-field", "Book=isbn,lang")
        XCTAssertEqual(unselected.stderr, "gqlcache: warning: book: the Book was written at its path key, QUERY_ROOT.book: the selection has no "
            + "'lang' (of its key fields 'isbn', 'lang'; Apollo adds none to a selection), so the data's value keys nothing; "
            + "select 'lang' to write it into Book:1+en\n")
        try Data(#"{"book":{"__typename":"Book","isbn":"1","lang":null}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let null = gqlcache("write", path("two.sqlite"), "--create", "--text", "{ book { isbn lang } }", "--response", response,
                            "--key-field", "Book=isbn,lang")
        XCTAssertEqual(null.stderr, "gqlcache: warning: book: the Book was written at its path key, QUERY_ROOT.book, as Apollo keys it: "
            + "the data has no value for 'lang' (of its key fields 'isbn', 'lang') that can key it (a string, a number or a boolean); "
            + "give one in the data to key it\n")

        // A reference moved to a path key: the warning names the field at fault, not both.
        let moved = try makeCache("moved.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["book": .reference("Book:1+en")]),
            Record(key: "Book:1+en", fields: ["__typename": .string("Book"), "isbn": .string("1"), "lang": .string("en")]),
        ])
        try Data(#"{"book":{"__typename":"Book","isbn":"1","lang":null}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let away = gqlcache("write", moved, "--text", "{ book { isbn lang } }", "--response", response, "--key-field", "Book=isbn,lang", "--dry-run")
        XCTAssertTrue(away.stderr.contains("the Book written has no value for 'lang' (of its key fields 'isbn', 'lang') that can key it"), away.stderr)
    }

    /// A type named for its key fields whose data lacks them is written at
    /// its path key as Apollo writes it, and the warning says why; `*=id`
    /// alone says nothing of the types that have no id.
    func testAnObjectOfAKeyedTypeWithoutItsKeyFieldIsWarnedOf() throws {
        let response = path("human.json")
        try Data(#"{"human":{"__typename":"Human","name":"Luke"}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let text = #"{ human(id: "1000") { name } }"#
        let named = gqlcache("write", path("named.sqlite"), "--create", "--text", text, "--response", response, "--key-field", "Human=id")
        XCTAssertEqual(named.stderr, "gqlcache: warning: human: the Human was written at its path key, QUERY_ROOT.human(id:1000), as Apollo keys it: the selection has no 'id' (its key field); select 'id' and give it in the data to key it\n")
        let wildcard = gqlcache("write", path("wildcard.sqlite"), "--create", "--text", text, "--response", response, "--key-field", "*=id")
        XCTAssertEqual(wildcard.status, .success, wildcard.stderr)
        XCTAssertEqual(wildcard.stderr, "")
        try Data(#"{"human":{"__typename":"Human","id":null,"name":"Luke"}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let null = gqlcache("write", path("null.sqlite"), "--create", "--text", #"{ human(id: "1000") { id name } }"#, "--response", response,
                            "--key-field", "Human=id", "--dry-run")
        XCTAssertEqual(null.stderr, "gqlcache: warning: human: the Human would be written at its path key, QUERY_ROOT.human(id:1000), as Apollo keys it: the data has no value for 'id' (its key field) that can key it (a string, a number or a boolean); give one in the data to key it\n")
    }

    /// A key is made of single values: a list or an object keys nothing.
    /// With a schema such a key field is refused; without one, the warning
    /// says the value is there but cannot key the object.
    func testAKeyFieldThatHoldsAListOrAnObjectIsRefusedOrExplained() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let response = path("hero.json")
        try Data(#"{"hero":{"__typename":"Droid","id":"2001","appearsIn":["JEDI"],"friends":[]}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let text = "{ hero(episode: NEWHOPE) { __typename id appearsIn friends { __typename id } } }"
        for (keyField, problem) in [
            ("Droid=appearsIn", "Droid's field 'appearsIn' is a list ([Episode]!); a key field holds one value"),
            ("Character=id,friends", "Character's field 'friends' is a list ([Character]); a key field holds one value"),
            ("Query=hero", "Query's field 'hero' is an object (Character); a key field holds one value"),
        ] {
            let refused = gqlcache("write", cache, "--schema", starWarsSchema, "--text", text, "--response", response, "--key-field", keyField)
            XCTAssertEqual(refused.status, .usage, refused.stderr)
            XCTAssertEqual(refused.stderr, "gqlcache: --key-field \(keyField): \(problem)\n")
        }
        XCTAssertEqual(try bytes(cache), before)
        let unkeyed = gqlcache("write", cache, "--text", text, "--response", response, "--key-field", "Droid=appearsIn", "--dry-run")
        XCTAssertEqual(unkeyed.status, .success, unkeyed.stderr)
        XCTAssertTrue(
            unkeyed.stderr.contains(
                "the Droid written has no value for 'appearsIn' (its key field) that can key it (a string, a number or a boolean), "
                    + "so it is keyed by its path"),
            unkeyed.stderr)
    }

    /// With a schema, a `__typename` is a value with a type like any other:
    /// one that is not the field's type, nor one of its possible types, is
    /// refused, and nothing is written.
    /// Data that gives one field of a record two values writes the one
    /// Apollo keeps, and a warning names both, which stays and where each
    /// came from; values that agree get no warning.
    func testTwoValuesForOneFieldOfARecordAreWarnedOfWithTheOneKept() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","a":"R2","b":"Artoo"}}}"#
            .write(toFile: path("aliases.json"), atomically: true, encoding: .utf8)
        let aliases = gqlcache("write", cache, "--text", "{ hero { __typename id a: name b: name } }", "--response", path("aliases.json"),
                               "--key-field", "Droid=id")
        XCTAssertEqual(aliases.status, .success, aliases.stderr)
        XCTAssertEqual(aliases.stderr, """
            gqlcache: warning: the data gives Droid:2001 two values of 'name': Apollo keeps "Artoo" (hero.b) and drops "R2" (hero.a)

            """)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("Artoo"))

        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2","friends":[{"__typename":"Droid","id":"2001","name":"Artoo"}]}}}"#
            .write(toFile: path("nested.json"), atomically: true, encoding: .utf8)
        let nested = gqlcache("write", cache, "--text", "{ hero { __typename id name friends { __typename id name } } }",
                              "--response", path("nested.json"), "--key-field", "Droid=id", "--dry-run")
        XCTAssertEqual(nested.status, .success, nested.stderr)
        XCTAssertEqual(nested.stderr, """
            gqlcache: warning: the data gives Droid:2001 two values of 'name': Apollo keeps "R2" (hero.name) and drops "Artoo" \
            (hero.friends.0.name), and so would this write

            """)
        XCTAssertTrue(nested.stdout.contains(#"name: "Artoo" → "R2""#), nested.stdout)

        // Met three times, twice inside: the outer value is kept, and the
        // warning says so, dropping both inner ones (not "keeps the second").
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"Outer","friends":[{"__typename":"Droid","id":"2001","name":"In1"},{"__typename":"Droid","id":"2001","name":"In2"}]}}}"#
            .write(toFile: path("three.json"), atomically: true, encoding: .utf8)
        let three = gqlcache("write", cache, "--text", "{ hero { __typename id name friends { __typename id name } } }",
                             "--response", path("three.json"), "--key-field", "Droid=id", "--dry-run")
        XCTAssertEqual(three.stderr, """
            gqlcache: warning: the data gives Droid:2001 3 values of 'name': Apollo keeps "Outer" (hero.name) and drops \
            "In1" (hero.friends.0.name) and "In2" (hero.friends.1.name), and so would this write

            """)
        XCTAssertTrue(three.stdout.contains(#"name: "Artoo" → "Outer""#), three.stdout)

        // Each value once, with every place that gave it, and never the value kept.
        for (values, warning) in [
            (("A", "B", "A"), #"two values of 'name': Apollo keeps "A" (hero.c) and drops "B" (hero.b)"#),
            (("A", "A", "C"), #"two values of 'name': Apollo keeps "C" (hero.c) and drops "A" (hero.a, hero.b)"#),
        ] {
            let data = #"{"data":{"hero":{"__typename":"Droid","id":"2001","a":"\#(values.0)","b":"\#(values.1)","c":"\#(values.2)"}}}"#
            try data.write(toFile: path("abc.json"), atomically: true, encoding: .utf8)
            let abc = gqlcache("write", cache, "--text", "{ hero { __typename id a: name b: name c: name } }", "--response", path("abc.json"),
                               "--key-field", "Droid=id", "--dry-run")
            XCTAssertTrue(abc.stderr.contains(warning), abc.stderr)
        }

        let quiet = gqlcache("write", cache, "--text", "{ hero { __typename id a: name b: name } }", "--response", path("aliases.json"),
                                "--key-field", "Droid=id", "--quiet")
        XCTAssertEqual(quiet.stdout, "", "--quiet leaves out the report")
        XCTAssertTrue(quiet.stderr.hasPrefix("gqlcache: warning: the data gives Droid:2001 two values of 'name'"), "and keeps the warning: \(quiet.stderr)")
    }

    func testWithASchemaATypenameThatDoesNotFitTheFieldIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let response = path("r.json")
        for (query, data, problem) in [
            (#"{ human(id: "1000") { __typename id name } }"#, #"{"human":{"__typename":"Droid","id":"1000","name":"X"}}"#,
             #"cannot write human.__typename: "Droid" does not fit: the field's type is Human"#),
            ("{ hero(episode: JEDI) { __typename id name } }", #"{"hero":{"__typename":"Starship","id":"1","name":"X"}}"#,
             #"cannot write hero.__typename: "Starship" does not fit: it is not one of Character's possible types"#),
            ("{ hero(episode: JEDI) { __typename id name } }", #"{"hero":{"__typename":"Wookiee","id":"1","name":"X"}}"#,
             #"cannot write hero.__typename: "Wookiee" does not fit: the schema has no object type 'Wookiee'"#),
        ] {
            try Data(data.utf8).write(to: URL(fileURLWithPath: response))
            let result = gqlcache("write", cache, "--text", query, "--response", response, "--schema", starWarsSchema, "--key-field", "*=id")
            XCTAssertEqual(result.status, .usage)
            XCTAssertEqual(result.stderr, "gqlcache: \(response): \(problem); nothing written\n")
        }
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Apollo's generated models select `__typename` in every object below
    /// the root, so Apollo's normalizer refuses a response without it (a
    /// missing value), whether or not the document spells it: nothing is
    /// written. With a schema, an object field's type says it instead.
    func testAnObjectWithoutTypenameIsRefusedUnlessTheSchemaSaysItsType() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let response = path("r.json")
        try Data(#"{"data":{"hero":{"id":"2001","name":"R2"}}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let refused = #"gqlcache: \#(response): cannot write hero.__typename: the data has no '__typename', which Apollo's generated models select in every object; give it for each new object, e.g. "__typename": "TypeName"; nothing written"# + "\n"
        let plain = gqlcache("write", cache, "--text", "{ hero(episode: NEWHOPE) { id name ... on Droid { primaryFunction } } }",
                             "--response", response, "--key-field", "Droid=id")
        XCTAssertEqual(plain.status, .usage)
        XCTAssertEqual(plain.stderr, refused)
        // hero is a Character, an interface: the schema cannot say which type.
        let abstract = gqlcache("write", cache, "--text", "{ hero(episode: NEWHOPE) { id name } }", "--response", response,
                                "--schema", starWarsSchema)
        XCTAssertEqual(abstract.status, .usage)
        XCTAssertEqual(abstract.stderr, refused)
        XCTAssertEqual(try bytes(cache), before)
        try Data(#"{"data":{"human":{"id":"1003","name":"Leia"}}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let typed = gqlcache("write", cache, "--text", #"{ human(id: "1003") { id name } }"#, "--response", response,
                             "--schema", starWarsSchema, "--key-field", "Human=id")
        XCTAssertEqual(typed.status, .success, typed.stderr)
        XCTAssertEqual(try records(cache)["Human:1003"]?["__typename"], .string("Human"))
    }

    /// Where the operation selects a top-level field named `data`,
    /// `{"data": X}` is the data itself unless X holds a `data` too, which
    /// only the response around such data does; one named `incremental`
    /// is not a later @defer payload.
    func testATopLevelFieldNamedDataIsTakenFromTheDataAloneOrFromAResponse() throws {
        let cache = path("data.sqlite")
        let query = "{ data { __typename x } }"
        let alone = path("alone.json")
        try Data(#"{"data":{"__typename":"D","x":1}}"#.utf8).write(to: URL(fileURLWithPath: alone))
        let first = gqlcache("write", cache, "--create", "--text", query, "--response", alone)
        XCTAssertEqual(first.status, .success, first.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.data"]?["x"], .int(1))
        let wrapped = path("wrapped.json")
        try Data(#"{"data":{"data":{"__typename":"D","x":2}}}"#.utf8).write(to: URL(fileURLWithPath: wrapped))
        XCTAssertEqual(gqlcache("write", cache, "--text", query, "--response", wrapped).status, .success)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.data"]?["x"], .int(2))
        // Data alone whose data has a data of its own, beside other members: not a response.
        let nested = path("nested.json")
        try Data(#"{"data":{"__typename":"W","data":{"__typename":"D","x":3}}}"#.utf8).write(to: URL(fileURLWithPath: nested))
        let deeper = gqlcache("write", cache, "--text", "{ data { __typename data { __typename x } } }", "--response", nested)
        XCTAssertEqual(deeper.status, .success, deeper.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.data.data"]?["x"], .int(3))
        // So is a top-level field named like a later @defer payload's member.
        let incremental = path("incremental.json")
        try Data(#"{"incremental":[{"__typename":"T","x":8}]}"#.utf8).write(to: URL(fileURLWithPath: incremental))
        let listed = gqlcache("write", cache, "--text", "{ incremental { __typename x } }", "--response", incremental)
        XCTAssertEqual(listed.status, .success, listed.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.incremental.0"]?["x"], .int(8))
        // Any other operation: {"data": …} is the response around the data.
        let other = path("other.json")
        try Data(#"{"data":{"hero":{"__typename":"Droid","name":"R2"}}}"#.utf8).write(to: URL(fileURLWithPath: other))
        XCTAssertEqual(gqlcache("write", cache, "--text", "{ hero { __typename name } }", "--response", other).status, .success)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.hero"]?["name"], .string("R2"))
    }

    func testAVariableTheOperationDoesNotDefineIsNamedInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let response = path("r.json")
        try Data(#"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2"}}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let result = gqlcache("write", cache, "--text", "query Hero($episode: Episode) { hero(episode: $episode) { __typename id name } }",
                              "--var", "episode=NEWHOPE", "--var", "first=2", "--response", response, "--key-field", "*=id")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: operation 'Hero' does not define $first, so it was not used; it defines $episode\n")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R2"))
    }

    func testWritingAgainChangesNothingAndSaysSo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = gqlcache("write", cache, "Demo", "--document", demo, "--schema", starWarsSchema, "--variables", demoVariables,
                              "--response", demoResponse, "--key-field", "Human=id", "--key-field", "Droid=id")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "nothing to write: the cache already holds this data\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    func testTheDiffNamesEachChangedFieldAndDryRunWritesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let response = path("r.json")
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2 (repaired)","height":0.96}}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let arguments = ["write", cache, "--text", "{ hero(episode: JEDI) { __typename id name height } }", "--response", response, "--key-field", "*=id"]
        let dryRun = gqlcache(arguments: arguments + ["--dry-run"])
        XCTAssertEqual(dryRun.status, .success, dryRun.stderr)
        XCTAssertEqual(dryRun.lines, [
            "QUERY_ROOT",
            #"  + hero(episode:JEDI): {"$reference":"Droid:2001"}"#,
            "Droid:2001",
            "  + height: 0.96",
            #"  name: "R2-D2" → "R2-D2 (repaired)""#,
            "2 records changed (3 fields); dry run, nothing written",
        ])
        XCTAssertEqual(try bytes(cache), before)
        let real = gqlcache(arguments: arguments)
        XCTAssertEqual(real.lines.dropLast(), dryRun.lines.dropLast())
        XCTAssertEqual(real.lines.last, "2 records changed (3 fields)")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R2-D2 (repaired)"))
    }

    func testAResponseThatDoesNotFitIsRefusedAndNothingIsWritten() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let response = path("r.json")
        try #"{"hero":{"__typename":"Droid","id":"2001","name":null}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let typeError = gqlcache("write", cache, "--text", "{ hero(episode: JEDI) { __typename id name } }", "--schema", starWarsSchema, "--response", response)
        XCTAssertEqual(typeError.status, .usage)
        XCTAssertEqual(typeError.stderr, "gqlcache: \(response): cannot write hero.name: null in a non-null field of type String!; nothing written\n")
        let missing = gqlcache("write", cache, "--text", "{ hero(episode: JEDI) { __typename id mass } }", "--response", response)
        XCTAssertEqual(missing.stderr, "gqlcache: \(response): cannot write hero.mass: the data has no 'mass', which the selection asks for; nothing written\n")
        try "{oops".write(toFile: response, atomically: true, encoding: .utf8)
        let notJSON = gqlcache("write", cache, "--text", "{ hero { name } }", "--response", response)
        XCTAssertEqual(notJSON.status, .usage)
        XCTAssertEqual(notJSON.stderr, "gqlcache: \(response):1:2: the response is not JSON: expected a member name in quotes\n")
        try "{\"data\": {\n  \"hero\": {\"name\": \"R2-D2 ✓\" \"id\": 1}\n}}".write(toFile: response, atomically: true, encoding: .utf8)
        let placed = gqlcache("write", cache, "--text", "{ hero { name } }", "--response", response)
        XCTAssertEqual(placed.stderr, "gqlcache: \(response):2:30: the response is not JSON: expected ',' or '}' in object\n", "line and column in characters")
        try Data([0xFF, 0xFE, 0x7B, 0x7D]).write(to: URL(fileURLWithPath: response))
        let notText = gqlcache("write", cache, "--text", "{ hero { name } }", "--response", response)
        XCTAssertEqual(notText.status, .usage, "bytes that are not UTF-8 are bad input, as JSON that does not parse is")
        XCTAssertEqual(notText.stderr, "gqlcache: \(response): the response is not UTF-8 text: it is UTF-16 text (it begins with a byte-order mark), "
            + "as a Windows shell may write it; convert it first: iconv -f UTF-16 -t UTF-8\n")
        try (Data("{\"data\":\n  {\"hero\": \"R2".utf8) + Data([0xFF])).write(to: URL(fileURLWithPath: response))
        XCTAssertEqual(gqlcache("write", cache, "--text", "{ hero { name } }", "--response", response).stderr,
                       "gqlcache: \(response):2: the response is not UTF-8 text at byte 15 of the line\n")
        // A NUL byte, which no JSON or GraphQL holds, ends the read where it
        // is: /dev/zero, read to its end, filled memory.
        // (In a process of its own with 2 GiB of address space: were the read
        // to go on, it would fail there, not take the machine's memory.)
        func bounded(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
            try runProgram("/bin/sh", ["-c", #"ulimit -v 2097152; exec "$0" "$@""#, builtBinary] + arguments)
        }
        let endless = try bounded("write", cache, "--text", "{ hero { name } }", "--response", "/dev/zero")
        XCTAssertEqual(endless.status, 2)
        XCTAssertEqual(endless.stderr, "gqlcache: /dev/zero: the response is not text (it holds a NUL byte, at byte 0)\n")
        XCTAssertEqual(try bounded("read", cache, "--document", "/dev/zero").stderr, "gqlcache: /dev/zero: the document is not text (it holds a NUL byte, at byte 0)\n")
        // Standard input is read as a named file is.
        let endlessInput = try runProgram(
            "/bin/sh", ["-c", #"ulimit -v 2097152; exec "$0" "$@" < /dev/zero"#, builtBinary, "write", cache, "--text", "{ hero { name } }", "--response", "-"])
        XCTAssertEqual(endlessInput.stderr, "gqlcache: standard input: the response is not text (it holds a NUL byte, at byte 0)\n")
        try Data(repeating: UInt8(ascii: " "), count: 3 << 20).write(to: URL(fileURLWithPath: response))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: response))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x7B, 0x00, 0x7D]))
        try handle.close()
        XCTAssertEqual(gqlcache("write", cache, "--text", "{ hero { name } }", "--response", response).stderr,
                       "gqlcache: \(response): the response is not text (it holds a NUL byte, at byte \((3 << 20) + 1))\n")
        // UTF-16, as a Windows shell writes it, is named for what it is.
        try Data([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]).write(to: URL(fileURLWithPath: response))
        XCTAssertEqual(gqlcache("write", cache, "--text", "{ hero { name } }", "--response", response).stderr,
                       "gqlcache: \(response): the response is not UTF-8 text: it is UTF-16 text (it begins with a byte-order mark), "
                        + "as a Windows shell may write it; convert it first: iconv -f UTF-16 -t UTF-8\n")
        let pipedUTF16 = try runProgram(builtBinary, ["write", cache, "--text", "{ hero { name } }", "--response", "-"], standardInput: response)
        XCTAssertEqual(pipedUTF16.stderr, "gqlcache: standard input: the response is not UTF-8 text: it is UTF-16 text (it begins with a byte-order mark), "
                        + "as a Windows shell may write it; convert it first: iconv -f UTF-16 -t UTF-8\n")
        let noFile = gqlcache("write", cache, "--text", "{ hero { name } }", "--response", path("nope.json"))
        XCTAssertEqual(noFile.status, .io)
        XCTAssertEqual(noFile.stderr, "gqlcache: \(path("nope.json")): no such file\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Without a schema, the fields of a fragment on an interface are not
    /// written (the normalizer cannot tell it applies): the write says so.
    func testWithoutASchemaAFragmentThatAppliedToNothingIsNamedInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let response = path("r.json")
        try #"{"hero":{"__typename":"Droid","id":"2001","name":"R2"}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let text = "{ hero(episode: NEWHOPE) { __typename id ...N } } fragment N on Character { name }"
        let result = gqlcache("write", cache, "--text", text, "--response", response, "--key-field", "Droid=id", "--dry-run")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: without a schema, fragments on 'Character' applied to no object (they met 'Droid'); their fields were not written; if Character is an interface or union, give --schema to write as Apollo does\n")
        // The cache does not hold "R2": what it holds is the data without the fragment's fields.
        XCTAssertEqual(result.stdout, "nothing to write: the cache already holds the data written, which leaves out the fragments that applied to no object\n")
        let schema = starWarsSchema
        let withSchema = gqlcache("write", cache, "--text", text, "--response", response, "--key-field", "Droid=id", "--schema", schema, "--dry-run")
        XCTAssertEqual(withSchema.stderr, "")
        XCTAssertTrue(withSchema.stdout.contains(#"name: "R2-D2" → "R2""#), withSchema.stdout)
    }

    /// Beside a fragment that applied, one that did not may be another
    /// member of a union, as expected; but when the response holds its
    /// fields, the server applied it, and leaving them out is worth a word.
    func testWithoutASchemaAFragmentLeftOutBesideOneThatAppliedIsNamedWhenTheResponseHoldsItsFields() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let response = path("r.json")
        try #"{"hero":{"__typename":"Human","id":"1000","name":"Luke","homePlanet":"T"}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        func write(_ text: String) -> CommandResult {
            gqlcache("write", cache, "--text", text, "--response", response, "--key-field", "Human=id", "--dry-run", "--quiet")
        }
        let interface = write("{ hero(episode: JEDI) { __typename id ... on Character { name } ... on Human { homePlanet } } }")
        XCTAssertEqual(interface.status, .success, interface.stderr)
        XCTAssertEqual(interface.stderr, "gqlcache: warning: without a schema, fragments on 'Character' applied to no object (they met 'Human'); their fields were not written; if Character is an interface or union, give --schema to write as Apollo does\n")
        let spread = write("{ hero(episode: JEDI) { __typename id ...C ... on Human { homePlanet } } } fragment C on Character { name }")
        XCTAssertEqual(spread.stderr, interface.stderr)
        // The response lacks the fragment's fields, or they are written from the selection beside it: no word.
        XCTAssertEqual(write("{ hero(episode: JEDI) { __typename id ... on Droid { primaryFunction } ... on Human { homePlanet } } }").stderr, "")
        XCTAssertEqual(write("{ hero(episode: JEDI) { __typename id name ... on Character { name } ... on Human { homePlanet } } }").stderr, "")
    }

    func testWithoutCreateAMissingCacheIsAnErrorAndNotCreated() throws {
        let response = path("r.json")
        try #"{"hero":null}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let result = gqlcache("write", path("none.sqlite"), "--text", "{ hero { name } }", "--response", response)
        XCTAssertEqual(result.status, .io)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("none.sqlite")))
    }

    /// `--key-field Character=id` keys every type of the interface, as a
    /// @typePolicy on the interface does; only a schema says which those are.
    func testAKeyFieldOnAnInterfaceKeysItsTypesWithTheSchema() throws {
        let cache = path("interface.sqlite")
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2"}}}"#.write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        let arguments = ["write", cache, "--create", "--text", "{ hero { id name } }", "--response", path("hero.json"), "--key-field", "Character=id"]
        let typed = gqlcache(arguments: arguments + ["--schema", starWarsSchema])
        XCTAssertEqual(typed.status, .success, typed.stderr)
        XCTAssertEqual(typed.stderr, "")
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["hero"], .reference("Droid:2001"))

        // Without one, the warnings say what was keyed and why not.
        let untyped = gqlcache(arguments: arguments + ["--dry-run"])
        XCTAssertEqual(untyped.status, .success, untyped.stderr)
        XCTAssertEqual(untyped.stderr, """
            gqlcache: warning: QUERY_ROOT hero would point at QUERY_ROOT.hero, not Droid:2001: objects without a key field are keyed by \
            their path; if the app keys them (by id, say), give --key-field (e.g. '*=id') or a schema with @typePolicy
            gqlcache: warning: --key-field Character=id: no object of type Character was written, so it keyed nothing (types written: \
            Droid); for an interface or union, give --schema to say which types are its

            """)
    }

    /// `--key-group` gives an entry's objects the app's unique key group,
    /// as `CacheKeyInfo(id:uniqueKeyGroup:)` does (spec §3, `Group:id`):
    /// the group is the entry's type when none is named, or the one named.
    func testAKeyGroupKeysObjectsByTheGroupNotTheirType() throws {
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2","friends":[{"__typename":"Human","id":"1000","name":"Luke"}]}}}"#
            .write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        for (options, keys) in [
            (["--key-field", "Character=id", "--key-group", "Character", "--schema", starWarsSchema], ["Character:2001", "Character:1000"]),
            (["--key-field", "*=id", "--key-group", "*=Node"], ["Node:2001", "Node:1000"]),
            (["--key-field", "Droid=id", "--key-field", "Human=id", "--key-group", "Droid=Bot"], ["Bot:2001", "Human:1000"]),
        ] {
            let cache = path("group-\(keys[0]).sqlite")
            let result = gqlcache(arguments: ["write", cache, "--create", "--text", "{ hero { id name friends { id name } } }", "--response", path("hero.json")] + options)
            XCTAssertEqual(result.status, .success, result.stderr)
            XCTAssertEqual(result.stderr, "")
            let written = try records(cache)
            XCTAssertEqual(written["QUERY_ROOT"]?["hero"], .reference(CacheKey(keys[0])), "\(options)")
            XCTAssertEqual(written[keys[0]]?["friends"], .list([.reference(CacheKey(keys[1]))]), "\(options)")
        }
    }

    /// A write that would move a reference from a group's key to the same
    /// id under the type's name (`Character:2001` to `Droid:2001`) says
    /// so, with the --key-group that keeps it, for each way it was keyed.
    func testAReferenceMovedOutOfAKeyGroupIsWarnedOfWithTheOptionThatKeepsIt() throws {
        let cache = try makeCache("grouped.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["hero": .reference("Character:2001")]),
            Record(key: "Character:2001", fields: ["__typename": .string("Droid"), "id": .string("2001"), "name": .string("R2-D2")]),
        ])
        let before = try bytes(cache)
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R5"}}}"#.write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        for (options, option) in [
            (["--key-field", "Character=id", "--schema", starWarsSchema], "--key-group Character"),
            (["--key-field", "*=id"], "--key-field Droid=id --key-group Droid=Character"),
            (["--key-field", "Droid=id"], "--key-group Droid=Character"),
        ] {
            let result = gqlcache(arguments: ["write", cache, "--text", "{ hero { id name } }", "--response", path("hero.json"), "--dry-run"] + options)
            XCTAssertEqual(result.status, .success, result.stderr)
            XCTAssertEqual(result.stderr, """
                gqlcache: warning: QUERY_ROOT hero would point at Droid:2001, not Character:2001: the cache keys this Droid in the group \
                Character, as an app's CacheKeyInfo(id:uniqueKeyGroup:) does; give \(option) to write it there

                """, "\(options)")
        }
        let grouped = gqlcache("write", cache, "--text", "{ hero { id name } }", "--response", path("hero.json"), "--key-field", "*=id", "--key-group", "*=Character")
        XCTAssertEqual(grouped.stdout, "Character:2001\n  name: \"R2-D2\" → \"R5\"\n1 record changed (1 field)\n")
        XCTAssertEqual(grouped.stderr, "")
        XCTAssertNotEqual(try bytes(cache), before)
    }

    /// No key group is read into a move between records of two types (a
    /// Human replaced by a Droid of the same id), nor into the move a
    /// --key-group asked for (`Droid:2001` to `Character:2001`), which is
    /// no copy of `Droid:2001` at a path key either.
    func testMovesThatLeaveNoKeyGroupAreNotWarnedOfAsOne() throws {
        let cache = try makeCache("typed.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["hero": .reference("Human:1000")]),
            Record(key: "Human:1000", fields: ["__typename": .string("Human"), "id": .string("1000"), "name": .string("Luke")]),
        ])
        try #"{"data":{"hero":{"__typename":"Droid","id":"1000","name":"R2"}}}"#.write(toFile: path("droid.json"), atomically: true, encoding: .utf8)
        let replaced = gqlcache("write", cache, "--text", "{ hero { id name } }", "--response", path("droid.json"), "--key-field", "*=id", "--dry-run")
        XCTAssertEqual(replaced.status, .success, replaced.stderr)
        XCTAssertEqual(replaced.stderr, "")

        let fixture = try copyOfFixture("starwars.sqlite")
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2"}}}"#.write(toFile: path("r2.json"), atomically: true, encoding: .utf8)
        let grouped = gqlcache("write", fixture, "--text", "{ hero(episode: NEWHOPE) { id name } }", "--response", path("r2.json"),
                               "--key-field", "Character=id", "--key-group", "Character", "--schema", starWarsSchema, "--dry-run")
        XCTAssertEqual(grouped.status, .success, grouped.stderr)
        XCTAssertTrue(grouped.stdout.hasPrefix("QUERY_ROOT\n" + #"  hero(episode:NEWHOPE): {"$reference":"Droid:2001"} → {"$reference":"Character:2001"}"#), grouped.stdout)
        XCTAssertEqual(grouped.stderr, "")
    }

    /// A --key-group names the entry of a --key-field, once; `*` needs a
    /// group named.
    func testAKeyGroupWithoutItsKeyFieldOrNameIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2"}}}"#.write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        for (options, message) in [
            (["--key-group", "Character"], "--key-group Character: no --key-field names Character, whose key fields the group keys by; give one too, e.g. --key-field Character=id"),
            (["--key-field", "*=id", "--key-group", "*"], "--key-group *: name the group, e.g. '*=Node'"),
            (["--key-field", "Droid=id", "--key-group", "Droid="], "--key-group takes TYPE or TYPE=GROUP, e.g. Character or '*=Node'; got 'Droid='"),
            (["--key-field", "Droid=id", "--key-group", "Droid", "--key-group", "Droid=Bot"], "--key-group names Droid twice"),
        ] {
            let result = gqlcache(arguments: ["write", cache, "--text", "{ hero { id name } }", "--response", path("hero.json")] + options)
            XCTAssertEqual(result.status, .usage, "\(options)")
            XCTAssertEqual(result.stderr, "gqlcache: \(message) (see 'gqlcache write --help')\n")
        }
        XCTAssertEqual(try bytes(cache), before)
    }

    /// With a schema, a key field it says can key nothing is refused before
    /// anything is written, where it would leave every object at its path.
    func testWithASchemaAKeyFieldOnAnUnknownTypeOrFieldIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2"}}}"#.write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        for (keyField, message) in [
            ("Droid=nope", "--key-field Droid=nope: Droid has no field 'nope' in the schema"),
            ("Chracter=id", "--key-field Chracter=id: the schema has no type 'Chracter' (did you mean Character?)"),
        ] {
            let result = gqlcache("write", cache, "--schema", starWarsSchema, "--text", "{ hero { id name } }", "--response", path("hero.json"),
                                  "--key-field", keyField)
            XCTAssertEqual(result.status, .usage, keyField)
            XCTAssertEqual(result.stderr, "gqlcache: \(message)\n")
        }
        XCTAssertEqual(try records(cache), before)
    }

    /// `--key-field` stands for the app's `cacheKeyInfo`, which escapes
    /// nothing: an update of a record keyed by a base64 id holding `+`
    /// goes into that record, not into a new `User:…\+…` beside it.
    func testAKeyFieldIdHoldingAPlusUpdatesTheRecordTheAppWrote() throws {
        let cache = try makeCache("b64.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["viewer": .reference(CacheKey("User:dXNl+Zz=="))]),
            Record(key: "User:dXNl+Zz==", fields: ["__typename": .string("User"), "id": .string("dXNl+Zz=="), "name": .string("Old")]),
        ])
        let result = gqlcache("update", cache, "--text", "query Q @apollo_client_ios_localCacheMutation { viewer { id name } }",
                              "--set", "viewer.name=New", "--key-field", "*=id", "-q")
        XCTAssertEqual(result.status, .success, result.stderr)
        let after = try records(cache)
        XCTAssertEqual(Set(after.keys), ["QUERY_ROOT", "User:dXNl+Zz=="])
        XCTAssertEqual(after["User:dXNl+Zz=="]?["name"], .string("New"))
        XCTAssertEqual(after["QUERY_ROOT"]?["viewer"], .reference(CacheKey("User:dXNl+Zz==")))
    }

    /// `@typePolicy(keyFields: "isbn lang")` separates its fields by spaces;
    /// `--key-field` takes them so too, or by commas, and not an empty one.
    func testKeyFieldTakesFieldsSeparatedBySpacesAsTypePolicyDoes() throws {
        try #"{"data":{"book":{"__typename":"Book","isbn":"1","lang":"en","title":"T"}}}"#
            .write(toFile: path("book.json"), atomically: true, encoding: .utf8)
        for keyField in ["Book=isbn lang", "Book=isbn,lang", "Book=isbn, lang"] {
            let cache = path("book-\(keyField.count).sqlite")
            let result = gqlcache("write", cache, "--create", "--text", "{ book { __typename isbn lang title } }",
                                  "--response", path("book.json"), "--key-field", keyField, "-q")
            XCTAssertEqual(result.status, .success, keyField + ": " + result.stderr)
            XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["book"], .reference(CacheKey("Book:1+en")), keyField)
        }
        for keyField in ["Book=isbn,", "Book= ", "Book=isbn,,lang"] {
            let result = gqlcache("write", path("none.sqlite"), "--create", "--text", "{ book { isbn } }",
                                  "--response", path("book.json"), "--key-field", keyField)
            XCTAssertEqual(result.status, .usage, keyField)
            XCTAssertTrue(result.stderr.contains("--key-field takes TYPE=field[,field]"), result.stderr)
        }
    }

    func testKeyFieldNeedsTypeAndFields() {
        let result = gqlcache("write", path("c.sqlite"), "--text", "{ a }", "--response", "r.json", "--key-field", "Human")
        XCTAssertEqual(result.status, .usage)
        XCTAssertTrue(result.stderr.contains("--key-field takes TYPE=field[,field]"), result.stderr)
        let twice = gqlcache(
            "write", path("c.sqlite"), "--text", "{ a }", "--response", "r.json", "--key-field", "Droid=id", "--key-field", "Droid=name")
        XCTAssertEqual(twice.status, .usage)
        XCTAssertTrue(twice.stderr.contains("--key-field names Droid twice; give its fields together, e.g. Droid=id,name"), twice.stderr)
    }
}
