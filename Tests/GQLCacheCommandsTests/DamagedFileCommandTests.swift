import Foundation
@testable import GQLCacheCommands
import XCTest

/// A file whose pages are damaged: what a pass over its table reads may be
/// the damage itself, so `doctor` says so, `gc` repairs nothing in it, and
/// `stats` and `info` end with the file named as corrupt.
final class DamagedFileCommandTests: CommandTestCase {
    /// Overwrites the start of the page header of the b-tree `tree`'s root
    /// (a leaf in the fixture) with a cell count of 70: SQLite then reads 60
    /// cells past the real ones out of the page's unused bytes.
    func breakRootPage(of tree: String, in cache: String) throws {
        let page = try XCTUnwrap(Int(try sqliteShell(cache, "SELECT rootpage FROM sqlite_master WHERE name = '\(tree)'")))
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: cache))
        try handle.seek(toOffset: UInt64((page - 1) * 4096))
        let leafType: UInt8 = tree == "records" ? 0x0D : 0x0A
        handle.write(Data([leafType, 0x00, 0x00, 0x00, 0x46, 0x00, 0x10, 0x00]))
        try handle.close()
    }

    /// The fixture with its table's root page broken: ten real rows, then
    /// sixty read from the broken page as rows with `_id` 0 and no key.
    func cacheWithBrokenTablePage() throws -> String {
        let cache = try copyOfFixture("starwars.sqlite")
        try breakRootPage(of: "records", in: cache)
        return cache
    }

    /// The fixture plus a row without a key, its table sound and its key
    /// index broken: the pass over the table cannot tell, SQLite's check can.
    func cacheWithKeylessRowAndBrokenIndex() throws -> String {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "INSERT INTO records(key, record) VALUES (NULL, '{}')")
        try breakRootPage(of: "sqlite_autoindex_records_1", in: cache)
        return cache
    }

    /// The fixture with one key changed in its key index only, as a
    /// damaged index page may hold it: `Human:1000`'s entry reads `Zuman:1000`.
    func cacheWithWrongKeyInIndex() throws -> String {
        let cache = try copyOfFixture("starwars.sqlite")
        let page = try XCTUnwrap(Int(try sqliteShell(cache, "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_records_1'")))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cache))
        let pageRange = (page - 1) * 4096..<page * 4096
        let found = try XCTUnwrap(bytes.range(of: Data("Human:1000".utf8), in: pageRange))
        bytes.replaceSubrange(found.lowerBound..<found.lowerBound + 1, with: Data("Z".utf8))
        try bytes.write(to: URL(fileURLWithPath: cache))
        return cache
    }

    /// The fixture with the row of `key` hidden from a pass over the table,
    /// as a damaged page hides cells: the key moves to the last row, and the
    /// table's leaf says it holds one cell less. Its key index still has it.
    func cacheHidingRow(_ key: String) throws -> String {
        let cache = try copyOfFixture("starwars.sqlite", as: "hiding-\(key).sqlite")
        try sqliteShell(cache, "UPDATE records SET _id = 100 WHERE key = '\(key)'")
        let page = try XCTUnwrap(Int(try sqliteShell(cache, "SELECT rootpage FROM sqlite_master WHERE name = 'records'")))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cache))
        let header = (page - 1) * 4096
        XCTAssertEqual(bytes[header], 0x0D, "the table is one leaf page")
        let cells = Int(bytes[header + 3]) << 8 | Int(bytes[header + 4])
        bytes[header + 3] = UInt8((cells - 1) >> 8)
        bytes[header + 4] = UInt8((cells - 1) & 0xFF)
        try bytes.write(to: URL(fileURLWithPath: cache))
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records NOT INDEXED WHERE key = '\(key)'"), "0", "the pass misses it")
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records WHERE key = '\(key)'"), "1", "the index holds it")
        return cache
    }

    /// A row a damaged page hides, though it keeps `_id` order, would make
    /// what only it reaches seem unreachable, and the references to it
    /// dangle: gc and rm through the graph refuse, and change nothing.
    func testARowTheTableHidesButTheKeyIndexHoldsStopsEveryRepair() throws {
        for (key, argumentLists) in [
            ("MUTATION_ROOT", [["gc", "--unreachable", "--force"], ["gc", "--all", "--dry-run"], ["rm", "--type", "Review", "--force"]]),
            ("Human:1002", [["gc", "--dangling", "--force"], ["gc", "--all", "--force"], ["rm", "--cascade", "Human:1000", "--force"],
                            ["rm", "Starship:3001", "--clean-references", "--force"]]),
        ] {
            let cache = try cacheHidingRow(key)
            let before = try bytes(cache)
            for arguments in argumentLists {
                let result = gqlcache(arguments: [arguments[0], cache] + arguments.dropFirst())
                XCTAssertEqual(result.status, ExitStatus.io, "\(key) \(arguments): \(result.stderr)")
                XCTAssertEqual(result.stderr, "gqlcache: \(cache): the database file is corrupt (the key index holds \"\(key)\", "
                    + "which no row of a pass over the table has); nothing was changed, as gqlcache does not write to a damaged file "
                    + "('gqlcache doctor' says more)\n", "\(key) \(arguments)")
                XCTAssertEqual(result.stdout, "", "\(key) \(arguments)")
            }
            XCTAssertEqual(try bytes(cache), before, key)
        }
    }

    static let orderBreak = "its rows come out of _id order: _id 0 after _id 10"

    func testDoctorNamesRowsOutOfOrderAndWarnsThatWhatItReadMayBeTheDamage() throws {
        let cache = try cacheWithBrokenTablePage()
        let before = try bytes(cache)
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound, result.stderr)
        XCTAssertTrue(result.stdout.contains("  records table: \(Self.orderBreak), which only damaged pages give\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("""
            (what follows was read from a damaged file: some of it may be the damage itself, not the app's data)
            rows without a key (60)
              _id 0

            """), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("may copy out what SQLite can still read\n"), result.stdout)
        XCTAssertFalse(result.stdout.contains("gqlcache gc"), "no repair is suggested for a damaged file")
        let json = try XCTUnwrap(try gqlcache("doctor", cache, "--format", "json").json() as? [String: Any])
        let problems = try XCTUnwrap(json["problems"] as? [[String: Any]])
        let rowOrder = try XCTUnwrap(problems.first { $0["kind"] as? String == "rowOrder" })
        XCTAssertEqual(rowOrder["rowid"] as? Int, 0)
        XCTAssertEqual(rowOrder["afterRowid"] as? Int, 10)
        XCTAssertEqual(try bytes(cache), before, "doctor changes nothing")
    }

    func testASoundFileGetsNeitherTheOrderFindingNorTheWarning() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "INSERT INTO records(key, record) VALUES (NULL, '{}')")
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertTrue(result.stdout.contains("rows without a key (1)\n"), result.stdout)
        XCTAssertFalse(result.stdout.contains("records table:"), result.stdout)
        XCTAssertFalse(result.stdout.contains("read from a damaged file"), result.stdout)
        XCTAssertTrue(result.stdout.contains("repair with: gqlcache gc \(cache) --stray-rows"), result.stdout)
    }

    /// Runs `command` with each of `argumentLists` on a file whose rows come
    /// out of order: each is refused with exit 5, prints nothing and changes nothing.
    func assertRefusesOutOfOrderFile(_ command: String, _ argumentLists: [[String]], file: StaticString = #filePath, line: UInt = #line) throws {
        let cache = try cacheWithBrokenTablePage()
        let before = try bytes(cache)
        let message = "gqlcache: \(cache): the database file is corrupt (\(Self.orderBreak)); nothing was changed, "
            + "as gqlcache does not write to a damaged file ('gqlcache doctor' says more)\n"
        for arguments in argumentLists {
            let result = gqlcache(arguments: [command, cache] + arguments)
            XCTAssertEqual(result.status, ExitStatus.io, "\(arguments): \(result.stderr)", file: file, line: line)
            XCTAssertEqual(result.stderr, message, "\(arguments)", file: file, line: line)
            XCTAssertEqual(result.stdout, "", "\(arguments): nothing is proposed", file: file, line: line)
        }
        XCTAssertEqual(try bytes(cache), before, file: file, line: line)
    }

    func testGcRefusesToRepairAFileWhoseRowsComeOutOfOrderAndChangesNothing() throws {
        try assertRefusesOutOfOrderFile("gc", [["--stray-rows", "--dry-run"], ["--dangling", "--dry-run"], ["--all", "--force"], ["--unreachable", "--force"]])
    }

    /// rm's removals that read the whole table (--cascade, --type,
    /// --clean-references) decide from that pass, as gc does: on a file
    /// whose rows come out of order they refuse, dry run or not.
    func testRmThroughTheGraphRefusesAFileWhoseRowsComeOutOfOrderAndChangesNothing() throws {
        try assertRefusesOutOfOrderFile("rm", [
            ["--cascade", "Human:1002", "--force"], ["--type", "Droid", "--force"], ["Human:1002", "--clean-references"],
            ["--type", "Droid", "--dry-run"], ["--cascade", "Human:1002", "--dry-run"],
        ])
    }

    /// A scan in key order goes through the key index: keys out of order
    /// there would be exported as the wrong records' keys and make diff
    /// invent changes. The reading stops with the damage named.
    func testExportAndDiffStopAtAKeyIndexOutOfOrder() throws {
        let cache = try cacheWithWrongKeyInIndex()
        let original = try copyOfFixture("starwars.sqlite", as: "original.sqlite")
        let message = "\(cache): the database file is corrupt (its key index is out of order: 'Human:1002' after 'Zuman:1000', "
            + "which only a damaged index gives); the reading stopped there, and what came before may be wrong too ('gqlcache doctor --full' says more)"
        let export = gqlcache("export", cache)
        XCTAssertEqual(export.status, ExitStatus.io, export.stderr)
        XCTAssertEqual(export.stderr, "gqlcache: \(message)\n")
        let written = gqlcache("export", cache, "-o", path("out.jsonl"))
        XCTAssertEqual(written.status, ExitStatus.io, written.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.jsonl")), "no export file is left")
        let diff = gqlcache("diff", original, cache)
        XCTAssertEqual(diff.status, ExitStatus.io, diff.stdout)
        XCTAssertEqual(diff.stderr, "gqlcache: \(message)\n")
        XCTAssertTrue(gqlcache("doctor", cache, "--full").stdout.contains("missing from index"))
    }

    /// A copy that stopped part way, at a page's end: SQLite only says
    /// "malformed", and cannot read even the schema; the header's page
    /// count says how much is missing. doctor still reports, as for any
    /// damaged file (status 7, a JSON report for scripts), and advises.
    func testAFileCutShortIsNamedAsSuchAndDoctorReportsAndAdvises() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3000)
            INSERT INTO records(key, record) SELECT 'Filler:' || x, '{"pad":"' || hex(zeroblob(200)) || '"}' FROM n
            """)
        let whole = try Data(contentsOf: URL(fileURLWithPath: cache))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cache))
        let cut = "the file is cut short: \(whole.count / 2) bytes, where its header says \(whole.count)"
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, ExitStatus.problemsFound, doctor.stderr)
        XCTAssertEqual(doctor.stderr, "")
        XCTAssertEqual(doctor.stdout, """
            \(cache): 3 problems; the records could not all be read
              SQLite quick_check: 1 problem (listed below)
              file: cut short: \(whole.count / 2) bytes, where its header says \(whole.count) (a copy that stopped, or a full disk)
              records: not checked: SQLite could not read the file's schema (database disk image is malformed)
            SQLite quick_check found (1)
              the check could not run: database disk image is malformed
            the file is damaged: delete it (the app builds a new cache) or copy a fresh one; 'sqlite3 \(cache) .recover' may copy out what SQLite can still read

            """)
        let json = gqlcache("doctor", cache, "--format", "jsonl")
        XCTAssertEqual(json.status, ExitStatus.problemsFound)
        XCTAssertEqual(json.stdout.split(separator: "\n").map(String.init), [
            #"{"kind":"cutShort","bytes":\#(whole.count / 2),"headerBytes":\#(whole.count)}"#,
            #"{"kind":"integrity","message":"the check could not run: database disk image is malformed"}"#,
            #"{"kind":"unreadTable","message":"database disk image is malformed"}"#,
            #"{"kind":"summary","file":"\#(cache)","healthy":false,"records":null,"problemCount":3,"integrityCheck":"quick_check","journalMode":"unknown","roots":[]}"#,
        ])
        let info = gqlcache("info", cache)
        XCTAssertEqual(info.status, ExitStatus.io)
        XCTAssertTrue(info.stderr.contains(cut), info.stderr)
    }

    /// Cut inside its last page, a file reads without SQLite's error: the
    /// missing bytes read as zeros. doctor names the cut, and every command
    /// that writes refuses the file and leaves its bytes as they were.
    func testAFileCutInsideItsLastPageIsReportedAndNeverWritten() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let whole = try Data(contentsOf: URL(fileURLWithPath: cache))
        let kept = whole.count - 500
        try whole.prefix(kept).write(to: URL(fileURLWithPath: cache))
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let refusal = "gqlcache: \(cache): the database file is corrupt (the file is cut short: \(kept) bytes, where its header says \(whole.count)); "
            + "nothing was changed, as gqlcache does not write to a damaged file ('gqlcache doctor' says more)\n"
        let jsonl = path("one.jsonl")
        try #"{"key":"A:1","record":{"a":1}}"#.write(toFile: jsonl, atomically: true, encoding: .utf8)
        for arguments in [["rm", cache, "Human:1002"], ["clear", cache, "--force"], ["import", cache, jsonl], ["gc", cache, "--vacuum", "--force"],
                          ["update", cache, "--fragment", "F", "--text", "fragment F on Human @apollo_client_ios_localCacheMutation { name }", "--key", "Human:1000", "--set", #"name="X""#]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, ExitStatus.io, arguments.joined(separator: " "))
            XCTAssertEqual(result.stderr, refusal, arguments.joined(separator: " "))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before, arguments.joined(separator: " "))
        }
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, ExitStatus.problemsFound)
        XCTAssertTrue(doctor.stdout.contains("\n  file: cut short: \(kept) bytes, where its header says \(whole.count) (a copy that stopped, or a full disk)\n"),
                      doctor.stdout)
        let json = gqlcache("doctor", cache, "--format", "jsonl")
        XCTAssertTrue(json.stdout.hasPrefix(#"{"kind":"cutShort","bytes":\#(kept),"headerBytes":\#(whole.count)}"#), json.stdout)
        // In WAL mode too, when its -wal file holds no frames that could hold the missing end.
        let wal = try copyOfFixture("legacy-sqlite-swift.sqlite")
        XCTAssertEqual(try sqliteShell(wal, "PRAGMA journal_mode=WAL;"), "wal")
        let walWhole = try Data(contentsOf: URL(fileURLWithPath: wal))
        try walWhole.prefix(walWhole.count - 500).write(to: URL(fileURLWithPath: wal))
        XCTAssertEqual(gqlcache("rm", wal, "Human:1002").status, ExitStatus.io)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: wal)).count, walWhole.count - 500)
    }

    /// A file that begins as SQLite's do but that SQLite refuses is not
    /// called "not an SQLite database": cut short inside its header it is
    /// damaged (exit 5); with the whole header it may be damaged, encrypted
    /// or newer, and is said to be any of those (exit 3), never to delete.
    func testAFileWithTheSQLiteMagicThatSQLiteRefusesIsNamedForWhatItMayBe() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: try copyOfFixture("starwars.sqlite")))
        let short = path("short.sqlite")
        try whole.prefix(16).write(to: URL(fileURLWithPath: short))
        var badHeader = whole
        badHeader[16] = 0; badHeader[17] = 3  // a page size of 3 bytes
        let damaged = path("header.sqlite")
        try badHeader.write(to: URL(fileURLWithPath: damaged))
        let keys = gqlcache("keys", short)
        XCTAssertEqual(keys.status, ExitStatus.io, keys.stderr)
        XCTAssertEqual(keys.stderr, "gqlcache: \(short): the database file is corrupt (SQLite: file is not a database; "
            + "the file is cut short: 16 bytes, less than the 100 bytes of the header)\n")
        // doctor reports it (status 7), with what SQLite said.
        let doctor = gqlcache("doctor", short, "--format", "jsonl")
        XCTAssertEqual(doctor.status, ExitStatus.problemsFound, doctor.stderr)
        XCTAssertTrue(doctor.stdout.contains(#"{"kind":"unreadTable","message":"file is not a database; the file is cut short: 16 bytes, less than the 100 bytes of the header"}"#),
                      doctor.stdout)
        let refused = gqlcache("doctor", damaged)
        XCTAssertEqual(refused.status, ExitStatus.notACache, refused.stderr)
        XCTAssertEqual(refused.stderr, "gqlcache: \(damaged): not an Apollo iOS cache that can be read: the file begins as an SQLite "
            + "database, but SQLite refuses it (file is not a database): its header is damaged, or it is encrypted or of a newer SQLite format\n")
        let text = path("text.sqlite")
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertEqual(gqlcache("keys", text).status, ExitStatus.notACache)
    }

    func testGcChecksTheFileBeforeDeletingRowsWithoutAKey() throws {
        let cache = try cacheWithKeylessRowAndBrokenIndex()
        let before = try bytes(cache)
        let message = "gqlcache: \(cache): the database file is corrupt (SQLite quick_check: Page 3: free space corruption); "
            + "nothing was changed, as gqlcache does not write to a damaged file ('gqlcache doctor' says more)\n"
        for arguments in [["--stray-rows", "--dry-run"], ["--all", "--force"]] {
            let result = gqlcache(arguments: ["gc", cache] + arguments)
            XCTAssertEqual(result.status, ExitStatus.io, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, message, "\(arguments)")
        }
        XCTAssertEqual(try bytes(cache), before)
        // Rows without a key in a sound file are deleted as before.
        let sound = try copyOfFixture("starwars.sqlite", as: "sound.sqlite")
        try sqliteShell(sound, "INSERT INTO records(key, record) VALUES (NULL, '{}')")
        let removed = gqlcache("gc", sound, "--stray-rows", "--force")
        XCTAssertEqual(removed.status, .success, removed.stderr)
        XCTAssertEqual(try sqliteShell(sound, "SELECT count(*) FROM records WHERE key IS NULL"), "0")
    }

    func testStatsAndInfoShowWhatTheyReadThenNameTheFileCorrupt() throws {
        let cache = try cacheWithBrokenTablePage()
        let message = "gqlcache: \(cache): the database file is corrupt (\(Self.orderBreak)); "
            + "what is shown may be wrong ('gqlcache doctor' says more)\n"
        for command in ["stats", "info"] {
            let result = gqlcache(command, cache)
            XCTAssertEqual(result.status, .io, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stderr, message, command)
            XCTAssertTrue(result.stdout.contains("rows without a key  60 (damage; 'gqlcache doctor' lists them)\n"), result.stdout)
        }
        let sound = gqlcache("stats", try copyOfFixture("starwars.sqlite", as: "sound.sqlite"))
        XCTAssertEqual(sound.status, .success)
        XCTAssertEqual(sound.stderr, "")
        XCTAssertFalse(sound.stdout.contains("rows without a key"))
    }

    func testStatsJSONCountsRowsWithoutAKeyAndWithABlobKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "INSERT INTO records(key, record) VALUES (NULL, '{}'), (x'00ff', '{}'), (NULL, NULL)")
        let json = try XCTUnwrap(try gqlcache("stats", cache, "--format", "json").json() as? [String: Any])
        XCTAssertEqual(json["keylessRows"] as? Int, 2)
        XCTAssertEqual(json["blobKeyRows"] as? Int, 1)
        XCTAssertEqual(json["records"] as? Int, 10, "neither is a record")
        let text = gqlcache("stats", cache, "--top", "0").stdout
        XCTAssertTrue(text.contains("rows with a bad key  1 (a BLOB, or text not UTF-8: Apollo never finds them; 'gqlcache doctor' lists them)\n"), text)
    }
}

extension DamagedFileCommandTests {
    /// A damaged page met half-way through a listing ends the command with
    /// status 5 and the file named, and, as sqlite3 -json ends its array
    /// after an error, standard output is still one JSON document: what was
    /// read before the page, closed.
    /// show of several records, one on a damaged page: every other record
    /// is shown, and the unreadable one is named, with I/O status, in
    /// text and JSON alike.
    func testShowGoesAroundARecordOnADamagedPageAndNamesIt() throws {
        let (cache, page) = try largerCache(pageOf: "records")
        try damage(cache, page: page, offset: 0)
        let keys = ["QUERY_ROOT"] + (1...2000).map { "Filler:\($0)" }
        let result = gqlcache(arguments: ["show", cache] + keys + ["--format", "jsonl"])
        XCTAssertEqual(result.status, .io, result.stderr)
        let entries = try result.lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(entries.count, keys.count, "each record asked for")
        XCTAssertTrue(entries.compactMap { $0["key"] as? String } == keys, "in the order asked for")
        let unreadable = entries.filter { $0["error"] != nil }.compactMap { $0["key"] as? String }
        XCTAssertLessThan(unreadable.count, 100, "only the damaged page's records")
        XCTAssertEqual(entries.filter { $0["record"] != nil }.count, keys.count - unreadable.count)
        let first = try XCTUnwrap(unreadable.first, "a record on the damaged page")
        XCTAssertEqual(entries.first { $0["key"] as? String == first }?["error"] as? String,
                       "the page of the file that holds it is damaged (SQLite: database disk image is malformed)")
        let sqlite = try runProgram("/usr/bin/sqlite3", ["-readonly", cache, "SELECT record FROM records WHERE key = '\(first)'"])
        XCTAssertTrue(sqlite.stderr.contains("database disk image is malformed"), "sqlite3 cannot read it either: \(sqlite.stderr)")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, unreadable.count, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(cache): record '\(first)' cannot be read: the page of the file that holds it is damaged "
            + "(SQLite: database disk image is malformed); 'gqlcache doctor' says more\n"), result.stderr)

        let text = gqlcache("show", cache, "Filler:1", first)
        XCTAssertEqual(text.status, .io, text.stderr)
        XCTAssertEqual(text.lines.first, "Filler:1 (Filler)")
        XCTAssertEqual(text.lines.last, "\(first) (unreadable: the page of the file that holds it is damaged (SQLite: database disk image is malformed))")
    }

    /// Records that --depth reaches on a damaged page are shown marked, and
    /// the file's damage is said once on standard error, with status 5, as
    /// for records named: a script must not take the tree for whole.
    func testShowDepthSaysWhenRecordsItReachedCannotBeRead() throws {
        let (cache, page) = try largerCache(pageOf: "records")
        _ = try sqliteShell(cache, """
            INSERT INTO records(key, record) SELECT 'All:1', '{"__typename":"All","fillers":[' || group_concat('{"$reference":"' || key || '"}') || ']}'
            FROM records WHERE key LIKE 'Filler:%'
            """)
        try damage(cache, page: page, offset: 0)
        for format in ["jsonl", "text"] {
            let result = gqlcache("show", cache, "All:1", "--depth", "1", "--format", format)
            XCTAssertEqual(result.status, .io, format)
            let marked = format == "jsonl" ? result.lines.filter { $0.contains(#""error":"#) }.count : result.lines.filter { $0.contains("(unreadable: ") }.count
            XCTAssertGreaterThan(marked, 0, format)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(cache): \(marked) records that --depth reached cannot be read (Filler:"), result.stderr)
            XCTAssertTrue(result.stderr.hasSuffix("): the pages of the file that hold them are damaged; 'gqlcache doctor' says more\n"), result.stderr)
        }
    }

    func testJSONOutputStoppedByADamagedPageIsStillOneClosedDocument() throws {
        let (cache, page) = try largerCache(pageOf: "records")
        let healthy = path("healthy.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: healthy)
        // The same records as the damaged file has before its damage: diff meets the page first.
        let twin = path("twin.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: twin)
        // A difference diff meets before the damaged page.
        try sqliteShell(healthy, #"INSERT INTO records(key, record) VALUES ('A:0', '{"__typename":"A"}')"#)
        let index = try XCTUnwrap(Int(try sqliteShell(
            cache, "SELECT pageno FROM dbstat WHERE name = 'sqlite_autoindex_records_1' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 2")))
        try damage(cache, page: page, offset: 0)
        try damage(cache, page: index, offset: 0)
        let fillers = (1...2000).map { "Filler:\($0)" }
        for arguments in [
            ["keys", cache, "--format", "json"],
            ["grep", cache, "Filler", "--field", "__typename", "--format", "json"],
            ["show", cache, "QUERY_ROOT"] + fillers + ["--format", "json"],
        ] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .io, "\(arguments[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(cache), result.stderr)
            let parsed = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [Any]
            XCTAssertNotNil(parsed, "\(arguments[0]): \(result.stdout.suffix(80))")
        }
        let diff = gqlcache("diff", healthy, cache, "--format", "json")
        XCTAssertEqual(diff.status, .io, diff.stderr)
        let document = try? JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any]
        XCTAssertNotNil(document?["records"] as? [Any], diff.stdout + diff.stderr)
        XCTAssertNil(document?["added"], "no counts for a comparison that did not finish")
        let stoppedFirst = gqlcache("diff", twin, cache, "--format", "json")
        XCTAssertEqual(stoppedFirst.status, .io, stoppedFirst.stderr)
        XCTAssertEqual(stoppedFirst.stdout, "{\n  \"records\": []\n}\n")
    }
}
