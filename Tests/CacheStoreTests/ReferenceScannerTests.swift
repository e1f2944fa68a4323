import XCTest

@testable import CacheStore

/// The reference scanner reads references out of record text without
/// decoding; it must find exactly what decoding finds.
final class ReferenceScannerTests: XCTestCase {
    private func scanned(_ text: String) -> (isObject: Bool, references: [String]) {
        var found: [String] = []
        let isObject = ReferenceScanner.references(in: text) { field, target in found.append("\(field) → \(target)") }
        return (isObject, found.sorted())
    }

    private func decoded(_ text: String) throws -> [String] {
        try Record(key: "X", jsonText: text).references.map { "\($0.field) → \($0.key.rawValue)" }.sorted()
    }

    func testScannerFindsWhatDecodingFindsInEveryFixtureRecord() throws {
        let rows = try SQLiteShell.lines(Fixtures.starwars.path, "SELECT record FROM records")
        XCTAssertEqual(rows.count, 10)
        var total = 0
        for text in rows {
            let result = scanned(text)
            XCTAssertTrue(result.isObject, text)
            XCTAssertEqual(result.references, try decoded(text), text)
            total += result.references.count
        }
        XCTAssertEqual(total, 12, "references in starwars.sqlite")
    }

    func testScannerAgreesWithDecodingOnAwkwardRecords() throws {
        let texts = [
            #"{"a":{"$reference":"K:1"},"b":[[{"$reference":"K:2"},null],[]],"c":"{\"$reference\":\"no\"}"}"#,
            #"{ "spaced" : { "$reference" : "K:3" } , "n" : -1.5e3 , "t" : true , "z" : null }"#,
            #"{"custom":{"$reference":"not-a-ref","extra":1},"nested":{"inner":{"$reference":"K:4"}}}"#,
            #"{"number":{"$reference":12},"escaped":{"$reference":"Odd:\"q\"\/\u00e9\\x"}}"#,
            #"{"empty":{},"list":[],"s":"]}\"["}"#,
            "{}",
        ]
        for text in texts {
            let result = scanned(text)
            XCTAssertTrue(result.isObject, text)
            XCTAssertEqual(result.references, try decoded(text), text)
        }
    }

    func testTextThatIsNotAJSONObjectIsReportedAsSuch() {
        for text in [#"{"r":{"$reference":"K:1"}"#, "[1,2]", "", #""text""#, #"{"a":1} trailing"#, #"{"a":}"#] {
            XCTAssertFalse(scanned(text).isObject, text)
        }
    }

    func testStreamedReferencesToATargetSetSkipTheTargetsThemselves() throws {
        let directory = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try directory.copy(Fixtures.starwars))
        var found: [ReferenceLocation] = []
        try store.read { tx in
            let filter = ReferenceScanFilter.containing(keys: ["Human:1000", "Human:1002"])
            try tx.forEachReference(to: ["Human:1000", "Human:1002"], filter: filter) { found.append($0) }
        }
        XCTAssertEqual(Set(found), [
            ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1000"),
            ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002"),
            ReferenceLocation(from: "Droid:2001.friendsConnection(after:null,first:2)", field: "friends", to: "Human:1000"),
            ReferenceLocation(from: "QUERY_ROOT", field: "human(id:1000)", to: "Human:1000"),
            ReferenceLocation(from: "QUERY_ROOT", field: "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])", to: "Human:1000"),
        ])
        XCTAssertEqual(found.count, 5)
    }
}

/// The scanner refuses exactly the texts the decoder refuses, so that a
/// pass over the table that trusts the scanner reports the damaged records
/// that decoding would.
final class ReferenceScannerValidityTests: XCTestCase {
    func testScannerRefusesTheInvalidJSONTheDecoderRefuses() {
        let texts = [
            #"{"a": tru}"#, #"{"a": nul}"#, #"{"a": 01}"#, #"{"a": 1.}"#, #"{"a": -}"#, #"{"a": 1e}"#, #"{"a": .5}"#,
            #"{"a": "\x"}"#, #"{"a": "\u12G4"}"#, "{\"a\": \"tab\there\"}", #"{"a": +1}"#, #"{"a": [1,]}"#,
            #"{"a": "x"#, #"{"a" 1}"#, #"{"a": truex}"#,
        ]
        for text in texts {
            XCTAssertFalse(ReferenceScanner.references(in: text) { _, _ in }, text)
            XCTAssertThrowsError(try Record(key: "X", jsonText: text), text)
        }
    }

    func testScannerAcceptsTheNumbersLiteralsAndEscapesTheDecoderAccepts() throws {
        let texts = [
            #"{"a": 0, "b": -0.5, "c": 1E+9, "d": 2e-3, "e": 123}"#, #"{"t": true, "f": false, "n": null}"#,
            #"{"s": "\" \\ \/ \b \f \n \r \t \u00E9 \uD83D\uDE00"}"#,
        ]
        for text in texts {
            XCTAssertTrue(ReferenceScanner.references(in: text) { _, _ in }, text)
            XCTAssertNoThrow(try Record(key: "X", jsonText: text), text)
        }
    }

    func testStringsAreReadTheSameWhereverTheirSpecialBytesFallInAWord() throws {
        // The scanner skips eight plain bytes at a time: put the quote, an
        // escape, a control character and non-ASCII text at every offset.
        for offset in 0..<24 {
            let pad = String(repeating: "a", count: offset)
            let good = [
                #"{"k\#(pad)":{"$reference":"K:\#(pad)"}}"#,
                #"{"k":{"$reference":"\#(pad)\"q\"\#(pad)"},"s":"\#(pad)é\\\#(pad)\u00e9"}"#,
            ]
            for text in good {
                var found: [String] = []
                XCTAssertTrue(ReferenceScanner.references(in: text) { found.append("\($0) → \($1)") }, text)
                XCTAssertEqual(found, try Record(key: "X", jsonText: text).references.map { "\($0.field) → \($0.key.rawValue)" }, text)
            }
            for bad in ["{\"k\":\"\(pad)\u{01}\"}", #"{"k":"\#(pad)\q"}"#, #"{"k":"\#(pad)"#] {
                XCTAssertFalse(ReferenceScanner.references(in: bad) { _, _ in }, bad)
                XCTAssertThrowsError(try Record(key: "X", jsonText: bad), bad)
            }
        }
    }

    func testScanReportsTheTopLevelTypenameOnly() {
        var names: [String] = []
        var references: [String] = []
        let text = #"{"nested":{"__typename":"Inner"},"__typename":"Outer","friend":{"$reference":"K:1"}}"#
        var copy = text
        let ok = copy.withUTF8 { bytes in
            ReferenceScanner.scan(
                inUTF8: bytes,
                references: {
                    references.append("\(ReferenceScanner.decodeString(bytes, $0)) → \(ReferenceScanner.decodeString(bytes, $1))")
                },
                typename: { names.append(ReferenceScanner.decodeString(bytes, $0)) })
        }
        XCTAssertTrue(ok)
        XCTAssertEqual(names, ["Outer"])
        XCTAssertEqual(references, ["friend → K:1"])
    }
}
