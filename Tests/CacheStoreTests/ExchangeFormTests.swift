import Foundation
import XCTest

@testable import CacheStore

/// The JSON Lines form and Apollo Client's extract() form, both ways.
final class ExchangeFormTests: XCTestCase {
    func testALineCarriesTheRecordTextAsStored() throws {
        let stored = StoredRecord(key: "QUERY_ROOT", text: #"{"b":{"$reference":"Droid:2001"},"a":"x\/y","n":9007199254740993123}"#)
        let line = try RecordLine.line(for: stored, isWellFormed: true)
        XCTAssertEqual(line, #"{"key":"QUERY_ROOT","record":{"b":{"$reference":"Droid:2001"},"a":"x\/y","n":9007199254740993123}}"#)
        let record = try RecordLine.record(fromLine: line)
        XCTAssertEqual(record.key, "QUERY_ROOT")
        XCTAssertEqual(record["b"], .reference("Droid:2001"))
        XCTAssertEqual(record["a"], .string("x/y"))
    }

    /// Only the breaks go: numbers keep every digit and their spelling,
    /// members their order, and a break a lenient writer left inside a
    /// string is escaped, so the value read back is the same.
    func testARecordWithALineBreakIsWrittenOnOneLineAndNothingElseChanges() throws {
        let stored = StoredRecord(key: "K", text: "{\"b\": 0.30000000000000000001,\r\n\"a\":1e2,\n\"c\":12345678901234567890.5}")
        XCTAssertEqual(try RecordLine.line(for: stored, isWellFormed: true),
                       #"{"key":"K","record":{"b": 0.30000000000000000001,  "a":1e2, "c":12345678901234567890.5}}"#)
        XCTAssertEqual(RecordLine.onOneLine("{\"s\":\"a\\\"\nb\",\n\"t\":\"\\\\\"}"), #"{"s":"a\"\nb", "t":"\\"}"#)
        XCTAssertThrowsError(try RecordLine.line(for: StoredRecord(key: "K", text: "[1]"), isWellFormed: false))
    }

    /// U+2028, U+2029 and U+0085 are valid inside a JSON string, but
    /// Python's `splitlines()` ends a line at each: export writes their
    /// escapes, so the value read back is the same and every line stays
    /// one record.
    func testALineOrParagraphSeparatorInARecordIsWrittenAsItsEscape() throws {
        let stored = StoredRecord(key: "K", text: "{\"s\":\"a\u{2028}b\u{2029}c\u{85}d\",\"t\":\"→é\u{A0}\u{84}\"}")
        let line = try RecordLine.line(for: stored, isWellFormed: true)
        XCTAssertEqual(line, #"{"key":"K","record":{"s":"a\u2028b\u2029c\u0085d","t":"→é"#  + "\u{A0}\u{84}\"}}")
        XCTAssertEqual(line.split(whereSeparator: \.isNewline).count, 1)
        XCTAssertEqual(try RecordLine.record(fromLine: line)["s"], .string("a\u{2028}b\u{2029}c\u{85}d"))
        XCTAssertFalse(RecordLine.breaksLines("{\"t\":\"→ \u{2027}\u{202A}\u{A0}\u{84}\"}"))
    }

    func testLinesThatAreNotRecordsAreRefusedWithTheReason() {
        XCTAssertThrowsCacheError(try RecordLine.record(fromLine: "{"), .invalidJSON(offset: 1, message: "expected a member name in quotes"))
        XCTAssertThrowsCacheError(try RecordLine.record(fromLine: #"{"key":1,"record":{}}"#), .cannotConvert(message: #"the line's "key" is not a string; a line is {"key": "…", "record": {…}}"#))
        XCTAssertThrowsCacheError(try RecordLine.record(fromLine: #"{"record":{}}"#), .cannotConvert(message: #"the line has no "key"; a line is {"key": "…", "record": {…}}"#))
        XCTAssertThrowsCacheError(try RecordLine.record(fromLine: #"[1]"#), .cannotConvert(message: #"expected {"key": "…", "record": {…}}"#))
        XCTAssertThrowsCacheError(try RecordLine.record(fromLine: #"{"key":"K","record":[1]}"#), .cannotConvert(message: #"the "record" of 'K' is not a JSON object"#))
        XCTAssertFalse(RecordLine.isRecordLine(#"{"ROOT_QUERY":{}}"#))
        XCTAssertTrue(RecordLine.isRecordLine(#"{"key":"K","record":{}}"#))
        // Entities named key and record are an Apollo Client object; a
        // number for the key is a record line with a bad key.
        XCTAssertFalse(RecordLine.isRecordLine(#"{"key":{"a":1},"record":{"b":2}}"#))
        XCTAssertTrue(RecordLine.isRecordLine(#"{"key":1,"record":{}}"#))
        XCTAssertFalse(RecordLine.startsWithPrettyRecord("{\"key\":{\"a\":1},\n\"record\":{\"b\":2}}\n"))
        XCTAssertTrue(RecordLine.startsWithPrettyRecord("{\n  \"key\": \"K\",\n  \"record\": {}\n}\n"))
    }

    func testExportTranslatesRootsAndReferencesEverywhere() throws {
        let record = Record(key: "QUERY_ROOT", fields: [
            "hero": .reference("Droid:2001"),
            "search": .list([.list([.reference("Human:1000"), .null]), .list([.reference("MUTATION_ROOT")])]),
            "meta": .object(["inner": .reference("QUERY_ROOT.x")]),
            "url": .string("https://x/y"),
        ])
        XCTAssertEqual(
            try ApolloClientForm.member(for: record),
            #""ROOT_QUERY":{"hero":{"__ref":"Droid:2001"},"meta":{"inner":{"__ref":"QUERY_ROOT.x"}},"search":[[{"__ref":"Human:1000"},null],[{"__ref":"ROOT_MUTATION"}]],"url":"https://x/y"}"#)
    }

    func testExportRefusesWhatWouldComeBackAsSomethingElse() {
        XCTAssertThrowsError(try ApolloClientForm.member(for: Record(key: "K", fields: ["f": .object(["__ref": .string("X")])])))
        XCTAssertThrowsError(try ApolloClientForm.member(for: Record(key: "K", fields: ["f": .list([.reference("ROOT_QUERY")])])))
        XCTAssertNoThrow(try ApolloClientForm.member(for: Record(key: "K", fields: ["f": .object(["__ref": .int(1)])])))
        // Apollo Client's isReference needs only a string __ref; Apollo iOS reads a $reference beside other members.
        XCTAssertThrowsCacheError(
            try ApolloClientForm.member(for: Record(key: "K", fields: ["f": .object(["__ref": .string("X"), "y": .int(1)])])),
            .cannotConvert(message: #"record 'K', field 'f': a custom-scalar object with a string "__ref" member would be read back as a reference; the apollo-client form cannot hold it"#))
        XCTAssertThrowsCacheError(
            try ApolloClientForm.member(for: Record(key: "K", fields: ["f": .list([.object(["$reference": .string("A:1"), "x": .int(1)])])])),
            .cannotConvert(message: #"record 'K', field 'f': an object with "$reference" beside other members, which Apollo iOS reads as a reference to 'A:1'; the apollo-client form cannot hold its other members"#))
        XCTAssertEqual(ApolloClientForm.reservedKeys, ["ROOT_QUERY", "ROOT_MUTATION", "ROOT_SUBSCRIPTION", "__META"])
    }

    func testImportTranslatesBackAndSkipsMetadata() throws {
        let records = try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: """
            {"ROOT_QUERY":{"__typename":"Query","hero":{"__ref":"Droid:2001"},"list":[[{"__ref":"ROOT_MUTATION"}],null]},
             "Droid:2001":{"name":"R2-D2","blob":{"ref":"x","other":1}},
             "__META":{"extraRootIds":["Droid:2001"]}}
            """).entities)
        XCTAssertEqual(records.map(\.key), ["Droid:2001", "QUERY_ROOT"])
        XCTAssertEqual(records[1]["hero"], .reference("Droid:2001"))
        XCTAssertEqual(records[1]["list"], .list([.list([.reference("MUTATION_ROOT")]), .null]))
        XCTAssertEqual(records[0]["blob"], .object(["ref": .string("x"), "other": .int(1)]), "an object without __ref: a custom scalar")
    }

    func testImportKeepsEntityIDsThatDifferOnlyInUnicodeNormalizationApart() throws {
        // é composed (U+00E9) and decomposed (e + U+0301): one Swift string, two SQLite keys.
        let records = try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: #"""
            {"caf\u00e9:1":{"v":1},"cafe\u0301:1":{"v":2},"A:1":{"x":1},"A:1":{"y":2}}
            """#).entities)
        XCTAssertEqual(records.map { Array($0.key.rawValue.utf8) }, [
            Array("A:1".utf8), Array("A:1".utf8), Array("cafe\u{301}:1".utf8), Array("caf\u{E9}:1".utf8),
        ])
        XCTAssertEqual(records.map { $0.fields }, [["x": .int(1)], ["y": .int(2)], ["v": .int(2)], ["v": .int(1)]],
            "an ID given twice stays two records, in the text's order")
    }

    func testImportRefusesAnObjectWithARefBesideOtherMembers() throws {
        // Apollo Client's isReference reads any object with a string __ref as a reference.
        XCTAssertThrowsEntityProblem(
            try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: #"{"A:1":{"f":[{"__ref":"B:1","x":1}]}}"#).entities),
            at: 1, field: "f",
            "entity 'A:1', field 'f': an object with a string \"__ref\" beside other members, which Apollo Client "
                + "reads as a reference to 'B:1'; Apollo iOS has no place for its other members")
    }

    /// Export refuses a reference to `__META` (it would name the metadata
    /// member), so import refuses one too: every cache import makes exports.
    func testImportRefusesAReferenceToTheMetadataMember() throws {
        XCTAssertThrowsEntityProblem(
            try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: #"{"X":{"a":[{"__ref":"__META"}]}}"#).entities),
            at: 1, field: "a", "entity 'X', field 'a': a reference to '__META', the member Apollo Client keeps its metadata in, which names no entity")
    }

    /// What export refuses to write (a `$reference` beside other members),
    /// import refuses to read, so every cache import makes can be exported;
    /// a lone `{"$reference": …}` is a value in Apollo Client's form, which
    /// Apollo iOS would read as a reference: refused too.
    func testImportRefusesAnObjectWithADollarReferenceAloneOrBesideOtherMembers() throws {
        XCTAssertThrowsEntityProblem(
            try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(
                inExtractText: #"{"A:1":{"s":{"meta":{"$reference":"B:1","x":1}}},"B:1":{}}"#).entities),
            at: 1, field: "s",
            "entity 'A:1', field 's': an object with a string \"$reference\" beside other members, which Apollo iOS "
                + "reads as a reference to 'B:1', losing the others; Apollo Client writes a reference as {\"__ref\": …}")
        XCTAssertThrowsEntityProblem(
            try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: #"{"A:1":{"r":[{"$reference":"B:1"}]}}"#).entities),
            at: 1, field: "r",
            "entity 'A:1', field 'r': {\"$reference\": \"B:1\"} is a value in Apollo Client's form, but Apollo iOS "
                + "would read it as a reference to 'B:1'; Apollo Client writes a reference as {\"__ref\": …}")
    }

    /// Of two fields at fault in one entity, the first by name is named,
    /// whatever order a dictionary gives them in.
    func testOfTwoFieldsThatCannotBeImportedTheFirstByNameIsNamed() throws {
        let text = #"{"A:1":{"zeta":{"$reference":"B:1"},"beta":{"$reference":"B:2"},"alpha":1}}"#
        XCTAssertThrowsEntityProblem(
            try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: text).entities),
            at: 1, field: "beta",
            "entity 'A:1', field 'beta': {\"$reference\": \"B:2\"} is a value in Apollo Client's form, but Apollo iOS "
                + "would read it as a reference to 'B:2'; Apollo Client writes a reference as {\"__ref\": …}")
    }

    func testImportRefusesTwoNamesForOneRoot() throws {
        // The second named, where the text gives two.
        XCTAssertThrowsEntityProblem(
            try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: #"{"ROOT_QUERY":{},"A":{},"QUERY_ROOT":{}}"#).entities),
            at: 24, field: nil, "both 'ROOT_QUERY' and 'QUERY_ROOT' are entity IDs, and both name the record 'QUERY_ROOT'; keep one")
        XCTAssertThrowsEntityProblem(
            try ApolloClientForm.records(fromEntities: try ApolloClientForm.entities(inExtractText: #"{"B":{}, "A":1}"#).entities),
            at: 9, field: nil, "entity 'A' is not a JSON object")
        XCTAssertThrowsCacheError(
            try ApolloClientForm.entities(inExtractText: "[1]"),
            .cannotConvert(message: "not an Apollo Client cache: expected a JSON object of entity IDs"))
    }
}

/// `expression` throws an ``ApolloClientForm/EntityProblem`` at `offset`,
/// naming `field`, with `message`.
private func XCTAssertThrowsEntityProblem<T>(
    _ expression: @autoclosure () throws -> T, at offset: Int, field: String?, _ message: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), file: file, line: line) { error in
        XCTAssertEqual(
            error as? ApolloClientForm.EntityProblem, ApolloClientForm.EntityProblem(offset: offset, field: field, message: message), "\(error)",
            file: file, line: line)
    }
}
