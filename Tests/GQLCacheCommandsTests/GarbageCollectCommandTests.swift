import CacheStore
import Foundation
@testable import GQLCacheCommands
import XCTest

/// `gc`: each kind opt-in, a dry run that lists exactly the changes, JSON
/// for scripts, and VACUUM afterwards.
final class GarbageCollectCommandTests: CommandTestCase {
    /// A signal during --vacuum stops the VACUUM alone: the message says
    /// the change before it stands, and where its report is, also when
    /// --quiet left the report out.
    func testAVacuumStoppedSaysTheChangeBeforeItStandsWithOrWithoutItsReport() {
        let reported = CommandFailure.vacuumStopped("c.sqlite", quiet: false)
        XCTAssertEqual(reported.status, .interrupted)
        XCTAssertEqual(reported.message, "c.sqlite: interrupted during VACUUM, so the file may not have shrunk; "
            + "the change made before it (reported above) was written and stands")
        XCTAssertTrue(CommandFailure.vacuumStopped("c.sqlite", quiet: true).message.contains("(--quiet left out its report) was written and stands"))
        // Any other failure of VACUUM after the change committed keeps its
        // status and says the change stands, lest it be made again.
        let full = CommandFailure.vacuumFailed("c.sqlite", CacheStoreError.io(path: "c.sqlite", message: "the disk is full"), quiet: false)
        XCTAssertEqual(full.status, .io)
        XCTAssertEqual(full.message, "VACUUM failed: c.sqlite: the disk is full; the file did not shrink, "
            + "and the change made before it (reported above) was written and stands")
        XCTAssertEqual(CommandFailure.vacuumFailed("c.sqlite", CacheStoreError.interrupted(path: "c.sqlite"), quiet: true).message,
                       CommandFailure.vacuumStopped("c.sqlite", quiet: true).message)
        // Stopped once VACUUM could no longer stop: no report "above" under --quiet either.
        XCTAssertTrue(CommandFailure.stoppedAfterVacuum("c.sqlite").message.hasSuffix(": what is reported above was written and stands"))
        XCTAssertTrue(CommandFailure.stoppedAfterVacuum("c.sqlite", quiet: true).message
            .hasSuffix(": everything the command did (--quiet left out its report) was written and stands"))
    }

    func testEachKindIsOptInAndAskingForNothingIsAUsageError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000").status, .success)
        let nothing = gqlcache("gc", cache)
        XCTAssertEqual(nothing.status, .usage)
        XCTAssertTrue(nothing.stderr.contains("say what to collect: --unreachable, --dangling, --stray-rows, --all, and/or --vacuum"), nothing.stderr)
        // Human:1000 held Starship:3001's only reference.
        let unreachable = gqlcache("gc", cache, "--unreachable", "--dry-run")
        XCTAssertEqual(unreachable.stdout, "would remove 1 unreachable record:\n  Starship:3001\n")
        let dangling = gqlcache("gc", cache, "--dangling", "--dry-run")
        XCTAssertEqual(dangling.stdout, """
            would drop 4 dangling references:
              Droid:2001 friends[0] → Human:1000 (list element)
              Droid:2001.friendsConnection(after:null,first:2) friends[0] → Human:1000 (list element)
              QUERY_ROOT human(id:1000) → Human:1000 (field)
              QUERY_ROOT search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])[0][0] → Human:1000 (list element)

            """)
    }

    /// Removing the mutation's result leaves MUTATION_ROOT holding only a
    /// reference to it. Apollo writes no record without fields (and import
    /// merges none), so the repair removes MUTATION_ROOT rather than leave
    /// `{}`: the repaired file then round-trips through export and import.
    func testARecordTheRepairLeavesWithNoFieldGoesSoTheFileRoundTrips() throws {
        let result = "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])"
        let field = "createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])"
        let cache = try copyOfFixture("starwars.sqlite")
        let cleaned = try copyOfFixture("starwars.sqlite", as: "cleaned.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, result).status, .success)
        XCTAssertEqual(gqlcache("gc", cache, "--dangling", "--dry-run").stdout, """
            would drop 1 dangling reference:
              MUTATION_ROOT \(field) → \(result) (field)
            would remove 1 record the drops left with no field, as Apollo writes none:
              MUTATION_ROOT

            """)
        let json = try XCTUnwrap(try gqlcache("gc", cache, "--dangling", "--dry-run", "--format", "json").json() as? [String: Any])
        XCTAssertEqual(json["emptied"] as? [String], ["MUTATION_ROOT"])
        XCTAssertEqual(json["emptiedRecords"] as? Int, 1)
        XCTAssertTrue(gqlcache("gc", cache, "--dangling", "--dry-run", "--format", "jsonl").stdout
            .contains(#"{"type":"emptied","key":"MUTATION_ROOT"}"#))
        XCTAssertEqual(gqlcache("gc", cache, "--dangling", "--force").status, .success)
        XCTAssertNil(try records(cache)["MUTATION_ROOT"])
        XCTAssertEqual(gqlcache("doctor", cache).status, .success)
        // rm --clean-references repairs the same way, in one step.
        let removal = gqlcache("rm", cleaned, result, "--clean-references")
        XCTAssertEqual(removal.stdout, """
            removed \(result)
            removed 1 record and dropped 1 reference to it:
              MUTATION_ROOT \(field) → \(result) (field)
            removed 1 more record the drops left with no field, as Apollo writes none:
              MUTATION_ROOT

            """)
        XCTAssertEqual(gqlcache("diff", cache, cleaned).status, .success)
        let copy = path("copy.sqlite")
        let exported = gqlcache("export", cache)
        XCTAssertEqual(gqlcache(arguments: ["import", copy, "-", "--create"], input: exported.stdout).status, .success)
        let diff = gqlcache("diff", cache, copy)
        XCTAssertEqual(diff.status, .success, diff.stdout)
    }

    func testJSONListsRemovedKeysAndDroppedReferencesWithTheirPaths() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000").status, .success)
        let result = gqlcache("gc", cache, "--all", "--force", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(document["dryRun"] as? Bool, false)
        XCTAssertEqual(document["records"] as? Int, 9)
        XCTAssertEqual(document["removed"] as? [String], ["Starship:3001"])
        XCTAssertEqual(document["removedRecords"] as? Int, 1)
        XCTAssertEqual(document["droppedReferences"] as? Int, 4)
        let dropped = try XCTUnwrap(document["dropped"] as? [[String: Any]]).map { NSDictionary(dictionary: $0) }
        XCTAssertEqual(dropped.last, NSDictionary(dictionary: [
            "key": "QUERY_ROOT", "field": "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])",
            "path": [0, 0], "to": "Human:1000", "dropped": "list element",
        ]))
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])"],
                       .list([.list([.null]), .list([.reference("Droid:2001")])]))
        XCTAssertNil(try records(cache)["QUERY_ROOT"]?["human(id:1000)"])
        XCTAssertEqual(gqlcache("doctor", cache).status, .success)
    }

    /// Rows Apollo never finds (no key, or a BLOB key) have no key to name
    /// them by: doctor points at gc --stray-rows, which deletes exactly
    /// them, and only when asked.
    func testStrayRowsAreDeletedOnlyWhenAskedAndDoctorSuggestsIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            INSERT INTO records (key, record) VALUES (NULL, '{}');
            INSERT INTO records (key, record) VALUES (CAST('Ghost:1' AS BLOB), '{"__typename":"Ghost"}');
            """)
        let doctor = gqlcache("doctor", cache)
        XCTAssertTrue(doctor.stdout.hasSuffix(
            "repair with: gqlcache gc \(cache) --stray-rows (add --dry-run to see each change first)\n"), doctor.stdout)
        XCTAssertEqual(gqlcache("gc", cache, "--dangling", "--unreachable", "--force").stdout, "nothing to collect in 10 records\n")
        let planned = gqlcache("gc", cache, "--stray-rows", "--dry-run")
        XCTAssertEqual(planned.stdout, """
            would delete 2 rows Apollo never finds:
              _id 11: no key
              _id 12: BLOB key Ghost:1

            """)
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records"), "12", "a dry run deletes nothing")
        let done = gqlcache("gc", cache, "--all", "--force", "--format", "jsonl")
        XCTAssertEqual(done.lines, [
            #"{"type":"delete","rowid":11,"key":null}"#,
            #"{"type":"delete","rowid":12,"key":"Ghost:1","keyHex":"47686F73743A31"}"#,
            #"{"type":"summary","dryRun":false,"records":10,"removedRecords":0,"droppedReferences":0,"emptiedRecords":0,"deletedRows":2,"vacuumed":false}"#,
        ])
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records WHERE typeof(key) = 'text'"), "10", "every record stays")
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records"), "10")
        XCTAssertEqual(gqlcache("doctor", cache).status, .success)
    }

    /// A BLOB key need not be text: its bytes are named exactly, as an SQL
    /// BLOB literal, rather than with replacement characters that name
    /// some other key.
    func testABlobKeyThatIsNotUTF8IsNamedByItsBytes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "INSERT INTO records (key, record) VALUES (X'FF00C3', '{}');")
        let doctor = gqlcache("doctor", cache)
        XCTAssertTrue(doctor.stdout.contains("  _id 11: X'FF00C3' (not UTF-8)\n"), doctor.stdout)
        let problems = try XCTUnwrap(try gqlcache("doctor", cache, "--format", "json").json() as? [String: Any])["problems"] as? [[String: Any]]
        let blob = try XCTUnwrap(problems?.first { $0["kind"] as? String == "blobKeyRow" })
        XCTAssertTrue(blob["key"] is NSNull, "no text stands for these bytes")
        XCTAssertEqual(blob["keyHex"] as? String, "FF00C3")
        XCTAssertEqual(gqlcache("gc", cache, "--stray-rows", "--dry-run").stdout, """
            would delete 1 row Apollo never finds:
              _id 11: BLOB key X'FF00C3' (not UTF-8)

            """)
        XCTAssertEqual(gqlcache("gc", cache, "--stray-rows", "--force", "--format", "jsonl").lines.first,
                       #"{"type":"delete","rowid":11,"key":null,"keyHex":"FF00C3"}"#)
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records WHERE typeof(key) = 'blob'"), "0")
    }

    /// A text key whose bytes are not UTF-8 is never found either (Apollo
    /// looks keys up by Swift strings): it is a stray row named by its
    /// bytes, not by the replacement characters that would name another
    /// record (here the real `Key\u{FFFD}`, which stays).
    func testATextKeyThatIsNotUTF8IsAStrayRowNamedByItsBytes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            INSERT INTO records (key, record) VALUES (CAST(X'4B6579FF' AS TEXT), '{"a":1}'), ('Key' || char(65533), '{"b":2}');
            UPDATE records SET record = json_set(record, '$.k', json('{"$reference":"Key' || char(65533) || '"}')) WHERE key = 'QUERY_ROOT';
            """)
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        XCTAssertTrue(doctor.stdout.contains("""
            rows whose key is a BLOB or not UTF-8 text, which Apollo never finds (1)
              _id 11: X'4B6579FF' (not UTF-8)

            """), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("unreachable"), "the row is no record, so not an unreachable one")
        let problems = try XCTUnwrap(try gqlcache("doctor", cache, "--format", "json").json() as? [String: Any])["problems"] as? [[String: Any]]
        XCTAssertEqual(problems?.count, 1)
        XCTAssertEqual(problems?.first?["kind"] as? String, "nonUTF8KeyRow")
        XCTAssertEqual(problems?.first?["keyHex"] as? String, "4B6579FF")
        XCTAssertTrue(gqlcache("info", cache).stdout.contains("rows with a bad key  1 (a BLOB, or text not UTF-8: Apollo never finds them"))
        XCTAssertEqual(gqlcache("gc", cache, "--stray-rows", "--force").stdout, """
            deleted 1 row Apollo never finds:
              _id 11: key X'4B6579FF' (not UTF-8)

            """)
        XCTAssertEqual(try sqliteShell(cache, "SELECT hex(key) FROM records WHERE key LIKE 'Key%'"), "4B6579EFBFBD")
        XCTAssertEqual(gqlcache("doctor", cache).status, .success)
    }

    func testNothingToCollectChangesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = gqlcache("gc", cache, "--all", "--force", "--format", "jsonl")
        XCTAssertEqual(result.lines, [#"{"type":"summary","dryRun":false,"records":10,"removedRecords":0,"droppedReferences":0,"emptiedRecords":0,"deletedRows":0,"vacuumed":false}"#])
        XCTAssertEqual(try bytes(cache), before)
    }

    /// --quiet drops the report of what was done, as rm's, and keeps a dry
    /// run's plan, which is the data asked for: an empty plan is no output.
    func testQuietKeepsADryRunsPlanAndDropsTheReportOfWhatWasDone() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let empty = gqlcache("gc", cache, "--all", "--dry-run", "-q")
        XCTAssertEqual(empty.status, .success, empty.stderr)
        XCTAssertEqual(empty.stdout + empty.stderr, "", "nothing to collect is no lines")
        XCTAssertEqual(gqlcache("gc", cache, "--all", "--dry-run").stdout, "nothing to collect in 10 records\n")
        _ = gqlcache("rm", cache, "Human:1002", "-q")
        let planned = gqlcache("gc", cache, "--all", "--dry-run", "-q")
        XCTAssertEqual(planned.stdout, "would drop 1 dangling reference:\n  Droid:2001 friends[1] → Human:1002 (list element)\n")
        let done = gqlcache("gc", cache, "--all", "--force", "--vacuum", "-q")
        XCTAssertEqual(done.status, .success, done.stderr)
        XCTAssertEqual(done.stdout + done.stderr, "")
        XCTAssertEqual(gqlcache("doctor", cache).status, .success, "it did collect")
    }

    /// SQLite's VACUUM says "database or disk is full" of a damaged cell
    /// whose page number is out of range: the file's damage is said, not
    /// a full disk, and nothing is changed.
    func testAVacuumOfADamagedFileSaysItIsDamagedNotFull() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000)
            INSERT INTO records(key, record) SELECT 'Filler:' || x, '{"pad":"' || replace(hex(zeroblob(100)), '00', 'pp') || '"}' FROM n
            """)
        let page = try XCTUnwrap(Int(try sqliteShell(
            cache, "SELECT pageno FROM dbstat WHERE name = 'records' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 5")))
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: cache))
        try handle.seek(toOffset: UInt64((page - 1) * 4096 + 100))
        handle.write(Data((0..<200).flatMap { _ in [0xDE, 0xAD, 0xBE, 0xEF] as [UInt8] }))
        try handle.close()
        let before = try bytes(cache)
        let result = gqlcache("gc", cache, "--vacuum")
        XCTAssertEqual(result.status, .io, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(cache): the database file is corrupt (quick_check: "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("); nothing was changed, as gqlcache does not write to a damaged file ('gqlcache doctor' says more)\n"),
                      result.stderr)
        XCTAssertFalse(result.stderr.contains("full"), result.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    func testVacuumGivesTheFreedPagesBack() throws {
        let cache = try makeCache("big.sqlite", [Record(key: .queryRoot, fields: ["a": .reference("A:0")])]
            + (0..<400).map { Record(key: CacheKey("Orphan:\($0)"), fields: ["text": .string(String(repeating: "x", count: 2_000))]) })
        let result = gqlcache("gc", cache, "--unreachable", "--vacuum", "--force", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(document["removedRecords"] as? Int, 400)
        XCTAssertEqual(document["vacuumed"] as? Bool, true)
        let before = try XCTUnwrap(document["bytesBefore"] as? Int)
        let after = try XCTUnwrap(document["bytesAfter"] as? Int)
        XCTAssertLessThan(after, before / 10)
        XCTAssertEqual(after, try bytes(cache).count)
    }

    /// In WAL mode, a connection the app holds open keeps the old pages:
    /// the rebuilt file waits in the -wal file and the sizes grow, which
    /// the line says instead of calling it a shrink without a word.
    func testAVacuumThatTheAppsOpenConnectionMakesLargerSaysWhy() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "PRAGMA journal_mode=WAL")
        // Opened to write, as the app does, so that it holds a WAL read lock (not an immutable snapshot).
        let app = try CacheStore.open(at: cache, access: .readWrite)
        let result = try app.read { tx in
            _ = try tx.recordCount()
            return gqlcache("gc", cache, "--vacuum", "--force", "--busy-timeout", "0.5")
        }
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("vacuumed: "), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix(" larger: another connection, the app's, holds the file open, so the rebuilt pages wait in the -wal file; vacuum again once it has closed the file)\n"), result.stdout)
    }

    /// Sizes that round to the same text still say by how much the file
    /// grew, not "109.2 MiB → 109.2 MiB (larger…)".
    func testAVacuumLineSaysByHowMuchTheFileGrew() {
        let line = vacuumLine(before: 114_503_680, after: 114_507_776)
        XCTAssertTrue(line.hasPrefix("vacuumed: 109.2 MiB → 109.2 MiB (4.0 KiB larger: another connection"), line)
        XCTAssertEqual(vacuumLine(before: 45_260, after: 16_384), "vacuumed: 44.2 KiB → 16.0 KiB")
    }

    /// --vacuum alone collects nothing, and its JSON still has every
    /// documented member, as a script reading it expects.
    /// --vacuum alone changes no record: it needs no --force without a
    /// terminal, and its dry run counts the free pages in good English.
    func testVacuumAloneNeedsNoForceAndItsDryRunCountsOneFreePage() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "CREATE TABLE t(x); DROP TABLE t")
        let dryRun = gqlcache("gc", cache, "--vacuum", "--dry-run")
        XCTAssertEqual(dryRun.stdout, "would vacuum the 20.0 KiB file: 1 free page (4.0 KiB) now\n", "--vacuum alone frees no other pages")
        // Nor does a gc that finds nothing to collect; one that does frees pages too.
        XCTAssertEqual(gqlcache("gc", cache, "--all", "--vacuum", "--dry-run").stdout,
                       "nothing to collect in 10 records\nwould vacuum the 20.0 KiB file: 1 free page (4.0 KiB) now\n")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002", "--force").status, .success)
        XCTAssertTrue(gqlcache("gc", cache, "--dangling", "--vacuum", "--dry-run").stdout
            .hasSuffix("now, and the pages this gc would free\n"))
        let done = gqlcache("gc", cache, "--vacuum")
        XCTAssertEqual(done.status, .success, done.stderr)
        XCTAssertEqual(done.stdout, "vacuumed: 20.0 KiB → 16.0 KiB\n")
    }

    func testVacuumAloneGivesTheSameJSONMembers() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("gc", cache, "--vacuum", "--force", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(document.keys.sorted(), [
            "bytesAfter", "bytesBefore", "deleted", "deletedRows", "dropped", "droppedReferences", "dryRun", "emptied", "emptiedRecords",
            "records", "removed", "removedRecords", "vacuumed",
        ])
        XCTAssertEqual(document["records"] as? Int, 10)
        XCTAssertEqual(document["removedRecords"] as? Int, 0)
    }

    func testADryRunWritesNothingBesideTheFileEither() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        let before = try bytes(cache)
        XCTAssertEqual(gqlcache("gc", cache, "--all", "--vacuum", "--dry-run").status, .success)
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["starwars.sqlite"])
    }

    func testADamagedRootStopsGcFromCallingWhatItReachesUnreachable() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let root = try XCTUnwrap(try records(cache)["QUERY_ROOT"])
        let text = try XCTUnwrap(Record(key: "QUERY_ROOT", fields: root).jsonText.dropLast())
        try CacheStore.open(at: cache, access: .readWrite).write { tx in try tx.unsafeWriteRawRecord(key: "QUERY_ROOT", text: String(text)) }
        let before = try bytes(cache)
        let doctor = gqlcache("doctor", cache)
        XCTAssertFalse(doctor.stdout.contains("--unreachable"), "doctor does not suggest what gc would refuse:\n\(doctor.stdout)")
        let gc = gqlcache("gc", cache, "--unreachable", "--force")
        XCTAssertEqual(gc.status, .damagedRecord)
        XCTAssertEqual(gc.stderr, """
            gqlcache: \(cache): cannot tell which records are reachable: 1 damaged record ('QUERY_ROOT') may hold references that cannot be read; \
            nothing was changed. Remove or repair them first (gqlcache doctor lists them)

            """)
        XCTAssertEqual(try bytes(cache), before)
        let all = gqlcache("gc", cache, "--all", "--force")
        XCTAssertEqual(all.status, .damagedRecord)
        XCTAssertTrue(all.stderr.hasSuffix("; without --unreachable, 'gqlcache gc --dangling --stray-rows' still runs\n"), all.stderr)
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertEqual(gqlcache("gc", cache, "--dangling", "--stray-rows", "--force").status, .success)
        // rm --cascade will not guess either.
        XCTAssertEqual(gqlcache("rm", cache, "--cascade", "Droid:2001", "--force").status, .damagedRecord)
        XCTAssertEqual(try bytes(cache), before)
    }

    func testWithNoRootRecordGcRefusesToCallEveryRecordUnreachable() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "QUERY_ROOT", "MUTATION_ROOT").status, .success)
        let before = try bytes(cache)
        let gc = gqlcache("gc", cache, "--all", "--force")
        XCTAssertEqual(gc.status, .usage)
        XCTAssertTrue(gc.stderr.contains("there is no root record (QUERY_ROOT, MUTATION_ROOT, SUBSCRIPTION_ROOT)"), gc.stderr)
        XCTAssertTrue(gc.stderr.hasSuffix("; without --unreachable, 'gqlcache gc --dangling --stray-rows' still runs\n"), gc.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// With MUTATION_ROOT but no QUERY_ROOT (removed by hand), every record
    /// queries wrote counts as unreachable, though the app's next query
    /// writes QUERY_ROOT again and reaches those keyed by id: gc refuses to
    /// take them, and doctor suggests no such repair but says why.
    func testWithoutQueryRootGcRefusesToCallTheQueriesDataUnreachable() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "QUERY_ROOT").status, .success)
        let before = try bytes(cache)
        // Asked with other repairs, the message names those that still run.
        let otherRepairs = [
            ["--unreachable"]: "", ["--all"]: "; without --unreachable, 'gqlcache gc --dangling --stray-rows' still runs",
            ["--all", "--dry-run"]: "; without --unreachable, 'gqlcache gc --dangling --stray-rows' still runs",
            ["--unreachable", "--dangling"]: "; without --unreachable, 'gqlcache gc --dangling' still runs",
        ]
        for (arguments, otherRepair) in otherRepairs {
            let gc = gqlcache(arguments: ["gc", cache, "--force"] + arguments)
            XCTAssertEqual(gc.status, .usage, "\(arguments)")
            XCTAssertEqual(gc.stderr, "gqlcache: \(cache): there is no QUERY_ROOT record, where every query's data starts, so the 7 records "
                + "queries wrote would count as unreachable, though the app's next query writes QUERY_ROOT again and reaches those keyed by id; "
                + "nothing was changed. To remove them anyway use 'gqlcache rm' (by key, --match or --type) or 'gqlcache clear'\(otherRepair)\n")
        }
        XCTAssertEqual(try bytes(cache), before)
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        XCTAssertTrue(doctor.stdout.contains("  reachability: 7 records not reached from MUTATION_ROOT (there is no QUERY_ROOT, where every query's data starts)\n"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.hasSuffix("no repair for the unreachable records: without QUERY_ROOT they are what queries wrote, which the app's "
            + "next query writes QUERY_ROOT again to reach (those keyed by id); gc --unreachable refuses them\n"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("repair with:"), doctor.stdout)
        // Dangling references alone are still repaired.
        XCTAssertEqual(gqlcache("gc", cache, "--dangling", "--force").status, .success)
    }

    func testGcAsksOnATerminalAndNeedsForceOtherwise() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000").status, .success)
        let before = try bytes(cache)
        let unasked = gqlcache("gc", cache, "--all")
        XCTAssertEqual(unasked.status, .usage)
        XCTAssertTrue(unasked.stderr.contains("gc changes records without asking only with --force"), unasked.stderr)
        let declined = gqlcache("gc", cache, "--all", answers: ["n"])
        XCTAssertEqual(declined.status, .notFound)
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertTrue(declined.stderr.hasPrefix("remove 1 record (Starship:3001) and drop 4 references ("), declined.stderr)
        XCTAssertTrue(declined.stderr.contains(" in \(cache)? [y/N]"), declined.stderr)
        let withVacuum = gqlcache("gc", cache, "--all", "--vacuum", answers: ["n"])
        XCTAssertEqual(withVacuum.status, .notFound)
        XCTAssertTrue(withVacuum.stderr.contains(" in \(cache), then VACUUM it? "), withVacuum.stderr)
        XCTAssertEqual(try bytes(cache), before)
        let confirmed = gqlcache("gc", cache, "--all", answers: ["y"])
        XCTAssertEqual(confirmed.status, .success)
        XCTAssertTrue(confirmed.stdout.contains("removed 1 unreachable record"), confirmed.stdout)
    }
    func testAnObjectWithAReferenceBesideOtherMembersIsAReferenceAsApolloReadsIt() throws {
        // Apollo reads any inline object with a string $reference back as a reference.
        let cache = try makeCache("mixed.sqlite", [
            Record(key: "QUERY_ROOT", fields: ["hero": .reference("Human:1")]),
            Record(key: "Human:1", fields: [
                "__typename": .string("Human"),
                "ship": .object(["$reference": .string("Ship:1"), "note": .int(1)]),
                "lost": .object(["$reference": .string("Gone:1"), "note": .int(2)]),
            ]),
            Record(key: "Ship:1", fields: ["__typename": .string("Ship"), "name": .string("Falcon")]),
        ])
        let planned = gqlcache("gc", cache, "--all", "--dry-run")
        XCTAssertEqual(planned.status, .success, planned.stderr)
        XCTAssertFalse(planned.stdout.contains("Ship:1"), "reached through the object: \(planned.stdout)")
        XCTAssertTrue(planned.stdout.contains("Human:1 lost → Gone:1"), planned.stdout)
        let read = gqlcache("read", cache, "--text", "fragment S on Human { ship { name } }", "--fragment", "S", "--key", "Human:1", "--format", "json")
        XCTAssertEqual(read.status, .success, read.stderr)
        XCTAssertEqual(read.stdout, #"{"ship":{"name":"Falcon"}}"# + "\n")
        XCTAssertEqual(gqlcache("gc", cache, "--all", "--force").status, .success)
        XCTAssertEqual(try keys(in: cache), ["Human:1", "QUERY_ROOT", "Ship:1"])
        let human = try records(cache)["Human:1"]
        XCTAssertNil(human?["lost"], "the dangling one is dropped")
        XCTAssertEqual(human?["ship"], .object(["$reference": .string("Ship:1"), "note": .int(1)]), "the other is kept as written")
    }

    /// Garbage the app made while the question waited is not collected
    /// unseen: gc changes what a person agreed to, or nothing.
    func testGarbageThatChangedWhileAskingIsNotCollected() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('Old:1', '{}')")
        let changed = gqlcache(arguments: ["gc", cache, "--unreachable"], answeringYesAfter: {
            _ = try? sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('New:1', '{}')")
        })
        XCTAssertEqual(changed.status, .busy)
        XCTAssertTrue(changed.stderr.hasSuffix(
            "gqlcache: the garbage in \(cache) changed while you were asked: another process wrote the file; nothing changed; run gc again\n"),
            changed.stderr)
        XCTAssertTrue(try keys(in: cache).contains("Old:1"))
        let unchanged = gqlcache("gc", cache, "--unreachable", answers: ["y"])
        XCTAssertEqual(unchanged.status, .success, unchanged.stderr)
        XCTAssertFalse(try keys(in: cache).contains("New:1"))
    }
}
