import Foundation
import XCTest

@testable import CacheStore

/// A damaged row must never stop the good ones from loading, and the
/// store's SQL view of "damaged" must agree with what fails to decode.
final class DamagedRecordTests: XCTestCase {

    static let damaged: [(key: CacheKey, text: String?)] = [
        ("Broken:json", #"{"name":"R2"#),
        ("Broken:null", nil),
        ("Broken:array", "[1,2]"),
        ("Broken:empty", ""),
        ("Broken:trailing", #"{"a":1} {"b":2}"#),
    ]

    private func storeWithDamagedRows() throws -> CacheStore {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in
            for row in Self.damaged { try tx.unsafeWriteRawRecord(key: row.key, text: row.text) }
        }
        return store
    }

    func testRecordsForKeysReturnsFailuresForDamagedKeysOnlyAndTheGoodRecordsStillLoad() throws {
        let store = try storeWithDamagedRows()
        let results = try store.read { tx in try tx.records(for: Fixtures.starwarsKeys + Self.damaged.map(\.key) + ["Missing:1"]) }
        XCTAssertEqual(results.count, 15, "missing keys are absent, the others all present")
        XCTAssertNil(results["Missing:1"])
        for key in Fixtures.starwarsKeys {
            XCTAssertNoThrow(try XCTUnwrap(results[key]).get(), key.rawValue)
        }
        for row in Self.damaged {
            guard case .failure(let error)? = results[row.key] else { XCTFail("\(row.key) should fail"); continue }
            guard case .damagedRecord(let key, let problem) = error else { XCTFail("\(row.key): \(error)"); continue }
            XCTAssertEqual(key, row.key)
            if row.text == nil {
                XCTAssertEqual(problem, .null)
            } else {
                switch problem {
                case .invalidJSON, .notAnObject: break
                case .null, .numberApolloCannotRead: XCTFail("\(row.key): \(problem)")
                }
            }
        }
        guard case .failure(.damagedRecord(_, .invalidJSON(let offset, _)))? = results["Broken:json"] else {
            return XCTFail("Broken:json")
        }
        XCTAssertEqual(offset, 11, "the offset points at the end of the cut-off text")
    }

    func testRecordForADamagedKeyThrowsAndForAGoodKeyWorks() throws {
        let store = try storeWithDamagedRows()
        try store.read { tx in
            XCTAssertThrowsCacheError(try tx.record(for: "Broken:null"), .damagedRecord(key: "Broken:null", problem: .null))
            XCTAssertThrowsError(try tx.record(for: "Broken:json"))
            XCTAssertEqual(try tx.record(for: "Droid:2001")?["name"], .string("R2-D2"))
            XCTAssertNil(try tx.record(for: "Missing:1"))
        }
    }

    func testForEachRecordYieldsEveryRowWithFailuresForDamagedOnes() throws {
        let store = try storeWithDamagedRows()
        var good: [CacheKey] = []
        var bad: [CacheKey] = []
        try store.read { tx in
            try tx.forEachRecord { key, result in
                switch result {
                case .success(let record):
                    XCTAssertEqual(record.key, key)
                    good.append(key)
                case .failure: bad.append(key)
                }
            }
        }
        XCTAssertEqual(Set(good), Set(Fixtures.starwarsKeys))
        XCTAssertEqual(bad, Self.damaged.map(\.key), "in _id order, after the fixture rows")
        XCTAssertEqual(Array(good.prefix(2)), ["Droid:2001", "QUERY_ROOT"], "rows come in _id order")
    }

    func testTheCensusCountsDamagedRowsApart() throws {
        let store = try storeWithDamagedRows()
        let census = try store.read { try $0.census(largest: 0, damagedKeys: 0) }
        XCTAssertEqual(census.damagedCount, 5)
        XCTAssertEqual(census.typeCounts, ReadTransactionTests.starwarsTypenameCounts, "the good rows are counted as before")
    }

    func testTheCensusNamesTheDamagedRowsInKeyOrder() throws {
        let store = try storeWithDamagedRows()
        let all = Self.damaged.map(\.key).sorted()
        XCTAssertEqual(try store.read { try $0.census(largest: 0, damagedKeys: 10).damagedKeys }, all)
        XCTAssertEqual(try store.read { try $0.census(largest: 0, damagedKeys: 2).damagedKeys }, Array(all.prefix(2)))
    }

    func testKeyListingsAndTypenameFiltersWorkDespiteDamagedRows() throws {
        let store = try storeWithDamagedRows()
        try store.read { tx in
            XCTAssertEqual(try tx.recordCount(), 15)
            XCTAssertEqual(try tx.keys(typenames: ["Human"]), ["Human:1000", "Human:1002"])
            XCTAssertEqual(try tx.countKeys(matching: KeyPattern("Broken:", mode: .prefix)), 5)
            let largest = try tx.census(largest: 20, damagedKeys: 0).largest
            XCTAssertEqual(largest.count, 15)
            XCTAssertEqual(largest.first(where: { $0.key == "Broken:null" })?.bytes, 0)
            XCTAssertEqual(largest.first(where: { $0.key == "Broken:array" })?.bytes, 5)
        }
    }

    func testDamagedRowsCanBeRemoved() throws {
        let store = try storeWithDamagedRows()
        let removed = try store.write { tx in try tx.removeObjects(matching: KeyPattern("Broken:", mode: .prefix), listingKeys: true) { _ in }.keys ?? [] }
        XCTAssertEqual(Set(removed), Set(Self.damaged.map(\.key)))
        XCTAssertEqual(try store.read { try $0.census(largest: 0, damagedKeys: 0).damagedCount }, 0)
    }

    func testARawRecordCanBeRepairedByWritingItAgain() throws {
        let store = try storeWithDamagedRows()
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Broken:json", text: #"{"name":"R2"}"#) }
        XCTAssertEqual(try store.read { try $0.record(for: "Broken:json")?.fields }, ["name": .string("R2")])
        XCTAssertFalse(try store.read { try $0.census(largest: 0, damagedKeys: 10) }.damagedKeys.contains("Broken:json"))
    }

    /// `forEachStoredRecordCheckingJSON` judges rows in SQL (json_valid,
    /// and gqlcache_too_deep), so that export can pass a well-formed row on
    /// as text; the decoder, and so the census, must agree with it at the
    /// edges: numbers too large for a Double, nesting up to the 512 levels
    /// Apollo's reader takes (a bracket in a string no level), and past
    /// SQLite's own 2000.
    func testTheDecoderTheCensusAndTheSQLCheckAgreeAtTheJSONLimits() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        func nested(_ depth: Int, holding value: String = "") -> String {
            String(repeating: "[", count: depth) + value + String(repeating: "]", count: depth)
        }
        try store.write { tx in
            try tx.unsafeWriteRawRecord(key: "Odd:infinite", text: #"{"n":1e999}"#)
            try tx.unsafeWriteRawRecord(key: "Odd:deep", text: #"{"a":"# + nested(511) + "}")
            try tx.unsafeWriteRawRecord(key: "Odd:too-deep", text: #"{"a":"# + nested(512) + "}")
            // Only containers count: a value inside the deepest is no level of its own, nor is a bracket in a string.
            try tx.unsafeWriteRawRecord(key: "Odd:deep-value", text: #"{"a":"# + nested(511, holding: #""[[{\"]""#) + "}")
            try tx.unsafeWriteRawRecord(key: "Odd:deep-reference", text: #"{"a":"# + nested(510, holding: #"{"$reference":"X"}"#) + "}")
            try tx.unsafeWriteRawRecord(key: "Odd:too-deep-reference", text: #"{"a":"# + nested(511, holding: #"{"$reference":"X"}"#) + "}")
            try tx.unsafeWriteRawRecord(key: "Odd:past-sqlite", text: #"{"a":"# + nested(2000) + "}")
        }
        let keys: [CacheKey] = [
            "Odd:infinite", "Odd:deep", "Odd:too-deep", "Odd:deep-value", "Odd:deep-reference", "Odd:too-deep-reference", "Odd:past-sqlite",
        ]
        let failing = try store.read { tx in
            try tx.records(for: keys).filter { (try? $0.value.get()) == nil }.keys.sorted()
        }
        XCTAssertEqual(failing, ["Odd:past-sqlite", "Odd:too-deep", "Odd:too-deep-reference"], "only the rows past the nesting limit are damaged")
        XCTAssertEqual(try store.read { try $0.census(largest: 0, damagedKeys: 10).damagedKeys }, failing)
        var notWellFormed: [CacheKey] = []
        _ = try store.read { tx in
            try tx.forEachStoredRecordCheckingJSON { stored, isWellFormed, _ in
                if !isWellFormed { notWellFormed.append(stored.key) }
            }
        }
        XCTAssertEqual(notWellFormed, failing)
        let infinite = try XCTUnwrap(try store.read { try $0.record(for: "Odd:infinite") })
        XCTAssertEqual(infinite["n"], .number("1e999"))
        XCTAssertEqual(infinite.jsonText, #"{"n":1e999}"#, "written back as the file has it")
    }

    /// The current DDL has no NOT NULL on `key`, so a damaged file can hold
    /// a row whose key is NULL. Reading the good records must still work,
    /// and nothing may crash. Runs in a child process because it may crash.
    func testARowWithANullKeyDoesNotStopTheGoodRecordsFromBeingRead() throws {
        try runIsolated(self) { directory in
            let path = try directory.copy(Fixtures.starwars)
            try SQLiteShell.run(path, #"INSERT INTO records(key, record) VALUES (NULL, '{"__typename":"Ghost"}')"#)
            let store = try CacheStore.open(at: path)
            try store.read { tx in
                var good: [CacheKey] = []
                try tx.forEachRecord { key, result in
                    if case .success = result { good.append(key) }
                }
                XCTAssertEqual(Set(good), Set(Fixtures.starwarsKeys), "forEachRecord")
                XCTAssertEqual(try tx.keys(), Fixtures.starwarsKeys, "keys()")
                XCTAssertEqual(try tx.references(to: ["Human:1002"]),
                               [ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002")], "references(to:)")
                XCTAssertEqual(try tx.census(largest: 1, damagedKeys: 10).damagedKeys, [], "census(largest:damagedKeys:)")
                XCTAssertEqual(try tx.records(for: Fixtures.starwarsKeys).count, 10, "records(for:)")
            }
        }
    }
}
