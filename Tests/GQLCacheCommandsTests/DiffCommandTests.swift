import CacheStore
import Foundation
import XCTest

final class DiffCommandTests: CommandTestCase {
    /// A copy of starwars.sqlite after `rm Human:1002` and a renamed R2-D2.
    private func plantedCopy() throws -> String {
        let cache = try copyOfFixture("starwars.sqlite", as: "planted.sqlite")
        XCTAssertEqual(gqlcache("rm", cache, "Human:1002").status, .success)
        try CacheStore.open(at: cache, access: .readWrite).write { tx in
            try tx.merge([Record(key: "Droid:2001", fields: ["name": .string("Artoo")]),
                          Record(key: "Human:1003", fields: ["__typename": .string("Human"), "id": .string("1003")])])
        }
        return cache
    }

    /// Both files are read in the same loop, inside each other's
    /// transactions: a damaged page of either must be blamed on its own
    /// file, and JSON must not be left half-written on standard output.
    func testADamagedFileIsNamedWhicheverSideItIsOn() throws {
        let healthy = try copyOfFixture("starwars.sqlite")
        let damaged = path("damaged.sqlite")
        let example = repositoryRoot.appendingPathComponent("Examples/blog.sqlite").path
        try FileManager.default.copyItem(atPath: example, toPath: damaged)
        let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: damaged))
        try handle.seek(toOffset: 2 * 4096)
        handle.write(Data(repeating: 0xFF, count: 4096))
        try handle.close()
        let message = "gqlcache: \(damaged): the database file is corrupt (SQLite: database disk image is malformed)\n"
        for (a, b) in [(damaged, healthy), (healthy, damaged)] {
            let result = gqlcache("diff", a, b, "--format", "json")
            XCTAssertEqual(result.status, .io)
            XCTAssertEqual(result.stderr, message)
            XCTAssertEqual(result.stdout, "")
        }
    }

    /// SQLite keeps a UTF-16 file's text in UTF-16, and orders its keys by
    /// those bytes (`ā` before `é`): diff read them raw, so a UTF-16 copy
    /// differed in every record, and export called the key order damaged.
    /// Both read the text as UTF-8, in UTF-8 order, as every other command.
    func testAUTF16CopyOfAFileIsTheSameToDiffAndExportsInKeyOrder() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('Café:é', '{"a":1}'), ('Café:ā', '{"a":2}')"#)
        let utf16 = path("utf16.sqlite")
        let copied = try runProgram("/bin/sh", ["-c", #"(echo "PRAGMA encoding = 'UTF-16le';"; sqlite3 "$0" .dump) | sqlite3 "$1""#, cache, utf16])
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertEqual(try sqliteShell(utf16, "PRAGMA encoding", readOnly: true), "UTF-16le")
        for (a, b) in [(cache, utf16), (utf16, cache), (utf16, utf16)] {
            let same = gqlcache("diff", a, b)
            XCTAssertEqual(same.status, .success, same.stdout + same.stderr)
            XCTAssertEqual(same.stdout, "same records: 12 records in each\n")
        }
        let exported = gqlcache("export", utf16)
        XCTAssertEqual(exported.status, .success, exported.stderr)
        XCTAssertEqual(exported.stdout, gqlcache("export", cache).stdout)
        XCTAssertTrue(exported.stdout.hasPrefix(#"{"key":"Café:é","record":{"a":1}}"# + "\n" + #"{"key":"Café:ā","#), exported.stdout)
        try sqliteShell(utf16, #"UPDATE records SET record = '{"a":3}' WHERE key = 'Café:ā'"#)
        let changed = gqlcache("diff", cache, utf16)
        XCTAssertEqual(changed.status, .notFound)
        XCTAssertEqual(changed.stdout, "~ Café:ā\n    ~ a: 2 → 3\n1 record differs: 1 changed; 11 the same\n")
    }

    /// A key stored as text that is not UTF-8 is one Apollo never finds,
    /// and export leaves it out: diff does not compare it either, so an
    /// export imported into a new file is the same records, and two such
    /// keys, which would show alike, are never set against each other.
    func testARowWhoseKeyIsNotUTF8IsNotComparedAsExportLeavesItOut() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES (CAST(X'41FF' AS TEXT), '{"a":1}')"#)
        let exported = path("export.jsonl")
        XCTAssertEqual(gqlcache("export", cache, "-o", exported).status, .success)
        let imported = path("imported.sqlite")
        XCTAssertEqual(gqlcache("import", imported, exported, "--create").status, .success)
        let warning = "gqlcache: warning: 1 row of \(cache) has no UTF-8 text key (NULL, a BLOB or other bytes), which Apollo never reads; "
            + "not compared (gqlcache doctor lists them)\n"
        for (a, b) in [(cache, imported), (imported, cache)] {
            let same = gqlcache("diff", a, b)
            XCTAssertEqual(same.status, .success, same.stdout + same.stderr)
            XCTAssertEqual(same.stdout, "same records: 10 records in each\n")
            XCTAssertEqual(same.stderr, warning)
        }
        let other = try copyOfFixture("starwars.sqlite", as: "other.sqlite")
        try sqliteShell(other, #"INSERT INTO records(key, record) VALUES (CAST(X'41FE' AS TEXT), '{"a":2}')"#)
        XCTAssertEqual(gqlcache("diff", cache, other).status, .success)
    }

    func testIdenticalFilesExitZeroWithASummary() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("diff", original, fixturesFolder.appendingPathComponent("starwars.sqlite").path)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "same records: 10 records in each\n")
    }

    func testPlantedDifferencesAreShownFieldByFieldAndExitOne() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("diff", original, try plantedCopy())
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(result.stdout, """
            ~ Droid:2001
                ~ name: "R2-D2" → "Artoo"
            - Human:1002
                - __typename: "Human"
                - id: "1002"
                - name: "Han Solo"
            + Human:1003
                + __typename: "Human"
                + id: "1003"
            3 records differ: 1 added, 1 removed, 1 changed; 8 the same

            """)
    }

    func testKeysOnlyAndSummary() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let planted = try plantedCopy()
        XCTAssertEqual(gqlcache("diff", original, planted, "--keys-only").lines, [
            "~ Droid:2001", "- Human:1002", "+ Human:1003", "3 records differ: 1 added, 1 removed, 1 changed; 8 the same",
        ])
        XCTAssertEqual(gqlcache("diff", original, planted, "--summary").lines, ["3 records differ: 1 added, 1 removed, 1 changed; 8 the same"])
        XCTAssertEqual(gqlcache("diff", planted, original, "--summary").lines, ["3 records differ: 1 added, 1 removed, 1 changed; 8 the same"])
        XCTAssertEqual(gqlcache("diff", original, planted, "--summary", "--keys-only").status, .usage)
        let summaryJSON = try XCTUnwrap(try gqlcache("diff", original, planted, "--summary", "--format", "json").json() as? [String: Any])
        XCTAssertEqual(summaryJSON.keys.sorted(), ["added", "changed", "removed", "same", "unchanged"], "no records with --summary, as documented")
    }

    /// --quiet leaves out the summary line, as it does every summary; with
    /// --summary that line is the data asked for, and stays.
    func testQuietLeavesOutTheSummaryLineUnlessItIsWhatWasAskedFor() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let planted = try plantedCopy()
        let quiet = gqlcache("diff", original, planted, "--keys-only", "-q")
        XCTAssertEqual(quiet.status, .notFound)
        XCTAssertEqual(quiet.lines, ["~ Droid:2001", "- Human:1002", "+ Human:1003"])
        let same = gqlcache("diff", original, original, "--quiet")
        XCTAssertEqual(same.status, .success)
        XCTAssertEqual(same.stdout, "", "as diff -q and cmp -s: the status says it")
        XCTAssertEqual(gqlcache("diff", original, planted, "--summary", "-q").lines, ["3 records differ: 1 added, 1 removed, 1 changed; 8 the same"])
    }

    func testJSONListsEachRecordThenTheCounts() throws {
        let result = gqlcache("diff", try copyOfFixture("starwars.sqlite"), try plantedCopy(), "--format", "json")
        XCTAssertEqual(result.status, .notFound)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(report["same"] as? Bool, false)
        XCTAssertEqual(report["added"] as? Int, 1)
        XCTAssertEqual(report["removed"] as? Int, 1)
        XCTAssertEqual(report["changed"] as? Int, 1)
        XCTAssertEqual(report["unchanged"] as? Int, 8)
        let records = try XCTUnwrap(report["records"] as? [[String: Any]])
        XCTAssertEqual(records.map { $0["key"] as? String }, ["Droid:2001", "Human:1002", "Human:1003"])
        XCTAssertEqual(records.map { $0["change"] as? String }, ["changed", "removed", "added"])
        let field = try XCTUnwrap((records[0]["fields"] as? [[String: Any]])?.first)
        XCTAssertEqual(field["field"] as? String, "name")
        XCTAssertEqual(field["before"] as? String, "R2-D2")
        XCTAssertEqual(field["after"] as? String, "Artoo")
        XCTAssertNil((records[2]["fields"] as? [[String: Any]])?.first?["before"], "an added field has no before")
    }

    func testJSONLinesEndWithASummaryAndIdenticalJSONHasNoRecords() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let lines = gqlcache("diff", original, try plantedCopy(), "--format", "jsonl", "--keys-only").lines
        XCTAssertEqual(lines, [
            #"{"type":"changed","key":"Droid:2001"}"#, #"{"type":"removed","key":"Human:1002"}"#, #"{"type":"added","key":"Human:1003"}"#,
            #"{"type":"summary","same":false,"added":1,"removed":1,"changed":1,"unchanged":8}"#,
        ])
        let same = gqlcache("diff", original, original, "--format", "json")
        XCTAssertEqual(same.status, .success)
        let report = try XCTUnwrap(try same.json() as? [String: Any])
        XCTAssertEqual((report["records"] as? [Any])?.count, 0)
        XCTAssertEqual(report["same"] as? Bool, true)
    }

    /// Member order, `\/`, and 4 against 4.0 are the same JSON value.
    func testRecordsAreComparedAsJSON() throws {
        let a = try makeCache("a.sqlite", [], raw: [("K:1", #"{"a":4,"b":"x\/y","c":[1,{"p":2,"q":3}]}"#), ("K:2", #"{"n":1}"#)])
        let b = try makeCache("b.sqlite", [], raw: [("K:1", #"{"c":[1.0,{"q":3,"p":2.0}],"b":"x/y","a":4.0}"#), ("K:2", #"{"n":1.5}"#)])
        let result = gqlcache("diff", a, b)
        XCTAssertEqual(result.lines, ["~ K:2", "    ~ n: 1 → 1.5", "1 record differs: 1 changed; 1 the same"].map { $0 })
    }

    /// Numbers no Double holds exactly are compared by their decimal value,
    /// and shown as the file writes them: two unsigned 64-bit ids that round
    /// to one Double are two values, and 1e400 is not shown as infinity.
    func testNumbersBeyondADoubleAreComparedExactlyAndShownAsWritten() throws {
        let a = try makeCache("a.sqlite", [], raw: [("K:1", #"{"u":18446744073709551615,"h":1e400,"same":1E22}"#)])
        let b = try makeCache("b.sqlite", [], raw: [("K:1", #"{"u":18446744073709551614,"h":1e401,"same":10000000000000000000000}"#)])
        XCTAssertEqual(gqlcache("diff", a, b).lines, [
            "~ K:1", "    ~ h: 1e400 → 1e401", "    ~ u: 18446744073709551615 → 18446744073709551614", "1 record differs: 1 changed; 0 the same",
        ])
        XCTAssertEqual(gqlcache("show", a, "K:1").lines, ["K:1", "├─ h: 1e400", "├─ same: 1e+22", "└─ u: 18446744073709551615"])
        let lines = path("a.jsonl")
        let export = gqlcache("export", a, "-o", lines)
        XCTAssertEqual(export.status, .damagedRecord, "a record Apollo cannot read is left out")
        XCTAssertEqual(export.stderr, "gqlcache: \(a): record 'K:1' is damaged: field 'h' holds 1e400, a number too large for a Double, "
            + "which Apollo's JSON reading refuses with the whole record; not exported\n")
        XCTAssertEqual(try String(contentsOfFile: lines, encoding: .utf8), "")
        let copy = path("copy.sqlite")
        try Data(#"{"key":"K:1","record":{"h":1e400}}"#.utf8).write(to: URL(fileURLWithPath: lines))
        XCTAssertEqual(gqlcache("import", copy, lines, "--create").status, .usage, "1e400 is refused, as write refuses it")
        try Data(#"{"key":"K:1","record":{"u":18446744073709551615}}"#.utf8).write(to: URL(fileURLWithPath: lines))
        XCTAssertEqual(gqlcache("import", copy, lines, "--create").status, .success)
        XCTAssertEqual(try sqliteShell(copy, "SELECT record FROM records"), #"{"u":18446744073709551615}"#, "not rounded to a Double")
    }

    /// A cache older Foundation wrote holds 17-digit forms (5.6430448000000002
    /// for 5.6430448): the same Doubles, so diff finds no difference and
    /// import of the newer spelling changes nothing, as Apollo's merge would not.
    func testSeventeenDigitFormsOfADoubleAreNotADifference() throws {
        let old = try makeCache("old.sqlite", [], raw: [("Human:1", #"{"height":5.6430448000000002,"mass":77.099999999999994,"id":"1"}"#)])
        let new = try makeCache("new.sqlite", [], raw: [("Human:1", #"{"height":5.6430448,"mass":77.1,"id":"1"}"#)])
        let diff = gqlcache("diff", old, new)
        XCTAssertEqual(diff.status, .success, diff.stdout)
        let lines = path("new.jsonl")
        XCTAssertEqual(gqlcache("export", new, "-o", lines).status, .success)
        let before = try bytes(old)
        let merge = gqlcache("import", old, lines)
        XCTAssertEqual(merge.status, .success, merge.stderr)
        XCTAssertTrue(merge.stdout.contains("nothing to change"), merge.stdout)
        XCTAssertEqual(try bytes(old), before, "nothing rewritten")
    }

    func testStringsThatDifferOnlyInUnicodeNormalizationAreShownEscapedSoTheyLookDifferent() throws {
        let a = try makeCache("a.sqlite", [Record(key: "K:1", fields: ["a": .string("caf\u{E9} \u{1F600}")])])
        let b = try makeCache("b.sqlite", [Record(key: "K:1", fields: ["a": .string("cafe\u{301} \u{1F600}")])])
        XCTAssertEqual(gqlcache("diff", a, b).lines, [
            "~ K:1", #"    ~ a: "caf\u00e9 \ud83d\ude00" → "cafe\u0301 \ud83d\ude00""#, "1 record differs: 1 changed; 0 the same",
        ])
    }

    /// A long value is shown around its change in text, with how much was
    /// left out; an added one is cut; JSON gives both whole.
    func testLongValuesAreShownAroundTheirChangeInTextAndWholeInJSON() throws {
        let text = String(repeating: "a", count: 500) + "X" + String(repeating: "z", count: 700)
        let changed = String(repeating: "a", count: 500) + "Y" + String(repeating: "z", count: 700)
        let a = try makeCache("a.sqlite", [Record(key: "K:1", fields: ["t": .string(text)])])
        let b = try makeCache("b.sqlite", [
            Record(key: "K:1", fields: ["t": .string(changed)]), Record(key: "K:2", fields: ["t": .string(text)]),
        ])
        let lines = gqlcache("diff", a, b).lines
        let a20 = String(repeating: "a", count: 20), z20 = String(repeating: "z", count: 20)
        XCTAssertEqual(lines, [
            "~ K:1",
            "    ~ t: …\(a20)X\(z20)… → …\(a20)Y\(z20)… (the same 481 characters before and 681 after left out; --format json shows them all)",
            "+ K:2",
            "    + t: \"" + String(repeating: "a", count: 99) + "… (1203 characters; --format json shows them all)",
            "2 records differ: 1 added, 1 changed; 0 the same",
        ])
        let json = try XCTUnwrap(try gqlcache("diff", a, b, "--format", "json").json() as? [String: Any])
        let records = try XCTUnwrap(json["records"] as? [[String: Any]])
        let fields = try XCTUnwrap(records.first?["fields"] as? [[String: Any]])
        XCTAssertEqual(fields.first?["before"] as? String, text)
        XCTAssertEqual(fields.first?["after"] as? String, changed)
    }

    func testADamagedRecordIsADifferenceThatSaysWhichSide() throws {
        let a = try makeCache("a.sqlite", [], raw: [("K:1", #"{"n":1}"#)])
        let b = try makeCache("b.sqlite", [], raw: [("K:1", "{oops")])
        let result = gqlcache("diff", a, b)
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.lines.first, "~ K:1 (damaged in the second file: expected a member name in quotes at byte 2)")
    }

    func testAMissingOrForeignSecondFileIsAnErrorNotADifference() throws {
        let original = try copyOfFixture("starwars.sqlite")
        let missing = gqlcache("diff", original, path("nope.sqlite"))
        XCTAssertEqual(missing.status, .io)
        XCTAssertEqual(missing.stderr, "gqlcache: \(path("nope.sqlite")): no such file\n")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path("text.txt")))
        XCTAssertEqual(gqlcache("diff", original, path("text.txt")).status, .notACache)
    }

    func testAFileDiffersFromItsBackupByWhatTheWriteChanged() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let removal = gqlcache("rm", cache, "Human:1002", "--backup")
        XCTAssertEqual(removal.status, .success, removal.stderr)
        let backup = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.contains(".backup-") })
        let result = gqlcache("diff", path(backup), cache, "--keys-only")
        XCTAssertEqual(result.lines, ["- Human:1002", "1 record differs: 1 removed; 9 the same"])
    }
}
