import CacheStore
@testable import GQLCacheCommands
import XCTest

final class RemoveCommandTests: CommandTestCase {
    /// An argument that is not UTF-8 is refused: read as a String its bad
    /// byte would be U+FFFD, and `rm 'Human:1002\xff'` would remove the
    /// record `Human:1002�` (another program's key), or match it.
    func testAnArgumentThatIsNotUTF8IsRefusedRatherThanReadAsAnotherKey() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('Human:1002' || char(65533), '{\"a\":1}')")
        for (typed, shown) in [(#"rm "$1" "$(printf 'Human:1002\377')""#, #"3 is not UTF-8 text: "Human:1002\xFF""#),
                               (#"rm "$1" --match "$(printf '\377')" --mode literal --force"#, #"4 is not UTF-8 text: "\xFF""#)] {
            let run = try runProgram("/bin/sh", ["-c", "\"$0\" " + typed, builtBinary, cache])
            XCTAssertEqual(run.status, 2, typed)
            XCTAssertEqual(run.stderr, "gqlcache: argument \(shown); gqlcache reads keys, patterns and file names as UTF-8, and read so it would name something else\n", typed)
        }
        XCTAssertEqual(try keys(in: cache).filter { $0.hasPrefix("Human:1002") }.count, 2)
        XCTAssertEqual(GQLCacheMain.shownWithBadBytes([0xE9, 0x74, 0xC3, 0xA9, 0x0A, 0xC3]), #""\xE9té\n\xC3""#)
        // A combining mark after a bad byte begins a run of its own: it stays.
        XCTAssertEqual(GQLCacheMain.shownWithBadBytes([0x63, 0xFF, 0xCC, 0x81, 0x78]), "\"c\\xFF\u{301}x\"")
    }

    func testRemovingAKeyReportsTheReferencesItLeftDangling() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "Human:1002")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, """
            removed Human:1002
            removed 1 record; left 1 reference dangling:
              Droid:2001 friends[1] → Human:1002

            """)
        XCTAssertFalse(try keys(in: cache).contains("Human:1002"))
        XCTAssertEqual(try keys(in: cache).count, 9)
    }

    /// A row with a BLOB key (a stray row, which Apollo never finds) holds
    /// no reference a removal leaves dangling: rm --match counted its
    /// references, under a key no record has and with no path.
    func testAPatternRemovalCountsNoReferenceHeldByAStrayRow() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES (X'4869', '{"k":[{"$reference":"Human:1002"}]}')"#)
        let expected = """
            would remove Human:1002
            would remove 1 record, leaving 1 reference dangling:
              Droid:2001 friends[1] → Human:1002

            """
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002", "--dry-run").stdout, expected)
        XCTAssertEqual(gqlcache("rm", cache, "--match", "Human:1002", "--dry-run").stdout, expected)
        let removed = gqlcache("rm", cache, "--match", "Human:1002", "--force", "--format", "jsonl")
        XCTAssertEqual(removed.lines, [
            #"{"type":"key","key":"Human:1002"}"#,
            #"{"type":"dangling","from":"Droid:2001","field":"friends","path":[1],"to":"Human:1002"}"#,
            #"{"type":"summary","dryRun":false,"removed":1,"danglingReferences":1}"#,
        ])
    }

    func testRemovalByKeyIsExactAndCaseSensitive() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "droid:2001")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record 'droid:2001' in \(cache); nearest keys: Droid:2001\n")
        XCTAssertEqual(try keys(in: cache).count, 10)
        // The exact key removes the record only, not Droid:2001.friendsConnection(…).
        XCTAssertEqual(gqlcache("rm", cache, "Droid:2001").status, .success)
        XCTAssertTrue(try keys(in: cache).contains("Droid:2001.friendsConnection(after:null,first:2)"))
    }

    func testDryRunListsWhatWouldGoAndChangesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = gqlcache("rm", cache, "--match", "Human:100_", "--dry-run")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("would remove Human:1000\nwould remove Human:1002\nwould remove 2 records, leaving 5 references dangling:\n"), result.stdout)
        XCTAssertEqual(try bytes(cache), before)
    }

    func testApolloPatternRemovesLikeApolloSQLite() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--match", "Human:100_", "--force", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(report["removed"] as? Int, 2)
        XCTAssertEqual(Set(report["keys"] as? [String] ?? []), ["Human:1000", "Human:1002"])
        XCTAssertEqual(report["danglingReferences"] as? Int, 5)
        XCTAssertEqual(try keys(in: cache).count, 8)
    }

    func testPatternRemovalCountsOnlyTheReferencesItLeftDangling() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000").status, .success)
        // Four references to Human:1000 dangle already; removing Human:1002 adds one.
        for extra in [["--dry-run"], ["--force"]] {
            let result = gqlcache(arguments: ["rm", cache, "--match", "Human"] + extra + ["--format", "json"])
            XCTAssertEqual(result.status, .success, result.stderr)
            let report = try XCTUnwrap(try result.json() as? [String: Any])
            XCTAssertEqual(report["keys"] as? [String], ["Human:1002"])
            XCTAssertEqual(report["danglingReferences"] as? Int, 1, extra.joined())
            XCTAssertEqual(report["dangling"] as? NSArray, [["from": "Droid:2001", "field": "friends", "path": [1], "to": "Human:1002"]])
        }
    }

    func testRepeatingAKeyRemovesAndCountsItOnce() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002", "Human:1002", "--dry-run").stdout,
                       "would remove Human:1002\nwould remove 1 record, leaving 1 reference dangling:\n  Droid:2001 friends[1] → Human:1002\n")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002", "Human:1002").status, .success)
    }

    func testAMistypedKeySuggestsTheNearestOne() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "human:1002")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record 'human:1002' in \(cache); nearest keys: Human:1002\n")
        XCTAssertEqual(result.stdout, "", "no summary of nothing removed, as git rm and rm print none")
        let cascade = gqlcache("rm", cache, "human:1002", "--cascade", "--force")
        XCTAssertEqual(cascade.status, .notFound)
        XCTAssertEqual(cascade.stdout, "")
        let json = gqlcache("rm", cache, "human:1002", "--format", "json")
        XCTAssertEqual((try json.json() as? [String: Any])?["removed"] as? Int, 0, "scripts still get their document")
    }

    func testPercentPatternRemovesEveryRecord() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "--match", "%", "--force")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "removed 10 records; no reference left dangling\n")
        XCTAssertEqual(try keys(in: cache), [])
    }

    func testPatternRemovalNeedsForceWhenNobodyCanAnswer() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = gqlcache("rm", cache, "--match", "Human")
        XCTAssertEqual(result.status, .usage)
        XCTAssertTrue(result.stderr.contains("--force"), result.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    func testPatternRemovalAsksOnATerminalAndHonoursTheAnswer() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let declined = gqlcache("rm", cache, "--match", "starship", answers: ["n"])
        XCTAssertEqual(declined.status, .notFound)
        XCTAssertTrue(declined.stderr.contains("remove 1 record matching apollo pattern 'starship'"), declined.stderr)
        XCTAssertTrue(declined.stderr.contains("nothing removed"), declined.stderr)
        XCTAssertTrue(try keys(in: cache).contains("Starship:3001"))

        let accepted = gqlcache("rm", cache, "--match", "starship", answers: ["y"])
        XCTAssertEqual(accepted.status, .success, accepted.stderr)
        XCTAssertFalse(try keys(in: cache).contains("Starship:3001"))
        XCTAssertTrue(accepted.stdout.contains("left 1 reference dangling:\n  Human:1000 starships[0] → Starship:3001"), accepted.stdout)
    }

    /// The app may write while the question waits: what is removed is
    /// what the person agreed to, or nothing.
    func testAPatternRemovalWhoseKeysChangedWhileAskingRemovesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try keys(in: cache)
        let changed = gqlcache(arguments: ["rm", cache, "--match", "Human:%"], answeringYesAfter: {
            _ = try? sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('Human:1009', '{}')")
        })
        XCTAssertEqual(changed.status, .busy)
        XCTAssertTrue(changed.stderr.hasSuffix(
            "gqlcache: the keys matching apollo pattern 'Human:%' changed while you were asked (3 records match now, 2 then): "
                + "another process wrote the file; nothing removed; run rm again\n"), changed.stderr)
        XCTAssertEqual(try keys(in: cache), (before + ["Human:1009"]).sorted())
        // Unchanged, the same answer removes them.
        let unchanged = gqlcache("rm", cache, "--match", "Human:%", answers: ["y"])
        XCTAssertEqual(unchanged.status, .success, unchanged.stderr)
        XCTAssertEqual(try keys(in: cache).filter { $0.hasPrefix("Human:") }, [])
    }

    /// As for a pattern: records of the type the app wrote while the
    /// question waited are not removed unseen.
    func testATypeRemovalWhoseRecordsChangedWhileAskingRemovesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let changed = gqlcache(arguments: ["rm", cache, "--type", "Starship"], answeringYesAfter: {
            _ = try? sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('Starship:3009', '{"__typename":"Starship"}')"#)
        })
        XCTAssertEqual(changed.status, .busy)
        XCTAssertTrue(changed.stderr.hasSuffix(
            "gqlcache: the records to remove changed while you were asked (2 records now, 1 then): another process wrote the file; nothing removed; run rm again\n"),
            changed.stderr)
        XCTAssertTrue(try keys(in: cache).contains("Starship:3001"))
    }

    /// With --clean-references the question names the references to drop,
    /// and one the app added meanwhile is not dropped unseen.
    func testReferencesToCleanThatChangedWhileAskingRemoveNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let changed = gqlcache(arguments: ["rm", cache, "--type", "Starship", "--clean-references"], answeringYesAfter: {
            _ = try? sqliteShell(cache, #"UPDATE records SET record = json_set(record, '$.ship', json('{"$reference":"Starship:3001"}')) WHERE key = 'QUERY_ROOT'"#)
        })
        XCTAssertEqual(changed.status, .busy)
        XCTAssertTrue(changed.stderr.contains("remove 1 record from \(cache) (Starship:3001) and drop 1 reference to it?"), changed.stderr)
        XCTAssertTrue(changed.stderr.hasSuffix(
            "gqlcache: the references to drop changed while you were asked: another process wrote the file; nothing removed; run rm again\n"),
            changed.stderr)
        XCTAssertTrue(try keys(in: cache).contains("Starship:3001"))
        XCTAssertNotEqual(try bytes(cache), before, "the other process's change stands")
        let again = gqlcache("rm", cache, "--type", "Starship", "--clean-references", answers: ["y"])
        XCTAssertEqual(again.status, .success, again.stderr)
        XCTAssertTrue(again.stderr.contains("and drop 2 references to it?"), again.stderr)
    }

    /// The question also names the records the drops leave with no field,
    /// which go too; a field the app gives one of them meanwhile keeps it,
    /// so nothing is removed unseen.
    func testTheQuestionNamesTheRecordsTheDropsLeaveEmptyAndAChangeToThemRemovesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let review = #"MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])"#
        let changed = gqlcache(arguments: ["rm", cache, "--type", "Review", "--clean-references"], answeringYesAfter: {
            _ = try? sqliteShell(cache, #"UPDATE records SET record = json_set(record, '$.note', 'kept') WHERE key = 'MUTATION_ROOT'"#)
        })
        XCTAssertTrue(changed.stderr.contains(
            "QUERY_ROOT.reviews(episode:JEDI,first:2).1) and drop 3 references to them, "
                + "removing 1 more record the drops leave with no field (MUTATION_ROOT)?"), changed.stderr)
        XCTAssertEqual(changed.status, .busy, changed.stderr)
        XCTAssertTrue(changed.stderr.hasSuffix(
            "gqlcache: the records the drops leave with no field changed while you were asked: another process wrote the file; "
                + "nothing removed; run rm again\n"), changed.stderr)
        XCTAssertTrue(try keys(in: cache).contains(review))
        XCTAssertTrue(try keys(in: cache).contains("MUTATION_ROOT"))
        let again = gqlcache("rm", cache, "--type", "Review", "--clean-references", answers: ["y"])
        XCTAssertEqual(again.status, .success, again.stderr)
        XCTAssertTrue(again.stderr.contains("and drop 3 references to them?"), again.stderr)
        XCTAssertEqual(try records(cache)["MUTATION_ROOT"], ["note": .string("kept")])
    }

    /// A list holding a key twice is two references, in the question and
    /// in the check: a third added while asking stops the removal.
    func testAReferenceRepeatedInAListCountsEachTimeWhileAsking() throws {
        let cache = try makeCache("twice.sqlite", [
            Record(key: .queryRoot, fields: ["ships": .list([.reference("Ship:1"), .reference("Ship:1")])]),
            Record(key: "Ship:1", fields: ["__typename": .string("Ship")]),
        ])
        let changed = gqlcache(arguments: ["rm", cache, "--type", "Ship", "--clean-references"], answeringYesAfter: {
            _ = try? sqliteShell(cache, #"UPDATE records SET record = '{"ships":[{"$reference":"Ship:1"},{"$reference":"Ship:1"},{"$reference":"Ship:1"}]}' WHERE key = 'QUERY_ROOT'"#)
        })
        XCTAssertTrue(changed.stderr.contains("(Ship:1) and drop 2 references to it?"), changed.stderr)
        XCTAssertEqual(changed.status, .busy, changed.stderr)
        XCTAssertTrue(try keys(in: cache).contains("Ship:1"))
    }

    func testAPatternThatMatchesNothingSaysSoOnceOnStandardError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for extra in [["--force"], ["--dry-run"]] {
            let result = gqlcache(arguments: ["rm", cache, "--match", "Nobody:"] + extra)
            XCTAssertEqual(result.status, .notFound)
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(result.stderr, "gqlcache: no key matches apollo pattern 'Nobody:' in \(cache)\n")
        }
    }

    /// The same with --clean-references, which takes another way through the table.
    func testEmptyApolloPatternRemovesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for extra in [[], ["--clean-references"]] {
            let result = gqlcache(arguments: ["rm", cache, "--match", "", "--force"] + extra)
            XCTAssertEqual(result.status, .notFound, "\(extra)")
            XCTAssertEqual(result.stderr, "gqlcache: an empty apollo pattern matches nothing (Apollo ignores it; before 1.21 it removed every record); to remove every record use 'gqlcache clear'\n")
        }
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    func testEmptyPatternInOtherModesIsRefusedRatherThanRemovingEverything() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for mode in ["literal", "prefix"] {
            for extra in [[], ["--clean-references"]] {
                let result = gqlcache(arguments: ["rm", cache, "--match", "", "--mode", mode, "--force"] + extra)
                XCTAssertEqual(result.status, .usage, mode)
                XCTAssertEqual(result.stderr, "gqlcache: an empty \(mode) pattern matches every key; to remove every record use 'gqlcache clear'\n")
            }
        }
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    func testOtherModesRemoveWhatTheyMatch() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "--match", "Human:100_", "--mode", "literal", "--force").status, .notFound)
        XCTAssertEqual(gqlcache("rm", cache, "--match", "QUERY_ROOT.", "--mode", "prefix", "--force").status, .success)
        XCTAssertEqual(gqlcache("rm", cache, "--match", "Human:*", "--mode", "glob", "--force").status, .success)
        XCTAssertEqual(gqlcache("rm", cache, "--match", "^Starship", "--mode", "regex", "--force").status, .success)
        XCTAssertEqual(try keys(in: cache), [
            "Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)", "MUTATION_ROOT",
            "MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])", "QUERY_ROOT",
        ])
    }

    func testJSONLinesReportKeysDanglingReferencesAndASummary() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("rm", cache, "Human:1002", "--format", "jsonl")
        XCTAssertEqual(result.lines, [
            #"{"type":"key","key":"Human:1002"}"#,
            #"{"type":"dangling","from":"Droid:2001","field":"friends","path":[1],"to":"Human:1002"}"#,
            #"{"type":"summary","dryRun":false,"removed":1,"danglingReferences":1}"#,
        ])
        for line in result.lines { XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8))) }
    }

    /// Scripts reading the document learn which named keys had no record,
    /// as standard error tells a person: text, JSON and JSON Lines, with and
    /// without --cascade.
    func testKeysWithoutARecordAreListedAsMissingInJSONAndJSONLines() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for extra in [[], ["--cascade"], ["--clean-references"]] {
            let json = gqlcache(arguments: ["rm", cache, "Human:1002", "Human:9999", "--dry-run", "--format", "json"] + extra)
            XCTAssertEqual(json.status, .notFound, "\(extra)")
            let document = try XCTUnwrap(try json.json() as? [String: Any])
            XCTAssertEqual(document["keys"] as? [String], ["Human:1002"], "\(extra)")
            XCTAssertEqual(document["missing"] as? [String], ["Human:9999"], "\(extra)")
            XCTAssertTrue(json.stderr.contains("no record 'Human:9999'"), json.stderr)
        }
        let lines = gqlcache("rm", cache, "Human:9999", "Droid:2001", "--force", "--format", "jsonl")
        XCTAssertEqual(lines.status, .notFound)
        XCTAssertEqual(lines.lines, [
            #"{"type":"key","key":"Droid:2001"}"#,
            #"{"type":"missing","key":"Human:9999"}"#,
            #"{"type":"dangling","from":"QUERY_ROOT","field":"hero(episode:NEWHOPE)","path":[],"to":"Droid:2001"}"#,
            #"{"type":"dangling","from":"QUERY_ROOT","field":"search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])","path":[1,0],"to":"Droid:2001"}"#,
            #"{"type":"summary","dryRun":false,"removed":1,"danglingReferences":2}"#,
        ])
        let none = try XCTUnwrap(try gqlcache("rm", cache, "Human:1000", "--force", "--format", "json").json() as? [String: Any])
        XCTAssertEqual(none["missing"] as? [String], [], "present, and empty, when keys were named")
        let byPattern = try XCTUnwrap(try gqlcache("rm", cache, "--match", "Human:%", "--dry-run", "--format", "json").json() as? [String: Any])
        XCTAssertNil(byPattern["missing"], "no keys were named")
    }

    func testUsageErrorsExitTwo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("rm", cache).status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000", "--match", "x").status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "Human:1000", "--mode", "glob").status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "--match", "x", "--mode", "fuzzy").status, .usage)
        XCTAssertEqual(gqlcache("rm", cache, "x", "--busy-timeout=-1").status, .usage)
        let huge = gqlcache("rm", cache, "x", "--busy-timeout", "3e6")
        XCTAssertEqual(huge.status, .usage)
        XCTAssertTrue(huge.stderr.contains("--busy-timeout must be from 0 to 2147483 seconds"), huge.stderr)
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    func testWritesToTheLegacyDDLKeepItsSchema() throws {
        let cache = try copyOfFixture("legacy-sqlite-swift.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Droid:2001").status, .success)
        let info = try XCTUnwrap(try gqlcache("info", cache, "--format", "json").json() as? [String: Any])
        XCTAssertEqual(info["ddl"] as? String, "legacy")
        XCTAssertEqual(info["records"] as? Int, 1)
    }

    func testABusyDatabaseFailsWithExitFourAfterTheTimeout() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let holder = try CacheStore.open(at: cache, access: .readWrite)
        let result: CommandResult = try holder.write { tx in
            try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")])])
            return gqlcache("rm", cache, "Human:1000", "--busy-timeout", "0.2")
        }
        XCTAssertEqual(result.status, .busy)
        XCTAssertEqual(result.stderr, "gqlcache: \(cache): another process holds the database lock (waited 0.2s); try again, or raise --busy-timeout\n")
        XCTAssertTrue(try keys(in: cache).contains("Human:1000"))
    }
    /// As for --match and --type: text names ten dangling references and
    /// counts the rest; JSON lists them all.
    func testRemovingAKeyListsTenDanglingReferencesInTextAndAllInJSON() throws {
        let posts = (1...12).map { (String(format: "Post:%02d", $0), #"{"__typename":"Post","author":{"$reference":"User:1"}}"#) }
        let cache = try makeCache("authors.sqlite", [], raw: [("User:1", #"{"__typename":"User"}"#)] + posts)
        let text = gqlcache("rm", cache, "User:1", "--dry-run")
        XCTAssertEqual(text.status, .success, text.stderr)
        XCTAssertEqual(text.lines, ["would remove User:1", "would remove 1 record, leaving 12 references dangling:"]
            + (1...10).map { String(format: "  Post:%02d author → User:1", $0) } + ["  … and 2 more (--format json lists them all)"])
        let json = try XCTUnwrap(try gqlcache("rm", cache, "User:1", "--dry-run", "--format", "json").json() as? [String: Any])
        XCTAssertEqual((json["dangling"] as? [Any])?.count, 12)
    }
}
