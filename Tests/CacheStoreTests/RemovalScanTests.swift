import ExampleCaches
import Foundation
import XCTest

@testable import CacheStore

/// A pattern removal finds the references it leaves dangling in the same
/// pass over the table as its DELETE. Whatever it reports must be exactly
/// what a full decode of the file finds afterwards.
final class RemovalScanTests: XCTestCase {
    private static let starwarsPatterns: [(String, KeyPattern.Mode)] = [
        ("Human:100_", .apollo), ("human", .apollo), ("%", .apollo), ("1002", .literal), ("Droid:", .prefix),
        ("QUERY_ROOT", .prefix), ("*friendsConnection*", .glob), ("^(Human|Starship):", .regex), ("Nobody", .literal),
    ]

    /// Removes with `pattern` from a copy of `fixture` and checks the report
    /// against the keys that went and a full decode of what stayed.
    private func assertRemovalReportsExactlyWhatDangles(
        _ fixture: String, _ pattern: KeyPattern, in directory: TemporaryDirectory,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let path = directory.path(UUID().uuidString + ".sqlite")
        try FileManager.default.copyItem(atPath: fixture, toPath: path)
        // The fixture may be write-protected, and its copy keeps the mode.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let before = Set(try store.allKeys())
        var previewed: [ReferenceLocation] = []
        let preview = try store.read { tx in try tx.previewRemovingObjects(matching: pattern, listingKeys: true) { previewed.append($0) } }
        var reported: [ReferenceLocation] = []
        let removal = try store.write { tx in try tx.removeObjects(matching: pattern, listingKeys: true) { reported.append($0) } }
        let gone = Set(try XCTUnwrap(removal.keys))
        let after = Set(try store.allKeys())

        XCTAssertEqual(gone, before.subtracting(after), "\(pattern): the keys that went", file: file, line: line)
        XCTAssertEqual(gone, before.filter { pattern.matches($0) }, "\(pattern): the keys the pattern matches", file: file, line: line)
        let expected = try store.read { tx in try tx.references(to: gone, filter: .everything) }
        let order = { (a: ReferenceLocation, b: ReferenceLocation) in (a.from, a.field, a.to) < (b.from, b.field, b.to) }
        XCTAssertEqual(reported.sorted(by: order), expected.sorted(by: order), "\(pattern): dangling references", file: file, line: line)
        XCTAssertEqual(preview, removal, "\(pattern): the preview names the same keys", file: file, line: line)
        XCTAssertEqual(removal.count, gone.count, file: file, line: line)
        XCTAssertEqual(removal.keys, removal.keys?.sorted(), "\(pattern): keys in byte order", file: file, line: line)
        XCTAssertEqual(previewed, reported, "\(pattern): the preview reports the same references", file: file, line: line)
    }

    func testPatternRemovalReportsExactlyTheReferencesLeftDanglingInEveryMode() throws {
        let directory = try TemporaryDirectory(self)
        for (text, mode) in Self.starwarsPatterns {
            try assertRemovalReportsExactlyWhatDangles(Fixtures.starwars.path, try KeyPattern(text, mode: mode), in: directory)
        }
    }

    func testPatternRemovalOverManyChunksReportsExactlyWhatDangles() throws {
        // About 3 MB of records: many chunks for the scanning thread, and a
        // full queue that makes SQLite's side wait.
        let directory = try TemporaryDirectory(self)
        let path = directory.path("blog.sqlite")
        try BlogCache(users: 4000, postsPerUser: 2, commentsPerPost: 1).write(to: try CacheStore.create(at: path))
        for (text, mode) in [("Post:", KeyPattern.Mode.apollo), ("User:1", .prefix), ("Comment:_7", .apollo)] {
            try assertRemovalReportsExactlyWhatDangles(path, try KeyPattern(text, mode: mode), in: directory)
        }
    }

    func testReferencesFromDamagedAndNullRecordsAreNotReported() throws {
        let directory = try TemporaryDirectory(self)
        let path = try directory.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in
            try tx.unsafeWriteRawRecord(key: "Broken:1", text: #"{"r":{"$reference":"Human:1002"}"#)
            try tx.unsafeWriteRawRecord(key: "Null:1", text: nil)
        }
        var reported: [ReferenceLocation] = []
        let removal = try store.write { tx in try tx.removeObjects(matching: KeyPattern("Human:1002", mode: .literal), listingKeys: true) { reported.append($0) } }
        XCTAssertEqual(removal, PatternRemoval(count: 1, keys: ["Human:1002"]))
        XCTAssertEqual(reported, [ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002")])
    }

    func testARecordLargerThanAChunkIsScannedWhole() throws {
        let directory = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try directory.copy(Fixtures.starwars), access: .readWrite)
        let filler = String(repeating: "x", count: 600_000)
        _ = try store.write { tx in
            try tx.merge([Record(key: "Big:1", fields: ["a": .string(filler), "z": .reference("Human:1002")])])
        }
        var reported: [ReferenceLocation] = []
        _ = try store.write { tx in try tx.removeObjects(matching: KeyPattern("Human:1002", mode: .literal)) { reported.append($0) } }
        XCTAssertEqual(Set(reported), [
            ReferenceLocation(from: "Big:1", field: "z", to: "Human:1002"),
            ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002"),
        ])
    }

    func testAReferenceToAMatchingKeyThatNeverExistedIsNotReportedAsLeftDangling() throws {
        let directory = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try directory.copy(Fixtures.starwars), access: .readWrite)
        _ = try store.write { tx in
            try tx.merge([Record(key: "Holder:1", fields: ["ghost": .reference("Human:9999"), "real": .reference("Human:1000")])])
        }
        var reported: [ReferenceLocation] = []
        let removal = try store.write { tx in try tx.removeObjects(matching: KeyPattern("Human:", mode: .prefix), listingKeys: true) { reported.append($0) } }
        XCTAssertEqual(removal.keys, ["Human:1000", "Human:1002"])
        XCTAssertTrue(reported.contains(ReferenceLocation(from: "Holder:1", field: "real", to: "Human:1000")))
        XCTAssertFalse(reported.contains { $0.to == "Human:9999" })
    }

    func testThePreviewLeavesTheFileByteForByteAsItWas() throws {
        let directory = try TemporaryDirectory(self)
        let path = try directory.copy(Fixtures.starwars)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try CacheStore.open(at: path, access: .readOnly)
        let removal = try store.read { tx in try tx.previewRemovingObjects(matching: KeyPattern("Human", mode: .apollo)) { _ in } }
        XCTAssertEqual(removal, PatternRemoval(count: 2, keys: nil))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    func testARemovalCommitsBeforeItsDanglingReferencesAreAskedFor() throws {
        let directory = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try directory.copy(Fixtures.starwars), access: .readWrite)
        let pending = try store.write { tx in try tx.beginRemovingObjects(matching: KeyPattern("Human:1002", mode: .literal), listingKeys: true) }
        // Committed: another read no longer sees the record.
        XCTAssertNil(try store.read { tx in try tx.record(for: "Human:1002") })
        var reported: [ReferenceLocation] = []
        XCTAssertEqual(pending.result { reported.append($0) }, PatternRemoval(count: 1, keys: ["Human:1002"]))
        XCTAssertEqual(reported, [ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002")])
        // Asked again: the same answer, nothing reported twice.
        XCTAssertEqual(pending.result { reported.append($0) }, PatternRemoval(count: 1, keys: ["Human:1002"]))
        XCTAssertEqual(reported.count, 1)
    }

    func testAPendingRemovalNobodyAsksAboutStillCommits() throws {
        let directory = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try directory.copy(Fixtures.starwars), access: .readWrite)
        _ = try store.write { tx in try tx.beginRemovingObjects(matching: KeyPattern("Human:", mode: .prefix)) }
        XCTAssertEqual(try store.read { tx in try tx.countKeys(matching: KeyPattern("Human:", mode: .prefix)) }, 0)
    }

    func testTheNeedleIsTheLongestLiteralRunEveryMatchingKeyContains() throws {
        XCTAssertEqual(RemovalScan.needle(of: try KeyPattern("Hu_an:100%", mode: .apollo)).map { String(decoding: $0, as: UTF8.self) }, "an:100")
        XCTAssertEqual(RemovalScan.needle(of: try KeyPattern("50%_", mode: .literal)).map { String(decoding: $0, as: UTF8.self) }, "50%_")
        XCTAssertEqual(RemovalScan.needle(of: try KeyPattern("User:", mode: .prefix)).map { String(decoding: $0, as: UTF8.self) }, "User:")
        XCTAssertNil(RemovalScan.needle(of: try KeyPattern("%_%", mode: .apollo)))
        XCTAssertNil(RemovalScan.needle(of: try KeyPattern("User:*", mode: .glob)))
        XCTAssertNil(RemovalScan.needle(of: try KeyPattern("^User:", mode: .regex)))
    }
}
