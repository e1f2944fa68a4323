import CacheStore
import Foundation
import XCTest

final class GrepCommandTests: CommandTestCase {
    func testALiteralPrintsKeyPathAndValueOfEachMatch() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("grep", cache, "Human:1002")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "Droid:2001 friends[1] → Human:1002\n")
        XCTAssertEqual(gqlcache("grep", cache, "Sky").stdout, "Human:1000 name: \"Luke Skywalker\"\n")
    }

    /// keys and rm take --mode regex; grep's regular expressions are --regex.
    func testModeGivenToGrepSaysHowGrepMatches() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("grep", cache, "Luke.*", "--mode", "regex")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: unknown option '--mode'; grep matches text, or a regular expression with --regex (-i ignores case) "
            + "(see 'gqlcache grep --help')\n")
    }

    func testCaseRegexAndFieldsNarrowOrWidenTheSearch() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("grep", cache, "x-wing").status, .notFound)
        XCTAssertEqual(gqlcache("grep", cache, "x-wing", "-i").stdout, "Starship:3001 name: \"X-wing\"\n")
        XCTAssertEqual(gqlcache("grep", cache, #"^\d+\.\d+$"#, "--regex", "--field", "height", "--field", "coordinates").lines, [
            "Human:1000 height(unit:FOOT): 5.6430448", "Starship:3001 coordinates[1][0]: 3.5",
        ])
        XCTAssertEqual(gqlcache("grep", cache, "web").stdout, "QUERY_ROOT.reviews(episode:JEDI,first:2).0 meta.source: \"web\"\n")
        XCTAssertEqual(gqlcache("grep", cache, "1000", "--keys-only").lines, [
            "Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)", "Human:1000", "QUERY_ROOT",
        ])
        // NUL-ended for xargs -0, as grep -lZ; only with --keys-only.
        let ended = gqlcache("grep", cache, "great movie", "--keys-only", "-Z")
        XCTAssertEqual(ended.stdout, "MUTATION_ROOT\u{0}MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])\u{0}")
        // -z too, as git grep and keys -z spell it.
        XCTAssertEqual(gqlcache("grep", cache, "great movie", "--keys-only", "-z").stdout, ended.stdout)
        XCTAssertEqual(gqlcache("grep", cache, "great", "--null").stderr,
                       "gqlcache: --null goes with --keys-only: it ends each key listed (see 'gqlcache grep --help')\n")
    }

    /// ICU's matcher gives a repeated group up on long text (its
    /// backtracking stack fills); NSRegularExpression then reports no
    /// match. A script must not take that for "no record holds it".
    func testARegexTheMatcherGivesUpOnIsAnErrorNotAMiss() throws {
        let long = String(repeating: "ab", count: 200_000) + "END"
        let cache = try makeCache("long.sqlite", [Record(key: "Long:1", fields: ["v": .string(long)]), Record(key: "Short:1", fields: ["v": .string("abEND")])])
        let gaveUp = gqlcache("grep", cache, "(a|b)+END", "--regex", "--keys-only")
        XCTAssertEqual(gaveUp.status, .usage)
        XCTAssertTrue(gaveUp.stderr.hasPrefix("gqlcache: the regular expression '(a|b)+END' gave up in field v of 'Long:1': it backtracks too much"), gaveUp.stderr)
        let classed = gqlcache("grep", cache, "[ab]+END", "--regex", "--keys-only")
        XCTAssertEqual(classed.status, .success, classed.stderr)
        XCTAssertEqual(classed.stdout, "Long:1\nShort:1\n")
    }

    func testNothingMatchedExitsOneAndSaysWhatWasLookedFor() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("grep", cache, "Vader", "--field", "name")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "gqlcache: no value of 'name' contains 'Vader' in \(cache)\n")
    }

    /// As grep -q: a script asks only whether anything matched, so --quiet
    /// prints nothing, a miss or a match, in any format: status 1 or 0
    /// says it, and the first match gives it.
    func testQuietGrepPrintsNothingAndAnswersByItsStatus() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let miss = gqlcache("grep", cache, "Vader", "--quiet")
        XCTAssertEqual(miss.status, .notFound)
        XCTAssertEqual(miss.stdout + miss.stderr, "")
        for format in ["text", "json", "jsonl"] {
            let hit = gqlcache("grep", cache, "Sky", "-q", "--format", format)
            XCTAssertEqual(hit.status, .success, format)
            XCTAssertEqual(hit.stdout + hit.stderr, "", format)
        }
        // A REPL started with --quiet still shows the matches asked for; grep's own -q does not.
        let session = gqlcache("repl", cache, "--quiet", "-c", "grep Sky; grep -q Sky")
        XCTAssertEqual(session.stdout, "Human:1000 name: \"Luke Skywalker\"\n")
    }

    /// A field no record has is most often mistyped: the miss says so,
    /// with the names near it; a damaged record does not stop the look.
    func testAMissOnAFieldNoRecordHasSaysSoWithTheNearestNames() throws {
        let cache = try makeCache("fields.sqlite", [
            Record(key: "A:1", fields: ["name": .string("Luke"), "height(unit:FOOT)": .double(5.6)]),
        ], raw: [("B:1", "{nme")])
        let typo = gqlcache("grep", cache, "Luke", "--field", "nme")
        XCTAssertEqual(typo.status, .damagedRecord)
        XCTAssertTrue(typo.stderr.hasSuffix("no value of 'nme' contains 'Luke' in \(cache); no record has a field 'nme' (did you mean 'name'?)\n"),
                      typo.stderr)
        let held = gqlcache("grep", cache, "Vader", "--field", "name", "--field", "height")
        XCTAssertTrue(held.stderr.hasSuffix("no value of 'name', 'height' contains 'Vader' in \(cache)\n"), held.stderr)
        // A field cache key with its arguments is a field the records hold too.
        let keyed = gqlcache("grep", cache, "Vader", "--field", "height(unit:FOOT)")
        XCTAssertTrue(keyed.stderr.hasSuffix("no value of 'height(unit:FOOT)' contains 'Vader' in \(cache)\n"), keyed.stderr)
    }

    /// grep's --quiet is grep -q's, and its help says so, not the
    /// "no summaries" every other command's --quiet means.
    func testGrepsHelpDescribesItsQuietAsGrepQ() throws {
        let help = gqlcache("grep", "--help").stdout
        XCTAssertTrue(help.contains("-q, --quiet             Print nothing but errors, and stop at the first"), help)
        XCTAssertFalse(help.contains("no summaries such as"), help)
    }

    /// Apollo reads an object with a string $reference as a reference, and
    /// show and refs draw it so: grep finds and prints it as one too, and
    /// still searches the other members the file holds beside it.
    func testAnObjectWithAReferenceBesideOtherMembersIsFoundAsAReference() throws {
        let cache = try makeCache("mixed.sqlite", [], raw: [
            ("Human:1000", #"{"__typename":"Human","name":"Luke"}"#),
            ("V:1", #"{"__typename":"V","obj":{"$reference":"Human:1000","note":"Luke's"},"list":[{"$reference":"Human:1000","x":1}]}"#),
        ])
        XCTAssertEqual(gqlcache("grep", cache, "Human:1000").lines, ["V:1 list[0] → Human:1000", "V:1 obj → Human:1000"])
        XCTAssertEqual(gqlcache("grep", cache, "Luke's").lines, [#"V:1 obj.note: "Luke's""#])
        let json = try XCTUnwrap(try gqlcache("grep", cache, "Human", "--field", "obj", "--format", "json").json() as? [[String: Any]])
        XCTAssertEqual(json.count, 1)
        XCTAssertEqual(json[0]["path"] as? [String], [])
        XCTAssertEqual(json[0]["value"] as? [String: String], ["$reference": "Human:1000"])
    }

    func testAnInvalidRegexIsAUsageError() throws {
        let result = gqlcache("grep", try copyOfFixture("starwars.sqlite"), "(", "--regex")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: invalid pattern '(': not a valid regular expression (see 'gqlcache grep --help')\n")
    }

    /// An empty VALUE would list every value of the cache, and one mode
    /// refused it while the other did not: both refuse it, as --field ''.
    func testAnEmptyValueOrFieldIsAUsageErrorInEveryMode() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for arguments in [["grep", cache, ""], ["grep", cache, "", "--regex"], ["grep", cache, "", "-i"]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .usage, "\(arguments)")
            XCTAssertTrue(result.stderr.contains("an empty VALUE matches every field value"), result.stderr)
            XCTAssertEqual(result.stdout, "")
        }
        let field = gqlcache("grep", cache, "Luke", "--field", "")
        XCTAssertEqual(field.status, .usage)
        XCTAssertTrue(field.stderr.contains("--field needs a field name"), field.stderr)
    }

    func testJSONAndJSONLinesGiveThePathAsSteps() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("grep", cache, "Droid:2001", "--field", "search", "--format", "json")
        XCTAssertEqual(result.status, .success, result.stderr)
        let matches = try XCTUnwrap(try result.json() as? [[String: Any]])
        XCTAssertEqual(matches.count, 1)
        XCTAssertEqual(matches[0]["key"] as? String, "QUERY_ROOT")
        XCTAssertEqual(matches[0]["path"] as? [Int], [1, 0])
        XCTAssertEqual(matches[0]["value"] as? [String: String], ["$reference": "Droid:2001"])
        XCTAssertEqual(matches[0]["match"] as? String, "Droid:2001")
        XCTAssertEqual(gqlcache("grep", cache, "Han", "--format", "jsonl").lines, [
            #"{"key":"Human:1002","field":"name","path":[],"value":"Han Solo","match":"Han"}"#,
        ])
        XCTAssertEqual(gqlcache("grep", cache, "nothing", "--format", "json").stdout, "[]\n")
    }

    /// A number copied from sqlite3's output is found, and printed, as the
    /// file holds it.
    func testNumbersAreFoundAndPrintedAsTheFileHoldsThem() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        _ = try sqliteShell(cache, """
            UPDATE records SET record = '{"__typename":"Starship","name":"Falcon","ratio":1.10,"big":12345678901234567890123}'
            WHERE key = 'Starship:3001'
            """)
        XCTAssertEqual(gqlcache("grep", cache, "1.10").stdout, "Starship:3001 ratio: 1.10\n")
        let big = gqlcache("grep", cache, "12345678901234567890123", "--format", "jsonl")
        XCTAssertEqual(big.stdout, #"{"key":"Starship:3001","field":"big","path":[],"value":12345678901234567890123,"match":"12345678901234567890123"}"# + "\n")
        XCTAssertEqual(gqlcache("grep", cache, "e+22").status, .notFound, "the Double's shortest text is not in the file")
    }

    /// The others are searched, and the status says the search did not
    /// cover the file, as export's does (GNU grep: 2 after an error).
    func testDamagedRecordsAreReportedTheOthersSearchedAndTheStatusSaysSo() throws {
        let cache = try makeCache("damaged.sqlite", [Record(key: "A:1", fields: ["name": .string("needle")])], raw: [("B:1", "{needle")])
        let result = gqlcache("grep", cache, "needle")
        XCTAssertEqual(result.status, .damagedRecord)
        XCTAssertEqual(result.stdout, "A:1 name: \"needle\"\n")
        XCTAssertEqual(result.stderr, "gqlcache: \(cache): record 'B:1' is damaged: expected a member name in quotes at byte 2; not searched\n")
        let nothing = gqlcache("grep", cache, "haystack")
        XCTAssertEqual(nothing.status, .damagedRecord)
        XCTAssertTrue(nothing.stderr.hasSuffix("gqlcache: no field value contains 'haystack' in \(cache)\n"), nothing.stderr)
        // -q asks whether anything matched: a match answers yes, as grep -q's does after an error.
        XCTAssertEqual(gqlcache("grep", "-q", cache, "needle").status, .success)
        XCTAssertEqual(gqlcache("grep", "-q", cache, "haystack").status, .damagedRecord)
    }

    /// Bytes that are not UTF-8 read as U+FFFD, as Apollo reads them and
    /// `show` draws them: a literal search for that text finds the value
    /// as a case-insensitive one or a regex does, though SQLite's byte
    /// filter would not see it in the row.
    func testTextWithBytesThatAreNotUTF8IsFoundAsShownInEveryMode() throws {
        let cache = try makeCache("bytes.sqlite", [Record(key: "A:1", fields: ["v": .string("plain")])])
        _ = try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('L:1', CAST(X'7B2276223A2263616691FF227D' AS TEXT));"#)
        XCTAssertEqual(gqlcache("show", cache, "L:1").stdout, "L:1\n└─ v: \"caf\u{FFFD}\u{FFFD}\"\n")
        for mode in [[], ["-i"], ["--regex"]] {
            let found = gqlcache(arguments: ["grep", cache, "caf\u{FFFD}"] + mode)
            XCTAssertEqual(found.status, .success, "\(mode)")
            XCTAssertEqual(found.stdout, "L:1 v: \"caf\u{FFFD}\u{FFFD}\"\n", "\(mode)")
        }
    }

    /// A combining mark or a joiner right beside the match stays on the
    /// line in colour: it makes one character with the quote or the
    /// colour code next to it, and was dropped with the quote.
    func testAMarkOrJoinerBesideAColouredMatchIsKept() throws {
        let cache = try makeCache("marks.sqlite", [Record(key: "K:1", fields: ["v": .string("cafe\u{301} ok"), "w": .string("👨\u{200D}👩\u{200D}👧")])])
        let red = { (text: String) in "\u{1B}[1;31m\(text)\u{1B}[0m" }
        XCTAssertEqual(gqlcache("grep", cache, "fe", "--color", "always").stdout, "\u{1B}[1mK:1\u{1B}[0m v: \"ca\(red("fe"))\u{301} ok\"\n")
        XCTAssertEqual(gqlcache("grep", cache, "\u{301}", "--color", "always").stdout, "\u{1B}[1mK:1\u{1B}[0m v: \"cafe\(red("\u{301}")) ok\"\n")
        XCTAssertEqual(gqlcache("grep", cache, "👩", "--color", "always").stdout, "\u{1B}[1mK:1\u{1B}[0m w: \"👨\u{200D}\(red("👩"))\u{200D}👧\"\n")
    }

    /// In colour every match in a value is marked, as GNU grep marks every
    /// match on a line, in each mode; the JSON names the first.
    func testEveryMatchInAValueIsMarkedInColour() throws {
        let cache = try makeCache("many.sqlite", [Record(key: "K:1", fields: ["v": .string("Na na NA, na")])])
        let red = { (text: String) in "\u{1B}[1;31m\(text)\u{1B}[0m" }
        let line = { (body: String) in "\u{1B}[1mK:1\u{1B}[0m v: \"\(body)\"\n" }
        XCTAssertEqual(gqlcache("grep", cache, "na", "--color", "always").stdout, line("Na \(red("na")) NA, \(red("na"))"))
        XCTAssertEqual(gqlcache("grep", cache, "na", "-i", "--color", "always").stdout, line("\(red("Na")) \(red("na")) \(red("NA")), \(red("na"))"))
        XCTAssertEqual(gqlcache("grep", cache, "N.", "--regex", "--color", "always").stdout, line("\(red("Na")) na \(red("NA")), na"))
        // Empty matches mark nothing; the ones that are not are marked.
        XCTAssertEqual(gqlcache("grep", cache, "a*", "--regex", "--color", "always").stdout, line("N\(red("a")) n\(red("a")) NA, n\(red("a"))"))
        XCTAssertEqual(gqlcache("grep", cache, "na", "--format", "jsonl").stdout, #"{"key":"K:1","field":"v","path":[],"value":"Na na NA, na","match":"na"}"# + "\n")
        // A reference to a key shown quoted (it ends in a space, or holds a
        // line break) too: each match, not the escapes that spell the key.
        let quoted = try makeCache("quoted.sqlite", [
            Record(key: "K:1", fields: ["r": .reference("T:0-1 ")]), Record(key: "K:2", fields: ["r": .reference("Tn:a\nb")]),
        ])
        XCTAssertEqual(gqlcache("grep", quoted, "[0-9]", "--regex", "--color", "always").stdout, "\u{1B}[1mK:1\u{1B}[0m r → \"T:\(red("0"))-\(red("1")) \"\n")
        XCTAssertEqual(gqlcache("grep", quoted, "n", "--color", "always").stdout, "\u{1B}[1mK:2\u{1B}[0m r → \"T\(red("n")):a\\nb\"\n")
    }
}
