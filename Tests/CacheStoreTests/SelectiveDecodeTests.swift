import XCTest

@testable import CacheStore

/// A read decodes only the fields it may ask for; the rest of the record is
/// still checked, so a record is damaged, or not, whichever fields are asked.
final class SelectiveDecodeTests: XCTestCase {
    private let text = #"{"__typename":"Post","author":{"$reference":"User:1"},"meta":{"tags":["a","b\u00e9"],"n":[1,-2.5e3,0]},"title":"Hi \"there\"","likes":3,"ok":true,"gone":null}"#

    func testDecodingSomeFieldsGivesExactlyThoseFieldsOfTheWholeDecode() throws {
        let whole = try Record(key: "Post:1", jsonText: text)
        for only: Set<String> in [[], ["title"], ["__typename", "meta"], ["author", "ok", "gone", "absent"], Set(whole.fields.keys)] {
            let partial = try Record(key: "Post:1", jsonText: text, fields: only)
            XCTAssertEqual(partial.fields, whole.fields.filter { only.contains($0.key) }, "\(only)")
        }
    }

    /// Apollo's JSON reading refuses a number too large for a Double, and
    /// the whole record with it: a read that decodes other fields still
    /// sees it, so the record is one Apollo cannot read either way.
    func testANumberApolloCannotReadIsFoundWhicheverFieldsAreDecoded() throws {
        let text = #"{"__typename":"User","id":"1","stats":{"b":[2,1e400],"a":-1.8e308},"tiny":1e-400,"big":12345678901234567890}"#
        for only: Set<String>? in [nil, ["id"], ["__typename", "id"], ["stats"]] {
            let record = try Record(key: "User:1", jsonText: text, fields: only)
            let found = try XCTUnwrap(record.numberApolloCannotRead, "\(String(describing: only))")
            XCTAssertEqual(found, NumberApolloCannotRead(key: "User:1", field: "stats", number: "-1.8e308"), "members in key order")
        }
        // Numbers a Double holds, or reads as 0 (as JSONSerialization does), are readable.
        let readable = #"{"tiny":1e-400,"big":12345678901234567890,"max":1.7976931348623157e308,"long":1"# + String(repeating: "0", count: 300) + "e-300}"
        XCTAssertNil(try Record(key: "K", jsonText: readable).numberApolloCannotRead)
        XCTAssertNil(try Record(key: "K", jsonText: readable, fields: ["tiny"]).numberApolloCannotRead)
    }

    /// export decodes only the rows a byte check says may hold such a
    /// number: one outside strings; a hex id such as "…3e123…" is text.
    func testTheByteCheckForANumberBeyondADoubleLooksOutsideStringsOnly() {
        func mayHold(_ text: String) -> Bool { StoredRecord(key: "K", text: text).mayHoldNumberBeyondADouble }
        XCTAssertTrue(mayHold(#"{"a":[1,2e400]}"#))
        XCTAssertTrue(mayHold(#"{"a":"x\"","b":-1.5E+308}"#), "after a string with an escaped quote")
        XCTAssertTrue(mayHold(#"{"a":1"# + String(repeating: "0", count: 201) + "}"))
        XCTAssertFalse(mayHold(#"{"etag":"9f3e1234ab","n":1e99,"t":12.5e-7}"#))
        XCTAssertFalse(mayHold(#"{"s":"\\","t":"1e400"}"#), "an escaped backslash ends no string")
    }

    func testADamagedRecordIsDamagedAlikeWhicheverFieldsAreDecoded() {
        let broken = [
            #"{"title":"x","meta":{"tags":["a",]}}"#,
            #"{"title":"x","meta":{"n":01}}"#,
            #"{"title":"x","meta":"bad \q escape"}"#,
            "{\"title\":\"x\",\"meta\":\"tab\there\"}",
            #"{"title":"x","meta":tru}"#,
            #"{"title":"x","meta":{"a" 1}}"#,
            #"{"title":"x","meta":[1 2]}"#,
            #"{"title":"x","meta":"unterminated}"#,
            #"{"title":"x","meta":-}"#,
            #"{"title":"x","meta":1.}"#,
            #"{"title":"x","meta":{}} trailing"#,
            String(repeating: "[", count: 2100),
        ]
        for text in broken {
            let whole = Result { try Record(key: "K", jsonText: text) }
            let partial = Result { try Record(key: "K", jsonText: text, fields: ["title"]) }
            XCTAssertThrowsError(try whole.get(), text)
            XCTAssertEqual("\(whole)", "\(partial)", text)
        }
    }

    /// Names are compared as Swift strings compare, whether a member name
    /// is escaped, non-ASCII, or another spelling of an ASCII name (U+212A
    /// KELVIN SIGN equals "K"; "é" equals "e" and U+0301).
    func testMemberNamesMatchAsSwiftStringsWhateverTheirSpelling() throws {
        let escaped = #"{"ti\u0074le":"escaped","K":1,"\u212A":2,"caf\u00e9":3,"cafe\u0301":4,"plain":5,"e\u0301":6}"#
        let raw = "{\"title\":\"raw\",\"K\":1,\"\u{212A}\":2,\"caf\u{E9}\":3,\"cafe\u{301}\":4,\"plain\":5,\"e\u{301}\":6,\"\u{E9}x\":7}"
        for text in [escaped, raw] { try assertSelectiveDecodesMatch(text) }
    }

    private func assertSelectiveDecodesMatch(_ text: String) throws {
        let whole = try Record(key: "K:1", jsonText: text)
        let asked: [Set<String>] = [
            ["title"], ["K"], ["\u{212A}"], ["caf\u{E9}"], ["cafe\u{301}"], ["\u{E9}"], ["plain", "\u{E9}"], ["plain"],
            Set(whole.fields.keys),
        ]
        for only in asked {
            let partial = try Record(key: "K:1", jsonText: text, fields: only)
            XCTAssertEqual(partial.fields, whole.fields.filter { only.contains($0.key) }, "\(only)")
        }
    }
}
