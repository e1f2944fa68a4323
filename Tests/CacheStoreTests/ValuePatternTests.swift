import Foundation
import XCTest

@testable import CacheStore

/// `grep`'s matching: which values are searched, how, and the SQL filter
/// that never drops a record holding a match.
final class ValuePatternTests: XCTestCase {
    private let record = Record(key: "Human:1000", fields: [
        "name": .string("Luke Skywalker"),
        "friends": .list([.reference("Human:1002"), .null, .reference("Droid:2001")]),
        "height(unit:FOOT)": .double(5.6430448),
        "meta": .object(["source": .string("web"), "score": .double(1.5)]),
        "isJedi": .bool(true),
        "mass": .null,
    ])

    private func found(_ text: String, regex: Bool = false, ignoringCase: Bool = false, fields: [String] = []) throws -> [String] {
        let pattern = try ValuePattern(text, isRegex: regex, ignoringCase: ignoringCase)
        return try record.matches(of: pattern, inFields: fields).map { match in
            ([match.field] + match.path.map { step in
                switch step {
                case .index(let index): return "[\(index)]"
                case .member(let name): return ".\(name)"
                }
            }).joined() + "=" + match.matched
        }
    }

    func testStringsReferencesNumbersAndBooleansAreSearched() throws {
        XCTAssertEqual(try found("Sky"), ["name=Sky"])
        XCTAssertEqual(try found("1002"), ["friends[0]=1002"])
        XCTAssertEqual(try found("5.64"), ["height(unit:FOOT)=5.64"])
        XCTAssertEqual(try found("we"), ["meta.source=we"])
        XCTAssertEqual(try found("true"), ["isJedi=true"])
        XCTAssertEqual(try found("null"), [], "null values are not searched")
        XCTAssertEqual(try found("source"), [], "member names are not searched")
    }

    func testLiteralIsCaseSensitiveUnlessAskedAndRegexFindsThePart() throws {
        XCTAssertEqual(try found("luke"), [])
        XCTAssertEqual(try found("luke", ignoringCase: true), ["name=Luke"])
        XCTAssertEqual(try found(#"^(Human|Droid):\d+$"#, regex: true), ["friends[0]=Human:1002", "friends[2]=Droid:2001"])
        XCTAssertEqual(try found("SKY.*", regex: true, ignoringCase: true), ["name=Skywalker"])
        XCTAssertEqual(try found("Human:100.", regex: false), [], "a literal's dot is a dot")
    }

    func testACaseSensitiveLiteralMatchesWhereItsCharactersAreAndNowhereElse() throws {
        let pattern = try ValuePattern("aab", isRegex: false, ignoringCase: false)
        XCTAssertEqual(try pattern.firstMatch(in: "aaab"), "aab", "a partial match before it does not hide it")
        XCTAssertEqual(try pattern.firstMatch(in: "xaab"), "aab", "at the end")
        XCTAssertNil(try pattern.firstMatch(in: "aa"), "longer than the subject")
        XCTAssertNil(try pattern.firstMatch(in: "baaxaa"), "its start only, at the end")
        XCTAssertNil(try pattern.firstMatch(in: ""))
        let single = try ValuePattern("é", isRegex: false, ignoringCase: false)
        XCTAssertEqual(try single.firstMatch(in: "café"), "é")
        XCTAssertNil(try single.firstMatch(in: "cafe\u{301}"), "a literal compares characters as written, not their other spelling")
        XCTAssertNil(try ValuePattern("\u{301}", isRegex: false, ignoringCase: false).firstMatch(in: "café"),
                     "no part of one character's bytes is another's")
        XCTAssertEqual(try ValuePattern("🚀:1", isRegex: false, ignoringCase: false).firstMatch(in: "Ship:🚀:1"), "🚀:1")
    }

    /// ICU matches code points, so a regular expression's match may begin
    /// or end inside a character: it is found, not dropped as no match,
    /// and `before` says where it lies.
    func testARegexMatchInsideACharacterIsFoundWithWhatComesBefore() throws {
        let record = Record(key: "R:1", fields: [
            "emoji": .string("ok 👍🏽"), "crlf": .string("Great!\r\nLoved"), "accent": .string("Cafe\u{301}"),
        ])
        func first(_ text: String, regex: Bool = true) throws -> [String] {
            try record.matches(of: try ValuePattern(text, isRegex: regex, ignoringCase: false)).map { "\($0.field)=\($0.before)|\($0.matched)" }
        }
        XCTAssertEqual(try first("👍"), ["emoji=ok |👍"])
        XCTAssertEqual(try first(#"\nLoved"#), ["crlf=Great!\r|\nLoved"])
        XCTAssertEqual(try first("Cafe"), ["accent=|Cafe"])
        XCTAssertEqual(try first("e", regex: false), ["accent=Caf|e", "crlf=Gr|e"], "a literal's bytes, inside a character too")
    }

    func testFieldsSelectByNameWithOrWithoutArguments() throws {
        XCTAssertEqual(try found("5", fields: ["height"]), ["height(unit:FOOT)=5"])
        XCTAssertEqual(try found("5", fields: ["height(unit:FOOT)"]), ["height(unit:FOOT)=5"])
        XCTAssertEqual(try found("5", fields: ["heigh"]), [])
        XCTAssertEqual(try found("1", fields: ["meta", "friends"]), ["friends[0]=1", "friends[2]=1", "meta.score=1"])
    }

    func testAnInvalidRegexIsAnInvalidPattern() {
        XCTAssertThrowsCacheError(
            try ValuePattern("(", isRegex: true, ignoringCase: false),
            .invalidPattern(pattern: "(", message: "not a valid regular expression"))
    }

    /// The SQL filter skips rows without the text, but keeps rows whose
    /// escapes could hide it, and damaged rows. A number is searched as the
    /// file holds it, so its text is in the row as it is searched.
    func testTheFilterNeverDropsARecordThatHoldsAMatch() throws {
        let folder = try TemporaryDirectory(self)
        let path = folder.path("cache.sqlite")
        let store = try CacheStore.create(at: path)
        try store.write { tx in
            for (key, text) in [
                ("A", #"{"s":"plain slash/here"}"#), ("B", #"{"s":"escaped slash\/here"}"#), ("C", #"{"s":"\u0073lash"}"#),
                ("D", #"{"s":"nothing"}"#), ("E", "not json"), ("F", #"{"n":1e2}"#),
            ] { try tx.unsafeWriteRawRecord(key: CacheKey(key), text: text) }
        }
        func visited(_ text: String) throws -> [String] {
            let pattern = try ValuePattern(text, isRegex: false, ignoringCase: false)
            var keys: [String] = []
            try store.read { tx in try tx.forEachStoredRecord(mayMatch: pattern) { keys.append($0.key.rawValue) } }
            return keys
        }
        XCTAssertEqual(try visited("slash"), ["A", "B", "C", "E"])
        XCTAssertEqual(try visited("1e2"), ["B", "C", "E", "F"])
        XCTAssertEqual(try visited("100"), ["B", "C", "E"], "1e2 is searched as it is written")
    }

    /// Numbers are searched, and reported, as the file holds them: the
    /// text a person copies from sqlite3, not the shortest form of the
    /// Double they decode to.
    func testStoredNumbersAreSearchedAsTheFileHoldsThem() throws {
        let stored = StoredRecord(key: "Post:1", text: #"{"meta":{"ratio":1.10,"n":1e2,"big":12345678901234567890123},"#
            + #""list":[1, -0.50],"n":3,"n":4}"#)
        func found(_ text: String, regex: Bool = false) throws -> [String] {
            try stored.matches(of: try ValuePattern(text, isRegex: regex, ignoringCase: false)).map { match in
                let steps = match.path.map { step -> String in
                    switch step {
                    case .index(let index): return "[\(index)]"
                    case .member(let name): return ".\(name)"
                    }
                }
                return match.field + steps.joined() + "=" + (match.numberText ?? "-")
            }
        }
        XCTAssertEqual(try found("1.10"), ["meta.ratio=1.10"])
        XCTAssertEqual(try found("1e2"), ["meta.n=1e2"])
        XCTAssertEqual(try found("100"), [], "1e2 is not written 100 in the file")
        XCTAssertEqual(try found("12345678901234567890123"), ["meta.big=12345678901234567890123"])
        XCTAssertEqual(try found("e+22"), [], "the Double's own text is not searched")
        XCTAssertEqual(try found("-0.50"), ["list[1]=-0.50"])
        XCTAssertEqual(try found("^[34]$", regex: true), ["n=4"], "the last of two members named alike, as decoded")
    }

    /// A search needs a value's first match only; grep's colour asks for
    /// every one, each with the text between it and the one before.
    func testEveryMatchInAValueIsFoundOnlyWhenAskedFor() throws {
        let record = Record(key: "K:1", fields: ["v": .string("ab-ab-ab")])
        var pattern = try ValuePattern("ab", isRegex: false, ignoringCase: false)
        let first = try XCTUnwrap(try record.matches(of: pattern).first)
        XCTAssertEqual([first.before, first.matched], ["", "ab"])
        XCTAssertEqual(first.later, [])
        pattern.findsEveryMatch = true
        for pattern in [pattern, try { var regex = try ValuePattern("a.", isRegex: true, ignoringCase: false); regex.findsEveryMatch = true; return regex }()] {
            let every = try XCTUnwrap(try record.matches(of: pattern).first)
            XCTAssertEqual(every.later, [.init(between: "-", matched: "ab"), .init(between: "-", matched: "ab")])
        }
    }
}
