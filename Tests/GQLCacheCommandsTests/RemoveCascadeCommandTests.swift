import CacheStore
import Foundation
import GQLCacheCommands
import XCTest

/// `rm --cascade`, `rm --type` and `--clean-references`.
final class RemoveCascadeCommandTests: CommandTestCase {
    func testCascadeTakesWhatOnlyTheKeyReachesAndNeverWhatARootStillReaches() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let planned = gqlcache("rm", cache, "--cascade", "Droid:2001", "--dry-run")
        XCTAssertEqual(planned.status, .success, planned.stderr)
        // Human:1000 stays: QUERY_ROOT's human(id:1000) still reaches it.
        XCTAssertEqual(planned.stdout, """
            would remove Droid:2001
            would remove Droid:2001.friendsConnection(after:null,first:2)
            would remove Human:1002
            would remove 3 records, leaving 2 references dangling:
              QUERY_ROOT hero(episode:NEWHOPE) → Droid:2001
              QUERY_ROOT search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])[1][0] → Droid:2001

            """)
        XCTAssertEqual(try bytes(cache), before)
        let done = gqlcache("rm", cache, "--cascade", "Droid:2001", "--force")
        XCTAssertEqual(done.status, .success, done.stderr)
        XCTAssertEqual(done.stdout, planned.stdout.replacingOccurrences(of: "would remove", with: "removed")
            .replacingOccurrences(of: ", leaving 2 references dangling", with: "; left 2 references dangling"))
        XCTAssertEqual(try keys(in: cache).count, 7)
        XCTAssertTrue(try keys(in: cache).contains("Human:1000"))
    }

    func testCascadeWithCleanReferencesLeavesADoctorCleanCache() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--cascade", "QUERY_ROOT.reviews(episode:JEDI,first:2).0", "--clean-references", "--force")
        XCTAssertEqual(result.stdout, """
            removed QUERY_ROOT.reviews(episode:JEDI,first:2).0
            removed 1 record and dropped 1 reference to it:
              QUERY_ROOT reviews(episode:JEDI,first:2)[0] → QUERY_ROOT.reviews(episode:JEDI,first:2).0 (list element)

            """)
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["reviews(episode:JEDI,first:2)"],
                       .list([.reference("QUERY_ROOT.reviews(episode:JEDI,first:2).1")]))
        XCTAssertEqual(gqlcache("doctor", cache).status, .success)
    }

    /// A key holding a NUL (written by other code) is listed and removed as
    /// itself, never as the shorter key before its NUL.
    func testAKeyWithANULIsMatchedAndRemovedWhole() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [cache, #"INSERT INTO records(key, record) VALUES ('Zed', '{"n":1}'), ('Zed' || char(0) || 'Gone', '{"n":2}')"#]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(gqlcache("keys", cache, "Zed", "--format", "jsonl").lines, [#""Zed""#, #""Zed\u0000Gone""#])
        // SQLite's LIKE reads the key up to its NUL: 'Zed' matches both keys, and both go.
        let removed = gqlcache("rm", cache, "--match", "Zed", "--clean-references", "--force")
        XCTAssertEqual(removed.status, .success, removed.stderr)
        XCTAssertEqual(gqlcache("keys", cache, "Zed", "--format", "jsonl").lines, [])
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n")
    }

    func testCascadeAsksOnATerminalAndNeedsForceOtherwise() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let refused = gqlcache("rm", cache, "--cascade", "Droid:2001")
        XCTAssertEqual(refused.status, .usage)
        XCTAssertEqual(refused.stderr,
                       "gqlcache: rm --cascade removes records without asking only with --force (standard input is not a terminal); nothing removed\n")
        let declined = gqlcache("rm", cache, "--cascade", "Droid:2001", answers: ["n"])
        XCTAssertEqual(declined.status, .notFound)
        XCTAssertTrue(declined.stderr.hasPrefix(
            "remove 3 records from \(cache) (Droid:2001, Droid:2001.friendsConnection(after:null,first:2), Human:1002)? [y/N] "), declined.stderr)
        XCTAssertEqual(try keys(in: cache).count, 10)
        XCTAssertEqual(gqlcache("rm", cache, "--cascade", "Droid:2001", answers: ["y"]).status, .success)
        XCTAssertEqual(try keys(in: cache).count, 7)
    }

    func testCascadeFromAMissingKeySuggestsTheNearestAndRemovesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--cascade", "droid:2001", "--force")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record 'droid:2001' in \(cache); nearest keys: Droid:2001\n")
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    func testTypeRemovesEveryRecordOfThatTypenameAndReportsWhatDangles() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--type", "Human", "--force", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(document["keys"] as? [String], ["Human:1000", "Human:1002"])
        XCTAssertEqual(document["danglingReferences"] as? Int, 5)
        XCTAssertNil(document["cleaned"])
        XCTAssertEqual(try keys(in: cache).filter { $0.hasPrefix("Human:") }, [])
        let doctor = gqlcache("doctor", cache, "--format", "json")
        let problems = try XCTUnwrap((try doctor.json() as? [String: Any])?["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.filter { $0["kind"] as? String == "dangling" }.count, 5)
        XCTAssertEqual(problems.compactMap { $0["key"] as? String }, ["Starship:3001"], "Human:1000 held Starship:3001's only reference")
    }

    func testTypeWarnsThatDamagedRecordsWhoseTypenameCannotBeReadAreLeft() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, "INSERT INTO records (key, record) VALUES ('Human:9', '{\"__typename\":\"Human\",'), ('Human:10', NULL)")
        let result = gqlcache("rm", cache, "--type", "Human", "--force")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, """
            gqlcache: warning: 2 damaged records in \(cache) have no readable __typename and are left as they are: \
            Human:9, Human:10 (gqlcache doctor lists them; remove them by key)

            """)
        XCTAssertEqual(try keys(in: cache).filter { $0.hasPrefix("Human:") }, ["Human:10", "Human:9"])
        // A dry run says the same, in words that fit one: nothing was done.
        let dryRun = gqlcache("rm", cache, "--type", "Human", "--dry-run")
        XCTAssertTrue(dryRun.stderr.contains("have no readable __typename and are left as they are: Human:9, Human:10"), dryRun.stderr)
        let clean = try copyOfFixture("starwars.sqlite", as: "clean.sqlite")
        XCTAssertEqual(gqlcache("rm", clean, "--type", "Human", "--force").stderr, "", "no warning without damaged records")
    }

    func testARepeatedTypeRemovesTheRecordsOfEveryTypeNamed() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--type", "Human", "--type", "Starship", "--type", "Wookiee", "--force", "--format", "json")
        XCTAssertEqual(result.status, .notFound, "Wookiee has no record")
        XCTAssertEqual(result.stderr, "gqlcache: no record has __typename 'Wookiee' in \(cache); the file's typenames: Droid, FriendsConnection, Review\n")
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(document["keys"] as? [String], ["Human:1000", "Human:1002", "Starship:3001"])
        XCTAssertEqual(try keys(in: cache).filter { $0.hasPrefix("Human:") || $0.hasPrefix("Starship:") }, [])
        XCTAssertEqual(try keys(in: cache).count, 7)
    }

    func testTypeWithCleanReferencesDropsTheFieldsAndElementsThatPointedAtThem() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let planned = gqlcache("rm", cache, "--type", "Human", "--clean-references", "--dry-run")
        XCTAssertEqual(planned.stdout, """
            would remove Human:1000
            would remove Human:1002
            would remove 2 records and would drop 5 references to them:
              Droid:2001 friends[0] → Human:1000 (list element)
              Droid:2001 friends[1] → Human:1002 (list element)
              Droid:2001.friendsConnection(after:null,first:2) friends[0] → Human:1000 (list element)
              QUERY_ROOT human(id:1000) → Human:1000 (field)
              QUERY_ROOT search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])[0][0] → Human:1000 (list element)

            """)
        let done = gqlcache("rm", cache, "--type", "Human", "--clean-references", "--force", "--format", "jsonl")
        XCTAssertEqual(done.status, .success, done.stderr)
        XCTAssertEqual(done.lines.first, #"{"type":"key","key":"Human:1000"}"#)
        XCTAssertTrue(done.lines.contains(
            #"{"type":"cleaned","key":"QUERY_ROOT","field":"human(id:1000)","path":[],"to":"Human:1000","dropped":"field"}"#), done.stdout)
        XCTAssertEqual(done.lines.last, #"{"type":"summary","dryRun":false,"removed":2,"danglingReferences":0}"#)
        XCTAssertEqual(try records(cache)["Droid:2001"]?["friends"], .list([.null]))
        let gc = gqlcache("gc", cache, "--dangling", "--dry-run")
        XCTAssertEqual(gc.stdout, "nothing to collect in 8 records\n")
    }

    /// Another program may write a key as a BLOB. Apollo's lookups, by
    /// text, never find that row: it is no record to list, count, remove
    /// by type, search, export, compare or refer to, and doctor names it.
    func testARowWhoseKeyIsABlobIsNoRecordForAnyCommand() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            UPDATE records SET record = json_set(record, '$.pilot', json('{"$reference":"Wookiee:1"}')) WHERE key = 'Droid:2001';
            """)
        let withoutTheRow = path("without-the-row.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: withoutTheRow)
        _ = try sqliteShell(cache, """
            INSERT INTO records (key, record) VALUES (CAST('Wookiee:1' AS BLOB), '{"__typename":"Wookiee","name":"Chewie"}');
            """)
        let removal = gqlcache("rm", cache, "--type", "Wookiee", "--force")
        XCTAssertEqual(removal.status, .notFound, removal.stdout)
        XCTAssertEqual(removal.stderr, "gqlcache: no record has __typename 'Wookiee' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship\n")
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records WHERE typeof(key) = 'blob'"), "1", "the row is still there")
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n")
        for mode in ["apollo", "literal", "glob", "regex"] {
            let pattern = mode == "glob" ? "Wookiee*" : "Wookiee"
            XCTAssertEqual(gqlcache("keys", cache, pattern, "--mode", mode).status, .notFound, mode)
        }
        XCTAssertEqual(gqlcache("keys", cache, "W", "--mode", "prefix").status, .notFound)
        let show = gqlcache("show", cache, "Wookiee:1")
        XCTAssertEqual(show.status, .notFound)
        let named = "gqlcache: no record 'Wookiee:1' in \(cache): row _id 11 has that key as a BLOB, which Apollo never finds; "
            + "'gqlcache gc \(cache) --stray-rows' deletes it\n"
        XCTAssertEqual(show.stderr, named)
        XCTAssertEqual(gqlcache("rm", cache, "Wookiee:1").stderr, named)
        XCTAssertEqual(gqlcache("grep", cache, "Chewie").status, .notFound)
        let export = gqlcache("export", cache)
        XCTAssertEqual(export.status, .success)
        XCTAssertEqual(export.stdout.split(separator: "\n").count, 10)
        XCTAssertFalse(export.stdout.contains("Chewie"), "an import would merge it into a record Apollo reads")
        let notText = "1 row of \(cache) has no UTF-8 text key (NULL, a BLOB or other bytes), which Apollo never reads"
        XCTAssertEqual(
            export.stderr, "gqlcache: warning: 1 row of \(cache) has no UTF-8 text key (NULL, a BLOB or other bytes), which Apollo never reads; "
                + "not exported (gqlcache doctor lists them)\n")
        let diff = gqlcache("diff", withoutTheRow, cache)
        XCTAssertEqual(diff.status, .success, "the same records, as Apollo reads them")
        XCTAssertEqual(diff.stderr, "gqlcache: warning: \(notText); not compared (gqlcache doctor lists them)\n")
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        XCTAssertTrue(doctor.stdout.contains("""
            rows whose key is a BLOB or not UTF-8 text, which Apollo never finds (1)
              _id 11: Wookiee:1
            dangling references (1)
              Droid:2001 pilot → Wookiee:1

            """), doctor.stdout)
    }

    /// A key that is text but not UTF-8 is listed with U+FFFD for its bad
    /// bytes, and the key listed finds nothing: a miss on it names the
    /// row, its bytes and the repair, as for a BLOB key.
    func testAMissOnAKeyListedFromBytesThatAreNotUTF8NamesTheRow() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            INSERT INTO records (key, record) VALUES (CAST(X'583A31FF' AS TEXT), '{"__typename":"X"}');
            INSERT INTO records (key, record) VALUES ('X:1', '{"__typename":"X"}');
            """)
        let listed = gqlcache("keys", cache, "X:*", "--mode", "glob")
        XCTAssertEqual(listed.lines, ["X:1", "X:1\u{FFFD}"])
        let named = "gqlcache: no record 'X:1\u{FFFD}' in \(cache): row _id 11 has a key that is not UTF-8 (X'583A31FF'), "
            + "listed with U+FFFD for its bad bytes, which Apollo never finds; 'gqlcache gc \(cache) --stray-rows' deletes it\n"
        let show = gqlcache("show", cache, "X:1\u{FFFD}")
        XCTAssertEqual(show.status, .notFound)
        XCTAssertEqual(show.stderr, named)
        XCTAssertEqual(gqlcache("rm", cache, "X:1\u{FFFD}", "--force").stderr, named)
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records WHERE key >= 'X:'"), "2", "nothing removed")
        // A key that merely holds U+FFFD is not that row.
        XCTAssertEqual(gqlcache("show", cache, "X:\u{FFFD}").stderr.contains("not UTF-8"), false)
        let moved = gqlcache("repl", cache, "-c", "cd X:1\u{FFFD}")
        XCTAssertTrue(moved.stderr.contains("row _id 11 has a key that is not UTF-8 (X'583A31FF')"), moved.stderr)
    }

    func testTypeThatNoRecordHasIsNotFound() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--type", "Wookiee", "--force")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record has __typename 'Wookiee' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship\n")
        XCTAssertEqual(result.stdout, "", "the error says it all, as for rm --match")
        let json = gqlcache("rm", cache, "--type", "Wookiee", "--force", "--format", "json")
        XCTAssertEqual(json.status, .notFound)
        XCTAssertEqual((try json.json() as? [String: Any])?["removed"] as? Int, 0, "scripts still get their document")
    }

    /// Beside a type that has records, one that has none is still named,
    /// with exit status 1, as rm names a key that has no record beside
    /// keys that it removes.
    func testATypeNoRecordHasIsNamedBesideOneThatHasRecords() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--type", "Starship", "--type", "Humen", "--force")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record has __typename 'Humen' in \(cache); nearest typenames: Human\n")
        XCTAssertTrue(result.stdout.hasPrefix("removed 1 record"), result.stdout)
        XCTAssertEqual(try keys(in: cache).filter { $0.hasPrefix("Starship") }, [])
        let dryRun = gqlcache("rm", cache, "--type", "Droid", "--type", "Ewok", "--dry-run")
        XCTAssertEqual(dryRun.status, .notFound)
        XCTAssertEqual(dryRun.stderr, "gqlcache: no record has __typename 'Ewok' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review\n")
    }

    func testCleanReferencesAlsoWorksForPlainKeysAndPatterns() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let keys = gqlcache("rm", cache, "Human:1002", "--clean-references")
        XCTAssertEqual(keys.stdout, """
            removed Human:1002
            removed 1 record and dropped 1 reference to it:
              Droid:2001 friends[1] → Human:1002 (list element)

            """)
        let pattern = gqlcache("rm", cache, "--match", "Starship", "--clean-references", "--force")
        XCTAssertEqual(pattern.stdout, """
            removed 1 record and dropped 1 reference to it:
              Human:1000 starships[0] → Starship:3001 (list element)

            """)
        XCTAssertEqual(gqlcache("doctor", cache).status, .success)
    }

    func testConflictingSelectionsAreUsageErrors() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "--type", "Human", "Human:1000").status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "--type", "Human", "--match", "x").status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "--type", "").status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "--cascade").status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "--cascade", "--match", "Human").status, .usage)
        XCTAssertEqual(try keys(in: cache).count, 10)
    }
}
