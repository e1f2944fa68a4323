import CacheStore
import Foundation
@testable import GQLCacheCommands
import XCTest

/// `doctor` finds exactly the problems planted in copies of the fixtures,
/// changes nothing, and says so in its exit status.
final class DoctorCommandTests: CommandTestCase {
    /// Changes a cache through the store, as a test's way to plant problems.
    func plant(_ cache: String, _ body: (ReadWriteTransaction) throws -> Void) throws {
        try CacheStore.open(at: cache, access: .readWrite).write(body)
    }

    func sqlite(_ cache: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [cache, sql]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    /// The `problems` of doctor's JSON, as dictionaries that compare by value.
    func problems(_ result: CommandResult) throws -> [NSDictionary] {
        let document = try XCTUnwrap(try result.json() as? [String: Any])
        return try XCTUnwrap(document["problems"] as? [[String: Any]]).map { NSDictionary(dictionary: $0) }
    }

    func testTheFixtureIsHealthyAndDoctorExitsZero() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, """
            \(cache): no problems in 10 records
              SQLite quick_check: ok
              journal mode: delete (no WAL)
              reachability: every record reached from QUERY_ROOT, MUTATION_ROOT

            """)
        XCTAssertEqual(try bytes(cache), before, "doctor never writes")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["starwars.sqlite"])
    }

    /// doctor runs SQLite's check on a second connection; it waits for the
    /// app's lock as long as the store was told to (`repl --busy-timeout 1`
    /// had it wait 5 seconds, the default, once the file was open).
    func testTheIntegrityCheckWaitsForTheLockAsLongAsItsStore() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let store = try CacheStore.open(at: cache, access: .readOnly, busyTimeout: 1)
        let app = try RunningSQLiteShell.holdingExclusiveLock(on: cache)
        defer { app.finish() }
        XCTAssertThrowsError(try store.healthReport(fullIntegrityCheck: false)) { error in
            XCTAssertTrue("\(error)".contains("(waited 1s)"), "\(error)")
        }
    }

    func testRemovingHuman1002LeavesExactlyOneDanglingReferenceAndExitSeven() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdout, """
            \(cache): 1 problem in 9 records
              SQLite quick_check: ok
              journal mode: delete (no WAL)
              reachability: every record reached from QUERY_ROOT, MUTATION_ROOT
            dangling references (1)
              Droid:2001 friends[1] → Human:1002
            repair with: gqlcache gc \(cache) --dangling (add --dry-run to see each change first)

            """)
        XCTAssertEqual(ExitStatus.problemsFound.rawValue, 7)
    }

    func testDoctorFindsExactlyThePlantedGarbageAndGcRepairsExactlyThat() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        try plant(cache) { tx in
            try tx.unsafeWriteRawRecord(key: "Orphan:1", text: #"{"__typename":"Orphan","next":{"$reference":"Orphan:2"}}"#)
            try tx.unsafeWriteRawRecord(key: "Orphan:2", text: #"{"__typename":"Orphan","back":{"$reference":"Orphan:1"}}"#)
        }
        let found = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(found.status, .problemsFound)
        XCTAssertEqual(try problems(found), [NSDictionary]([
            ["kind": "dangling", "from": "Droid:2001", "field": "friends", "path": [1], "to": "Human:1002"],
            ["kind": "unreachable", "key": "Orphan:1"],
            ["kind": "unreachable", "key": "Orphan:2"],
        ]))

        let before = try bytes(cache)
        let planned = gqlcache("gc", cache, "--all", "--dry-run")
        XCTAssertEqual(planned.status, .success, planned.stderr)
        XCTAssertEqual(planned.stdout, """
            would remove 2 unreachable records:
              Orphan:1
              Orphan:2
            would drop 1 dangling reference:
              Droid:2001 friends[1] → Human:1002 (list element)

            """)
        XCTAssertEqual(try bytes(cache), before, "a dry run changes nothing")

        let done = gqlcache("gc", cache, "--all", "--force")
        XCTAssertEqual(done.status, .success, done.stderr)
        XCTAssertEqual(done.stdout, planned.stdout.replacingOccurrences(of: "would remove", with: "removed")
            .replacingOccurrences(of: "would drop", with: "dropped"))
        XCTAssertEqual(try records(cache)["Droid:2001"]?["friends"], .list([.reference("Human:1000"), .null]))
        XCTAssertNil(try records(cache)["Orphan:1"])

        let after = gqlcache("doctor", cache)
        XCTAssertEqual(after.status, .success, after.stdout)
        XCTAssertTrue(after.stdout.hasPrefix("\(cache): no problems in 9 records\n"), after.stdout)
    }

    /// A record keyed by the empty string, or by a key holding a NUL, is
    /// one that export and import refuse: doctor names it, even when a
    /// reference reaches it, and says how to remove the empty one.
    func testKeysThatExportRefusesAreReportedAsUnusable() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try plant(cache) { tx in
            try tx.unsafeWriteRawRecord(key: "", text: #"{"__typename":"X"}"#)
            try tx.merge([Record(key: .queryRoot, fields: ["empty": .reference("")])])
        }
        try sqlite(cache, "INSERT INTO records (key, record) VALUES ('A' || char(0) || 'B', '{}')")
        let result = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertEqual(try problems(result), [NSDictionary]([
            ["kind": "unreachable", "key": "A\u{0}B"],
            ["kind": "unusableKey", "key": ""],
            ["kind": "unusableKey", "key": "A\u{0}B"],
        ]))
        let text = gqlcache("doctor", cache)
        XCTAssertTrue(text.stdout.contains("""
            keys that no Apollo cache key is (empty, or holding a NUL; export and import refuse them) (2)
              ""
              "A\\u0000B"
            remove the record keyed by the empty string with: gqlcache rm \(cache) --clean-references -- ''

            """), text.stdout)
        XCTAssertEqual(gqlcache("export", cache).status, .damagedRecord, "the refusal doctor warns of")
        // The command given leaves no reference dangling.
        XCTAssertEqual(gqlcache("rm", cache, "--clean-references", "--", "").status, .success)
        XCTAssertEqual(try problems(gqlcache("doctor", cache, "--format", "json")), [NSDictionary]([
            ["kind": "unreachable", "key": "A\u{0}B"], ["kind": "unusableKey", "key": "A\u{0}B"],
        ]))
    }

    func testDamagedRowsCaseDuplicatesAndKeylessRowsAreReportedAndLeftForAPersonToDecide() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try plant(cache) { tx in
            try tx.unsafeWriteRawRecord(key: "Broken:1", text: #"{"name": "x""#)
            try tx.unsafeWriteRawRecord(key: "Null:1", text: nil)
            try tx.unsafeWriteRawRecord(key: "droid:2001", text: #"{"__typename":"Droid"}"#)
            try tx.merge([Record(key: .queryRoot, fields: ["droid(id:2001)": .reference("droid:2001")])])
        }
        try sqlite(cache, "INSERT INTO records (key, record) VALUES (NULL, '{}')")
        let result = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertEqual(try problems(result), [NSDictionary]([
            ["kind": "invalidRecord", "key": "Broken:1", "message": "unterminated object at byte 13"],
            ["kind": "nullRecord", "key": "Null:1"],
            ["kind": "keylessRow", "rowid": 15],
            ["kind": "caseDuplicate", "keys": ["Droid:2001", "droid:2001"]],
        ]))
        let text = gqlcache("doctor", cache)
        XCTAssertTrue(text.stdout.contains("""
            damaged records (2)
              Broken:1: unterminated object at byte 13
              Null:1: its record column is NULL
            rows without a key (1)
              _id 15
            keys differing only by case (1)
              Droid:2001, droid:2001

            """), text.stdout)

        XCTAssertTrue(text.stdout.contains("remove damaged records with: gqlcache rm \(cache) Broken:1 Null:1\n"), text.stdout)

        // Damaged records may hold references nobody can read: gc will not guess what is unreachable.
        let gc = gqlcache("gc", cache, "--all", "--force")
        XCTAssertEqual(gc.status, .damagedRecord)
        XCTAssertTrue(gc.stderr.contains("cannot tell which records are reachable: 2 damaged records ('Broken:1', 'Null:1')"), gc.stderr)
        let dangling = gqlcache("gc", cache, "--dangling", "--force")
        XCTAssertEqual(dangling.stdout, "nothing to collect in 13 records\n")
        XCTAssertEqual(gqlcache("doctor", cache).status, .problemsFound, "gc never removes damaged records")
    }

    /// JSONSerialization refuses a number too large for a Double, and the
    /// whole record with it: Apollo's reads of the record fail. doctor
    /// names it, and the removal that lets the app fetch it again; gc
    /// still knows the record's references.
    func testARecordHoldingANumberTooLargeForADoubleIsOneApolloCannotRead() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqlite(cache, #"UPDATE records SET record = substr(record, 1, length(record) - 1) || ',"mass":[1,{"kg":1e400}]}' WHERE key = 'Droid:2001'"#)
        try sqlite(cache, #"UPDATE records SET record = substr(record, 1, length(record) - 1) || ',"tiny":1e-400,"big":12345678901234567890}' WHERE key = 'Human:1000'"#)
        let result = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertEqual(try problems(result), [NSDictionary]([
            ["kind": "numberApolloCannotRead", "key": "Droid:2001", "field": "mass", "number": "1e400"],
        ]), "1e-400 reads as 0 and a 20-digit integer as a rounded Double: Apollo reads both")
        let text = gqlcache("doctor", cache)
        XCTAssertTrue(text.stdout.contains("""
            records Apollo cannot read (1)
              Droid:2001: field 'mass' holds 1e400, a number too large for a Double, which Apollo's JSON reading refuses with the whole record
            remove records Apollo cannot read with: gqlcache rm \(cache) Droid:2001

            """), text.stdout)
        XCTAssertTrue(text.stdout.contains("reachability: every record reached from QUERY_ROOT, MUTATION_ROOT"), "its references are read: \(text.stdout)")
        XCTAssertEqual(gqlcache("rm", cache, "Droid:2001").status, .success)
        XCTAssertFalse(gqlcache("doctor", cache).stdout.contains("Apollo cannot read"))
    }

    /// Apollo reads `__typename` as `String!` in every generated selection
    /// set: a record whose `__typename` is null, or a list, fails every
    /// read that reaches it. doctor names it, with the removal; its
    /// references still count; a number (read as its digits), a record
    /// with none and a root record are sound; and a write that gives
    /// `__typename` mends it, as the app's next fetch would.
    func testARecordWhoseTypenameApolloCannotReadIsAProblemThatAWriteMends() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqlite(cache, #"UPDATE records SET record = json_set(record, '$.__typename', json('5')) WHERE key = 'Human:1000'"#)
        try sqlite(cache, #"UPDATE records SET record = json_set(record, '$.__typename', json('null')) WHERE key = 'QUERY_ROOT'"#)
        try sqlite(cache, #"UPDATE records SET record = json_remove(record, '$.__typename') WHERE key = 'Starship:3001'"#)
        try sqlite(cache, #"UPDATE records SET record = json_set(record, '$.__typename', json('null')) WHERE key = 'Droid:2001'"#)
        try sqlite(cache, #"UPDATE records SET record = json_set(record, '$.__typename', json('[1,{"a":true}]')) WHERE key = 'Human:1002'"#)
        let result = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertEqual(try problems(result), [NSDictionary]([
            ["kind": "typenameApolloCannotRead", "key": "Droid:2001", "typename": NSNull()],
            ["kind": "typenameApolloCannotRead", "key": "Human:1002", "typename": [1, ["a": true]]],
        ]))
        let text = gqlcache("doctor", cache)
        XCTAssertTrue(text.stdout.contains("""
            records whose __typename is null, a Boolean, a list or an object, which Apollo reads as String!, so every read reaching them fails (2)
              Droid:2001: __typename null
              Human:1002: __typename [1,{"a":true}]
            the app's next fetch of them writes __typename again; or remove them with: gqlcache rm \(cache) Droid:2001 Human:1002

            """), text.stdout)
        XCTAssertTrue(text.stdout.contains("reachability: every record reached from QUERY_ROOT, MUTATION_ROOT"), "its references are read: \(text.stdout)")
        XCTAssertEqual(gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { __typename name } }").status, .damagedRecord)

        let response = path("r.json")
        try #"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"R2-D2"}}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        let write = gqlcache("write", cache, "--text", "{ hero(episode: NEWHOPE) { __typename id name } }", "--response", response, "--key-field", "*=id")
        XCTAssertEqual(write.status, .success, write.stderr)
        let after = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(try problems(after), [NSDictionary]([
            ["kind": "typenameApolloCannotRead", "key": "Human:1002", "typename": [1, ["a": true]]],
        ]), "the write gave Droid:2001 its __typename again")
    }

    /// A trigger on records would run on a write: writing commands refuse
    /// the file, and doctor names the trigger with the sqlite3 line that
    /// drops it; reading commands read the file as it is.
    func testATriggerOnRecordsIsAProblemThatStopsWritesOnly() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqlite(cache, "CREATE TRIGGER wipe AFTER DELETE ON records BEGIN DELETE FROM records; END;")
        let removal = gqlcache("rm", cache, "Human:1002")
        XCTAssertEqual(removal.status, .notACache)
        XCTAssertTrue(removal.stderr.contains("table 'records' has a trigger ('wipe'), which Apollo's table never has"), removal.stderr)
        XCTAssertEqual(try keys(in: cache).count, 10)
        // A dry run still shows the change, and warns that the change itself would be refused.
        let response = path("r.json")
        try #"{"data":{"hero":{"__typename":"Droid","name":"R2"}}}"#.write(toFile: response, atomically: true, encoding: .utf8)
        for arguments in [
            ["rm", cache, "Human:1002", "--dry-run"], ["rm", cache, "--match", "Human", "--dry-run"], ["gc", cache, "--all", "--dry-run"],
            ["clear", cache, "--dry-run"], ["import", cache, "-", "--dry-run"],
            ["write", cache, "--text", "{ hero { name } }", "--response", response, "--dry-run"],
            ["update", cache, "--text", "query Q @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { name } }", "--set", "hero.name=X", "--dry-run"],
        ] {
            let dryRun = gqlcache(arguments: arguments, input: #"{"key":"A:1","record":{"a":1}}"#)
            XCTAssertEqual(dryRun.status, .success, "\(arguments[0]): \(dryRun.stderr)")
            XCTAssertTrue(dryRun.stderr.contains("gqlcache: warning: the change itself would be refused (exit status 3): \(cache): "), dryRun.stderr)
            XCTAssertTrue(dryRun.stderr.contains("has a trigger ('wipe')"), dryRun.stderr)
        }
        XCTAssertEqual(try keys(in: cache).count, 10)
        XCTAssertEqual(gqlcache("export", cache).status, .success)
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        XCTAssertTrue(doctor.stdout.contains("remove the triggers with: sqlite3 \(cache) 'DROP TRIGGER \"wipe\";'\n"), doctor.stdout)
        XCTAssertEqual(try problems(gqlcache("doctor", cache, "--format", "json")), [NSDictionary]([["kind": "trigger", "name": "wipe"]]))
        try sqlite(cache, #"DROP TRIGGER "wipe";"#)
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        XCTAssertEqual(try keys(in: cache).count, 9)
    }

    func testJSONLinesListOneProblemPerLineThenASummary() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        let result = gqlcache("doctor", cache, "--format", "jsonl", "--full")
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertEqual(result.lines, [
            #"{"kind":"dangling","from":"Droid:2001","field":"friends","path":[1],"to":"Human:1002"}"#,
            #"{"kind":"summary","file":"\#(cache)","healthy":false,"records":9,"problemCount":1,"integrityCheck":"integrity_check","journalMode":"delete","roots":["QUERY_ROOT","MUTATION_ROOT"]}"#,
        ])
    }

    func testJSONLinesHoldTheProblemsOfTheJSONFormInItsOrder() throws {
        let cache = try makeCache("mixed.sqlite", [
            Record(key: .queryRoot, fields: ["hero": .reference("Droid:2001"), "gone": .reference("Gone:1")]),
            Record(key: "Droid:2001", fields: ["name": .string("R2-D2")]),
            Record(key: "droid:2001", fields: ["name": .string("lower")]),
            Record(key: "Orphan:\"1\"", fields: ["n": .int(1)]),
            Record(key: "Orphan:2", fields: ["next": .reference("Orphan:\"1\"")]),
        ])
        let lines = gqlcache("doctor", cache, "--format", "jsonl")
        XCTAssertEqual(lines.status, .problemsFound)
        let fromLines = try lines.lines.dropLast().map { try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary) }
        let fromJSON = try problems(gqlcache("doctor", cache, "--format", "json"))
        XCTAssertEqual(fromLines, fromJSON)
        XCTAssertEqual(fromJSON.map { $0["kind"] as? String }, ["dangling", "unreachable", "unreachable", "unreachable", "caseDuplicate"])
    }

    func testWithDamagedRecordsDoctorSaysReachabilityIsNotCertain() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqlite(cache, #"UPDATE records SET record = '{"a":' WHERE key = 'Human:1000'"#)
        let doctor = gqlcache("doctor", cache)
        XCTAssertTrue(doctor.stdout.contains(
            "  reachability: 1 record not reached from QUERY_ROOT, MUTATION_ROOT (not for certain: the references of damaged records cannot be read)\n"),
            doctor.stdout)
    }

    /// A damaged record no root reaches is not reached either: doctor counts
    /// it, as stats' "(no root reaches)" row does, and never says every
    /// record is reached.
    func testDamagedRecordsNoRootReachesCountAsNotReachedAsInStats() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqlite(cache, #"INSERT INTO records (key, record) VALUES ('Orphan:1', '{bad')"#)
        let alone = gqlcache("doctor", cache)
        XCTAssertTrue(alone.stdout.contains(
            "  reachability: 1 damaged record not reached from QUERY_ROOT, MUTATION_ROOT (not for certain: the references of damaged records cannot be read)\n"),
            alone.stdout)
        XCTAssertTrue(gqlcache("stats", cache).stdout.contains("  (no root reaches)                               1"))
        try sqlite(cache, #"INSERT INTO records (key, record) VALUES ('Orphan:2', '{"__typename":"X"}')"#)
        let both = gqlcache("doctor", cache)
        XCTAssertTrue(both.stdout.contains(
            "  reachability: 2 records (1 of them damaged) not reached from QUERY_ROOT, MUTATION_ROOT (not for certain: the references of damaged records cannot be read)\n"),
            both.stdout)
        XCTAssertTrue(both.stdout.contains("unreachable records (1)\n  Orphan:2\n"), "listed once: the damaged one is under damaged records")
    }

    /// The suggested command line works when pasted into a shell.
    func testTheSuggestedRemovalQuotesWhatAShellWouldSplitOrExpand() throws {
        XCTAssertEqual(ShellQuoting.word("Human:1000"), "Human:1000")
        XCTAssertEqual(ShellQuoting.word("QUERY_ROOT.hero(episode:JEDI)"), "'QUERY_ROOT.hero(episode:JEDI)'")
        XCTAssertEqual(ShellQuoting.word("it's *"), #"'it'\''s *'"#)
        XCTAssertEqual(ShellQuoting.word(""), "''")
        let cache = try copyOfFixture("starwars.sqlite")
        try sqlite(cache, "UPDATE records SET record = NULL WHERE key = 'Droid:2001.friendsConnection(after:null,first:2)'")
        XCTAssertTrue(gqlcache("doctor", cache).stdout.contains(
            "remove damaged records with: gqlcache rm \(cache) 'Droid:2001.friendsConnection(after:null,first:2)'\n"))
        // Keys and files that start with '-' are not taken for options.
        try sqlite(cache, "INSERT INTO records(key, record) VALUES ('-dash', 'oops'), ('-x', NULL)")
        let doctor = gqlcache("doctor", cache)
        let suggestion = try XCTUnwrap(doctor.stdout.split(separator: "\n").first { $0.hasPrefix("remove damaged records with: ") })
        XCTAssertEqual(suggestion, "remove damaged records with: gqlcache rm \(cache) -- 'Droid:2001.friendsConnection(after:null,first:2)' -dash -x")
        let removal = gqlcache("rm", cache, "--", "-dash", "Droid:2001.friendsConnection(after:null,first:2)", "-x")
        XCTAssertEqual(removal.status, .success, removal.stderr)
        XCTAssertFalse(gqlcache("doctor", cache).stdout.contains("damaged"), "the suggested command removed every damaged record")
        XCTAssertEqual(ShellQuoting.file("-e.sqlite"), "./-e.sqlite")
        XCTAssertEqual(ShellQuoting.file("/tmp/-e.sqlite"), "/tmp/-e.sqlite")
    }

    /// A key with a line break or a tab goes into ANSI-C quotes, so the
    /// suggested command stays on one line, and bash reads it back as the key.
    func testAKeyWithControlCharactersIsSuggestedOnOneLineInANSICQuotes() throws {
        XCTAssertEqual(ShellQuoting.word("new\nline"), #"$'new\nline'"#)
        let odd = "a\tb'c\\d\u{1}e\u{85}f\u{7F}é"
        let word = ShellQuoting.word(odd)
        XCTAssertEqual(word, #"$'a\tb\'c\\d\x01e\u0085f\x7Fé'"#)
        let bash = try runProgram("/bin/bash", ["-c", "printf %s " + word])
        XCTAssertEqual(bash.stdout, odd, "bash reads the word back as the key")
        let cache = try copyOfFixture("starwars.sqlite")
        try sqlite(cache, "INSERT INTO records(key, record) VALUES ('new' || char(10) || 'line', NULL)")
        let doctor = gqlcache("doctor", cache)
        XCTAssertTrue(doctor.stdout.contains("remove damaged records with: gqlcache rm \(cache) $'new\\nline'\n"), doctor.stdout)
    }

    func testAnEmptyCacheIsHealthyAndHasNothingToCollect() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("clear", cache, "--force").status, .success)
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .success)
        XCTAssertTrue(doctor.stdout.contains("  reachability: no records\n"), doctor.stdout)
        for dryRun in [true, false] {
            let gc = gqlcache(arguments: ["gc", cache, "--all", dryRun ? "--dry-run" : "--force"])
            XCTAssertEqual(gc.status, .success, gc.stderr)
            XCTAssertEqual(gc.stdout, "nothing to collect in 0 records\n")
        }
    }

    func testWithoutARootDoctorSaysNoRecordIsReached() throws {
        let cache = try makeCache("rootless.sqlite", [Record(key: "A:1", fields: ["b": .reference("B:1")]), Record(key: "B:1", fields: ["n": .int(1)])])
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        XCTAssertTrue(
            doctor.stdout.contains("  reachability: no root record (QUERY_ROOT, MUTATION_ROOT, SUBSCRIPTION_ROOT), so no record is reached\n"),
            doctor.stdout)
    }

    /// SQLite's JSON functions and a String column value stop at a NUL; the
    /// decoder reads every byte. Every command must agree that such a
    /// record is damaged.
    func testARecordWithANULAfterItsObjectIsDamagedForEveryCommand() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let cache = path("nul.sqlite")
        try FileManager.default.copyItem(atPath: original, toPath: cache)
        try sqlite(cache, "UPDATE records SET record = record || char(0) || 'x' WHERE key = 'Starship:3001'")
        let damaged = "record 'Starship:3001' is damaged: unexpected text after the record object at byte 98"

        XCTAssertTrue(gqlcache("doctor", cache).stdout.contains("  Starship:3001: unexpected text after the record object at byte 98\n"))
        XCTAssertEqual(gqlcache("info", cache).stderr, "gqlcache: warning: 1 damaged record (NULL, not valid JSON, not a JSON object, or nested too deep): Starship:3001\n")
        let show = gqlcache("show", cache, "Starship:3001")
        XCTAssertEqual(show.status, .damagedRecord)
        let export = gqlcache("export", cache)
        XCTAssertEqual(export.status, .damagedRecord)
        XCTAssertEqual(export.stderr, "gqlcache: \(cache): \(damaged); not exported\n")
        XCTAssertTrue(gqlcache("grep", cache, "X-wing").stderr.contains("gqlcache: \(cache): \(damaged); not searched\n"))
        let diff = gqlcache("diff", original, cache)
        XCTAssertEqual(diff.status, .notFound)
        XCTAssertTrue(diff.stdout.contains("~ Starship:3001 (damaged in the second file: unexpected text after the record object at byte 98)"), diff.stdout)
    }

    /// Foundation's JSON parser, and so Apollo, refuses half a surrogate
    /// pair (`\ud83d` alone); SQLite's json_valid accepts it. Every command
    /// must side with Apollo, and a whole pair stays a character.
    func testARecordHoldingHalfASurrogatePairIsDamagedForEveryCommand() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let cache = path("surrogate.sqlite")
        try FileManager.default.copyItem(atPath: original, toPath: cache)
        try sqlite(cache, #"""
            UPDATE records SET record = replace(record, '"name":"Luke Skywalker"', '"name":"Luke \ud83d"') WHERE key = 'Human:1000';
            UPDATE records SET record = replace(record, '"name":"R2-D2"', '"name":"R2 \ud83d\ude00"') WHERE key = 'Droid:2001';
            """#)
        let problem = #"lone surrogate \ud83d (half of a pair) at byte 133"#

        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        XCTAssertTrue(doctor.stdout.contains("damaged records (1)\n  Human:1000: \(problem)\n"), doctor.stdout)
        XCTAssertEqual(gqlcache("info", cache).stderr, "gqlcache: warning: 1 damaged record (NULL, not valid JSON, not a JSON object, or nested too deep): Human:1000\n")
        XCTAssertEqual(gqlcache("show", cache, "Human:1000").status, .damagedRecord)
        let read = gqlcache("read", cache, "--text", "{ human(id: 1000) { name } }")
        XCTAssertEqual(read.status, .damagedRecord)
        XCTAssertEqual(read.stderr, "gqlcache: cannot read human: record 'Human:1000' is damaged: \(problem)\n")
        let export = gqlcache("export", cache)
        XCTAssertEqual(export.status, .damagedRecord)
        XCTAssertEqual(export.stderr, "gqlcache: \(cache): record 'Human:1000' is damaged: \(problem); not exported\n")
        XCTAssertTrue(
            export.stdout.contains(#"{"key":"Droid:2001","record":{"name":"R2 \ud83d\ude00","#),
            "a whole pair is exported as the file holds it: \(export.stdout)")
        let hero = gqlcache("read", cache, "--text", "{ hero(episode: NEWHOPE) { name } }", "--format", "jsonl")
        XCTAssertEqual(hero.stdout, #"{"hero":{"name":"R2 😀"}}"# + "\n")
        let diff = gqlcache("diff", original, cache)
        XCTAssertTrue(diff.stdout.contains("~ Human:1000 (damaged in the second file: \(problem))"), diff.stdout)
    }

    func testAWALModeFileWithEveryChangeCheckpointedSaysSoAndARollbackJournalFileNamesItsMode() throws {
        let wal = try walCopyOfFixture("starwars.sqlite")
        let walResult = gqlcache("doctor", wal)
        XCTAssertEqual(walResult.status, .success, walResult.stderr)
        XCTAssertTrue(walResult.stdout.contains("\n  WAL: no changes waiting for a checkpoint\n"), walResult.stdout)
        XCTAssertEqual(try XCTUnwrap(try gqlcache("doctor", wal, "--format", "json").json() as? [String: Any])["journalMode"] as? String, "wal")
        let rollback = try copyOfFixture("starwars.sqlite", as: "rollback.sqlite")
        let rollbackResult = gqlcache("doctor", rollback)
        XCTAssertTrue(rollbackResult.stdout.contains("\n  journal mode: delete (no WAL)\n"), rollbackResult.stdout)
        XCTAssertFalse(rollbackResult.stdout.contains("WAL:"), rollbackResult.stdout)
    }

    /// The app keeps the file open and checkpoints in time: changes waiting
    /// in the -wal file are normal then, and said so, not a problem.
    func testChangesInTheWALOfAFileAnotherProcessHasOpenAreNormal() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let app = try RunningSQLiteShell(cache, running: "UPDATE records SET record = json_set(record, '$.name', 'Artoo') WHERE key = 'Droid:2001';")
        defer { app.finish() }
        try waitForWALFrames(cache)
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .success, result.stdout)
        XCTAssertTrue(result.stdout.contains("not checkpointed yet; normal: another process (the app) has the file open"), result.stdout)
        let json = try XCTUnwrap(try gqlcache("doctor", cache, "--format", "json").json() as? [String: Any])
        XCTAssertEqual(json["healthy"] as? Bool, true)
        XCTAssertEqual(json["problemCount"] as? Int, 0)
    }

    /// No process has the file open, yet committed changes wait in the
    /// -wal file: the app did not close it cleanly (it was killed).
    func testChangesLeftInTheWALWithNoProcessHoldingTheFileAreAProblem() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let app = try RunningSQLiteShell(cache, running: "UPDATE records SET record = json_set(record, '$.name', 'Artoo') WHERE key = 'Droid:2001';")
        try waitForWALFrames(cache)
        app.kill()
        let result = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(result.status, .problemsFound)
        let wal = try XCTUnwrap(try problems(result).first)
        XCTAssertEqual(wal["kind"] as? String, "uncheckpointedWAL")
        XCTAssertGreaterThan(wal["frames"] as? Int ?? 0, 0)
        XCTAssertTrue(gqlcache("doctor", cache).stdout.contains("of committed changes in \(cache)-wal ("))
        XCTAssertTrue(gqlcache("doctor", cache).stdout.contains("no process has the file open: it was not closed cleanly"))
        // Through a link, the -wal file named is the one beside the file, where SQLite keeps it.
        let link = path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: cache)
        let linked = gqlcache("doctor", link).stdout
        let real = try XCTUnwrap(realpath(cache, nil).map { pointer in defer { free(pointer) }; return String(cString: pointer) })
        XCTAssertTrue(linked.contains("of committed changes in \(real)-wal ("), linked)
        XCTAssertFalse(linked.contains("\(link)-wal"), linked)
        // Opened and closed once, by sqlite3: SQLite checkpoints.
        _ = try sqliteShell(cache, "SELECT count(*) FROM records")
        XCTAssertEqual(gqlcache("doctor", cache).status, .success)
    }

    /// A command that may write but changes nothing leaves a WAL file as it
    /// found it: with nothing in the -wal to copy in, SQLite's close removes
    /// the side files its open made.
    func testACommandThatChangesNothingLeavesNoSideFilesBesideAWALFile() throws {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let export = gqlcache("export", cache).stdout
        XCTAssertEqual(gqlcache("rm", cache, "Nope:1").status, .notFound)
        XCTAssertEqual(gqlcache(arguments: ["import", cache, "-"], input: export).status, .success)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["starwars.sqlite"])
    }

    /// A -wal file copied beside another cache by mistake: SQLite reads it
    /// as part of the file, which then reads as damaged. Nothing copies it
    /// in (a checkpoint as a writing command's connection closed did, and
    /// wrote the other file's pages over this one's for good): the file
    /// and the -wal stay as they were, the message says what the -wal may
    /// be, and doctor does not advise opening the file to checkpoint.
    func testAWALFileFromAnotherCacheIsNeverCopiedIntoTheFile() throws {
        let source = try walCopyOfFixture("starwars.sqlite")
        let app = try RunningSQLiteShell(source, running: "UPDATE records SET record = json_set(record, '$.name', 'Artoo') WHERE key = 'Droid:2001';")
        try waitForWALFrames(source)
        app.kill()
        let cache = try makeCache("other.sqlite", (1...60).map { Record(key: CacheKey("User:\($0)"), fields: ["name": .string(String(repeating: "u", count: 200))]) })
        try FileManager.default.copyItem(atPath: source + "-wal", toPath: cache + "-wal")
        let (file, wal) = (try bytes(cache), try bytes(cache + "-wal"))
        for arguments in [["rm", cache, "User:1"], ["rm", cache, "Nope:1"], ["clear", cache, "--force"], ["gc", cache, "--all", "--force"],
                          ["write", cache, "--text", "{ a }", "--response", "-"], ["info", cache]] {
            let result = gqlcache(arguments: arguments, input: #"{"data":{"a":1}}"#)
            XCTAssertNotEqual(result.status, .success, "\(arguments)")
            XCTAssertTrue(result.stderr.contains("the -wal file beside it (\(wal.count) bytes) is read as part of it, so if it came from another cache, "
                + "move it away (it was left as it is)"), result.stderr)
            XCTAssertEqual(try bytes(cache), file, "\(arguments)")
            XCTAssertEqual(try bytes(cache + "-wal"), wal, "\(arguments)")
        }
        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        XCTAssertTrue(doctor.stdout.contains("the file reads as damaged with the -wal file beside it: if that came from another cache, move it away"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("to checkpoint"), doctor.stdout)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: cache + suffix) }
        XCTAssertEqual(try keys(in: cache).count, 60, "whole once the -wal is moved away")
    }

    /// A -wal file from another cache can leave every page sound and only
    /// the key index at odds with the table: quick_check passes, and a
    /// checkpoint (open it with the app or sqlite3, as doctor advises for
    /// changes left behind) would copy it in for good. With such changes
    /// waiting and no process to explain them, doctor runs integrity_check.
    func testChangesLeftInTheWALAreCheckedInFullBeforeACheckpointIsAdvised() throws {
        let (cache, blog) = try starWarsBesideTheBlogsWAL()
        let (file, wal) = (try bytes(cache), try bytes(cache + "-wal"))

        let doctor = gqlcache("doctor", cache)
        XCTAssertEqual(doctor.status, .problemsFound)
        let found = ["  SQLite integrity_check: 11 problems (listed below)\n", "row 1 missing from index sqlite_autoindex_records_1",
                     "if that came from another cache, move it away"]
        XCTAssertEqual(found.filter { !doctor.stdout.contains($0) }, [], doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("to checkpoint"), doctor.stdout)
        // Also while another process has the file open: not called normal.
        let reader = try RunningSQLiteShell(cache, running: "SELECT count(*) FROM records; SELECT 'open';", until: "open")
        let whileOpen = gqlcache("doctor", cache)
        reader.kill()
        XCTAssertEqual(whileOpen.status, .problemsFound)
        XCTAssertTrue(whileOpen.stdout.contains("  SQLite integrity_check: 11 problems (listed below)\n"), whileOpen.stdout)
        XCTAssertTrue(whileOpen.stdout.contains("the file reads as damaged with them"), whileOpen.stdout)
        XCTAssertFalse(whileOpen.stdout.contains("normal"), whileOpen.stdout)
        // The -wal file may be the app's: nothing is moved before it quits.
        XCTAssertTrue(whileOpen.stdout.contains("another process (the app) has the file open: quit it before moving or deleting either file"),
                      whileOpen.stdout)
        XCTAssertFalse(whileOpen.stdout.contains("move it away"), whileOpen.stdout)
        XCTAssertEqual(try bytes(cache), file)
        XCTAssertEqual(try bytes(cache + "-wal"), wal)
        // The -wal file's own cache: the same check, which finds it whole.
        let own = gqlcache("doctor", blog)
        XCTAssertTrue(own.stdout.contains("  SQLite integrity_check: ok\n"), own.stdout)
        XCTAssertTrue(own.stdout.contains("open it once with the app or sqlite3 to checkpoint"), own.stdout)
    }

    /// The same -wal file before a write: SQLite would write on pages it
    /// reads from it, and the checkpoint as the file closes would copy it
    /// in for good, after which nothing could tell it was not the file's
    /// own. Every command that writes checks such changes in full first,
    /// and refuses the file, leaving it and the -wal file as they are.
    func testAWriteToAFileWithAnotherCachesWALIsRefusedAndLeavesBothAsTheyAre() throws {
        let (cache, blog) = try starWarsBesideTheBlogsWAL()
        let (file, wal) = (try bytes(cache), try bytes(cache + "-wal"))
        for arguments in [["import", cache, "-"], ["rm", cache, "Droid:2001"], ["clear", cache, "--force"], ["gc", cache, "--vacuum"],
                          ["write", cache, "--text", "{ a }", "--response", "-"]] {
            let input = arguments[0] == "import" ? #"{"key":"New:1","record":{"__typename":"New"}}"# : #"{"data":{"a":1}}"#
            let result = gqlcache(arguments: arguments, input: input)
            XCTAssertEqual(result.status, .io, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(cache): the database file is corrupt (SQLite: integrity_check: row 1 missing from index "),
                          result.stderr)
            XCTAssertTrue(result.stderr.hasSuffix("the -wal file beside it (\(wal.count) bytes) is read as part of it, so if it came from another cache, "
                + "move it away (it was left as it is))\n"), result.stderr)
            XCTAssertEqual(try bytes(cache), file, "\(arguments)")
            XCTAssertEqual(try bytes(cache + "-wal"), wal, "\(arguments)")
        }
        // Also while another process has the file open (here a reader, which
        // may close first and leave the last close, and its checkpoint, to the write).
        let reader = try RunningSQLiteShell(cache, running: "SELECT count(*) FROM records; SELECT 'open';", until: "open")
        let whileOpen = gqlcache("rm", cache, "Droid:2001")
        reader.kill()
        XCTAssertEqual(whileOpen.status, .io, whileOpen.stderr)
        XCTAssertEqual(try bytes(cache), file)
        XCTAssertEqual(try bytes(cache + "-wal"), wal)
        // Its own -wal file, checked the same way, is found whole: the write goes on.
        XCTAssertEqual(gqlcache("rm", blog, "Post:99").status, .success)
        XCTAssertFalse(try keys(in: blog).contains("Post:99"))
    }

    /// A WAL copy of the Star Wars cache, with the -wal file of the blog
    /// example's beside it, holding a change an app killed left there.
    private func starWarsBesideTheBlogsWAL() throws -> (cache: String, blog: String) {
        let cache = try walCopyOfFixture("starwars.sqlite")
        let blog = path("blog.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: blog)
        _ = try sqliteShell(blog, "PRAGMA journal_mode=WAL;")
        let app = try RunningSQLiteShell(blog, running: #"INSERT INTO records(key, record) VALUES ('Post:99', '{"__typename":"Post"}');"#)
        try waitForWALFrames(blog)
        app.kill()
        try FileManager.default.copyItem(atPath: blog + "-wal", toPath: cache + "-wal")
        return (cache, blog)
    }

    /// An interrupted write leaves a hot -journal, which SQLite rolls back
    /// at the first read by a connection that may write. One copied beside
    /// another cache would write that cache's pages over this one's: it
    /// is refused, and both files are left as they are; the cache's own is
    /// rolled back and the write goes on, as before.
    func testAHotJournalFromAnotherCacheIsRefusedAndTheCachesOwnIsRolledBack() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try leaveHotJournal(on: cache)
        let other = try makeCache("other.sqlite", (1...40).map { Record(key: CacheKey("User:\($0)"), fields: ["name": .string("u")]) })
        try FileManager.default.copyItem(atPath: cache + "-journal", toPath: other + "-journal")
        let (file, journal) = (try bytes(other), try bytes(other + "-journal"))
        for arguments in [["rm", other, "User:1"], ["info", other], ["doctor", other]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .io, "\(arguments)")
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(other): the -journal file beside it, which SQLite would roll back into it, is not this file's (its copy of the first page has change counter "), result.stderr)
            XCTAssertTrue(result.stderr.hasSuffix("move it away (it was left as it is)\n"), result.stderr)
            XCTAssertEqual(try bytes(other), file)
            XCTAssertEqual(try bytes(other + "-journal"), journal)
        }
        let own = gqlcache("rm", cache, "Human:1002")
        XCTAssertEqual(own.status, .success, own.stderr)
        XCTAssertEqual(try keys(in: cache).count, 9)
        XCTAssertNil(try records(cache)["Droid:2001"]?["pad"], "rolled back")
        XCTAssertEqual(try sqliteShell(cache, "PRAGMA integrity_check"), "ok")
    }

    /// A hot journal copied from another cache whose first page matches
    /// (two caches of one app, their change counters alike) cannot be told
    /// apart before SQLite rolls it back; the file is checked after, and
    /// the damage is said, not written over with a report of success.
    func testAFileDamagedByRollingBackAnotherCachesJournalIsNotWrittenTo() throws {
        let source = try copyOfFixture("starwars.sqlite", as: "source.sqlite")
        try leaveHotJournal(on: source)
        // The same fixture, one transaction on: its counter is the journal's copy's plus one.
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
            + #"INSERT INTO records(key, record) SELECT 'U:' || i, '{"n":' || i || '}' FROM n"#)
        try FileManager.default.copyItem(atPath: source + "-journal", toPath: cache + "-journal")
        let result = gqlcache("rm", cache, "Human:1002")
        XCTAssertEqual(result.status, .io)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(cache): SQLite rolled back the -journal file beside it (an interrupted write's), "
            + "and the file is now damaged (integrity_check: "), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("the journal may have come from another cache; nothing more was written ('gqlcache doctor --full' says more)\n"))
        XCTAssertEqual(try sqliteShell(cache, "SELECT count(*) FROM records NOT INDEXED WHERE key = 'Human:1002'"), "1", "not removed")
    }

    /// A hot journal copied from another cache with the same change
    /// counter: the file's first page is then the journal's copy of it, if
    /// the journal is the file's. Here it is not (the other cache grew by
    /// more pages), and the journal is refused.
    func testAHotJournalFromAnotherCacheWithTheSameChangeCounterIsRefused() throws {
        let source = try copyOfFixture("starwars.sqlite", as: "source.sqlite")
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(source, #"INSERT INTO records(key, record) VALUES ('U:1', '{"n":1}')"#)
        try sqliteShell(cache, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
            + #"INSERT INTO records(key, record) SELECT 'U:' || i, '{"n":' || i || '}' FROM n"#)
        try leaveHotJournal(on: source)
        try assertJournal(of: source, isRefusedBeside: cache, because: "its copy of the first page has the file's change counter, ")
    }

    /// A journal with no copy of the first page (its transaction changed
    /// pages in place, allocating none) belongs to a file of the page
    /// count its header gives: one copied beside a file of another is
    /// refused; the file's own is rolled back.
    func testAHotJournalWithoutTheFirstPageIsRefusedBesideAFileOfAnotherSize() throws {
        let source = try copyOfFixture("starwars.sqlite", as: "source.sqlite")
        try sqliteShell(source, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) "
            + #"INSERT INTO records(key, record) SELECT 'U:' || i, '{"n":' || i || '}' FROM n"#)
        try leaveHotJournal(on: source, changing: "UPDATE records SET record = upper(record)")
        let journal = try bytes(source + "-journal")
        // Its records, each a page number, the page and a checksum, start after the header's sector.
        let sector = journal[20..<24].reduce(0) { $0 << 8 | Int($1) }
        XCTAssertFalse(stride(from: sector, to: journal.count - 4, by: 4096 + 8).contains { journal[$0..<$0 + 4] == Data([0, 0, 0, 1]) },
                       "the journal holds no copy of the first page")
        let cache = try copyOfFixture("starwars.sqlite")
        try assertJournal(of: source, isRefusedBeside: cache, because: "it was written for a file of ")
        let own = gqlcache("rm", source, "U:1")
        XCTAssertEqual(own.status, .success, own.stderr)
        XCTAssertEqual(try sqliteShell(source, "PRAGMA integrity_check"), "ok")
        XCTAssertEqual(try sqliteShell(source, "SELECT record FROM records WHERE key = 'Human:1002'"),
                       try sqliteShell(cache, "SELECT record FROM records WHERE key = 'Human:1002'"), "rolled back")
    }

    /// `source`'s hot journal, copied beside `cache`, is refused by a
    /// command that writes, for `reason` (its start), and `cache` left as it was.
    private func assertJournal(of source: String, isRefusedBeside cache: String, because reason: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        try FileManager.default.copyItem(atPath: source + "-journal", toPath: cache + "-journal")
        let before = try bytes(cache)
        let result = gqlcache("rm", cache, "Human:1002")
        XCTAssertEqual(result.status, .io, file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(cache): the -journal file beside it, which SQLite would roll back into it, is not this file's "
            + "(\(reason)"), result.stderr, file: file, line: line)
        XCTAssertEqual(try bytes(cache), before, file: file, line: line)
    }

    /// A write to `cache` killed half-way, its pages spilled into the file:
    /// the hot -journal an app that crashed leaves beside it.
    private func leaveHotJournal(
        on cache: String, changing change: String = "UPDATE records SET record = json_set(record, '$.pad', hex(randomblob(3000)))"
    ) throws {
        let app = try RunningSQLiteShell(cache, running: "PRAGMA cache_size = 1; BEGIN; \(change); SELECT 'spilled';")
        let deadline = Date().addingTimeInterval(10)
        while ((try? FileManager.default.attributesOfItem(atPath: cache + "-journal")[.size] as? Int) ?? 0) < 8_192, Date() < deadline {
            usleep(10_000)
        }
        usleep(200_000)
        app.kill()
    }

    private func waitForWALFrames(_ cache: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while ((try? FileManager.default.attributesOfItem(atPath: cache + "-wal")[.size] as? Int) ?? 0) == 0 {
            guard Date() < deadline else { return XCTFail("the app never wrote") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// With committed changes waiting in the -wal file, doctor names
    /// integrity_check, the check it runs then, also where the file reads
    /// as damaged with them (a -wal file of another cache) and no check
    /// could run: as a readable file's report would name it.
    func testAFileUnreadableWithChangesInTheWALNamesIntegrityCheck() throws {
        let cache = path("a.sqlite")
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path, toPath: cache)
        let other = try copyOfFixture("starwars.sqlite", as: "b.sqlite")
        _ = try sqliteShell(cache, "PRAGMA journal_mode=WAL;")
        _ = try sqliteShell(other, "PRAGMA journal_mode=WAL;")
        _ = try runProgram("/usr/bin/sqlite3", ["-batch", "-cmd", ".dbconfig no_ckpt_on_close on", other,
                                                "PRAGMA wal_autocheckpoint=0; UPDATE records SET record='{\"zz\":1}' WHERE key='QUERY_ROOT';"])
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: cache + "-wal")
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("\(cache): 3 problems; the records could not all be read\n  SQLite integrity_check: 1 problem"), result.stdout)
        let json = try XCTUnwrap(try gqlcache("doctor", cache, "--format", "json").json() as? [String: Any])
        XCTAssertEqual(json["integrityCheck"] as? String, "integrity_check")
    }

    /// A damaged page is what doctor is for: it reports what SQLite's check
    /// lists (and that the records could not all be read) with status 7,
    /// and suggests no repair by gqlcache, instead of failing with status 5.
    func testADamagedPageOfTheTableIsReportedWithWhatSQLiteFinds() throws {
        let (cache, page) = try largerCache(pageOf: "records")
        try damage(cache, page: page, offset: 0)
        let before = try bytes(cache)
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.hasPrefix("\(cache): 3 problems; the records could not all be read\n"), result.stdout)
        XCTAssertTrue(result.stdout.contains("""
              records: not checked: SQLite stopped reading the table at a damaged page (database disk image is malformed)
            SQLite quick_check found (2)
              Page \(page): btreeInitPage() returns error code 11
              the check stopped: database disk image is malformed
            the file is damaged: delete it (the app builds a new cache) or copy a fresh one; 'sqlite3 \(cache) .recover' may copy out what SQLite can still read

            """), result.stdout)
        XCTAssertFalse(result.stdout.contains("gqlcache gc"))
        let json = gqlcache("doctor", cache, "--format", "json")
        XCTAssertEqual(json.status, .problemsFound)
        XCTAssertEqual(try problems(json).map { $0["kind"] as? String }, ["integrity", "integrity", "unreadTable"])
        XCTAssertEqual(try bytes(cache), before, "doctor changes nothing")
    }

    func testADamagedIndexPageIsListedAndNoRepairIsSuggested() throws {
        let (cache, page) = try largerCache(pageOf: "sqlite_autoindex_records_1")
        try damage(cache, page: page, offset: 100)
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound, result.stderr)
        XCTAssertTrue(result.stdout.contains("  SQLite quick_check: "), result.stdout)
        XCTAssertTrue(result.stdout.contains("\nSQLite quick_check found ("), "the list comes below the summary lines, not above them")
        XCTAssertTrue(result.stdout.contains("On tree page \(page) "), result.stdout)
        XCTAssertFalse(result.stdout.contains("*** in database main ***"))
        XCTAssertTrue(result.stdout.hasSuffix("may copy out what SQLite can still read\n"), result.stdout)
        XCTAssertFalse(result.stdout.contains("gqlcache gc"), "no gc on a file whose reading may be wrong")
    }

    /// A key written over in the table's page, not in its index: two rows
    /// hold one key, which the UNIQUE index forbids. quick_check does not
    /// compare index and table; the pass over the table sees it, and no
    /// repair runs on such a file.
    func testTwoRowsWithOneKeyAreReportedAsADamagedIndexAndNothingIsRepaired() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('DupQA', '{"__typename":"D"}'), ('DupQB', '{"__typename":"D"}')"#)
        let ids = try sqliteShell(cache, "SELECT _id FROM records WHERE key IN ('DupQA', 'DupQB') ORDER BY _id")
            .split(separator: "\n").map(String.init)
        let page = try XCTUnwrap(Int(try sqliteShell(cache, "SELECT rootpage FROM sqlite_master WHERE name = 'records'")))
        var data = try Data(contentsOf: URL(fileURLWithPath: cache))
        let table = (page - 1) * 4096..<page * 4096
        let found = try XCTUnwrap(data[table].range(of: Data("DupQB".utf8)), "the key is in the table's root page")
        data.replaceSubrange(found, with: Data("DupQA".utf8))
        try data.write(to: URL(fileURLWithPath: cache))
        let before = try bytes(cache)

        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound, result.stderr)
        XCTAssertTrue(result.stdout.contains("  records table: two rows (_id \(ids[0]) and _id \(ids[1])) hold the key DupQA, "
            + "which the table's UNIQUE index on key forbids: the index is damaged ('gqlcache doctor --full' shows SQLite's findings)\n"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("may copy out what SQLite can still read\n"), result.stdout)
        let json = gqlcache("doctor", cache, "--format", "json")
        // (The key is also unreachable: nothing refers to it.)
        XCTAssertEqual(try problems(json).map { $0["kind"] as? String }, ["duplicateKey", "unreachable"])
        let gc = gqlcache("gc", cache, "--all", "--dry-run")
        XCTAssertEqual(gc.status, .io, gc.stderr)
        XCTAssertTrue(gc.stderr.contains("(two rows (_id \(ids[0]) and _id \(ids[1])) hold one key, \"DupQA\", which the table's UNIQUE index on key forbids)"), gc.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// A reference to `Café:1` with a composed é, and the record keyed with
    /// e plus a combining accent: the dangling reference and the
    /// unreachable record would read alike; the reference's line says why.
    func testADanglingReferenceToAKeyThereInTheOtherUnicodeFormSaysSo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let composed = "Caf\u{E9}:1", decomposed = "Cafe\u{301}:1"
        _ = try sqliteShell(cache, """
            UPDATE records SET record = json_set(record, '$.cafe', json('{"$reference":"\(composed)"}')) WHERE key = 'QUERY_ROOT';
            INSERT INTO records(key, record) VALUES ('\(decomposed)', '{"__typename":"Cafe"}');
            """)
        let result = gqlcache("doctor", cache)
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertTrue(result.stdout.contains("  QUERY_ROOT cafe → \(composed) (the record \(decomposed) looks the same but is written in the other "
            + "Unicode form, an accent composed or as a combining mark; keys are compared by their bytes)\n"), result.stdout)
        let json = try problems(gqlcache("doctor", cache, "--format", "json"))
        let dangling = try XCTUnwrap(json.first { $0["kind"] as? String == "dangling" })
        XCTAssertEqual((dangling["lookalikeRecord"] as? String).map { Array($0.utf8) }, Array(decomposed.utf8))
        // A dangling reference with no such record has no note.
        _ = gqlcache("rm", cache, "Human:1002", "--force", "--quiet")
        XCTAssertTrue(gqlcache("doctor", cache).stdout.contains("  Droid:2001 friends[1] → Human:1002\n"))
    }

    func testAFileThatIsNotACacheIsRefusedWithItsOwnStatus() throws {
        let path = self.path("notes.txt")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        let result = gqlcache("doctor", path)
        XCTAssertEqual(result.status, .notACache)
        XCTAssertEqual(result.stdout, "")
    }

    func testDoctorRunsAtTheREPLPrompt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("repl", cache, "-c", "rm Human:1002; doctor --format jsonl")
        XCTAssertEqual(result.status, .problemsFound)
        XCTAssertTrue(result.stdout.contains(#"{"kind":"dangling","from":"Droid:2001","field":"friends","path":[1],"to":"Human:1002"}"#), result.stdout)
    }
}
