import Foundation
import XCTest

@testable import CacheStore

/// references(to:filter:) and ReferenceScanFilter: a filter may let through
/// records without the reference, never drop one that has it, so every
/// filter must give the same answer as `.everything`; and so must the scan
/// that a pattern removal makes for the references it leaves dangling.
final class ReferenceScanFilterTests: XCTestCase {

    static let searchField = "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"

    func testReferencesToSeveralTargetsSkipTheTargetsThemselvesAndAreOrderedByKeyThenField() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        let targets: Set<CacheKey> = ["Human:1000", "Droid:2001"]
        let expected = [
            ReferenceLocation(from: "Droid:2001.friendsConnection(after:null,first:2)", field: "friends", to: "Human:1000"),
            ReferenceLocation(from: "QUERY_ROOT", field: "hero(episode:NEWHOPE)", to: "Droid:2001"),
            ReferenceLocation(from: "QUERY_ROOT", field: "human(id:1000)", to: "Human:1000"),
            ReferenceLocation(from: "QUERY_ROOT", field: Self.searchField, to: "Human:1000"),
            ReferenceLocation(from: "QUERY_ROOT", field: Self.searchField, to: "Droid:2001"),
        ]
        try store.read { tx in
            XCTAssertEqual(try tx.references(to: targets), expected)
            XCTAssertEqual(try tx.references(to: targets, filter: .containing(keys: Array(targets))), expected)
            XCTAssertEqual(try tx.references(to: []), [])
            XCTAssertEqual(try tx.references(to: ["Nobody:1"], filter: .containing(keys: ["Nobody:1"])), [])
        }
    }

    func testAKeySpelledWithUnicodeEscapesIsStillFound() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in
            try tx.unsafeWriteRawRecord(key: "Café:1", text: #"{"__typename":"C"}"#)
            try tx.unsafeWriteRawRecord(key: "P_1", text: #"{"__typename":"P"}"#)
            try tx.unsafeWriteRawRecord(key: "Holder:1", text: #"{"c":{"$reference":"Caf\u00e9:1"},"p":[{"$reference":"\u0050_1"}]}"#)
        }
        try store.read { tx in
            for (target, field) in [("Café:1", "c"), ("P_1", "p")] {
                let expected = [ReferenceLocation(from: "Holder:1", field: field, to: CacheKey(target))]
                XCTAssertEqual(try tx.references(to: [CacheKey(target)]), expected)
                XCTAssertEqual(try tx.references(to: [CacheKey(target)], filter: .containing(keys: [CacheKey(target)])), expected, target)
            }
        }
    }

    func testContainingMoreThanSixteenKeysGivesTheSameAnswerAsEverything() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        let targets = Set((0..<20).map { CacheKey("Missing:\($0)") } + ["Starship:3001"])
        try store.read { tx in
            let everything = try tx.references(to: targets, filter: .everything)
            XCTAssertEqual(everything, [ReferenceLocation(from: "Human:1000", field: "starships", to: "Starship:3001")])
            XCTAssertEqual(try tx.references(to: targets, filter: .containing(keys: Array(targets))), everything)
        }
    }

    /// A store with a target key `key`, one record referencing it as the
    /// store writes it and one holding `rawText` written as it is.
    private func storeWithReferences(to key: CacheKey, rawText: String) throws -> CacheStore {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in
            try tx.merge([
                Record(key: key, fields: ["__typename": .string("Odd")]),
                Record(key: "Holder:written", fields: ["r": .reference(key)]),
            ])
            try tx.unsafeWriteRawRecord(key: "Holder:raw", text: rawText)
        }
        // Both holders decode to a reference to the target.
        let holders = try store.read { try $0.records(for: ["Holder:written", "Holder:raw"]) }
        for (holder, result) in holders {
            XCTAssertEqual(try result.get().references.map(\.key), [key], "\(holder)")
        }
        return store
    }

    private func assertEveryFilterFindsBothHolders(
        _ store: CacheStore, target: CacheKey, patterns: [(String, KeyPattern.Mode)],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let expected = [
            ReferenceLocation(from: "Holder:raw", field: "r", to: target),
            ReferenceLocation(from: "Holder:written", field: "r", to: target),
        ]
        try store.read { tx in
            XCTAssertEqual(try tx.references(to: [target], filter: .everything), expected, "everything", file: file, line: line)
            XCTAssertEqual(try tx.references(to: [target], filter: .containing(keys: [target])), expected,
                           "containing(keys:)", file: file, line: line)
            for (text, mode) in patterns {
                let pattern = try KeyPattern(text, mode: mode)
                XCTAssertTrue(pattern.matches(target), "the test pattern \(pattern) must match \(target)", file: file, line: line)
                var dangling: [ReferenceLocation] = []
                let removal = try tx.previewRemovingObjects(matching: pattern, listingKeys: true) { dangling.append($0) }
                XCTAssertTrue(removal.keys?.contains(target) == true, "\(pattern) removes \(target)", file: file, line: line)
                XCTAssertEqual(dangling.filter { $0.to == target }.sorted { $0.from < $1.from }, expected,
                               "removal scan of \(pattern)", file: file, line: line)
            }
        }
    }

    func testFiltersFindReferencesToSlashKeysWrittenEscapedOrRaw() throws {
        let target: CacheKey = "Odd:path/to/x"
        let store = try storeWithReferences(to: target, rawText: #"{"r":{"$reference":"Odd:path/to/x"}}"#)
        // The store writes the slash as Apollo does.
        XCTAssertEqual(try SQLiteShell.row(store.path, key: "Holder:written")?.record, #"{"r":{"$reference":"Odd:path\/to\/x"}}"#)
        try assertEveryFilterFindsBothHolders(store, target: target, patterns: [
            ("path/to", .apollo), ("path_to", .apollo), ("PATH/TO/%", .apollo), ("odd:path/", .literal),
            ("Odd:path/", .prefix), ("Odd:path/*", .glob), ("path/to/x$", .regex),
        ])
    }

    func testFiltersFindReferencesToNonASCIIAndParenthesisKeys() throws {
        let target: CacheKey = "QUERY_ROOT.search(text:café (50%)).0"
        let store = try storeWithReferences(to: target, rawText: #"{"r":{"$reference":"QUERY_ROOT.search(text:café (50%)).0"}}"#)
        try assertEveryFilterFindsBothHolders(store, target: target, patterns: [
            ("café (50%)", .apollo), ("CAF_ (50", .apollo), ("CAFé (50%)", .literal), ("QUERY_ROOT.search(text:caf", .prefix),
            ("*caf[é]*", .glob), ("\\(50%\\)\\)\\.0$", .regex),
        ])
    }

    func testFiltersFindReferencesToKeysWithQuotesAndBackslashes() throws {
        let target: CacheKey = #"Odd:say "hi" \ bye"#
        let store = try storeWithReferences(to: target, rawText: #"{"r":{"$reference":"Odd:say \"hi\" \\ bye"}}"#)
        try assertEveryFilterFindsBothHolders(store, target: target, patterns: [
            (#"say "hi""#, .apollo), (#"SAY "HI" \"#, .literal), (#"Odd:say "h"#, .prefix), (#"*"hi"*"#, .glob),
        ])
    }

    /// A key with a quote and a slash, referenced by a writer that escapes the
    /// quote (it must) but not the slash (the "raw" spelling the filter's
    /// documentation promises to accept).
    func testFiltersFindReferencesToKeysWithAQuoteAndAnUnescapedSlash() throws {
        let target: CacheKey = #"Odd:say "hi"/bye"#
        let store = try storeWithReferences(to: target, rawText: #"{"r":{"$reference":"Odd:say \"hi\"/bye"}}"#)
        try assertEveryFilterFindsBothHolders(store, target: target, patterns: [
            (#"say "hi"/bye"#, .apollo), (#"SAY "HI"/"#, .literal), (#"Odd:say "hi"/"#, .prefix),
        ])
    }

    func testDamagedRowsAreSkippedByTheReferenceScan() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in
            try tx.unsafeWriteRawRecord(key: "Broken:1", text: #"{"r":{"$reference":"Human:1002"}"#)
            try tx.unsafeWriteRawRecord(key: "Null:1", text: nil)
        }
        let found = try store.read { tx in
            try tx.references(to: ["Human:1002"], filter: .containing(keys: ["Human:1002"]))
        }
        XCTAssertEqual(found, [ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002")])
    }
}
