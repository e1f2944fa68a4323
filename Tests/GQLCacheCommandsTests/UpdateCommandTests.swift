import CacheStore
import Foundation
import GQLCacheCommands
import XCTest

final class UpdateCommandTests: CommandTestCase {
    let document = """
        query HeroName($episode: Episode) @apollo_client_ios_localCacheMutation {
          hero(episode: $episode) { name friends { name } }
        }
        query NotLocal { hero(episode: NEWHOPE) { name } }
        fragment HumanDetails on Human @apollo_client_ios_localCacheMutation { name homePlanet mass }
        """

    func rowIDs(_ path: String) throws -> String {
        let sqlite = Process()
        let output = Pipe()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [path, "SELECT _id, key FROM records ORDER BY _id"]
        sqlite.standardOutput = output
        try sqlite.run()
        sqlite.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func update(_ cache: String, _ arguments: String..., environment: [String: String] = [:]) -> CommandResult {
        gqlcache(arguments: ["update", cache, "--text", document] + arguments, environment: environment)
    }

    /// What `update --text query --data data` says on standard error,
    /// checked to be a refusal (status 2) that left the file as it was.
    func refusal(updating cache: String, query: String, data: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let before = try bytes(cache)
        let result = gqlcache("update", cache, "--text", query, "--data", data)
        XCTAssertEqual(result.status, .usage, file: file, line: line)
        XCTAssertEqual(try bytes(cache), before, "nothing written", file: file, line: line)
        return result.stderr
    }

    /// As write does: an enum value the schema lacks is written with a
    /// warning, but one the cache already held and the update writes back
    /// unchanged is not warned of again.
    /// An update reads as Apollo's does: a deferred fragment whose fields
    /// miss is pending and left out, the rest is updated, and the pending
    /// fragment's fields (absent from the data) are not written back nor
    /// settable. One whose fields are cached is updated with the rest.
    func testAPendingDeferredFragmentIsLeftOutOfAnUpdateAndItsFieldsCannotBeSet() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let pending = #"query U @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id name ... on Droid @defer(label: "d") { primaryFunction nope } } }"#
        let renamed = gqlcache("update", cache, "--text", pending, "--set", "hero.name=Artoo")
        XCTAssertEqual(renamed.status, .success, renamed.stderr)
        XCTAssertEqual(renamed.stdout, "Droid:2001\n  name: \"R2-D2\" → \"Artoo\"\n1 record changed (1 field)\n")
        XCTAssertTrue(renamed.stderr.contains("deferred fragment 'd' at hero is left out, pending"), renamed.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["primaryFunction"], .string("Astromech"))

        let before = try bytes(cache)
        let refused = gqlcache("update", cache, "--text", pending, "--set", "hero.primaryFunction=Mech")
        XCTAssertEqual(refused.status, .usage)
        XCTAssertTrue(refused.stderr.hasSuffix(
            "gqlcache: --set hero.primaryFunction: hero has no 'primaryFunction' in the selection (it has: __typename, id, name); "
                + "deferred fragment 'd' at hero is pending (cache miss at hero.nope: record 'Droid:2001' has no field 'nope'), "
                + "and Apollo's update cannot set the fields of a pending fragment; nothing written\n"), refused.stderr)
        XCTAssertEqual(try bytes(cache), before)

        let cached = #"query U @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id ... on Droid @defer(label: "d") { primaryFunction } } }"#
        let set = gqlcache("update", cache, "--text", cached, "--set", "hero.primaryFunction=Mech")
        XCTAssertEqual(set.status, .success, set.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["primaryFunction"], .string("Mech"))
    }

    /// A list element edited to hold the same values as another element
    /// is still the object read at its place, not the other one: before,
    /// `friends.0` renamed to Han became a second reference to Human:1002,
    /// Luke fell out of the list and nobody was renamed. An element that
    /// moved (one removed before it) still keeps its record.
    func testAnElementEditedToLookLikeAnotherStaysItsOwnRecord() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query NF @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id friends { name } } }"
        let renamed = gqlcache("update", cache, "--text", query, "--set", "hero.friends.0.name=Han Solo")
        XCTAssertEqual(renamed.status, .success, renamed.stderr)
        XCTAssertEqual(renamed.stdout, "Human:1000\n  name: \"Luke Skywalker\" → \"Han Solo\"\n1 record changed (1 field)\n")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["friends"],
                       .list([.reference(CacheKey("Human:1000")), .reference(CacheKey("Human:1002")), .null]))

        let removed = try copyOfFixture("starwars.sqlite", as: "removed.sqlite")
        try #"{"hero":{"__typename":"Droid","id":"2001","friends":[{"__typename":"Human","name":"Han Solo"},null]}}"#
            .write(toFile: path("removed.json"), atomically: true, encoding: .utf8)
        let shortened = gqlcache("update", removed, "--text", query, "--data", path("removed.json"))
        XCTAssertEqual(shortened.status, .success, shortened.stderr)
        XCTAssertEqual(try records(removed)["Droid:2001"]?["friends"], .list([.reference(CacheKey("Human:1002")), .null]))
    }

    /// A reference stored with members beside `$reference` loads in Apollo
    /// as the reference alone, so writing that reference again changes
    /// nothing: the record holding it keeps its row, its text and the
    /// AUTOINCREMENT sequence, for update and write alike, in a list too.
    func testAReferenceStoredWithOtherMembersIsNotRewrittenWhenWrittenAgain() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"""
            UPDATE records SET record = json_set(record, '$."hero(episode:NEWHOPE)"', json('{"$reference":"Droid:2001","note":1}'))
            WHERE key = 'QUERY_ROOT';
            UPDATE records SET record = json_set(record, '$.friends', json('[{"$reference":"Human:1000","z":true},{"$reference":"Human:1002"},null]'))
            WHERE key = 'Droid:2001';
            """#)
        let rootBefore = try sqliteShell(cache, "SELECT _id, record FROM records WHERE key = 'QUERY_ROOT'")
        let friendsBefore = try sqliteShell(cache, "SELECT json_extract(record, '$.friends') FROM records WHERE key = 'Droid:2001'")
        let query = "query M @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id name friends { id } } }"
        let updated = gqlcache("update", cache, "--text", query, "--set", "hero.name=Artoo")
        XCTAssertEqual(updated.status, .success, updated.stderr)
        XCTAssertEqual(updated.stdout, "Droid:2001\n  name: \"R2-D2\" → \"Artoo\"\n1 record changed (1 field)\n")
        XCTAssertEqual(try sqliteShell(cache, "SELECT _id, record FROM records WHERE key = 'QUERY_ROOT'"), rootBefore)
        XCTAssertEqual(try sqliteShell(cache, "SELECT json_extract(record, '$.friends') FROM records WHERE key = 'Droid:2001'"), friendsBefore)
        XCTAssertEqual(try sqliteShell(cache, "SELECT seq FROM sqlite_sequence"), "11")

        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"Artoo","friends":[{"__typename":"Human","id":"1000"},{"__typename":"Human","id":"1002"},null]}}}"#
            .write(toFile: path("hero.json"), atomically: true, encoding: .utf8)
        let written = gqlcache("write", cache, "--text", "{ hero(episode: NEWHOPE) { __typename id name friends { __typename id } } }",
                               "--response", path("hero.json"), "--key-field", "*=id")
        XCTAssertEqual(written.status, .success, written.stderr)
        XCTAssertEqual(written.stdout, "nothing to write: the cache already holds this data\n")
        XCTAssertEqual(try sqliteShell(cache, "SELECT _id, record FROM records WHERE key = 'QUERY_ROOT'"), rootBefore)
        XCTAssertEqual(try sqliteShell(cache, "SELECT seq FROM sqlite_sequence"), "11")
    }

    /// A new Human with an id, added where the cache holds its Humans
    /// under keys of their own, lands at a path key without --key-field:
    /// warned of, naming where the app keying Human by id writes it. A new
    /// object of a type the cache keys only by path (Review) is not.
    func testANewObjectOfATypeTheCacheKeysByIdIsWarnedOfAtItsPathKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query AddFriend @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { __typename id friends { __typename id name } } }"
        let leia = #"hero.friends.2={"__typename":"Human","id":"1003","name":"Leia Organa"}"#
        let unkeyed = gqlcache("update", cache, "--text", query, "--set", leia, "--dry-run", "-q")
        XCTAssertEqual(unkeyed.status, .success, unkeyed.stderr)
        XCTAssertEqual(unkeyed.stderr, "gqlcache: warning: Droid:2001.friends.2 would be written as a new record, though the cache holds other Human "
            + "records under keys of their own, as Human:1000: if the app keys Human by id, give --key-field Human=id (or '*=id') "
            + "or a schema with @typePolicy to write it as Human:1003\n")
        let keyed = gqlcache("update", cache, "--text", query, "--set", leia, "--key-field", "Human=id")
        XCTAssertEqual(keyed.status, .success, keyed.stderr)
        XCTAssertEqual(keyed.stderr, "")
        XCTAssertEqual(try records(cache)["Human:1003"]?["name"], .string("Leia Organa"))

        try #"{"data":{"reviews":[{"__typename":"Review","id":"r3","stars":4}]}}"#.write(toFile: path("review.json"), atomically: true, encoding: .utf8)
        let reviews = "{ reviews(episode: EMPIRE, first: 1) { __typename id stars } }"
        let review = gqlcache("write", cache, "--text", reviews, "--response", path("review.json"), "--dry-run", "-q")
        XCTAssertEqual(review.status, .success, review.stderr)
        XCTAssertEqual(review.stderr, "")
    }

    /// With a schema, a number set in a String field is written as its
    /// text, as the app's model holds it, also where the cache held null
    /// (before, `"commentary": 123` was stored, which no model writes).
    /// A value set whole lands a level or more below the record's own
    /// object: a record it would take past the 512 levels Apollo's reader
    /// takes is refused, not written damaged, also by a dry run.
    func testAValueThatWouldNestTheRecordTooDeepIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = "query Q @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { meta } }"
        func nested(_ lists: Int) -> String { String(repeating: "[", count: lists) + String(repeating: "]", count: lists) }
        let before = try bytes(cache)
        let tooDeep = gqlcache("update", cache, "--text", document, "--set", "reviews.0.meta=" + nested(512))
        XCTAssertEqual(tooDeep.status, .usage)
        XCTAssertEqual(tooDeep.stderr, "gqlcache: record 'QUERY_ROOT.reviews(episode:JEDI,first:2).0' would nest more than 512 objects and arrays, "
            + "which Apollo's JSON reader refuses, and the whole record with it; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
        // A dry run says the same, rather than show a change that would be refused.
        let dryRun = gqlcache("update", cache, "--text", document, "--set", "reviews.0.meta=" + nested(512), "--dry-run")
        XCTAssertEqual(dryRun.status, .usage)
        XCTAssertEqual(dryRun.stdout, "")
        XCTAssertEqual(dryRun.stderr, tooDeep.stderr)
        // A value deeper than Apollo reads on its own is refused too, not written as the text it is.
        let deeper = gqlcache("update", cache, "--text", document, "--set", "reviews.0.meta=" + nested(513))
        XCTAssertEqual(deeper.status, .usage)
        XCTAssertEqual(deeper.stderr, "gqlcache: --set reviews.0.meta: the value has nesting deeper than 512 levels (at byte 513), "
            + "which Apollo's JSON reader refuses; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
        let deepest = gqlcache("update", cache, "--text", document, "--set", "reviews.0.meta=" + nested(511))
        XCTAssertEqual(deepest.status, .success, deepest.stderr)
        XCTAssertFalse(gqlcache("doctor", cache).stdout.contains("damaged"))
    }

    func testANumberSetInAStringFieldIsWrittenAsTextWithASchema() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { __typename stars commentary } }"
        let result = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", "reviews.1.commentary=123",
                              "--set", "reviews.1.stars=4")
        XCTAssertEqual(result.status, .success, result.stderr)
        let review = try records(cache)["QUERY_ROOT.reviews(episode:JEDI,first:2).1"]
        XCTAssertEqual(review?["commentary"], .string("123"))
        XCTAssertEqual(review?["stars"], .int(4))
    }

    /// Apollo's update writes back its model's values: with a schema, a
    /// field read as the model reads it (4.5 in an Int field as 4, 5 in a
    /// String field as "5") is written so, beside the field set, and the
    /// diff says so.
    func testFieldsAreWrittenBackAsTheModelReadThemWithASchema() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.stars', 4.5, '$.commentary', 5) WHERE key = 'QUERY_ROOT.reviews(episode:JEDI,first:2).1'")
        let query = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { stars commentary } }"
        let result = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", #"reviews.0.commentary="ok""#)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.contains("QUERY_ROOT.reviews(episode:JEDI,first:2).1\n  commentary: 5 → \"5\"\n  stars: 4.5 → 4\n"), result.stdout)
        let review = try records(cache)["QUERY_ROOT.reviews(episode:JEDI,first:2).1"]
        XCTAssertEqual(review?["stars"], .int(4))
        XCTAssertEqual(review?["commentary"], .string("5"))
    }

    /// A record whose __typename the schema lacks (a newer app's type)
    /// does not block an update with the schema: Apollo's model takes it
    /// as the field's type and writes back what it read. A type set anew
    /// must still be one the schema has.
    func testATypenameTheSchemaLacksIsKeptAsReadAndRefusedWhenSet() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.__typename', 'Wookiee') WHERE key = 'Human:1002'")
        let text = "query F @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id friends { __typename name } } }"
        let kept = gqlcache("update", cache, "--text", text, "--schema", starWarsSchema, "--set", "hero.friends.0.name=Luke")
        XCTAssertEqual(kept.status, .success, kept.stderr)
        XCTAssertEqual(try records(cache)["Human:1000"]?["name"], .string("Luke"))
        XCTAssertEqual(try records(cache)["Human:1002"]?["__typename"], .string("Wookiee"))
        // Wherever the object now is in the list: the first friend removed, it is friends.0.
        let data = path("friends.json")
        try #"{"hero":{"id":"2001","friends":[{"__typename":"Wookiee","name":"Han Solo"},null]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let moved = gqlcache("update", cache, "--text", text, "--schema", starWarsSchema, "--data", data)
        XCTAssertEqual(moved.status, .success, moved.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["friends"], .list([.reference("Human:1002"), .null]))
        let before = try bytes(cache)
        let set = gqlcache("update", cache, "--text", text, "--schema", starWarsSchema, "--set", "hero.friends.0.__typename=Ewok")
        XCTAssertEqual(set.status, .usage)
        XCTAssertTrue(set.stderr.hasSuffix(#"cannot write hero.friends.0.__typename: "Ewok" does not fit: the schema has no object type 'Ewok'; nothing written"# + "\n"), set.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Objects that do not select __typename take the type of the object
    /// read with their id, wherever it now is in the list: a list of a
    /// Human and a Droid reordered by hand keeps each one's record.
    func testAReorderedListOfObjectsWithoutTypenameKeepsEachOnesTypeByID() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, #"UPDATE records SET record = json_set(record, '$.friends', json('[{"$reference":"Human:1000"},{"$reference":"Droid:2001"}]')) WHERE key = 'Droid:2001'"#)
        let text = "query TN @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { __typename id friends { id name } } }"
        let data = path("swapped.json")
        try #"{"hero":{"__typename":"Droid","id":"2001","friends":[{"id":"2001","name":"R2-D2"},{"id":"1000","name":"Luke Skywalker"}]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        for keyFields in [[], ["--key-field", "*=id"]] {
            let result = gqlcache(arguments: ["update", cache, "--text", text, "--data", data, "--dry-run"] + keyFields)
            XCTAssertEqual(result.status, .success, result.stderr)
            XCTAssertEqual(result.lines, [
                "Droid:2001",
                #"  friends: [{"$reference":"Human:1000"},{"$reference":"Droid:2001"}] → [{"$reference":"Droid:2001"},{"$reference":"Human:1000"}]"#,
                "1 record changed (1 field); dry run, nothing written",
            ], "\(keyFields)")
        }
    }

    func testSettingAnEnumValueTheSchemaLacksWarnsOnlyOfTheNewValue() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let text = "query A($episode: Episode) @apollo_client_ios_localCacheMutation { hero(episode: $episode) { id name appearsIn } }"
        let result = gqlcache("update", cache, "--text", text, "--schema", starWarsSchema, "--var", "episode=NEWHOPE",
                              "--set", #"hero.appearsIn=["SITH"]"#)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, #"gqlcache: warning: hero.appearsIn: "SITH" is not a value of enum Episode in the schema; "#
            + #"Apollo writes it all the same and reads it as .unknown("SITH"), as a value the server added since the schema was fetched"# + "\n")
        let again = gqlcache("update", cache, "--text", text, "--schema", starWarsSchema, "--var", "episode=NEWHOPE", "--set", "hero.name=R2")
        XCTAssertEqual(again.status, .success, again.stderr)
        XCTAssertEqual(again.stderr, "", "SITH was already in the cache")
    }

    /// Without a schema the Float argument given as -2 is written -2, where
    /// Apollo wrote -2.0: --data, which needs no read, would add a second
    /// field beside the first without a word.
    func testDataForAFieldKeyTheRecordHoldsOtherwiseWarnsOfTheNearDuplicate() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let search = #"search(filter: {text: "sky", limit: 2, tags: ["a", "b"], near: {lat: 1.5, lng: -2}})"#
        let text = "query S @apollo_client_ios_localCacheMutation { \(search) { __typename ... on Human { name } } }"
        try #"{"search":[[{"__typename":"Human","name":"X"},null]]}"#.write(toFile: path("d.json"), atomically: true, encoding: .utf8)
        let result = gqlcache("update", cache, "--text", text, "--data", path("d.json"), "--dry-run")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: record 'QUERY_ROOT' has no field "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])', which --data adds beside "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])' (only how a number is written differs: the record has -2.0 "
            + "where this read has -2; if the app gave a Float there, give --schema, and a Float variable is written as its type says, or write it -2.0)\n")
        // With the schema too: a literal is written as the document gives it (Apollo's generated code
        // holds -2 as an Int), and a Float argument's field is written -2.0 only from a Float.
        let typed = gqlcache("update", cache, "--text", text, "--data", path("d.json"), "--schema", starWarsSchema, "--dry-run")
        XCTAssertEqual(typed.status, .success, typed.stderr)
        XCTAssertEqual(typed.stderr.split(separator: "\n").first.map(String.init), "gqlcache: warning: record 'QUERY_ROOT' has no field "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])', which --data adds beside "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])' (only how a number is written differs: the record has -2.0 "
            + "where this read has -2; if the app gave a Float there, write it -2.0 in the document or the variables)")
        let float = gqlcache("update", cache, "--text", text.replacingOccurrences(of: "lng: -2", with: "lng: -2.0"), "--data", path("d.json"),
                             "--schema", starWarsSchema, "--dry-run")
        XCTAssertEqual(float.status, .success, float.stderr)
        XCTAssertFalse(float.stderr.contains("only how a number is written differs"), float.stderr)
        XCTAssertFalse(float.stdout.contains("+ search("), "the field there is changed, not a second one added: \(float.stdout)")
        // A file from a device holds -2: the warning names the flag that writes it so.
        let device = try copyOfFixture("starwars.sqlite", as: "device.sqlite")
        _ = try sqliteShell(device, "UPDATE records SET record = replace(record, 'lng:-2.0', 'lng:-2') WHERE key = 'QUERY_ROOT'")
        let variable = "query S($f: Float!) @apollo_client_ios_localCacheMutation { " + search.replacingOccurrences(of: "lng: -2", with: "lng: $f")
            + " { __typename ... on Human { name } } }"
        let fromDevice = gqlcache("update", device, "--text", variable, "--var", "f=-2", "--data", path("d.json"), "--dry-run")
        XCTAssertTrue(fromDevice.stderr.hasPrefix("gqlcache: warning: record 'QUERY_ROOT' has no field "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])', which --data adds beside "
            + "'search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])' (only how a number is written differs: the record has -2 "
            + "where this read has -2.0; Apollo on Apple platforms writes a Float inside a list or an input object so (a cache from a device or "
            + "simulator): give --apple-floats)\n"), fromDevice.stderr)
        let apple = gqlcache("update", device, "--text", variable, "--var", "f=-2", "--data", path("d.json"), "--dry-run", "--apple-floats")
        XCTAssertEqual(apple.status, .success, apple.stderr)
        XCTAssertTrue(apple.stdout.hasPrefix("QUERY_ROOT\n  search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky]): "),
                      "the field there is changed, not a second one added: \(apple.stdout)")
        XCTAssertFalse(apple.stderr.contains("only how a number is written differs"), apple.stderr)
        // And a --set through the field, with the schema, which leaves it out as absent.
        let set = gqlcache("update", device, "--text", variable, "--var", "f=-2", "--set", "search.0.0.name=Y", "--schema", starWarsSchema, "--dry-run")
        XCTAssertEqual(set.status, .notFound)
        XCTAssertTrue(set.stderr.hasSuffix("(only how a number is written differs: the record has -2 where this read has -2.0; Apollo on Apple "
            + "platforms writes a Float inside a list or an input object so (a cache from a device or simulator): give --apple-floats); nothing written\n"),
            set.stderr)
        XCTAssertEqual(gqlcache("update", device, "--text", variable, "--var", "f=-2", "--set", "search.0.0.name=Y", "--schema", starWarsSchema,
                                "--dry-run", "--apple-floats").status, .success)
    }

    /// __typename is never nullable: a record without it misses for Apollo
    /// too, and --schema would not help; --data can give it.
    func testARecordWithoutTypenameMissesWithAHintThatFitsTypename() throws {
        let cache = try makeCache("plain.sqlite", [
            Record(key: .queryRoot, fields: ["hero": .reference("QUERY_ROOT.hero")]), Record(key: "QUERY_ROOT.hero", fields: ["name": .string("R2")]),
        ])
        let text = "query H @apollo_client_ios_localCacheMutation { hero { name } }"
        let miss = gqlcache("update", cache, "--text", text, "--set", "hero.name=X")
        XCTAssertEqual(miss.status, .notFound)
        XCTAssertEqual(miss.stderr, "gqlcache: cannot update query H: cache miss at hero.__typename: record 'QUERY_ROOT.hero' has no field '__typename', "
            + "which Apollo's generated models select in every object (so Apollo's update misses here too; give the whole data, __typename included, with --data)\n")
        try #"{"hero":{"__typename":"Droid","name":"X"}}"#.write(toFile: path("d.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(gqlcache("update", cache, "--text", text, "--data", path("d.json")).status, .success)
        XCTAssertEqual(gqlcache("update", cache, "--text", text, "--set", "hero.name=Y").status, .success)
    }

    func testOnlyLocalCacheMutationsMayBeWritten() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = update(cache, "NotLocal", "--set", "hero.name=X")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: query 'NotLocal' is not a local cache mutation: Apollo only lets definitions marked @apollo_client_ios_localCacheMutation write to the cache, and so does gqlcache; mark it as in 'query NotLocal @apollo_client_ios_localCacheMutation { … }'\n")
        XCTAssertEqual(try bytes(cache), before)
        let unmarked = gqlcache("update", cache, "--text", "mutation M { createReview(episode: JEDI, review: {stars: 5}) { stars } }",
                                "--set", "createReview.stars=1")
        XCTAssertEqual(unmarked.status, .usage)
        XCTAssertTrue(unmarked.stderr.hasPrefix("gqlcache: mutation 'M' is not a local cache mutation"), unmarked.stderr)
        XCTAssertEqual(try bytes(cache), before)
        // A directive written in other case is named, as the slip it is.
        let misspelled = gqlcache("update", cache, "--text", "query Q @apollo_client_ios_localcachemutation { hero(episode: NEWHOPE) { name } }",
                                  "--set", "hero.name=X")
        XCTAssertEqual(misspelled.status, .usage)
        XCTAssertEqual(misspelled.stderr, "gqlcache: query 'Q' is not a local cache mutation: it is marked @apollo_client_ios_localcachemutation, "
            + "not @apollo_client_ios_localCacheMutation (directive names are case-sensitive)\n")
        let letterOff = gqlcache("update", cache, "--text", "query Q @apollo_client_ios_localCacheMutaton { hero(episode: NEWHOPE) { name } }",
                                 "--set", "hero.name=X")
        XCTAssertEqual(letterOff.stderr, "gqlcache: query 'Q' is not a local cache mutation: it is marked @apollo_client_ios_localCacheMutaton, "
            + "not @apollo_client_ios_localCacheMutation\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Apollo declares the directive on mutations too: a marked mutation
    /// reads and writes from MUTATION_ROOT.
    func testAMarkedMutationUpdatesTheMutationRoot() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let mutation = #"mutation C @apollo_client_ios_localCacheMutation { createReview(episode: JEDI, review: {stars: 5, commentary: "This is a great movie!"}) { stars } }"#
        let result = gqlcache("update", cache, "--text", mutation, "--set", "createReview.stars=4")
        XCTAssertEqual(result.status, .success, result.stderr)
        let key = "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])"
        XCTAssertEqual(result.lines.first, key)
        XCTAssertEqual(try records(cache)[key]?["stars"], .int(4))
    }

    func testAVariableTheQueryDoesNotDefineIsNamedInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--var", "epsiode=JEDI", "--set", "hero.name=R2")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").first, "gqlcache: warning: operation 'HeroName' does not define $epsiode, so it was not used; it defines $episode")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R2"))
    }

    /// With a schema, a __typename given at a fragment's root is checked as
    /// one below it is: an object type of the fragment's type condition
    /// (the type read there stays), never an interface or an unknown type.
    func testWithASchemaAFragmentsOwnTypenameMustFitAsAnyObjectsMust() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let fragment = "fragment HumanName on Human @apollo_client_ios_localCacheMutation { name }"
        for (typename, why) in [
            ("Wookiee", "the schema has no object type 'Wookiee'"), ("Droid", "the fragment is on Human"),
            ("Character", "Character is an interface or union, and a __typename names an object type"),
        ] {
            let result = gqlcache("update", cache, "--text", fragment, "--fragment", "HumanName", "--key", "Human:1000", "--schema", starWarsSchema,
                                  "--set", "__typename=\(typename)")
            XCTAssertEqual(result.status, .usage, result.stderr)
            XCTAssertEqual(result.stderr, "gqlcache: --set: cannot write __typename: \"\(typename)\" does not fit: \(why); nothing written\n")
        }
        let response = path("hero.json")
        try #"{"hero":{"__typename":"Character","id":"2001","name":"R2"}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let interface = gqlcache("write", cache, "--text", "{ hero(episode: NEWHOPE) { id name } }", "--schema", starWarsSchema, "--response", response)
        XCTAssertEqual(interface.status, .usage)
        XCTAssertTrue(interface.stderr.contains("cannot write hero.__typename: \"Character\" does not fit: Character is an interface or union"), interface.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Apollo writes a fragment at any key; with a schema, a record of a
    /// type the fragment is not on is named in a warning.
    func testAFragmentAtARecordOfAnotherTypeIsWrittenWithAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let warning = "gqlcache: warning: fragment 'HumanName' is on Human, but Droid:2001 has __typename Droid; Apollo writes it all the same, so check the key\n"
        let result = gqlcache("update", cache, "--text", "fragment HumanName on Human @apollo_client_ios_localCacheMutation { name }",
                              "--fragment", "HumanName", "--key", "Droid:2001", "--schema", starWarsSchema, "--set", "name=R2")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, warning)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R2"))
        // Its fields are typed as the fragment declares them, as in Apollo's
        // generated model: nullable ones the Droid lacks (homePlanet, mass)
        // are left out, as on a Human.
        let details = update(cache, "--fragment", "HumanDetails", "--key", "Droid:2001", "--schema", starWarsSchema, "--set", "name=R3")
        XCTAssertEqual(details.status, .success, details.stderr)
        XCTAssertEqual(details.stderr, warning.replacingOccurrences(of: "HumanName", with: "HumanDetails"))
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R3"))
        XCTAssertNil(try records(cache)["Droid:2001"]?["homePlanet"])
        // A non-null one is a miss; the warning comes before it, which it explains.
        let miss = gqlcache("update", cache, "--text", "fragment J on Human @apollo_client_ios_localCacheMutation { name isJedi }",
                            "--fragment", "J", "--key", "Droid:2001", "--schema", starWarsSchema, "--set", "name=R4")
        XCTAssertEqual(miss.status, .notFound)
        XCTAssertEqual(miss.stderr, warning.replacingOccurrences(of: "HumanName", with: "J")
            + "gqlcache: cannot update fragment J at Droid:2001: cache miss at isJedi: record 'Droid:2001' has no field 'isJedi'\n")
        let human = update(cache, "--fragment", "HumanDetails", "--key", "Human:1000", "--schema", starWarsSchema, "--set", "mass=80.5")
        XCTAssertEqual(human.status, .success, human.stderr)
        XCTAssertEqual(human.stderr, "")
    }

    /// A fragment is written at its --key whatever its data says: a new
    /// __typename, or an id that keys another record, is written there, as
    /// Apollo's update does, with a warning naming what changed.
    func testAFragmentUpdateThatMakesItsDataNameAnotherObjectIsWarnedOf() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let fragment = "fragment F on Human @apollo_client_ios_localCacheMutation { __typename id name }"
        func run(_ arguments: String...) -> CommandResult {
            gqlcache(arguments: ["update", cache, "--text", fragment, "--fragment", "F", "--key", "Human:1000"] + arguments)
        }
        let id = run("--set", "id=9999", "--key-field", "Human=id")
        XCTAssertEqual(id.status, .success, id.stderr)
        XCTAssertEqual(
            id.stderr, "gqlcache: warning: the data's key fields give Human:9999, not Human:1000; Apollo writes a fragment at the key it is given, "
                + "so the record stays Human:1000 and a reference to Human:9999 does not reach it\n")
        XCTAssertEqual(try records(cache)["Human:1000"]?["id"], .string("9999"))
        // Data read with key fields that already gave another key is not warned of again.
        let again = run("--set", "name=Luke", "--key-field", "Human=id")
        XCTAssertEqual(again.status, .success, again.stderr)
        XCTAssertEqual(again.stderr, "")
        // The key-field named the root's type, so it keyed something: no "keyed nothing" warning.
        let named = run("--set", "id=1000", "--key-field", "Human=id", "--dry-run")
        XCTAssertEqual(named.status, .success, named.stderr)
        XCTAssertEqual(named.stderr, "")
        let typename = run("--set", "__typename=Droid", "--dry-run")
        XCTAssertEqual(typename.status, .success, typename.stderr)
        XCTAssertEqual(
            typename.stderr,
            "gqlcache: warning: the data would change the __typename of Human:1000 from \"Human\" to \"Droid\"; Apollo writes it all the same, so check the key\n")
    }

    func testAFragmentUpdatesTheRecordAtItsKeyAndUnchangedRecordsKeepTheirRows() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        let rows = try rowIDs(cache)
        let result = update(cache, "--fragment", "HumanDetails", "--key", "Human:1000", "--schema", starWarsSchema,
                            "--set", "mass=80.5", "--set", "homePlanet=null", "--set", "name=Luke Skywalker")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines, [
            "Human:1000",
            #"  homePlanet: "Tatooine" → null"#,
            "  mass: null → 80.5",
            "1 record changed (2 fields)",
        ])
        var expected = before
        expected["Human:1000"]!["mass"] = .double(80.5)
        expected["Human:1000"]!["homePlanet"] = .null
        XCTAssertEqual(try records(cache), expected)
        // Apollo's upsert keeps the row of a changed record, and leaves the others alone.
        XCTAssertEqual(try rowIDs(cache), rows)
    }

    func testRemovingAListElementMovesReferencesAndCopiesNoData() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        let data = path("data.json")
        try #"{"hero":{"__typename":"Droid","name":"R2-D2","friends":[{"__typename":"Human","name":"Han Solo"},null]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--data", data)
        XCTAssertEqual(result.status, .success, result.stderr)
        var expected = before
        expected["Droid:2001"]!["friends"] = .list([.reference(CacheKey("Human:1002")), .null])
        XCTAssertEqual(try records(cache), expected)
    }

    /// Dropping Luke and renaming Han, in a selection without `id`: the
    /// renamed Han at index 0 is not Luke, whose place it took. With the
    /// list's length changed, a changed element without an id could be any
    /// of those read, so the update is refused, naming how to say which.
    func testAChangedElementWithoutAnIdInAListThatLostElementsIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let data = path("data.json")
        try #"{"hero":{"__typename":"Droid","name":"R2-D2","friends":[{"__typename":"Human","name":"Han2"},null]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--data", data)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: \(data): cannot write hero.friends.0: 'hero.friends' has 2 elements where 3 were read, "
            + "not only at the end, so this object, changed and without an id, may be any of those read, not only "
            + "Human:1000 read at its place; select id, or give --key-field Human=id to key it by its data as the app does; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
        // A selection with id: the data is what lacks it.
        let withID = "query F @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { name friends { id name } } }"
        try #"{"hero":{"__typename":"Droid","name":"R2-D2","friends":[{"__typename":"Human","name":"Han2"},{"__typename":"Human","id":"1000","name":"Luke Skywalker"}]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let lacking = gqlcache("update", cache, "--text", withID, "--data", data)
        XCTAssertEqual(lacking.status, .usage)
        XCTAssertEqual(lacking.stderr, "gqlcache: \(data): cannot write hero.friends.0.id: the data has no 'id', which the selection asks for; nothing written\n")
        try #"{"hero":{"__typename":"Droid","name":"R2-D2","friends":[{"__typename":"Human","name":"Han2"},{"__typename":"Human","ident":"1000","name":"Luke Skywalker"}]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let aliased = gqlcache("update", cache, "--text", withID.replacingOccurrences(of: "{ id name }", with: "{ ident: id name }"), "--data", data)
        XCTAssertEqual(aliased.stderr, "gqlcache: \(data): cannot write hero.friends.0.ident: the data has no 'ident', which the selection asks for; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
        // The same length: each element is the one read at its place.
        try #"{"hero":{"__typename":"Droid","name":"R2-D2","friends":[{"__typename":"Human","name":"Luke"},{"__typename":"Human","name":"Han Solo"},null]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let inPlace = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--data", data, "-q")
        XCTAssertEqual(inPlace.status, .success, inPlace.stderr)
        XCTAssertEqual(try records(cache)["Human:1000"]?["name"], .string("Luke"))
        // With every other element as read at its place, only the end
        // changed: the edited one is the one read there.
        try #"{"hero":{"__typename":"Droid","name":"R2-D2","friends":[{"__typename":"Human","name":"Luke"},{"__typename":"Human","name":"Han"}]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let dropped = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--data", data, "-q")
        XCTAssertEqual(dropped.status, .success, dropped.stderr)
        XCTAssertEqual(try records(cache)["Human:1002"]?["name"], .string("Han"))
        XCTAssertEqual(try records(cache)["Human:1000"]?["name"], .string("Luke"))
    }

    /// Luke and Han alike in all the selection holds (`friends { __typename }`):
    /// with one of them gone from a list that lost an element, the one left
    /// could be either, and keeping the one read at its place would drop
    /// Han where Luke was removed. Refused, as for a changed element; with
    /// as many alike as were read, each is the one read at its place.
    func testAnElementAlikeToSeveralReadInAListThatLostOneIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query F @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { friends { __typename } } }"
        let data = path("data.json")
        try #"{"hero":{"__typename":"Droid","friends":[{"__typename":"Human"},null]}}"#.write(toFile: data, atomically: true, encoding: .utf8)
        XCTAssertEqual(try refusal(updating: cache, query: query, data: data),
                       "gqlcache: \(data): cannot write hero.friends.0: 'hero.friends' has 2 elements where 3 were read, "
            + "and 1 alike in all the selection holds where 2 were (Human:1000, Human:1002), so which of those are kept cannot be told; "
            + "select id, or give --key-field Human=id to key them by their data as the app does; nothing written\n")
        // The null dropped: both are still there, each at its place.
        try #"{"hero":{"__typename":"Droid","friends":[{"__typename":"Human"},{"__typename":"Human"}]}}"#.write(toFile: data, atomically: true, encoding: .utf8)
        let kept = gqlcache("update", cache, "--text", query, "--data", data, "-q")
        XCTAssertEqual(kept.status, .success, kept.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["friends"], .list([.reference(CacheKey("Human:1000")), .reference(CacheKey("Human:1002"))]))
        // One appended: those read are all still there, and the new one is new.
        try #"{"hero":{"__typename":"Droid","friends":[{"__typename":"Human"},{"__typename":"Human"},{"__typename":"Human"}]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let appended = gqlcache("update", cache, "--text", query, "--data", data, "-q")
        XCTAssertEqual(appended.status, .success, appended.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["friends"], .list([
            .reference(CacheKey("Human:1000")), .reference(CacheKey("Human:1002")), .reference(CacheKey("Droid:2001.friends.2")),
        ]))
        // Luke read twice beside Han: one of the three gone could be Han.
        _ = try sqliteShell(cache, #"UPDATE records SET record = json_set(record, '$.friends', json('[{"$reference":"Human:1000"},{"$reference":"Human:1000"},{"$reference":"Human:1002"}]')) WHERE key = 'Droid:2001'"#)
        try #"{"hero":{"__typename":"Droid","friends":[{"__typename":"Human"},{"__typename":"Human"}]}}"#.write(toFile: data, atomically: true, encoding: .utf8)
        let twice = gqlcache("update", cache, "--text", query, "--data", data)
        XCTAssertEqual(twice.status, .usage)
        XCTAssertTrue(twice.stderr.contains("and 2 alike in all the selection holds where 3 were (Human:1000, Human:1002)"), twice.stderr)
        // One of them changed at its place, and one appended: none is gone.
        let named = "query N @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { friends { __typename name } } }"
        _ = try sqliteShell(cache, "UPDATE records SET record = json_set(record, '$.name', 'Same') WHERE key IN ('Human:1000', 'Human:1002')")
        _ = try sqliteShell(cache, #"UPDATE records SET record = json_set(record, '$.friends', json('[{"$reference":"Human:1000"},{"$reference":"Human:1002"},null]')) WHERE key = 'Droid:2001'"#)
        let changed = gqlcache("update", cache, "--text", named, "--set", "hero.friends.1.name=Other",
                               "--set", #"hero.friends.3={"__typename":"Human","name":"New"}"#, "-q")
        XCTAssertEqual(changed.status, .success, changed.stderr)
        XCTAssertEqual(try records(cache)["Human:1002"]?["name"], .string("Other"))
        XCTAssertEqual(try records(cache)["Human:1000"]?["name"], .string("Same"))
    }

    /// Elements alike in all the selection holds that move are as many
    /// records as moved, never one record twice: of kinds A, A, B, B, C,
    /// C, the two Bs moved to the front are both Bs read. An element
    /// appended like one changed at its place is a new object, not the
    /// record that one keeps.
    func testAlikeElementsThatMoveTakeOneRecordEach() throws {
        let cache = path("items.sqlite")
        let response = #"{"items":["# + ["A", "A", "B", "B", "C", "C"].enumerated().map {
            #"{"__typename":"Item","id":"\#($0.offset)","kind":"\#($0.element)"}"#
        }.joined(separator: ",") + "]}"
        let written = gqlcache("write", cache, "--create", "--text", "{ items { __typename id kind } }", "--response", "-",
                               "--key-field", "Item=id", "-q", input: response)
        XCTAssertEqual(written.status, .success, written.stderr)
        let query = "query K @apollo_client_ios_localCacheMutation { items { __typename kind } }"
        func items() throws -> FieldValue? { try records(cache)["QUERY_ROOT"]?["items"] }
        func references(_ ids: [Int]) -> FieldValue { .list(ids.map { .reference(CacheKey("Item:\($0)")) }) }
        let data = path("data.json")
        for (kinds, expected) in [(["B", "B", "C", "C"], [2, 3, 4, 5]), (["C", "C", "B", "B", "A", "A"], [4, 5, 2, 3, 0, 1])] {
            let before = try bytes(cache)
            try (#"{"items":["# + kinds.map { #"{"__typename":"Item","kind":"\#($0)"}"# }.joined(separator: ",") + "]}")
                .write(toFile: data, atomically: true, encoding: .utf8)
            let result = gqlcache("update", cache, "--text", query, "--data", data, "-q")
            XCTAssertEqual(result.status, .success, result.stderr)
            XCTAssertEqual(try items(), references(expected), "\(kinds)")
            try before.write(to: URL(fileURLWithPath: cache))
        }
        // One put before them all: those alike keep the order they were read in.
        let before = try bytes(cache)
        try (#"{"items":["# + ["D", "A", "A", "B", "B", "C", "C"].map { #"{"__typename":"Item","kind":"\#($0)"}"# }.joined(separator: ",") + "]}")
            .write(toFile: data, atomically: true, encoding: .utf8)
        let prepended = gqlcache("update", cache, "--text", query, "--data", data, "-q")
        XCTAssertEqual(prepended.status, .success, prepended.stderr)
        XCTAssertEqual(try items(), .list([.reference(CacheKey("QUERY_ROOT.items.0"))] + (0..<6).map { .reference(CacheKey("Item:\($0)")) }))
        try before.write(to: URL(fileURLWithPath: cache))
        let appended = gqlcache("update", cache, "--text", query, "--set", "items.0.kind=Z",
                                "--set", #"items.6={"__typename":"Item","kind":"A"}"#, "-q")
        XCTAssertEqual(appended.status, .success, appended.stderr)
        XCTAssertEqual(try items(), .list((0..<6).map { .reference(CacheKey("Item:\($0)")) } + [.reference(CacheKey("QUERY_ROOT.items.6"))]))
        XCTAssertEqual(try records(cache)["Item:0"]?["kind"], .string("Z"))
    }

    /// Which record each element of a list is, worked out for the whole
    /// list: the inner lists of a list of lists move with their elements;
    /// an element inserted before the one element read is new; one changed
    /// where another now stands could be any of those left, and is
    /// refused; values set at paths change elements where they are.
    func testEachElementOfAListIsMatchedOnceForTheWholeList() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let search = #"query S @apollo_client_ios_localCacheMutation { search(filter: {text: "sky", limit: 2, tags: ["a","b"], near: {lat: 1.5, lng: -2.0}}) { __typename name } }"#
        let before = try records(cache)
        let data = path("data.json")
        try #"{"search":[[{"__typename":"Droid","name":"R2-D2"}],[{"__typename":"Human","name":"Luke Skywalker"},null]]}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let reversed = gqlcache("update", cache, "--text", search, "--data", data, "-q")
        XCTAssertEqual(reversed.status, .success, reversed.stderr)
        var expected = before
        let searchKey = #"search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"#
        expected["QUERY_ROOT"]![searchKey] = .list([.list([.reference(CacheKey("Droid:2001"))]), .list([.reference(CacheKey("Human:1000")), .null])])
        XCTAssertEqual(try records(cache), expected, "only the order of the inner lists changed")

        let friends = "query F @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { friendsConnection(first: 2, after: null) { friends { __typename name } } } }"
        try #"{"hero":{"friendsConnection":{"friends":[{"__typename":"Human","name":"New"},{"__typename":"Human","name":"Luke Skywalker"}]}}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let inserted = gqlcache("update", cache, "--text", friends, "--data", data, "-q")
        XCTAssertEqual(inserted.status, .success, inserted.stderr)
        let connection = "Droid:2001.friendsConnection(after:null,first:2)"
        XCTAssertEqual(try records(cache)[connection]?["friends"],
                       .list([.reference(CacheKey(connection + ".friends.0")), .reference(CacheKey("Human:1000"))]))
        XCTAssertEqual(try records(cache)["Human:1000"]?["name"], .string("Luke Skywalker"))

        let blog = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: blog)
        let feed = "query T @apollo_client_ios_localCacheMutation { feed(first: 10) { __typename title } }"
        let titles = try XCTUnwrap(gqlcache("read", blog, "--text", feed, "--format", "json").stdout.data(using: .utf8))
        var posts = try XCTUnwrap((try JSONSerialization.jsonObject(with: titles) as? [String: [[String: String]]])?["feed"])
        let original = posts.map { $0["title"]! }
        posts.swapAt(0, 1)
        posts[0]["title"] = "X"
        try JSONSerialization.data(withJSONObject: ["feed": posts]).write(to: URL(fileURLWithPath: data))
        XCTAssertEqual(try refusal(updating: blog, query: feed, data: data),
                       "gqlcache: \(data): cannot write feed.0: 'feed' holds elements read at other places in it, and this object, "
            + "changed and without an id where another now stands, may be any of those read that it no longer holds as they were (Post:2); "
            + "select id, or give --key-field Post=id to key it by its data as the app does; nothing written\n")
        // Two titles set at their paths, each the other's as read: changed where they are, not moved.
        let set = gqlcache("update", blog, "--text", feed, "--set", "feed.0.title=\(original[2])", "--set", "feed.2.title=\(original[0])", "-q")
        XCTAssertEqual(set.status, .success, set.stderr)
        XCTAssertEqual(try records(blog)["QUERY_ROOT"]?["feed(first:10)"], .list((1...10).map { .reference(CacheKey("Post:\($0)")) }))
        XCTAssertEqual(try records(blog)["Post:1"]?["title"], .string(original[2]))
        XCTAssertEqual(try records(blog)["Post:3"]?["title"], .string(original[0]))
    }

    /// A new element standing where another was read holds new objects,
    /// not those read under that place (which moved on with their own
    /// element); and an inner list of a list of lists that moved and
    /// changed is still the one read that holds its elements.
    func testANewElementAndAChangedInnerListHoldWhatIsTheirs() throws {
        let blog = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: blog)
        let feed = "query T @apollo_client_ios_localCacheMutation { feed(first: 10) { __typename title author { __typename name } } }"
        let read = gqlcache("read", blog, "--text", feed, "--format", "json")
        var posts = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: [Any]])?["feed"])
        posts.insert(["__typename": "Post", "title": "New", "author": ["__typename": "User", "name": "Grace Lovelace"]], at: 0)
        let data = path("data.json")
        try JSONSerialization.data(withJSONObject: ["feed": posts]).write(to: URL(fileURLWithPath: data))
        let users = try records(blog).filter { $0.key.hasPrefix("User:") }
        let prepended = gqlcache("update", blog, "--text", feed, "--data", data, "-q")
        XCTAssertEqual(prepended.status, .success, prepended.stderr)
        let first = "QUERY_ROOT.feed(first:10).0"
        XCTAssertEqual(try records(blog)[first]?["author"], .reference(CacheKey(first + ".author")), "Post:1's author stays Post:1's")
        XCTAssertEqual(try records(blog)[first + ".author"]?["name"], .string("Grace Lovelace"))
        XCTAssertEqual(try records(blog).filter { $0.key.hasPrefix("User:") }, users)

        let cache = try copyOfFixture("starwars.sqlite")
        let search = #"query S @apollo_client_ios_localCacheMutation { search(filter: {text: "sky", limit: 2, tags: ["a","b"], near: {lat: 1.5, lng: -2.0}}) { __typename } }"#
        let searchKey = #"search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"#
        try #"{"search":[[{"__typename":"Droid"},{"__typename":"Human"}],[{"__typename":"Human"},null]]}"#.write(toFile: data, atomically: true, encoding: .utf8)
        let grown = gqlcache("update", cache, "--text", search, "--data", data, "-q")
        XCTAssertEqual(grown.status, .success, grown.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?[searchKey], .list([
            .list([.reference(CacheKey("Droid:2001")), .reference(CacheKey("QUERY_ROOT.\(searchKey).0.1"))]),
            .list([.reference(CacheKey("Human:1000")), .null]),
        ]))
        XCTAssertEqual(try records(cache)["Human:1000"]?["__typename"], .string("Human"))
        XCTAssertEqual(try records(cache)["Droid:2001"]?["__typename"], .string("Droid"))
    }

    /// An object that moves in its list takes its fields with it: with
    /// a user's posts reversed, each post's comment (selected without an
    /// id) is still the one read under that post, not the one read under
    /// the post that was at its new place; and authors stay with their
    /// posts when the feed is reversed or loses its first post.
    func testObjectsInsideAnElementThatMovedAreTheOnesReadUnderIt() throws {
        let cache = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: cache)
        let posts = "query M @apollo_client_ios_localCacheMutation { user(id: \"2\") { __typename id posts(first: 2) { __typename id comments(first: 1) { __typename text } } } }"
        let before = try records(cache)
        let read = gqlcache("read", cache, "--text", posts, "--format", "json")
        XCTAssertEqual(read.status, .success, read.stderr)
        let data = path("data.json")
        func reversed(_ json: String, at keyPath: [String]) throws -> String {
            var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            func reverse(_ value: inout [String: Any], _ path: ArraySlice<String>) {
                guard let first = path.first else { return }
                if path.count == 1 {
                    value[first] = (value[first] as? [Any])?.reversed() as [Any]?
                } else if var inner = value[first] as? [String: Any] {
                    reverse(&inner, path.dropFirst())
                    value[first] = inner
                }
            }
            reverse(&object, keyPath[...])
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        try reversed(read.stdout, at: ["user", "posts"]).write(toFile: data, atomically: true, encoding: .utf8)
        let result = gqlcache("update", cache, "--text", posts, "--data", data, "-q")
        XCTAssertEqual(result.status, .success, result.stderr)
        var expected = before
        expected["User:2"]!["posts(first:2)"] = .list([.reference(CacheKey("Post:4")), .reference(CacheKey("Post:3"))])
        XCTAssertEqual(try records(cache), expected, "only the order of the posts changed")
        let users = expected.filter { $0.key.hasPrefix("User:") }
        // Posts without an id, keyed by what they hold, and their authors.
        let feed = "query F @apollo_client_ios_localCacheMutation { feed(first: 10) { __typename title author { __typename name } } }"
        let feedRead = gqlcache("read", cache, "--text", feed, "--format", "json")
        try reversed(feedRead.stdout, at: ["feed"]).write(toFile: data, atomically: true, encoding: .utf8)
        let feedResult = gqlcache("update", cache, "--text", feed, "--data", data, "-q")
        XCTAssertEqual(feedResult.status, .success, feedResult.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["feed(first:10)"], .list((1...10).reversed().map { .reference(CacheKey("Post:\($0)")) }))
        XCTAssertEqual(try records(cache).filter { $0.key.hasPrefix("User:") }, users, "every author stays with its post")
    }

    /// Without a schema to refuse it, `likes=1O` (a letter O) where the data
    /// holds a number is written as the text it is, which the app's Int
    /// decoding then fails on: a warning says so. JSON and a schema say
    /// nothing more.
    func testSettingTextThatIsNotJSONWhereTheDataHoldsANumberIsWarnedOf() throws {
        let cache = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: cache)
        let fragment = "fragment P on Post @apollo_client_ios_localCacheMutation { likes }"
        let typo = gqlcache("update", cache, "--text", fragment, "--fragment", "P", "--key", "Post:3", "--set", "likes=1O", "--dry-run")
        XCTAssertEqual(typo.status, .success, typo.stderr)
        XCTAssertEqual(typo.stderr, #"gqlcache: warning: --set likes: "1O" is not JSON, so it is written as a string where the data holds 131; "#
            + "the app's model reads that field as a number, so check the value\n")
        let number = gqlcache("update", cache, "--text", fragment, "--fragment", "P", "--key", "Post:3", "--set", "likes=12", "--dry-run")
        XCTAssertEqual(number.stderr, "")
        let quoted = gqlcache("update", cache, "--text", fragment, "--fragment", "P", "--key", "Post:3", "--set", #"likes="12""#, "--dry-run")
        XCTAssertEqual(quoted.stderr, "", "a JSON string is meant")
        // Text that begins as JSON but is not (a brace left out) is written as a string, with a warning.
        let meta = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { meta } }"
        let brace = gqlcache("update", try copyOfFixture("starwars.sqlite", as: "brace.sqlite"), "--text", meta, "--set", #"reviews.0.meta={"a":1"#, "--dry-run")
        XCTAssertEqual(brace.status, .success, brace.stderr)
        XCTAssertEqual(brace.stderr, #"gqlcache: warning: --set reviews.0.meta: "{\"a\":1" begins as JSON but is not (invalid JSON: unterminated object at byte 7), "#
            + #"so it is written as a string; give it as a JSON string ("…") to mean the text"# + "\n")
        // A schema that types the field refuses the text, so no warning comes before the refusal.
        let typed = gqlcache("update", cache, "--text", fragment, "--fragment", "P", "--key", "Post:3", "--set", "likes=1O", "--dry-run",
                             "--schema", repositoryRoot.appendingPathComponent("Examples/blog.graphqls").path)
        XCTAssertEqual(typed.status, .usage)
        XCTAssertFalse(typed.stderr.contains("warning"), typed.stderr)
        // Inside a custom scalar it types nothing, and the warning comes with a schema too.
        let reviews = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { meta } }"
        let inside = gqlcache("update", try copyOfFixture("starwars.sqlite", as: "inside.sqlite"), "--text", reviews, "--set", "reviews.0.meta.score=1O",
                              "--schema", starWarsSchema, "--dry-run")
        XCTAssertEqual(inside.status, .success, inside.stderr)
        XCTAssertEqual(inside.stderr, #"gqlcache: warning: --set reviews.0.meta.score: "1O" is not JSON, so it is written as a string where the data holds 1.5; "#
            + "the app's model reads that field as a number, so check the value\n")
        // An element of a list of numbers too.
        let ships = #"query S @apollo_client_ios_localCacheMutation { human(id: "1000") { id starships { id coordinates } } }"#
        let element = gqlcache("update", try copyOfFixture("starwars.sqlite"), "--text", ships, "--set", "human.starships.0.coordinates.0.0=x", "--dry-run")
        XCTAssertEqual(element.stderr, #"gqlcache: warning: --set human.starships.0.coordinates.0.0: "x" is not JSON, so it is written as a string "#
            + "where the data holds 1; the app's model reads that field as a number, so check the value\n")
    }

    /// A fragment's key with no record is named as show and read name it,
    /// with the nearest keys: `post:3` for `Post:3` is a slip of the shift key.
    func testAFragmentKeyWithNoRecordIsNamedWithTheNearestKeys() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = update(cache, "--fragment", "HumanDetails", "--key", "human:1000", "--set", "name=Luke")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record 'human:1000' in \(cache); nearest keys: Human:1000\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// The report shows what the file holds afterwards: Apollo stores a
    /// whole Double as an integer, so 77.0 is reported as the 77 stored.
    func testTheChangeReportShowsNumbersAsStored() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = update(cache, "--fragment", "HumanDetails", "--key", "Human:1000", "--schema", starWarsSchema, "--set", "mass=77.0", "--format", "jsonl")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, #"{"key":"Human:1000","new":false,"field":"mass","before":null,"after":77}"# + "\n")
        XCTAssertEqual(try sqliteShell(cache, "SELECT json_extract(record, '$.mass') FROM records WHERE key = 'Human:1000'"), "77")
        let text = update(cache, "--fragment", "HumanDetails", "--key", "Human:1000", "--schema", starWarsSchema, "--set", "mass=80.0")
        XCTAssertEqual(text.lines, ["Human:1000", "  mass: 77 → 80", "1 record changed (1 field)"])
    }

    /// What read prints has no __typename (update adds it to the selection):
    /// edited and given back with --data, each object keeps the type it was
    /// read as; a new object without one is refused with what to add.
    func testDataAsReadPrintsItWritesBackAndANewObjectNeedsItsTypename() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = "query Q @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { name friends { name } } }"
        let read = gqlcache("read", cache, "--text", document, "--format", "json")
        XCTAssertEqual(read.stdout, #"{"hero":{"name":"R2-D2","friends":[{"name":"Luke Skywalker"},{"name":"Han Solo"},null]}}"# + "\n")
        let data = path("data.json")
        try read.stdout.replacingOccurrences(of: "Han Solo", with: "Han").write(toFile: data, atomically: true, encoding: .utf8)
        let result = gqlcache("update", cache, "--text", document, "--data", data)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines, ["Human:1002", #"  name: "Han Solo" → "Han""#, "1 record changed (1 field)"])
        // A fragment's own object, at its key, too.
        try #"{"name":"Luke","homePlanet":"Tatooine","mass":null}"#.write(toFile: data, atomically: true, encoding: .utf8)
        let fragment = update(cache, "--fragment", "HumanDetails", "--key", "Human:1000", "--data", data)
        XCTAssertEqual(fragment.status, .success, fragment.stderr)
        XCTAssertEqual(fragment.lines, ["Human:1000", #"  name: "Luke Skywalker" → "Luke""#, "1 record changed (1 field)"])

        try #"{"hero":{"name":"R2-D2","friends":[{"name":"Luke Skywalker"},{"name":"Han"},{"name":"Chewie"}]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let before = try bytes(cache)
        let added = gqlcache("update", cache, "--text", document, "--data", data)
        XCTAssertEqual(added.status, .usage)
        XCTAssertEqual(added.stderr, #"gqlcache: \#(data): cannot write hero.friends.2.__typename: the data has no '__typename', which Apollo's generated models select in every object; give it for each new object, e.g. "__typename": "TypeName"; nothing written"# + "\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Where the schema says a field's type is an object type, a new object
    /// there is of that type, as the app's generated model for it is; an
    /// interface or union still needs the data to say which type.
    func testWithASchemaANewObjectOfAnObjectTypedFieldGetsItsTypename() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query Q @apollo_client_ios_localCacheMutation { human(id: 1000) { starships { name } } }"
        let added = gqlcache("update", cache, "--schema", starWarsSchema, "--text", query, "--set", #"human.starships.1={"name":"X-wing"}"#)
        XCTAssertEqual(added.status, .success, added.stderr)
        XCTAssertEqual(try records(cache)["Human:1000.starships.1"]?["__typename"], .string("Starship"))
        let before = try bytes(cache)
        let heroFriends = "query F @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { friends { name } } }"
        let friend = gqlcache("update", cache, "--schema", starWarsSchema, "--text", heroFriends, "--set", #"hero.friends.2={"name":"Han"}"#)
        XCTAssertEqual(friend.status, .usage)
        XCTAssertTrue(friend.stderr.contains("cannot write hero.friends.2.__typename: the data has no '__typename'"), friend.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// A new object where a keyed one was moves the reference to a path
    /// key, and the keyed record goes stale: said, as write says it.
    func testANewObjectWhereAKeyedOneWasIsWarnedOf() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let replaced = gqlcache("update", cache, "--text", "query Q @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id friends { id name } } }",
                                "--set", #"hero.friends.0={"__typename":"Human","id":"1003","name":"Leia"}"#, "--dry-run")
        XCTAssertEqual(replaced.status, .success, replaced.stderr)
        XCTAssertEqual(replaced.stderr, "gqlcache: warning: Droid:2001 friends[0] would point at Droid:2001.friends.0, not Human:1000: objects without a key field are keyed by their path; if the app keys them (by id, say), give --key-field (e.g. '*=id') or a schema with @typePolicy\n")
    }

    /// A list reordered around a new object without its key field: the
    /// keyed records it held are still in it, so no reference moved; the
    /// new object is written at its path key, and that is what is said.
    func testAReorderedListWithANewUnkeyedObjectWarnsOfThatObjectNotOfAMove() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let data = path("friends.json")
        try #"{"hero":{"__typename":"Droid","id":"2001","friends":[{"__typename":"Human","id":"1002","name":"Han Solo"},{"__typename":"Human","id":null,"name":"Leia"},null,{"__typename":"Human","id":"1000","name":"Luke Skywalker"}]}}"#
            .write(toFile: data, atomically: true, encoding: .utf8)
        let result = gqlcache("update", cache, "--text", "query F @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { __typename id friends { __typename id name } } }",
                              "--data", data, "--key-field", "Human=id", "--dry-run")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: hero.friends.1: the Human would be written at its path key, Droid:2001.friends.1, as Apollo keys it: "
            + "the data has no value for 'id' (its key field) that can key it (a string, a number or a boolean); give one in the data to key it\n")
    }

    /// Without a key policy an object is written back into the record it
    /// was read from; where the selection has no id, an app keying the
    /// type by id would have Apollo write it at its path key: said once,
    /// with how to do the same.
    func testAnObjectKeptInItsRecordWithoutAnIDIsWarnedOf() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.name=R2")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: hero was written into Droid:2001, the record it was read from (and 2 more); the selection has no id, so if the app keys Droid by id, Apollo writes it at QUERY_ROOT.hero(episode:NEWHOPE) instead: give --key-field Droid=id (or '*=id') to do the same, or select id\n")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R2"))
        let quiet = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.name=R3", "-q")
        XCTAssertEqual(quiet.stdout, "", "--quiet leaves out the report")
        XCTAssertEqual(quiet.stderr, result.stderr, "and keeps the warning")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("R3"))
        // Nothing written, nothing to warn of; with id selected, or a key policy, there is no guess to make.
        let unchanged = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.name=R3")
        XCTAssertEqual(unchanged.stdout, "nothing to write: the cache already holds this data\n")
        XCTAssertEqual(unchanged.stderr, "")
        let withID = gqlcache("update", cache, "--text", "query I @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { id name } }", "--set", "hero.name=R4")
        XCTAssertEqual(withID.stderr, "")
        let keyed = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.name=R5", "--key-field", "*=id", "--dry-run")
        XCTAssertFalse(keyed.stderr.contains("the record it was read from"), keyed.stderr)
        let fragment = update(cache, "--fragment", "HumanDetails", "--key", "Human:1000", "--set", "name=Luke")
        XCTAssertEqual(fragment.stderr, "")
    }

    /// With the app's key fields known (--key-field or @typePolicy), an
    /// object whose selection lacks them is written at its path key, as
    /// Apollo writes it, not back into the record it was read from.
    func testAKnownKeyFieldTheSelectionLacksWritesAtThePathKeyAsApolloDoes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try records(cache)
        let document = #"query L @apollo_client_ios_localCacheMutation { human(id: "1000") { name } }"#
        let keyed = gqlcache("update", cache, "--text", document, "--set", "human.name=Luke", "--key-field", "Human=id")
        XCTAssertEqual(keyed.status, .success, keyed.stderr)
        XCTAssertEqual(
            keyed.stderr,
            "gqlcache: warning: QUERY_ROOT human(id:1000) now points at QUERY_ROOT.human(id:1000), not Human:1000: the Human written "
                + "has no 'id', its key field, so it is keyed by its path, as Apollo keys it; select 'id' to key it by its data\n")
        let after = try records(cache)
        XCTAssertEqual(after["QUERY_ROOT.human(id:1000)"], ["__typename": .string("Human"), "name": .string("Luke")])
        XCTAssertEqual(after["Human:1000"], before["Human:1000"], "the record read from is left as it was")
        // Selected, the key field keeps the object in its record.
        let withID = #"query L @apollo_client_ios_localCacheMutation { human(id: "1000") { id name } }"#
        let other = try copyOfFixture("starwars.sqlite", as: "other.sqlite")
        let kept = gqlcache("update", other, "--text", withID, "--set", "human.name=Luke", "--key-field", "Human=id")
        XCTAssertEqual(kept.stderr, "")
        XCTAssertEqual(try records(other)["Human:1000"]?["name"], .string("Luke"))
    }

    /// Key-less list elements live at path keys by position
    /// (`….reviews(…).0`): Apollo writes the new list by position, over
    /// those records, and never moves one to another place.
    func testPathKeyedListElementsAreWrittenByPositionAsApolloDoes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let document = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { stars commentary } }"
        let list = "reviews(episode:JEDI,first:2)"
        let first = CacheKey("QUERY_ROOT.\(list).0"), second = CacheKey("QUERY_ROOT.\(list).1")
        let before = try records(cache)
        XCTAssertEqual(before[first.rawValue]?["stars"], .int(5))
        XCTAssertEqual(before[second.rawValue]?["stars"], .int(3))
        let data = path("reviews.json")
        try #"{"reviews":[{"stars":3,"commentary":null},{"stars":5,"commentary":"Great!"}]}"#.write(toFile: data, atomically: true, encoding: .utf8)
        let swapped = gqlcache("update", cache, "--text", document, "--data", data)
        XCTAssertEqual(swapped.status, .success, swapped.stderr)
        var after = try records(cache)
        XCTAssertEqual(after["QUERY_ROOT"]?[list], .list([.reference(first), .reference(second)]), "the list still points by position")
        XCTAssertEqual(after[first.rawValue]?["stars"], .int(3))
        XCTAssertEqual(after[second.rawValue]?["stars"], .int(5))
        try #"{"reviews":[{"stars":4,"commentary":"ok"}]}"#.write(toFile: data, atomically: true, encoding: .utf8)
        XCTAssertEqual(gqlcache("update", cache, "--text", document, "--data", data).status, .success)
        after = try records(cache)
        XCTAssertEqual(after["QUERY_ROOT"]?[list], .list([.reference(first)]))
        XCTAssertEqual(after[first.rawValue]?["stars"], .int(4))
        XCTAssertEqual(after[second.rawValue]?["stars"], .int(5), "the element removed keeps its record, as Apollo leaves it")
    }

    /// A record is path-keyed when its key is the one Apollo gives an
    /// object at that place (holder, field key, indexes), not when it
    /// merely begins with its holder's: `Category:a.b` reached through
    /// `Category:a` is an identity key (a dotted id), kept on update.
    func testAnIdentityKeyThatBeginsWithItsHoldersKeyIsNotTakenForAPathKey() throws {
        let cache = path("categories.sqlite")
        let export = path("categories.jsonl")
        try """
            {"key":"QUERY_ROOT","record":{"category(id:a)":{"$reference":"Category:a"}}}
            {"key":"Category:a","record":{"__typename":"Category","id":"a","name":"A","sub":[{"$reference":"Category:a.b"},{"$reference":"Category:a.sub.1"}]}}
            {"key":"Category:a.b","record":{"__typename":"Category","id":"a.b","name":"AB"}}
            {"key":"Category:a.sub.1","record":{"__typename":"Category","name":"unkeyed"}}

            """.write(toFile: export, atomically: true, encoding: .utf8)
        XCTAssertEqual(gqlcache("import", cache, export, "--create", "-q").status, .success)
        let document = #"query L @apollo_client_ios_localCacheMutation { c: category(id: "a") { id name s: sub { name } } }"#
        let result = gqlcache("update", cache, "--text", document, "--set", "c.s.0.name=ABX", "--set", "c.s.1.name=second", "--format", "jsonl")
        XCTAssertEqual(result.status, .success, result.stderr)
        // Kept in its record, as an object read from one is (and said to be: its selection has no id).
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: warning: c.s.0 was written into Category:a.b, the record it was read from;"), result.stderr)
        let after = try records(cache)
        XCTAssertEqual(after["Category:a"]?["sub"], .list([.reference(CacheKey("Category:a.b")), .reference(CacheKey("Category:a.sub.1"))]))
        XCTAssertEqual(after["Category:a.b"]?["name"], .string("ABX"))
        XCTAssertEqual(after["Category:a.sub.1"]?["name"], .string("second"))
        XCTAssertEqual(after.count, 4, "no record was added")
    }

    func testAddedObjectsGetPathKeysUnlessAKeyFieldSaysOtherwise() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let added = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", #"hero.friends.3={"__typename":"Wookiee","name":"Chewie"}"#)
        XCTAssertEqual(added.status, .success, added.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001.friends.3"], ["__typename": .string("Wookiee"), "name": .string("Chewie")])
        let document = "query Q @apollo_client_ios_localCacheMutation { hero(episode: JEDI) { id name } }"
        // --data needs no data in the cache yet (hero(episode:JEDI) is not there).
        let data = path("data.json")
        try #"{"hero":{"__typename":"Wookiee","id":"w1","name":"Chewie"}}"#.write(toFile: data, atomically: true, encoding: .utf8)
        let keyed = gqlcache("update", cache, "--text", document, "--data", data, "--key-field", "Wookiee=id")
        XCTAssertEqual(keyed.status, .success, keyed.stderr)
        XCTAssertEqual(keyed.stderr, "")
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["hero(episode:JEDI)"], .reference(CacheKey("Wookiee:w1")))
        // A misspelled type keys nothing, and says so.
        try #"{"hero":{"__typename":"Wookiee","id":"w2","name":"Chewbacca"}}"#.write(toFile: data, atomically: true, encoding: .utf8)
        let misspelled = gqlcache("update", cache, "--text", document, "--data", data, "--key-field", "Wokiee=id")
        XCTAssertEqual(misspelled.status, .success, misspelled.stderr)
        XCTAssertEqual(misspelled.stderr.split(separator: "\n"), [
            "gqlcache: warning: QUERY_ROOT hero(episode:JEDI) now points at QUERY_ROOT.hero(episode:JEDI), not Wookiee:w1: objects without a key field are keyed by their path; if the app keys them (by id, say), give --key-field (e.g. '*=id') or a schema with @typePolicy",
            "gqlcache: warning: --key-field Wokiee=id: no object of type Wokiee was written, so it keyed nothing (types written: Wookiee); did you mean Wookiee?",
        ])
    }

    /// `--set name=123` where the data holds a string means the text, as
    /// `--var` keeps it for a String; a number stays a number elsewhere.
    func testSetKeepsNumberLikeTextWhereTheDataHoldsAString() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let schema = starWarsSchema
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.name=123", "--schema", schema)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("123"))
        XCTAssertEqual(update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.name=true").status, .success)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("true"))
        XCTAssertEqual(update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.name=null").status, .success)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .null, "null is still null")
        // So too for an element of a list of strings (enum values), and a member of a custom scalar's JSON.
        let heroes = "query A @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { appearsIn } }"
        let element = gqlcache("update", cache, "--text", heroes, "--set", "hero.appearsIn.0=5", "--set", "hero.appearsIn.1=true")
        XCTAssertEqual(element.status, .success, element.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["appearsIn"], .list([.string("5"), .string("true"), .string("JEDI")]))
        let reviews = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { meta } }"
        let member = gqlcache("update", cache, "--text", reviews, "--set", "reviews.0.meta.source=5")
        XCTAssertEqual(member.status, .success, member.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.reviews(episode:JEDI,first:2).0"]?["meta"],
                       .object(["score": .double(1.5), "source": .string("5")]))
    }

    /// A list of scalars is a list too: `--set` reaches its elements, and
    /// those of a list of lists, by index, as the help promises.
    func testSetReachesTheElementsOfListsOfScalarsByIndex() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let heroes = "query A @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { appearsIn } }"
        let set = gqlcache("update", cache, "--text", heroes, "--set", "hero.appearsIn.0=EMPIRE")
        XCTAssertEqual(set.status, .success, set.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["appearsIn"], .list([.string("EMPIRE"), .string("EMPIRE"), .string("JEDI")]))
        let ships = #"query S @apollo_client_ios_localCacheMutation { human(id: "1000") { starships { coordinates } } }"#
        let nested = gqlcache("update", cache, "--text", ships, "--set", "human.starships.0.coordinates.1.0=9")
        XCTAssertEqual(nested.status, .success, nested.stderr)
        XCTAssertEqual(try records(cache)["Starship:3001"]?["coordinates"], .list([.list([.int(1), .int(2)]), .list([.int(9), .int(4)])]))
        let outside = gqlcache("update", cache, "--text", heroes, "--set", "hero.appearsIn.7=JEDI")
        XCTAssertEqual(outside.stderr, "gqlcache: --set hero.appearsIn.7: hero.appearsIn is a list of 3 elements; '7' is not an index in it (0 to 2 change an element, 3 appends one); nothing written\n")
    }

    /// Without a schema, the data read still shows each field's shape: a
    /// list written as an object, or a member the selection lacks (a typo
    /// in --data), is refused rather than written or dropped without a word.
    func testDataOfAnotherShapeOrWithMembersTheSelectionLacksIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let query = "query M @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { name friends { name } appearsIn } }"
        for (assignment, problem) in [
            (#"hero.friends={"__typename":"Human","name":"Q"}"#, "hero.friends is a list in the data read, and cannot be written as an object"),
            (#"hero.name=["a"]"#, "hero.name is a single value in the data read, and cannot be written as a list"),
            ("hero.appearsIn=JEDI", "hero.appearsIn is a list in the data read, and cannot be written as a single value"),
            // Where null was read, and one past the end: the shape of the friends read.
            (#"hero.friends.2=[{"__typename":"Human","name":"Q"}]"#, "hero.friends.2 is in a list of objects in the data read, and cannot be a list"),
            (#"hero.friends.3=[{"__typename":"Human","name":"Q"}]"#, "hero.friends.3 is in a list of objects in the data read, and cannot be a list"),
        ] {
            let result = gqlcache("update", cache, "--text", query, "--set", assignment)
            XCTAssertEqual(result.status, .usage)
            XCTAssertEqual(result.stderr, "gqlcache: --set: \(problem); nothing written\n")
        }
        let data = path("data.json")
        try Data(#"{"hero":{"name":"R2","nmae":"R3","friends":[],"appearsIn":[]}}"#.utf8).write(to: URL(fileURLWithPath: data))
        let typo = gqlcache("update", cache, "--text", query, "--data", data)
        XCTAssertEqual(typo.stderr, "gqlcache: \(data): hero has no 'nmae' in the selection (it has: __typename, name, friends, appearsIn); nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
        // Null fits any shape, and so does a list element of another type.
        let added = gqlcache("update", cache, "--text", query, "--set", "hero.friends.2={\"__typename\":\"Droid\",\"name\":\"C3\"}", "--set", "hero.name=null")
        XCTAssertEqual(added.status, .success, added.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001.friends.2"]?["name"], .string("C3"))
    }

    /// A new object has no data read to be compared with: a member the
    /// selection lacks (a typo, or a field of another type's condition)
    /// would be dropped without a word, as Apollo drops what a response
    /// holds beyond the selection.
    func testANewObjectWithAMemberTheSelectionLacksIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let query = """
            query M @apollo_client_ios_localCacheMutation {
              hero(episode: NEWHOPE) { name friends { name ... on Droid { primaryFunction } } }
            }
            """
        for (assignment, problem) in [
            (#"hero.friends.3={"__typename":"Droid","name":"C-3PO","nmae":"typo"}"#,
             "cannot write hero.friends.3.nmae: not in the selection for a Droid (it selects: __typename, name, primaryFunction)"),
            (#"hero.friends.2={"__typename":"Human","name":"Han","primaryFunction":"Smuggler"}"#,
             "cannot write hero.friends.2.primaryFunction: not in the selection for a Human (it selects: __typename, name)"),
        ] {
            let result = gqlcache("update", cache, "--schema", starWarsSchema, "--text", query, "--set", assignment)
            XCTAssertEqual(result.status, .usage, result.stderr)
            XCTAssertEqual(result.stderr, "gqlcache: --set: \(problem); nothing written\n")
        }
        let data = path("data.json")
        try Data(#"{"hero":{"name":"R2-D2","friends":[{"name":"Luke"},{"name":"Leia"},{"__typename":"Human","name":"Lando","homeplanet":"Socorro"}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: data))
        let typo = gqlcache("update", cache, "--schema", starWarsSchema, "--text", query, "--data", data)
        XCTAssertEqual(typo.status, .usage, typo.stderr)
        XCTAssertTrue(typo.stderr.contains("cannot write hero.friends.2.homeplanet: not in the selection for a Human"), typo.stderr)
        XCTAssertEqual(try bytes(cache), before)
        let fits = gqlcache("update", cache, "--schema", starWarsSchema, "--text", query, "--set", #"hero.friends.3={"__typename":"Droid","name":"C-3PO","primaryFunction":"Protocol"}"#)
        XCTAssertEqual(fits.status, .success, fits.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001.friends.3"]?["primaryFunction"], .string("Protocol"))
    }

    /// Apollo keeps the last of two values for one field; a change made
    /// through one alias, or one of two paths to an object, must not be
    /// dropped in silence because the other still holds the old value.
    func testAChangeThatAnotherAliasOrPathOfTheSameFieldContradictsIsRefused() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let aliases = "query A @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { a: name b: name } }"
        let one = gqlcache("update", cache, "--text", aliases, "--set", "hero.a=X")
        XCTAssertEqual(one.status, .usage)
        XCTAssertEqual(one.stderr, #"gqlcache: --set: cannot write hero.b: it is field 'name' of Droid:2001, as hero.a is, and the two hold different values (hero.b: "R2-D2", hero.a: "X"); give both the same value; nothing written"# + "\n")
        let paths = "query P @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { friends { name } } human(id: 1000) { name } }"
        let other = gqlcache("update", cache, "--text", paths, "--set", "human.name=Luke")
        XCTAssertEqual(other.status, .usage)
        XCTAssertTrue(other.stderr.contains(#"cannot write human.name: it is field 'name' of Human:1000, as hero.friends.0.name is, and the two hold different values (human.name: "Luke", hero.friends.0.name: "Luke Skywalker")"#), other.stderr)
        XCTAssertEqual(try bytes(cache), before)
        let both = gqlcache("update", cache, "--text", aliases, "--set", "hero.a=X", "--set", "hero.b=X")
        XCTAssertEqual(both.status, .success, both.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("X"))
    }

    /// update reads before it writes: a fragment that applied to nothing
    /// leaves its fields out of both, and the update says so as read does.
    func testWithoutASchemaAFragmentThatAppliedToNothingIsNamedInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query L @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { name friends { ...N } } } fragment N on Character { name }"
        let result = gqlcache("update", cache, "--text", query, "--set", "hero.name=R2", "--dry-run")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").first, "gqlcache: warning: without a schema, fragments on 'Character' applied to no object (they met 'Human'); their fields cannot be set; if Character is an interface or union, give --schema to update as Apollo does")
        XCTAssertEqual(gqlcache("update", cache, "--text", query, "--set", "hero.name=R2", "--dry-run", "--quiet").stderr, result.stderr,
                       "--quiet keeps warnings")
        // Setting a field the fragment selects: the refusal names the way out.
        let unset = gqlcache("update", cache, "--text", query, "--set", "hero.friends.0.name=Luke", "--dry-run")
        XCTAssertEqual(unset.status, .usage)
        XCTAssertTrue(unset.stderr.hasSuffix("gqlcache: --set hero.friends.0.name: hero.friends.0 has no 'name' in the selection (it has: __typename); "
            + "if it is selected in fragments on 'Character', which applied to no object, give --schema; nothing written\n"), unset.stderr)
    }

    func testBadPathsMissesAndTypeErrorsWriteNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let badPath = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.nick=R2")
        XCTAssertEqual(badPath.status, .usage)
        XCTAssertEqual(badPath.stderr, "gqlcache: --set hero.nick: hero has no 'nick' in the selection (it has: __typename, name, friends); nothing written\n")
        let outOfRange = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--set", "hero.friends.7.name=X")
        XCTAssertEqual(outOfRange.stderr, "gqlcache: --set hero.friends.7.name: hero.friends is a list of 3 elements; '7' is not an index in it (0 to 2 change an element, 3 appends one); nothing written\n")
        let miss = update(cache, "HeroName", "--var", "episode=JEDI", "--set", "hero.name=R2")
        XCTAssertEqual(miss.status, .notFound)
        XCTAssertEqual(miss.stderr, "gqlcache: cannot update query HeroName: cache miss at hero: record 'QUERY_ROOT' has no field 'hero(episode:JEDI)'; it has 'hero(episode:NEWHOPE)' (Apollo's update leaves out a missing field of a nullable type: give --schema to do the same)\n")
        let typeError = update(cache, "--fragment", "HumanDetails", "--key", "Human:1000", "--schema", starWarsSchema, "--set", "name=null")
        XCTAssertEqual(typeError.status, .usage)
        XCTAssertEqual(typeError.stderr, "gqlcache: --set: cannot write name: null in a non-null field of type String!; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Apollo's update reads a nullable field the record lacks as absent
    /// (its mapper's allowForOptionalFields) and writes it only when set;
    /// a non-null one is still a miss, and without a schema nullability
    /// is unknown, so the miss says to give one.
    func testAMissingNullableFieldIsLeftOutAndMayBeSetWithASchema() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let second = "QUERY_ROOT.reviews(episode:JEDI,first:2).1"
        _ = try sqliteShell(cache, "UPDATE records SET record = json_remove(record, '$.meta') WHERE key = '\(second)'")
        let query = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { meta stars } }"
        let before = try bytes(cache)
        let untyped = gqlcache("update", cache, "--text", query, "--set", "reviews.0.stars=4")
        XCTAssertEqual(untyped.status, .notFound)
        XCTAssertEqual(untyped.stderr, "gqlcache: cannot update query R: cache miss at reviews.1.meta: record '\(second)' has no field 'meta' (Apollo's update leaves out a missing field of a nullable type: give --schema to do the same)\n")
        XCTAssertEqual(try bytes(cache), before)

        let stars = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", "reviews.0.stars=4")
        XCTAssertEqual(stars.status, .success, stars.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT.reviews(episode:JEDI,first:2).0"]?["stars"], .int(4))
        XCTAssertNil(try records(cache)[second]?["meta"], "a field left out is not written")
        let meta = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", #"reviews.1.meta={"a":1}"#)
        XCTAssertEqual(meta.status, .success, meta.stderr)
        XCTAssertEqual(try records(cache)[second]?["meta"], .object(["a": .int(1)]))
        // Into a field the cache lacks: a miss, as read's (status 1).
        _ = try sqliteShell(cache, "UPDATE records SET record = json_remove(record, '$.meta') WHERE key = '\(second)'")
        let inside = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", "reviews.1.meta.a=2")
        XCTAssertEqual(inside.status, .notFound)
        XCTAssertEqual(inside.stderr, "gqlcache: --set reviews.1.meta.a: reviews.1.meta is not in the cache (record '\(second)' has no field 'meta'); "
            + "set it whole (--set reviews.1.meta=…); nothing written\n")
        // The field cache key looked for is named, and those the record has, as a read's miss names them: a variable may be wrong.
        let hero = "query H($episode: Episode) @apollo_client_ios_localCacheMutation { hero(episode: $episode) { name } }"
        let other = gqlcache("update", cache, "--text", hero, "--var", "episode=EMPIRE", "--schema", starWarsSchema, "--set", "hero.name=X")
        XCTAssertEqual(other.status, .notFound)
        XCTAssertEqual(other.stderr, "gqlcache: --set hero.name: hero is not in the cache (record 'QUERY_ROOT' has no field 'hero(episode:EMPIRE)'; "
            + "it has 'hero(episode:NEWHOPE)'); set it whole (--set hero=…); nothing written\n")
        // A variable not given leaves its argument out: giving it is the fix, not a second hero set whole.
        let absent = gqlcache("update", cache, "--text", hero, "--schema", starWarsSchema, "--set", "hero.name=X")
        XCTAssertEqual(absent.status, .notFound)
        XCTAssertEqual(absent.stderr, "gqlcache: --set hero.name: hero is not in the cache (record 'QUERY_ROOT' has no field 'hero'; "
            + "it has 'hero(episode:NEWHOPE)' ($episode was not given, so Apollo leaves its argument out of the key: give --var episode=…)); "
            + "nothing written\n")

        _ = try sqliteShell(cache, "UPDATE records SET record = json_remove(record, '$.stars') WHERE key = '\(second)'")
        let nonNull = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", "reviews.0.stars=2")
        XCTAssertEqual(nonNull.status, .notFound)
        XCTAssertEqual(nonNull.stderr, "gqlcache: cannot update query R: cache miss at reviews.1.stars: record '\(second)' has no field 'stars'\n")
    }

    /// A field that was null set to an object the cache holds as `Type:id`:
    /// without key fields the object goes to its path key, a copy the app
    /// (keying the type by id) never reads, and update says so as write does.
    func testAnObjectSetWhereTheCacheHoldsItByIDIsWarnedOfAsACopy() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let query = "query H @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { __typename id name } }"
        XCTAssertEqual(gqlcache("update", cache, "--text", query, "--set", "hero=null").status, .success)
        let set = gqlcache("update", cache, "--text", query, "--set", #"hero={"__typename":"Droid","id":"2001","name":"R2-D2"}"#)
        XCTAssertEqual(set.status, .success, set.stderr)
        XCTAssertEqual(set.stderr, "gqlcache: warning: QUERY_ROOT.hero(episode:NEWHOPE) was written as a new record, though the cache "
            + "holds the same Droid as Droid:2001: if the app keys Droid by id, give --key-field Droid=id (or '*=id') or a schema "
            + "with @typePolicy to write it there\n")
        XCTAssertNotNil(try records(cache)["QUERY_ROOT.hero(episode:NEWHOPE)"])
        let keyed = gqlcache("update", cache, "--text", query, "--set", "hero=null")
        XCTAssertEqual(keyed.status, .success)
        let byID = gqlcache("update", cache, "--text", query, "--key-field", "Droid=id", "--set", #"hero={"__typename":"Droid","id":"2001","name":"R2-D2"}"#)
        XCTAssertEqual(byID.status, .success, byID.stderr)
        XCTAssertEqual(byID.stderr, "")
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["hero(episode:NEWHOPE)"], .reference("Droid:2001"))
    }

    /// A custom scalar holds whatever JSON the app encoded: its shape may change.
    func testACustomScalarMayBeWrittenInAnotherShape() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let first = "QUERY_ROOT.reviews(episode:JEDI,first:2).0"
        let query = "query R @apollo_client_ios_localCacheMutation { reviews(episode: JEDI, first: 2) { meta stars } }"
        let untyped = gqlcache("update", cache, "--text", query, "--set", "reviews.0.meta=42")
        XCTAssertEqual(untyped.status, .success, untyped.stderr)
        XCTAssertEqual(try records(cache)[first]?["meta"], .int(42))
        let typed = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", #"reviews.0.meta=[1,2]"#)
        XCTAssertEqual(typed.status, .success, typed.stderr)
        XCTAssertEqual(try records(cache)[first]?["meta"], .list([.int(1), .int(2)]))
        let wrong = gqlcache("update", cache, "--text", query, "--schema", starWarsSchema, "--set", #"reviews.0.stars=[1]"#)
        XCTAssertEqual(wrong.stderr, "gqlcache: --set: cannot write reviews.0.stars: expected Int, found [1]; nothing written\n")
    }

    func testEditWritesWhatTheEditorSaved() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let editor = try script("edit.sh", #"sed -i 's/"R2-D2"/"Artoo"/' "$1""#)
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: ["EDITOR": editor])
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines, ["Droid:2001", #"  name: "R2-D2" → "Artoo""#, "1 record changed (1 field)"])
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("Artoo"))
    }

    func testEditUnchangedWritesNothingAndVisualWinsOverEditor() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let failing = try script("fail.sh", "exit 3")
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: ["VISUAL": "true", "EDITOR": failing])
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "no changes; nothing written\n")
        let json = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", "--format", "json", environment: ["VISUAL": "true"])
        let report = try XCTUnwrap(try json.json() as? [String: Any], "a script's report of no change: \(json.stdout)")
        XCTAssertEqual(report["dryRun"] as? Bool, false)
        XCTAssertEqual((report["records"] as? [Any])?.count, 0)
        let failed = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: ["EDITOR": failing])
        XCTAssertEqual(failed.status, .notFound, "a failing editor abandons the edit, as the user declining")
        XCTAssertEqual(failed.stderr, "gqlcache: the editor '\(failing)' exited with status 3; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
        // Ctrl-C in the editor (it, or the shell around it, ends by SIGINT) interrupts the command: 130, as Ctrl-C anywhere.
        for body in ["kill -INT $$", "exit 130"] {
            let interrupting = try script("interrupt.sh", body)
            let interrupted = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: ["EDITOR": interrupting])
            XCTAssertEqual(interrupted.status, .interrupted, body)
            XCTAssertEqual(interrupted.stderr, "gqlcache: the editor '\(interrupting)' was interrupted; nothing written\n")
        }
        XCTAssertEqual(try bytes(cache), before)
        // No editor named and no terminal: vi would fail, so it is not started.
        let noEditor = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: [:])
        XCTAssertEqual(noEditor.status, .usage)
        XCTAssertEqual(noEditor.stderr, "gqlcache: editing needs a terminal, or an editor named in VISUAL or EDITOR; nothing written\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// A member given twice in data a person wrote is refused where it is:
    /// which of the two values was meant cannot be told, and a parser
    /// keeping the last would drop the other change without a word.
    func testDataGivingAMemberTwiceIsRefusedAndWritesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let twice = "gqlcache: \(path("d.json")):2:3: in the data, the member \"name\" is given twice "
            + "(or in two spellings of one character), and which value is meant cannot be told\n"
        try "{\"hero\": {\"name\": \"A\",\n  \"name\": \"B\"}}".write(toFile: path("d.json"), atomically: true, encoding: .utf8)
        let data = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--data", path("d.json"))
        XCTAssertEqual(data.status, .usage)
        XCTAssertEqual(data.stderr, twice)
        let editor = try script("twice.sh", #"printf '{"hero": {\n  "name": "A",\n  "name": "B"}}' > "$1""#)
        let edit = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: ["EDITOR": editor])
        XCTAssertEqual(edit.status, .usage)
        XCTAssertTrue(edit.stderr.hasPrefix("gqlcache: the edited data at line 3, column 3: the member \"name\" is given twice "), edit.stderr)
        let kept = try XCTUnwrap(edit.stderr.components(separatedBy: "your edit is kept in ").last?.trimmingCharacters(in: .newlines))
        try FileManager.default.removeItem(atPath: kept)
        XCTAssertEqual(try bytes(cache), before)
    }

    func testAnInvalidEditWritesNothingAndKeepsTheEditedText() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let editor = try script("break.sh", #"echo '{"hero": {oops' > "$1""#)
        let result = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: ["EDITOR": editor])
        XCTAssertEqual(result.status, .usage)
        let kept = try XCTUnwrap(result.stderr.components(separatedBy: "your edit is kept in ").last?.trimmingCharacters(in: .newlines))
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: the edited data is not JSON: expected a member name in quotes at line 1, column 11; "), result.stderr)
        XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "{\"hero\": {oops\n")
        try FileManager.default.removeItem(atPath: kept)
        XCTAssertEqual(try bytes(cache), before)
        // Bytes that are not UTF-8 are a mistake in the edit too, kept to fix; the file to edit is its owner's alone.
        let binary = try script("binary.sh", #"stat -c %a "$1" > "$1.mode"; printf '\377\376{}' > "$1""#)
        let notText = update(cache, "HeroName", "--var", "episode=NEWHOPE", "--edit", environment: ["EDITOR": binary])
        XCTAssertEqual(notText.status, .usage)
        let keptBytes = try XCTUnwrap(notText.stderr.components(separatedBy: "your edit is kept in ").last?.trimmingCharacters(in: .newlines))
        XCTAssertTrue(notText.stderr.hasPrefix("gqlcache: the edited data is not UTF-8 text; nothing written; "), notText.stderr)
        XCTAssertEqual(FileManager.default.contents(atPath: keptBytes), Data([0xFF, 0xFE, 0x7B, 0x7D]))
        XCTAssertEqual(try String(contentsOfFile: keptBytes + ".mode", encoding: .utf8), "600\n")
        try FileManager.default.removeItem(atPath: keptBytes)
        try FileManager.default.removeItem(atPath: keptBytes + ".mode")
        XCTAssertEqual(try bytes(cache), before)
    }

    func testTheModesAreExclusiveAndOneIsNeeded() throws {
        XCTAssertTrue(gqlcache("update", "c.sqlite", "--text", document).stderr.contains("say what to change: --set PATH=VALUE, --data FILE or --edit"))
        XCTAssertTrue(gqlcache("update", "c.sqlite", "--text", document, "--edit", "--data", "d.json").stderr.contains("give one of --set, --data and --edit"))
        // Only the last of two values for one path would be written.
        let twice = gqlcache("update", "c.sqlite", "--text", document, "--set", "hero.name=Han", "--set", "hero.name=Solo")
        XCTAssertEqual(twice.status, .usage)
        XCTAssertTrue(twice.stderr.hasPrefix("gqlcache: --set hero.name is given twice, as 'Han' and 'Solo'; give one value"), twice.stderr)
        // A path set after one inside it would undo that one's change; set first, it is the base the other changes.
        let replaced = gqlcache("update", "c.sqlite", "--text", document, "--set", "hero.friends.0.name=M", "--set", "hero.friends=[]")
        XCTAssertEqual(replaced.status, .usage)
        XCTAssertTrue(
            replaced.stderr.hasPrefix(
                "gqlcache: --set hero.friends comes after --set hero.friends.0.name and replaces what it changed; set hero.friends first, or give the change in its value"),
            replaced.stderr)
        let cache = try copyOfFixture("starwars.sqlite")
        let based = gqlcache(
            "update", cache, "HeroName", "--text", document, "--var", "episode=NEWHOPE",
            "--set", #"hero.friends.2={"__typename":"Human","name":"Han"}"#, "--set", "hero.friends.2.name=Solo")
        XCTAssertEqual(based.status, .success, based.stderr)
        XCTAssertEqual(try records(cache)["Droid:2001.friends.2"]?["name"], .string("Solo"))
        // So for two values of one variable: only the last would be used.
        let variable = gqlcache("read", cache, "--text", document, "--var", "episode=JEDI", "--var", "episode=EMPIRE")
        XCTAssertEqual(variable.status, .usage)
        XCTAssertTrue(variable.stderr.hasPrefix("gqlcache: --var episode is given twice, as 'JEDI' and 'EMPIRE'; give one value"), variable.stderr)
    }

    /// Standard input may take its time (a pipe from a slow program): it is
    /// read before the file is opened, so the app's writes meanwhile, which
    /// Apollo makes without a busy timeout, are not refused.
    func testDataFromStandardInputIsReadBeforeTheWriteLockIsTaken() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        final class CheckingInput: LineSource {
            let cache: String
            var appCouldWrite: Bool?
            var lines = [#"{"hero":{"name":"Artoo","friends":[{"name":"Luke"},{"name":"Han"},null]}}"#]
            init(_ cache: String) { self.cache = cache }
            func readLine() -> String? {
                if appCouldWrite == nil {
                    appCouldWrite = (try? CacheStore.open(at: cache, access: .readWrite, busyTimeout: 0).write { tx in
                        try tx.merge([Record(key: "Other:1", fields: ["n": .int(1)])])
                    }) != nil
                }
                return lines.isEmpty ? nil : lines.removeFirst()
            }
        }
        let input = CheckingInput(cache)
        let stdout = StringSink()
        let stderr = StringSink()
        let context = CommandContext(stdout: stdout, stderr: stderr, stdin: input, stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        let status = GQLCacheMain.run(
            arguments: ["update", cache, "HeroName", "--text", document, "--var", "episode=NEWHOPE", "--data", "-"], context: context)
        XCTAssertEqual(status, .success, stderr.text)
        XCTAssertEqual(input.appCouldWrite, true, "the app wrote while update read its data")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("Artoo"))
        XCTAssertEqual(try records(cache)["Other:1"]?["n"], .int(1))
    }

    func testDataAndVariablesCannotBothReadStandardInput() {
        let result = gqlcache("update", "c.sqlite", "--text", document, "--data", "-", "--variables-file", "-")
        XCTAssertEqual(result.status, .usage)
        XCTAssertTrue(result.stderr.contains("--data and --variables-file cannot both read standard input (-)"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
    }

    private func script(_ name: String, _ body: String) throws -> String {
        let file = path(name)
        try "#!/bin/sh\n\(body)\n".write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
        return file
    }

    /// An app that keys in a unique key group (`Character:2001` for a
    /// Droid): an update with the group changes that record in place, where
    /// without it the reference would move to a new `Droid:2001`.
    func testAnUpdateWithAKeyGroupChangesTheGroupsRecordInPlace() throws {
        let cache = try makeCache("grouped.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["hero(episode:JEDI)": .reference("Character:2001")]),
            Record(key: "Character:2001", fields: ["__typename": .string("Droid"), "id": .string("2001"), "name": .string("R2")]),
        ])
        let document = "query H @apollo_client_ios_localCacheMutation { hero(episode: JEDI) { id name } }"
        let arguments = ["update", cache, "--text", document, "--schema", starWarsSchema, "--key-field", "Character=id", "--set", "hero.name=R9"]
        let ungrouped = gqlcache(arguments: arguments + ["--dry-run"])
        XCTAssertTrue(ungrouped.stdout.hasPrefix("QUERY_ROOT\n  hero(episode:JEDI): {\"$reference\":\"Character:2001\"} → {\"$reference\":\"Droid:2001\"}\n"), ungrouped.stdout)
        XCTAssertTrue(ungrouped.stderr.contains("give --key-group Character to write it there"), ungrouped.stderr)
        let grouped = gqlcache(arguments: arguments + ["--key-group", "Character"])
        XCTAssertEqual(grouped.status, .success, grouped.stderr)
        XCTAssertEqual(grouped.stdout, "Character:2001\n  name: \"R2\" → \"R9\"\n1 record changed (1 field)\n")
        XCTAssertEqual(grouped.stderr, "")
        XCTAssertEqual(try records(cache).keys.sorted(), ["Character:2001", "QUERY_ROOT"])
    }
}
