import Foundation
import XCTest

@testable import CacheStore

/// ReadTransaction's facts about a file, checked on starwars.sqlite against
/// values counted with the sqlite3 shell.
final class ReadTransactionTests: XCTestCase {

    /// `SELECT json_extract(record,'$.__typename') t, count(*) FROM records GROUP BY t`
    /// on starwars.sqlite: Review 3, (none) 2, Human 2, Droid 1,
    /// FriendsConnection 1, Starship 1. Largest first, ties by name, nil as "".
    static let starwarsTypenameCounts = [
        TypenameCount(typename: "Review", count: 3),
        TypenameCount(typename: nil, count: 2),
        TypenameCount(typename: "Human", count: 2),
        TypenameCount(typename: "Droid", count: 1),
        TypenameCount(typename: "FriendsConnection", count: 1),
        TypenameCount(typename: "Starship", count: 1),
    ]

    private func starwars() throws -> CacheStore {
        try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
    }

    func testTheCensusTypenameCountsOnStarwarsAreExact() throws {
        let store = try starwars()
        let census = try store.read { try $0.census(largest: 0, damagedKeys: 0) }
        let counts = census.typeCounts
        XCTAssertEqual(counts, Self.starwarsTypenameCounts)
        XCTAssertEqual(census.damagedCount, 0)
        XCTAssertEqual([census.recordCount, census.keylessRowCount, census.blobKeyRowCount], [10, 0, 0])
        XCTAssertEqual(counts.map(\.count).reduce(0, +), 10)
        // Cross-check the numbers with the sqlite3 shell.
        let shell = try SQLiteShell.lines(store.path, "SELECT coalesce(json_extract(record,'$.__typename'),'-') AS t, count(*) FROM records GROUP BY t")
            .map { $0.replacingOccurrences(of: "|", with: "=") }
        XCTAssertEqual(Set(shell), ["-=2", "Droid=1", "FriendsConnection=1", "Human=2", "Review=3", "Starship=1"])
    }

    func testTheCensusCountsNonStringTypenamesAsNone() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        _ = try store.write { tx in
            try tx.merge([
                Record(key: "Odd:1", fields: ["__typename": .int(5)]),
                Record(key: "Odd:2", fields: ["__typename": .null]),
                Record(key: "Odd:3", fields: ["__typename": .string("Human")]),
            ])
        }
        let counts = try store.read { try $0.census(largest: 0, damagedKeys: 0).typeCounts }
        XCTAssertEqual(counts.first { $0.typename == nil }?.count, 4)
        XCTAssertEqual(counts.first { $0.typename == "Human" }?.count, 3)
        XCTAssertEqual(try store.read { try $0.keys(typenames: ["5"]) }, [], "a number is not the typename \"5\"")
    }

    func testExistingRootsOnStarwarsAreQueryAndMutationRoot() throws {
        let store = try starwars()
        XCTAssertEqual(try store.read { try $0.existingRoots() }, [.queryRoot, .mutationRoot])
        let legacy = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.legacy))
        XCTAssertEqual(try legacy.read { try $0.existingRoots() }, [.queryRoot])
    }

    func testKeysAreListedInByteOrderLikeTheShell() throws {
        let store = try starwars()
        let keys = try store.read { try $0.keys() }
        XCTAssertEqual(keys, Fixtures.starwarsKeys)
        XCTAssertEqual(keys.map(\.rawValue), try SQLiteShell.lines(store.path, "SELECT key FROM records ORDER BY key"))
        XCTAssertEqual(try store.read { try $0.recordCount() }, 10)
        XCTAssertEqual(try store.read { try $0.countKeys() }, 10)
    }

    func testForEachRecordComesInRowIDOrder() throws {
        let store = try starwars()
        var keys: [String] = []
        try store.read { tx in try tx.forEachRecord { key, _ in keys.append(key.rawValue) } }
        XCTAssertEqual(keys, try SQLiteShell.lines(store.path, "SELECT key FROM records ORDER BY _id"))
    }

    func testRecordsForManyKeysLoadsInBatchesAndSkipsMissingOnes() throws {
        let store = try starwars()
        let missing = (0..<1_234).map { CacheKey("Missing:\($0)") }
        let keys = missing.prefix(600) + Fixtures.starwarsKeys + missing.suffix(from: 600) + Fixtures.starwarsKeys
        let results = try store.read { try $0.records(for: Array(keys)) }
        XCTAssertEqual(Set(results.keys), Set(Fixtures.starwarsKeys))
        XCTAssertEqual(try store.read { try $0.records(for: []) }.count, 0)
    }

    /// The batched load reads each row where SQLite holds it: an empty key,
    /// a NULL record, a record stored as a BLOB and a damaged one each come
    /// back for their own key, as the one-key lookup gives them.
    func testRecordsForKeysGivesOddRowsAsTheOneKeyLookupDoes() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        try SQLiteShell.run(
            path,
            #"INSERT INTO records(key, record) VALUES ('', '{"a":1}'), ('Null:1', NULL), ('Blob:1', CAST('{"b":"\u00e9"}' AS BLOB)), ('Bad:1', '{"c":')"#,
            #"INSERT INTO records(key, record) VALUES ('Nul:1', '{"d":1}' || char(0) || 'junk'), ('Latin1:1', CAST(X'7B2264223A22FF227D' AS TEXT))"#)
        let store = try CacheStore.open(at: path)
        let keys: [CacheKey] = ["", "Null:1", "Blob:1", "Bad:1", "Nul:1", "Latin1:1", "Droid:2001", "Missing:1"]
        let results = try store.read { try $0.records(for: keys) }
        XCTAssertEqual(Set(results.keys), Set(keys.dropLast()))
        XCTAssertEqual(try results[""]?.get().fields, ["a": .int(1)])
        XCTAssertEqual(try results["Blob:1"]?.get().fields, ["b": .string("\u{E9}")])
        // A NUL after the object is text after it, wherever the row is read from.
        XCTAssertThrowsError(try results["Nul:1"]!.get())
        var everyRow: [CacheKey: Result<Record, CacheStoreError>] = [:]
        try store.read { tx in try tx.forEachRecord { everyRow[$0] = $1 } }
        for key in keys.dropLast() {
            let one = Result { try store.read { try $0.record(for: key) }! }
            XCTAssertEqual("\(everyRow[key].map { result in result.map(\.fields.count) }!)", "\(one.map(\.fields.count))", "\(key)")
            switch (results[key]!, one) {
            case (.success(let batched), .success(let alone)): XCTAssertEqual(batched, alone, "\(key)")
            case (.failure(let batched), .failure(let alone)): XCTAssertEqual("\(batched)", "\(alone)", "\(key)")
            default: XCTFail("\(key): \(results[key]!) but alone \(one)")
            }
        }
        let selective = try store.read { try $0.records(for: keys, onlyFields: ["a"]) }
        XCTAssertEqual(try selective[""]?.get().fields, ["a": .int(1)])
        XCTAssertEqual(try selective["Blob:1"]?.get().fields, [:])
        XCTAssertEqual("\(selective["Bad:1"]!)", "\(results["Bad:1"]!)")
    }

    /// Batched lookups read pages out of file order and get an 8 MB page
    /// cache; scans keep SQLite's default 2 MB, and a writing connection
    /// keeps its 32 MB.
    func testBatchedLookupsRaiseTheReadPageCacheButNeverLowerAWritingOne() throws {
        let store = try starwars()
        XCTAssertEqual(try store.read { tx in _ = try tx.graph(); return try tx.pageCacheKiB() }, 2000)
        XCTAssertEqual(try store.read { tx in _ = try tx.records(for: Fixtures.starwarsKeys); return try tx.pageCacheKiB() }, 8192)
        let writable = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        XCTAssertEqual(try writable.write { tx in _ = try tx.records(for: Fixtures.starwarsKeys); return try tx.pageCacheKiB() }, 32768)
    }

    func testContainsIsExactAndCaseSensitive() throws {
        try starwars().read { tx in
            XCTAssertTrue(try tx.contains("Droid:2001"))
            XCTAssertFalse(try tx.contains("droid:2001"))
            XCTAssertFalse(try tx.contains("Droid:200"))
        }
    }

    func testKeysAroundAndKeysEqualIgnoringCaseHelpWithTypos() throws {
        try starwars().read { tx in
            XCTAssertEqual(try tx.keys(around: "Human:1001", limit: 2), ["Droid:2001.friendsConnection(after:null,first:2)", "Human:1000", "Human:1002", "MUTATION_ROOT"])
            XCTAssertEqual(try tx.keys(around: "Human:1000", limit: 1), ["Droid:2001.friendsConnection(after:null,first:2)", "Human:1002"], "the key itself is left out")
            XCTAssertEqual(try tx.keys(around: "A", limit: 2), ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
            XCTAssertEqual(try tx.keys(equalIgnoringCase: "query_root"), ["QUERY_ROOT"])
            XCTAssertEqual(try tx.keys(equalIgnoringCase: "STARSHIP:3001"), ["Starship:3001"])
            XCTAssertEqual(try tx.keys(equalIgnoringCase: "Starship:300"), [])
        }
    }

    /// A key holding a NUL is read whole wherever keys are listed: cut at
    /// the NUL, a suggestion or a removal report would name another key.
    func testKeysHoldingANulAreReadWholeBySuggestionsAndRemovals() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        // Written by the sqlite3 shell: a key bound from a Swift string would stop at the NUL.
        try SQLiteShell.run(path, "INSERT INTO records(key, record) VALUES ('Nul:' || char(0) || 'boo', '{}')")
        let store = try CacheStore.open(at: path, access: .readWrite)
        let key = CacheKey("Nul:\u{0}boo")
        try store.read { tx in
            XCTAssertEqual(try tx.keys(around: "Nul:", limit: 1).last, key)
            XCTAssertEqual(try tx.keys(around: "Nul:\u{1}", limit: 1).first, key)
        }
        XCTAssertEqual(try store.write { tx in try tx.removeObjects(matching: try KeyPattern("nul:", mode: .apollo), listingKeys: true) { _ in }.keys ?? [] }, [key])
    }

    func testTheCensusBreaksSizeTiesByKeyAsSQLiteOrdersThem() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        let text = #"{"__typename":"Tie","pad":""# + String(repeating: "x", count: 500) + #""}"#
        try store.write { tx in
            for key in ["Tie:b", "Tie:c", "Tie:a", "Tie:B"] { try tx.unsafeWriteRawRecord(key: CacheKey(key), text: text) }
        }
        let largest = try store.read { try $0.census(largest: 3, damagedKeys: 0).largest }
        XCTAssertEqual(largest.map(\.key), ["Tie:B", "Tie:a", "Tie:b"], "byte order, upper case first; not row order")
        let shell = try SQLiteShell.lines(store.path, "SELECT key FROM records ORDER BY length(CAST(record AS BLOB)) DESC, key LIMIT 3")
        XCTAssertEqual(largest.map(\.key.rawValue), shell)
    }

    func testTheCensusReadsAnEscapedTypenameAsSQLiteDoes() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Human:9", text: #"{"__typename":"Hu\u006dan","id":"9"}"#) }
        let counts = try store.read { try $0.census(largest: 0, damagedKeys: 0).typeCounts }
        XCTAssertEqual(counts.first { $0.typename == "Human" }?.count, 3)
        XCTAssertEqual(try SQLiteShell.lines(store.path, "SELECT count(*) FROM records WHERE json_extract(record, '$.__typename') = 'Human'"), ["3"])
    }

    func testTheCensusLargestRecordsAreByteSizesOfTheJSONText() throws {
        let store = try starwars()
        let largest = try store.read { try $0.census(largest: 3, damagedKeys: 0).largest }
        let shell = try SQLiteShell.lines(store.path, "SELECT key || '=' || length(CAST(record AS BLOB)) FROM records ORDER BY length(CAST(record AS BLOB)) DESC, key LIMIT 3")
        XCTAssertEqual(largest.map { "\($0.key)=\($0.bytes)" }, shell)
        XCTAssertEqual(largest.first?.key, "QUERY_ROOT")
        // Bytes, not characters: the review with é counts é as two.
        let review = try store.read { try $0.census(largest: 10, damagedKeys: 0).largest }.first { $0.key == "QUERY_ROOT.reviews(episode:JEDI,first:2).0" }
        let raw = try XCTUnwrap(try SQLiteShell.row(store.path, key: "QUERY_ROOT.reviews(episode:JEDI,first:2).0")).record
        XCTAssertEqual(review?.bytes, raw.utf8.count)
        XCTAssertNotEqual(review?.bytes, raw.count)
    }

    func testPageStatisticsMatchTheFile() throws {
        let store = try starwars()
        let stats = try store.read { try $0.pageStatistics() }
        XCTAssertEqual(stats.pageSize, Int(try SQLiteShell.lines(store.path, "PRAGMA page_size").first ?? ""))
        XCTAssertEqual(stats.pageCount * stats.pageSize, 16_384)
        XCTAssertEqual(stats.freePages, Int(try SQLiteShell.lines(store.path, "PRAGMA freelist_count").first ?? ""))
        XCTAssertEqual(store.fileSizes().database, 16_384)
        XCTAssertEqual(store.fileSizes().total, 16_384)
    }

    func testRecordTypenameIsTheStringTypenameAndReferencesAreOrderedByField() throws {
        let droid = try XCTUnwrap(try starwars().read { try $0.record(for: "Droid:2001") })
        XCTAssertEqual(droid.typename, "Droid")
        XCTAssertNil(Record(key: "K", fields: ["__typename": .int(1)]).typename)
        XCTAssertNil(Record(key: "K", fields: [:]).typename)
        XCTAssertEqual(droid.references.map { "\($0.field)->\($0.key)" }, [
            "friends->Human:1000", "friends->Human:1002",
            "friendsConnection(after:null,first:2)->Droid:2001.friendsConnection(after:null,first:2)",
        ])
    }
}

/// CacheKey: opaque, case-sensitive, ordered by bytes like SQLite's BINARY.
final class CacheKeyTests: XCTestCase {
    func testKeysOrderByUTF8BytesLikeSQLite() throws {
        let keys: [CacheKey] = ["é", "a", "Z", "Droid:2001.x", "Droid:2001", "😀", "ÿ", "_"]
        XCTAssertEqual(keys.sorted().map(\.rawValue), ["Droid:2001", "Droid:2001.x", "Z", "_", "a", "ÿ", "é", "😀"].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(keys.sorted().map(\.rawValue), ["Droid:2001", "Droid:2001.x", "Z", "_", "a", "é", "ÿ", "😀"])
        // Same order as SQLite sorts them.
        let directory = try TemporaryDirectory(self)
        let store = try CacheStore.create(at: directory.path("keys.sqlite"))
        _ = try store.write { tx in try tx.merge(keys.map { Record(key: $0, fields: ["a": .int(1)]) }) }
        XCTAssertEqual(try store.allKeys(), keys.sorted())
    }

    func testRootsAreTheThreeOperationRoots() {
        XCTAssertEqual(CacheKey.roots.map(\.rawValue), ["QUERY_ROOT", "MUTATION_ROOT", "SUBSCRIPTION_ROOT"])
        XCTAssertTrue(CacheKey("QUERY_ROOT").isRoot)
        XCTAssertFalse(CacheKey("query_root").isRoot, "keys are case-sensitive")
        XCTAssertFalse(CacheKey("QUERY_ROOT.reviews(episode:JEDI,first:2).0").isRoot)
        XCTAssertEqual(CacheKey("Droid:2001").description, "Droid:2001")
        XCTAssertNotEqual(CacheKey("Droid:2001"), CacheKey("droid:2001"))
    }
}
