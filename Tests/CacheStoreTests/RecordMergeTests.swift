import Foundation
import XCTest

@testable import CacheStore

/// Record.merge and ReadWriteTransaction.merge: Apollo's field-by-field
/// merge, its upsert, and what it leaves alone.
final class RecordMergeTests: XCTestCase {

    // MARK: Record.merge in memory

    func testMergeReplacesGivenFieldsAndKeepsTheOthers() {
        var record = Record(key: "User:1", fields: ["name": .string("A"), "age": .int(30)])
        let changed = record.merge(Record(key: "User:1", fields: ["name": .string("B")]))
        XCTAssertEqual(record.fields, ["name": .string("B"), "age": .int(30)])
        XCTAssertEqual(changed, ["name"])
    }

    func testMergeSettingAFieldToNullKeepsTheFieldAsNull() {
        var record = Record(key: "User:1", fields: ["name": .string("A"), "age": .int(30)])
        let changed = record.merge(Record(key: "User:1", fields: ["age": .null]))
        XCTAssertEqual(record["age"], .null, "null means cached as null, the field stays")
        XCTAssertEqual(record.fields.count, 2)
        XCTAssertEqual(changed, ["age"])
        XCTAssertEqual(record.jsonText, #"{"age":null,"name":"A"}"#)
    }

    func testMergeOfEqualValuesReportsNoChange() {
        var record = Record(key: "K", fields: ["n": .int(4), "l": .list([.reference("A")])])
        let before = record
        XCTAssertEqual(record.merge(Record(key: "K", fields: ["n": .double(4.0), "l": .list([.reference("A")])])), [])
        XCTAssertEqual(record, before)
        XCTAssertEqual(record.merge(Record(key: "K", fields: [:])), [])
    }

    func testMergeAddsNewFieldsAndReportsThem() {
        var record = Record(key: "K", fields: ["a": .int(1)])
        XCTAssertEqual(record.merge(Record(key: "K", fields: ["b": .null, "a": .int(1), "c": .string("x")])), ["b", "c"])
        XCTAssertEqual(record.fields, ["a": .int(1), "b": .null, "c": .string("x")])
    }

    // MARK: ReadWriteTransaction.merge on a file

    func testStoreMergeOverwritesOneFieldAndKeepsTheRest() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let before = try XCTUnwrap(try store.read { try $0.record(for: "Droid:2001") })
        let changed = try store.write { tx in
            try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])])
        }
        XCTAssertEqual(changed, ["Droid:2001.name"])
        let after = try XCTUnwrap(try store.read { try $0.record(for: "Droid:2001") })
        var expected = before
        expected["name"] = .string("Artoo")
        XCTAssertEqual(after, expected)
        XCTAssertEqual(after.fields.count, 7)
        // An independent reader sees the committed JSON.
        let row = try XCTUnwrap(try SQLiteShell.row(path, key: "Droid:2001"))
        XCTAssertEqual(try Record(key: "Droid:2001", jsonText: row.record), expected)
    }

    func testStoreMergeWritesNullAsJSONNull() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let changed = try store.write { tx in
            try tx.merge([Record(key: "Human:1000", fields: ["homePlanet": .null])])
        }
        XCTAssertEqual(changed, ["Human:1000.homePlanet"])
        let row = try XCTUnwrap(try SQLiteShell.row(path, key: "Human:1000"))
        let json = try foundationJSONObject(row.record)
        XCTAssertTrue(json["homePlanet"] is NSNull, "homePlanet must be stored as JSON null: \(row.record)")
        XCTAssertEqual(json.count, 9, "no field was dropped")
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT json_type(record, '$.homePlanet') FROM records WHERE key = 'Human:1000'"), ["null"])
    }

    func testUnchangedRecordIsNotRewrittenItsRowStaysByteIdentical() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let rowBefore = try XCTUnwrap(try SQLiteShell.row(path, key: "Human:1002"))
        let sequenceBefore = try SQLiteShell.lines(path, "SELECT seq FROM sqlite_sequence WHERE name = 'records'")
        let store = try CacheStore.open(at: path, access: .readWrite)
        // The same values in a different order, and 4.0-style equal numbers elsewhere.
        let changed = try store.write { tx in
            try tx.merge([
                Record(key: "Human:1002", fields: ["id": .string("1002"), "name": .string("Han Solo"), "__typename": .string("Human")]),
                Record(key: "Starship:3001", fields: ["coordinates": .list([.list([.double(1), .double(2)]), .list([.double(3.5), .double(4)])])]),
            ])
        }
        XCTAssertEqual(changed, [])
        let rowAfter = try XCTUnwrap(try SQLiteShell.row(path, key: "Human:1002"))
        XCTAssertEqual(rowAfter.id, rowBefore.id)
        XCTAssertEqual(rowAfter.record, rowBefore.record, "the original text, member order included, is untouched")
        let shipAfter = try XCTUnwrap(try SQLiteShell.row(path, key: "Starship:3001"))
        XCTAssertTrue(shipAfter.record.contains(#""coordinates":[[1,2],[3.5,4]]"#), shipAfter.record)
        XCTAssertEqual(
            try SQLiteShell.lines(path, "SELECT seq FROM sqlite_sequence WHERE name = 'records'"), sequenceBefore,
            "no upsert ran, so no AUTOINCREMENT value was consumed")
    }

    func testChangedRecordKeepsItsRowIDUpsertNotReplace() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let idsBefore = try SQLiteShell.lines(path, "SELECT _id || ' ' || key FROM records ORDER BY _id")
        let store = try CacheStore.open(at: path, access: .readWrite)
        _ = try store.write { tx in
            try tx.merge([
                Record(key: "Droid:2001", fields: ["name": .string("Artoo")]),
                Record(key: "Human:1002", fields: ["name": .string("Han")]),
            ])
        }
        let idsAfter = try SQLiteShell.lines(path, "SELECT _id || ' ' || key FROM records ORDER BY _id")
        XCTAssertEqual(idsAfter, idsBefore, "every row keeps its _id and position")
        XCTAssertEqual(try SQLiteShell.row(path, key: "Droid:2001")?.id, 1)
        XCTAssertEqual(try SQLiteShell.row(path, key: "Human:1002")?.id, 4)
    }

    func testNewRecordIsInsertedAndAllItsFieldsAreReportedAsChanged() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let changed = try store.write { tx in
            try tx.merge([Record(key: "Droid:2001.friendsConnection(after:null,first:3)", fields: [
                "__typename": .string("FriendsConnection"), "totalCount": .int(3),
            ])])
        }
        XCTAssertEqual(changed, [
            "Droid:2001.friendsConnection(after:null,first:3).__typename",
            "Droid:2001.friendsConnection(after:null,first:3).totalCount",
        ])
        XCTAssertEqual(try store.read { try $0.recordCount() }, 11)
        let row = try XCTUnwrap(try SQLiteShell.row(path, key: "Droid:2001.friendsConnection(after:null,first:3)"))
        XCTAssertGreaterThan(row.id, 10)
        XCTAssertEqual(try foundationJSONObject(row.record), ["__typename": "FriendsConnection", "totalCount": 3] as NSDictionary)
    }

    func testChangedKeysAreKeyDotFieldAndListOnlyTheChangedFields() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        let changed = try store.write { tx in
            try tx.merge([
                Record(key: "Droid:2001", fields: ["name": .string("R2-D2"), "primaryFunction": .string("Pilot")]),
                Record(key: "Human:1000", fields: ["height(unit:FOOT)": .double(5.6430448), "mass": .double(77)]),
                Record(key: "QUERY_ROOT", fields: ["hero(episode:JEDI)": .reference("Droid:2001")]),
            ])
        }
        XCTAssertEqual(changed, ["Droid:2001.primaryFunction", "Human:1000.mass", "QUERY_ROOT.hero(episode:JEDI)"])
    }

    func testMergingTheSameKeyTwiceInOneCallAccumulatesBothWrites() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        let changed = try store.write { tx in
            try tx.merge([
                Record(key: "Human:1002", fields: ["name": .string("Han")]),
                Record(key: "Human:1002", fields: ["homePlanet": .string("Corellia")]),
            ])
        }
        XCTAssertEqual(changed, ["Human:1002.name", "Human:1002.homePlanet"])
        let han = try XCTUnwrap(try store.read { try $0.record(for: "Human:1002") })
        XCTAssertEqual(han.fields, [
            "__typename": .string("Human"), "id": .string("1002"),
            "name": .string("Han"), "homePlanet": .string("Corellia"),
        ])
    }

    /// The first write of the key changes nothing, the second adds a field:
    /// the record's existing fields must survive.
    func testMergingAnUnchangedRecordThenANewFieldForTheSameKeyKeepsExistingFields() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let changed = try store.write { tx in
            try tx.merge([
                Record(key: "Human:1002", fields: ["name": .string("Han Solo")]),  // unchanged
                Record(key: "Human:1002", fields: ["homePlanet": .string("Corellia")]),
            ])
        }
        XCTAssertEqual(changed, ["Human:1002.homePlanet"])
        let han = try XCTUnwrap(try store.read { try $0.record(for: "Human:1002") })
        XCTAssertEqual(han.fields, [
            "__typename": .string("Human"), "id": .string("1002"),
            "name": .string("Han Solo"), "homePlanet": .string("Corellia"),
        ], "a merge must never remove fields")
    }

    func testMergingIntoADamagedRecordThrowsAndLeavesItAndTheRestUntouched() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Broken:1", text: #"{"name":"#) }
        let brokenBefore = try XCTUnwrap(try SQLiteShell.row(path, key: "Broken:1"))
        let droidBefore = try XCTUnwrap(try SQLiteShell.row(path, key: "Droid:2001"))

        XCTAssertThrowsError(try store.write { tx in
            try tx.merge([
                Record(key: "Droid:2001", fields: ["name": .string("Artoo")]),
                Record(key: "Broken:1", fields: ["name": .string("fixed")]),
            ])
        }) { error in
            guard case .damagedRecord(let key, .invalidJSON)? = error as? CacheStoreError else {
                return XCTFail("expected damagedRecord, got \(error)")
            }
            XCTAssertEqual(key, "Broken:1")
        }
        let brokenAfter = try XCTUnwrap(try SQLiteShell.row(path, key: "Broken:1"))
        XCTAssertEqual(brokenAfter.record, brokenBefore.record)
        XCTAssertEqual(brokenAfter.id, brokenBefore.id)
        XCTAssertEqual(try SQLiteShell.row(path, key: "Droid:2001")?.record, droidBefore.record, "nothing of the merge was written")
    }

    /// Apollo's write loads the record it merges into, and its JSON
    /// reading refuses a number too large for a Double: the write fails
    /// there, as a merge into a damaged record does, and nothing is written.
    func testMergingIntoARecordApolloCannotReadThrowsAndWritesNothing() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Big:1", text: #"{"name":"x","mass":1e400}"#) }
        let before = try SQLiteShell.lines(path, "SELECT key, record FROM records ORDER BY key")
        XCTAssertThrowsCacheError(
            try store.write { tx in
                try tx.merge([
                    Record(key: "Droid:2001", fields: ["name": .string("Artoo")]),
                    Record(key: "Big:1", fields: ["name": .string("y")]),
                ])
            },
            .damagedRecord(key: "Big:1", problem: .numberApolloCannotRead(NumberApolloCannotRead(key: "Big:1", field: "mass", number: "1e400"))))
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT key, record FROM records ORDER BY key"), before)
    }

    func testMergingIntoANullRecordThrowsDamagedRecordNull() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        try store.write { tx in try tx.unsafeWriteRawRecord(key: "Null:1", text: nil) }
        XCTAssertThrowsCacheError(
            try store.write { tx in try tx.merge([Record(key: "Null:1", fields: ["a": .int(1)])]) },
            .damagedRecord(key: "Null:1", problem: .null))
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT record IS NULL FROM records WHERE key = 'Null:1'"), ["1"])
    }

    func testMergeOfAnEmptyRecordForAMissingKeyWritesNothing() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let store = try CacheStore.open(at: path, access: .readWrite)
        let changed = try store.write { tx in try tx.merge([Record(key: "Nothing:1", fields: [:])]) }
        XCTAssertEqual(changed, [])
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records WHERE key = 'Nothing:1'"), ["0"],
                       "Apollo never writes an empty {} record")
    }

    func testMergedRecordIsVisibleInsideTheSameTransactionBeforeCommit() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars), access: .readWrite)
        let seen = try store.write { tx -> FieldValue? in
            try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])])
            return try tx.record(for: "Droid:2001")?["name"]
        }
        XCTAssertEqual(seen, .string("Artoo"))
    }

    func testMergeCountingCountsWhatMergeNamesAndWritesTheSame() throws {
        let batch = [
            Record(key: "New:1", fields: ["a": .int(1)]),
            Record(key: "New:1", fields: ["a": .int(2), "b": .int(3)]),
            Record(key: "Empty:1", fields: [:]),
            Record(key: "Droid:2001", fields: ["name": .string("R2-D2")]),
            Record(key: "Human:1000", fields: ["name": .string("Luke"), "homePlanet": .null]),
        ]
        let named = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let counted = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let names = try CacheStore.open(at: named, access: .readWrite).write { tx in try tx.merge(batch) }
        let count = try CacheStore.open(at: counted, access: .readWrite).write { tx in try tx.mergeCounting(batch) }
        XCTAssertEqual(names, ["New:1.a", "New:1.b", "Human:1000.name", "Human:1000.homePlanet"])
        // New:1's a changes twice (1, then 2): it counts once, as a field of the added record.
        XCTAssertEqual(count, MergeCount(added: 1, changed: 1, fields: 4))
        XCTAssertEqual(try SQLiteShell.lines(named, "SELECT key, record FROM records ORDER BY _id"),
                       try SQLiteShell.lines(counted, "SELECT key, record FROM records ORDER BY _id"))
    }
}
