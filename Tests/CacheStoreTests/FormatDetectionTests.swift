import Foundation
import XCTest

@testable import CacheStore

/// CacheFormat / FormatDetector and CacheStore.open: both DDL variants are
/// recognised and kept, anything else is refused without being touched.
final class FormatDetectionTests: XCTestCase {

    // MARK: The two Apollo DDLs

    func testStarwarsFixtureIsDetectedAsTheCurrentDDL() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        XCTAssertEqual(store.format.ddl, .current)
        XCTAssertEqual(store.format.identifier, "apollo-ios-sqlite")
        XCTAssertEqual(store.format.variant, "current")
        XCTAssertTrue(store.format.summary.contains("2.x"))
    }

    func testLegacyFixtureIsDetectedAsTheLegacyDDL() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.legacy))
        XCTAssertEqual(store.format.ddl, .legacy)
        XCTAssertEqual(store.format.identifier, "apollo-ios-sqlite")
        XCTAssertEqual(store.format.variant, "legacy")
        XCTAssertEqual(try store.read { try $0.keys() }, ["Droid:2001", "QUERY_ROOT"])
        XCTAssertEqual(try store.read { try $0.record(for: "Droid:2001")?["name"] }, .string("R2-D2 v3"))
    }

    func testLegacyCurrentDetectionFollowsTheSchemaNotTheFileName() throws {
        let directory = try TemporaryDirectory(self)
        // The legacy table without the extra index is still legacy (NOT NULL key).
        let noIndex = directory.path("no-index.sqlite")
        try SQLiteShell.run(noIndex, #"CREATE TABLE "records" ("_id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "key" TEXT NOT NULL UNIQUE, "record" TEXT NOT NULL);"#)
        XCTAssertEqual(try CacheStore.open(at: noIndex).format.ddl, .legacy)
        // The current table with the legacy index is legacy too.
        let withIndex = try directory.copy(Fixtures.starwars, as: "with-index.sqlite")
        try SQLiteShell.run(withIndex, #"CREATE UNIQUE INDEX "index_records_on_key" ON "records" ("key");"#)
        XCTAssertEqual(try CacheStore.open(at: withIndex).format.ddl, .legacy)
    }

    func testLegacyFileCanBeMergedIntoAndReadBackWithItsSchemaUnchanged() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.legacy)
        let schemaBefore = try SQLiteShell.run(path, ".schema")
        let store = try CacheStore.open(at: path, access: .readWrite)
        let changed = try store.write { tx in
            try tx.merge([
                Record(key: "Droid:2001", fields: ["name": .string("R2-D2 v4"), "primaryFunction": .string("Astromech")]),
                Record(key: "QUERY_ROOT", fields: ["hero(episode:EMPIRE)": .reference("Human:1000")]),
                Record(key: "Human:1000", fields: ["__typename": .string("Human"), "id": .string("1000"), "name": .string("Luke")]),
            ])
        }
        XCTAssertEqual(changed, [
            "Droid:2001.name", "Droid:2001.primaryFunction", "QUERY_ROOT.hero(episode:EMPIRE)",
            "Human:1000.__typename", "Human:1000.id", "Human:1000.name",
        ])
        XCTAssertEqual(try SQLiteShell.run(path, ".schema"), schemaBefore, "the legacy DDL is never rewritten")
        XCTAssertEqual(try SQLiteShell.lines(path, "PRAGMA integrity_check"), ["ok"])
        // Upsert, not INSERT OR REPLACE: the legacy rows keep their _id 1 and 4.
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT _id || ' ' || key FROM records WHERE _id < 5 ORDER BY _id"), ["1 QUERY_ROOT", "4 Droid:2001"])

        let reopened = try CacheStore.open(at: path)
        XCTAssertEqual(reopened.format.ddl, .legacy)
        let records = try reopened.allRecords()
        XCTAssertEqual(records["Droid:2001"]?.fields, [
            "__typename": .string("Droid"), "id": .string("2001"), "name": .string("R2-D2 v4"), "primaryFunction": .string("Astromech"),
        ])
        XCTAssertEqual(records["QUERY_ROOT"]?.fields, [
            "hero(episode:JEDI)": .reference("Droid:2001"), "hero(episode:EMPIRE)": .reference("Human:1000"),
        ])
        XCTAssertEqual(records["Human:1000"]?["name"], .string("Luke"))
        XCTAssertEqual(records.count, 3)
    }

    func testLegacyFileRefusesANullRecordBecauseOfItsNotNullColumn() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.legacy)
        let store = try CacheStore.open(at: path, access: .readWrite)
        XCTAssertThrowsError(try store.write { tx in try tx.unsafeWriteRawRecord(key: "Null:1", text: nil) }) { error in
            XCTAssertTrue(error is CacheStoreError, "SQLite errors come out as CacheStoreError: \(error)")
        }
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM records"), ["2"])
    }

    // MARK: Refused files

    /// Opens `path` both ways and checks the refusal, and that neither the
    /// file nor its folder changed.
    private func assertRefused(
        _ path: String, in directory: TemporaryDirectory, expected: CacheStoreError,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let listingBefore = try directory.contents()
        let bytesBefore = FileManager.default.contents(atPath: path)
        for access in [CacheStore.Access.readOnly, .readWrite] {
            XCTAssertThrowsError(try CacheStore.open(at: path, access: access), "\(access)", file: file, line: line) { error in
                XCTAssertEqual(error as? CacheStoreError, expected, "\(access): \(error)", file: file, line: line)
            }
            XCTAssertEqual(try directory.contents(), listingBefore, "\(access): no file was created", file: file, line: line)
            XCTAssertEqual(FileManager.default.contents(atPath: path), bytesBefore, "\(access): the file is unchanged", file: file, line: line)
        }
    }

    func testMissingPathIsFileNotFoundAndIsNotCreated() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("missing.sqlite")
        try assertRefused(path, in: directory, expected: .fileNotFound(path: path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try directory.contents(), [])
    }

    func testMissingFolderIsFileNotFound() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("no/such/folder/cache.sqlite")
        XCTAssertThrowsCacheError(try CacheStore.open(at: path, access: .readWrite), .fileNotFound(path: path))
        XCTAssertEqual(try directory.contents(), [])
    }

    func testADirectoryIsRefusedAsAnIOErrorNamingIt() throws {
        let directory = try TemporaryDirectory(self)
        let folder = directory.path("folder.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for access in [CacheStore.Access.readOnly, .readWrite] {
            XCTAssertThrowsError(try CacheStore.open(at: folder, access: access)) { error in
                guard case .io(let path, let message)? = error as? CacheStoreError else { return XCTFail("\(error)") }
                XCTAssertEqual(path, folder)
                XCTAssertTrue(message.contains("directory"), message)
            }
        }
        XCTAssertEqual(try directory.contents(), ["folder.sqlite"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [])
    }

    func testATextFileIsNotSQLiteAndLooksLikeText() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("notes.sqlite")
        try Data("{\"records\": [\"this is JSON, not SQLite\"]}\nnaïve café\n".utf8).write(to: URL(fileURLWithPath: path))
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .notSQLite(looksLikeText: true)))
    }

    /// The probe reads the first 512 bytes; a UTF-8 character cut in two at
    /// that boundary does not make a text file binary.
    func testATextFileWithAMultibyteCharacterAcrossByte512StillLooksLikeText() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("notes.txt")
        let text = String(repeating: "a", count: 511) + "é and more text after it\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .notSQLite(looksLikeText: true)))
    }

    func testABinaryFileIsNotSQLiteAndDoesNotLookLikeText() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("image.sqlite")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: path))
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .notSQLite(looksLikeText: false)))
    }

    func testAnEmptyFileIsRefusedAsEmpty() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("empty.sqlite")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data()))
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .empty))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber, 0)
    }

    func testAnSQLiteFileWithNoTablesIsRefusedAsNoTables() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("blank.sqlite")
        try SQLiteShell.run(path, "PRAGMA user_version=1;")
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM sqlite_master"), ["0"])
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .noTables))
        XCTAssertEqual(try SQLiteShell.lines(path, "SELECT count(*) FROM sqlite_master"), ["0"], "no records table was created")
    }

    func testAnSQLiteFileWhoseTablesWereDroppedIsRefusedAsNoTables() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("dropped.sqlite")
        try SQLiteShell.run(path, "CREATE TABLE t(x); DROP TABLE t;")
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .noTables))
    }

    func testAnSQLiteFileWithOtherTablesIsRefusedAsNoRecordsTable() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("other.sqlite")
        try SQLiteShell.run(path, "CREATE TABLE zebra(x); CREATE TABLE apples(id INTEGER PRIMARY KEY AUTOINCREMENT, y);")
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .noRecordsTable(tables: ["apples", "zebra"])))
    }

    func testARecordsTableWithOtherColumnsIsRefusedAsUnexpectedColumns() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("columns.sqlite")
        try SQLiteShell.run(path, "CREATE TABLE records(_id INTEGER PRIMARY KEY, key TEXT UNIQUE, value TEXT);")
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .unexpectedColumns(["_id", "key", "value"])))

        let extra = directory.path("extra.sqlite")
        try SQLiteShell.run(extra, "CREATE TABLE records(_id INTEGER PRIMARY KEY, key TEXT UNIQUE, record TEXT, written_at REAL);")
        try assertRefused(extra, in: directory, expected: .notACacheFile(path: extra, reason: .unexpectedColumns(["_id", "key", "record", "written_at"])))
    }

    func testARecordsTableWhoseKeysAreNotUniqueIsRefused() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("duplicates.sqlite")
        try SQLiteShell.run(path, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, record TEXT);
            CREATE INDEX by_key ON records(key);
            INSERT INTO records(key, record) VALUES ('QUERY_ROOT', '{"a":1}'), ('QUERY_ROOT', '{"a":2}');
            """)
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .keyNotUnique))
        // A partial unique index keeps only the keys its WHERE takes unique.
        let partial = directory.path("partial.sqlite")
        try SQLiteShell.run(partial, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, record TEXT);
            CREATE UNIQUE INDEX u ON records(key) WHERE key <> 'A:1';
            INSERT INTO records(key, record) VALUES ('A:1', '{"v":1}'), ('A:1', '{"v":2}');
            """)
        try assertRefused(partial, in: directory, expected: .notACacheFile(path: partial, reason: .keyNotUnique))
        // A unique index on the key, as the legacy DDL has beside its column constraint, is enough.
        let indexed = directory.path("indexed.sqlite")
        try SQLiteShell.run(indexed, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, record TEXT);
            CREATE UNIQUE INDEX index_records_on_key ON records(key);
            """)
        XCTAssertNoThrow(try CacheStore.open(at: indexed))
    }

    /// Passes over the table go in `_id` order, the row id in both DDL
    /// variants: a table where `_id` is not the row id would read as damaged.
    func testARecordsTableWhoseIdIsNotItsRowIDIsRefused() throws {
        let directory = try TemporaryDirectory(self)
        for (name, ddl) in [
            ("plain-id", "CREATE TABLE records(_id INTEGER, key TEXT UNIQUE, record TEXT)"),
            ("text-id", "CREATE TABLE records(_id TEXT PRIMARY KEY, key TEXT UNIQUE, record TEXT)"),
            ("without-rowid", "CREATE TABLE records(_id INTEGER PRIMARY KEY, key TEXT UNIQUE, record TEXT) WITHOUT ROWID"),
            ("two-column-key", "CREATE TABLE records(_id INTEGER, key TEXT UNIQUE, record TEXT, PRIMARY KEY(_id, key))"),
        ] {
            let path = directory.path("\(name).sqlite")
            try SQLiteShell.run(path, ddl + "; INSERT INTO records VALUES (5, 'QUERY_ROOT', '{}'), (3, 'A:1', '{}');")
            try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .idNotRowID))
            try FileManager.default.removeItem(atPath: path)
        }
        let lowercase = directory.path("lowercase.sqlite")
        try SQLiteShell.run(lowercase, "CREATE TABLE records(_id integer primary key, key text unique, record text)")
        XCTAssertNoThrow(try CacheStore.open(at: lowercase))
    }

    /// SQLite folds the case of names, so Apollo's own SQL (`FROM records`,
    /// `key`) works on a table "Records" with a column "KEY": so does gqlcache.
    /// The legacy index is found under any case too.
    func testTheTableAndColumnNamesAreFoundWithoutRegardToCase() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("upper.sqlite")
        try SQLiteShell.run(path, """
            CREATE TABLE "Records" ("_ID" INTEGER PRIMARY KEY AUTOINCREMENT, "KEY" TEXT NOT NULL, "Record" TEXT NOT NULL);
            CREATE UNIQUE INDEX "Index_Records_On_Key" ON "Records" ("KEY");
            INSERT INTO records(key, record) VALUES ('QUERY_ROOT', '{"a":1}');
            """)
        let store = try CacheStore.open(at: path, access: .readWrite)
        XCTAssertEqual(store.format.ddl, .legacy)
        try store.write { tx in try tx.merge([Record(key: "A:1", fields: ["b": .int(2)])]) }
        XCTAssertEqual(try store.read { tx in try tx.record(for: "QUERY_ROOT")?.fields["a"] }, .int(1))
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT record FROM records WHERE key = 'A:1'"), #"{"b":2}"# + "\n")
        // SQLite folds ASCII only: a Kelvin sign is no K, and the column is named as declared.
        let kelvin = directory.path("kelvin.sqlite")
        try SQLiteShell.run(kelvin, "CREATE TABLE records(_id INTEGER PRIMARY KEY, \"\u{212A}ey\" TEXT UNIQUE, record TEXT)")
        try assertRefused(kelvin, in: directory, expected: .notACacheFile(path: kelvin, reason: .unexpectedColumns(["_id", "\u{212A}ey", "record"])))
    }

    func testTheApollo3PerFieldLayoutIsRecognisedAndRefused() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("apollo3.sqlite")
        try SQLiteShell.run(path, """
            CREATE TABLE records(cache_key TEXT NOT NULL, field_name TEXT NOT NULL, string_value TEXT, int_value INTEGER,
                                 real_value REAL, written_at REAL, PRIMARY KEY(cache_key, field_name));
            CREATE TABLE schema_metadata(key TEXT PRIMARY KEY, value TEXT);
            INSERT INTO schema_metadata VALUES ('version', '3');
            INSERT INTO records(cache_key, field_name, string_value) VALUES ('Droid:2001', 'name', 'R2-D2');
            """)
        try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .apollo3PerFieldLayout))

        // Recognised by shape even without the metadata table.
        let bare = directory.path("apollo3-bare.sqlite")
        try SQLiteShell.run(bare, "CREATE TABLE records(cache_key TEXT, field_name TEXT, string_value TEXT);")
        try assertRefused(bare, in: directory, expected: .notACacheFile(path: bare, reason: .apollo3PerFieldLayout))
    }

    func testAFileWithAnSQLiteHeaderButGarbageAfterItIsRefusedUnchanged() throws {
        let directory = try TemporaryDirectory(self)
        let path = directory.path("garbage.sqlite")
        var bytes = Data("SQLite format 3\u{0}".utf8)
        bytes.append(Data(repeating: 0xAB, count: 4_000))
        try bytes.write(to: URL(fileURLWithPath: path))
        for access in [CacheStore.Access.readOnly, .readWrite] {
            XCTAssertThrowsError(try CacheStore.open(at: path, access: access)) { error in
                XCTAssertTrue(error is CacheStoreError, "\(error)")
            }
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), bytes)
        XCTAssertEqual(try directory.contents(), ["garbage.sqlite"])
    }

    /// Keys compared without regard to case (a column or unique index with
    /// COLLATE NOCASE) make 'a' and 'A' one key: an import of 'a' replaced
    /// the record of 'A'. Such a table is not Apollo's, and is refused
    /// before anything is read or written; an extra index does no harm.
    func testARecordsTableThatComparesKeysWithAnotherCollationIsRefused() throws {
        let directory = try TemporaryDirectory(self)
        let column = directory.path("column.sqlite")
        try SQLiteShell.run(column, """
            CREATE TABLE records(_id INTEGER, key TEXT UNIQUE COLLATE NOCASE, record TEXT, PRIMARY KEY(_id AUTOINCREMENT));
            INSERT INTO records(key, record) VALUES ('A', '{"k":1}');
            """)
        try assertRefused(column, in: directory, expected: .notACacheFile(path: column, reason: .keyCollation("NOCASE")))
        let index = directory.path("index.sqlite")
        try SQLiteShell.run(index, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, record TEXT);
            CREATE UNIQUE INDEX index_records_on_key ON records(key COLLATE NOCASE);
            """)
        try assertRefused(index, in: directory, expected: .notACacheFile(path: index, reason: .keyCollation("NOCASE")))
        let trailing = directory.path("rtrim.sqlite")
        try SQLiteShell.run(trailing, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE COLLATE RTRIM, record TEXT NOT NULL);
            """)
        try assertRefused(trailing, in: directory, expected: .notACacheFile(path: trailing, reason: .keyCollation("RTRIM")))
        let extra = directory.path("extra.sqlite")
        try SQLiteShell.run(extra, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);
            CREATE INDEX by_key_nocase ON records(key COLLATE NOCASE);
            """)
        XCTAssertNoThrow(try CacheStore.open(at: extra))
    }

    /// A key column declared INTEGER, REAL or NUMERIC has SQLite store a
    /// key written '0099' as 99: keys change as they are written and are
    /// no text to list. Refused; TEXT, a name that holds it (VARCHAR,
    /// CLOB), BLOB or no type at all keep what is written. A record column
    /// of any type is read: no affinity makes a number of a JSON object.
    func testARecordsTableThatStoresKeysAsNumbersIsRefused() throws {
        let directory = try TemporaryDirectory(self)
        for (number, key) in ["INTEGER", "NUMERIC", "REAL", "DECIMAL(10)"].enumerated() {
            let path = directory.path("numeric\(number).sqlite")
            try SQLiteShell.run(path, "CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key \(key) UNIQUE, record TEXT);")
            try assertRefused(path, in: directory, expected: .notACacheFile(path: path, reason: .numericColumn(column: "key", type: key)))
            try FileManager.default.removeItem(atPath: path)
        }
        for (number, type) in ["VARCHAR(255)", "CLOB", "BLOB", "", "text"].enumerated() {
            let path = directory.path("kept\(number).sqlite")
            try SQLiteShell.run(path, "CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key \(type) UNIQUE, record NUMERIC);")
            XCTAssertNoThrow(try CacheStore.open(at: path), type)
        }
    }

    /// A trigger on records, which Apollo's DDL never creates, would run
    /// on a write and change records it was not asked to (delete them all,
    /// say): a store that may write refuses such a table before anything is
    /// written; reads, which run no trigger, read it (export can rescue
    /// the records). A trigger on another table is never run by a write to records.
    func testARecordsTableWithATriggerIsRefusedForWritingOnly() throws {
        let directory = try TemporaryDirectory(self)
        let triggered = directory.path("triggered.sqlite")
        try SQLiteShell.run(triggered, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);
            INSERT INTO records(key, record) VALUES ('A:1', '{"a":1}'), ('A:2', '{"a":2}');
            CREATE TRIGGER wipe AFTER DELETE ON Records BEGIN DELETE FROM records; END;
            CREATE TRIGGER keep AFTER UPDATE ON records BEGIN SELECT 1; END;
            """)
        let bytesBefore = FileManager.default.contents(atPath: triggered)
        XCTAssertThrowsError(try CacheStore.open(at: triggered, access: .readWrite)) { error in
            XCTAssertEqual(error as? CacheStoreError, .notACacheFile(path: triggered, reason: .triggers(["keep", "wipe"])))
        }
        let reader = try CacheStore.open(at: triggered)
        XCTAssertEqual(try reader.read { try $0.keys().count }, 2)
        XCTAssertEqual(try reader.read { try $0.triggersOnRecords() }, ["keep", "wipe"])
        XCTAssertEqual(FileManager.default.contents(atPath: triggered), bytesBefore)
        let elsewhere = directory.path("elsewhere.sqlite")
        try SQLiteShell.run(elsewhere, """
            CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);
            CREATE TABLE notes(n TEXT);
            CREATE TRIGGER t AFTER INSERT ON notes BEGIN DELETE FROM records; END;
            """)
        XCTAssertNoThrow(try CacheStore.open(at: elsewhere, access: .readWrite))
    }

    func testRefusalsDescribeThemselvesWithThePath() {
        let reasons: [CacheStoreError.NotACacheReason] = [
            .empty, .notSQLite(looksLikeText: true), .notSQLite(looksLikeText: false), .noTables,
            .noRecordsTable(tables: ["a"]), .unexpectedColumns(["x"]), .keyNotUnique, .keyCollation("NOCASE"), .idNotRowID, .apollo3PerFieldLayout,
            .triggers(["t"]), .numericColumn(column: "key", type: "INTEGER"),
        ]
        var descriptions: Set<String> = []
        for reason in reasons {
            let description = CacheStoreError.notACacheFile(path: "/tmp/x.sqlite", reason: reason).description
            XCTAssertTrue(description.hasPrefix("/tmp/x.sqlite: "), description)
            descriptions.insert(description)
        }
        XCTAssertEqual(descriptions.count, reasons.count, "each reason says something different")
        XCTAssertEqual(CacheStoreError.fileNotFound(path: "/a").description, "/a: no such file")
    }
}
