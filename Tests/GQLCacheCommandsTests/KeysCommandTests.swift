@testable import CacheStore
import XCTest

@testable import GQLCacheCommands

final class KeysCommandTests: CommandTestCase {
    func testKeysListsEveryKeyInByteOrder() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("keys", cache)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines.count, 10)
        XCTAssertEqual(result.lines, result.lines.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        XCTAssertEqual(result.lines.first, "Droid:2001")
    }

    /// `keys -z | xargs -0 gqlcache rm CACHE --` removes the keys listed,
    /// spaces, quotes and newlines in them included, where a plain
    /// `xargs` splits Apollo's own mutation key into words.
    func testNullEndedKeysGoThroughXargsWholeToRm() throws {
        let cache = try makeCache("odd.sqlite", [
            Record(key: "Note:a b", fields: ["__typename": .string("Note")]),
            Record(key: "Note:\"quoted\"", fields: ["__typename": .string("Note")]),
            Record(key: "Note:two\nlines", fields: ["__typename": .string("Note")]),
            Record(key: "-Note:dash", fields: ["__typename": .string("Note")]),
            Record(key: "Other:1", fields: ["__typename": .string("Other")]),
        ])
        let listed = gqlcache("keys", cache, "--type", "Note", "-z")
        XCTAssertEqual(listed.status, .success, listed.stderr)
        XCTAssertEqual(listed.stdout, "-Note:dash\u{0}Note:\"quoted\"\u{0}Note:a b\u{0}Note:two\nlines\u{0}")
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Note", "-Z").stdout, listed.stdout, "-Z too, as grep --keys-only -Z spells it")
        let pipeline = "'\(builtBinary)' keys '\(cache)' --type Note --null | xargs -0 '\(builtBinary)' rm '\(cache)' --"
        let removed = try runProgram("/bin/sh", ["-c", pipeline])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try keys(in: cache), ["Other:1"])
        // A key holding a NUL cannot be ended by one: named, not split.
        let nul = try makeCache("nul.sqlite", [Record(key: "C", fields: ["__typename": .string("C")])])
        try sqliteShell(nul, #"INSERT INTO records (key, record) VALUES ('A' || char(0) || 'B', '{"__typename":"A"}')"#)
        let withNUL = gqlcache("keys", nul, "-z")
        XCTAssertEqual(withNUL.stdout, "C\u{0}")
        XCTAssertEqual(withNUL.stderr, "gqlcache: warning: the key A\\u0000B holds a NUL, which --null cannot end; left out (--format jsonl lists it)\n")
        // Text alone: the other forms give each key exactly already.
        XCTAssertEqual(gqlcache("keys", cache, "-z", "--format", "jsonl").stderr,
                       "gqlcache: --null lists keys as text; --format jsonl gives each key exactly already (see 'gqlcache keys --help')\n")
        XCTAssertEqual(gqlcache("keys", cache, "-z", "--count").status, .usage)
    }

    func testApolloModePatternTreatsUnderscoreAsAWildcard() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("keys", cache, "Human:100_")
        XCTAssertEqual(result.lines, ["Human:1000", "Human:1002"])
    }

    func testLiteralModeTakesUnderscoreLiterally() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("keys", cache, "Human:100_", "--mode", "literal")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("no key matches literal pattern 'Human:100_'"), result.stderr)
    }

    /// keys, rm and grep say what found nothing the same way: what was
    /// asked for, then the file, as "no record 'X' in FILE" does.
    func testNoMatchMessagesNameWhatWasAskedForThenTheFile() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let cases: [([String], String)] = [
            (["keys", cache, "Zork"], "no key matches apollo pattern 'Zork' in \(cache)"),
            (["rm", cache, "--match", "Zork", "--force"], "no key matches apollo pattern 'Zork' in \(cache)"),
            (["keys", cache, "--type", "Zork"], "no record has __typename 'Zork' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship"),
            (["rm", cache, "--type", "Zork", "--force"], "no record has __typename 'Zork' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship"),
            (["keys", cache, "Human", "--type", "Droid"], "no key matches apollo pattern 'Human' with __typename 'Droid' in \(cache)"),
            (["keys", cache, "--type", "Zork", "--type", "Ewok"], "no record has __typename 'Zork' or 'Ewok' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship"),
            (["rm", cache, "--type", "Zork", "--type", "Ewok", "--force"], "no record has __typename 'Zork' or 'Ewok' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship"),
            (["grep", cache, "Zork"], "no field value contains 'Zork' in \(cache)"),
        ]
        assertEachFails(cases, with: .notFound)
    }

    /// A typename the file lacks, spelled like one it holds (case, a typo),
    /// gets the nearest ones it holds, for keys and rm alike.
    func testATypenameNotFoundSuggestsTheNearestTheFileHolds() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let cases: [([String], String)] = [
            (["keys", cache, "--type", "human"], "no record has __typename 'human' in \(cache); nearest typenames: Human"),
            (["rm", cache, "--type", "human", "--force"], "no record has __typename 'human' in \(cache); nearest typenames: Human"),
            (["rm", cache, "--type", "human", "--dry-run"], "no record has __typename 'human' in \(cache); nearest typenames: Human"),
            (["keys", cache, "--type", "Humans", "--type", "droid"],
             "no record has __typename 'Humans' or 'droid' in \(cache); nearest typenames: Human, Droid"),
            (["keys", cache, "--type", "Starships"], "no record has __typename 'Starships' in \(cache); nearest typenames: Starship"),
            // The typo, not the pattern, is why nothing matched; and --count, whose 0 alone would hide it.
            (["keys", cache, "Hu%", "--type", "Humn"], "no record has __typename 'Humn' in \(cache); nearest typenames: Human"),
            (["keys", cache, "--type", "Humn", "--count"], "no record has __typename 'Humn' in \(cache); nearest typenames: Human"),
        ]
        assertEachFails(cases, with: .notFound)
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Humn", "--count").stdout, "0\n")
        // A type the file holds, with a pattern that matches none of it: a count of 0, said by the status alone.
        let none = gqlcache("keys", cache, "zzz", "--type", "Human", "--count")
        XCTAssertEqual([none.stdout, none.stderr], ["0\n", ""])
        XCTAssertEqual(try keys(in: cache).count, 10, "nothing was removed")
    }

    /// Type names are short: a name 3 edits away ('Nope', 'Post') is no
    /// suggestion; with none near, the file's few types are named instead.
    func testAnAbsentTypenameFarFromEveryTypeListsTheFilesTypes() throws {
        let cache = try makeCache("types.sqlite", [
            Record(key: "Post:1", fields: ["__typename": .string("Post")]), Record(key: "User:1", fields: ["__typename": .string("User")]),
        ])
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Nope").stderr,
                       "gqlcache: no record has __typename 'Nope' in \(cache); the file's typenames: Post, User\n")
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Usr").stderr, "gqlcache: no record has __typename 'Usr' in \(cache); nearest typenames: User\n")
    }

    /// Of several --type names, one the file lacks is named on standard
    /// error after the others' keys (a typo the listing would hide), with
    /// exit status 1, as rm --type names it.
    func testAnAbsentTypenameAmongSeveralIsNamedAfterTheKeysOfTheRest() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let listed = gqlcache("keys", cache, "--type", "Droid", "--type", "Humen")
        XCTAssertEqual(listed.status, .notFound, listed.stderr)
        XCTAssertEqual(listed.lines, ["Droid:2001"])
        XCTAssertEqual(listed.stderr, "gqlcache: no record has __typename 'Humen' in \(cache); nearest typenames: Human\n")

        let counted = gqlcache("keys", cache, "--type", "Droid", "--type", "Human", "--type", "Ewok", "--count")
        XCTAssertEqual(counted.stdout, "3\n")
        XCTAssertEqual(counted.status, .notFound)
        XCTAssertEqual(counted.stderr, "gqlcache: no record has __typename 'Ewok' in \(cache); the file's typenames: Droid, FriendsConnection, Human, Review, Starship\n")

        // A type the file has, which only the pattern leaves out, is no typo.
        let patterned = gqlcache("keys", cache, "Human:%", "--type", "Human", "--type", "Droid", "--limit", "1")
        XCTAssertEqual(patterned.lines, ["Human:1000"])
        XCTAssertEqual(patterned.status, .success)
        XCTAssertEqual(patterned.stderr, "")
        let patternedTypo = gqlcache("keys", cache, "100", "--type", "Human", "--type", "Droid", "--type", "Dorid", "--count")
        XCTAssertEqual(patternedTypo.stdout, "2\n")
        XCTAssertEqual(patternedTypo.status, .notFound)
        XCTAssertEqual(patternedTypo.stderr, "gqlcache: no record has __typename 'Dorid' in \(cache); nearest typenames: Droid\n")

        let allHeld = gqlcache("keys", cache, "--type", "Droid", "--type", "Human", "--type", "Droid")
        XCTAssertEqual(allHeld.lines, ["Droid:2001", "Human:1000", "Human:1002"])
        XCTAssertEqual(allHeld.stderr, "")
        XCTAssertEqual(allHeld.status, .success)
    }

    func testPrefixGlobAndRegexModes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("keys", cache, "QUERY_ROOT.", "--mode", "prefix").lines,
                       ["QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1"])
        XCTAssertEqual(gqlcache("keys", cache, "query_root", "--mode", "prefix").status, .notFound)
        XCTAssertEqual(gqlcache("keys", cache, "Human:*", "--mode", "glob").lines, ["Human:1000", "Human:1002"])
        XCTAssertEqual(gqlcache("keys", cache, "*.[01]", "--mode", "glob").lines,
                       ["QUERY_ROOT.reviews(episode:JEDI,first:2).0", "QUERY_ROOT.reviews(episode:JEDI,first:2).1"])
        XCTAssertEqual(gqlcache("keys", cache, "human:*", "--mode", "glob").status, .notFound)
        XCTAssertEqual(gqlcache("keys", cache, "^(Human|Droid):[0-9]+$", "--mode", "regex").lines,
                       ["Droid:2001", "Human:1000", "Human:1002"])
    }

    func testTypeFilterLimitAndCount() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Review").lines.count, 3)
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Review", "--limit", "1").lines,
                       ["MUTATION_ROOT.createReview(episode:JEDI,[review:commentary:This is a great movie!,stars:5])"])
        XCTAssertEqual(gqlcache("keys", cache, "--count").stdout, "10\n")
        // --limit 0 lists none of what matched, which is no miss; a type no record has still is.
        let limited = gqlcache("keys", cache, "--type", "Human", "--limit", "0")
        XCTAssertEqual([limited.stdout, limited.stderr], ["", ""])
        XCTAssertEqual(limited.status, .success)
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Humn", "--limit", "0").status, .notFound)
        // So with --count: the count shown is cut to 0, the status says keys matched.
        let counted = gqlcache("keys", cache, "Human", "--count", "--limit", "0")
        XCTAssertEqual([counted.stdout, counted.stderr], ["0\n", ""])
        XCTAssertEqual(counted.status, .success)
        XCTAssertEqual(gqlcache("keys", cache, "Nothing:", "--count", "--limit", "0").status, .notFound)
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Human", "--type", "Droid").lines, ["Droid:2001", "Human:1000", "Human:1002"],
                       "a repeated --type lists the records of every type named")
        XCTAssertEqual(gqlcache("keys", cache, "--type", "Human", "--type", "Droid", "--count").stdout, "3\n")
        XCTAssertEqual(gqlcache("keys", cache, "human", "--count").stdout, "2\n")
        let none = gqlcache("keys", cache, "Nothing:", "--count")
        XCTAssertEqual(none.stdout, "0\n")
        XCTAssertEqual(none.status, .notFound)
    }

    /// --type refuses an empty name, so a record whose __typename is ""
    /// is never offered for it, neither as a nearest name nor by Tab.
    func testATypenameThatIsEmptyIsNeverSuggestedForType() throws {
        let cache = try makeCache("types.sqlite", [
            Record(key: .queryRoot, fields: ["a": .int(1)]),
            Record(key: "T:1", fields: ["__typename": .string("")]), Record(key: "T:2", fields: ["__typename": .string("Tx")]),
        ])
        let missed = gqlcache("keys", cache, "--type", "5")
        XCTAssertEqual(missed.status, .notFound)
        XCTAssertEqual(missed.stderr, "gqlcache: no record has __typename '5' in \(cache); nearest typenames: Tx\n")
        let store = try CacheStore.open(at: cache, access: .readOnly)
        XCTAssertEqual(CompletionSources.typenames(in: store), ["Tx"])
    }

    func testJSONAndJSONLinesOutputsParse() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let json = gqlcache("keys", cache, "Droid", "--format", "json")
        XCTAssertEqual(try json.json() as? [String], ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        let jsonl = gqlcache("keys", cache, "Droid", "--format", "jsonl")
        let decoded = try jsonl.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) as? String }
        XCTAssertEqual(decoded, ["Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"])
        XCTAssertEqual(try gqlcache("keys", cache, "--format", "json", "--type", "Nope").json() as? [String], [])
        XCTAssertEqual(try gqlcache("keys", cache, "--count", "--format", "json").json() as? [String: Int], ["count": 10])
    }

    func testInvalidRegexIsAUsageError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("keys", cache, "(", "--mode", "regex")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: invalid pattern '(': not a valid regular expression (see 'gqlcache keys --help')\n")
    }

    func testAGlobWithAnOpenBracketIsAUsageErrorNotAnEmptyResult() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("keys", cache, "Human:[1", "--mode", "glob")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: invalid pattern 'Human:[1': a '[' is never closed by ']' (write \\[ or [[] for a literal '[') (see 'gqlcache keys --help')\n")
        XCTAssertEqual(gqlcache("rm", cache, "--match", "Human:[1", "--mode", "glob", "--force").status, .usage)
        XCTAssertEqual(gqlcache("keys", cache, "Human:100[02]", "--mode", "glob").stdout, "Human:1000\nHuman:1002\n")
    }

    func testKeysWithAControlCharacterAreQuotedInTextAndEscapedInJSONLines() throws {
        let cache = try makeCache("odd.sqlite", [
            Record(key: "Line\nBreak:1", fields: ["__typename": .string("Odd")]),
            Record(key: "Plain:1", fields: ["a": .int(1)]),
        ])
        XCTAssertEqual(gqlcache("keys", cache).stdout, "\"Line\\nBreak:1\"\nPlain:1\n")
        XCTAssertEqual(gqlcache("keys", cache, "--format", "jsonl").lines, [#""Line\nBreak:1""#, #""Plain:1""#])
        XCTAssertTrue(gqlcache("show", cache, "Line\nBreak:1").stdout.hasPrefix("\"Line\\nBreak:1\" (Odd)\n"))
    }

    /// A C1 control (U+009B is CSI to some terminals) is a control
    /// character too; and a field name is shown as a key is, so an escape
    /// sequence or a line break in one cannot act on the terminal or look
    /// like another line, in show, refs, grep and diff alike.
    func testC1ControlsAndFieldNamesWithControlCharactersAreShownEscaped() throws {
        let csiKey = "T:\u{9B}1m"
        let cache = try makeCache("c1.sqlite", [
            Record(key: "T:1", fields: [
                "f\u{1B}[2Jname": .string("zz"), "nl\nfield": .reference(CacheKey(csiKey)), "csi": .string("\u{9B}31m"),
            ]),
            Record(key: CacheKey(csiKey), fields: ["a": .int(1)]),
        ])
        XCTAssertEqual(gqlcache("keys", cache).stdout, "T:1\n\"T:\\u009b1m\"\n")
        XCTAssertEqual(gqlcache("show", cache, "T:1", "--depth", "0").stdout, """
            T:1
            ├─ csi: "\\u009b31m"
            ├─ "f\\u001b[2Jname": "zz"
            └─ "nl\\nfield" → "T:\\u009b1m"

            """)
        XCTAssertTrue(gqlcache("refs", cache, csiKey).stdout.hasSuffix("incoming references (1)\n  T:1 \"nl\\nfield\"\n"))
        XCTAssertEqual(gqlcache("grep", cache, "zz").stdout, "T:1 \"f\\u001b[2Jname\": \"zz\"\n")
        let other = try makeCache("c1b.sqlite", [Record(key: "T:1", fields: ["f\u{1B}[2Jname": .string("yy")])])
        XCTAssertEqual(gqlcache("diff", other, cache).stdout.components(separatedBy: "\n").filter { $0.contains("name") },
                       [#"    ~ "f\u001b[2Jname": "yy" → "zz""#])
        XCTAssertEqual(gqlcache("keys", cache, "--format", "jsonl").lines, [#""T:1""#, #""T:\u009b1m""#], "JSON Lines gives the key exactly, escaped")
    }

    /// A `__typename` is shown as info shows it: quoted with its escape
    /// sequence or line break escaped, and an empty one as `""`.
    func testTypenamesWithControlCharactersAreShownEscapedInShowAndRefs() throws {
        let cache = try makeCache("typename.sqlite", [
            Record(key: "C:1", fields: ["__typename": .string("Evil\u{1B}[2J\nType")]),
            Record(key: "C:2", fields: ["__typename": .string(""), "to": .reference("C:1")]),
        ])
        XCTAssertEqual(gqlcache("show", cache, "C:1").lines.first, #"C:1 ("Evil\u001b[2J\nType")"#)
        XCTAssertEqual(gqlcache("show", cache, "C:2").lines.first, #"C:2 ("")"#)
        XCTAssertEqual(gqlcache("refs", cache, "C:2").lines.prefix(2), [#"C:2 ("")"#, #"└─ to → C:1 ("Evil\u001b[2J\nType")"#])
        XCTAssertEqual(gqlcache("refs", cache, "C:1").lines.first, #"C:1 ("Evil\u001b[2J\nType")"#)
    }

    /// A file name with a line break or an escape sequence is escaped in
    /// the text that names it, as in the error messages.
    func testAFileNameWithControlCharactersIsShownEscapedInTextOutput() throws {
        let odd = try copyOfFixture("starwars.sqlite", as: "nl\nname\u{1B}[31m.sqlite")
        func shown(_ path: String) -> String {
            "\"" + path.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1B}", with: "\\u001b") + "\""
        }
        XCTAssertTrue(gqlcache("info", odd).stdout.hasPrefix("file          \(shown(odd))\n"), gqlcache("info", odd).stdout)
        XCTAssertEqual(gqlcache("doctor", odd).lines.first, "\(shown(odd)): no problems in 10 records")
        XCTAssertTrue(gqlcache("stats", odd).stdout.contains(shown(odd) + ", "), gqlcache("stats", odd).stdout)
        XCTAssertEqual(gqlcache("export", odd, "-o", odd + ".jsonl").stdout, "exported 10 records (jsonl) to \(shown(odd + ".jsonl"))\n")
        XCTAssertTrue(gqlcache("import", odd, odd + ".jsonl").stdout.contains("into \(shown(odd))"))
        let json = try XCTUnwrap(try gqlcache("info", odd, "--format", "json").json() as? [String: Any])
        XCTAssertEqual(json["file"] as? String, odd, "JSON gives the name exactly")
    }

    /// One that backtracks without filling the matcher's stack (`(a|b)+$`
    /// over a long key that does not end so) ran for minutes to say no
    /// match: past the time limit it is given up, as one that fills it.
    func testARegexThatRunsPastTheTimeLimitOnAKeyIsGivenUpAsAnError() throws {
        let limit = RegexCache.searchTimeLimit
        RegexCache.searchTimeLimit = 0.05
        defer { RegexCache.searchTimeLimit = limit }
        let cache = try makeCache("slow.sqlite", [
            Record(key: CacheKey(String(repeating: "a", count: 20_000) + " c"), fields: ["a": .int(1)]), Record(key: "ab", fields: ["a": .int(1)]),
        ])
        let result = gqlcache("keys", cache, "(a|b)+$", "--mode", "regex")
        XCTAssertEqual(result.status, .usage, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: the regular expression '(a|b)+$' gave up on key 'aaaa"), result.stderr)
        XCTAssertEqual(gqlcache("keys", cache, "^(a|b)+$", "--mode", "regex").stdout, "ab\n", "anchored, it is quick")
    }

    /// A short key is timed too when the pattern can backtrack for long
    /// over it: `(a+)+$` over a hundred characters ran for a minute.
    func testARegexThatCanBacktrackLongOverAShortKeyIsTimedToo() throws {
        let limit = RegexCache.searchTimeLimit
        RegexCache.searchTimeLimit = 0.05
        defer { RegexCache.searchTimeLimit = limit }
        let cache = try makeCache("short.sqlite", [
            Record(key: CacheKey(String(repeating: "a", count: 30) + "!"), fields: ["a": .int(1)]), Record(key: "aa", fields: ["a": .int(1)]),
        ])
        let result = gqlcache("keys", cache, "(a+)+$", "--mode", "regex")
        XCTAssertEqual(result.status, .usage, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: the regular expression '(a+)+$' gave up on key 'aaaa"), result.stderr)
        XCTAssertEqual(gqlcache("keys", cache, "^a+$", "--mode", "regex").stdout, "aa\n")
    }

    /// A key pattern ICU's matcher gives up on (in SQLite's function) is an
    /// error, for keys and for rm, which then removes nothing.
    func testARegexTheMatcherGivesUpOnIsAnErrorAndRemovesNothing() throws {
        let cache = try makeCache("long.sqlite", [
            Record(key: CacheKey("K" + String(repeating: "ab", count: 200_000) + "END"), fields: ["a": .int(1)]), Record(key: "KabEND", fields: ["a": .int(1)]),
        ])
        let before = try bytes(cache)
        for arguments in [["keys", cache, "^K(a|b)*END", "--mode", "regex", "--count"], ["rm", cache, "--match", "^K(a|b)*END", "--mode", "regex", "--force"]] {
            let result = gqlcache(arguments: arguments)
            XCTAssertEqual(result.status, .usage, arguments[0])
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: the regular expression '^K(a|b)*END' gave up on key 'Kababab"), result.stderr)
        }
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertEqual(gqlcache("keys", cache, "^K[ab]*END", "--mode", "regex", "--count").stdout, "2\n")
    }

    /// `*` in an apollo pattern is a star, as in Apollo's
    /// removeObjects(matching:): a miss says so, and which mode takes it.
    func testAMissWithAStarInAnApolloPatternPointsToGlob() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let star = gqlcache("keys", cache, "Human:*")
        XCTAssertEqual(star.status, .notFound)
        XCTAssertEqual(star.stderr, "gqlcache: no key matches apollo pattern 'Human:*' in \(cache); '*' and '?' are no wildcards in an apollo pattern (% and _ are its wildcards): give --mode glob for them\n")
        XCTAssertEqual(gqlcache("keys", cache, "Human:*", "--mode", "glob").stdout, "Human:1000\nHuman:1002\n")
        XCTAssertEqual(gqlcache("rm", cache, "--match", "Nope:*", "--dry-run").stderr.hasSuffix("give --mode glob for them\n"), true)
        XCTAssertEqual(gqlcache("keys", cache, "Nope").stderr, "gqlcache: no key matches apollo pattern 'Nope' in \(cache)\n")
    }

    /// An empty key would print as a blank line, and `would remove ` with
    /// nothing after it: it is quoted, `""`, as a key with a newline is.
    func testAnEmptyKeyIsShownQuoted() throws {
        let cache = try makeCache("empty.sqlite", [
            Record(key: "", fields: ["__typename": .string("Odd")]),
            Record(key: "Plain:1", fields: ["a": .int(1)]),
        ])
        XCTAssertEqual(gqlcache("keys", cache).stdout, "\"\"\nPlain:1\n")
        XCTAssertEqual(gqlcache("keys", cache, "--format", "jsonl").lines, [#""""#, #""Plain:1""#])
        XCTAssertEqual(gqlcache("rm", cache, "", "--dry-run").stdout, "would remove \"\"\nwould remove 1 record, leaving no reference dangling\n")
    }

    /// The key `""` (two quote marks) is not the empty key, and the key
    /// `"a\nb"` (quotes, backslash and all) not the one with a line break:
    /// a key that begins with a quote is shown quoted too, so no two keys
    /// look alike, as git quotes such paths; nor do `Spaces:1 ` and `Spaces:1`.
    func testAKeyThatBeginsWithAQuoteOrEndsInASpaceIsShownQuotedSoNoTwoKeysLookAlike() throws {
        let cache = try makeCache("alike.sqlite", [
            Record(key: "", fields: ["a": .int(1)]),
            Record(key: #""""#, fields: ["a": .int(2)]),
            Record(key: "a\nb", fields: ["a": .int(3)]),
            Record(key: #""a\nb""#, fields: ["a": .int(4)]),
            Record(key: #"Say:"hi""#, fields: ["a": .int(5)]),
            Record(key: "Spaces:1 ", fields: ["a": .int(6)]),
            Record(key: "Spaces:1", fields: ["a": .int(7)]),
        ])
        XCTAssertEqual(gqlcache("keys", cache).lines, [#""""#, #""\"\"""#, #""\"a\\nb\"""#, #"Say:"hi""#, "Spaces:1", #""Spaces:1 ""#, #""a\nb""#])
        XCTAssertEqual(Set(gqlcache("keys", cache).lines).count, 7)
    }

    /// A line separator would break the line, a right-to-left override
    /// would show the key (and the rest of the line) reversed, and a
    /// no-break space at an end looks like nothing: such keys are quoted,
    /// the movers escaped, and the listing still names them for rm.
    func testKeysWithCharactersThatMoveTextOrBlankEndsAreQuotedAndTypedBackAsShown() throws {
        let cache = try makeCache("movers.sqlite", [
            Record(key: "Evil\u{202E}Key:1", fields: ["a": .int(1)]),
            Record(key: "Line\u{2028}Break:1", fields: ["a": .int(2)]),
            Record(key: "NoBreak:1\u{00A0}", fields: ["a": .int(3)]),
            Record(key: "Café:1", fields: ["a": .int(4)]),
            Record(key: "Zero:1\u{200B}", fields: ["a": .int(5)]),
            Record(key: "User:\u{200B}1", fields: ["a": .int(6)]),
            Record(key: "Tag:\u{E0041}", fields: ["a": .int(7)]),
            Record(key: "Family:👨\u{200D}👩\u{200D}👧", fields: ["a": .int(8)]),
        ])
        let listed = gqlcache("keys", cache).lines
        // An invisible character anywhere is escaped, as User:1 and User:\u200b1 would look alike;
        // the zero-width joiner, which makes one emoji of several, is not.
        XCTAssertEqual(listed, [
            "Café:1", #""Evil\u202eKey:1""#, "Family:👨\u{200D}👩\u{200D}👧", #""Line\u2028Break:1""#, "\"NoBreak:1\u{00A0}\"",
            #""Tag:\udb40\udc41""#, #""User:\u200b1""#, #""Zero:1\u200b""#,
        ])
        let miss = gqlcache("show", cache, "User:1").stderr
        XCTAssertTrue(miss.hasSuffix(#"nearest keys: "User:\u200b1""# + "\n"), "the nearest key is shown escaped too: \(miss)")
        // Typed back at the REPL's prompt as shown, each names its key.
        for (shown, key) in zip([listed[1], listed[3], listed[4], listed[5], listed[6]],
                                ["Evil\u{202E}Key:1", "Line\u{2028}Break:1", "NoBreak:1\u{00A0}", "Tag:\u{E0041}", "User:\u{200B}1"]) {
            XCTAssertEqual(try ShellWords.split("rm " + shown), ["rm", key])
        }
    }

    /// Characters Unicode says to draw as nothing, not only format ones:
    /// the combining grapheme joiner, the Hangul fillers, and a joiner or
    /// variation selector that follows no emoji. `Droid:2001` and
    /// `Droid:2001\u034f` must not look alike; a heart with its emoji
    /// selector, or a family of joined emoji, shows as it is.
    func testKeysWithCharactersDrawnAsNothingAreEscapedButEmojiSequencesAreNot() throws {
        let cache = try makeCache("ignorable.sqlite", [
            Record(key: "Droid:2001", fields: ["a": .int(1)]),
            Record(key: "Droid:2001\u{034F}", fields: ["a": .int(2)]),
            Record(key: "Droid:20\u{200D}01", fields: ["a": .int(3)]),
            Record(key: "Droid:2001\u{FE0F}", fields: ["a": .int(4)]),
            Record(key: "Hangul:\u{3164}1", fields: ["a": .int(5)]),
            Record(key: "Hangul:\u{115F}2", fields: ["a": .int(6)]),
            Record(key: "Love:\u{2764}\u{FE0F}", fields: ["a": .int(7)]),
            Record(key: "Fire:\u{2764}\u{FE0F}\u{200D}\u{1F525}", fields: ["a": .int(8)]),
            Record(key: "Tag:1\u{FE0F}\u{20E3}", fields: ["a": .int(9)]),
            Record(key: "User:\u{1F44D}\u{200D}", fields: ["a": .int(10)]),
            Record(key: "User:\u{1F44D}\u{FE0F}", fields: ["a": .int(11)]),
            Record(key: "City:\u{0DC1}\u{0DCA}\u{200D}\u{0DBB}\u{0DD3}", fields: ["a": .int(12)]),
            Record(key: "Person:\u{845B}\u{E0100}", fields: ["a": .int(13)]),
        ])
        // A keycap, a Sinhala conjunct and an ideographic variant show what
        // their joiner or selector does; after 👍, which is drawn as an emoji
        // anyway, a trailing joiner or a selector shows nothing.
        XCTAssertEqual(Set(gqlcache("keys", cache).lines), [
            "Droid:2001", #""Droid:2001\u034f""#, #""Droid:20\u200d01""#, #""Droid:2001\ufe0f""#,
            #""Hangul:\u31641""#, #""Hangul:\u115f2""#, "Love:\u{2764}\u{FE0F}", "Fire:\u{2764}\u{FE0F}\u{200D}\u{1F525}",
            "Tag:1\u{FE0F}\u{20E3}", #""User:\#u{1F44D}\u200d""#, #""User:\#u{1F44D}\ufe0f""#,
            "City:\u{0DC1}\u{0DCA}\u{200D}\u{0DBB}\u{0DD3}", "Person:\u{845B}\u{E0100}",
        ])
        // An escape followed by a combining mark is read back at the prompt.
        XCTAssertEqual(try ShellWords.split("show \"X:\\u200b\u{0301}\""), ["show", "X:\u{200B}\u{0301}"])
        let miss = gqlcache("show", cache, "Droid:2001\u{034F}x")
        XCTAssertTrue(miss.stderr.contains(#"no record 'Droid:2001\u034fx'"#), miss.stderr)
        XCTAssertEqual(try ShellWords.split(#"rm "Droid:2001\u034f""#), ["rm", "Droid:2001\u{034F}"])
    }

    /// JSON output escapes U+2028 and U+2029, as it may hold them raw:
    /// Python's `splitlines()` (and JavaScript before ES2019) ends a line
    /// there, and would cut a JSON Lines object in two.
    func testJSONOutputEscapesTheLineAndParagraphSeparators() throws {
        let cache = try makeCache("separators.sqlite", [
            Record(key: "Line\u{2028}sep:1", fields: ["text": .string("a\u{2029}b")]),
        ])
        let keys = gqlcache("keys", cache, "--format", "jsonl")
        XCTAssertEqual(keys.stdout, #""Line\u2028sep:1""# + "\n")
        let shown = gqlcache("show", cache, "Line\u{2028}sep:1", "--format", "jsonl")
        XCTAssertTrue(shown.stdout.contains(#""text":"a\u2029b""#), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("\u{2029}"))
        guard case .object(let parsed) = try FieldValue(jsonText: shown.stdout.trimmingCharacters(in: .newlines)) else {
            return XCTFail(shown.stdout)
        }
        XCTAssertEqual(parsed["key"], .string("Line\u{2028}sep:1"))
        // The file keeps the characters raw, as Apollo writes them.
        XCTAssertEqual(try sqliteShell(cache, "SELECT instr(record, char(8233)) > 0 FROM records"), "1")
    }

    /// A key typed as a listing shows it (the inside of its quotes, escapes
    /// and all), or with an accent encoded the other way, looks like the
    /// nearest key the miss names: the message says how the two differ.
    func testAMissThatLooksLikeItsNearestKeySaysHowTheyDiffer() throws {
        let cache = try makeCache("alike.sqlite", [
            Record(key: "New\nline:1", fields: ["a": .int(1)]), Record(key: "Cafe\u{301}:1", fields: ["a": .int(2)]),
        ])
        let escaped = gqlcache("show", cache, #"New\nline:1"#)
        XCTAssertEqual(escaped.status, .notFound)
        XCTAssertEqual(escaped.stderr, #"gqlcache: no record 'New\nline:1' in \#(cache); nearest keys: "New\nline:1" (a key shown in quotes is a JSON string: "#
            + #"its escapes stand for the characters, such as \n for a newline; type the characters, as bash's $'…' does, or take the key from --format jsonl)"# + "\n")
        // Also one that begins with a combining mark, which makes one character with the quote.
        let marked = try makeCache("marked.sqlite", [Record(key: "\u{301}a\nb", fields: ["a": .int(1)])])
        XCTAssertTrue(gqlcache("show", marked, "\u{301}a\\nb").stderr.contains("(a key shown in quotes is a JSON string: "))
        let composed = gqlcache("show", cache, "Caf\u{E9}:1")
        XCTAssertEqual(composed.status, .notFound)
        XCTAssertTrue(composed.stderr.hasSuffix("(the two look alike but differ in their bytes: an accented character is written composed in one "
            + "and as a letter plus a combining mark in the other, and keys are compared byte by byte)\n"), composed.stderr)
        XCTAssertFalse(gqlcache("show", cache, "Caff:1").stderr.contains("look alike"))
        // Composed, the key sorts far from its decomposed form (E is 0x45, É 0xC3 0x89): still named.
        let far = try makeCache("far.sqlite", [Record(key: "\u{C9}:1", fields: ["a": .int(1)])]
            + "FGHIJKLMNOPQRSTUVWXYZ".map { Record(key: CacheKey("\($0):1"), fields: ["a": .int(1)]) })
        let decomposed = gqlcache("show", far, "E\u{301}:1")
        XCTAssertTrue(decomposed.stderr.contains("nearest keys: \u{C9}:1 (the two look alike"), decomposed.stderr)
    }

    /// A key typed up to its arguments or its path, which is no key, is
    /// answered with the keys that go on from it.
    func testAMissOnTheStartOfKeysNamesTheKeysThatGoOnFromIt() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("show", cache, "QUERY_ROOT.reviews")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertEqual(result.stderr, "gqlcache: no record 'QUERY_ROOT.reviews' in \(cache); read as a path of fields, it is field "
            + "reviews(episode:JEDI,first:2) of QUERY_ROOT, not a record; nearest keys: "
            + "QUERY_ROOT.reviews(episode:JEDI,first:2).0, QUERY_ROOT.reviews(episode:JEDI,first:2).1\n")
    }

    /// A damaged record has no __typename to read: a --type says such
    /// records exist, in its miss or in a warning, as rm --type warns of them.
    func testATypeThatFindsNothingNamesTheDamagedRecordsItCouldNotRead() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('Deep:1', '{"__typename":"Deep",')"#)
        let result = gqlcache("keys", cache, "--type", "Deep")
        XCTAssertEqual(result.status, .notFound)
        XCTAssertTrue(result.stderr.hasSuffix(" (1 damaged record has no readable __typename; 'gqlcache doctor' lists them)\n"), result.stderr)
        let sound = gqlcache("keys", try copyOfFixture("starwars.sqlite", as: "sound.sqlite"), "--type", "Deep")
        XCTAssertFalse(sound.stderr.contains("damaged"), sound.stderr)
        // One that finds some warns as well: the damaged one may be of the type too (in the pattern's keys, when one is given).
        let warning = "gqlcache: warning: 1 damaged record in \(cache) has no readable __typename, so --type cannot tell whether it is of the type; "
            + "'gqlcache doctor' lists them\n"
        for arguments in [["--type", "Human"], ["--type", "Human", "--count"], ["D%", "--type", "Droid"]] {
            let found = gqlcache(arguments: ["keys", cache] + arguments)
            XCTAssertEqual(found.status, .success, "\(arguments)")
            XCTAssertEqual(found.stderr, warning, "\(arguments)")
        }
        XCTAssertEqual(gqlcache("keys", cache, "Human%", "--type", "Human").stderr, "", "the damaged record's key is not in the pattern's")
        // --count says it too, and a miss counts only what the pattern matches, as the warning does.
        let counted = gqlcache("keys", cache, "--type", "Deep", "--count")
        XCTAssertEqual(counted.status, .notFound)
        XCTAssertEqual(counted.stdout, "0\n")
        XCTAssertTrue(counted.stderr.hasSuffix(" (1 damaged record has no readable __typename; 'gqlcache doctor' lists them)\n"), counted.stderr)
        let elsewhere = gqlcache("keys", cache, "Starship%", "--type", "Droid")
        XCTAssertEqual(elsewhere.status, .notFound)
        XCTAssertFalse(elsewhere.stderr.contains("damaged"), elsewhere.stderr)
        XCTAssertEqual(gqlcache("keys", cache, "Human%").stderr, "", "without --type, nothing to tell")
    }

    /// A text naming `__typename` twice has the last one's type, as JSON
    /// readers (Apollo's among them) keep the last member: keys --type
    /// lists what rm --type removes and info counts.
    func testARecordWithTwoTypenamesIsOfTheLastOneForEveryCommand() throws {
        let cache = try makeCache("twice.sqlite", [Record(key: "Plain:1", fields: ["__typename": .string("A")])],
                                  raw: [("Twice:1", #"{"__typename":"A","x":1,"__typename":"B"}"#)])
        XCTAssertEqual(gqlcache("keys", cache, "--type", "B").lines, ["Twice:1"])
        XCTAssertEqual(gqlcache("keys", cache, "--type", "A").lines, ["Plain:1"])
        XCTAssertEqual(gqlcache("rm", cache, "--type", "B", "--dry-run").lines.first, "would remove Twice:1")
        let info = gqlcache("info", cache).lines
        XCTAssertTrue(info.contains("  A  1") && info.contains("  B  1"), info.joined(separator: "\n"))
    }

    /// A member name written with a `\u` escape is the name it spells, as
    /// JSON readers read it: keys --type lists what rm --type removes.
    func testATypenameMemberWrittenWithAnEscapeIsOfItsTypeForEveryCommand() throws {
        let cache = try makeCache("escaped.sqlite", [Record(key: "Plain:1", fields: ["__typename": .string("A")])],
                                  raw: [("Escaped:1", #"{"__typen\u0061me":"A"}"#)])
        XCTAssertEqual(gqlcache("keys", cache, "--type", "A").lines, ["Escaped:1", "Plain:1"])
        XCTAssertEqual(gqlcache("rm", cache, "--type", "A", "--dry-run").lines.prefix(2), ["would remove Escaped:1", "would remove Plain:1"])
    }

    func testModeWithoutAPatternIsAUsageError() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("keys", cache, "--type", "Human", "--mode", "regex")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: --mode goes with a PATTERN (see 'gqlcache keys --help')\n")
    }

    func testEmptyPatternsMatchAsTheirModeSays() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        for mode in ["literal", "prefix", "regex"] {
            XCTAssertEqual(gqlcache("keys", cache, "", "--mode", mode, "--count").stdout, "10\n", mode)
        }
        XCTAssertEqual(gqlcache("keys", cache, "", "--mode", "glob").status, .notFound, "an empty glob matches only an empty key")
        XCTAssertEqual(gqlcache("keys", cache, "").status, .notFound, "Apollo ignores an empty pattern")
        let globRemoval = gqlcache("rm", cache, "--match", "", "--mode", "glob", "--force")
        XCTAssertEqual(globRemoval.status, .notFound, globRemoval.stderr)
        XCTAssertEqual(gqlcache("rm", cache, "--match", "", "--mode", "regex", "--force").status, .usage)
        XCTAssertEqual(try keys(in: cache).count, 10)
    }

    /// An empty apollo pattern matches nothing, as Apollo's
    /// removeObjects(matching: "") removes nothing; keys says so as rm does.
    func testAnEmptyApolloPatternIsSaidToMatchNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let empty = gqlcache("keys", cache, "")
        XCTAssertEqual(empty.status, .notFound)
        XCTAssertEqual(empty.stderr, "gqlcache: no key matches apollo pattern '' in \(cache); an empty apollo pattern matches nothing "
            + "(Apollo ignores it; before 1.21 it removed every record): give no pattern for every key\n")
        XCTAssertEqual(gqlcache("keys", cache, "", "--mode", "literal").lines.count, 10)
    }
}
