import Foundation
import XCTest

@testable import CacheStore

/// `compare(with:)`: a merge join of two files in key order, records
/// compared as JSON values field by field.
final class CompareTests: XCTestCase {
    private func cache(_ folder: TemporaryDirectory, _ name: String, raw rows: [(String, String?)]) throws -> CacheStore {
        let path = folder.path(name)
        let store = try CacheStore.create(at: path)
        try store.write { tx in
            for (key, text) in rows { try tx.unsafeWriteRawRecord(key: CacheKey(key), text: text) }
        }
        return try CacheStore.open(at: path)
    }

    private func differences(_ a: CacheStore, _ b: CacheStore) throws -> ([RecordDifference], ComparisonCounts) {
        try a.read { ta in
            try b.read { tb in
                var found: [RecordDifference] = []
                let counts = try ta.compare(with: tb) { found.append($0) }
                return (found, counts)
            }
        }
    }

    func testAFileIsTheSameAsItself() throws {
        let (found, counts) = try differences(try CacheStore.open(at: Fixtures.starwars.path), try CacheStore.open(at: Fixtures.starwars.path))
        XCTAssertTrue(found.isEmpty)
        XCTAssertEqual(counts.unchanged, 10)
        XCTAssertTrue(counts.isSame)
    }

    func testAddedRemovedAndChangedRecordsComeInKeyOrder() throws {
        let folder = try TemporaryDirectory(self)
        let a = try cache(folder, "a.sqlite", raw: [
            ("A:1", #"{"n":1}"#), ("B:1", #"{"n":1,"m":"x"}"#), ("C:1", #"{"n":1}"#), ("E:1", #"{"n":1}"#),
        ])
        let b = try cache(folder, "b.sqlite", raw: [
            ("B:1", #"{"n":2,"o":true}"#), ("C:1", #"{"n":1}"#), ("D:1", #"{"n":1}"#), ("E:1", #"{"n":1}"#), ("F:1", #"{}"#),
        ])
        let (found, counts) = try differences(a, b)
        XCTAssertEqual(found.map { "\($0.kind) \($0.key)" }, ["removed A:1", "changed B:1", "added D:1", "added F:1"])
        XCTAssertEqual(counts, { var c = ComparisonCounts(); c.added = 2; c.removed = 1; c.changed = 1; c.unchanged = 2; return c }())
        XCTAssertEqual(try found[1].fields(), [
            FieldDifference(field: "m", before: .string("x"), after: nil),
            FieldDifference(field: "n", before: .int(1), after: .int(2)),
            FieldDifference(field: "o", before: nil, after: .bool(true)),
        ])
        XCTAssertEqual(try found[0].fields(), [FieldDifference(field: "n", before: .int(1), after: nil)])
        XCTAssertEqual(try found[3].fields(), [])
    }

    /// Member order, `\/`, and the integer and fraction forms of one number
    /// are not differences; a different number is, even past a double's
    /// precision.
    func testRecordsAreComparedAsJSONValues() throws {
        let folder = try TemporaryDirectory(self)
        let a = try cache(folder, "a.sqlite", raw: [
            ("K:1", #"{"a":4,"b":"x\/y","c":{"p":1,"q":[1,2]}}"#),
            ("K:2", #"{"big":9007199254740993}"#),
            ("K:3", #"{"n":1e2,"z":-0}"#),
            ("K:4", #"{"n":1}"#),
        ])
        let b = try cache(folder, "b.sqlite", raw: [
            ("K:1", #"{"c":{"q":[1.0,2],"p":1.0},"b":"x/y","a":4.0}"#),
            ("K:2", #"{"big":9007199254740992.0}"#),
            ("K:3", #"{"z":0,"n":100}"#),
            ("K:4", #"{"n":1.5}"#),
        ])
        let (found, counts) = try differences(a, b)
        XCTAssertEqual(found.map(\.key), ["K:2", "K:4"])
        XCTAssertEqual(counts.unchanged, 2)
    }

    func testReferencesDifferFromStringsAndOtherKeys() throws {
        let folder = try TemporaryDirectory(self)
        let a = try cache(folder, "a.sqlite", raw: [("K:1", #"{"r":{"$reference":"X:1"},"s":{"$reference":"X:1"}}"#)])
        let b = try cache(folder, "b.sqlite", raw: [("K:1", #"{"r":"X:1","s":{"$reference":"X:2"}}"#)])
        let (found, _) = try differences(a, b)
        XCTAssertEqual(try found.first?.fields().map(\.field), ["r", "s"])
    }

    func testADamagedRowIsAChangeUnlessItsTextIsTheSame() throws {
        let folder = try TemporaryDirectory(self)
        let a = try cache(folder, "a.sqlite", raw: [("K:1", "{bad"), ("K:2", nil), ("K:3", "{bad")])
        let b = try cache(folder, "b.sqlite", raw: [("K:1", "{bad"), ("K:2", nil), ("K:3", #"{"n":1}"#)])
        let (found, counts) = try differences(a, b)
        XCTAssertEqual(found.map(\.key), ["K:3"])
        XCTAssertEqual(counts.unchanged, 2)
        XCTAssertThrowsError(try found[0].fields()) { error in
            guard case CacheStoreError.damagedRecord(let key, _)? = error as? CacheStoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(key, "K:3")
        }
    }

    /// Keys are ordered by bytes, as SQLite's index orders them: a key with
    /// a lower-case or non-ASCII character sorts after upper-case ones.
    func testKeysAreMatchedInByteOrder() throws {
        let folder = try TemporaryDirectory(self)
        let rows: [(String, String?)] = [("a", "{}"), ("B", "{}"), ("é", "{}"), ("e\u{301}", "{}"), ("Z.1", "{}"), ("Z", "{}")]
        let a = try cache(folder, "a.sqlite", raw: rows)
        let b = try cache(folder, "b.sqlite", raw: rows.reversed())
        let (found, counts) = try differences(a, b)
        XCTAssertEqual(found.map(\.key.rawValue), [])
        XCTAssertEqual(counts.unchanged, 6)
        let c = try cache(folder, "c.sqlite", raw: [("e\u{301}", "{}")])
        XCTAssertEqual(try differences(a, c).0.map(\.key.rawValue), ["B", "Z", "Z.1", "a", "é"])
    }

    /// As JSON compares them, strings and member names differ when their
    /// bytes do: a composed `é` is not `e` with a combining accent.
    func testNamesAndStringsThatDifferOnlyInNormalizationDiffer() {
        let composed = Record(key: "A:1", fields: ["search(text:caf\u{e9})": .int(1), "name": .string("Jos\u{e9}"), "o": .object(["caf\u{e9}": .int(1)])])
        let decomposed = Record(key: "A:1", fields: ["search(text:cafe\u{301})": .int(1), "name": .string("Jose\u{301}"), "o": .object(["cafe\u{301}": .int(1)])])
        let differences = FieldDifference.between(composed, decomposed)
        XCTAssertEqual(differences.map(\.field), ["name", "o", "search(text:cafe\u{301})", "search(text:caf\u{e9})"])
        XCTAssertEqual(differences.map { $0.before == nil }, [false, false, true, false])
        XCTAssertEqual(FieldDifference.between(composed, composed), [])
        XCTAssertEqual(FieldDifference.between(composed, Record(key: "A:1", fields: composed.fields.mapValues { $0 == .int(1) ? .double(1.0) : $0 })), [])
    }
}
