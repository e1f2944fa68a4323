import Foundation
import XCTest

@testable import CacheStore

/// gc in the store: what it plans is what it does, in one transaction.
final class GarbageCollectionTests: XCTestCase {
    func testDroppingReferencesRemovesTheFieldOrTheListElement() {
        let record = Record(key: "Droid:2001", fields: [
            "best": .reference("Human:1002"),
            "friends": .list([.reference("Human:1000"), .reference("Human:1002"), .null]),
            "grid": .list([.list([.reference("Human:1002")]), .list([.reference("Human:1000")])]),
            "meta": .object(["who": .reference("Human:1002"), "n": .int(1)]),
            "name": .string("R2-D2"),
        ])
        let (kept, dropped) = record.droppingReferences(to: ["Human:1002"])
        XCTAssertEqual(kept.fields, [
            "friends": .list([.reference("Human:1000"), .null]),
            "grid": .list([.list([]), .list([.reference("Human:1000")])]),
            "meta": .object(["n": .int(1)]),
            "name": .string("R2-D2"),
        ])
        XCTAssertEqual(dropped.map(\.location), ["best", "friends[1]", "grid[0][0]", "meta.who"])
        XCTAssertEqual(Set(dropped.map(\.target)), ["Human:1002"])
    }

    func testDroppingReferencesLeavesEveryOtherByteOfTheRecordAsItWas() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        // Digits beyond a Double's precision, a trailing zero, an escape,
        // blanks and an unsorted member order: written afresh, each would change.
        let text = #"{"z": 12345678901234567890123, "price":1.10,"name":"caf\u00e9","#
            + #""friends":[{"$reference":"Gone:1"}, {"$reference":"Human:1000"} ,{"$reference":"Gone:2"}],"#
            + #""best":{"$reference":"Gone:3"},"meta":{"a":1.0,"ref":{"$reference":"Gone:4"}},"__typename":"Odd"}"#
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Odd:1", text: text) }
        let dropped = try store.write { tx in try tx.dropReferences(to: ["Gone:1", "Gone:2", "Gone:3", "Gone:4"], in: ["Odd:1"]) }
        XCTAssertEqual(dropped.first?.dropped.map(\.location), ["best", "friends[0]", "friends[2]", "meta.ref"])
        XCTAssertEqual(
            try SQLiteShell.run(path, "SELECT record FROM records WHERE key = 'Odd:1'"),
            #"{"z": 12345678901234567890123,"price":1.10,"name":"caf\u00e9","friends":[{"$reference":"Human:1000"}],"#
                + #""meta":{"a":1.0},"__typename":"Odd"}"# + "\n")
    }

    /// Apollo reads bytes that are not UTF-8 as U+FFFD, but the file holds
    /// them: dropping a reference elsewhere in the record leaves them as they are.
    func testDroppingReferencesKeepsBytesThatAreNotUTF8() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        // "a\xFFb" in one field, a dangling reference in another.
        let hex = Array(#"{"bad":"a"#.utf8).map { String(format: "%02X", $0) }.joined() + "FF"
            + Array(#"b","r":{"$reference":"Gone:1"}}"#.utf8).map { String(format: "%02X", $0) }.joined()
        try SQLiteShell.run(path, "INSERT INTO records(key, record) VALUES ('U8:1', CAST(X'\(hex)' AS TEXT))")
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in _ = try tx.dropReferences(to: ["Gone:1"], in: ["U8:1"]) }
        let expected = Array(#"{"bad":"a"#.utf8).map { String(format: "%02X", $0) }.joined() + "FF"
            + Array(#"b"}"#.utf8).map { String(format: "%02X", $0) }.joined()
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT hex(record) FROM records WHERE key = 'U8:1'"), expected + "\n")
    }

    func testRemovingFromRecordTextEditsTheMemberReadAndFallsBackOnlyWhereTheTextDoesNotFit() {
        func edited(_ text: String, _ paths: [ReferencePath]) -> String? {
            var text = text
            return text.withUTF8 { JSONReader.recordText($0, removing: RemovalTree(removing: paths)) }.map { String(decoding: $0, as: UTF8.self) }
        }
        let best = ReferencePath(field: "best", path: [], target: "Gone:1")
        XCTAssertEqual(edited(#" {"best":{"$reference":"Gone:1"}} "#, [best]), "{}")
        XCTAssertEqual(edited(#"{"a":[1, 2 ,3]}"#, [ReferencePath(field: "a", path: [.index(1)], target: "X")]), #"{"a":[1,3]}"#)
        // A member given twice is read as its last: the edit is made there, the
        // earlier one (never read, and read once the last is gone) goes, and
        // every other byte stays.
        XCTAssertEqual(edited(#"{"z":1.10,"best":1,"s":"\u00e9\/","best":{"$reference":"Gone:1"}}"#, [best]), #"{"z":1.10,"s":"\u00e9\/"}"#)
        let second = ReferencePath(field: "l", path: [.index(1)], target: "Gone:1")
        XCTAssertEqual(edited(#"{"l":"x","l":[1,{"$reference":"Gone:1"}],"l2":3}"#, [second]), #"{"l":[1],"l2":3}"#)
        // A path into a value that holds nothing, and text that is not one object.
        XCTAssertNil(edited(#"{"best":1}"#, [ReferencePath(field: "best", path: [.index(0)], target: "X")]))
        XCTAssertNil(edited(#"{"best":{"$reference":"Gone:1"}} x"#, [best]))
    }

    func testPlannedCollectionIsExactlyWhatCollectionDoes() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in
            try tx.removeObject(for: "Human:1002")
            try tx.unsafeWriteRawRecord(key: "Orphan:1", text: #"{"next":{"$reference":"Orphan:2"}}"#)
            try tx.unsafeWriteRawRecord(key: "Orphan:2", text: #"{"gone":{"$reference":"Gone:1"}}"#)
        }
        let planned = try store.read { tx in try tx.plannedGarbageCollection(.all) }
        XCTAssertEqual(planned.removedKeys, ["Orphan:1", "Orphan:2"])
        XCTAssertEqual(planned.droppedReferences, [
            DroppedReferences(key: "Droid:2001", dropped: [ReferencePath(field: "friends", path: [.index(1)], target: "Human:1002")]),
        ], "Orphan:2's dangling reference goes with Orphan:2")
        // Orphan:2 was a reference target before its own row: its row id comes from that row.
        let rowIDs = try SQLiteShell.run(path, "SELECT _id FROM records WHERE key IN ('Orphan:1', 'Orphan:2') ORDER BY _id")
        XCTAssertEqual(planned.removedRowIDs, rowIDs.split(separator: "\n").compactMap { Int64($0) })
        XCTAssertEqual(planned.removedRowIDs.count, 2)
        let done = try store.write { tx in try tx.collectGarbage(.all) }
        XCTAssertEqual(done, planned)
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT count(*) FROM records WHERE key LIKE 'Orphan:%'"), "0\n")
        let after = try store.read { tx in try tx.graph() }
        XCTAssertEqual(after.danglingReferences, [])
        XCTAssertEqual(after.unreachableKeys(), [])
        XCTAssertEqual(try store.read { tx in try tx.record(for: "Droid:2001")?["friends"] }, .list([.reference("Human:1000"), .null]))
    }

    /// Apollo writes no record without fields: a record the drops leave
    /// with none goes too, and the references to it are dropped in turn,
    /// planned exactly as done.
    func testARecordTheDropsLeaveWithNoFieldGoesWithTheReferencesToIt() throws {
        let folder = try TemporaryDirectory(self)
        let path = try folder.copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in
            // Holder:1 loses `gone` in the first round and `inner` once Inner:1 is empty: it goes in the second.
            try tx.unsafeWriteRawRecord(key: "QUERY_ROOT", text: #"{"holder":{"$reference":"Holder:1"},"n":1}"#)
            try tx.unsafeWriteRawRecord(key: "Holder:1", text: #"{"inner":{"$reference":"Inner:1"},"gone":{"$reference":"Gone:1"}}"#)
            try tx.unsafeWriteRawRecord(key: "Inner:1", text: #"{"gone":{"$reference":"Gone:1"}}"#)
            // A list keeps its place, empty.
            try tx.unsafeWriteRawRecord(key: "List:1", text: #"{"all":[{"$reference":"Gone:1"}]}"#)
            try tx.unsafeWriteRawRecord(key: "MUTATION_ROOT", text: #"{"list":{"$reference":"List:1"}}"#)
        }
        let planned = try store.read { tx in try tx.plannedGarbageCollection(.dangling) }
        XCTAssertEqual(planned.emptiedKeys, ["Holder:1", "Inner:1"])
        XCTAssertEqual(planned.droppedReferences.map(\.key), ["Holder:1", "Inner:1", "List:1", "QUERY_ROOT"])
        XCTAssertEqual(planned.droppedReferences.first?.dropped.map(\.location), ["gone", "inner"])
        XCTAssertEqual(planned.droppedReferences.last?.dropped.map(\.location), ["holder"])
        let done = try store.write { tx in try tx.collectGarbage(.dangling) }
        XCTAssertEqual(done, planned)
        XCTAssertEqual(try store.read { tx in try tx.record(for: "QUERY_ROOT")?.fields }, ["n": .int(1)])
        XCTAssertEqual(try store.read { tx in try tx.record(for: "List:1")?.fields }, ["all": .list([])])
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT count(*) FROM records WHERE key IN ('Holder:1', 'Inner:1')"), "0\n")
        XCTAssertEqual(try store.read { tx in try tx.graph() }.danglingReferences, [])
    }

    func testOnlyTheKindsAskedForAreCollected() throws {
        let folder = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try folder.copy(Fixtures.starwars), access: .readWrite)
        try store.write { tx in
            try tx.removeObject(for: "Human:1002")
            try tx.unsafeWriteRawRecord(key: "Orphan:1", text: "{}")
        }
        let dangling = try store.read { tx in try tx.plannedGarbageCollection(.dangling) }
        XCTAssertEqual(dangling.removedKeys, [])
        XCTAssertEqual(dangling.droppedReferences.map(\.key), ["Droid:2001"])
        let unreachable = try store.read { tx in try tx.plannedGarbageCollection(.unreachable) }
        XCTAssertEqual(unreachable.removedKeys, ["Orphan:1"])
        XCTAssertEqual(unreachable.droppedReferences, [])
    }

    func testAnInterruptedCollectionChangesNothing() throws {
        let folder = try TemporaryDirectory(self)
        let path = folder.path("large.sqlite")
        _ = try CacheStore.create(at: path)
        // A root, and 100,000 records it does not reach, each with a dangling
        // reference: uninterrupted, gc would take them all.
        try SQLiteShell.run(path, """
            INSERT INTO records (key, record) VALUES ('QUERY_ROOT', '{"__typename":"Query"}');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO records (key, record) SELECT 'Item:' || i, '{"__typename":"Item","next":{"$reference":"Gone:' || i || '"}}' FROM n;
            """)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let interrupter = InterruptFromAnotherThread(store)
        XCTAssertThrowsError(try store.write(progress: interrupter.handler) { tx in try tx.collectGarbage(.all) }) { error in
            XCTAssertEqual(error as? CacheStoreError, .interrupted(path: path))
        }
        XCTAssertTrue(interrupter.interrupted)
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records"), ["100001"])
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records WHERE instr(record, 'Gone:') > 0"), ["100000"])
        // Uninterrupted, the same collection takes them.
        let done = try store.write { tx in try tx.collectGarbage(.all) }
        XCTAssertEqual(done.removedKeys.count, 100_000)
    }
}
