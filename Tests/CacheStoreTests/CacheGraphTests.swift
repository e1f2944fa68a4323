import ExampleCaches
import Foundation
import XCTest

@testable import CacheStore

/// The one-pass graph of a cache: dangling references, reachability,
/// case-duplicate keys, damaged rows and cascades.
final class CacheGraphTests: XCTestCase {
    private func store(_ folder: TemporaryDirectory, _ records: [Record], raw: [(String, String?)] = []) throws -> CacheStore {
        let store = try CacheStore.create(at: folder.path("graph.sqlite"))
        _ = try store.write { tx in
            try tx.merge(records)
            for (key, text) in raw { try tx.unsafeWriteRawRecord(key: CacheKey(key), text: text) }
        }
        return store
    }

    /// A blog cache of `users` users with every `step`-th of the first
    /// `2 × users` keys of `type` removed (so references dangle), then a
    /// NULL record, a record the scanner refuses, and a few `Late:` records.
    private func damagedBlogStore(_ folder: TemporaryDirectory, users: Int, removingEvery step: Int, of type: String) throws -> CacheStore {
        let store = try CacheStore.create(at: folder.path("blog.sqlite"))
        try BlogCache(users: users).write(to: store)
        _ = try store.write { tx in
            for index in stride(from: 1, through: 2 * users, by: step) { _ = try tx.removeObject(for: CacheKey("\(type):\(index)")) }
            try tx.unsafeWriteRawRecord(key: "Null:1", text: nil)
            try tx.unsafeWriteRawRecord(key: "Broken:1", text: #"{"a":{"$reference":"User:1"}"#)
            try BlogCache(users: 5).records { try tx.merge([Record(key: CacheKey("Late:" + $0.key.rawValue), fields: $0.fields)]) }
        }
        return store
    }

    /// A record with the given fields and an `id` (a merge writes no record without fields).
    private func record(_ key: CacheKey, _ fields: [String: FieldValue]) -> Record {
        Record(key: key, fields: fields.merging(["id": .string(key.rawValue)]) { old, _ in old })
    }

    /// The decoder reads `"\u0024reference"` as `$reference`, and of two
    /// `$reference` members keeps the last; the scanner leaves such texts
    /// to it, so the graph and the reference scans see those references.
    func testReferencesWithAnEscapedNameOrARepeatedMemberAreFollowed() throws {
        let folder = try TemporaryDirectory(self)
        let store = try store(folder, [record("User:1", [:]), record("User:2", [:])], raw: [
            ("QUERY_ROOT", #"{"me":{"\u0024reference":"User:1"},"other":{"$reference":"User:3","$reference":"User:2"}}"#),
        ])
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.damagedRecords, [])
        XCTAssertEqual(graph.unreachableKeys(), [])
        XCTAssertEqual(graph.danglingReferences, [])
        var found: [ReferenceLocation] = []
        try store.read { tx in try tx.forEachReference(to: ["User:1", "User:2"]) { found.append($0) } }
        XCTAssertEqual(Set(found), [
            ReferenceLocation(from: "QUERY_ROOT", field: "me", to: "User:1"),
            ReferenceLocation(from: "QUERY_ROOT", field: "other", to: "User:2"),
        ])
        // A pattern removal's own scan reports them as left dangling.
        var dangling: [ReferenceLocation] = []
        let removal = try store.read { tx in
            try tx.previewRemovingObjects(matching: try KeyPattern("User:", mode: .prefix)) { dangling.append($0) }
        }
        XCTAssertEqual(removal.count, 2)
        XCTAssertEqual(Set(dangling), Set(found))
    }

    func testStarwarsFixtureHasNoDanglingReferenceAndNoUnreachableRecord() throws {
        let folder = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try folder.copy(Fixtures.starwars))
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.recordCount, 10)
        XCTAssertEqual(graph.danglingReferences, [])
        XCTAssertEqual(graph.unreachableKeys(), [])
        XCTAssertEqual(graph.caseInsensitiveDuplicates(), [])
        XCTAssertEqual(graph.damagedRecords, [])
        XCTAssertEqual(graph.edgeTargets.count, 12, "the fixture's references")
    }

    func testRemovingHuman1002LeavesExactlyDroidFriendsDangling() throws {
        let folder = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try folder.copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in try tx.removeObject(for: "Human:1002") }
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.danglingReferences, [ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002")])
        XCTAssertEqual(graph.unreachableKeys(), [])
    }

    func testRecordsNoRootReachesAreUnreachableEvenInACycle() throws {
        let folder = try TemporaryDirectory(self)
        let store = try store(folder, [
            record(.queryRoot, ["a": .reference("A:1")]),
            record("A:1", ["next": .reference("B:1")]),
            record("B:1", ["__typename": .string("B")]),
            record("C:1", ["other": .reference("C:2")]),
            record("C:2", ["back": .reference("C:1"), "b": .reference("B:1")]),
        ])
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.unreachableKeys(), ["C:1", "C:2"])
    }

    func testDamagedRowsAreReportedByKeyAndNeverCountedUnreachable() throws {
        let folder = try TemporaryDirectory(self)
        let store = try store(folder, [record(.queryRoot, ["a": .reference("Bad:1")])],
                              raw: [("Bad:1", #"{"name": tru}"#), ("Null:1", nil), ("List:1", "[1]")])
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.damagedRecords.map(\.key), ["Bad:1", "Null:1", "List:1"])
        XCTAssertEqual(graph.damagedRecords[1].problem, .null)
        XCTAssertEqual(graph.damagedRecords[2].problem, .notAnObject("a JSON array"))
        XCTAssertEqual(graph.unreachableKeys(), [])
        XCTAssertEqual(graph.danglingReferences, [], "a reference to a damaged record is not dangling")
    }

    func testKeysThatDifferOnlyByCaseAreGrouped() throws {
        let folder = try TemporaryDirectory(self)
        let store = try store(folder, [
            record("Human:1", [:]), record("human:1", [:]), record("HUMAN:1", [:]), record("Droid:1", [:]), record("droid:2", [:]),
        ])
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.caseInsensitiveDuplicates(), [["HUMAN:1", "Human:1", "human:1"]])
    }

    /// Thousands of keys, as in a real cache: the case duplicates are found
    /// among them, and keys that only look alike are not.
    func testCaseDuplicatesAreFoundAmongThousandsOfKeys() throws {
        let folder = try TemporaryDirectory(self)
        let store = try CacheStore.create(at: folder.path("blog.sqlite"))
        try BlogCache(users: 1_500).write(to: store)
        _ = try store.write { tx in
            try tx.merge([record("user:7", [:]), record("POST:3", [:]), record("POST:3.x", [:]), record("User:7 ", [:])])
        }
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertGreaterThan(graph.recordCount, 5_000)
        XCTAssertEqual(graph.caseInsensitiveDuplicates(), [["POST:3", "Post:3"], ["User:7", "user:7"]])
    }

    func testCascadeTakesOnlyWhatNothingElseReaches() throws {
        let folder = try TemporaryDirectory(self)
        let store = try store(folder, [
            record(.queryRoot, ["post": .reference("Post:1"), "me": .reference("User:2")]),
            record("Post:1", ["author": .reference("User:1"), "comments": .list([.reference("Comment:1"), .reference("Comment:2")])]),
            record("Comment:1", ["author": .reference("User:2")]),
            record("Comment:2", ["author": .reference("User:3"), "reply": .reference("Comment:3")]),
            record("Comment:3", ["parent": .reference("Comment:2")]),
            record("User:1", [:]), record("User:2", [:]), record("User:3", [:]),
            record("Orphan:1", ["user": .reference("User:3")]),
        ])
        let graph = try store.read { tx in try tx.graph() }
        // User:2 is the root's; User:3 is still held by Orphan:1, which stays.
        XCTAssertEqual(try graph.cascade(from: ["Post:1"]), ["Comment:1", "Comment:2", "Comment:3", "Post:1", "User:1"])
        XCTAssertEqual(try graph.cascade(from: ["Missing:1"]), [])
        XCTAssertEqual(graph.references(to: Set(try graph.cascade(from: ["Post:1"]))),
                       [ReferenceLocation(from: "QUERY_ROOT", field: "post", to: "Post:1")])
    }

    func testCascadeNeverTakesARootItWasNotGiven() throws {
        let folder = try TemporaryDirectory(self)
        let store = try store(folder, [
            record(.queryRoot, ["a": .reference("A:1")]),
            record("A:1", ["root": .reference(.queryRoot), "b": .reference("B:1")]),
            record("B:1", [:]),
        ])
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(try graph.cascade(from: ["A:1"]), ["A:1", "B:1"])
    }

    func testKeysOfATypeComeFromTheTopLevelTypename() throws {
        let folder = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try folder.copy(Fixtures.starwars))
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.keys(typenames: ["Human"]), ["Human:1000", "Human:1002"])
        XCTAssertEqual(graph.keys(typenames: ["Review"]), [
            "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])",
            "QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1",
        ])
        XCTAssertEqual(graph.keys(typenames: ["Nothing"]), [])
        XCTAssertEqual(graph.keys(typenames: ["Nothing", "Human", "Droid"]), ["Droid:2001", "Human:1000", "Human:1002"])
    }

    func testGraphKeepsOnlyKeysAndEdgesNotRecordText() throws {
        let folder = try TemporaryDirectory(self)
        let big = String(repeating: "x", count: 100_000)
        let store = try store(folder, [record(.queryRoot, ["a": .reference("A:1"), "text": .string(big)])])
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.keys, ["QUERY_ROOT", "A:1"])
        XCTAssertEqual(graph.sizes[0], Int32(graph.totalBytes))
        XCTAssertGreaterThan(graph.totalBytes, 100_000)
        XCTAssertEqual(graph.fields, ["a"], "fields without references are not kept")
        XCTAssertEqual(graph.damagedRecords, [])
    }

    /// Many batches of rows, with rows that are not batched (NULL, refused
    /// text) between them: the graph built on the second thread is the one
    /// the rows say, in order.
    func testAGraphOverManyBatchesAgreesWithDecodingEveryRecord() throws {
        let folder = try TemporaryDirectory(self)
        let store = try damagedBlogStore(folder, users: 800, removingEvery: 97, of: "Post")
        let graph = try store.read { tx in try tx.graph() }
        let everything = try store.read { tx in try tx.records(for: tx.keys()) }
        let records = everything.compactMapValues { try? $0.get() }
        XCTAssertEqual(graph.recordCount, everything.count)
        XCTAssertEqual(Set(graph.damagedRecords.map(\.key)), ["Null:1", "Broken:1"])
        var expected: [ReferenceLocation] = []
        for (key, record) in records {
            for (field, value) in record.fields {
                for target in value.references where everything[target] == nil {
                    expected.append(ReferenceLocation(from: key, field: field, to: target))
                }
            }
        }
        let order = { (a: ReferenceLocation, b: ReferenceLocation) in (a.from, a.field, a.to) < (b.from, b.field, b.to) }
        XCTAssertEqual(graph.danglingReferences.sorted(by: order), expected.sorted(by: order))
        XCTAssertFalse(expected.isEmpty)
    }

    /// Ids only grow, and legacy Apollo gives a row a new one on every
    /// update: a small file may hold an id in the millions. Room for the
    /// rows is reserved from the file's size too, not from the id alone
    /// (a 10-record file took a gigabyte), and the graph is whole.
    func testRoomForTheGraphIsBoundedByTheFileSizeNotOnlyTheLargestID() throws {
        XCTAssertEqual(ReadTransaction.graphCapacity(largestID: 49_000_000, fileBytes: 16_384), 1_024)
        XCTAssertEqual(ReadTransaction.graphCapacity(largestID: 900, fileBytes: 16_384), 900)
        XCTAssertEqual(ReadTransaction.graphCapacity(largestID: Int.max, fileBytes: Int.max), 50_000_000)
        let folder = try TemporaryDirectory(self)
        let store = try CacheStore.create(at: folder.path("ids.sqlite"))
        _ = try store.write { tx in try tx.merge([Record(key: "QUERY_ROOT", fields: ["a": .reference("A:1")]), Record(key: "A:1", fields: ["n": .int(1)])]) }
        try SQLiteShell.run(folder.path("ids.sqlite"), "UPDATE records SET _id = 9000000000000000000 WHERE key = 'A:1'")
        let graph = try store.read { tx in try tx.graph() }
        XCTAssertEqual(graph.recordCount, 2)
        XCTAssertEqual(graph.danglingReferences, [])
        XCTAssertEqual(graph.unreachableKeys(), [])
    }

    /// The reading thread scans some chunks of rows and hands others over
    /// unscanned, as the builder keeps up: the graph must not depend on
    /// which thread scanned which rows, nor on where chunks start.
    func testTheGraphIsTheSameWhicheverThreadScansTheRows() throws {
        let folder = try TemporaryDirectory(self)
        let store = try damagedBlogStore(folder, users: 300, removingEvery: 41, of: "User")
        _ = try store.write { tx in
            try tx.unsafeWriteRawRecord(key: "Escaped:1", text: #"{"__typename":"T\u0061g","f\u006f":{"$reference":"Post:\u0031"}}"#)
            try tx.unsafeWriteRawRecord(key: "Empty:1", text: "")
            // Larger than a chunk may copy: scanned by the reading thread whatever the split.
            let big = String(repeating: "x", count: RawRows.largestRecord + 10)
            try tx.unsafeWriteRawRecord(key: "Big:1", text: #"{"__typename":"Big","a":{"$reference":"Nowhere:1"},"b":"\#(big)"}"#)
        }
        try SQLiteShell.run(folder.path("blog.sqlite"), "INSERT INTO records(key, record) VALUES ('', '{}')")
        try SQLiteShell.run(folder.path("blog.sqlite"), #"INSERT INTO records(key, record) VALUES (NULL, '{"__typename":"Ghost"}')"#)
        try SQLiteShell.run(folder.path("blog.sqlite"), #"INSERT INTO records(key, record) VALUES (CAST('Blob:1' AS BLOB), '{"__typename":"Ghost"}')"#)
        // Ordinary rows last, so that the last chunk ends in a part-filled batch.
        _ = try store.write { tx in
            try BlogCache(users: 2).records { try tx.merge([Record(key: CacheKey("Last:" + $0.key.rawValue), fields: $0.fields)]) }
        }
        func summary(_ graph: CacheGraph) -> String {
            var lines = [
                "keys \(graph.keys)", "sizes \(graph.sizes)", "states \(graph.states)", "fields \(graph.fields)",
                "damaged \(graph.damagedRecords)", "keyless \(graph.keylessRowIDs)", "blob keys \(graph.blobKeyRows)",
                "records \(graph.recordCount) bytes \(graph.totalBytes)", "dangling \(graph.danglingReferences)",
                "unreachable \(graph.unreachableKeys())", "row ids \(graph.rowIDs)",
            ]
            for node in 0..<Int32(graph.nodeCount) {
                let type = graph.typenameOf[Int(node)]
                let edges = graph.edges(of: node).map { "\(graph.fieldTable.string(graph.edgeFields[$0]))>\(graph.edgeTargets[$0])" }
                lines.append("\(node) \(type < 0 ? "-" : graph.typenameTable.string(type)) \(edges)")
            }
            return lines.joined(separator: "\n")
        }
        let reading = try store.read { tx in try tx.graph(scanning: .readingThread) }
        let builder = try store.read { tx in try tx.graph(scanning: .builderThread) }
        let balanced = try store.read { tx in try tx.graph(scanning: .balanced) }
        XCTAssertEqual(summary(builder), summary(reading))
        XCTAssertEqual(summary(balanced), summary(reading))
        // Each record's row id is its row's (gc deletes by it); 0 for keys only referenced.
        let rows = try SQLiteShell.run(folder.path("blog.sqlite"), "SELECT hex(key) || ' ' || _id FROM records WHERE key IS NOT NULL")
        var rowIDs: [String: Int64] = [:]
        for line in rows.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            rowIDs[String(parts[0])] = Int64(parts[1])
        }
        for node in 0..<Int32(reading.nodeCount) {
            let hex = reading.keyTable.withBytes(node) { $0.map { String(format: "%02X", $0) }.joined() }
            XCTAssertEqual(reading.rowIDs[Int(node)], rowIDs[hex] ?? 0, reading.keys[Int(node)])
        }
        XCTAssertGreaterThan(Set(reading.rowIDs).count, 20)
        XCTAssertEqual(reading.damagedRecords.map(\.key), ["Null:1", "Broken:1", "Empty:1"])
        XCTAssertEqual(reading.damagedRecords.last?.problem.description, "empty text, not a JSON object", "empty text is not NULL")
        XCTAssertEqual(reading.keys(typenames: ["Big"]), ["Big:1"])
        XCTAssertEqual(reading.keylessRowIDs.count, 1)
        XCTAssertEqual(reading.blobKeyRows.map(\.key), ["Blob:1"])
        XCTAssertEqual(reading.keys(typenames: ["Ghost"]), [], "neither the keyless row nor the BLOB-keyed one is a record")
        XCTAssertEqual(reading.keys(typenames: ["Tag"]), ["Escaped:1"])
        XCTAssertGreaterThan(reading.recordCount, RawRows.capacity * 4, "enough rows for many chunks")
    }

    /// The bucketed sort behind the case-duplicate search orders exactly as
    /// a plain sort: spread hashes, values crowded into one bucket, repeats,
    /// the extremes, and arrays too short to bucket.
    func testTheBucketedSortOrdersAsAPlainSortDoes() {
        var generator = TestRandom()
        let spread = (0..<50_000).map { _ in UInt64.random(in: .min ... .max, using: &generator) }
        let crowded = (0..<20_000).map { _ in 0xABCD_0000_0000_0000 | UInt64.random(in: 0..<1_000, using: &generator) }
        let edges: [UInt64] = [.max, 0, .max, 1 << 48, (1 << 48) - 1, 0]
        for values in [spread, crowded + spread + edges + spread.prefix(1_000), edges, [], Array(spread.prefix(100))] {
            var sorted = values
            CacheGraph.sortSpreadValues(&sorted)
            XCTAssertEqual(sorted, values.sorted())
        }
    }

    func testTheHealthReportWithItsCheckOnASecondConnectionIsTheSameReportAndChangesNothing() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        _ = try CacheStore.open(at: path, access: .readWrite).write { tx in
            _ = try tx.removeObject(for: "Human:1002")
            try tx.unsafeWriteRawRecord(key: "Broken:1", text: "not json {")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = try CacheStore.open(at: path, access: .readOnly)
        let overlapped = try store.healthReport(fullIntegrityCheck: true)
        let serial = try store.read { tx in try tx.healthReport(fullIntegrityCheck: true) }
        XCTAssertEqual("\(overlapped)", "\(serial)")
        XCTAssertEqual(
            overlapped.danglingReferences, [ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002", path: [.index(1)])])
        XCTAssertEqual(overlapped.damagedRecords.map(\.key), ["Broken:1"])
        XCTAssertEqual(overlapped.integrityProblems, [])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
    }

    func testPlacingFindsEachReferencesPathAndTakesRepeatedPlacesInOrder() throws {
        let folder = try TemporaryDirectory(self)
        let store = try store(folder, [
            Record(key: "A:1", fields: [
                "friends": .list([.reference("Gone:1"), .reference("B:1"), .list([.reference("Gone:1")])]),
                "best": .reference("Gone:1"),
                "meta": .object(["owner": .reference("Gone:2"), "n": .int(1)]),
            ]),
            Record(key: "B:1", fields: ["__typename": .string("B")]),
        ])
        let graph = try store.read { try $0.graph() }
        let placed = try store.read { tx in try tx.placing(graph.danglingReferences) }
        XCTAssertEqual(placed.map(\.location), ["best", "friends[0]", "friends[2][0]", "meta.owner"])
        XCTAssertEqual(placed.map(\.to), ["Gone:1", "Gone:1", "Gone:1", "Gone:2"])
        // A holder gone, or a reference no longer there: no path, the rest placed.
        let stale = [
            ReferenceLocation(from: "Missing:1", field: "x", to: "Gone:1"),
            ReferenceLocation(from: "A:1", field: "best", to: "Gone:9"),
            ReferenceLocation(from: "A:1", field: "best", to: "Gone:1"),
            ReferenceLocation(from: "A:1", field: "best", to: "Gone:1"),
        ]
        XCTAssertEqual(try store.read { tx in try tx.placing(stale) }.map(\.path), [nil, nil, [], nil])
    }

    /// Keys that look the same in two Unicode forms are two keys: each
    /// reference is placed where its own bytes are, not at the first
    /// look-alike.
    func testPlacingTellsKeysInTwoUnicodeFormsApart() throws {
        let folder = try TemporaryDirectory(self)
        let composed = CacheKey("P:\u{E9}"), decomposed = CacheKey("P:e\u{301}")
        let store = try store(folder, [Record(key: "QUERY_ROOT", fields: ["l": .list([.reference(composed), .reference(decomposed)])])])
        let placed = try store.read { tx in
            try tx.placing([ReferenceLocation(from: "QUERY_ROOT", field: "l", to: decomposed), ReferenceLocation(from: "QUERY_ROOT", field: "l", to: composed)])
        }
        XCTAssertEqual(placed.map(\.location), ["l[1]", "l[0]"])
    }

}

/// The byte-string table behind the graph: numbers in insertion order,
/// finds what was added, survives growth.
final class KeyTableTests: XCTestCase {
    func testKeysAreNumberedInOrderAndFoundAfterGrowing() {
        var table = KeyTable(capacity: 2)
        let keys = (0..<5_000).map { "Key:\($0)" } + ["", "é/ü", "QUERY_ROOT.reviews(episode:JEDI,first:2).0"]
        for (index, key) in keys.enumerated() { XCTAssertEqual(table.insert(key), Int32(index)) }
        for (index, key) in keys.enumerated() {
            XCTAssertEqual(table.insert(key), Int32(index), "a second insert finds the first")
            XCTAssertEqual(table.find(key), Int32(index))
            XCTAssertEqual(table.string(Int32(index)), key)
        }
        XCTAssertEqual(table.count, keys.count)
        XCTAssertNil(table.find("Key:5000"))
        XCTAssertNil(table.find("key:1"))
    }

    /// Keys that tie in their first 16 bytes, end in zero bytes, are empty,
    /// are prefixes of each other or hold bytes above 0x7F sort as their
    /// bytes do.
    func testSortingGivesByteOrderWhateverTheKeysShare() {
        var generator = TestRandom()
        let alphabet: [UInt8] = [0x00, 0x01, 0x41, 0x61, 0x7F, 0x80, 0xC3, 0xFF]
        var table = KeyTable()
        var entries: [Int32] = []
        var bytesOf: [Int32: [UInt8]] = [:]
        for round in 0..<3_000 {
            let shared = Array("Comment:00000000".utf8).prefix(Int.random(in: 0...16, using: &generator))
            let tail = (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let bytes = Array(shared) + tail
            let entry = bytes.withUnsafeBufferPointer { table.insert($0) }
            if bytesOf[entry] == nil { bytesOf[entry] = bytes }
            entries.append(entry)
            if round % 7 == 0 { entries.append(entry) }
        }
        let expected = entries.sorted { bytesOf[$0]!.lexicographicallyPrecedes(bytesOf[$1]!) }
        XCTAssertEqual(table.sorted(entries).map { bytesOf[$0]! }, expected.map { bytesOf[$0]! })
    }
}
