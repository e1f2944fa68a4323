import Foundation
import XCTest

@testable import CacheStore

/// FieldValue, JSONReader and JSONWriter: what the `record` column holds
/// must read back as the same JSON value, in the form Apollo iOS writes it.
final class JSONRoundTripTests: XCTestCase {

    // MARK: Every case round-trips

    /// One field per FieldValue case, plus the awkward variants of each.
    static let everyCase: [String: FieldValue] = [
        "null": .null,
        "true": .bool(true),
        "false": .bool(false),
        "int": .int(42),
        "negativeInt": .int(-7),
        "zero": .int(0),
        "intMax": .int(Int64.max),
        "intMin": .int(Int64.min),
        "double": .double(5.6430448),
        "negativeDouble": .double(-2.5),
        "tinyDouble": .double(1e-7),
        "hugeDouble": .double(1.5e300),
        "subnormal": .double(.leastNonzeroMagnitude),
        "imprecise": .double(0.1 + 0.2),
        "negativeZero": .double(-0.0),
        "string": .string("plain"),
        "emptyString": .string(""),
        "escapes": .string("slash / quote \" backslash \\ newline \n tab \t cr \r bs \u{08} ff \u{0C} ctl \u{01} nul \u{0}"),
        "unicode": .string("é ü 日本 😀 e\u{301}"),
        "reference": .reference("Droid:2001"),
        "pathReference": .reference("QUERY_ROOT.reviews(episode:JEDI,first:2).0"),
        "slashReference": .reference("Odd:path/to/x"),
        "emptyList": .list([]),
        "list": .list([.reference("Human:1000"), .reference("Human:1002"), .null]),
        "nestedList": .list([.list([.int(1), .int(2)]), .list([.double(3.5), .int(4)]), .list([])]),
        "emptyObject": .object([:]),
        "object": .object(["source": .string("web"), "score": .double(1.5), "tags": .list([.string("a")])]),
        "nestedObject": .object(["inner": .object(["deep": .object(["x": .null])])]),
        "referenceInObject": .object(["ref": .reference("Starship:3001")]),
        "referenceLookalike": .object(["$reference": .string("Droid:2001"), "extra": .int(1)]),
        "nonStringReferenceMember": .object(["$reference": .int(5)]),
        "field/with/slash": .string("x"),
        "hero(episode:JEDI)": .reference("Droid:2001"),
        "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])": .list([.list([.reference("Human:1000"), .null])]),
    ]

    func testEveryFieldValueCaseRoundTripsThroughRecordText() throws {
        let record = Record(key: "Test:1", fields: Self.everyCase)
        let text = record.jsonText
        let reread = try Record(key: "Test:1", jsonText: text)
        XCTAssertEqual(reread, record)
        for (field, value) in Self.everyCase {
            XCTAssertEqual(reread[field], value, field)
            XCTAssertEqual(reread[field].map(Self.caseName), Self.caseName(value), "the case of \(field) changed")
        }
        // Writing the reread record gives the very same text: the writer is deterministic.
        XCTAssertEqual(reread.jsonText, text)
        // And the text is valid JSON for an independent parser.
        XCTAssertNoThrow(try foundationJSONObject(text))
    }

    func testEachFieldValueCaseRoundTripsAsAStandaloneValue() throws {
        for (field, value) in Self.everyCase {
            let text = JSONWriter.string(for: value)
            let reread = try FieldValue(jsonText: text)
            XCTAssertEqual(reread, value, "\(field): \(text)")
            XCTAssertEqual(Self.caseName(reread), Self.caseName(value), "\(field): \(text)")
            XCTAssertEqual(value.description, text)
        }
    }

    /// Apollo stores a Float that is a whole number as an integer (spec
    /// §2: `4.0` is written `4`); people reading a value see it as Swift
    /// spells it.
    func testAWholeDoubleIsStoredAsAnIntegerAsApolloStoresIt() throws {
        let record = Record(key: "Place:1", fields: ["coordinates": .list([.list([.int(1), .int(2)]), .list([.double(3.5), .double(4.0)])]),
                                                     "mass": .double(-2.0), "big": .double(9_007_199_254_740_992)])
        XCTAssertEqual(record.jsonText, #"{"big":9007199254740992,"coordinates":[[1,2],[3.5,4]],"mass":-2}"#)
        XCTAssertEqual(try Record(key: "Place:1", jsonText: record.jsonText), record, "equal as JSON values")
        XCTAssertEqual(JSONWriter.string(for: .double(4.0), asStored: false), "4.0")
        // Beyond 2^53 a Double holds no exact integer to write; -0.0 keeps its sign.
        XCTAssertEqual(JSONWriter.string(for: .double(1e21)), "1e+21")
        XCTAssertEqual(JSONWriter.string(for: .double(-0.0)), "-0.0")
    }

    func testDoublesRoundTripBitForBitThroughTheTextWritten() throws {
        let doubles: [Double] = [5.6430448, 12.5, 3.5, -2.5, 0.1 + 0.2, 1e-7, 1e21, 123456789.125, .leastNonzeroMagnitude,
                                 Double.greatestFiniteMagnitude, -Double.leastNormalMagnitude, 1.0 / 3.0, -0.0]
        for number in doubles {
            let text = JSONWriter.string(for: .double(number))
            guard case .double(let reread) = try FieldValue(jsonText: text) else {
                XCTFail("\(number) written as \(text) did not read back as a double"); continue
            }
            XCTAssertEqual(reread.bitPattern, number.bitPattern, "\(number) written as \(text)")
            // The text is a JSON number for Foundation too (whose Linux parser
            // may be off in the last digit, so only closeness is asked of it).
            let foundation = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [NSNumber]
            let parsed = try XCTUnwrap(foundation?.first?.doubleValue, text)
            XCTAssertEqual(parsed, number, accuracy: abs(number) * 1e-15, text)
        }
    }

    func testParsedRecordTextWrittenAndParsedAgainGivesEqualFields() throws {
        // Whitespace, every escape and member order that the writer would not produce.
        let text = """
             { "b" : [ 1 , 2.50 , -0.5e1 , true , false , null ] ,
               "a\\/b" : "x\\u00e9\\ud83d\\ude00\\n\\"y\\"" ,
               "ref" : { "$reference" : "Human:1000" } ,
               "obj" : { "z" : { } , "y" : [ ] } , "E" : 1E2 }
            """
        let first = try Record(key: "K", jsonText: text)
        let second = try Record(key: "K", jsonText: first.jsonText)
        XCTAssertEqual(first, second)
        XCTAssertEqual(first["b"], .list([.int(1), .double(2.5), .double(-5), .bool(true), .bool(false), .null]))
        XCTAssertEqual(first["a/b"], .string("xé😀\n\"y\""))
        XCTAssertEqual(first["ref"], .reference("Human:1000"))
        XCTAssertEqual(first["obj"], .object(["z": .object([:]), "y": .list([])]))
        XCTAssertEqual(first["E"], .double(100))
        XCTAssertEqual(
            try foundationJSONObject(first.jsonText), try foundationJSONObject(text),
            "the rewritten text is the same JSON value for Foundation too")
    }

    func testMemberOrderDoesNotChangeTheWrittenText() throws {
        let forward = try Record(key: "K", jsonText: #"{"a":1,"b":{"y":2,"x":3},"c":"/"}"#)
        let backward = try Record(key: "K", jsonText: #"{"c":"\/","b":{"x":3,"y":2},"a":1}"#)
        XCTAssertEqual(forward, backward)
        XCTAssertEqual(forward.jsonText, backward.jsonText)
        XCTAssertEqual(forward.jsonText, #"{"a":1,"b":{"x":3,"y":2},"c":"\/"}"#)
    }

    // MARK: The fixture written by Apollo

    func testAllStarwarsRecordsReserialiseToTheSameJSONValuesAsTheOriginals() throws {
        let directory = try TemporaryDirectory(self)
        let path = try directory.copy(Fixtures.starwars)
        let originals = try SQLiteShell.lines(path, "SELECT key, hex(record) FROM records ORDER BY _id").map { line in
            let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
            return (key: CacheKey(parts[0]), text: String(decoding: SQLiteShell.hexDecode(parts[1]), as: UTF8.self))
        }
        XCTAssertEqual(originals.count, 10)

        let store = try CacheStore.open(at: path)
        let records = try store.read { tx in try tx.records(for: originals.map(\.key)) }
        XCTAssertEqual(records.count, 10)
        for original in originals {
            let record = try XCTUnwrap(records[original.key]).get()
            let rewritten = record.jsonText
            XCTAssertEqual(
                try foundationJSONObject(rewritten), try foundationJSONObject(original.text),
                "\(original.key): \(rewritten) vs \(original.text)")
            // The store's own parser agrees too.
            XCTAssertEqual(try Record(key: original.key, jsonText: rewritten), try Record(key: original.key, jsonText: original.text))
            XCTAssertEqual(record, try Record(key: original.key, jsonText: original.text))
        }
    }

    func testSlashNonASCIIAndEscapedQuotesSurviveFromTheFixture() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        let review = try XCTUnwrap(try store.read { try $0.record(for: "QUERY_ROOT.reviews(episode:JEDI,first:2).0") })
        XCTAssertEqual(review["commentary"], .string("Great! / \"quoted\" é"))
        // Written back as Apollo writes: `/` as `\/`, quotes escaped, é as raw UTF-8.
        XCTAssertTrue(review.jsonText.contains(#""commentary":"Great! \/ \"quoted\" é""#), review.jsonText)
        XCTAssertFalse(review.jsonText.contains("\\u00e9"))
        XCTAssertEqual(review["meta"], .object(["source": .string("web"), "score": .double(1.5)]))
    }

    func testIntegersStayIntAndTheHeightStaysExactlyTheSameDouble() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        let (luke, ship, connection) = try store.read { tx in
            (try tx.record(for: "Human:1000"), try tx.record(for: "Starship:3001"),
             try tx.record(for: "Droid:2001.friendsConnection(after:null,first:2)"))
        }
        guard case .double(let height)? = luke?["height(unit:FOOT)"] else {
            return XCTFail("height is not a double: \(String(describing: luke?["height(unit:FOOT)"]))")
        }
        XCTAssertEqual(height.bitPattern, (5.6430448 as Double).bitPattern)
        XCTAssertTrue(try XCTUnwrap(luke).jsonText.contains(#""height(unit:FOOT)":5.6430448"#))
        XCTAssertEqual(luke?["isJedi"].map(Self.caseName), "bool")
        XCTAssertEqual(luke?["mass"], .null)

        guard case .list(let rows)? = ship?["coordinates"] else { return XCTFail("coordinates is not a list") }
        XCTAssertEqual(rows.map { row -> [String] in
            guard case .list(let cells) = row else { return ["?"] }
            return cells.map(Self.caseName)
        }, [["int", "int"], ["double", "int"]])
        XCTAssertEqual(ship?["coordinates"], .list([.list([.int(1), .int(2)]), .list([.double(3.5), .int(4)])]))
        XCTAssertEqual(ship?["length"], .double(12.5))
        guard case .int(3)? = connection?["totalCount"] else {
            return XCTFail("totalCount is not .int(3): \(String(describing: connection?["totalCount"]))")
        }
        XCTAssertTrue(try XCTUnwrap(ship).jsonText.contains(#""coordinates":[[1,2],[3.5,4]]"#))
    }

    func testIntegerLiteralsParseAsIntAndFractionsOrExponentsAsDouble() throws {
        XCTAssertEqual(Self.caseName(try FieldValue(jsonText: "4")), "int")
        XCTAssertEqual(Self.caseName(try FieldValue(jsonText: "-4")), "int")
        XCTAssertEqual(Self.caseName(try FieldValue(jsonText: "4.0")), "double")
        XCTAssertEqual(Self.caseName(try FieldValue(jsonText: "4e0")), "double")
        XCTAssertEqual(try FieldValue(jsonText: "9223372036854775807"), .int(Int64.max))
        // Past Int64 the number is still read, kept as written, not rejected.
        XCTAssertEqual(try FieldValue(jsonText: "9223372036854775808"), .number("9223372036854775808"))
    }

    // MARK: References

    func testSingleStringReferenceMemberBecomesAReference() throws {
        let record = try Record(key: "K", jsonText: #"{"hero":{"$reference":"Droid:2001"},"list":[[{"$reference":"A"}],null]}"#)
        XCTAssertEqual(record["hero"], .reference("Droid:2001"))
        XCTAssertEqual(record["list"], .list([.list([.reference("A")]), .null]))
        XCTAssertEqual(record.references.map(\.key), ["Droid:2001", "A"])
        XCTAssertEqual(record.references.map(\.field), ["hero", "list"])
    }

    func testReferenceMemberWithAnotherMemberStaysAnObjectAndIsWrittenBackUnchanged() throws {
        let text = #"{"custom":{"$reference":"Droid:2001","extra":1}}"#
        let record = try Record(key: "K", jsonText: text)
        guard case .object(let members)? = record["custom"] else {
            return XCTFail("an object with $reference and another member must stay .object, got \(String(describing: record["custom"]))")
        }
        XCTAssertEqual(members, ["$reference": .string("Droid:2001"), "extra": .int(1)])
        // Apollo reads it back as a reference (the spec, §2): kept as written, counted as one.
        XCTAssertEqual(record.references.map(\.key), ["Droid:2001"])
        XCTAssertEqual(record["custom"]?.asReadByApollo, .reference("Droid:2001"))
        XCTAssertEqual(record.jsonText, text)
        XCTAssertEqual(try foundationJSONObject(record.jsonText), try foundationJSONObject(text))
        // Reversed member order in the file: the same JSON value is written back.
        let reversed = try Record(key: "K", jsonText: #"{"custom":{"extra":1,"$reference":"Droid:2001"}}"#)
        XCTAssertEqual(reversed, record)
        XCTAssertEqual(reversed.jsonText, text)
    }

    /// References as Apollo writes them are read on a shorter path; every
    /// other spelling must read as the general path reads it.
    func testEverySpellingOfAReferenceReadsAsTheGeneralPathReadsIt() throws {
        let cases: [(String, FieldValue)] = [
            (#"{"$reference":"A:1"}"#, .reference("A:1")),
            (#"{"$reference":"A\u003A1\/x"}"#, .reference("A:1/x")),
            (#"{"$reference":"A:1" }"#, .reference("A:1")),
            (#"{ "$reference" : "A:1"}"#, .reference("A:1")),
            (#"{"$reference":"A:1","$reference":"B:2"}"#, .reference("B:2")),
            (#"{"$reference":"A:1","x":1}"#, .object(["$reference": .string("A:1"), "x": .int(1)])),
            (#"{"$reference":""}"#, .reference("")),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(try Record(key: "K", jsonText: #"{"f":"# + text + "}")["f"], expected, text)
        }
        for broken in [#"{"$reference":"A:1""#, #"{"$reference":"A\q"}"#, "{\"$reference\":\"A\u{1}\"}", #"{"$reference":"A:1"]"#] {
            XCTAssertThrowsError(try Record(key: "K", jsonText: #"{"f":"# + broken + "}"), broken)
        }
        // A reference object is a level, as any object is; its target string, as any value, is none (as in SQLite).
        for (lists, deepEnough) in [(510, true), (511, false)] {
            let text = #"{"f":"# + String(repeating: "[", count: lists) + #"{"$reference":"A"}"# + String(repeating: "]", count: lists) + "}"
            let whole = Result { try Record(key: "K", jsonText: text) }
            let selective = Result { try Record(key: "K", jsonText: text, fields: ["g"]) }
            XCTAssertEqual((try? whole.get()) != nil, deepEnough, "\(lists)")
            XCTAssertEqual((try? selective.get()) != nil, deepEnough, "\(lists)")
        }
    }

    func testNonStringReferenceMemberStaysAnObject() throws {
        let record = try Record(key: "K", jsonText: #"{"a":{"$reference":5},"b":{"$reference":null}}"#)
        XCTAssertEqual(record["a"], .object(["$reference": .int(5)]))
        XCTAssertEqual(record["b"], .object(["$reference": .null]))
        XCTAssertTrue(record.references.isEmpty)
    }

    func testTheTopLevelRecordObjectIsNeverFoldedIntoAReference() throws {
        let record = try Record(key: "K", jsonText: #"{"$reference":"Droid:2001"}"#)
        XCTAssertEqual(record.fields, ["$reference": .string("Droid:2001")])
    }

    func testReferencesAreListedByFieldThenListPosition() throws {
        let record = Record(key: "K", fields: [
            "b": .list([.reference("B1"), .null, .list([.reference("B2")])]),
            "a": .object(["y": .reference("AY"), "x": .reference("AX")]),
            "c": .string("Droid:2001"),
        ])
        XCTAssertEqual(record.references.map { "\($0.field)->\($0.key)" }, ["a->AX", "a->AY", "b->B1", "b->B2"])
    }

    // MARK: Equality

    func testIntFourEqualsDoubleFourAsFieldValues() {
        XCTAssertEqual(FieldValue.int(4), FieldValue.double(4.0))
        XCTAssertEqual(FieldValue.double(4.0), FieldValue.int(4))
        XCTAssertEqual(Set<FieldValue>([.int(4), .double(4.0)]).count, 1, "equal values must hash alike")
        XCTAssertEqual(FieldValue.list([.int(4)]), FieldValue.list([.double(4)]))
        XCTAssertEqual(FieldValue.object(["n": .int(0)]), FieldValue.object(["n": .double(-0.0)]))
        XCTAssertNotEqual(FieldValue.int(4), FieldValue.double(4.5))
        XCTAssertNotEqual(FieldValue.int(1), FieldValue.bool(true))
        XCTAssertNotEqual(FieldValue.string("4"), FieldValue.int(4))
        XCTAssertNotEqual(FieldValue.null, FieldValue.string("null"))
        XCTAssertNotEqual(FieldValue.reference("X"), FieldValue.string("X"))
        // 2^53 + 1 is not representable as a double: not equal to 2^53.
        XCTAssertNotEqual(FieldValue.int(9_007_199_254_740_993), FieldValue.double(9_007_199_254_740_992))
        XCTAssertEqual(FieldValue.int(9_007_199_254_740_992), FieldValue.double(9_007_199_254_740_992))
    }

    func testRecordsWithFourAndFourPointZeroAreEqual() throws {
        let a = try Record(key: "K", jsonText: #"{"n":4,"l":[4.0]}"#)
        let b = try Record(key: "K", jsonText: #"{"n":4.0,"l":[4]}"#)
        XCTAssertEqual(a, b)
        XCTAssertEqual(Set([a, b]).count, 1)
    }

    func testAnObjectSpelledLikeAReferenceIsWrittenAsOne() throws {
        // The ambiguity the spec warns about: such an object reads back as a reference.
        let value = FieldValue.object(["$reference": .string("Droid:2001")])
        XCTAssertEqual(value.description, #"{"$reference":"Droid:2001"}"#)
        XCTAssertEqual(try FieldValue(jsonText: value.description), .reference("Droid:2001"))
    }

    // MARK: Escaping

    func testWriterEscapesLikeApollo() {
        XCTAssertEqual(JSONWriter.quoted("a/b"), #""a\/b""#)
        XCTAssertEqual(JSONWriter.quoted("é😀"), "\"é😀\"")
        XCTAssertEqual(JSONWriter.quoted("\"\\"), #""\"\\""#)
        XCTAssertEqual(JSONWriter.quoted("\u{01}\u{1F}\n"), #""\u0001\u001f\n""#)
        XCTAssertEqual(JSONWriter.string(for: .reference("A/B")), #"{"$reference":"A\/B"}"#)
    }

    func testUnicodeEscapesDecodeIncludingSurrogatePairs() throws {
        XCTAssertEqual(try FieldValue(jsonText: #""\u00e9\u00C9""#), .string("éÉ"))
        XCTAssertEqual(try FieldValue(jsonText: #""\ud83d\ude00""#), .string("😀"))
        XCTAssertThrowsError(try FieldValue(jsonText: #""\ud83dx""#), "half a surrogate pair is refused, as Foundation refuses it") { error in
            XCTAssertEqual(error as? CacheStoreError, .invalidJSON(offset: 1, message: #"lone surrogate \ud83d (half of a pair)"#))
        }
        XCTAssertThrowsError(try FieldValue(jsonText: #""\udc00""#), "a low half alone is refused too")
        XCTAssertThrowsError(try FieldValue(jsonText: #""\ud83d\u0041""#), "a high half followed by another escape is refused")
        XCTAssertEqual(try FieldValue(jsonText: #""\u0000""#), .string("\u{0}"))
    }

    // MARK: Damaged text

    func testTextThatIsNotAJSONObjectIsADamagedRecordSayingWhatItIs() {
        let cases = [("[1,2]", "a JSON array"), ("", "empty text"), ("\"x\"", "a JSON string"), ("42", "a JSON number"), ("null", "JSON null"), ("true", "a JSON boolean"), ("not json {", "text that is not JSON"), ("nul", "text that is not JSON"),
                     // Begun like a kind of JSON, but not one: no array, string or number.
                     ("[", "text that is not JSON"), ("[1,", "text that is not JSON"), ("\"abc", "text that is not JSON"),
                     ("123abc", "text that is not JSON"), ("[1] x", "text that is not JSON"), (" [1] ", "a JSON array")]
        for (text, kind) in cases {
            XCTAssertThrowsCacheError(try Record(key: "Bad:1", jsonText: text), .damagedRecord(key: "Bad:1", problem: .notAnObject(kind)))
        }
        XCTAssertEqual(CacheStoreError.damagedRecord(key: "Bad:1", problem: .notAnObject("a JSON array")).description,
                       "record 'Bad:1' is damaged: a JSON array, not a JSON object")
    }

    func testInvalidJSONIsADamagedRecordWithTheByteOffset() {
        let cases: [(text: String, offset: Int)] = [
            (#"{"a":1,}"#, 7),         // trailing comma: the `}` at byte 7
            (#"{"a":"#, 5),            // cut short after the colon
            (#"{"a":1} x"#, 8),        // text after the object
            (#"{"a":tru}"#, 5),        // bad literal
            (#"{"é":01}"#, 7),         // leading zero: the `1` at byte 7 (é is two bytes)
            ("{\"a\":\"x\ny\"}", 7),   // raw control character in a string
        ]
        for (text, expectedOffset) in cases {
            XCTAssertThrowsError(try Record(key: "Bad:1", jsonText: text), text) { error in
                guard case .damagedRecord(let key, .invalidJSON(let offset, let message))? = error as? CacheStoreError else {
                    return XCTFail("\(text): expected damagedRecord(invalidJSON), got \(error)")
                }
                XCTAssertEqual(key, "Bad:1")
                XCTAssertEqual(offset, expectedOffset, "\(text): \(message)")
                XCTAssertFalse(message.isEmpty)
                XCTAssertTrue("\(error)".contains("Bad:1"), "the description names the key")
            }
        }
    }

    func testNullRecordTextIsADamagedRecordWithProblemNull() {
        XCTAssertThrowsCacheError(try Record(key: "Null:1", jsonText: nil), .damagedRecord(key: "Null:1", problem: .null))
    }

    func testInvalidStandaloneValueIsInvalidJSONWithTheOffset() {
        XCTAssertThrowsError(try FieldValue(jsonText: "[1,]")) { error in
            guard case .invalidJSON(let offset, _)? = error as? CacheStoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(offset, 3)
        }
        XCTAssertThrowsError(try FieldValue(jsonText: "1 2"))
        XCTAssertThrowsError(try FieldValue(jsonText: "NaN"))
        // SQLite's json_valid accepts a number too large for a Double; so
        // does the store, keeping it as written.
        XCTAssertEqual(try FieldValue(jsonText: "1e999"), .number("1e999"))
        XCTAssertEqual(try FieldValue(jsonText: "-1e400").description, "-1e400")
    }

    /// An integer beyond 64 bits, or a magnitude beyond a Double's range,
    /// is kept as written: shown and compared exactly, never rounded.
    func testNumbersNeitherAnInt64NorADoubleHoldsAreKeptAsWrittenAndComparedExactly() throws {
        let record = try Record(key: "N:1", jsonText: #"{"u":18446744073709551615,"big":12345678901234567890123,"huge":1e400,"tiny":1e-400,"zero":0e5,"neg":-9223372036854775809}"#)
        XCTAssertEqual(record["u"], .number("18446744073709551615"))
        XCTAssertEqual(record["huge"], .number("1e400"))
        XCTAssertEqual(record["tiny"], .number("1e-400"))
        XCTAssertEqual(record["zero"], .double(0), "0e5 is zero, which a Double holds")
        XCTAssertEqual(record["neg"], .number("-9223372036854775809"))
        XCTAssertEqual(record.jsonText, #"{"big":12345678901234567890123,"huge":1e400,"neg":-9223372036854775809,"tiny":1e-400,"u":18446744073709551615,"zero":0}"#)
        // Compared by decimal value: the same number however written, two numbers however close.
        XCTAssertNotEqual(FieldValue.number("18446744073709551615"), .number("18446744073709551614"))
        XCTAssertNotEqual(FieldValue.number("1e400"), .number("1e401"))
        XCTAssertEqual(FieldValue.number("1e400"), .number("10E+399"))
        XCTAssertEqual(FieldValue.number("18446744073709551616"), .number("1.8446744073709551616e19"))
        XCTAssertEqual(FieldValue.number("18446744073709551616"), .double(18446744073709551616.0), "2^64, which a Double holds exactly")
        XCTAssertNotEqual(FieldValue.number("18446744073709551617"), .double(18446744073709551616.0))
        XCTAssertEqual(Set<FieldValue>([.number("18446744073709551616"), .double(18446744073709551616.0)]).count, 1)
    }

    /// A fraction with more digits than a Double keeps is kept as written,
    /// so that writing the record back (a merge of another field) does not
    /// round it; one a Double's shortest form gives back is a Double.
    func testAFractionWithMoreDigitsThanADoubleKeepsIsKeptAsWritten() throws {
        let text = #"{"price":19.990000000000000000001,"big":123456789012345678901234567890.5,"third":0.30000000000000004,"short":19.99,"e":1.5e-7}"#
        let record = try Record(key: "K", jsonText: text)
        XCTAssertEqual(record["price"], .number("19.990000000000000000001"))
        XCTAssertEqual(record["big"], .number("123456789012345678901234567890.5"))
        XCTAssertEqual(record["third"], .double(0.1 + 0.2), "17 digits that are a Double's shortest form")
        XCTAssertEqual(record["short"], .double(19.99))
        XCTAssertEqual(record["e"], .double(1.5e-7))
        XCTAssertEqual(record.jsonText, #"{"big":123456789012345678901234567890.5,"e":1.5e-07,"price":19.990000000000000000001,"short":19.99,"third":0.30000000000000004}"#)
        // Another number than the Double it is nearest, and equal to one written with the Double's digits.
        XCTAssertNotEqual(FieldValue.number("19.990000000000000000001"), .double(19.99))
        XCTAssertEqual(FieldValue.number("19.9900000000000000000"), .double(19.99))
        XCTAssertEqual(Set<FieldValue>([.number("19.9900000000000000000"), .double(19.99)]).count, 1)
    }

    /// Older Foundation wrote a Double with 17 significant digits
    /// (`0.10000000000000001` for 0.1): that form is the Double itself,
    /// so it reads as one, equal to the shortest form, as Apollo reads it.
    func testTheSeventeenDigitFormOfADoubleIsThatDouble() throws {
        let record = try Record(key: "K", jsonText: #"{"h":5.6430448000000002,"t":0.10000000000000001,"e":1.0000000000000001e-05,"near":0.100000000000000012}"#)
        XCTAssertEqual(record["h"], .double(5.6430448))
        XCTAssertEqual(record["t"], .double(0.1))
        XCTAssertEqual(record["e"], .double(1e-5))
        XCTAssertEqual(record["near"], .number("0.100000000000000012"), "18 digits: another value than the Double's")
        XCTAssertEqual(record, try Record(key: "K", jsonText: #"{"h":5.6430448,"t":0.1,"e":1e-5,"near":0.100000000000000012}"#))
    }

    func testAbsurdNestingIsRejectedInsteadOfCrashing() {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        XCTAssertThrowsError(try Record(key: "Deep", jsonText: #"{"a":"# + deep + "}"))
    }

    // MARK: Helpers

    static func caseName(_ value: FieldValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .number: return "number"
        case .string: return "string"
        case .reference: return "reference"
        case .list: return "list"
        case .object: return "object"
        }
    }
}
