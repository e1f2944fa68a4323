import CacheStore
import Foundation
import XCTest

@testable import CacheQuery

/// Writing responses as Apollo's normalizer does, checked against the
/// records the real Apollo code wrote into starwars.sqlite.
final class ResponseNormalizerTests: XCTestCase {
    /// Human and Droid by id, as the app that wrote the fixture configured
    /// them; Starship comes from the schema's @typePolicy.
    static let policy = KeyPolicy(keyFields: ["Human": ["id"], "Droid": ["id"]])

    static var demoVariables: [String: InputValue] {
        var variables = CacheReaderTests.variables
        variables["filter"] = .object(["text": .string("sky"), "limit": .int(2), "tags": .list([.string("a"), .string("b")]),
                                       "near": .object(["lat": .float(1.5), "lng": .int(-2)])])
        return variables
    }

    private func fixtureRecords() throws -> [CacheKey: Record] {
        let store = try CacheStore.open(at: CacheReaderTests.fixture)
        return try store.read { tx in
            var records: [CacheKey: Record] = [:]
            try tx.forEachRecord { key, record in records[key] = try record.get() }
            return records
        }
    }

    private func normalize(
        _ text: String, data: String, variables: [String: InputValue] = [:], schema: CacheSchema? = CacheReaderTests.schema,
        policy: KeyPolicy = ResponseNormalizerTests.policy
    ) throws -> [CacheKey: Record] {
        let document = try QueryDocument.parse([("test.graphql", text)])
        let records = try ResponseNormalizer(document: document, schema: schema, keyPolicy: policy)
            .normalize(try document.operation(named: nil), data: try FieldValue(jsonText: data), variables: variables).records
        return Dictionary(uniqueKeysWithValues: records.map { ($0.key, $0) })
    }

    func testTheDemoResponseNormalizesToTheRecordsApolloWrote() throws {
        let written = try normalize(CacheReaderTests.demo, data: CacheReaderTests.response, variables: Self.demoVariables)
        let fixture = try fixtureRecords()
        XCTAssertFalse(written.isEmpty)
        for (key, record) in written {
            guard let stored = fixture[key] else { XCTFail("Apollo wrote no record \(key.rawValue)"); continue }
            if key == .queryRoot {
                // The mutation wrote nothing into QUERY_ROOT, so every field must agree.
                XCTAssertEqual(record.fields, stored.fields, key.rawValue)
            } else {
                XCTAssertEqual(record.fields, stored.fields.filter { record.fields[$0.key] != nil }, key.rawValue)
                XCTAssertEqual(Set(record.fields.keys), Set(stored.fields.keys), key.rawValue)
            }
        }
        let fromMutation = Set(fixture.keys).subtracting(written.keys)
        XCTAssertEqual(fromMutation.map(\.rawValue).sorted().filter { !$0.hasPrefix("MUTATION_ROOT") }, [])
    }

    /// A server's response lacks the fragments `@defer` defers, and
    /// Apollo's normalizer leaves them to the payloads that deliver them:
    /// not written even when the data holds their fields, which is said.
    /// A model's data (a local cache mutation's) writes those it holds.
    func testAResponseIsWrittenWithoutItsDeferredFragmentsAndAModelWithThoseItHolds() throws {
        let text = #"{ hero(episode: NEWHOPE) { __typename id name ... on Droid @defer(label: "d") { primaryFunction } } }"#
        let document = try QueryDocument.parse([("test.graphql", text)])
        let operation = try document.operation(named: nil)
        let normalizer = ResponseNormalizer(document: document, schema: CacheReaderTests.schema, keyPolicy: Self.policy)
        let data = try FieldValue(jsonText: #"{"hero":{"__typename":"Droid","id":"2001","name":"R2","primaryFunction":"Protocol"}}"#)
        let response = try normalizer.normalize(operation, data: data)
        let droid = try XCTUnwrap(response.records.first { $0.key == CacheKey("Droid:2001") })
        XCTAssertNil(droid.fields["primaryFunction"])
        XCTAssertEqual(droid.fields["name"], .string("R2"))
        XCTAssertEqual(response.deferredNotWritten, [DeferredFragmentNotWritten(path: "hero", label: "d", fields: ["primaryFunction"])])

        let model = try normalizer.normalize(operation, data: data, deferredFragments: .whereGiven)
        XCTAssertEqual(model.records.first { $0.key == CacheKey("Droid:2001") }?.fields["primaryFunction"], .string("Protocol"))
        XCTAssertEqual(model.deferredNotWritten, [])
        // A model whose fragment is pending (none of its fields) writes the rest.
        let pending = try normalizer.normalize(
            operation, data: try FieldValue(jsonText: #"{"hero":{"__typename":"Droid","id":"2001","name":"R2"}}"#), deferredFragments: .whereGiven)
        XCTAssertEqual(pending.records.first { $0.key == CacheKey("Droid:2001") }?.fields["name"], .string("R2"))
    }

    /// A model's deferred fragment is fulfilled where the data holds a
    /// field only it selects: one sharing `id` with the fields beside it is
    /// not taken as given by that, and a key field only it selects keys the
    /// object when it is given.
    func testAModelsDeferredFragmentIsGivenByTheFieldsOnlyItSelects() throws {
        let text = #"query U { hero(episode: NEWHOPE) { __typename name ... @defer(label: "m") { name id appearsIn } } }"#
        let document = try QueryDocument.parse([("test.graphql", text)])
        let operation = try document.operation(named: nil)
        let normalizer = ResponseNormalizer(document: document, schema: CacheReaderTests.schema, keyPolicy: KeyPolicy(keyFields: ["*": ["id"]]))
        let pending = try normalizer.normalize(
            operation, data: try FieldValue(jsonText: #"{"hero":{"__typename":"Droid","name":"R3"}}"#), deferredFragments: .whereGiven)
        XCTAssertEqual(pending.records.first { $0.key == CacheKey("QUERY_ROOT.hero(episode:NEWHOPE)") }?.fields["name"], .string("R3"))
        let given = try normalizer.normalize(
            operation, data: try FieldValue(jsonText: #"{"hero":{"__typename":"Droid","name":"R3","id":"2001","appearsIn":[]}}"#),
            deferredFragments: .whereGiven)
        XCTAssertEqual(given.records.first { $0.key == CacheKey("Droid:2001") }?.fields["appearsIn"], .list([]))
        XCTAssertEqual(given.records.first { $0.key == .queryRoot }?.fields["hero(episode:NEWHOPE)"], .reference(CacheKey("Droid:2001")))
    }

    /// A later payload's part is written as Apollo 2.x writes it: the
    /// deferred fragment found by label and field path, its data at the key
    /// of the path from the root (not at the object's own key).
    func testAnIncrementalPartIsWrittenAtThePathKeyFromTheRoot() throws {
        let text = #"""
            query Q { hero(episode: NEWHOPE) { __typename id friends { __typename id ... on Human @defer(label: "home") { homePlanet } } } }
            """#
        let document = try QueryDocument.parse([("test.graphql", text)])
        let operation = try document.operation(named: nil)
        let normalizer = ResponseNormalizer(document: document, schema: CacheReaderTests.schema, keyPolicy: Self.policy)
        let part = try normalizer.normalize(
            operation, incremental: try FieldValue(jsonText: #"{"homePlanet":"Tatooine"}"#),
            path: [.field("hero"), .field("friends"), .index(0)], label: "home")
        XCTAssertEqual(part.records.map(\.key), [CacheKey("QUERY_ROOT.hero.friends.0")])
        XCTAssertEqual(part.records.first?.fields, ["homePlanet": .string("Tatooine")])

        XCTAssertThrowsError(try normalizer.normalize(
            operation, incremental: .object([:]), path: [.field("hero")], label: "home")) { error in
            XCTAssertEqual("\(error)", "cannot write hero: the operation has no fragment deferred with label 'home' at hero; "
                + "it defers 'home' at hero.friends")
        }
    }

    func testTheMutationResultIsStoredUnderMutationRootAtItsPathKey() throws {
        let written = try normalize(
            "mutation CreateReview($episode: Episode, $review: ReviewInput!) { createReview(episode: $episode, review: $review) { __typename stars commentary } }",
            data: #"{"createReview":{"__typename":"Review","stars":5,"commentary":"This is a great movie!"}}"#,
            variables: ["episode": .string("JEDI"), "review": .object(["stars": .int(5), "commentary": .string("This is a great movie!")])])
        let fixture = try fixtureRecords()
        XCTAssertEqual(Set(written.keys), Set(fixture.keys.filter { $0.rawValue.hasPrefix("MUTATION_ROOT") }))
        for (key, record) in written { XCTAssertEqual(record.fields, fixture[key]?.fields, key.rawValue) }
    }

    /// An operation's root selects no `__typename`, but a fragment spread
    /// there is a fragment's selection set, which Apollo's code generator
    /// gives one: the root record stores the `__typename` the data gives,
    /// and a later update of the same fragment finds it.
    func testAFragmentSpreadAtAnOperationsRootStoresTheRootsTypename() throws {
        let data = #"{"__typename":"Query","hero":{"__typename":"Droid","id":"2001","name":"R2-D2"}}"#
        let fragment = "fragment Q on Query { hero(episode: NEWHOPE) { id name } }"
        for schema in [CacheReaderTests.schema, nil] {
            let spread = try normalize("{ ...Q } " + fragment, data: data, schema: schema)
            XCTAssertEqual(spread[.queryRoot]?.fields["__typename"], .string("Query"))
            let underInclude = try normalize("query($yes: Boolean!) { ... @include(if: $yes) { ...Q } } " + fragment, data: data,
                                             variables: ["yes": .boolean(true)], schema: schema)
            XCTAssertEqual(underInclude[.queryRoot]?.fields["__typename"], .string("Query"))
            let plain = try normalize("{ hero(episode: NEWHOPE) { id name } }", data: data, schema: schema)
            XCTAssertNil(plain[.queryRoot]?.fields["__typename"], "a root without a fragment selects none")
            let skipped = try normalize("query($yes: Boolean!) { hero(episode: NEWHOPE) { id name } ...Q @include(if: $yes) } " + fragment,
                                        data: data, variables: ["yes": .boolean(false)], schema: schema)
            XCTAssertNil(skipped[.queryRoot]?.fields["__typename"], "a fragment @include leaves out selects nothing")
            // An inline fragment on the root type applies there, with a schema or without one.
            let inline = try normalize("{ ... on Query { hero(episode: NEWHOPE) { id name } } }", data: data, schema: schema)
            XCTAssertEqual(inline[CacheKey("Droid:2001")]?.fields["name"], .string("R2-D2"))
        }
    }

    func testKeyFieldsJoinWithPlusAndEscapeBackslashAndPlus() throws {
        let schema = try CacheSchema.parse(sdl: """
            type Query { book: Book }
            type Book @typePolicy(keyFields: "isbn lang") { isbn: String! lang: String! title: String }
            """, source: "books.graphqls")
        let written = try normalize(
            "{ book { __typename isbn lang title } }", data: #"{"book":{"__typename":"Book","isbn":"1+2\\3","lang":"en","title":"T"}}"#,
            schema: schema, policy: KeyPolicy())
        XCTAssertEqual(written[.queryRoot]?["book"], .reference(CacheKey(#"Book:1\+2\\3+en"#)))
        XCTAssertEqual(written[CacheKey(#"Book:1\+2\\3+en"#)]?["title"], .string("T"))
    }

    /// `--key-field` stands for the app's `cacheKeyInfo(for:object:)`, and
    /// `CacheKeyInfo(jsonValue: object["id"])` escapes nothing: a base64 id
    /// keeps its `+`, so the object goes back into the record the app wrote.
    /// A `--key-field` entry wins over the schema's `@typePolicy`, and so
    /// does not escape either.
    func testKeyFieldValuesAreNotEscapedAsTheAppsCacheKeyInfoDoesNot() throws {
        let data = #"{"book":{"__typename":"Book","isbn":"dXNl+Zz==","lang":"a\\b","title":"T"}}"#
        let written = try normalize(
            "{ book { __typename isbn lang title } }", data: data, schema: nil, policy: KeyPolicy(keyFields: ["Book": ["isbn"]]))
        XCTAssertEqual(written[.queryRoot]?["book"], .reference(CacheKey("Book:dXNl+Zz==")))
        let everyType = try normalize(
            "{ book { __typename isbn lang title } }", data: data, schema: nil, policy: KeyPolicy(keyFields: ["*": ["isbn", "lang"]]))
        XCTAssertEqual(everyType[.queryRoot]?["book"], .reference(CacheKey(#"Book:dXNl+Zz==+a\b"#)))
        let schema = try CacheSchema.parse(sdl: """
            type Query { book: Book }
            type Book @typePolicy(keyFields: "isbn lang") { isbn: String! lang: String! title: String }
            """, source: "books.graphqls")
        let overridden = try normalize(
            "{ book { __typename isbn lang title } }", data: data, schema: schema, policy: KeyPolicy(keyFields: ["Book": ["isbn"]]))
        XCTAssertEqual(overridden[.queryRoot]?["book"], .reference(CacheKey("Book:dXNl+Zz==")))
    }

    /// Apollo's `cacheKey(for:)` asks the app's `cacheKeyInfo` first (which
    /// `--key-field` stands for, `*` too) and falls back to the schema's
    /// `@typePolicy` only when it gives no key: an object without the
    /// `--key-field` field is keyed by its type policy, not its path.
    func testTheTypePolicyKeysAnObjectTheKeyFieldGivesNoKeyAsApolloFallsBack() throws {
        let schema = try CacheSchema.parse(sdl: """
            type Query { book: Book }
            type Book @typePolicy(keyFields: "isbn lang") { id: ID isbn: String! lang: String! title: String }
            """, source: "books.graphqls")
        let withoutID = #"{"book":{"__typename":"Book","isbn":"1+2","lang":"en","title":"T"}}"#
        for policy in [KeyPolicy(keyFields: ["Book": ["id"]]), KeyPolicy(keyFields: ["*": ["id"]])] {
            let written = try normalize("{ book { __typename isbn lang title } }", data: withoutID, schema: schema, policy: policy)
            XCTAssertEqual(written[.queryRoot]?["book"], .reference(CacheKey(#"Book:1\+2+en"#)), "\(policy)")
        }
        let withID = #"{"book":{"__typename":"Book","id":"b7","isbn":"1+2","lang":"en","title":"T"}}"#
        let byApp = try normalize("{ book { __typename id isbn lang title } }", data: withID, schema: schema, policy: KeyPolicy(keyFields: ["*": ["id"]]))
        XCTAssertEqual(byApp[.queryRoot]?["book"], .reference(CacheKey("Book:b7")), "the app's cacheKeyInfo comes first")
    }

    func testObjectsWithoutAnIdentityGetPathKeysWithListIndexes() throws {
        let written = try normalize(
            "{ grid { cells { v } } }", data: #"{"grid":{"__typename":"G","cells":[[{"__typename":"C","v":1},{"__typename":"C","v":2}],[null]]}}"#, schema: nil, policy: KeyPolicy())
        XCTAssertEqual(written[.queryRoot]?["grid"], .reference(CacheKey("QUERY_ROOT.grid")))
        XCTAssertEqual(written[CacheKey("QUERY_ROOT.grid")]?["cells"], .list([
            .list([.reference(CacheKey("QUERY_ROOT.grid.cells.0.0")), .reference(CacheKey("QUERY_ROOT.grid.cells.0.1"))]), .list([.null]),
        ]))
        XCTAssertEqual(written[CacheKey("QUERY_ROOT.grid.cells.0.1")]?["v"], .int(2))
    }

    func testAliasesNeverEnterKeysAndArgumentsDo() throws {
        let written = try normalize(
            #"{ orphan: node(id: "b-9") { label: name } }"#, data: #"{"orphan":{"__typename":"Node","label":"x"}}"#, schema: nil, policy: KeyPolicy())
        XCTAssertEqual(written[.queryRoot]?["node(id:b-9)"], .reference(CacheKey("QUERY_ROOT.node(id:b-9)")))
        XCTAssertEqual(written[CacheKey("QUERY_ROOT.node(id:b-9)")]?.fields, ["__typename": .string("Node"), "name": .string("x")])
    }

    /// Apollo's rule for a response: two aliases of one field keep the last
    /// value. Only a normalizer told to refuse conflicts (update) says so.
    func testTwoAliasesOfOneFieldKeepTheLastValueUnlessConflictsAreRefused() throws {
        let text = "{ hero { a: name b: name } }"
        let data = #"{"hero":{"__typename":"Droid","a":"first","b":"last"}}"#
        let written = try normalize(text, data: data, schema: nil, policy: KeyPolicy())
        XCTAssertEqual(written[CacheKey("QUERY_ROOT.hero")]?.fields, ["__typename": .string("Droid"), "name": .string("last")])
        let document = try QueryDocument.parse([("test.graphql", text)])
        let strict = ResponseNormalizer(document: document, refusingConflicts: true)
        XCTAssertThrowsError(try strict.normalize(try document.operation(named: nil), data: try FieldValue(jsonText: data))) { error in
            XCTAssertEqual((error as? NormalizationError)?.path.map(\.description), ["hero", "b"])
        }
        let agreeing = try strict.normalize(try document.operation(named: nil), data: try FieldValue(jsonText: #"{"hero":{"__typename":"Droid","a":"x","b":"x"}}"#))
        XCTAssertEqual(agreeing.records.first { $0.key == CacheKey("QUERY_ROOT.hero") }?.fields, ["__typename": .string("Droid"), "name": .string("x")])
    }

    /// Apollo merges an object's fields into its record once the objects
    /// inside it are merged: a keyed object met again inside itself keeps
    /// the outer values, and one met twice side by side keeps the second.
    /// Each case is reported with the value kept and the value dropped.
    func testAnObjectMetAgainInsideItselfKeepsItsOuterValuesAsApolloDoes() throws {
        let text = "{ hero { __typename id name friends { __typename id name friends { __typename id name } } } }"
        let data = #"""
            {"hero":{"__typename":"Droid","id":"2001","name":"outer","friends":[
              {"__typename":"Human","id":"1000","name":"first","friends":[{"__typename":"Droid","id":"2001","name":"inner"}]},
              {"__typename":"Human","id":"1000","name":"second","friends":[]}]}}
            """#
        let document = try QueryDocument.parse([("test.graphql", text)])
        let normalization = try ResponseNormalizer(document: document, keyPolicy: Self.policy)
            .normalize(try document.operation(named: nil), data: try FieldValue(jsonText: data))
        let written = Dictionary(uniqueKeysWithValues: normalization.records.map { ($0.key, $0.fields) })
        XCTAssertEqual(written[CacheKey("Droid:2001")]?["name"], .string("outer"))
        XCTAssertEqual(written[CacheKey("Human:1000")]?["name"], .string("second"))
        XCTAssertEqual(written[CacheKey("Human:1000")]?["friends"], .list([]))
        let reported = normalization.overwritten.map { "\($0.key.rawValue).\($0.fieldKey): \($0.kept.value) at \($0.kept.path), not \($0.dropped.map { "\($0.value) at \($0.path)" }.joined(separator: ", "))" }
        // In the order Apollo merges them: inner objects first.
        XCTAssertEqual(reported, [
            #"Human:1000.name: "second" at hero.friends.1.name, not "first" at hero.friends.0.name"#,
            #"Human:1000.friends: [] at hero.friends.1.friends, not [{"$reference":"Droid:2001"}] at hero.friends.0.friends"#,
            #"Droid:2001.name: "outer" at hero.name, not "inner" at hero.friends.0.friends.0.name"#,
        ])
        let agreeing = try ResponseNormalizer(document: document, keyPolicy: Self.policy).normalize(
            try document.operation(named: nil),
            data: try FieldValue(jsonText: #"{"hero":{"__typename":"Droid","id":"2001","name":"R2","friends":[]}}"#))
        XCTAssertEqual(agreeing.overwritten.count, 0, "values that agree are no conflict")
    }

    func testTheWildcardPolicyKeysEveryTypeThatHasTheField() throws {
        let written = try normalize(
            "{ a { __typename id } b { __typename name } }", data: #"{"a":{"__typename":"A","id":"1"},"b":{"__typename":"B","name":"n"}}"#,
            schema: nil, policy: KeyPolicy(keyFields: ["*": ["id"]]))
        XCTAssertEqual(written[.queryRoot]?["a"], .reference(CacheKey("A:1")))
        XCTAssertEqual(written[.queryRoot]?["b"], .reference(CacheKey("QUERY_ROOT.b")))
    }

    func testWithASchemaAnIntegerIDInAResponseIsStoredAsSentAndInAModelAsItsText() throws {
        // Apollo's normalizer takes a response's scalar as it is; a model's ID is a String.
        let written = try normalize(#"{ human(id: "1000") { __typename id } }"#, data: #"{"human":{"__typename":"Human","id":1000}}"#)
        XCTAssertEqual(written[CacheKey("Human:1000")]?["id"], .int(1000))
        let document = try QueryDocument.parse([("test.graphql", #"{ human(id: "1000") { __typename id } }"#)])
        let model = try ResponseNormalizer(document: document, schema: CacheReaderTests.schema, keyPolicy: Self.policy).normalize(
            try document.operation(named: nil), data: try FieldValue(jsonText: #"{"human":{"__typename":"Human","id":1000}}"#),
            deferredFragments: .whereGiven)
        XCTAssertEqual(model.records.first { $0.key == CacheKey("Human:1000") }?["id"], .string("1000"))
    }

    func testMissingDataAndWrongShapesAreRefusedWithTheirPath() throws {
        XCTAssertThrowsError(try normalize("{ hero { name } }", data: #"{"hero":{"__typename":"Droid"}}"#, schema: nil)) { error in
            XCTAssertEqual("\(error)", "cannot write hero.name: the data has no 'name', which the selection asks for")
        }
        // Apollo's generated models select __typename in every object below
        // the root: a response without it is refused, selected or not.
        XCTAssertThrowsError(try normalize("{ hero { name } }", data: #"{"hero":{"name":"R2"}}"#, schema: nil)) { error in
            XCTAssertEqual("\(error)", #"cannot write hero.__typename: the data has no '__typename', which Apollo's generated models select in every object; give it for each new object, e.g. "__typename": "TypeName""#)
        }
        XCTAssertThrowsError(try normalize("{ hero { name } }", data: #"{"hero":{"__typename":null,"name":"R2"}}"#, schema: nil)) { error in
            XCTAssertEqual("\(error)", "cannot write hero.__typename: '__typename' holds null, not a type name")
        }
        // An alias says the type, also in a fragment the type it gives meets.
        for (text, schema) in [
            ("{ hero { ...F } } fragment F on Character { kind: __typename name }", CacheReaderTests.schema),
            ("{ hero { ... on Character { kind: __typename name } } }", CacheReaderTests.schema),
            ("{ hero { ... on Droid { kind: __typename name } } }", nil),
        ] {
            let written = try normalize(text, data: #"{"hero":{"kind":"Droid","name":"R2"}}"#, schema: schema)
            XCTAssertEqual(written[CacheKey("QUERY_ROOT.hero")]?["__typename"], .string("Droid"), text)
            XCTAssertEqual(written[CacheKey("QUERY_ROOT.hero")]?["name"], .string("R2"), text)
        }
        // In one it does not meet, it says nothing: the fragment would not apply.
        XCTAssertThrowsError(try normalize(
            "{ hero { ... on Droid { kind: __typename name } } }", data: #"{"hero":{"kind":"Human","name":"R2"}}"#, schema: CacheReaderTests.schema)
        ) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot write hero.__typename: the data has no '__typename'"), "\(error)")
        }
        XCTAssertThrowsError(try normalize("{ hero { name } }", data: #"{"hero":5}"#, schema: nil)) { error in
            XCTAssertEqual("\(error)", "cannot write hero: the selection needs an object, found 5")
        }
    }

    func testWithASchemaTypeErrorsAreRefused() throws {
        XCTAssertThrowsError(try normalize(
            #"{ human(id: "1") { __typename name } }"#, data: #"{"human":{"__typename":"Human","name":null}}"#)) { error in
            XCTAssertEqual("\(error)", "cannot write human.name: null in a non-null field of type String!")
        }
        XCTAssertThrowsError(try normalize(
            #"{ hero { __typename appearsIn } }"#, data: #"{"hero":{"__typename":"Droid","appearsIn":["JEDI",7]}}"#)) { error in
            XCTAssertEqual("\(error)", #"cannot write hero.appearsIn.1: expected Episode, found 7"#)
        }
        XCTAssertThrowsError(try normalize(
            #"{ human(id: "1") { __typename isJedi } }"#, data: #"{"human":{"__typename":"Human","isJedi":"yes"}}"#)) { error in
            XCTAssertEqual("\(error)", #"cannot write human.isJedi: expected Boolean, found "yes""#)
        }
    }

    /// What Apollo's JSONSerialization could not write, or would read back
    /// as something else, is refused with or without a schema.
    func testValuesApolloCouldNotStoreAsGivenAreRefused() throws {
        let cases: [(query: String, data: String, message: String)] = [
            (#"{ human(id: "1") { mass } }"#, #"{"human":{"__typename":"Human","mass":1e400}}"#,
             "cannot write human.mass: the number is too large for a Double; Apollo cannot store it"),
            (#"{ reviews(episode: JEDI) { meta } }"#, #"{"reviews":[{"__typename":"Review","meta":{"tags":[-1e999]}}]}"#,
             "cannot write reviews.0.meta: the number is too large for a Double; Apollo cannot store it"),
            (#"{ human(id: "1") { mass } }"#, #"{"human":{"__typename":"Human","mass":-1e-400}}"#,
             "cannot write human.mass: the number is too small for a Double (it reads as 0); Apollo cannot store it"),
            (#"{ reviews(episode: JEDI) { meta } }"#, #"{"reviews":[{"__typename":"Review","meta":{"$reference":"Human:1000"}}]}"#,
             "cannot write reviews.0.meta: an object with a string '$reference' member is what Apollo stores a reference as: it would be read back as one, not as this value"),
            (#"{ reviews(episode: JEDI) { meta } }"#, #"{"reviews":[{"__typename":"Review","meta":{"a":[{"$reference":"X","b":1}]}}]}"#,
             "cannot write reviews.0.meta: an object with a string '$reference' member is what Apollo stores a reference as: it would be read back as one, not as this value"),
        ]
        for (query, data, message) in cases {
            for schema in [CacheReaderTests.schema, nil] {
                XCTAssertThrowsError(try normalize(query, data: data, schema: schema), data) { error in
                    XCTAssertEqual("\(error)", message, data)
                }
            }
        }
        XCTAssertNoThrow(try normalize(#"{ human(id: "1") { mass } }"#, data: #"{"human":{"__typename":"Human","mass":1e300}}"#))
        XCTAssertNoThrow(try normalize(#"{ human(id: "1") { mass } }"#, data: #"{"human":{"__typename":"Human","mass":0e-400}}"#))
        // A `$reference` that is no string is read back as the object it is: stored as given.
        let stored = try normalize(#"{ reviews(episode: JEDI) { meta } }"#, data: #"{"reviews":[{"__typename":"Review","meta":{"$reference":5,"k":1}}]}"#)
        XCTAssertEqual(stored.values.first { $0.fields["meta"] != nil }?.fields["meta"], .object(["$reference": .int(5), "k": .int(1)]))
    }
}
