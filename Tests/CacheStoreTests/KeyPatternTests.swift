import Foundation
import GRDB
import XCTest

@testable import CacheStore

/// KeyPattern: the in-memory decision of each mode, and its agreement with
/// the SQL the store runs for listing, counting and removal.
final class KeyPatternTests: XCTestCase {

    // MARK: In-memory semantics

    func testApolloModeUnderscoreIsAWildcardLikeApolloSQLite() throws {
        let pattern = try KeyPattern("Human:100_", mode: .apollo)
        XCTAssertTrue(pattern.matches("Human:1000"))
        XCTAssertTrue(pattern.matches("Human:1002"))
        XCTAssertTrue(pattern.matches("Human:100_"))
        XCTAssertTrue(pattern.matches("QUERY_ROOT.human:10009"), "a substring match, ASCII case-insensitive")
        XCTAssertFalse(pattern.matches("Human:100"), "_ needs exactly one character")
        XCTAssertFalse(pattern.matches("Droid:2001"))
    }

    func testApolloModePercentMatchesEveryKey() throws {
        let pattern = try KeyPattern("%", mode: .apollo)
        for key in Fixtures.starwarsKeys + ["", "x"] { XCTAssertTrue(pattern.matches(key), key.rawValue) }
        XCTAssertFalse(pattern.matchesNothing)
    }

    func testApolloModeEmptyPatternMatchesNothing() throws {
        let pattern = try KeyPattern("", mode: .apollo)
        XCTAssertTrue(pattern.matchesNothing)
        for key in Fixtures.starwarsKeys + [""] { XCTAssertFalse(pattern.matches(key), key.rawValue) }
    }

    func testApolloModeFoldsASCIICaseOnly() throws {
        XCTAssertTrue(try KeyPattern("starship", mode: .apollo).matches("Starship:3001"))
        XCTAssertTrue(try KeyPattern("QUERY_root", mode: .apollo).matches("query_ROOT"))
        XCTAssertTrue(try KeyPattern("CAFÉ", mode: .apollo).matches("cafÉ:1"))
        XCTAssertFalse(try KeyPattern("CAFÉ", mode: .apollo).matches("café:1"), "É and é are not folded by SQLite")
        XCTAssertFalse(try KeyPattern("ß", mode: .apollo).matches("SS"))
    }

    func testApolloModeUnderscoreMatchesOneNonASCIICharacter() throws {
        XCTAssertTrue(try KeyPattern("Caf_:1", mode: .apollo).matches("Café:1"))
        XCTAssertTrue(try KeyPattern("Emoji:_", mode: .apollo).matches("Emoji:😀"))
        XCTAssertFalse(try KeyPattern("Emoji:__$", mode: .apollo).matches("Emoji:😀$"))
    }

    func testLiteralModeTakesPercentAndUnderscoreLiterallyAndIgnoresASCIICase() throws {
        XCTAssertFalse(try KeyPattern("Human:100_", mode: .literal).matches("Human:1000"))
        XCTAssertTrue(try KeyPattern("Human:100_", mode: .literal).matches("human:100_x"))
        XCTAssertTrue(try KeyPattern("human:1000", mode: .literal).matches("Human:1000"))
        XCTAssertTrue(try KeyPattern("100%", mode: .literal).matches("Odd:100%"))
        XCTAssertFalse(try KeyPattern("%", mode: .literal).matches("Human:1000"))
        XCTAssertTrue(try KeyPattern("\\", mode: .literal).matches("a\\b"))
        XCTAssertFalse(try KeyPattern("É", mode: .literal).matches("é"))
    }

    func testPrefixModeIsCaseSensitiveAndMatchesOnlyAtTheStart() throws {
        let pattern = try KeyPattern("Human:", mode: .prefix)
        XCTAssertTrue(pattern.matches("Human:1000"))
        XCTAssertTrue(pattern.matches("Human:"))
        XCTAssertFalse(pattern.matches("human:1000"))
        XCTAssertFalse(pattern.matches("QUERY_ROOT.Human:1000"))
        XCTAssertFalse(pattern.matches("Human"))
        XCTAssertTrue(try KeyPattern("", mode: .prefix).matches("anything"))
    }

    /// Whether the glob `text` matches `key`.
    private func glob(_ text: String, _ key: CacheKey) throws -> Bool { try KeyPattern(text, mode: .glob).matches(key) }

    func testGlobModeMatchesTheWholeKeyCaseSensitively() throws {
        XCTAssertTrue(try glob("Droid:2001", "Droid:2001"))
        XCTAssertFalse(try glob("Droid:2001", "Droid:2001.friendsConnection(after:null,first:2)"), "whole key, not a substring")
        XCTAssertFalse(try glob("droid:2001", "Droid:2001"))
        XCTAssertTrue(try glob("Human:*", "Human:1000"))
        XCTAssertTrue(try glob("Human:100?", "Human:1002"))
        XCTAssertFalse(try glob("Human:100?", "Human:10000"))
        XCTAssertTrue(try glob("*friendsConnection*", "Droid:2001.friendsConnection(after:null,first:2)"))
        XCTAssertTrue(try glob("[HD]*", "Droid:2001"))
        XCTAssertFalse(try glob("[^HD]*", "Droid:2001"))
        XCTAssertTrue(try glob("[^HD]*", "QUERY_ROOT"))
        XCTAssertTrue(try glob("Human:100[0-1]", "Human:1000"))
        XCTAssertFalse(try glob("Human:100[0-1]", "Human:1002"))
        XCTAssertTrue(try glob("Human:100_", "Human:100_"), "_ is literal in a glob")
        XCTAssertFalse(try glob("Human:100_", "Human:1000"))
        XCTAssertTrue(try glob("*[]]", "Odd:[br]"), "] first in a class is literal")
        XCTAssertTrue(try glob("Odd:[[]br", "Odd:[br"), "[[] is a literal [")
        XCTAssertTrue(try glob("*[[]*", "Odd:[br"))
    }

    /// A glob reads as a shell, fnmatch and git read it: `[!HD]` is "not H
    /// or D" (SQLite's GLOB took it for "!, H or D", so `rm --match '[!C]*'`
    /// removed the very keys meant to be kept), and a backslash makes the
    /// character after it literal.
    func testGlobModeNegatesWithABangAndEscapesWithABackslashAsAShellDoes() throws {
        XCTAssertFalse(try glob("[!HD]*", "Droid:2001"))
        XCTAssertTrue(try glob("[!HD]*", "QUERY_ROOT"))
        XCTAssertTrue(try glob("[!HD]*", "!x"), "the ! negates; it is no member")
        XCTAssertTrue(try glob("Post:[!0-8]", "Post:9"))
        XCTAssertTrue(try glob("Odd:\\*", "Odd:*"))
        XCTAssertFalse(try glob("Odd:\\*", "Odd:star"))
        XCTAssertTrue(try glob("Odd:\\[x]", "Odd:[x]"))
        XCTAssertTrue(try glob("Human:\\1000", "Human:1000"))
        XCTAssertTrue(try glob("[!]]x", "ax"), "a ']' right after '[!' is in the class")
        XCTAssertFalse(try glob("[!]]x", "]x"))
        XCTAssertEqual(try KeyPattern.sqliteGlob(from: "[!C]*\\?a\\b\\"), "[^C]*[?]ab\\")
        XCTAssertThrowsError(try KeyPattern("[!", mode: .glob))
    }

    /// Inside a class bash reads a backslash as escaping the next
    /// character, a `]` first as a member and `]-a` as a range; SQLite's
    /// GLOB reads none of them so (`[a\-c]` held `\` to `c`, so `rm
    /// --match` removed `b` and kept `-`). The same keys match as in bash,
    /// in SQL and in memory.
    func testAGlobClassMatchesWhatBashMatches() throws {
        let keys = ["a", "b", "c", "-", "]", "^", "_", "`", "\\", "!", "A", "Z", "a]", "a-", "a\\", "[", "*", "?", "x", "{", "é"]
        let patterns = [
            "[a\\-c]", "[a\\]]", "[!\\]]", "[\\!]", "a[\\-]", "[]-a]", "[\\\\\\]]", "[a-c]", "[!a-c]", "[^a]", "[\\^]", "[^^]", "[-]",
            "[]]", "[]-]", "[a-]", "[*]", "[?]", "[[]", "\\[", "[\\[]", "[--a]", "[!-]", "[Z-a]", "[\\^-a]", "[^-a]", "[\\]-a]", "[!]-]",
            "[Z-\\]]", "[à-ê]", "?", "a?", "*]", "[-^]", "[\\^-]", "[-\\^]", "[-^-]", "[-^]]", "[!-^]",
        ]
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let rows = keys.map { "('\($0.replacingOccurrences(of: "'", with: "''"))')" }.joined(separator: ", ")
        try SQLiteShell.run(path, "CREATE TABLE k(key TEXT)", "INSERT INTO k VALUES \(rows)")
        for text in patterns {
            let pattern = try KeyPattern(text, mode: .glob)
            let script = #"for k in "${@:2}"; do [[ "$k" == $1 ]] && printf '%s\n' "$k"; done"#
            let bash = Process()
            bash.executableURL = URL(fileURLWithPath: "/bin/bash")
            bash.arguments = ["-c", script, "bash", text] + keys
            bash.environment = ["LC_ALL": "C.UTF-8"]
            let output = Pipe()
            bash.standardOutput = output
            try bash.run()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            bash.waitUntilExit()
            let expected = String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init).sorted()
            XCTAssertEqual(keys.filter { pattern.matches(CacheKey($0)) }.sorted(), expected, "in memory: \(text)")
            let quoted = pattern.sqliteGlob.replacingOccurrences(of: "'", with: "''")
            XCTAssertEqual(try SQLiteShell.lines(path, "SELECT key FROM k WHERE key GLOB '\(quoted)' ORDER BY key").sorted(), expected, "SQL: \(text)")
        }
        // What a shell reads but GLOB cannot say is refused.
        for (text, message) in [
            ("[b-a]", "the range b-a runs backwards and holds no character"),
            ("x[[:upper:]]", "a character class such as [:upper:] is not supported; write its characters (e.g. [A-Z])"),
        ] {
            XCTAssertThrowsError(try KeyPattern(text, mode: .glob), text) { XCTAssertEqual("\($0)", "invalid pattern '\(text)': \(message)") }
        }
    }

    func testAGlobWithAnUnclosedClassIsRefusedRatherThanMatchingNothing() throws {
        // SQLite's GLOB fails every key at an unclosed '[': refused, the user would read "no key matches".
        for text in ["[", "Odd:[br", "*[", "[]", "[^]", "a[b]c[d"] {
            XCTAssertThrowsError(try KeyPattern(text, mode: .glob), text) { error in
                XCTAssertEqual("\(error)", "invalid pattern '\(text)': a '[' is never closed by ']' (write \\[ or [[] for a literal '[')")
            }
        }
        for text in ["[]]", "[^]]", "[[]", "[a-]", "x]", "[a][b]"] {
            XCTAssertNoThrow(try KeyPattern(text, mode: .glob), text)
        }
        // The in-memory matcher agrees with SQLite on what such a pattern matches: nothing, not even itself.
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        try SQLiteShell.run(path, "INSERT INTO records(key, record) VALUES ('Human:[1', '{}')")
        XCTAssertEqual(try SQLiteShell.run(path, "SELECT count(*) FROM records WHERE key GLOB 'Human:[1'"), "0\n")
        XCTAssertFalse(LikeMatcher.globMatches(Array("Human:[1".unicodeScalars), pattern: Array("Human:[1".unicodeScalars)))
    }

    /// The in-memory GLOB (rm's reference scan, keys holding a NUL) reads a
    /// class as SQLite's does: a leading `]` and a `-` after a range are
    /// members, and a range's first character is a member even when the
    /// range runs backwards (`[z-a]` holds `z`).
    func testGlobClassesMatchAsSQLitesGlobMatchesThem() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        let patterns = ["X[]-a]", "[z-a]", "[][--]", "[^]a]", "[a-]", "[-a]", "[a-c-e]", "[]]", "[^-]", "[a-cx-z]", "[!-#]"]
        let subjects = ["X-", "X]", "Xa", "Xb", "z", "a", "m", "[", "]", "-", "b", "d", "e", "!", "\"", "#", "y"]
        var pairs: [(String, String)] = []
        for pattern in patterns { for subject in subjects { pairs.append((subject, pattern)) } }
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        let sql = "SELECT group_concat(s GLOB p, '') FROM (" + pairs.map { "SELECT \(quoted($0.0)) AS s, \(quoted($0.1)) AS p" }.joined(separator: " UNION ALL ") + ")"
        let expected = try SQLiteShell.run(path, sql).trimmingCharacters(in: .whitespacesAndNewlines)
        let found = pairs.map { LikeMatcher.globMatches(Array($0.0.unicodeScalars), pattern: Array($0.1.unicodeScalars)) ? "1" : "0" }.joined()
        XCTAssertEqual(expected.count, pairs.count)
        for (index, pair) in pairs.enumerated() where Array(expected)[index] != Array(found)[index] {
            XCTFail("'\(pair.0)' GLOB '\(pair.1)': SQLite says \(Array(expected)[index]), the matcher \(Array(found)[index])")
        }
    }

    func testRegexModeSearchesAnywhereAndIsCaseSensitiveUnlessAskedOtherwise() throws {
        XCTAssertTrue(try KeyPattern("2001", mode: .regex).matches("Droid:2001.friendsConnection(after:null,first:2)"))
        XCTAssertTrue(try KeyPattern("^Human:100[02]$", mode: .regex).matches("Human:1002"))
        XCTAssertFalse(try KeyPattern("^Human:100[02]$", mode: .regex).matches("Human:10020"))
        XCTAssertFalse(try KeyPattern("starship", mode: .regex).matches("Starship:3001"))
        XCTAssertTrue(try KeyPattern("(?i)starship", mode: .regex).matches("Starship:3001"))
        XCTAssertTrue(try KeyPattern("\\(after:null", mode: .regex).matches("Droid:2001.friendsConnection(after:null,first:2)"))
    }

    func testAnInvalidRegexThrowsInvalidPattern() {
        for text in ["(", "[a-", "*x", "a{2,1}"] {
            XCTAssertThrowsError(try KeyPattern(text, mode: .regex), text) { error in
                guard case .invalidPattern(let pattern, let message)? = error as? CacheStoreError else {
                    return XCTFail("\(text): expected invalidPattern, got \(error)")
                }
                XCTAssertEqual(pattern, text)
                XCTAssertFalse(message.isEmpty)
            }
        }
        // The same text is fine in the other modes.
        for mode in KeyPattern.Mode.allCases where mode != .regex {
            XCTAssertNoThrow(try KeyPattern("(", mode: mode))
        }
    }

    func testPatternsSQLiteCannotTakeAreRefusedAndTheLongestItCanTakeIsRun() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        // Apollo and literal add a % at each end; glob is taken as it is.
        let longest: [(KeyPattern.Mode, Int)] = [(.apollo, 49_998), (.literal, 49_998), (.glob, 50_000)]
        for (mode, length) in longest {
            let fits = try KeyPattern(String(repeating: "a", count: length), mode: mode)
            XCTAssertEqual(try store.read { tx in try tx.countKeys(matching: fits) }, 0, "\(mode)")
            XCTAssertThrowsError(try KeyPattern(String(repeating: "a", count: length + 1), mode: mode)) { error in
                XCTAssertEqual(
                    "\(error)",
                    "invalid pattern '\(String(repeating: "a", count: 60))… (\(length + 1) bytes)': "
                        + "longer than the 50,000 bytes SQLite takes in a LIKE or GLOB pattern")
            }
        }
        // A literal's escapes count: 25,000 %s are 50,002 bytes once escaped.
        XCTAssertThrowsError(try KeyPattern(String(repeating: "%", count: 25_000), mode: .literal))
        // Prefix and regex modes use no LIKE or GLOB.
        for mode in [KeyPattern.Mode.prefix, .regex] {
            let long = try KeyPattern(String(repeating: "a", count: 100_000), mode: mode)
            XCTAssertEqual(try store.read { tx in try tx.countKeys(matching: long) }, 0, "\(mode)")
        }
    }

    func testModesHaveStableNamesAndPatternsDescribeThemselves() throws {
        XCTAssertEqual(KeyPattern.Mode.allCases.map(\.rawValue), ["apollo", "literal", "prefix", "glob", "regex"])
        XCTAssertEqual(try KeyPattern("Human:", mode: .prefix).description, "prefix pattern 'Human:'")
        XCTAssertFalse(try KeyPattern("", mode: .literal).matchesNothing, "only the apollo mode ignores an empty pattern")
    }

    /// The upper bound goes on from the prefix's last ASCII character, the
    /// one kind whose successor sorts after it in UTF-8 and UTF-16 alike.
    func testAPrefixsIndexRangeEndsAfterItsLastASCIICharacter() {
        XCTAssertEqual(KeyPattern.indexRange(forPrefix: "Human:").upper, "Human;")
        XCTAssertEqual(KeyPattern.indexRange(forPrefix: "Human:é").upper, "Human;")
        XCTAssertEqual(KeyPattern.indexRange(forPrefix: "a\u{7F}\u{10FFFF}").upper, "b", "DEL's successor is no ASCII")
        XCTAssertNil(KeyPattern.indexRange(forPrefix: "éß").upper)
        XCTAssertEqual(KeyPattern.indexRange(forPrefix: "Human:é").lower, "Human:é")
    }

    /// SQLite compares keys by their bytes in the file's encoding: in a
    /// UTF-16 file U+00FF sorts after U+0100, and a range worked out in
    /// UTF-8 (`ÿ` to `Ā`) held no key that starts with `ÿ`; in UTF-16LE
    /// `Ł` (41 01) sorts between `A` and `B`. Prefix, glob and regex still select
    /// what they select in a UTF-8 file.
    func testPrefixGlobAndRegexSelectTheSameKeysInAUTF16File() throws {
        let keys = ["\u{FF}a", "\u{FF}b", "\u{100}a", "A:1", "\u{141}:1", "仿x", "B:1"]
        for encoding in ["UTF-16le", "UTF-16be"] {
            let path = try TemporaryDirectory(self).path("\(encoding).sqlite")
            let rows = keys.map { "('\($0)', '{}')" }.joined(separator: ", ")
            try SQLiteShell.run(path, """
                PRAGMA encoding = '\(encoding)';
                CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT);
                INSERT INTO records(key, record) VALUES \(rows);
                """)
            let store = try CacheStore.open(at: path, access: .readWrite)
            let all = keys.map { CacheKey($0) }
            // A regex, and a glob or literal where a key holds a NUL, go through
            // gqlcache's SQL functions: they were handed the key's UTF-16 bytes
            // and matched nothing.
            for (mode, text) in [(KeyPattern.Mode.prefix, "\u{FF}"), (.glob, "\u{FF}*"), (.prefix, "A"), (.glob, "A*"), (.prefix, "仿"), (.glob, "仿?"),
                                 (.regex, "^\u{FF}"), (.regex, ":1$"), (.regex, "仿")] {
                let pattern = try KeyPattern(text, mode: mode)
                let selected = try sqlSelection(store, pattern)
                XCTAssertEqual(Set(selected.listed), Set(all.filter(pattern.matches)), "\(encoding) \(mode) \(text): listed")
                XCTAssertEqual(Set(selected.removed), Set(all.filter(pattern.matches)), "\(encoding) \(mode) \(text): removed")
                XCTAssertFalse(selected.listed.isEmpty, "\(encoding) \(mode) \(text)")
            }
        }
    }

    // MARK: Agreement between memory and SQL

    /// Keys added to starwars.sqlite to make the agreement tests bite.
    static let trickyKeys: [CacheKey] = [
        "Odd:100%", "Odd:a_b", "Odd:aXb", "Odd:path/to/x", "Odd:f(x:1)", "Odd:back\\slash", "Odd:quote\"d",
        "Odd:[br]", "Odd:*star?", "Café:1", "Cafe\u{301}:2", "ÉCOLE:1", "école:2", "Emoji:😀", "UPPER:CASE",
        "lower:case", "human:1000", "Ünïcode:ß", "Human:100", "Human:10000", "QUERY_ROOT.human(id:1000)",
    ]

    static let patternsByMode: [KeyPattern.Mode: [String]] = [
        .apollo: ["Human:100_", "%", "_", "starship", "Droid:2001", "", "100%", "a_b", "/", "(x:1)", "é", "É", "café",
                  "CAFE", "cafe", "école", "ÉCOLE", "\\", "\"", "%:%0", "😀", "_:1", "human", "ß", "[br]", "*", "?"],
        .literal: ["Human:100_", "%", "_", "starship", "Droid:2001", "100%", "a_b", "/", "(x:1)", "é", "É", "café",
                   "CAFE", "cafe", "école", "ÉCOLE", "\\", "\"", "😀", "human", "ß", "[br]", "*", "?", "e\u{301}", "e"],
        .prefix: ["Human:", "human:", "Q", "QUERY_ROOT.", "Caf", "Café", "Cafe", "É", "Odd:100%", "Odd:", "Emoji:",
                  "Emoji:😀", "z", "Droid:2001", "Ü", "\u{10FFFF}", ""],
        .glob: ["Human:*", "Human:100?", "human:*", "*friendsConnection*", "Droid:2001", "[HD]*", "[^HD]*", "[!HD]*", "Human:\\1*", "*\\**", "*[%_]*",
                "Caf?:*", "*/*", "*\\*", "[a-z]*", "*", "", "*[]]", "Odd:[[]br", "Odd:\\[br]", "*?*?*?*?*?*?*?*?*?*?*?*?*?*?*",
                "Emoji:?", "[É]*", "*:[0-9][0-9][0-9][0-9]", "Odd:[*]star[?]"],
        .regex: ["Human:100[02]", "^Q", "(?i)starship", "\\.", "é", "e\u{301}", ".", "^$", "\\)$", "^[a-z]", "😀", "%"],
    ]

    private func storeWithTrickyKeys(_ keys: [CacheKey] = trickyKeys) throws -> CacheStore {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        // A key with a NUL character, which the store never writes, goes in through the sqlite3 shell.
        let withNul = keys.filter { $0.rawValue.contains("\u{0}") }
        for key in withNul {
            let text = key.rawValue.split(separator: "\u{0}", omittingEmptySubsequences: false).map { "'\($0)'" }.joined(separator: " || char(0) || ")
            try SQLiteShell.run(path, #"INSERT INTO records(key, record) VALUES ("# + text + #", '{"__typename":"Odd"}')"#)
        }
        let store = try CacheStore.open(at: path, access: .readWrite)
        _ = try store.write { tx in
            try tx.merge(keys.filter { !withNul.contains($0) }.map { Record(key: $0, fields: ["__typename": .string("Odd")]) })
        }
        XCTAssertEqual(try store.read { try $0.recordCount() }, 10 + keys.count)
        return store
    }

    private struct Rollback: Error {}

    /// What the SQL selects for `pattern`: listed, counted, and removed as
    /// `rm --match` removes (in a transaction that is rolled back).
    private func sqlSelection(_ store: CacheStore, _ pattern: KeyPattern) throws -> (listed: [CacheKey], counted: Int, removed: [CacheKey]) {
        let (listed, counted) = try store.read { tx in (try tx.keys(matching: pattern), try tx.countKeys(matching: pattern)) }
        var removed: [CacheKey] = []
        do {
            try store.write { tx in
                removed = try tx.removeObjects(matching: pattern, listingKeys: true) { _ in }.keys ?? []
                throw Rollback()
            }
        } catch is Rollback {}
        return (listed, counted, removed)
    }

    private func assertMemoryAgreesWithSQL(
        mode: KeyPattern.Mode, patterns: [String]? = nil, keys: [CacheKey] = trickyKeys,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let store = try storeWithTrickyKeys(keys)
        let allKeys = try store.allKeys()
        for text in patterns ?? Self.patternsByMode[mode]! {
            let pattern = try KeyPattern(text, mode: mode)
            let inMemory = allKeys.filter(pattern.matches)
            let sql = try sqlSelection(store, pattern)
            let name = "\(mode) pattern \(text.debugDescription)"
            XCTAssertEqual(Set(sql.listed), Set(inMemory), "\(name): SQL listed vs in-memory", file: file, line: line)
            XCTAssertEqual(Set(sql.removed), Set(inMemory), "\(name): SQL removed vs in-memory", file: file, line: line)
            XCTAssertEqual(sql.counted, inMemory.count, "\(name): SQL count vs in-memory", file: file, line: line)
            XCTAssertEqual(sql.listed, sql.listed.sorted(), "\(name): keys are listed in byte order", file: file, line: line)
        }
        XCTAssertEqual(try store.read { try $0.recordCount() }, allKeys.count, "every removal was rolled back", file: file, line: line)
    }

    func testApolloModeInMemoryAgreesWithSQLOnFixtureAndTrickyKeys() throws {
        try assertMemoryAgreesWithSQL(mode: .apollo)
    }

    func testLiteralModeInMemoryAgreesWithSQLOnFixtureAndTrickyKeys() throws {
        // Decomposed accents have their own test below.
        try assertMemoryAgreesWithSQL(
            mode: .literal, patterns: Self.patternsByMode[.literal]!.filter { !$0.unicodeScalars.contains("\u{301}") },
            keys: Self.trickyKeys.filter { !$0.rawValue.unicodeScalars.contains("\u{301}") })
    }

    /// SQLite compares code points: `cafe` is inside `Cafe\u{301}:2` (e plus
    /// a combining accent) and precomposed `café` is not. The in-memory
    /// literal match must decide the same way.
    func testLiteralModeInMemoryAgreesWithSQLOnDecomposedAccents() throws {
        try assertMemoryAgreesWithSQL(mode: .literal, patterns: ["cafe", "café", "e\u{301}"], keys: ["Cafe\u{301}:2", "Café:1"])
    }

    func testPrefixModeInMemoryAgreesWithSQLOnFixtureAndTrickyKeys() throws {
        try assertMemoryAgreesWithSQL(mode: .prefix)
    }

    func testGlobModeInMemoryAgreesWithSQLOnFixtureAndTrickyKeys() throws {
        try assertMemoryAgreesWithSQL(mode: .glob)
    }

    func testRegexModeInMemoryAgreesWithSQLOnFixtureAndTrickyKeys() throws {
        try assertMemoryAgreesWithSQL(mode: .regex)
    }

    /// SQLite's LIKE and GLOB, and a function handed a key as text, read it
    /// only up to a NUL character in it: `Zzz` as a glob (the whole key)
    /// or `Zzz$` as a regex selected `Zzz\0Key`, and rm removed it. Such a
    /// key is matched whole, in SQL as in memory; apollo mode keeps LIKE's
    /// reading, Apollo's own.
    func testAKeyHoldingANulCharacterIsMatchedWholeButInApolloMode() throws {
        let keys: [CacheKey] = ["Zzz\u{0}Key", "Zzz\u{0}Other", "Plain:1"]
        let store = try storeWithTrickyKeys(keys)
        XCTAssertTrue(try store.allKeys().contains("Zzz\u{0}Key"), "the key was stored whole")
        let expected: [(KeyPattern.Mode, String, [CacheKey])] = [
            (.glob, "Zzz", []), (.glob, "Zzz?Key", ["Zzz\u{0}Key"]), (.glob, "Zzz*", ["Zzz\u{0}Key", "Zzz\u{0}Other"]),
            (.regex, "Zzz$", []), (.regex, "Key$", ["Zzz\u{0}Key"]), (.regex, "\\x{0}O", ["Zzz\u{0}Other"]),
            (.literal, "key", ["Zzz\u{0}Key"]), (.literal, "zzz", ["Zzz\u{0}Key", "Zzz\u{0}Other"]),
            (.apollo, "key", []), (.apollo, "zzz", ["Zzz\u{0}Key", "Zzz\u{0}Other"]),
        ]
        for (mode, text, matching) in expected {
            let pattern = try KeyPattern(text, mode: mode)
            XCTAssertEqual(Set(try sqlSelection(store, pattern).removed), Set(matching), "\(mode) \(text)")
        }
        for mode in KeyPattern.Mode.allCases {
            try assertMemoryAgreesWithSQL(mode: mode, patterns: expected.filter { $0.0 == mode }.map(\.1) + ["Zzz", "Key", "Other"], keys: keys)
        }
    }

    /// A glob that starts with literal text is a range of the key index,
    /// as a bare `key GLOB ?` is to SQLite, not a scan of every key.
    func testAGlobWithALiteralStartSearchesTheKeyIndex() throws {
        let store = try storeWithTrickyKeys([])
        func plan(_ text: String) throws -> String {
            let condition = try KeyPattern(text, mode: .glob).sqlCondition()
            return try store.read { tx in
                try Row.fetchAll(tx.database(), sql: "EXPLAIN QUERY PLAN SELECT key FROM records WHERE " + condition.sql,
                                 arguments: StatementArguments(condition.arguments)).map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        let literalStart = try plan("Human:10*")
        XCTAssertTrue(literalStart.contains("SEARCH records USING COVERING INDEX sqlite_autoindex_records_1 (key>? AND key<?)"), literalStart)
        XCTAssertTrue(try plan("*:1000").contains("SCAN"), "no literal start: every key is looked at")
        XCTAssertEqual(Set(try sqlSelection(store, try KeyPattern("Human:10*", mode: .glob)).listed), ["Human:1000", "Human:1002"])
    }

    /// A row whose key is a BLOB, or text holding a NUL and bytes that
    /// are not UTF-8, is a stray row (gc --stray-rows) that keys never
    /// lists: no pattern of gqlcache's own names it, and rm --match leaves it.
    func testNoPatternOfGqlcachesOwnMatchesABlobKeyOrAKeyThatIsNotUTF8() throws {
        let path = try TemporaryDirectory(self).copy(Fixtures.starwars)
        try SQLiteShell.run(path, """
            INSERT INTO records(key, record) VALUES (X'FF4142', '{}'), (X'4142', '{}'), (CAST(X'FF004142' AS TEXT), '{}'), ('AB', '{}')
            """)
        let store = try CacheStore.open(at: path, access: .readWrite)
        for (mode, text) in [(KeyPattern.Mode.regex, "AB"), (.literal, "AB"), (.glob, "*AB"), (.regex, "B$"), (.literal, "B")] {
            let selected = try sqlSelection(store, try KeyPattern(text, mode: mode))
            XCTAssertEqual(selected.removed, ["AB"], "\(mode) \(text)")
            XCTAssertEqual(selected.listed, ["AB"], "\(mode) \(text)")
        }
    }

    /// The store's apollo mode must select what Apollo's own statement,
    /// `DELETE FROM records WHERE key LIKE '%pattern%' COLLATE NOCASE`, selects
    /// when run by a different SQLite (the sqlite3 shell).
    func testApolloModeSelectsExactlyWhatApollosOwnStatementSelects() throws {
        let store = try storeWithTrickyKeys()
        for text in Self.patternsByMode[.apollo]! where !text.isEmpty {
            let quoted = ("%" + text + "%").replacingOccurrences(of: "'", with: "''")
            let expected = try SQLiteShell.lines(store.path, "SELECT hex(key) FROM records WHERE key LIKE '\(quoted)' COLLATE NOCASE")
                .map { CacheKey(String(decoding: SQLiteShell.hexDecode($0), as: UTF8.self)) }
            let listed = try store.read { tx in try tx.keys(matching: KeyPattern(text, mode: .apollo)) }
            XCTAssertEqual(Set(listed), Set(expected), "apollo pattern \(text.debugDescription)")
        }
    }

    func testTypenameFilterCombinesWithThePattern() throws {
        let store = try CacheStore.open(at: try TemporaryDirectory(self).copy(Fixtures.starwars))
        try store.read { tx in
            XCTAssertEqual(try tx.keys(matching: KeyPattern("1", mode: .apollo), typenames: ["Human"]), ["Human:1000", "Human:1002"])
            XCTAssertEqual(try tx.keys(matching: KeyPattern("1000", mode: .apollo), typenames: ["Human"]), ["Human:1000"])
            XCTAssertEqual(try tx.countKeys(matching: nil, typenames: ["Review"]), 3)
            XCTAssertEqual(try tx.keys(typenames: ["Nope"]), [])
            XCTAssertEqual(try tx.keys(typenames: ["Droid", "Human", "Nope"]), ["Droid:2001", "Human:1000", "Human:1002"],
                           "several typenames: records of any of them")
            XCTAssertEqual(try tx.countKeys(matching: KeyPattern("1", mode: .apollo), typenames: ["Droid", "Human"]), 3)
            var limited: [CacheKey] = []
            try tx.forEachKey(matching: KeyPattern("%", mode: .apollo), limit: 3) { limited.append($0) }
            XCTAssertEqual(limited, Array(Fixtures.starwarsKeys.prefix(3)))
        }
    }
}
