import Foundation
import XCTest

@testable import CacheStore

/// removeObject(for:), removeObjects(matching:) and clear() on copies of
/// starwars.sqlite, checked against what an independent sqlite3 sees.
final class RemovalTests: XCTestCase {

    private func copyOfStarwars() throws -> (store: CacheStore, path: String) {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        return (try CacheStore.open(at: path, access: .readWrite), path)
    }

    private func keysInFile(_ path: String) throws -> Set<CacheKey> {
        Set(try SQLiteShell.lines(path, "SELECT key FROM records").map { CacheKey($0) })
    }

    /// Removes with `pattern` on a fresh copy; checks the returned keys and
    /// the keys left in the file.
    private func assertRemoval(
        _ text: String, mode: KeyPattern.Mode, removes expected: Set<CacheKey>,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (store, path) = try copyOfStarwars()
        let removed = try store.write { tx in try tx.removeObjects(matching: KeyPattern(text, mode: mode), listingKeys: true) { _ in }.keys ?? [] }
        XCTAssertEqual(Set(removed), expected, "\(mode) '\(text)' returned keys", file: file, line: line)
        XCTAssertEqual(removed.count, expected.count, "no key is returned twice", file: file, line: line)
        XCTAssertEqual(try keysInFile(path), Set(Fixtures.starwarsKeys).subtracting(expected), "\(mode) '\(text)' keys left", file: file, line: line)
    }

    // MARK: removeObject(for:)

    func testRemoveObjectIsExactAndCaseSensitive() throws {
        let (store, path) = try copyOfStarwars()
        XCTAssertFalse(try store.write { tx in try tx.removeObject(for: "droid:2001") })
        XCTAssertFalse(try store.write { tx in try tx.removeObject(for: "Droid:200") })
        XCTAssertEqual(try keysInFile(path).count, 10)
        XCTAssertTrue(try store.write { tx in try tx.removeObject(for: "Droid:2001") })
        XCTAssertEqual(try keysInFile(path), Set(Fixtures.starwarsKeys).subtracting(["Droid:2001"]),
                       "only the exact key goes; Droid:2001.friendsConnection(…) stays")
        XCTAssertFalse(try store.write { tx in try tx.removeObject(for: "Droid:2001") }, "already gone")
    }

    // MARK: apollo mode, the observations of the spec

    /// SQLite's usual text binding stops at a NUL: a key holding one (which
    /// a file written by other code can have) must not reach another key.
    func testKeysWithANULAreRemovedAndRepairedExactlyAndNeverWritten() throws {
        let (store, path) = try copyOfStarwars()
        try SQLiteShell.run(path, #"INSERT INTO records(key, record) VALUES ('A', '{"x":{"$reference":"Gone:1"}}'), ('A' || char(0) || 'B', '{"x":{"$reference":"Gone:1"}}'), ('C' || char(0), '{}')"#)
        let nul: CacheKey = "A\u{0}B"
        let dropped = try store.write { tx in try tx.dropReferences(to: ["Gone:1"], in: [nul]) }
        XCTAssertEqual(dropped.map(\.key), [nul])
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT record FROM records WHERE key = 'A'"), [#"{"x":{"$reference":"Gone:1"}}"#])
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT record FROM records WHERE key = 'A' || char(0) || 'B'"), ["{}"])

        XCTAssertEqual(try store.write { tx in try tx.removeObjects(forKeys: [nul]) }, 1)
        XCTAssertTrue(try store.write { tx in try tx.removeObject(for: "C\u{0}") })
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT hex(key) FROM records WHERE key LIKE 'A%' OR key LIKE 'C%'"), ["41"])

        XCTAssertThrowsError(try store.write { tx in try tx.merge([Record(key: "D\u{0}E", fields: ["n": .int(1)])]) }) { error in
            XCTAssertEqual(error as? CacheStoreError, .keyHoldsNUL("D\u{0}E"))
        }
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records WHERE key IN ('D', 'D' || char(0) || 'E')"), ["0"])
    }

    func testApolloModeHumanUnderscorePatternRemovesHuman1000AndHuman1002() throws {
        try assertRemoval("Human:100_", mode: .apollo, removes: ["Human:1000", "Human:1002"])
    }

    func testApolloModePercentRemovesEveryRecord() throws {
        try assertRemoval("%", mode: .apollo, removes: Set(Fixtures.starwarsKeys))
    }

    func testApolloModeLowercaseStarshipRemovesStarship3001() throws {
        try assertRemoval("starship", mode: .apollo, removes: ["Starship:3001"])
    }

    func testApolloModeDroidKeyAlsoRemovesItsPathKeyedChildren() throws {
        try assertRemoval("Droid:2001", mode: .apollo, removes: ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
    }

    func testApolloModeEmptyPatternRemovesNothing() throws {
        try assertRemoval("", mode: .apollo, removes: [])
    }

    func testApolloModeUnderscoreAloneRemovesEveryNonEmptyKey() throws {
        try assertRemoval("_", mode: .apollo, removes: Set(Fixtures.starwarsKeys))
        // An empty key is no character long: `_` leaves it.
        let (store, path) = try copyOfStarwars()
        _ = try SQLiteShell.run(path, #"INSERT INTO records(key, record) VALUES ('', '{"a":1}')"#)
        let removed = try store.write { tx in try tx.removeObjects(matching: KeyPattern("_", mode: .apollo), listingKeys: true) { _ in }.keys ?? [] }
        XCTAssertEqual(Set(removed), Set(Fixtures.starwarsKeys))
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT count(*) FROM records WHERE key = ''; SELECT count(*) FROM records"), "1\n1\n")
    }

    func testApolloModeRootPatternRemovesRootsAndTheirPathKeys() throws {
        try assertRemoval("_root", mode: .apollo, removes: [
            "QUERY_ROOT", "QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1",
            "MUTATION_ROOT", "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])",
        ])
    }

    // MARK: literal mode

    func testLiteralModeHumanUnderscorePatternRemovesNothing() throws {
        try assertRemoval("Human:100_", mode: .literal, removes: [])
    }

    func testLiteralModeLowercaseKeyRemovesHuman1000CaseInsensitively() throws {
        try assertRemoval("human:1000", mode: .literal, removes: ["Human:1000"])
    }

    func testLiteralModeMatchesSubstringsWithPunctuation() throws {
        try assertRemoval("(after:null,", mode: .literal, removes: ["Droid:2001.friendsConnection(after:null,first:2)"])
        try assertRemoval("great movie!", mode: .literal, removes: [
            "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])",
        ])
    }

    // MARK: prefix mode

    func testPrefixModeRemovesKeysThatStartWithTheTextCaseSensitively() throws {
        try assertRemoval("Human:", mode: .prefix, removes: ["Human:1000", "Human:1002"])
        try assertRemoval("human:", mode: .prefix, removes: [])
        try assertRemoval("1000", mode: .prefix, removes: [])
        try assertRemoval("Droid:2001", mode: .prefix, removes: ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        try assertRemoval("QUERY_ROOT.", mode: .prefix, removes: [
            "QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1",
        ])
    }

    // MARK: glob and regex modes

    func testGlobModeRemovesWholeKeyMatchesOnly() throws {
        try assertRemoval("Droid:2001", mode: .glob, removes: ["Droid:2001"])
        try assertRemoval("Droid:2001*", mode: .glob, removes: ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        try assertRemoval("Human:100?", mode: .glob, removes: ["Human:1000", "Human:1002"])
        try assertRemoval("starship:*", mode: .glob, removes: [])
        try assertRemoval("*.[01]", mode: .glob, removes: [
            "QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1",
        ])
    }

    func testRegexModeRemovesKeysWithAMatchAnywhere() throws {
        try assertRemoval("2001", mode: .regex, removes: ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        try assertRemoval("^Human:100[02]$", mode: .regex, removes: ["Human:1000", "Human:1002"])
        try assertRemoval("\\.[0-9]$", mode: .regex, removes: [
            "QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1",
        ])
        try assertRemoval("starship", mode: .regex, removes: [])
        try assertRemoval("(?i)starship", mode: .regex, removes: ["Starship:3001"])
    }

    func testInvalidRegexThrowsInvalidPatternBeforeAnythingIsRemoved() throws {
        let (store, path) = try copyOfStarwars()
        XCTAssertThrowsError(try store.write { tx in try tx.removeObjects(matching: KeyPattern("Human:(", mode: .regex)) }) { error in
            guard case .invalidPattern(let pattern, _)? = error as? CacheStoreError else { return XCTFail("\(error)") }
            XCTAssertEqual(pattern, "Human:(")
        }
        XCTAssertEqual(try keysInFile(path).count, 10)
    }

    // MARK: clear()

    func testClearRemovesEveryRecordAndReturnsTheCount() throws {
        let (store, path) = try copyOfStarwars()
        XCTAssertEqual(try store.write { tx in try tx.clear() }, 10)
        XCTAssertEqual(try keysInFile(path), [])
        XCTAssertEqual(try store.read { try $0.recordCount() }, 0)
        XCTAssertEqual(try store.write { tx in try tx.clear() }, 0, "clearing an empty cache removes nothing")
        // The table itself stays: the file is still an Apollo cache.
        XCTAssertEqual(try CacheStore.open(at: path).format, ApolloIOSSQLiteFormat(ddl: .current))
    }

    // MARK: No cascade

    func testRemovalNeverCascadesReferencesToTheRemovedRecordStay() throws {
        let (store, path) = try copyOfStarwars()
        let droidBefore = try XCTUnwrap(try SQLiteShell.row(path, key: "Droid:2001"))
        XCTAssertTrue(try store.write { tx in try tx.removeObject(for: "Human:1002") })

        let droidAfter = try XCTUnwrap(try SQLiteShell.row(path, key: "Droid:2001"))
        XCTAssertEqual(droidAfter.record, droidBefore.record, "the referencing record is not touched")
        let droid = try XCTUnwrap(try store.read { try $0.record(for: "Droid:2001") })
        XCTAssertEqual(droid["friends"], .list([.reference("Human:1000"), .reference("Human:1002"), .null]))
        XCTAssertEqual(try keysInFile(path).count, 9)

        let expected = [ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002")]
        let target: Set<CacheKey> = ["Human:1002"]
        try store.read { tx in
            XCTAssertEqual(try tx.references(to: target), expected)
            XCTAssertEqual(try tx.references(to: target, filter: .everything), expected)
            XCTAssertEqual(try tx.references(to: target, filter: .containing(keys: ["Human:1002"])), expected)
        }
    }

    func testRemovalNeverCascadesRecordsTheRemovedOneReferencedStay() throws {
        let (store, path) = try copyOfStarwars()
        try store.write { tx in _ = try tx.removeObject(for: "QUERY_ROOT") }
        XCTAssertEqual(try keysInFile(path), Set(Fixtures.starwarsKeys).subtracting(["QUERY_ROOT"]))
    }
}
