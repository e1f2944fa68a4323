import CacheStore
import Foundation
import XCTest

@testable import CacheQuery

/// Reads from the real Apollo-written starwars.sqlite.
final class CacheReaderTests: XCTestCase {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/apollo-ios/starwars.sqlite").path

    static let demo = """
        query Demo($episode: Episode, $filter: SearchFilter, $unit: LengthUnit) {
          hero(episode: $episode) {
            __typename id name appearsIn
            friends { __typename id name }
            friendsConnection(first: 2, after: null) { __typename totalCount friends { __typename id name } }
            ... on Droid { primaryFunction }
          }
          human(id: "1000") {
            __typename id name homePlanet height(unit: $unit) birthDate mass isJedi
            starships { __typename id name coordinates length }
          }
          search(filter: $filter) { __typename id name }
          reviews(episode: JEDI, first: 2) { __typename stars commentary meta }
        }
        """

    /// The network response that wrote the fixture (its README).
    static let response = #"""
        {"hero": {"__typename":"Droid","id":"2001","name":"R2-D2","appearsIn":["NEWHOPE","EMPIRE","JEDI"],
           "friends":[{"__typename":"Human","id":"1000","name":"Luke Skywalker"},{"__typename":"Human","id":"1002","name":"Han Solo"},null],
           "friendsConnection":{"__typename":"FriendsConnection","totalCount":3,"friends":[{"__typename":"Human","id":"1000","name":"Luke Skywalker"}]},
           "primaryFunction":"Astromech"},
         "human": {"__typename":"Human","id":"1000","name":"Luke Skywalker","homePlanet":"Tatooine","height":5.6430448,
           "birthDate":"1977-05-25T00:00:00Z","mass":null,"isJedi":true,
           "starships":[{"__typename":"Starship","id":"3001","name":"X-wing","coordinates":[[1,2],[3.5,4.0]],"length":12.5}]},
         "search":[[{"__typename":"Human","id":"1000","name":"Luke Skywalker"},null],[{"__typename":"Droid","id":"2001","name":"R2-D2"}]],
         "reviews":[{"__typename":"Review","stars":5,"commentary":"Great! \/ \"quoted\" \u00e9","meta":{"source":"web","score":1.5}},
                    {"__typename":"Review","stars":3,"commentary":null,"meta":null}]}
        """#

    /// The Demo variables, with lng written -2.0: without a schema gqlcache
    /// cannot know lng is a Float, which Apollo rendered as -2.0.
    static let variables: [String: InputValue] = [
        "episode": .string("NEWHOPE"), "unit": .string("FOOT"),
        "filter": .object(["text": .string("sky"), "limit": .int(2), "tags": .list([.string("a"), .string("b")]),
                           "near": .object(["lat": .float(1.5), "lng": .float(-2.0)])]),
    ]

    /// The fixture's schema (from its README), kept beside these tests.
    static let schema = try! CacheSchema.parse(
        sdl: String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("starwars.graphqls"), encoding: .utf8),
        source: "starwars.graphqls")

    private func read(_ text: String, variables: [String: InputValue], schema: CacheSchema? = nil, partial: Bool = false) throws -> ReadResult {
        let document = try QueryDocument.parse([("demo.graphql", text)])
        let store = try CacheStore.open(at: Self.fixture)
        return try store.read { tx in
            try CacheReader(document: document, schema: schema, source: tx)
                .read(try document.operation(named: nil), variables: variables, partial: partial)
        }
    }

    /// Apollo reads a deferred fragment from the cache on its own: where
    /// one of its fields misses, the fragment is pending and the rest of
    /// the data is read, not a miss of the whole read.
    func testADeferredFragmentThatMissesIsLeftOutPendingAndTheRestIsRead() throws {
        let missing = try read(
            #"{ hero(episode: NEWHOPE) { name ... on Droid @defer(label: "d") { primaryFunction nope } } }"#, variables: [:])
        XCTAssertEqual(missing.data, .object([("hero", .object([("name", .scalar(.string("R2-D2")))]))]))
        XCTAssertEqual(missing.misses, [])
        XCTAssertEqual(missing.pendingFragments.map(\.label), ["d"])
        XCTAssertEqual(missing.pendingFragments.first?.path, "hero")
        XCTAssertEqual(missing.pendingFragments.first?.miss.reason, .missingField(fieldKey: "nope", similar: []))
        // All its fields cached: read with the rest, after the fields beside it.
        let cached = try read(#"{ hero(episode: NEWHOPE) { ...D @defer(label: "d") name } } fragment D on Droid { primaryFunction }"#, variables: [:])
        XCTAssertEqual(cached.data, .object([("hero", .object([
            ("name", .scalar(.string("R2-D2"))), ("primaryFunction", .scalar(.string("Astromech")))]))]))
        XCTAssertEqual(cached.pendingFragments.count, 0)
        // In partial mode too, a pending fragment adds no error.
        let partial = try read(#"{ hero(episode: NEWHOPE) { name ... @defer { nope } } }"#, variables: [:], partial: true)
        XCTAssertEqual(partial.misses, [])
        XCTAssertEqual(partial.pendingFragments.map(\.label), [nil])
    }

    /// A deferred fragment inside one that goes pending goes with it: only
    /// the outer one is reported, as only it is left out of the data.
    func testAFragmentDeferredInsideAPendingOneIsNotReportedApart() throws {
        let result = try read(#"""
            { hero(episode: NEWHOPE) { name ... @defer(label: "a") {
              friends { name ... on Human @defer(label: "b") { homePlanet } } nope } } }
            """#, variables: [:], schema: Self.schema)
        XCTAssertEqual(result.data, .object([("hero", .object([("name", .scalar(.string("R2-D2")))]))]))
        XCTAssertEqual(result.pendingFragments.map(\.label), ["a"])
    }

    /// `@defer(if: false)` defers nothing: its fragment is read as any
    /// other, and a miss in it is a miss of the read.
    func testADeferThatIsOffReadsItsFragmentAsAnyOther() throws {
        for (text, variables) in [
            (#"{ hero(episode: NEWHOPE) { name ... @defer(if: false) { nope } } }"#, [String: InputValue]()),
            (#"query Q($d: Boolean!) { hero(episode: NEWHOPE) { name ... @defer(if: $d) { nope } } }"#, ["d": .boolean(false)]),
        ] {
            let result = try read(text, variables: variables)
            XCTAssertNil(result.data, text)
            XCTAssertEqual(result.misses.first?.reason, .missingField(fieldKey: "nope", similar: []), text)
        }
        let on = try read(#"query Q($d: Boolean!) { hero(episode: NEWHOPE) { name ... @defer(if: $d) { nope } } }"#, variables: ["d": .boolean(true)])
        XCTAssertEqual(on.pendingFragments.count, 1)
    }

    func testAFragmentThatSpreadsItselfIsAnErrorNotAnEmptyObject() throws {
        let cycle = "query Q { ...A } fragment A on Query { ...B } fragment B on Query { hero(episode: NEWHOPE) { name } ...A }"
        XCTAssertThrowsError(try read(cycle, variables: [:])) { error in
            XCTAssertEqual(error as? QueryError, .fragmentCycle(["A", "B", "A"]))
            XCTAssertEqual("\(error)", "fragment 'A' spreads itself (A → B → A); a fragment cannot include itself")
        }
        // The same fragment spread twice, or by two others, is no cycle.
        let shared = "query Q { ...A ...B } fragment A on Query { ...C } fragment B on Query { ...C } fragment C on Query { hero(episode: NEWHOPE) { name } }"
        XCTAssertNoThrow(try read(shared, variables: [:]))
    }

    func testAVariableTheOperationDoesNotDefineIsAnErrorNotADroppedArgument() throws {
        for text in [
            "{ hero(episode: $episode) { name } }",
            "query Q { ...F } fragment F on Query { hero(episode: NEWHOPE) @include(if: $show) { name } }",
            "query Q($e: Episode) { hero(episode: $e) { friendsConnection(first: $first) { totalCount } } }",
        ] {
            XCTAssertThrowsError(try read(text, variables: ["episode": .enumValue("NEWHOPE")]), text) { error in
                guard case .undefinedVariable? = error as? QueryError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(
            "\(QueryError.undefinedVariable("first", operation: "Q"))",
            "operation 'Q' uses $first without defining it; add ($first: TYPE) to the operation")
        XCTAssertNoThrow(try read("query Q($e: Episode) { hero(episode: $e) { name } }", variables: ["e": .enumValue("NEWHOPE")]))
    }

    func testASpreadOfAFragmentTheDocumentsLackIsAnErrorNotAnEmptyObject() throws {
        let cases = [
            ("{ hero(episode: NEWHOPE) { ...Missing } }", "demo.graphql:1:28: unknown fragment 'Missing'"),
            ("{ hero(episode: NEWHOPE) { ...Known } } fragment Known on Character {\n  ... on Droid { ...Missing } }",
             "demo.graphql:2:18: unknown fragment 'Missing' (fragments: Known)"),
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try read(text, variables: [:]), text) { error in
                XCTAssertEqual("\(error)", message)
            }
        }
        let document = try QueryDocument.parse([("w.graphql", "{ hero(episode: NEWHOPE) { ...Missing } }")])
        XCTAssertThrowsError(try ResponseNormalizer(document: document).normalize(
            try document.operation(named: nil), data: .object(["hero": .null])))
    }

    func testTwoOperationsWithOneNameAreRefusedWhateverTheOrderOfTheFiles() {
        XCTAssertThrowsError(try QueryDocument.parse([("a.graphql", "query A { x }"), ("b.graphql", "query A { y }")])) { error in
            XCTAssertEqual("\(error)", "two operations are named 'A' (in a.graphql and b.graphql); an operation name must be unique")
        }
        XCTAssertThrowsError(try QueryDocument.parse([("one.graphql", "query A { x } query A { y }")])) { error in
            XCTAssertEqual("\(error)", "two operations are named 'A' (in one.graphql); an operation name must be unique")
        }
        XCTAssertNoThrow(try QueryDocument.parse([("anonymous.graphql", "{ x }"), ("a.graphql", "query A { y }"), ("more.graphql", "{ z }")]))
    }

    func testWithTheSchemaTheDocumentedVariablesReadTheResponse() throws {
        // The fixture's variables as documented: lng is -2, a Float Apollo rendered -2.0.
        var variables = Self.variables
        variables["filter"] = .object(["text": .string("sky"), "limit": .int(2), "tags": .list([.string("a"), .string("b")]),
                                       "near": .object(["lat": .float(1.5), "lng": .int(-2)])])
        let result = try read(Self.demo, variables: variables, schema: Self.schema)
        XCTAssertEqual(result.misses, [])
        let expected = try JSONSerialization.jsonObject(with: Data(Self.response.utf8)) as! NSDictionary
        XCTAssertEqual(try XCTUnwrap(result.data).foundationObject as? NSDictionary, expected)
    }

    func testAReadGivesTheRecordsItsDataCameFrom() throws {
        let result = try read(Self.demo, variables: Self.variables, schema: Self.schema)
        XCTAssertEqual(result.misses, [])
        let store = try CacheStore.open(at: Self.fixture)
        let everything = try store.read { tx in try tx.records(for: tx.keys()) }
        // Every record the Demo query touches, as decoded from the file (its
        // records hold at least the fields the query reads); the mutation's are not among them.
        XCTAssertEqual(Set(result.records.keys), Set(everything.keys).subtracting(everything.keys.filter { $0.rawValue.hasPrefix("MUTATION_ROOT") }))
        for (key, record) in result.records { XCTAssertEqual(record, try everything[key]?.get(), "\(key)") }
    }

    func testARecordFirstReadThroughANarrowerSelectionGivesEveryFieldAWiderOneAsks() throws {
        // Human:1000 is loaded in the friends list's batch for `name` only,
        // then read again for fields that batch did not decode.
        let result = try read(#"{ hero(episode: NEWHOPE) { friends { name } } human(id: "1000") { name homePlanet height(unit: FOOT) } }"#,
                              variables: [:])
        XCTAssertEqual(result.misses, [])
        let expected = try JSONSerialization.jsonObject(with: Data(#"""
            {"hero":{"friends":[{"name":"Luke Skywalker"},{"name":"Han Solo"},null]},
             "human":{"name":"Luke Skywalker","homePlanet":"Tatooine","height":5.6430448}}
            """#.utf8)) as! NSDictionary
        XCTAssertEqual(try XCTUnwrap(result.data).foundationObject as? NSDictionary, expected)
    }

    func testAMissInARecordDecodedForItsSelectionStillNamesTheFieldKeysTheRecordHas() throws {
        let result = try read(#"{ hero(episode: NEWHOPE) { friends { name height(unit: METER) } } }"#, variables: [:], partial: true)
        XCTAssertEqual(result.misses.map(\.description).first,
                       "cache miss at hero.friends.0.height: record 'Human:1000' has no field 'height(unit:METER)'; it has 'height(unit:FOOT)'")
    }

    func testWithASchemaValuesThatDoNotFitTheirTypesAreTypeErrorsNotMisses() throws {
        // The fixture's schema with homePlanet declared Int and mass non-null.
        let sdl = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("starwars.graphqls"), encoding: .utf8)
            .replacingOccurrences(of: "homePlanet: String", with: "homePlanet: Int")
            .replacingOccurrences(of: "mass: Float", with: "mass: Float!")
        let schema = try CacheSchema.parse(sdl: sdl, source: "changed.graphqls")
        let result = try read(#"{ human(id: "1000") { homePlanet mass name height(unit: FOOT) } hero(episode: NEWHOPE) { friends { name } } }"#,
                              variables: [:], schema: schema, partial: true)
        XCTAssertEqual(result.misses.map(\.description), [
            #"type error at human.homePlanet: record 'Human:1000', field 'homePlanet': expected Int, found "Tatooine""#,
            "type error at human.mass: record 'Human:1000', field 'mass': null in a non-null field of type Float!",
        ])
        XCTAssertEqual(result.misses.map(\.pathText), ["human.homePlanet", "human.mass"])
    }

    /// A server newer than the schema sends enum values the schema lacks;
    /// Apollo's GraphQLEnum reads them as .unknown, so the read gives them,
    /// and names them for a warning.
    func testWithASchemaAnEnumValueOutsideTheEnumIsReadAndNamed() throws {
        let sdl = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("starwars.graphqls"), encoding: .utf8)
            .replacingOccurrences(of: "enum Episode { NEWHOPE EMPIRE JEDI }", with: "enum Episode { NEWHOPE JEDI }")
        XCTAssertTrue(sdl.contains("enum Episode { NEWHOPE JEDI }"))
        let schema = try CacheSchema.parse(sdl: sdl, source: "changed.graphqls")
        let result = try read("{ hero(episode: NEWHOPE) { appearsIn } }", variables: [:], schema: schema)
        XCTAssertEqual(result.misses, [])
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary, ["hero": ["appearsIn": ["NEWHOPE", "EMPIRE", "JEDI"]]] as NSDictionary)
        XCTAssertEqual(result.unknownEnumValues, [UnknownEnumValue(path: "hero.appearsIn", value: "EMPIRE", enumName: "Episode")])
        // A value of another shape is still a type error.
        let number = ReadBatchingTests.CountingSource()
        number.add("QUERY_ROOT", ["hero(episode:NEWHOPE)": .reference(CacheKey("Droid:2001"))])
        number.add("Droid:2001", ["__typename": .string("Droid"), "appearsIn": .list([.int(4)])])
        let document = try QueryDocument.parse([("q.graphql", "{ hero(episode: NEWHOPE) { appearsIn } }")])
        let typeError = try CacheReader(document: document, schema: schema, source: number).read(try document.operation(named: nil))
        XCTAssertEqual(typeError.misses.map(\.description), [
            "type error at hero.appearsIn.0: record 'Droid:2001', field 'appearsIn': expected Episode, found 4",
        ])
        // Beside an element of the wrong type, a value the enum lacks is still named.
        number.add("Droid:2001", ["__typename": .string("Droid"), "appearsIn": .list([.int(4), .string("FUTURE")])])
        let both = try CacheReader(document: document, schema: schema, source: number).read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(both.unknownEnumValues, [UnknownEnumValue(path: "hero.appearsIn.1", value: "FUTURE", enumName: "Episode")])
    }

    /// Field keys with input objects run past a hundred characters, and
    /// the one looked for may differ from the one the record has only near
    /// the end: each is cut around where they differ, never to the same text.
    func testAMissBetweenTwoLongFieldKeysShowsWhereTheyDiffer() throws {
        let held = "search([filter:category:electronics-and-computers,cursor:eyJvZmZzZXQiOjEwMH0,region:europe-west,sortBy:price-asc,text:laptop])"
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", [held: .list([])])
        let document = try QueryDocument.parse([("q.graphql", """
            { search(filter: {category: "electronics-and-computers", cursor: "eyJvZmZzZXQiOjIwMH0", region: "europe-west", sortBy: "price-asc", text: "laptop"}) { id } }
            """)])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(result.misses.map(\.description), [
            "cache miss at search: record 'QUERY_ROOT' has no field 'search([filter:categ…ursor:eyJvZmZzZXQiOjIwMH0,region:europe-west,sortBy:price-as… (126 bytes)'; "
                + "it has 'search([filter:categ…ursor:eyJvZmZzZXQiOjEwMH0,region:europe-west,sortBy:price-as… (126 bytes)'",
        ])
        // Two the record has that differ from the one looked for at the same
        // place, and from each other later, are each cut where they differ from each other.
        let two = ReadBatchingTests.CountingSource()
        two.add("QUERY_ROOT", [held.replacingOccurrences(of: "text:laptop", with: "text:laptop-one"): .list([]),
                               held.replacingOccurrences(of: "text:laptop", with: "text:laptop-two"): .list([])])
        let both = try CacheReader(document: document, source: two).read(try document.operation(named: nil), partial: true)
        let message = try XCTUnwrap(both.misses.first?.description)
        XCTAssertTrue(message.hasSuffix("it has 'search([filter:categ…ice-asc,text:laptop-one]) (130 bytes)', "
            + "'search([filter:categ…ice-asc,text:laptop-two]) (130 bytes)'"), message)
        // Keys that differ early are cut as before, at sixty characters.
        XCTAssertEqual(String(repeating: "a", count: 120).shortenedForMessage(differingFrom: "b"), String(repeating: "a", count: 60) + "… (120 bytes)")
    }

    /// A scalar list's element that does not fit its type is a miss at its
    /// own path, as a GraphQL response gives it (`c.0.1`): with `partial`
    /// it alone is null, and the elements beside it are read.
    func testAMisfitInAListOfScalarsIsAMissAtTheElementsPath() throws {
        let sdl = "type Query { c: [[Float!]!] d: [Float] e: [Int]! }"
        let schema = try CacheSchema.parse(sdl: sdl, source: "lists.graphqls")
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", [
            "c": .list([.list([.int(1), .null])]), "d": .list([.int(1), .string("x"), .int(2), .bool(true)]), "e": .string("nope"),
        ])
        let document = try QueryDocument.parse([("q.graphql", "{ c d e }")])
        let result = try CacheReader(document: document, schema: schema, source: source).read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(result.misses.map(\.description), [
            "type error at c.0.1: record 'QUERY_ROOT', field 'c': null in a non-null field of type Float!",
            "type error at d.1: record 'QUERY_ROOT', field 'd': expected Float, found \"x\"",
            "type error at d.3: record 'QUERY_ROOT', field 'd': expected Float, found true",
            "type error at e: record 'QUERY_ROOT', field 'e': expected a list of type [Int], found \"nope\"",
        ])
        XCTAssertEqual(result.misses.map(\.path), [
            [.field("c"), .index(0), .index(1)], [.field("d"), .index(1)], [.field("d"), .index(3)], [.field("e")],
        ])
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary, ["c": [[1, NSNull()]], "d": [1, NSNull(), 2, NSNull()], "e": NSNull()] as NSDictionary)
    }

    /// An object stored inline, which Apollo never writes, is named as not
    /// the reference the selection needs; a scalar as the value it is.
    func testAnInlineObjectOrAScalarWhereTheSelectionNeedsAnObjectIsATypeError() throws {
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["hero(episode:JEDI)": .object(["__typename": .string("Droid"), "name": .string("Inline")]), "hero(episode:EMPIRE)": .int(5)])
        let document = try QueryDocument.parse([("q.graphql", "{ a: hero(episode: JEDI) { name } b: hero(episode: EMPIRE) { name } }")])
        let result = try CacheReader(document: document, source: source).read(try document.operation(named: nil), partial: true)
        XCTAssertEqual(result.misses.map(\.description), [
            #"type error at a: record 'QUERY_ROOT', field 'hero(episode:JEDI)': the selection needs an object, which Apollo stores as a reference to its record ({"$reference":KEY}), but the record holds inline JSON {"__typename":"Droid","name":"Inline"}"#,
            "type error at b: record 'QUERY_ROOT', field 'hero(episode:EMPIRE)': the selection needs an object, but the record holds 5",
        ])
    }

    func testWithTheSchemaInterfaceFragmentsApplyToTheirPossibleTypes() throws {
        let text = "{ hero(episode: NEWHOPE) { ... on Character { name } ... on Human { homePlanet } } }"
        let withSchema = try read(text, variables: [:], schema: Self.schema)
        XCTAssertEqual(withSchema.data?.foundationObject as? NSDictionary, ["hero": ["name": "R2-D2"]] as NSDictionary)
        let without = try read(text, variables: [:])
        XCTAssertEqual(without.data?.foundationObject as? NSDictionary, ["hero": [String: Any]()] as NSDictionary,
                       "without a schema Character is not the record's __typename")
    }

    func testTheSchemaValidatesDocumentsWithSourceLineAndColumn() throws {
        let document = try QueryDocument.parse([
            ("ok.graphql", "query A { hero(episode: NEWHOPE) { ...Names } }"),
            ("bad.graphql", "fragment Names on Character { name }\n\nquery B { hero { nme } }"),
        ])
        let problems = Self.schema.validate(document)
        XCTAssertEqual(problems, [.validation(source: "bad.graphql", line: 3, column: 18,
                                              message: #"Cannot query field "nme" on type "Character". Did you mean "name"?"#)])
    }

    func testADirectivesArgumentsAreCheckedAgainstTheDirectiveWhereverItStands() throws {
        let schema = try CacheSchema.parse([
            ("starwars.graphqls", String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("starwars.graphqls"), encoding: .utf8)),
            ("foo.graphqls", "directive @foo(limit: Int) on FIELD | INLINE_FRAGMENT | QUERY"),
        ])
        func problems(_ text: String) throws -> [String] {
            try schema.validate(QueryDocument.parse([("q.graphql", text)])).map(\.description)
        }
        // As graphql-js: the directive's own arguments, not the field's it is on.
        XCTAssertEqual(try problems("{ hero(episode: NEWHOPE) { id @foo(limt: 1) } }"),
                       [#"q.graphql:1:36: Unknown argument "limt" on directive "@foo". Did you mean "limit"?"#])
        XCTAssertEqual(try problems("{ hero(episode: NEWHOPE) { ... on Droid @foo(limt: 1) { id } } }"),
                       [#"q.graphql:1:46: Unknown argument "limt" on directive "@foo". Did you mean "limit"?"#])
        XCTAssertEqual(try problems("query Q @foo(limt: 1) { hero(episode: NEWHOPE) { id } }"),
                       [#"q.graphql:1:14: Unknown argument "limt" on directive "@foo". Did you mean "limit"?"#])
        XCTAssertEqual(try problems("{ hero(episode: NEWHOPE) { id @foo(limit: 1) @include(if: true) } }"), [])
        // An unknown directive is reported once, by name.
        XCTAssertEqual(try problems("{ hero(episode: NEWHOPE) { id @bogus(x: 1) } }"), [#"q.graphql:1:31: Unknown directive "@bogus"."#])
        // A field's arguments are still checked against the field.
        XCTAssertEqual(try problems("{ hero(episode: NEWHOPE, foo: 1) { id @foo(limit: 1) } }"),
                       [#"q.graphql:1:26: Field "hero" on type "Query" does not have argument "foo"."#])
    }

    func testUnusedFragmentsAreAllowedAndImpossibleSpreadsAreNot() throws {
        let unused = try QueryDocument.parse([
            ("q.graphql", "query A { hero(episode: NEWHOPE) { name } }"),
            ("f.graphql", "fragment Unused on Droid { primaryFunction }"),
        ])
        XCTAssertEqual(Self.schema.validate(unused), [], "Apollo projects keep fragments no operation spreads")
        let impossible = try QueryDocument.parse([("q.graphql", "query B { human(id: \"1\") { ... on Droid { primaryFunction } } }")])
        XCTAssertEqual(Self.schema.validate(impossible).map(\.description),
                       [#"q.graphql:1:28: Fragment cannot be spread here as objects of type "Human" can never be of type "Droid"."#])
    }

    func testAnAnonymousOperationNeedOnlyBeAloneInItsOwnSource() throws {
        let beside = try QueryDocument.parse([
            ("project.graphql", "query A { hero(episode: NEWHOPE) { name } }"),
            ("--text", "{ hero(episode: NEWHOPE) { id } }"),
        ])
        XCTAssertEqual(Self.schema.validate(beside), [])
        XCTAssertThrowsError(try QueryDocument.parse([("mixed.graphql", "query A { hero { name } }\n{ hero { id } }")])) { error in
            XCTAssertEqual("\(error)", "mixed.graphql:2:1: This anonymous operation must be the only defined operation.")
        }
    }

    func testWithoutANameTheOnlyAnonymousOperationIsChosen() throws {
        let document = try QueryDocument.parse([("project.graphql", "query A { a } query B { b }"), ("--text", "{ c }")])
        XCTAssertNil(try document.operation(named: nil).name)
        XCTAssertEqual(try document.operation(named: "B").name, "B")
        let two = try QueryDocument.parse([("--text 1", "{ c }"), ("--text 2", "{ d }")])
        XCTAssertThrowsError(try two.operation(named: nil)) { error in
            // Neither can be named: the message does not ask for a name.
            XCTAssertEqual((error as? QueryError)?.description,
                           "the documents hold several anonymous operations; keep one, or name them (query Name { … }) and give the name")
        }
        let named = try QueryDocument.parse([("project.graphql", "query A { a } query B { b }")])
        XCTAssertThrowsError(try named.operation(named: nil)) { error in
            XCTAssertEqual(error as? QueryError, .ambiguousOperation(available: ["A", "B"]))
        }
    }

    func testClientDirectivesAreDeclaredForTheUser() throws {
        let schema = try CacheSchema.parse(sdl: """
            type Query { book(isbn: String!): Book }
            type Book @typePolicy(keyFields: "isbn") { isbn: String! title: String }
            extend type Book { subtitle: String }
            """, source: "books.graphqls")
        let document = try QueryDocument.parse([("q", "query Local @apollo_client_ios_localCacheMutation { book(isbn: \"1\") { title subtitle } }")])
        XCTAssertEqual(schema.validate(document), [])
    }

    /// Whether the schema declares a client directive itself is read from
    /// its definitions, not its text: a comment naming the directive, a
    /// directive with a longer name, or the schema's own declaration spaced
    /// otherwise neither hides nor doubles the one given for the user.
    func testClientDirectivesAreDeclaredUnlessTheSchemaDefinesThemItself() throws {
        let book = """
            type Query { book: Book }
            type Book @typePolicy(keyFields: "id") { id: ID! title: String }
            """
        for before in [
            "# Keys come from directive @typePolicy, which Apollo's codegen declares",
            "directive @typePolicyNote on OBJECT",
            "directive  @typePolicy(keyFields: String!) on OBJECT | INTERFACE",
            "\"\"\"\ndirective @typePolicy\n\"\"\"\nscalar Date",
        ] {
            XCTAssertNoThrow(try CacheSchema.parse(sdl: before + "\n" + book, source: "books.graphqls"), before)
        }
        // Declared in another file of the schema, it is declared once.
        XCTAssertNoThrow(try CacheSchema.parse([
            ("books.graphqls", book), ("directives.graphqls", "directive @typePolicy(keyFields: String!) on OBJECT | INTERFACE"),
        ]))
    }

    /// Apollo's codegen refuses a @typePolicy whose keyFields is not names
    /// separated by single spaces, names a field the type lacks, a nullable
    /// one or one that is no scalar, or that conflicts with an interface's:
    /// so does the schema, at the keyFields string.
    func testATypePolicyApollosCodegenRefusesIsASchemaError() throws {
        func error(_ sources: [(String, String)]) -> QueryError? {
            do {
                _ = try CacheSchema.parse(sources)
                return nil
            } catch {
                return error as? QueryError
            }
        }
        XCTAssertEqual(error([
            ("schema.graphqls", "type Query { a: A }\ntype A { id: ID! name: String }"),
            ("policies.graphqls", #"extend type A @typePolicy(keyFields: "id nope")"#),
        ]), .schema(source: "policies.graphqls", line: 1, column: 38, message: "@typePolicy on A names key field 'nope', which A does not have (its fields: id, name)"))
        XCTAssertEqual(error([("s", #"type Query { a: A } type A @typePolicy(keyFields: "id, name") { id: ID! name: String! }"#)]),
                       .schema(source: "s", line: 1, column: 51, message: "@typePolicy on A names key field 'id,', which A does not have (its fields: id, name)"))
        for keyFields in ["", "id  name", " id"] {
            XCTAssertEqual(error([("s", #"type Query { a: A } type A @typePolicy(keyFields: "\#(keyFields)") { id: ID! name: String! }"#)]),
                           .schema(source: "s", line: 1, column: 51, message: "@typePolicy on A: keyFields must be field names separated by single spaces"), keyFields)
        }
        XCTAssertEqual(error([("s", #"type Query { a: A } type A @typePolicy(keyFields: "name") { id: ID! name: String }"#)]),
                       .schema(source: "s", line: 1, column: 51, message: "@typePolicy on A names key field 'name', which is nullable (String); a key field must be non-null"))
        XCTAssertEqual(error([("s", #"type Query { a: A } type A @typePolicy(keyFields: "b") { b: B! } type B { id: ID! }"#)]),
                       .schema(source: "s", line: 1, column: 51, message: "@typePolicy on A names key field 'b', of type B!; a key field must be a scalar"))
        XCTAssertEqual(error([("s", #"type Query { a: A } interface I @typePolicy(keyFields: "id") { id: ID! } type A implements I @typePolicy(keyFields: "n") { id: ID! n: ID! }"#)]),
                       .schema(source: "s", line: 1, column: 117, message: "@typePolicy on A conflicts with the one on its interface I"))
        XCTAssertEqual(error([("s", #"type Query { a: A } interface I @typePolicy(keyFields: "i") { i: ID! } interface J @typePolicy(keyFields: "j") { j: ID! } type A implements I & J { i: ID! j: ID! }"#)]),
                       .schema(source: "s", line: 1, column: 56, message: "A inherits conflicting @typePolicy directives from its interfaces I and J"))
        XCTAssertNil(error([("s", #"type Query { a: A } type A @typePolicy(keyFields: "id name") { id: ID! name: String! }"#)]))
    }

    /// An extension's @typePolicy comes before the definition's, as Apollo's
    /// codegen takes it; an object without one takes its interface's.
    func testATypePolicyOnAnExtensionComesFirstAndAnInterfacesIsInherited() throws {
        let schema = try CacheSchema.parse([
            ("s", #"type Query { a: A b: B } type A @typePolicy(keyFields: "id") { id: ID! n: ID! } interface I @typePolicy(keyFields: "k") { k: ID! } type B implements I { k: ID! }"#),
            ("e", #"extend type A @typePolicy(keyFields: "n")"#),
        ])
        XCTAssertEqual(schema.keyFields(of: "A"), ["n"])
        XCTAssertEqual(schema.keyFields(of: "B"), ["k"])
        // An extension's policy is taken as codegen takes it, without a look at the interfaces.
        let extended = try CacheSchema.parse([
            ("s", #"type Query { c: C } interface Node @typePolicy(keyFields: "id") { id: ID! } type C implements Node { id: ID! n: ID! }"#),
            ("e", #"extend type C @typePolicy(keyFields: "n")"#),
        ])
        XCTAssertEqual(extended.keyFields(of: "C"), ["n"])
    }

    /// The schema builder says an extension of an undefined type without
    /// a place; the error gives the `extend` line's.
    func testExtendingATypeNoFileDefinesIsPlacedAtTheExtension() throws {
        XCTAssertThrowsError(try CacheSchema.parse([
            ("schema.graphqls", "type Query { a: Int }"), ("ext.graphqls", "# more\n\n  extend type User { nick: String }"),
        ])) { error in
            XCTAssertEqual(error as? QueryError, .schema(
                source: "ext.graphqls", line: 3, column: 3, message: "Cannot extend type \"User\" because it is not defined."))
        }
    }

    func testASchemaSplitAcrossFilesMayExtendTypesInAnyOrder() throws {
        let schema = try CacheSchema.parse([
            ("search.graphqls", "extend type Query { search(text: String!): [Book] }"),
            ("schema.graphqls", "type Query { book(isbn: String!): Book }\ntype Book { isbn: String! title: String }"),
        ])
        let document = try QueryDocument.parse([("q", #"{ book(isbn: "1") { title } search(text: "a") { isbn } }"#)])
        XCTAssertEqual(schema.validate(document), [])
    }

    func testASchemaErrorNamesTheFileAndItsOwnLine() {
        let sources = [
            ("schema.graphqls", "type Query {\n  book: Book\n}\ntype Book { title: String }"),
            ("extra.graphqls", "extend type Book {\n  subtitle: String\n  pages Int\n}"),
        ]
        XCTAssertThrowsError(try CacheSchema.parse(sources)) { error in
            XCTAssertEqual(error as? QueryError, .schema(source: "extra.graphqls", line: 3, column: 9, message: "syntax error: Expected :, found Name \"Int\""))
            XCTAssertEqual("\(error)", #"extra.graphqls:3:9: schema error: syntax error: Expected :, found Name "Int""#)
        }
        // The builder gives an unknown type no place: it is where the type is first named, not in a comment.
        let sdl = "# Missing is not here\ntype B {\n  c: [Missing!]\n}"
        XCTAssertThrowsError(try CacheSchema.parse([("a.graphqls", "type Query { a: Int }"), ("b.graphqls", sdl)])) { error in
            XCTAssertEqual("\(error)", #"b.graphqls:3:7: schema error: Unknown type "Missing"."#)
        }
        // Nor a type defined twice (two files that both declare a scalar): it is the second definition.
        let twice = [("a.graphqls", "type Query { a: Int }\nscalar DateTime"), ("b.graphqls", "type B { x: Int }\n  scalar DateTime\n")]
        XCTAssertThrowsError(try CacheSchema.parse(twice)) { error in
            XCTAssertEqual("\(error)", #"b.graphqls:2:3: schema error: There can be only one type named "DateTime"."#)
        }
    }

    /// An operations file given as the schema is named as such, where the
    /// builder would only say that Int is an unknown type.
    func testAnOperationsFileGivenAsTheSchemaIsNamedAsSuch() {
        let sources = [("schema.graphqls", "type Query { a: Int }"), ("ops.graphql", "# Viewer\nquery Viewer { viewer { name } }")]
        XCTAssertThrowsError(try CacheSchema.parse(sources)) { error in
            XCTAssertEqual("\(error)", "ops.graphql:2:1: schema error: this is an operation, not a type definition: a schema file holds types (SDL) or an introspection result; give operations with --document")
        }
        XCTAssertThrowsError(try CacheSchema.parse([("f.graphql", "fragment F on User { name }")])) { error in
            XCTAssertTrue("\(error)".hasPrefix("f.graphql:1:1: schema error: this is a fragment, not a type definition"), "\(error)")
        }
    }

    /// A brace left open at the end of a file is reported there, not in
    /// the next file or in the client directives declared after them.
    func testASchemaFileLeftOpenIsReportedAtItsOwnEnd() {
        XCTAssertThrowsError(try CacheSchema.parse([("open.graphqls", "type Query { foo: Int \n"), ("b.graphqls", "type B { c: Int }")])) { error in
            XCTAssertEqual("\(error)", "open.graphqls:2:1: schema error: syntax error: Expected Name, found <EOF>")
        }
    }

    /// A schema no server would start with is refused, not used to check
    /// (or not check) documents against.
    func testASchemaWithoutAQueryTypeOrWithAnEmptyTypeIsRefused() {
        XCTAssertThrowsError(try CacheSchema.parse(sdl: "type Foo { a: Int }", source: "s.graphqls")) { error in
            XCTAssertEqual("\(error)", "s.graphqls: schema error: Query root type must be provided.")
        }
        XCTAssertThrowsError(try CacheSchema.parse(sdl: "type Query { a: Foo }\ntype Foo { }", source: "s.graphqls")) { error in
            XCTAssertEqual("\(error)", "s.graphqls:2:1: schema error: Type Foo must define one or more fields.")
        }
    }

    func testTheDemoQueryReadsBackTheResponseThatWroteIt() throws {
        let result = try read(Self.demo, variables: Self.variables)
        XCTAssertEqual(result.misses, [])
        let data = try XCTUnwrap(result.data)
        let expected = try JSONSerialization.jsonObject(with: Data(Self.response.utf8)) as! NSDictionary
        XCTAssertEqual(data.foundationObject as? NSDictionary, expected)
    }

    func testResponseKeysComeInSelectionOrderUnderTheirAliases() throws {
        let result = try read("{ second: hero(episode: NEWHOPE) { name } first: human(id: \"1000\") { n: name id } }", variables: [:])
        guard case .object(let members)? = result.data, case .object(let human) = members[1].1 else { return XCTFail("\(String(describing: result.data))") }
        XCTAssertEqual(members.map(\.0), ["second", "first"])
        XCTAssertEqual(human.map(\.0), ["n", "id"])
    }

    func testAMissNamesThePathTheRecordTheFieldKeyAndTheKeysTheRecordHas() throws {
        let result = try read("query { hero(episode: JEDI) { name } }", variables: [:])
        XCTAssertNil(result.data)
        XCTAssertEqual(result.misses, [CacheMiss(path: [.field("hero")], key: .queryRoot,
                                                 reason: .missingField(fieldKey: "hero(episode:JEDI)", similar: ["hero(episode:NEWHOPE)"]))])
        XCTAssertEqual(result.misses[0].description,
                       "cache miss at hero: record 'QUERY_ROOT' has no field 'hero(episode:JEDI)'; it has 'hero(episode:NEWHOPE)'")
    }

    func testAnIntegerWhereApolloRenderedAFloatMissesAndShowsTheStoredKey() throws {
        var variables = Self.variables
        variables["filter"] = .object(["text": .string("sky"), "limit": .int(2), "tags": .list([.string("a"), .string("b")]),
                                       "near": .object(["lat": .float(1.5), "lng": .int(-2)])])
        let result = try read("query Q($filter: SearchFilter) { search(filter: $filter) { id } }", variables: variables)
        guard case .missingField(let fieldKey, let similar)? = result.misses.first?.reason else { return XCTFail("\(result.misses)") }
        XCTAssertEqual(fieldKey, "search([filter:limit:2,[near:lat:1.5,lng:-2],tags:[a, b],text:sky])")
        XCTAssertEqual(similar, ["search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"])
    }

    /// A field selected without fields that holds a reference, in a list
    /// or not, is a type error as in Apollo, never the raw `$reference`.
    func testAReferenceReadAsAValueIsATypeError() throws {
        let result = try read("{ hero(episode: NEWHOPE) { name friends } }", variables: [:], partial: true)
        XCTAssertEqual(result.misses.map(\.description), [
            "type error at hero.friends: record 'Droid:2001', field 'friends' holds a reference to Human:1000, not a value; select its fields, as in friends { … }",
        ])
        let root = try read("{ hero(episode: NEWHOPE) }", variables: [:])
        XCTAssertNil(root.data)
        XCTAssertEqual(root.misses.first?.description,
                       "type error at hero: record 'QUERY_ROOT', field 'hero(episode:NEWHOPE)' holds a reference to Droid:2001, not a value; select its fields, as in hero { … }")
    }

    func testPartialReadsReturnWhatWasFoundAndEveryMiss() throws {
        let result = try read("{ hero(episode: NEWHOPE) { name height } human(id: \"1\") { name } }", variables: [:], partial: true)
        XCTAssertEqual(result.misses.map(\.pathText), ["hero.height", "human"])
        guard case .object(let members)? = result.data, case .object(let hero) = members[0].1 else { return XCTFail() }
        XCTAssertEqual(hero.map(\.0), ["name", "height"])
        XCTAssertEqual(hero[0].1, .scalar(.string("R2-D2")))
        XCTAssertEqual(hero[1].1, .null)
        XCTAssertEqual(members[1].1, .null)
    }

    func testADanglingReferenceIsAMissingRecordAtItsListIndex() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gqlcache-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("starwars.sqlite").path
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: copy)
        // The fixture may be write-protected, and its copy keeps the mode.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        let store = try CacheStore.open(at: copy, access: .readWrite)
        try store.write { tx in _ = try tx.removeObject(for: "Human:1002") }
        let document = try QueryDocument.parse([("q", "{ hero(episode: NEWHOPE) { friends { name } } }")])
        let result = try store.read { tx in try CacheReader(document: document, source: tx).read(try document.operation(named: nil)) }
        XCTAssertEqual(result.misses.map(\.description), ["cache miss at hero.friends.1: no record 'Human:1002' (field 'friends' of Droid:2001 refers to it)"])
    }

    func testIncludeSkipAndFragmentsByTypename() throws {
        let text = """
            query Q($withName: Boolean!) {
              hero(episode: NEWHOPE) { id name @include(if: $withName) ...DroidParts ... on Human { homePlanet } }
            }
            fragment DroidParts on Droid { primaryFunction appearsIn @skip(if: true) }
            """
        let result = try read(text, variables: ["withName": .boolean(false)])
        guard case .object(let members)? = result.data, case .object(let hero) = members[0].1 else { return XCTFail("\(result.misses)") }
        XCTAssertEqual(hero.map(\.0), ["id", "primaryFunction"])
    }

    /// A reference where a scalar is read is a type error; the advice to
    /// select the object's fields holds only when no schema says the field
    /// is a scalar.
    func testAReferenceInAScalarFieldIsATypeErrorWithAdviceThatFitsTheSchema() throws {
        let source = ReadBatchingTests.CountingSource()
        source.add("QUERY_ROOT", ["meta": .reference(CacheKey("Human:1000"))])
        let document = try QueryDocument.parse([("q.graphql", "{ meta }")])
        let schema = try CacheSchema.parse(sdl: "scalar JSONBlob type Query { meta: JSONBlob }", source: "s.graphqls")
        let withSchema = try CacheReader(document: document, schema: schema, source: source).read(try document.operation(named: nil))
        XCTAssertEqual(withSchema.misses.map(\.description), [
            "type error at meta: record 'QUERY_ROOT', field 'meta' holds a reference to Human:1000, not a value; "
                + "the schema declares JSONBlob, whose value Apollo cannot read from a reference",
        ])
        let without = try CacheReader(document: document, source: source).read(try document.operation(named: nil))
        XCTAssertEqual(without.misses.map(\.description), [
            "type error at meta: record 'QUERY_ROOT', field 'meta' holds a reference to Human:1000, not a value; select its fields, as in meta { … }",
        ])
        // Inside a custom scalar's object, said so.
        let nested = ReadBatchingTests.CountingSource()
        nested.add("QUERY_ROOT", ["meta": .object(["a": .reference(CacheKey("User:1"))])])
        let inside = try CacheReader(document: document, schema: schema, source: nested).read(try document.operation(named: nil))
        XCTAssertEqual(inside.misses.map(\.description), [
            "type error at meta: record 'QUERY_ROOT', field 'meta' holds, inside its JSON object, a reference to User:1, not a value; "
                + "the schema declares JSONBlob, whose value Apollo cannot read from a reference",
        ])
        // Without a schema, no selection of its fields is offered: an object held inline is no reference, which a selection would need.
        let insideWithout = try CacheReader(document: document, source: nested).read(try document.operation(named: nil))
        XCTAssertEqual(insideWithout.misses.map(\.description), [
            "type error at meta: record 'QUERY_ROOT', field 'meta' holds, inside its JSON object, a reference to User:1, not a value; "
                + "no selection of its fields reads it either, as Apollo reads an object's fields only through a reference",
        ])
        // So too in a list of such objects, which names the reference inside one (beside a reference of its own);
        // a list of references is read by a selection, and advised one.
        let listed = ReadBatchingTests.CountingSource()
        listed.add("QUERY_ROOT", [
            "meta": .list([.reference(CacheKey("Human:1000")), .object(["a": .reference(CacheKey("User:1"))])]),
            "refs": .list([.reference(CacheKey("User:1"))]),
        ])
        let refs = try QueryDocument.parse([("q.graphql", "{ meta refs }")])
        let inList = try CacheReader(document: refs, source: listed).read(try refs.operation(named: nil), partial: true)
        XCTAssertEqual(inList.misses.map(\.description), [
            "type error at meta: record 'QUERY_ROOT', field 'meta' holds, inside a JSON object in its list, a reference to User:1, not a value; "
                + "no selection of its fields reads it either, as Apollo reads an object's fields only through a reference",
            "type error at refs: record 'QUERY_ROOT', field 'refs' holds a reference to User:1, not a value; select its fields, as in refs { … }",
        ])
    }

    func testAFragmentReadsFromTheKeyItIsGiven() throws {
        let document = try QueryDocument.parse([("f", "fragment Ship on Starship { name length coordinates }")])
        let store = try CacheStore.open(at: Self.fixture)
        let result = try store.read { tx in try CacheReader(document: document, source: tx).read(try document.fragment(named: "Ship"), key: "Starship:3001") }
        XCTAssertEqual(result.data?.foundationObject as? NSDictionary,
                       ["name": "X-wing", "length": 12.5, "coordinates": [[1, 2], [3.5, 4]]] as NSDictionary)
    }

    func testSyntaxErrorsNameTheSourceLineAndColumn() {
        XCTAssertThrowsError(try QueryDocument.parse([("bad.graphql", "query {\n  hero {\n")])) { error in
            guard case .syntax(let source, let line, let column, _)? = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, "bad.graphql")
            XCTAssertEqual(line, 3)
            XCTAssertEqual(column, 1, "the end of the text, where a field or } was expected")
        }
    }
}

final class SourcePlaceTests: XCTestCase {
    private func place(of text: String, schema: CacheSchema? = nil) -> (line: Int, column: Int, message: String)? {
        do {
            let document = try QueryDocument.parse([("a.graphql", text)])
            if let schema, let error = schema.validate(document).first { throw error }
            return nil
        } catch QueryError.syntax(_, let line, let column, let message), QueryError.validation(_, let line, let column, let message) {
            return (line, column, message)
        } catch {
            XCTFail("\(error)")
            return nil
        }
    }

    /// The parser counts UTF-8 bytes; graphql-js, most editors and these
    /// errors count UTF-16 code units (two for an emoji).
    func testPlacesAfterNonASCIITextCountUTF16CodeUnitsAndLines() throws {
        let after = try XCTUnwrap(place(of: "query A {\n  hero { name # é😀 ééééé\n  name( }\n}"))
        XCTAssertEqual(after.line, 3)
        XCTAssertEqual(after.column, 9)
        let document = try QueryDocument.parse([("a.graphql", "# é😀\nquery { hero(x: \"é😀\") { ...F } }")])
        XCTAssertThrowsError(try document.checkFragmentSpreads(in: try document.operation(named: nil).selections)) { error in
            guard case .unknownSpread(_, _, let line, let column, _)? = error as? QueryError else { return XCTFail("\(error)") }
            XCTAssertEqual([line, column], [2, 26])
        }
        let schema = try CacheSchema.parse([("s.graphqls", "type Query { a: String }")])
        let invalid = try XCTUnwrap(place(of: "# ééééé\n# 😀😀\nquery A {\n  hero { nope }\n}", schema: schema))
        XCTAssertEqual([invalid.line, invalid.column], [4, 3])
    }

    func testAnUnexpectedNonASCIICharacterIsNamedAsWrittenWithItsCodePoint() throws {
        let found = try XCTUnwrap(place(of: "query A {\n  hero { name(x: \"é\") ∑ }\n}"))
        XCTAssertEqual([found.line, found.column], [2, 23])
        XCTAssertEqual(found.message, "syntax error: Unexpected character '∑' (U+2211).")
        // A \u escape the parser does not read is quoted as written.
        for escape in [#"\u{1F600}"#, #"\uD83D"#, #"\u12"#] {
            let bad = try XCTUnwrap(place(of: #"{ human(id: "x"# + escape + #"") { name } }"#))
            XCTAssertEqual(bad.message, "syntax error: invalid escape \(escape) (\\u takes four hex digits, for a character below U+10000; "
                + "write any other character as itself).")
        }
        // A combining mark is named by its code point, not by its first byte.
        let mark = try XCTUnwrap(place(of: "{ name\u{0301} }"))
        XCTAssertEqual([mark.line, mark.column], [1, 7])
        XCTAssertEqual(mark.message, "syntax error: Unexpected character (U+0301).")
    }
}

extension ResponseValue {
    /// The data as Foundation JSON objects, for comparing with a response.
    var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .scalar(let value): return value.foundationObject
        case .list(let elements): return elements.map(\.foundationObject)
        case .object(let members): return NSDictionary(dictionary: Dictionary(uniqueKeysWithValues: members.map { ($0.0, $0.1.foundationObject) }))
        }
    }
}

extension FieldValue {
    var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let flag): return flag
        case .int(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .number(let text): return NSDecimalNumber(string: text)
        case .string(let text): return text
        case .reference(let key): return ["$reference": key.rawValue]
        case .list(let elements): return elements.map(\.foundationObject)
        case .object(let members): return NSDictionary(dictionary: members.mapValues(\.foundationObject))
        }
    }
}
