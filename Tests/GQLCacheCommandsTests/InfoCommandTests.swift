import CacheStore
import GQLCacheCommands
import XCTest

final class InfoCommandTests: CommandTestCase {
    /// Free pages are what VACUUM surely gives back; the half-empty pages
    /// it packs give more, so the figure is a floor, and says so.
    func testReclaimableSpaceIsStatedAsAFloor() throws {
        let cache = try makeCache("free.sqlite", (0..<200).map {
            Record(key: CacheKey("Big:\($0)"), fields: ["text": .string(String(repeating: "x", count: 3_000))])
        })
        XCTAssertEqual(gqlcache("rm", cache, "--match", "Big:1%", "--force").status, .success)
        let info = gqlcache("info", cache).lines.first { $0.hasPrefix("free pages") } ?? ""
        XCTAssertTrue(info.contains(" (at least ") && info.hasSuffix(" reclaimable by gc --vacuum)"), info)
        let stats = gqlcache("stats", cache).lines.first { $0.hasPrefix("free pages") } ?? ""
        XCTAssertTrue(stats.contains(": VACUUM would reclaim at least "), stats)
    }

    func testInfoDescribesTheStarWarsFixture() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("info", cache)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.contains("current DDL"), result.stdout)
        XCTAssertTrue(result.stdout.contains("journal mode  delete"), result.stdout)
        XCTAssertTrue(result.stdout.contains("records       10"), result.stdout)
        XCTAssertTrue(result.stdout.contains("roots         QUERY_ROOT, MUTATION_ROOT"), result.stdout)
        XCTAssertTrue(result.stdout.contains("Review             3"), result.stdout)
        XCTAssertEqual(result.stderr, "")
    }

    /// A copy cut short, even by a byte, is said to be: the overview alone
    /// would pass for a whole file's.
    func testAFileCutShortIsSaidInAWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: cache))
        try handle.truncate(atOffset: 16_383)
        try handle.close()
        let result = gqlcache("info", cache)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: the file is cut short: 16383 bytes, where its header says 16384; "
            + "records on the missing pages cannot be read (gqlcache doctor checks every page)\n")
    }

    /// A row whose key is NULL (only a damaged file has one) is no record:
    /// info counts it apart, and a large one is not among the largest
    /// records (it stopped info with a crash).
    func testInfoCountsARowWithoutAKeyApartAndLeavesItOutOfTheLargest() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let filler = String(repeating: "x", count: 600)
        try CacheStore.open(at: cache, access: .readWrite).write { tx in
            try tx.unsafeWriteRawRecord(key: "Placeholder:1", text: #"{"a":"\#(filler)"}"#)
        }
        XCTAssertEqual(try runProgram("/usr/bin/sqlite3", [cache, "UPDATE records SET key = NULL WHERE key = 'Placeholder:1'"]).status, 0)

        let result = gqlcache("info", cache)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.contains("records             10\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("rows without a key  1 (damage; 'gqlcache doctor' lists them)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("  (none)             2\n"), result.stdout)
        let json = try XCTUnwrap(try gqlcache("info", cache, "--format", "json", "--top", "1").json() as? [String: Any])
        XCTAssertEqual(json["records"] as? Int, 10)
        XCTAssertEqual(json["keylessRows"] as? Int, 1)
        XCTAssertEqual((json["largest"] as? [[String: Any]])?.map { $0["key"] as? String }, ["QUERY_ROOT"])
    }

    /// A BLOB key may hold bytes that are not UTF-8: info, the nearest-key
    /// suggestions and the reference scans never read one as text, and a
    /// BLOB-keyed row is counted apart from the records.
    func testRowsWithBLOBKeysAreCountedApartAndNeverReadAsText() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let filler = String(repeating: "x", count: 5_000)
        _ = try sqliteShell(cache, """
            INSERT INTO records (key, record) VALUES (X'FF00FE', '{"__typename":"Bin","pad":"\(filler)","r":{"$reference":"Droid:2001"}}');
            INSERT INTO records (key, record) VALUES (X'5A5A', '{"__typename":"Bin"}');
            """)
        let info = gqlcache("info", cache)
        XCTAssertEqual(info.status, .success, info.stderr)
        XCTAssertTrue(info.stdout.contains("records              10\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("rows with a bad key  2 (a BLOB, or text not UTF-8: Apollo never finds them; 'gqlcache doctor' lists them)"), info.stdout)
        XCTAssertFalse(info.stdout.contains("Bin"), info.stdout)
        let json = try XCTUnwrap(try gqlcache("info", cache, "--format", "json", "--top", "50").json() as? [String: Any])
        XCTAssertEqual(json["records"] as? Int, 10)
        XCTAssertEqual(json["blobKeyRows"] as? Int, 2)
        XCTAssertEqual((json["largest"] as? [[String: Any]])?.count, 10)
        let show = gqlcache("show", cache, "Z")
        XCTAssertEqual(show.status, .notFound)
        XCTAssertEqual(show.stderr.split(separator: "\n").count, 1, show.stderr)
        let refs = gqlcache("refs", cache, "Droid:2001")
        XCTAssertEqual(refs.status, .success, refs.stderr)
        XCTAssertFalse(refs.stdout.contains("Bin"), refs.stdout)
    }

    func testFreePagesPointToTheCommandThatGivesThemBackAndKeepsTheRecords() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        // Enough text that removing it frees whole pages.
        let big = String(repeating: "x", count: 20_000)
        try CacheStore.open(at: cache, access: .readWrite).write { tx in
            try tx.merge([Record(key: "Note:1", fields: ["text": .string(big)])])
        }
        XCTAssertEqual(gqlcache("rm", cache, "Note:1").status, .success)
        let line = try XCTUnwrap(gqlcache("info", cache).stdout.split(separator: "\n").first { $0.hasPrefix("free pages") })
        XCTAssertTrue(line.hasSuffix("reclaimable by gc --vacuum)"), String(line))
        XCTAssertFalse(line.hasPrefix("free pages    0 "), String(line))
        let keysBefore = try keys(in: cache)
        XCTAssertEqual(gqlcache("gc", cache, "--vacuum", "--force").status, .success)
        XCTAssertEqual(try keys(in: cache), keysBefore, "the suggested command keeps every record")
        XCTAssertTrue(gqlcache("info", cache).stdout.contains("free pages    0 of"))
    }

    func testInfoAsJSONGivesCountsPerTypenameRootsAndLargestRecords() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("info", cache, "--format", "json", "--top", "2")
        XCTAssertEqual(result.status, .success, result.stderr)
        let info = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(info["format"] as? String, "apollo-ios-sqlite")
        XCTAssertEqual(info["ddl"] as? String, "current")
        XCTAssertEqual(info["records"] as? Int, 10)
        XCTAssertEqual(info["roots"] as? [String], ["QUERY_ROOT", "MUTATION_ROOT"])
        let types = try XCTUnwrap(info["types"] as? [[String: Any]])
        let counts = Dictionary(uniqueKeysWithValues: types.map { (($0["typename"] as? String) ?? "-", $0["count"] as! Int) })
        XCTAssertEqual(counts, ["Review": 3, "-": 2, "Human": 2, "Droid": 1, "FriendsConnection": 1, "Starship": 1])
        let largest = try XCTUnwrap(info["largest"] as? [[String: Any]])
        XCTAssertEqual(largest.map { $0["key"] as? String }, ["QUERY_ROOT", "Droid:2001"])
        let size = try XCTUnwrap(info["size"] as? [String: Any])
        XCTAssertEqual(size["database"] as? Int, try bytes(cache).count)
    }

    /// Rows line up in terminal columns (a wide character takes two), a key
    /// far longer than the rest overflows its own row only, and keys and
    /// typenames that would not show as themselves are quoted.
    func testTheTablesLineUpInTerminalColumnsAndQuoteWhatWouldNotShow() throws {
        let long = String(repeating: "L", count: 300)
        let cache = try makeCache("odd.sqlite", [
            Record(key: "ユーザー:1", fields: ["__typename": .string("日本語"), "x": .string(String(repeating: "y", count: 3000))]),
            Record(key: "Evil\u{202E}Key:1", fields: ["__typename": .string("A\u{2028}B"), "x": .string(String(repeating: "y", count: 2500))]),
            Record(key: CacheKey(long), fields: ["__typename": .string(""), "x": .string(String(repeating: "y", count: 2000))]),
            Record(key: "Post:1", fields: ["__typename": .string("Post"), "x": .string(String(repeating: "y", count: 1000))]),
        ])
        let lines = gqlcache("info", cache).lines
        let types = try XCTUnwrap(lines.firstIndex(of: "records by __typename"))
        XCTAssertEqual(Array(lines[(types + 1)...(types + 4)]), [
            #"  ""          1"#,
            #"  "A\u2028B"  1"#,
            "  Post        1",
            "  日本語      1",
        ])
        let largest = try XCTUnwrap(lines.firstIndex(of: "largest records"))
        XCTAssertEqual(Array(lines[(largest + 1)...(largest + 4)]), [
            "  ユーザー:1         3.0 KiB",
            #"  "Evil\u202eKey:1"  2.5 KiB"#,
            "  \(long)  2.0 KiB",
            "  Post:1             1.0 KiB",
        ])
        let stats = gqlcache("stats", cache).lines
        XCTAssertTrue(stats.contains("  日本語             1  3.0 KiB"), stats.joined(separator: "\n"))
    }

    /// info is an overview: a file of many typenames lists the twenty most
    /// common and counts the rest; JSON lists every one.
    func testTextListsTheTwentyMostCommonTypenamesAndCountsTheRest() throws {
        let records = (0..<30).flatMap { type in
            (0...(type < 20 ? 1 : 0)).map { Record(key: CacheKey("T\(type):\($0)"), fields: ["__typename": .string("T\(type)")]) }
        }
        let cache = try makeCache("types.sqlite", records)
        let lines = gqlcache("info", cache).lines
        let types = try XCTUnwrap(lines.firstIndex(of: "records by __typename"))
        XCTAssertEqual(lines[types + 1], "  T0   2")
        XCTAssertEqual(lines[types + 20], "  T9   2")
        XCTAssertEqual(lines[types + 21], "  … and 10 more, 10 records (--format json lists them all)")
        XCTAssertEqual(lines[types + 22], "")
        let info = try XCTUnwrap(try gqlcache("info", cache, "--format", "json").json() as? [String: Any])
        XCTAssertEqual((info["types"] as? [Any])?.count, 30)
        // One more than the twenty is listed, not counted.
        let one = try makeCache("one-more.sqlite", Array(records.prefix(41)))
        XCTAssertFalse(gqlcache("info", one).stdout.contains("more,"))
    }

    /// Too deep is what Apollo's reader (Foundation's JSONSerialization)
    /// refuses: more than 512 nested objects and arrays, the record's own
    /// object one of them, where SQLite's json_valid, which info counts
    /// with, takes up to 2000.
    func testARecordNestedTooDeepIsCountedAsDamagedForWhatItIs() throws {
        func nested(_ lists: Int) -> String {
            #"{"a":"# + String(repeating: "[", count: lists) + #""[{x\"]""# + String(repeating: "]", count: lists) + "}"
        }
        for lists in [511, 600, 5000] {
            let cache = try makeCache("deep-\(lists).sqlite", [Record(key: "Good:1", fields: ["a": .int(1)])], raw: [("Deep:1", nested(lists))])
            let result = gqlcache("info", cache)
            guard lists > 511 else {
                XCTAssertEqual(result.stderr, "", "512 levels are as deep as Apollo reads")
                XCTAssertFalse(gqlcache("doctor", cache).stdout.contains("damaged"))
                XCTAssertEqual(gqlcache("export", cache).status, .success)
                continue
            }
            XCTAssertTrue(
                result.lines.contains("damaged       1 (NULL, not valid JSON, not a JSON object, or nested too deep; 'gqlcache doctor' lists them)"), result.stdout)
            XCTAssertEqual(result.stderr, "gqlcache: warning: 1 damaged record (NULL, not valid JSON, not a JSON object, or nested too deep): Deep:1\n")
            let doctor = gqlcache("doctor", cache)
            XCTAssertEqual(doctor.status, .problemsFound, "\(lists)")
            XCTAssertTrue(doctor.stdout.contains("nesting deeper than 512 levels"), doctor.stdout)
            XCTAssertEqual(gqlcache("export", cache).status, .damagedRecord, "\(lists)")
        }
    }

    func testTheNearestTypenamesHintQuotesNamesThatWouldNotShow() throws {
        let cache = try makeCache("names.sqlite", [
            Record(key: "A:1", fields: ["__typename": .string("X ")]), Record(key: "B:1", fields: ["__typename": .string("")]),
        ])
        let result = gqlcache("keys", cache, "--type", "X")
        XCTAssertEqual(result.status, .notFound)
        // The empty one is not offered: --type refuses an empty name.
        XCTAssertEqual(result.stderr, #"gqlcache: no record has __typename 'X' in \#(cache); nearest typenames: "X ""# + "\n")
    }

    /// Records without a __typename are listed as (none); a record whose
    /// __typename is the text "(none)" gets its own row, quoted, in info
    /// and stats alike.
    func testATypenameThatIsTheTextNoneIsToldApartFromRecordsWithout() throws {
        let cache = try makeCache("none.sqlite", [
            Record(key: "A:1", fields: ["__typename": .string("(none)")]), Record(key: "B:1", fields: ["n": .int(1)]),
        ])
        let info = gqlcache("info", cache)
        XCTAssertTrue(info.stdout.contains("\n  \"(none)\"  1\n"), info.stdout)
        XCTAssertTrue(info.stdout.contains("\n  (none)    1\n"), info.stdout)
        let stats = gqlcache("stats", cache)
        XCTAssertTrue(stats.stdout.contains("\"(none)\""), stats.stdout)
    }

    func testInfoRecognisesTheLegacyDDL() throws {
        let cache = try copyOfFixture("legacy-sqlite-swift.sqlite")
        let result = gqlcache("info", cache, "--format", "jsonl")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines.count, 1)
        let info = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(info["ddl"] as? String, "legacy")
        XCTAssertEqual(info["records"] as? Int, 2)
    }

    func testInfoCountsTheWALFileInTheSize() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        // Put the copy in WAL mode and leave a -wal file behind, as a running app does.
        try sqliteShell(cache, "PRAGMA journal_mode=WAL;")
        let holder = try CacheStore.open(at: cache, access: .readWrite)
        try holder.write { tx in try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])]) }
        let result = gqlcache("info", cache, "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let info = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(info["journalMode"] as? String, "wal")
        let size = try XCTUnwrap(info["size"] as? [String: Any])
        let wal = try XCTUnwrap(size["wal"] as? Int)
        XCTAssertGreaterThan(wal, 0)
        XCTAssertEqual(size["total"] as? Int, (size["database"] as! Int) + wal + ((size["shm"] as? Int) ?? 0))
    }

    func testReadingAWALCacheCreatesNothingBesideIt() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let info = gqlcache("info", cache)
        // A WAL file alone may be a copy taken without its -wal: info says what that would lack.
        XCTAssertTrue(info.stdout.contains(
            "journal mode  wal (no -wal file beside it: all is in this file, unless it was copied without its -wal)\n"),
            info.stdout)
        for arguments in [["keys", cache], ["show", cache, "QUERY_ROOT", "--depth", "2"], ["rm", cache, "--match", "Human", "--dry-run"]] {
            XCTAssertEqual(gqlcache(arguments: arguments).status, .success, arguments.joined(separator: " "))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["starwars.sqlite"])
        XCTAssertEqual(try bytes(cache), before)
    }

    /// A WAL file in a folder the user cannot write is read as an immutable
    /// snapshot (SQLite could not make its -shm file): the text says so
    /// beside the mode, and JSON gives the mode alone, for scripts that
    /// test it, with the snapshot as a member of its own.
    func testAWALFileReadAsASnapshotKeepsItsJournalModeInJSON() throws {
        // A copy taken with its -wal file, as from a running app's container.
        let original = try walCopyOfFixture("starwars.sqlite")
        let app = try CacheStore.open(at: original, access: .readWrite)
        try app.write { tx in try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])]) }
        let readOnly = path("read-only")
        try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: false)
        let cache = readOnly + "/starwars.sqlite"
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: original + suffix, toPath: cache + suffix) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly) }
        let json = try runBuiltBinaryAsAnotherUser(["info", cache, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let info = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(info["journalMode"] as? String, "wal")
        XCTAssertEqual(info["immutableSnapshot"] as? Bool, true)
        let text = try runBuiltBinaryAsAnotherUser(["info", cache])
        XCTAssertTrue(text.stdout.contains("journal mode  wal (read as an immutable snapshot: the folder is not writable)\n"), text.stdout)
        let writable = try XCTUnwrap(try gqlcache("info", cache, "--format", "json").json() as? [String: Any])
        XCTAssertEqual(writable["immutableSnapshot"] as? Bool, false, "root may write the folder")
    }

    func testInfoLeavesTheFileByteIdentical() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        XCTAssertEqual(gqlcache("info", cache).status, .success)
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-journal"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-wal"))
    }
}
