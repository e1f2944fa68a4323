import CacheStore
import CSignals
import ExampleCaches
import Foundation
import GQLCacheCommands
import XCTest

final class ExportImportCommandTests: CommandTestCase {
    private var fixtureNames: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: fixturesFolder.path).filter { $0.hasSuffix(".sqlite") }.sorted()) ?? []
    }

    func testEveryFixtureRoundTripsThroughBothFormsToAnIdenticalFile() throws {
        XCTAssertGreaterThanOrEqual(fixtureNames.count, 2)
        for name in fixtureNames {
            let original = try copyOfFixture(name)
            for form in ["jsonl", "apollo-client"] {
                let exported = path("\(name).\(form)")
                let export = gqlcache(arguments: ["export", original, "--format", form, "--output", exported])
                XCTAssertEqual(export.status, .success, export.stderr)
                let copy = path("\(name).\(form).sqlite")
                let imported = gqlcache(arguments: ["import", copy, exported, "--create"])
                XCTAssertEqual(imported.status, .success, imported.stderr)
                XCTAssertTrue(imported.stdout.contains("(\(form)) into \(copy), created:"), imported.stdout)
                let diff = gqlcache(arguments: ["diff", original, copy])
                XCTAssertEqual(diff.status, .success, "\(name) through \(form): \(diff.stdout)")
                XCTAssertEqual(try CacheStore.open(at: copy).format.ddl, .current)
            }
        }
    }

    /// A response or variables read from a closed standard input say what
    /// the system said, as import does, not Foundation's wrapping of it.
    func testAResponseOrVariablesFromAClosedStandardInputSayWhy() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let write = try runProgram("/bin/sh", ["-c", "\"$0\" write \"$1\" --text '{ a }' --response - <&-", builtBinary, cache])
        XCTAssertEqual(write.status, 5)
        XCTAssertEqual(write.stderr, "gqlcache: standard input: cannot read the response (Bad file descriptor)\n")
        let read = try runProgram("/bin/sh", ["-c", "\"$0\" read \"$1\" --text '{ a }' --variables-file - <&-", builtBinary, cache])
        XCTAssertEqual(read.status, 5)
        XCTAssertEqual(read.stderr, "gqlcache: standard input: cannot read the variables file (Bad file descriptor)\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// Started with standard input closed (`<&-`), the import's temporary
    /// copy of it took descriptor 0 and was read as the input: an empty
    /// import that succeeded. A closed descriptor is an error, as a closed
    /// standard output is.
    func testImportFromAClosedStandardInputFailsAndChangesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let run = try runProgram("/bin/sh", ["-c", "\"$0\" import \"$1\" - <&-", builtBinary, cache])
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stderr, "gqlcache: standard input: cannot be read (Bad file descriptor)\n")
        XCTAssertEqual(try bytes(cache), before)
        // Standard input is spooled to a file in TMPDIR's folder: one that is missing is named.
        let noFolder = try runProgram("/bin/sh", ["-c", "echo '{}' | TMPDIR=/nonexistent-tmp \"$0\" import \"$1\" -", builtBinary, cache])
        XCTAssertEqual(noFolder.status, 5)
        XCTAssertEqual(noFolder.stderr, "gqlcache: standard input: cannot make a temporary copy in /nonexistent-tmp (No such file or directory); "
            + "TMPDIR names the folder\n")
        XCTAssertEqual(try bytes(cache), before)
        let closedOutput = try runProgram("/bin/sh", ["-c", "\"$0\" keys \"$1\" >&-", builtBinary, cache])
        XCTAssertEqual(closedOutput.status, 5)
        XCTAssertEqual(closedOutput.stderr, "gqlcache: cannot write to standard output (Bad file descriptor)\n")
    }

    /// A merge rewrites the record; a number with more digits than a
    /// Double keeps, in a field the input does not name, keeps its digits,
    /// and diff tells it from the Double it is nearest.
    func testAMergeKeepsTheDigitsOfANumberItDoesNotChange() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('K', '{"price":19.990000000000000000001,"b":1}')"#)
        let before = path("before.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: before)
        let imported = gqlcache(arguments: ["import", cache, "-"], input: #"{"key":"K","record":{"b":2}}"#)
        XCTAssertEqual(imported.status, .success, imported.stderr)
        XCTAssertEqual(try sqliteShell(cache, "SELECT record FROM records WHERE key = 'K'"), #"{"b":2,"price":19.990000000000000000001}"#)
        try sqliteShell(before, #"UPDATE records SET record = '{"price":19.99,"b":2}' WHERE key = 'K'"#)
        let diff = gqlcache("diff", before, cache)
        XCTAssertEqual(diff.status, .notFound, "the files differ: \(diff.stdout)")
        XCTAssertTrue(diff.stdout.contains("price: 19.99 → 19.990000000000000000001"), diff.stdout)
    }

    /// An input that comes slowly, through a pipe named as a file (a FIFO,
    /// `<(…)`) or through standard input with --dry-run, is read whole
    /// before the import takes a lock: meanwhile the app writes (waiting a
    /// second at most, as an app's busy timeout lets a brief read end, not
    /// the three seconds the input stalls).
    func testASlowPipeNeverKeepsTheAppFromWriting() throws {
        for (name, script) in [
            ("a FIFO", #"mkfifo "$2.fifo"; (echo '{"key":"A:1","record":{"a":1}}'; sleep 3; echo '{"key":"A:2","record":{"a":2}}') > "$2.fifo" & "$0" import "$1" "$2.fifo" >/dev/null & sleep 1; sqlite3 -cmd '.timeout 1000' "$1" "INSERT INTO records(key, record) VALUES ('App:1', '{}')"; echo "app: $?"; wait"#),
            // More than a batch first: one batch is merged, in a read transaction, before the input ends.
            ("a dry run", #"(for i in $(seq 1001); do echo "{\"key\":\"A:$i\",\"record\":{}}"; done; sleep 3; echo '{"key":"A:2","record":{"a":2}}') | "$0" import "$1" - --dry-run >/dev/null & sleep 1; sqlite3 -cmd '.timeout 1000' "$1" "INSERT INTO records(key, record) VALUES ('App:2', '{}')"; echo "app: $?"; wait"#),
        ] {
            let cache = try copyOfFixture("starwars.sqlite", as: "\(name.count).sqlite")
            let run = try runProgram("/bin/sh", ["-c", script, builtBinary, cache, path("input-\(name.count)")])
            XCTAssertEqual(run.stdout, "app: 0\n", "\(name): \(run.stderr)")
            XCTAssertEqual(run.stderr, "", name)
        }
    }

    /// An export to a pipe named with -o (`-o /dev/stdout`, a FIFO) holds
    /// its output back while it reads, as one to standard output does: a
    /// reader that stalls never keeps the app from writing.
    func testAnExportToAPipeNamedWithOutputNeverKeepsTheAppFromWriting() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let lines = (0..<20_000).map { #"{"key":"Filler:\#($0)","record":{"text":"\#(String(repeating: "x", count: 200))"}}"# }
        XCTAssertEqual(gqlcache(arguments: ["import", cache, "-"], input: lines.joined(separator: "\n")).status, .success)
        let script = #"mkfifo "$2"; (exec 3<"$2"; sleep 3; cat <&3 >/dev/null) & "$0" export "$1" -o "$2" >/dev/null & sleep 1.5; "#
            + #"sqlite3 -cmd '.timeout 500' "$1" "INSERT INTO records(key, record) VALUES ('App:1', '{}')"; echo "app: $?"; wait"#
        let run = try runProgram("/bin/sh", ["-c", script, builtBinary, cache, path("export.fifo")])
        XCTAssertEqual(run.stdout, "app: 0\n", run.stderr)
        let standardOutput = try runProgram("/bin/sh", ["-c", #""$0" export "$1" -o /dev/stdout | (sleep 3; cat >/dev/null) & sleep 1.5; "#
            + #"sqlite3 -cmd '.timeout 500' "$1" "INSERT INTO records(key, record) VALUES ('App:2', '{}')"; echo "app: $?" >&2; wait"#, builtBinary, cache])
        XCTAssertEqual(standardOutput.stderr, "app: 0\n")
    }

    func testJSONLinesHoldEachRecordAsStoredInKeyOrder() throws {
        let cache = try copyOfFixture("legacy-sqlite-swift.sqlite")
        let result = gqlcache("export", cache)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, """
            {"key":"Droid:2001","record":{"__typename":"Droid","id":"2001","name":"R2-D2 v3"}}
            {"key":"QUERY_ROOT","record":{"hero(episode:JEDI)":{"$reference":"Droid:2001"}}}

            """)
    }

    func testTheApolloClientFormNamesRootsAndReferencesAsApolloClientDoes() throws {
        let cache = try copyOfFixture("legacy-sqlite-swift.sqlite")
        let result = gqlcache("export", cache, "--format", "apollo-client")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, """
            {
            "Droid:2001":{"__typename":"Droid","id":"2001","name":"R2-D2 v3"},
            "ROOT_QUERY":{"hero(episode:JEDI)":{"__ref":"Droid:2001"}}
            }

            """)
        let parsed = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(Set(parsed.keys), ["Droid:2001", "ROOT_QUERY"])
    }

    func testAKeyTheApolloClientFormCannotTellApartIsRefused() throws {
        let cache = try makeCache("clash.sqlite", [Record(key: "ROOT_QUERY", fields: ["a": .int(1)])])
        let result = gqlcache("export", cache, "--format", "apollo-client")
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(result.stderr, "gqlcache: \(cache) holds a record 'ROOT_QUERY', a name the apollo-client form gives a root or its metadata, so it could not be told apart; export it with --format jsonl\n")
        XCTAssertEqual(gqlcache("export", cache).status, .success, "JSON Lines holds any key")
    }

    /// A record the form cannot hold stops the export: the message names
    /// the file, and says whether standard output was left unfinished.
    func testARecordTheApolloClientFormCannotHoldStopsTheExportNamingTheFile() throws {
        let cache = try makeCache("ref.sqlite", [
            Record(key: "A:1", fields: ["n": .int(1)]), Record(key: "B:1", fields: ["meta": .object(["__ref": .string("A:1")])]),
        ])
        let problem = #"record 'B:1', field 'meta': a custom-scalar object with a string "__ref" member would be read back as a reference; "#
            + "the apollo-client form cannot hold it"
        let toStdout = gqlcache("export", cache, "--format", "apollo-client")
        XCTAssertEqual(toStdout.status, .usage)
        XCTAssertEqual(toStdout.stderr, "gqlcache: \(cache): \(problem); the export stopped there, leaving an unfinished object (--format jsonl holds every record)\n")
        let toFile = gqlcache("export", cache, "--format", "apollo-client", "-o", path("out.json"))
        XCTAssertEqual(toFile.status, .usage)
        XCTAssertEqual(toFile.stderr, "gqlcache: \(cache): \(problem); nothing exported (--format jsonl holds every record)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.json")))
    }

    /// A file cut short inside a string is named as that, as every other
    /// JSON input is, at the end of the text the file holds.
    func testAnApolloClientFileCutShortInsideAStringSaysSo() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let input = path("cut.json")
        try Data(#"{"ROOT_QUERY":{"a":"abc"#.utf8).write(to: URL(fileURLWithPath: input))
        let result = gqlcache("import", cache, input)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: \(input):1:24: not JSON: unterminated string (read as Apollo Client's extract() object); nothing imported\n")
    }

    func testOutputReplacesAFileWholeAndNeverTheCache() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let target = path("out.jsonl")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let result = gqlcache("export", cache, "-o", target)
        XCTAssertEqual(result.stdout, "exported 10 records (jsonl) to \(target)\n")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8).split(separator: "\n").count, 10)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["out.jsonl", "starwars.sqlite"])
        let before = try bytes(cache)
        let refused = gqlcache("export", cache, "--output", cache)
        XCTAssertEqual(refused.status, .usage)
        XCTAssertEqual(refused.stderr, "gqlcache: --output \(cache) is the cache file itself; name another file\n")
        let wal = gqlcache("export", cache, "-o", cache + "-wal")
        XCTAssertEqual(wal.stderr, "gqlcache: --output \(cache)-wal is the cache's -wal file, which SQLite keeps beside it; name another file\n")
        XCTAssertEqual(try bytes(cache), before)
        // Through a link to the cache, SQLite's files are beside the file it leads to, whether they exist yet or not.
        let link = path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: cache)
        try Data("frames".utf8).write(to: URL(fileURLWithPath: cache + "-wal"))
        let linked = gqlcache("export", link, "-o", cache + "-wal")
        XCTAssertEqual(linked.stderr, "gqlcache: --output \(cache)-wal is the cache's -wal file, which SQLite keeps beside it; name another file\n")
        XCTAssertEqual(try String(contentsOfFile: cache + "-wal", encoding: .utf8), "frames")
        try FileManager.default.removeItem(atPath: cache + "-wal")
        XCTAssertEqual(gqlcache("export", link, "-o", cache + "-journal").status, .usage)
        try FileManager.default.removeItem(atPath: link)
        // Nor through a link of the output's own that leads to one, made or not.
        let output = path("out-link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: "starwars.sqlite-journal")
        let dangling = gqlcache("export", cache, "-o", output)
        XCTAssertEqual(dangling.status, .usage, dangling.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-journal"))
        try FileManager.default.removeItem(atPath: output)
        // Another cache is not replaced either: a slip of the keyboard would lose it.
        let other = try copyOfFixture("legacy-sqlite-swift.sqlite")
        let otherBefore = try bytes(other)
        let another = gqlcache("export", cache, "-o", other)
        XCTAssertEqual(another.status, .usage)
        XCTAssertEqual(another.stderr, "gqlcache: the output file \(other) is an SQLite database, which the export would replace; remove it first or name another file\n")
        XCTAssertEqual(try bytes(other), otherBefore)
        // Nor another database's log or journal, which hold its committed
        // changes or its way back from a half-done write: by name, or by
        // their first bytes under any name.
        try Data("frames".utf8).write(to: URL(fileURLWithPath: other + "-wal"))
        let otherLog = gqlcache("export", cache, "-o", other + "-wal")
        XCTAssertEqual(otherLog.status, .usage)
        XCTAssertEqual(otherLog.stderr, "gqlcache: the output file \(other)-wal is the -wal file of the SQLite database \(other); "
            + "replacing it could lose that database's changes or damage it; name another file\n")
        XCTAssertEqual(try String(contentsOfFile: other + "-wal", encoding: .utf8), "frames")
        XCTAssertEqual(gqlcache("export", cache, "-o", other + "-journal").status, .usage)
        XCTAssertFalse(FileManager.default.fileExists(atPath: other + "-journal"))
        // Its -shm too, also through a link of the output's own.
        try Data(count: 32768).write(to: URL(fileURLWithPath: other + "-shm"))
        let linkToIndex = path("index-link.jsonl")
        try FileManager.default.createSymbolicLink(atPath: linkToIndex, withDestinationPath: other + "-shm")
        for output in [other + "-shm", linkToIndex] {
            XCTAssertEqual(gqlcache("export", cache, "-o", output).stderr, "gqlcache: the output file \(output) is the -shm file of the SQLite database \(other); "
                + "replacing it could lose that database's changes or damage it; name another file\n")
        }
        XCTAssertEqual(try bytes(other + "-shm"), Data(count: 32768))
        for (head, kind) in [([0x37, 0x7f, 0x06, 0x82], "an SQLite write-ahead log (a database's -wal file)"),
                             ([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7], "an SQLite rollback journal (a database's -journal file)")] as [([UInt8], String)] {
            let moved = path("moved.bin")
            try Data(head + [UInt8](repeating: 1, count: 60)).write(to: URL(fileURLWithPath: moved))
            let result = gqlcache("export", cache, "-o", moved)
            XCTAssertEqual(result.stderr, "gqlcache: the output file \(moved) is \(kind); replacing it could lose that database's changes or damage it; name another file\n")
            XCTAssertEqual(try bytes(moved), Data(head + [UInt8](repeating: 1, count: 60)))
        }
        // `-o -` is standard output.
        let toStandardOutput = gqlcache("export", cache, "-o", "-")
        XCTAssertEqual(toStandardOutput.stdout, gqlcache("export", cache).stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "-"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("-")))
    }

    /// A file the user may not write is left as it is, though its folder
    /// would let it be replaced, as a shell's > leaves it. Run as another
    /// user: root writes any file.
    func testOutputLeavesAFileTheUserCannotWrite() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let target = path("kept.jsonl")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: target)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: cache)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        let run = try runBuiltBinaryAsAnotherUser(["export", cache, "-o", target])
        XCTAssertEqual(run.status, 5)
        XCTAssertEqual(run.stderr, "gqlcache: \(target): cannot write the file (Permission denied); it was left as it was\n")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "old")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["kept.jsonl", "starwars.sqlite"])
    }

    func testOutputThroughALinkReplacesItsTargetAndAPipeIsWrittenInPlace() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let expected = gqlcache("export", cache).stdout
        // A link stays a link; the file it points to gets the export.
        let target = path("target.jsonl")
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: path("link.jsonl"), withDestinationPath: "target.jsonl")
        XCTAssertEqual(gqlcache("export", cache, "-o", path("link.jsonl")).status, .success)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.jsonl")), "target.jsonl")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), expected)
        // A link to a file not made yet makes it.
        try FileManager.default.createSymbolicLink(atPath: path("ahead.jsonl"), withDestinationPath: "later.jsonl")
        XCTAssertEqual(gqlcache("export", cache, "-o", path("ahead.jsonl")).status, .success)
        XCTAssertEqual(try String(contentsOfFile: path("later.jsonl"), encoding: .utf8), expected)
        // A named pipe is written to, not probed (which would wait for a writer) or replaced.
        let pipe = path("pipe")
        XCTAssertEqual(mkfifo(pipe, 0o600), 0)
        let received = StringBox()
        let reader = Thread {
            var bytes: [UInt8] = []
            let descriptor = open(pipe, O_RDONLY)
            var chunk = [UInt8](repeating: 0, count: 4096)
            while descriptor >= 0 {
                let count = read(descriptor, &chunk, chunk.count)
                if count <= 0 { break }
                bytes += chunk[0..<count]
            }
            if descriptor >= 0 { close(descriptor) }
            received.text = String(decoding: bytes, as: UTF8.self)
            received.done.signal()
        }
        reader.start()
        let toPipe = gqlcache("export", cache, "-o", pipe)
        XCTAssertEqual(toPipe.status, .success, toPipe.stderr)
        XCTAssertEqual(received.done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(received.text, expected)
        var status = stat()
        XCTAssertEqual(lstat(pipe, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "the pipe is still a pipe")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
            ["ahead.jsonl", "later.jsonl", "link.jsonl", "pipe", "starwars.sqlite", "target.jsonl"], "no temporary file is left")
    }

    func testALineWithKeyAndRecordIsJSONLinesEvenWhenItIsBadAndAByteOrderMarkIsSkipped() throws {
        let target = path("new.sqlite")
        for (text, message) in [
            (#"{"key":"A:1","record":[1]}"#, #"the "record" of 'A:1' is not a JSON object"#),
            (#"{"key":5,"record":{}}"#, #"the line's "key" is not a string; a line is {"key": "…", "record": {…}}"#),
            (#"{"key":"A:1","record":{"x":1},"extra":1}"#, #"the line has a member "extra", which is neither "key" nor "record"; a line is"#),
            (#"{"key":"A:1"}"#, #"the line of 'A:1' has no "record"; a line is"#),
        ] {
            let input = path("bad.jsonl")
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: input))
            let result = gqlcache("import", target, input, "--create")
            XCTAssertEqual(result.status, .usage)
            XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(input):1: \(message)"), result.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        }
        let marked = path("marked.jsonl")
        try Data([0xEF, 0xBB, 0xBF] + Array(#"{"key":"A:1","record":{"n":1}}"#.utf8) + [0x0A]).write(to: URL(fileURLWithPath: marked))
        let imported = gqlcache("import", target, marked, "--create")
        XCTAssertEqual(imported.status, .success, imported.stderr)
        XCTAssertEqual(try records(target), ["A:1": ["n": .int(1)]])
    }

    /// A syntax error names what is wrong in terms of the input: a character
    /// beyond ASCII by its code point (a second byte-order mark as one), the
    /// column after a carriage return inside the line counted from the
    /// line's start (and the carriage return named), and a record over
    /// several lines by the line ending inside it.
    func testSyntaxErrorsInJSONLinesNameTheCharacterTheColumnAndTheLikelyCause() throws {
        let target = path("new.sqlite")
        let line = #"{"key":"A:1","record":{"x":1}}"#
        for (bytes, message) in [
            ([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(line.utf8), "1:1: not JSON: unexpected character U+FEFF (a byte-order mark); nothing imported"),
            (Array(#"{"key":"A:1","record":{"x":é}}"#.utf8), "1:28: not JSON: unexpected character U+00E9; nothing imported"),
            (Array(line.utf8) + [0x0D] + Array("junk".utf8),
             "1:32: not JSON: unexpected text after the value (the line holds a carriage return: lines end in a line feed, or CR LF); nothing imported"),
            (Array(#"{"key":"A:1","#.utf8) + [0x0A] + Array(#""record":{}}"#.utf8),
             "1:14: not JSON: expected a member name in quotes (a JSON Lines export has one record per line); nothing imported"),
        ] {
            let input = path("bad.jsonl")
            try Data(bytes + [0x0A]).write(to: URL(fileURLWithPath: input))
            let result = gqlcache("import", target, input, "--create", "--input-format", "jsonl")
            XCTAssertEqual(result.status, .usage)
            XCTAssertEqual(result.stderr, "gqlcache: \(input):\(message)\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        }
    }

    func testDamagedRecordsAreLeftOutAndReported() throws {
        let cache = try makeCache("damaged.sqlite", [Record(key: "A:1", fields: ["n": .int(1)])], raw: [("B:1", nil), ("C:1", "[1]")])
        let result = gqlcache("export", cache)
        XCTAssertEqual(result.status, .damagedRecord)
        XCTAssertEqual(result.stdout, "{\"key\":\"A:1\",\"record\":{\"n\":1}}\n")
        XCTAssertEqual(result.stderr, """
            gqlcache: \(cache): record 'B:1' is damaged: its record column is NULL; not exported
            gqlcache: \(cache): record 'C:1' is damaged: a JSON array, not a JSON object; not exported

            """)
    }

    /// Apollo reads a row as a Swift string, U+FFFD in place of bytes that
    /// are not UTF-8: so it is exported, in both forms, and said.
    func testARecordWithBytesThatAreNotUTF8IsExportedAsApolloReadsItWithAWarning() throws {
        let cache = try makeCache("bytes.sqlite", [Record(key: "A:1", fields: ["n": .int(1)])])
        _ = try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('B:1', CAST(X'7B2273223A2261FF62227D' AS TEXT)), ('C:1', CAST(X'7B2273223A22FE227D' AS TEXT))"#)
        let lines = gqlcache("export", cache)
        XCTAssertEqual(lines.status, .success)
        XCTAssertEqual(lines.lines, [#"{"key":"A:1","record":{"n":1}}"#, #"{"key":"B:1","record":{"s":"a\#u{FFFD}b"}}"#, #"{"key":"C:1","record":{"s":"\#u{FFFD}"}}"#])
        XCTAssertEqual(lines.stderr, "gqlcache: warning: \(cache): 2 records (the first 'B:1') hold bytes that are not UTF-8; "
            + "exported as Apollo reads them, with U+FFFD in place of each bad sequence\n")
        let extract = gqlcache("export", cache, "--format", "apollo-client")
        XCTAssertEqual(extract.status, .success)
        XCTAssertTrue(extract.stdout.contains("a\u{FFFD}b"), extract.stdout)
        XCTAssertEqual(extract.stderr, lines.stderr)
        XCTAssertEqual(gqlcache("export", try copyOfFixture("starwars.sqlite")).stderr, "", "no warning for UTF-8 text")
    }

    /// What import refuses, export does not write: a key that is empty or
    /// holds a NUL character, or text that is not UTF-8 (Apollo never finds
    /// it, and U+FFFD in its place would make another key).
    func testExportLeavesOutKeysImportCannotTakeAndSaysSo() throws {
        let cache = try makeCache("keys.sqlite", [Record(key: "A:1", fields: ["n": .int(1)])])
        _ = try sqliteShell(cache, #"INSERT INTO records(key, record) VALUES ('', '{"e":1}'), (CAST(X'4E6F6E5554463AFF' AS TEXT), '{"u":1}'), ('N' || char(0) || 'ul', '{"z":1}')"#)
        for format in ["jsonl", "apollo-client"] {
            let result = gqlcache("export", cache, "--format", format, "-o", path("out.\(format)"))
            XCTAssertEqual(result.status, .damagedRecord, format)
            XCTAssertEqual(result.stderr, """
                gqlcache: \(cache): a record has the empty string as its key, which no Apollo cache key is (import refuses it); not exported
                gqlcache: \(cache): the key "N\\u0000ul" holds a NUL character, which no Apollo cache key does (import refuses it); not exported
                gqlcache: warning: 1 row of \(cache) has no UTF-8 text key (NULL, a BLOB or other bytes), which Apollo never reads; not exported (gqlcache doctor lists them)

                """, format)
            let imported = gqlcache("import", path("new-\(format).sqlite"), path("out.\(format)"), "--create")
            XCTAssertEqual(imported.status, .success, imported.stderr)
            XCTAssertEqual(try records(path("new-\(format).sqlite")).keys.sorted(), ["A:1"], format)
        }
    }

    /// Counted as diff would count: a record the input changes and changes
    /// back is not changed, nor rewritten, and a field changed twice counts once.
    func testImportCountsChangesAgainstTheRecordsAsTheyWere() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let original = try copyOfFixture("starwars.sqlite", as: "original.sqlite")
        let input = """
            {"key":"Human:1000","record":{"name":"Luke"}}
            {"key":"Human:1000","record":{"name":"Luke Skywalker"}}
            {"key":"Droid:2001","record":{"name":"R2"}}
            {"key":"Droid:2001","record":{"name":"Artoo"}}
            {"key":"New:1","record":{"x":1}}
            {"key":"New:1","record":{"x":1}}
            """
        let expected = "1 added, 1 changed (2 fields)"
        let dryRun = gqlcache("import", cache, "-", "--dry-run", input: input)
        XCTAssertEqual(dryRun.status, .success, dryRun.stderr)
        XCTAssertTrue(dryRun.stdout.contains(expected), dryRun.stdout)
        XCTAssertFalse(dryRun.stdout.contains("Human:1000"), dryRun.stdout)
        XCTAssertTrue(dryRun.stdout.contains(#"name: "R2-D2" → "Artoo""#), dryRun.stdout)
        let result = gqlcache("import", cache, "-", input: input)
        XCTAssertEqual(result.stdout, "imported 6 records (jsonl) into \(cache): \(expected)\n")
        XCTAssertTrue(gqlcache("diff", original, cache).stdout.hasSuffix("2 records differ: 1 added, 1 changed; 9 the same\n"))
    }

    func testImportMergesFieldByFieldAndKeepsWhatTheInputLacks() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let input = """
            {"key":"Human:1002","record":{"name":"Han","ship":{"$reference":"Starship:3001"}}}
            {"key":"Human:1003","record":{"__typename":"Human","id":"1003"}}
            """
        let dryRun = gqlcache("import", cache, "-", "--dry-run", input: input)
        XCTAssertEqual(dryRun.status, .success, dryRun.stderr)
        XCTAssertEqual(dryRun.stdout, """
            Human:1002
              name: "Han Solo" → "Han"
              + ship: {"$reference":"Starship:3001"}
            Human:1003 (new record)
              + __typename: "Human"
              + id: "1003"
            would import 2 records (jsonl) into \(cache): 1 added, 1 changed (4 fields); dry run, nothing written

            """)
        XCTAssertEqual(try keys(in: cache).count, 10)

        let result = gqlcache("import", cache, "-", input: input)
        XCTAssertEqual(result.stdout, "imported 2 records (jsonl) into \(cache): 1 added, 1 changed (4 fields)\n")
        let records = try records(cache)
        XCTAssertEqual(records["Human:1002"], ["__typename": .string("Human"), "id": .string("1002"), "name": .string("Han"), "ship": .reference("Starship:3001")])
        XCTAssertEqual(records.count, 11)
    }

    func testImportFindsTheApolloClientFormAndSkipsItsMetadata() throws {
        let cache = try copyOfFixture("legacy-sqlite-swift.sqlite")
        let input = #"{"ROOT_QUERY":{"__typename":"Query","hero(episode:JEDI)":{"__ref":"Droid:2002"}},"Droid:2002":{"name":"C-3PO"},"__META":{"extraRootIds":["Droid:2002"]}}"#
        let result = gqlcache("import", cache, "-", "--format", "json", input: input)
        XCTAssertEqual(result.status, .success, result.stderr)
        let report = try XCTUnwrap(try result.json() as? [String: Any])
        XCTAssertEqual(report["form"] as? String, "apollo-client")
        XCTAssertEqual(report["read"] as? Int, 2)
        let records = try records(cache)
        XCTAssertEqual(records["QUERY_ROOT"]?["hero(episode:JEDI)"], .reference("Droid:2002"))
        XCTAssertEqual(records["QUERY_ROOT"]?["__typename"], .string("Query"))
        XCTAssertNil(records["__META"])
        XCTAssertEqual(try CacheStore.open(at: cache).format.ddl, .legacy, "the file keeps its layout")
    }

    /// In Apollo Client's form `{"$reference": …}` is a custom-scalar value:
    /// taken in as an Apollo iOS reference it would come back as `{"__ref": …}`.
    func testImportRefusesADollarReferenceObjectInTheApolloClientFormAndWritesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let input = path("extract.json")
        try Data(#"{"Post:9":{"__typename":"Post","meta":{"$reference":"Human:1000"}}}"#.utf8).write(to: URL(fileURLWithPath: input))
        let result = gqlcache("import", cache, input)
        XCTAssertEqual(result.status, .usage)
        XCTAssertTrue(result.stderr.hasPrefix("gqlcache: \(input):1:32: entity 'Post:9', field 'meta': {\"$reference\": \"Human:1000\"} is a value"), result.stderr)
        XCTAssertEqual(try bytes(cache), before)
    }

    /// An extract() object is one value over many lines (`JSON.stringify(…,
    /// null, 2)`): what it holds that cannot be imported is named at the line
    /// of its entity, or of the field at fault (the last of one given twice,
    /// as that is the one read), not for the file as a whole.
    func testAnApolloClientObjectThatCannotBeImportedNamesTheLineOfTheEntityOrField() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let fieldAtFault = """
            {
              "ROOT_QUERY": {
                "__typename": "Query",
                "hero": { "__ref": "Human:1000", "name": "Luke" },
                "hero": { "__ref": "Human:1000", "id": "1000" }
              }
            }
            """
        let field = gqlcache(arguments: ["import", cache, "-"], input: fieldAtFault)
        XCTAssertEqual(field.status, .usage)
        XCTAssertTrue(field.stderr.hasPrefix("gqlcache: standard input:5:5: entity 'ROOT_QUERY', field 'hero': an object with a string \"__ref\""), field.stderr)
        let entityAtFault = "{\n  \"Human:1000\": {},\n  \"Droid:2001\": [1]\n}"
        let entity = gqlcache(arguments: ["import", cache, "-"], input: entityAtFault)
        XCTAssertEqual(
            entity.stderr, "gqlcache: standard input:3:3: entity 'Droid:2001' is not a JSON object (read as Apollo Client's extract() object); nothing imported\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// -o /dev/stdout is standard output, as -o - is: the data alone, no
    /// summary line in it for the next program to choke on.
    func testExportToDevStdoutPrintsTheDataAlone() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = try runProgram(builtBinary, ["export", cache, "-o", "/dev/stdout"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 10)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix(#"{"key":"#) }, result.stdout)
        XCTAssertEqual(gqlcache("export", cache, "-o", path("out.jsonl")).stdout, "exported 10 records (jsonl) to \(path("out.jsonl"))\n")
        let unnamed = gqlcache("export", cache, "-o", "")
        XCTAssertEqual(unnamed.status, .usage)
        XCTAssertEqual(unnamed.stderr, "gqlcache: --output needs a file name, or - for standard output (see 'gqlcache export --help')\n")
    }

    /// A record with no fields is not written, as Apollo's merge writes
    /// fields: the summary says so, not that the cache already held it.
    func testARecordWithNoFieldsIsSaidNotToBeWritten() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let result = gqlcache("import", cache, "-", input: #"{"key":"Empty:1","record":{}}"#)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "imported 1 record (jsonl) into \(cache): nothing to change; 1 record with no fields not written, as Apollo's merge writes none\n")
        XCTAssertNil(try records(cache)["Empty:1"])
    }

    /// `{"key":"X:1"}` is a line of the JSON Lines form without its
    /// record, not an Apollo Client object with an entity named "key".
    func testALineWithAKeyAndNoRecordIsNamedForWhatItLacks() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let result = gqlcache("import", cache, "-", input: #"{"key":"X:1"}"#)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, #"gqlcache: standard input:1: the line of 'X:1' has no "record"; a line is {"key": "…", "record": {…}}; nothing imported"# + "\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    func testABadLineStopsTheImportNamingItAndWritesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let input = #"{"key":"A:1","record":{}}"# + "\n\n" + #"{"key":"B:1","record":[]}"#
        let result = gqlcache("import", cache, "-", input: input)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(result.stderr, "gqlcache: standard input:3: the \"record\" of 'B:1' is not a JSON object; nothing imported\n")
        XCTAssertEqual(try bytes(cache), before)

        let new = path("new.sqlite")
        XCTAssertEqual(gqlcache("import", new, "-", "--create", input: input).status, .usage)
        XCTAssertFalse(FileManager.default.fileExists(atPath: new), "a file the import created is removed when it fails")
        let notJSON = gqlcache("import", cache, "-", "--input-format", "apollo-client", input: "{oops")
        XCTAssertEqual(notJSON.status, .usage)
        XCTAssertEqual(notJSON.stderr, "gqlcache: standard input:1:2: not JSON: expected a member name in quotes (read as Apollo Client's extract() object); nothing imported\n")
    }

    func testImportIntoADamagedRecordIsRefusedNamingTheInputTheRecordAndTheRemedy() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "INSERT INTO records(key, record) VALUES ('Bad:(1)', '[1]')")
        let before = try bytes(cache)
        let input = #"{"key":"A:1","record":{"a":1}}"# + "\n" + #"{"key":"Bad:(1)","record":{"a":1}}"#
        for dryRun in [[], ["--dry-run"]] {
            let result = gqlcache(arguments: ["import", cache, "-"] + dryRun, input: input)
            XCTAssertEqual(result.status, .damagedRecord, "\(dryRun)")
            XCTAssertEqual(
                result.stderr,
                "gqlcache: standard input:2: record 'Bad:(1)' is damaged in \(cache) (a JSON array, not a JSON object), so nothing can be "
                    + "merged into it; nothing imported (remove it first with: gqlcache rm \(cache) 'Bad:(1)')\n")
            XCTAssertEqual(try bytes(cache), before)
        }
        // The Apollo Client form is one object: its name alone.
        let extract = gqlcache(arguments: ["import", cache, "-"], input: #"{"Bad:(1)":{"a":1}}"#)
        XCTAssertTrue(extract.stderr.hasPrefix("gqlcache: standard input: record 'Bad:(1)' is damaged"), extract.stderr)
    }

    func testImportRefusesAGraphQLResponseUnlessTheFormIsNamed() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let response = #"{"data":{"hero":{"__typename":"Droid","name":"R2"}},"errors":[]}"#
        let refused = gqlcache("import", cache, "-", input: response)
        XCTAssertEqual(refused.status, .usage)
        XCTAssertEqual(
            refused.stderr,
            "gqlcache: standard input: a GraphQL response ({\"data\": …}), not an export; 'gqlcache write' stores a response as Apollo does; nothing imported\n")
        XCTAssertEqual(try bytes(cache), before)
        // Named, the form is taken at its word: "data" is then an entity ID.
        let named = gqlcache("import", cache, "-", "--input-format", "apollo-client", "--dry-run", "--format", "jsonl", input: #"{"data":{"n":1}}"#)
        XCTAssertEqual(named.status, .success, named.stderr)
        XCTAssertEqual(named.lines.last, #"{"type":"summary","dryRun":true,"created":false,"form":"apollo-client","read":1,"added":1,"changed":0,"fields":1,"withoutFields":0}"#)
    }

    func testImportRefusesAKeyWithANULAndWritesNothing() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let input = path("nul.jsonl")
        let lines = [#"{"key":"Ok:1","record":{"n":1}}"#, #"{"key":"A\u0000B","record":{"n":2}}"#]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        let message = #"gqlcache: \#(input):2: the key "A\u0000B" holds a NUL character, which a cache key cannot; nothing imported"# + "\n"
        for dryRun in [[], ["--dry-run"]] {
            let result = gqlcache(arguments: ["import", cache, input] + dryRun)
            XCTAssertEqual(result.status, .usage, "\(dryRun)")
            XCTAssertEqual(result.stderr, message, "a dry run refuses it as the import does")
        }
        let extract = gqlcache(arguments: ["import", cache, "-", "--dry-run"], input: #"{"A\u0000B":{"n":1}}"#)
        XCTAssertEqual(extract.status, .usage)
        XCTAssertEqual(
            extract.stderr,
            #"gqlcache: standard input:1:2: the key "A\u0000B" holds a NUL character, which a cache key cannot; nothing imported"# + "\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before)
    }

    /// Bytes that are not UTF-8 would come out as U+FFFD, keys included:
    /// the import is refused instead, naming the line, from a file or from
    /// standard input, in either form.
    func testImportRefusesBytesThatAreNotUTF8NamingTheLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let input = path("latin1.jsonl")
        var bytes = Data(#"{"key":"Ok:1","record":{"n":1}}"#.utf8 + [0x0A])
        bytes += Data(#"{"key":"Caf"#.utf8) + Data([0xE9]) + Data(#"","record":{"n":2}}"#.utf8 + [0x0A])
        try bytes.write(to: URL(fileURLWithPath: input))
        for dryRun in [[], ["--dry-run"]] {
            let result = gqlcache(arguments: ["import", cache, input] + dryRun)
            XCTAssertEqual(result.status, .usage, "\(dryRun)")
            XCTAssertEqual(result.stderr, "gqlcache: \(input):2: not UTF-8 text at byte 12 of the line; nothing imported\n")
        }
        let piped = try runProgram(builtBinary, ["import", cache, "-"], standardInput: input)
        XCTAssertEqual(piped.status, 2)
        XCTAssertEqual(piped.stderr, "gqlcache: standard input:2: not UTF-8 text at byte 12 of the line; nothing imported\n")
        let extract = path("latin1.json")
        try (Data("{\n  \"ROOT_QUERY\": {\"a\": \"".utf8) + Data([0xC3]) + Data("\"}\n}\n".utf8)).write(to: URL(fileURLWithPath: extract))
        let fromExtract = gqlcache("import", cache, extract)
        XCTAssertEqual(fromExtract.status, .usage)
        XCTAssertEqual(fromExtract.stderr, "gqlcache: \(extract):2: not UTF-8 text at byte 24 of the line; nothing imported\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before)
    }

    /// `jq .` prints an export's records over several lines each: that is
    /// named for what it is, not reported as a bad Apollo Client object.
    func testAPrettyPrintedJSONLinesExportIsNamedForWhatItIs() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let message = "gqlcache: standard input: a JSON Lines record spread over several lines, where JSON Lines has one per line "
            + "('jq -c .' puts each on one); nothing imported\n"
        let one = "{\n  \"key\": \"A:1\",\n  \"record\": {\n    \"a\": 1\n  }\n}"
        for input in [one, one + "\n" + one] {
            let result = gqlcache(arguments: ["import", cache, "-"], input: input)
            XCTAssertEqual(result.status, .usage)
            XCTAssertEqual(result.stderr, message)
        }
        // Named as an extract() object, it is one: entities "key" and "record".
        let named = gqlcache(arguments: ["import", cache, "-", "--input-format", "apollo-client"], input: "{\n\"key\": {\"a\": 1},\n\"record\": {}\n}")
        XCTAssertEqual(named.status, .success, named.stderr)
    }

    /// An object that gives one member twice inside a record, byte for
    /// byte or in two spellings of one character, keeps the last, as a
    /// record stored so is read: so the export of such a record imports
    /// again, with a warning naming where the first was given. A member
    /// given twice around a record (the line's own "key" or "record") is
    /// refused: which value is meant cannot be told. Entity IDs given
    /// twice are merged in order, as documented.
    func testImportKeepsTheLastOfAMemberGivenTwiceInARecordAndRefusesItAroundOne() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        for (input, place, member) in [
            (#"{"key":"A:1","key":"A:2","record":{"x":1}}"#, "1:14", "key"),
            (#"{"key":"A:1","record":{"x":1},"record":{"y":2}}"#, "1:31", "record"),
        ] {
            let result = gqlcache(arguments: ["import", cache, "-"], input: input)
            XCTAssertEqual(result.status, .usage, input)
            XCTAssertEqual(result.stderr, "gqlcache: standard input:\(place): the member \"\(member)\" is given twice (or in two spellings "
                + "of one character), and which value is meant cannot be told; nothing imported\n")
        }
        XCTAssertEqual(try bytes(cache), before)

        // A record stored with a member given twice, as another program may write it: export, then import.
        let source = try makeCache("repeated.sqlite", [], raw: [
            ("A:1", #"{"x":1}"#), ("Dup:1", #"{"a":1,"a":2,"o":{"b":1,"b":[3]}}"#), ("Dup:2", #"{"a":"x","a":"y"}"#),
            ("Dup:3", "{\"caf\u{E9}\":1,\"cafe\u{301}\":2}"),
        ])
        let exported = gqlcache("export", source)
        XCTAssertEqual(exported.status, .success, exported.stderr)
        let copy = path("copy.sqlite")
        let imported = gqlcache(arguments: ["import", copy, "-", "--create"], input: exported.stdout)
        XCTAssertEqual(imported.status, .success, imported.stderr)
        XCTAssertEqual(imported.stderr, "gqlcache: warning: standard input:2:32: the member \"a\" is given twice in one object; "
            + "the last value is kept, as a record stored so is read (and in 2 more lines)\n")
        XCTAssertEqual(try records(copy)["Dup:1"], ["a": .int(2), "o": .object(["b": .list([.int(3)])])])
        // The last value, under the first spelling, as Foundation's reader keeps them (Swift compares the two as equal, so bytes are compared).
        XCTAssertEqual(try sqliteShell(copy, "SELECT hex(record) FROM records WHERE key = 'Dup:3'"), Data(#"{"caf\#u{E9}":2}"#.utf8).map { String(format: "%02X", $0) }.joined())
        XCTAssertEqual(gqlcache("diff", source, copy).status, .success, "the same records, as both are read")
        for input in [
            "{\"key\":\"U:1\",\"record\":{\"caf\u{E9}\":1,\"cafe\u{301}\":2}}",
            "{\"ROOT_QUERY\":{\"caf\u{E9}\":1,\"cafe\u{301}\":2}}",
        ] {
            let twoSpellings = gqlcache(arguments: ["import", copy, "-"], input: input)
            XCTAssertEqual(twoSpellings.status, .success, twoSpellings.stderr)
            XCTAssertTrue(twoSpellings.stderr.contains("\" is given in two spellings of one character in one object; the last value is kept"), twoSpellings.stderr)
        }
        XCTAssertEqual(try sqliteShell(copy, "SELECT hex(record) FROM records WHERE key = 'U:1'"), Data(#"{"caf\#u{E9}":2}"#.utf8).map { String(format: "%02X", $0) }.joined())

        let extract = gqlcache(arguments: ["import", cache, "-"], input: #"{"ROOT_QUERY":{"viewer":{"__ref":"User:1","__ref":"User:2"}}}"#)
        XCTAssertEqual(extract.status, .success, extract.stderr)
        XCTAssertTrue(extract.stderr.hasPrefix("gqlcache: warning: standard input:1:43: the member \"__ref\" is given twice in one object"), extract.stderr)
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?["viewer"], .reference("User:2"))
    }

    /// Apollo Client's JSON.parse keeps only the last of an entity given
    /// twice; import merges them in order, as two lines for one key, and
    /// says so rather than merging in silence.
    func testAnEntityGivenTwiceIsMergedInOrderWithAWarning() throws {
        let target = path("new.sqlite")
        let input = "{\n\"X\":{\"a\":1},\n\"Y\":{\"c\":1},\n\"X\":{\"b\":1},\n\"Y\":{\"c\":2},\n\"Y\":{\"d\":2}\n}\n"
        let result = gqlcache(arguments: ["import", target, "-", "--create"], input: input)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, "gqlcache: warning: standard input: the entity \"X\" is given twice (and 1 more ID); its members are merged "
            + "in order, where Apollo Client's JSON.parse would keep only the last\n")
        XCTAssertEqual(try records(target), ["X": ["a": .int(1), "b": .int(1)], "Y": ["c": .int(2), "d": .int(2)]])
        let once = gqlcache(arguments: ["import", path("other.sqlite"), "-", "--create"], input: #"{"X":{"a":1},"Y":{"a":1}}"#)
        XCTAssertEqual(once.stderr, "")
    }

    /// Apollo's write loads the record it merges into and fails on one its
    /// JSON reading refuses (a number too large for a Double): write,
    /// import and update refuse it too, dry run or not, naming the record
    /// and the rm that removes it, and write nothing.
    func testAWriteIntoARecordApolloCannotReadIsRefusedDryRunOrNot() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"UPDATE records SET record = substr(record, 1, length(record) - 1) || ',"mass2":1e400}' WHERE key = 'Droid:2001'"#)
        let before = try bytes(cache)
        let response = path("response.json")
        try Data(#"{"data":{"hero":{"__typename":"Droid","id":"2001","name":"Artoo"}}}"#.utf8).write(to: URL(fileURLWithPath: response))
        let problem = "record 'Droid:2001' is damaged in \(cache) (field 'mass2' holds 1e400, a number too large for a Double, which Apollo's "
            + "JSON reading refuses with the whole record), so nothing can be merged into it"
        let removal = "(remove it first with: gqlcache rm \(cache) Droid:2001)"
        for dryRun in [[], ["--dry-run"]] {
            let write = gqlcache(arguments: ["write", cache, "--text", "{ hero(episode: NEWHOPE) { __typename id name } }", "--response", response,
                                             "--key-field", "*=id"] + dryRun)
            XCTAssertEqual(write.status, .damagedRecord, "\(dryRun)")
            XCTAssertEqual(write.stderr, "gqlcache: \(problem); nothing written \(removal)\n")
            let merge = gqlcache(arguments: ["import", cache, "-"] + dryRun, input: #"{"key":"Droid:2001","record":{"name":"Z"}}"#)
            XCTAssertEqual(merge.status, .damagedRecord, "\(dryRun)")
            XCTAssertEqual(merge.stderr, "gqlcache: standard input:1: \(problem); nothing imported \(removal)\n")
            let update = gqlcache(arguments: ["update", cache, "--text", "query U @apollo_client_ios_localCacheMutation { hero(episode: NEWHOPE) { name } }",
                                              "--set", "hero.name=Q"] + dryRun)
            XCTAssertEqual(update.status, .damagedRecord, "\(dryRun)")
        }
        XCTAssertEqual(try bytes(cache), before)
    }

    func testImportRefusesANumberTooLargeForADouble() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let lines = #"{"key":"A:1","record":{"a":1}}"# + "\n" + #"{"key":"A:2","record":{"n":[1,{"b":1e400}]}}"#
        for dryRun in [[], ["--dry-run"]] {
            let result = gqlcache(arguments: ["import", cache, "-"] + dryRun, input: lines)
            XCTAssertEqual(result.status, .usage)
            XCTAssertEqual(
                result.stderr,
                "gqlcache: standard input:2: field 'n' of 'A:2' holds a number too large for a Double, which Apollo cannot store; nothing imported\n")
        }
        // In an extract() object over many lines, named at the field's line.
        let extract = gqlcache(arguments: ["import", cache, "-"], input: "{\n  \"A:1\": {\n    \"b\": 1,\n    \"a\": -1e400\n  }\n}")
        XCTAssertEqual(
            extract.stderr, "gqlcache: standard input:4:5: field 'a' of 'A:1' holds a number too large for a Double, which Apollo cannot store; nothing imported\n")
        XCTAssertEqual(gqlcache(arguments: ["import", cache, "-", "--dry-run"], input: #"{"key":"A:1","record":{"a":0.0e5}}"#).status, .success)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before)
        // One too small Apollo reads as 0, and export gives it as the file
        // holds it: stored as written, so that an export imports whole.
        try sqliteShell(cache, #"UPDATE records SET record = replace(record, '"length":12.5', '"length":[1e-400]') WHERE key = 'Starship:3001'"#)
        let export = gqlcache("export", cache)
        XCTAssertEqual(export.status, .success, export.stderr)
        let copy = path("copy.sqlite")
        let restore = gqlcache(arguments: ["import", copy, "-", "--create"], input: export.stdout)
        XCTAssertEqual(restore.status, .success, restore.stderr)
        XCTAssertEqual(gqlcache("diff", cache, copy).status, .success)
        XCTAssertTrue(try sqliteShell(copy, "SELECT record FROM records WHERE key = 'Starship:3001'").contains(#""length":[1e-400]"#))
    }

    /// A record Apollo cannot read (a number too large for a Double), which
    /// import would refuse, is left out of either form with status 6, as a
    /// damaged record is: the export still imports whole, and diff says
    /// what it lacks. A string holding such text is no number.
    func testExportLeavesOutARecordApolloCannotReadSoTheRestImportsWhole() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, #"UPDATE records SET record = replace(record, '"length":12.5', '"length":[1,-1.8E+308]') WHERE key = 'Starship:3001'"#)
        try sqliteShell(cache, #"UPDATE records SET record = replace(record, '"name":"Han Solo"', '"name":"Han 1e400 Solo","n":5e-300') WHERE key = 'Human:1002'"#)
        let message = "gqlcache: \(cache): record 'Starship:3001' is damaged: field 'length' holds -1.8E+308, a number too large for a Double, "
            + "which Apollo's JSON reading refuses with the whole record; not exported\n"
        for format in ["jsonl", "apollo-client"] {
            let lines = path("out.\(format)")
            let export = gqlcache("export", cache, "--format", format, "-o", lines)
            XCTAssertEqual(export.status, .damagedRecord, format)
            XCTAssertEqual(export.stderr, message, format)
            let copy = path("copy-\(format).sqlite")
            let restore = gqlcache("import", copy, lines, "--create")
            XCTAssertEqual(restore.status, .success, restore.stderr)
            XCTAssertEqual(gqlcache("diff", cache, copy, "--keys-only").lines, ["- Starship:3001", "1 record differs: 1 removed; 9 the same"])
        }
    }

    /// `\ud800` alone is no character; Apollo's JSON parser refuses it, and
    /// so does import, naming the line, even when the first line has it.
    func testImportRefusesHalfASurrogatePairNamingTheLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try Data(contentsOf: URL(fileURLWithPath: cache))
        let line = #"{"key":"A:1","record":{"name":"x\ud800"}}"#
        let result = gqlcache(arguments: ["import", cache, "-"], input: line + "\n" + #"{"key":"A:2","record":{}}"#)
        XCTAssertEqual(result.status, .usage)
        XCTAssertEqual(
            result.stderr,
            #"gqlcache: standard input:1:33: not JSON: lone surrogate \ud800 (half of a pair); nothing imported"#
                + "\n")
        let extract = gqlcache(arguments: ["import", cache, "-"], input: #"{"ROOT_QUERY":{"a":"\udc01"}}"#)
        XCTAssertEqual(
            extract.stderr,
            #"gqlcache: standard input:1:21: not JSON: lone surrogate \udc01 (half of a pair) (read as Apollo Client's extract() object); nothing imported"#
                + "\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cache)), before)
        let pair = gqlcache(arguments: ["import", cache, "-"], input: #"{"key":"A:1","record":{"name":"\ud83d\ude00"}}"#)
        XCTAssertEqual(pair.status, .success, pair.stderr)
        XCTAssertEqual(try sqliteShell(cache, "SELECT record FROM records WHERE key = 'A:1'"), #"{"name":"😀"}"#)
    }

    /// A file name may be a pipe (a named pipe, a shell's <(…), /dev/stdin):
    /// it is read once, as a stream, with nothing of its start lost.
    func testImportAndDocumentsReadFromPipesGivenByName() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let jsonl = gqlcache("export", cache).stdout
        // A short first line (the probe for an SQLite header reads 16 bytes) and a blank one.
        let input = "\n" + #"{"key":"A","record":{"a":1}}"# + "\n" + jsonl
        let created = path("piped.sqlite")
        let imported = try throughFIFO(input) { fifo in gqlcache("import", created, fifo, "--create") }
        XCTAssertEqual(imported.status, .success, imported.stderr)
        XCTAssertEqual(try keys(in: created), (try keys(in: cache) + ["A"]).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        let extract = gqlcache("export", cache, "--format", "apollo-client").stdout
        let fromExtract = path("extract.sqlite")
        let second = try throughFIFO(extract) { fifo in gqlcache("import", fromExtract, fifo, "--create") }
        XCTAssertEqual(second.status, .success, second.stderr)
        XCTAssertEqual(gqlcache("diff", cache, fromExtract).status, .success)
        let read = try throughFIFO("{ hero(episode: NEWHOPE) { name } }") { fifo in
            gqlcache("read", cache, "--document", fifo, "--format", "jsonl")
        }
        XCTAssertEqual(read.status, .success, read.stderr)
        XCTAssertEqual(read.stdout, #"{"hero":{"name":"R2-D2"}}"# + "\n")
    }

    func testAnExportReplacingAFileKeepsItsPermissions() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let target = path("private.jsonl")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertEqual(chmod(target, 0o600), 0)
        let result = gqlcache("export", cache, "-o", target)
        XCTAssertEqual(result.status, .success, result.stderr)
        let attributes = try FileManager.default.attributesOfItem(atPath: target)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertTrue(try String(contentsOfFile: target, encoding: .utf8).hasPrefix(#"{"key":"#))
    }

    /// Runs `body` with the path of a named pipe that another process
    /// writes `text` into.
    func throughFIFO(_ text: String, _ body: (String) -> CommandResult) throws -> CommandResult {
        let fifo = path("fifo-\(UUID().uuidString)")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let source = path("source-\(UUID().uuidString)")
        try Data(text.utf8).write(to: URL(fileURLWithPath: source))
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "cat \"$0\" > \"$1\"", source, fifo]
        try writer.run()
        let result = body(fifo)
        writer.waitUntilExit()
        return result
    }

    func testImportRefusesAnEmptyKeyAndNamesTheLine() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let lines = gqlcache("import", cache, "-", input: #"{"key":"A:1","record":{}}"# + "\n" + #"{"key":"","record":{"a":1}}"#)
        XCTAssertEqual(lines.status, .usage)
        XCTAssertEqual(lines.stderr, "gqlcache: standard input:2: the key is empty, which no Apollo cache key is; nothing imported\n")
        let extract = gqlcache("import", cache, "-", input: #"{"":{"a":1}}"#)
        XCTAssertEqual(extract.status, .usage)
        XCTAssertEqual(extract.stderr, "gqlcache: standard input:1:2: an entity ID is empty, which no Apollo cache key is; nothing imported\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    /// `import CACHE -` reads standard input to its end before it takes the
    /// write lock: a slow pipe (or `export` of the same file, which waits
    /// for its reader) never locks the app out of its cache meanwhile.
    func testImportFromAPipeTakesTheWriteLockOnlyOnceTheInputHasEnded() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: builtBinary), "build gqlcache first: \(builtBinary)")
        let cache = try copyOfFixture("starwars.sqlite")
        let process = Process()
        let input = Pipe(), errors = Pipe()
        process.executableURL = URL(fileURLWithPath: builtBinary)
        process.arguments = ["import", cache, "-", "-q"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(#"{"key":"A:1","record":{"a":1}}"#.utf8 + [0x0A]))
        // The import has read the first line once the pipe holds no byte
        // (FIONREAD counts a pipe's unread bytes from either end): it is
        // past its start, where it would have taken the lock before reading.
        let deadline = Date().addingTimeInterval(30)
        while gqlcache_pending_input(input.fileHandleForWriting.fileDescriptor) > 0 {
            guard process.isRunning, Date() < deadline else { return XCTFail("the import never read its first line") }
            usleep(5_000)
        }
        // The app writes while the import waits for the rest of its input.
        let app = try runProgram("/usr/bin/sqlite3", ["-batch", cache, ".timeout 200", #"INSERT INTO records (key, record) VALUES ('App:1', '{"b":2}')"#])
        XCTAssertEqual(app.status, 0, app.stderr)
        input.fileHandleForWriting.write(Data(#"{"key":"B:1","record":{"b":1}}"#.utf8 + [0x0A]))
        try input.fileHandleForWriting.close()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, said)
        XCTAssertTrue(Set(try keys(in: cache)).isSuperset(of: ["A:1", "B:1", "App:1"]))
        // A database on standard input is named for what it is, as a file is.
        let database = try runProgram(builtBinary, ["import", path("new.sqlite"), "-", "--create"], standardInput: cache)
        XCTAssertEqual(database.status, 2)
        XCTAssertEqual(database.stderr, "gqlcache: standard input: an SQLite database, not an export (export it first: gqlcache export CACHE > FILE.jsonl)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("new.sqlite")))
    }

    /// Past the file-size limit (`ulimit -f`) a write fails as on a full
    /// disk: said in one line that names the limit, exit 5, the file rolled
    /// back and no journal, backup or temporary file left. SIGXFSZ ended
    /// the process mid-write without a word.
    func testAWritePastTheFileSizeLimitFailsWithAMessageAndLeavesNothingBehind() throws {
        let cache = path("blog.sqlite")
        try BlogCache(users: 2_000).write(to: try CacheStore.create(at: cache))
        let export = path("blog.jsonl")
        XCTAssertEqual(gqlcache("export", cache, "-o", export).status, .success)
        let before = try bytes(cache)
        func limited(_ arguments: String...) throws -> (status: Int32, stdout: String, stderr: String) {
            try runProgram("/bin/sh", ["-c", #"ulimit -f 100; exec "$0" "$@""#, builtBinary] + arguments)
        }
        let imported = try limited("import", path("new.sqlite"), export, "--create")
        XCTAssertEqual(imported.status, 5)
        // (The shell's ulimit -f counts 512- or 1024-byte blocks.)
        let limit = try XCTUnwrap(["51200", "102400"].first { imported.stderr.contains("past \($0) bytes") }, imported.stderr)
        XCTAssertEqual(imported.stderr, "gqlcache: \(path("new.sqlite")): disk I/O error: a file may not grow past \(limit) bytes here (ulimit -f)\n")
        let backedUp = try limited("rm", cache, "User:3", "--backup")
        XCTAssertEqual(backedUp.status, 5)
        XCTAssertTrue(backedUp.stderr.hasSuffix("(disk I/O error: a file may not grow past \(limit) bytes here (ulimit -f)); nothing was changed\n"), backedUp.stderr)
        let exported = try limited("export", cache, "-o", path("again.jsonl"))
        XCTAssertEqual(exported.status, 5)
        XCTAssertEqual(exported.stderr, "gqlcache: \(path("again.jsonl")): cannot write the file (File too large); it was left as it was\n")
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)), ["blog.sqlite", "blog.jsonl"], "nothing left behind")
    }

    /// An import larger than SQLite's page cache (32 MiB for a write)
    /// spills pages into the file before its commit; past the file-size
    /// limit that fails half-written, and SQLite leaves its -journal hot
    /// for the next reader. The failed write rolls it back: the file is as
    /// it was, with no -journal that every later command would trip on.
    func testAnImportThatFailsAsItSpillsPagesLeavesTheFileAsItWas() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let input = path("big.jsonl")
        let body = String(repeating: "x", count: 1 << 20)
        try (0..<40).map { #"{"key":"Big:\#($0)","record":{"body":"\#(body)"}}"# + "\n" }.joined()
            .write(toFile: input, atomically: true, encoding: .utf8)
        let imported = try runProgram("/bin/sh", ["-c", #"ulimit -f 100; exec "$0" "$@""#, builtBinary, "import", cache, input])
        XCTAssertEqual(imported.status, 5, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("(ulimit -f)"), imported.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "-journal"), "a hot journal was left")
        XCTAssertEqual(try bytes(cache), before)
        XCTAssertEqual(gqlcache("info", cache).status, .success)
    }

    /// A pipe or device is copied before the lock is taken; the copy stops
    /// at the first NUL byte, which no export holds: /dev/zero filled the
    /// disk. A database or a compressed file piped in is still named for
    /// what it is.
    func testAnInputThatHoldsANulByteIsRefusedWhereTheByteIs() throws {
        let new = path("new.sqlite")
        let zero = try runProgram("/bin/sh", ["-c", #"ulimit -f 10240; exec "$0" import "$1" /dev/zero --create"#, builtBinary, new])
        XCTAssertEqual(zero.status, 2)
        XCTAssertEqual(zero.stderr, "gqlcache: /dev/zero: not an export: it holds a NUL byte, at byte 0; nothing imported\n")
        try Data("{\"key\":\"A:1\",\"record\":{}}\n\u{0}\n".utf8).write(to: URL(fileURLWithPath: path("nul.jsonl")))
        let piped = try runProgram(builtBinary, ["import", new, "-", "--create"], standardInput: path("nul.jsonl"))
        XCTAssertEqual(piped.status, 2)
        XCTAssertEqual(piped.stderr, "gqlcache: standard input: not an export: it holds a NUL byte, at byte 26; nothing imported\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: new))
        let database = try runProgram(builtBinary, ["import", new, "-", "--create"], standardInput: try copyOfFixture("starwars.sqlite"))
        XCTAssertEqual(database.stderr, "gqlcache: standard input: an SQLite database, not an export (export it first: gqlcache export CACHE > FILE.jsonl)\n")
    }

    /// An empty input is what exporting an empty cache gives: it imports,
    /// and the summary says the input held nothing (not that the cache
    /// already held it).
    func testAnEmptyInputImportsNothingAndSaysSo() throws {
        let new = path("new.sqlite")
        let result = gqlcache("import", new, "-", "--create", input: "")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stdout, "imported 0 records (jsonl) into \(new), created: the input holds no records\n")
        XCTAssertEqual(try keys(in: new), [])
    }

    /// An input that is a folder, or a cache file given where its export
    /// belongs, is named for what it is.
    func testAnInputThatIsAFolderOrACacheIsNamedForWhatItIs() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let folderInput = gqlcache("import", cache, folder.path)
        XCTAssertEqual(folderInput.status, .io)
        XCTAssertEqual(folderInput.stderr, "gqlcache: \(folder.path): is a directory, not an export\n")
        let other = path("other.sqlite")
        try FileManager.default.copyItem(atPath: cache, toPath: other)
        let cacheInput = gqlcache("import", cache, other)
        XCTAssertEqual(cacheInput.status, .usage)
        XCTAssertEqual(cacheInput.stderr, "gqlcache: \(other): an SQLite database, not an export (export it first: gqlcache export \(other) > FILE.jsonl)\n")
    }

    /// An export saved by a Windows shell (UTF-16) or compressed is named
    /// for what it is, with the command that makes it one import reads.
    func testAnInputInUTF16OrCompressedIsNamedForWhatItIs() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let before = try bytes(cache)
        let lines = gqlcache("export", cache).stdout
        let utf16 = path("utf16.jsonl")
        try XCTUnwrap(lines.data(using: .utf16)).write(to: URL(fileURLWithPath: utf16))
        XCTAssertEqual(try bytes(utf16).prefix(2), Data([0xFF, 0xFE]), "with its byte-order mark")
        let wide = gqlcache("import", cache, utf16)
        XCTAssertEqual(wide.status, .usage)
        XCTAssertEqual(wide.stderr, "gqlcache: \(utf16): UTF-16 text (it begins with a byte-order mark), as a Windows shell may write it; "
            + "convert it first: iconv -f UTF-16 -t UTF-8; nothing imported\n")
        let plain = path("all.jsonl")
        try lines.write(toFile: plain, atomically: true, encoding: .utf8)
        XCTAssertEqual(try runProgram("/bin/gzip", ["-k", plain]).status, 0)
        let gzipped = gqlcache("import", cache, plain + ".gz")
        XCTAssertEqual(gzipped.status, .usage)
        XCTAssertEqual(gzipped.stderr, "gqlcache: \(plain).gz: gzip-compressed; decompress it first: gunzip -c \(plain).gz | gqlcache import CACHE -; nothing imported\n")
        let piped = try runProgram(builtBinary, ["import", cache, "-"], standardInput: plain + ".gz")
        XCTAssertEqual(piped.stderr, "gqlcache: standard input: gzip-compressed; decompress it first: gunzip -c FILE | gqlcache import CACHE -; nothing imported\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    func testImportNeedsCreateForANewFileAndAnExistingInput() throws {
        let new = path("new.sqlite")
        let input = path("in.jsonl")
        try Data(#"{"key":"A:1","record":{"n":1}}"#.utf8).write(to: URL(fileURLWithPath: input))
        let missing = gqlcache("import", new, input)
        XCTAssertEqual(missing.status, .io)
        XCTAssertEqual(missing.stderr, "gqlcache: \(new): no such file; --create makes a new cache file\n")
        XCTAssertEqual(gqlcache("import", new, path("none.jsonl"), "--create").stderr, "gqlcache: \(path("none.jsonl")): no such file\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: new))
        let dryRun = gqlcache("import", new, input, "--create", "--dry-run")
        XCTAssertEqual(dryRun.lines.last, "would import 1 record (jsonl) into \(new), which would be created: 1 added, 0 changed (1 field); dry run, nothing written")
        XCTAssertFalse(FileManager.default.fileExists(atPath: new))
        // A path there but out of reach (links in a loop) is no missing file: --create would not help.
        let loop = path("loop.sqlite")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: path("back.sqlite"))
        try FileManager.default.createSymbolicLink(atPath: path("back.sqlite"), withDestinationPath: loop)
        let response = path("response.json")
        try Data(#"{"data":{"a":1}}"#.utf8).write(to: URL(fileURLWithPath: response))
        for extra in [[], ["--create"]] {
            let looped = gqlcache(arguments: ["import", loop, input] + extra)
            XCTAssertEqual(looped.status, .io)
            XCTAssertEqual(looped.stderr, "gqlcache: \(loop): cannot reach the file (Too many levels of symbolic links)\n", "\(extra)")
            let written = gqlcache(arguments: ["write", loop, "--text", "{ a }", "--response", response] + extra)
            XCTAssertEqual(written.stderr, "gqlcache: \(loop): cannot reach the file (Too many levels of symbolic links)\n", "\(extra)")
        }
    }

    /// A dry run shows each value as import would store it (a whole 4.0
    /// as 4, 1E5 as 100000), which is what diff shows afterwards.
    func testADryRunShowsNumbersAsTheyWouldBeStored() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let line = #"{"key":"User:1","record":{"c":1E5,"e":4.0,"f":1.10}}"#
        let dryRun = gqlcache("import", cache, "-", "--dry-run", input: line)
        XCTAssertEqual(dryRun.lines.prefix(4), ["User:1 (new record)", "  + c: 100000", "  + e: 4", "  + f: 1.1"])
        XCTAssertEqual(gqlcache("import", cache, "-", "-q", input: line).status, .success)
        XCTAssertEqual(try sqliteShell(cache, "SELECT record FROM records WHERE key = 'User:1'"), #"{"c":100000,"e":4,"f":1.1}"#)
    }

    /// A key given twice, in two batches of 1,000 lines: the second line is
    /// merged over the first, in a dry run as in the import, and the record
    /// is counted once, against the file as it was: added, not added and
    /// then changed.
    func testADryRunSeesEarlierLinesOfTheSameInput() throws {
        let cache = try copyOfFixture("legacy-sqlite-swift.sqlite")
        let lines = (0..<1500).map { #"{"key":"K:\#($0 % 1200)","record":{"n":\#($0)}}"# }.joined(separator: "\n")
        let dryRun = gqlcache("import", cache, "-", "--dry-run", "--format", "jsonl", input: lines)
        let real = gqlcache("import", cache, "-", "--format", "jsonl", input: lines)
        XCTAssertEqual(dryRun.lines.last, real.lines.last?.replacingOccurrences(of: #""dryRun":false"#, with: #""dryRun":true"#))
        XCTAssertEqual(real.lines.last, #"{"type":"summary","dryRun":false,"created":false,"form":"jsonl","read":1500,"added":1200,"changed":0,"fields":1200,"withoutFields":0}"#)
        XCTAssertEqual(try records(cache)["K:5"], ["n": .int(1205)])
    }

    /// Batches are 1,000 lines: a record that two batches change is counted
    /// once, against the file as it was, and one changed and changed back
    /// far apart is no change: the file keeps its bytes and no backup is
    /// made, as when the input changes nothing. The dry run lists each
    /// record once, with the value the file holds as "before".
    func testARecordChangedAgainInALaterBatchIsCountedOnceAgainstTheFileAsItWas() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let filler = (0..<1500).map { _ in #"{"key":"Droid:2001","record":{"id":"2001"}}"# }
        let back = ([#"{"key":"Droid:2001","record":{"name":"Artoo"}}"#] + filler + [#"{"key":"Droid:2001","record":{"name":"R2-D2"}}"#])
            .joined(separator: "\n")
        let before = try bytes(cache)
        let unchanged = gqlcache("import", cache, "-", "--backup", input: back)
        XCTAssertEqual(unchanged.status, .success, unchanged.stderr)
        XCTAssertEqual(unchanged.stdout, "imported 1502 records (jsonl) into \(cache): nothing to change, the cache already holds them\n")
        XCTAssertEqual(try bytes(cache), before, "changed and changed back: the file is as it was")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: (cache as NSString).deletingLastPathComponent)
            .filter { $0.contains("backup") }, [], "no backup of a file left unchanged")

        let twice = ([#"{"key":"Droid:2001","record":{"name":"Artoo"}}"#] + filler
            + [#"{"key":"Droid:2001","record":{"name":"Artoo Detoo","model":"R2"}}"#, #"{"key":"New:1","record":{"a":1}}"#]
            + filler.prefix(1000) + [#"{"key":"New:1","record":{"a":2}}"#]).joined(separator: "\n")
        let dryRun = gqlcache("import", cache, "-", "--dry-run", input: twice)
        XCTAssertEqual(dryRun.status, .success, dryRun.stderr)
        XCTAssertEqual(dryRun.lines, [
            "Droid:2001",
            "  + model: \"R2\"",
            "  name: \"R2-D2\" → \"Artoo Detoo\"",
            "New:1 (new record)",
            "  + a: 2",
            "would import 2504 records (jsonl) into \(cache): 1 added, 1 changed (3 fields); dry run, nothing written",
        ])
        let real = gqlcache("import", cache, "-", input: twice)
        XCTAssertEqual(real.stdout, "imported 2504 records (jsonl) into \(cache): 1 added, 1 changed (3 fields)\n")
        XCTAssertEqual(try records(cache)["Droid:2001"]?["name"], .string("Artoo Detoo"))
        XCTAssertEqual(try records(cache)["New:1"], ["a": .int(2)])
        let diff = gqlcache("diff", try copyOfFixture("starwars.sqlite", as: "original.sqlite"), cache, "--summary")
        XCTAssertEqual(diff.lines, ["2 records differ: 1 added, 1 changed; 9 the same"])
    }

    func testImportCountsAKeyThatComesAgainInOneBatchAsADryRunDoes() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let input = """
            {"key":"New:1","record":{"a":1}}
            {"key":"New:1","record":{"a":2,"b":3}}
            {"key":"New:1","record":{"a":2}}
            {"key":"Empty:1","record":{}}
            {"key":"Droid:2001","record":{"name":"R2-D2"}}
            {"key":"Droid:2001","record":{"name":"Artoo"}}
            {"key":"Droid:2001","record":{"name":"R2-D2"}}
            """
        let summary = #"{"type":"summary","dryRun":false,"created":false,"form":"jsonl","read":7,"added":1,"changed":0,"fields":2,"withoutFields":1}"#
        let dryRun = gqlcache("import", cache, "-", "--dry-run", "--format", "jsonl", input: input)
        XCTAssertEqual(dryRun.lines.last, summary.replacingOccurrences(of: #""dryRun":false"#, with: #""dryRun":true"#), dryRun.stderr)
        let real = gqlcache("import", cache, "-", "--format", "jsonl", input: input)
        XCTAssertEqual(real.lines.last, summary, real.stderr)
        let records = try records(cache)
        XCTAssertEqual(records["New:1"], ["a": .int(2), "b": .int(3)])
        XCTAssertNil(records["Empty:1"], "a record with no fields changes nothing, so it is not written")
        XCTAssertEqual(records["Droid:2001"]?["name"], .string("R2-D2"), "changed and changed back: not counted as a change")
        XCTAssertEqual(records.count, 11)
    }
}

/// What the pipe's reading thread got.
private final class StringBox: @unchecked Sendable {
    var text = ""
    let done = DispatchSemaphore(value: 0)
}

extension ExportImportCommandTests {
    /// A key with a line break or an edge space is shown quoted, as keys,
    /// rm and diff show it, so that the report's lines are one per record.
    func testTheImportReportQuotesKeysThatWouldNotShowAsThemselves() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let input = path("odd.jsonl")
        try Data(#"{"key":"New\nline:1","record":{"a":1}}"#.utf8 + [10] + #"{"key":" lead:1","record":{"a":1}}"#.utf8 + [10])
            .write(to: URL(fileURLWithPath: input))
        let result = gqlcache("import", cache, input, "--dry-run")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.lines.prefix(4), [#""New\nline:1" (new record)"#, "  + a: 1", #"" lead:1" (new record)"#, "  + a: 1"])
    }

    /// Two keys that differ only in how `é` is written are two records to
    /// SQLite and Apollo's lookup: import keeps both, merging neither into
    /// the other.
    func testKeysThatDifferOnlyInUnicodeNormalizationStayTwoRecords() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let input = path("nx.jsonl")
        try Data((#"{"key":"Caf\#u{e9}:1","record":{"v":"composed"}}"# + "\n" + #"{"key":"Cafe\#u{301}:1","record":{"v":"decomposed"}}"# + "\n").utf8)
            .write(to: URL(fileURLWithPath: input))
        let result = gqlcache("import", cache, input)
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertTrue(result.stdout.contains("2 added"), result.stdout)
        XCTAssertEqual(try sqliteShell(cache, "SELECT hex(key) || ' ' || record FROM records WHERE key LIKE 'Caf%' ORDER BY key"),
                       #"43616665CC813A31 {"v":"decomposed"}"# + "\n" + #"436166C3A93A31 {"v":"composed"}"#)
    }

    func testApolloClientFormKeepsKeysThatDifferOnlyInUnicodeNormalizationApartBothWays() throws {
        let cache = try makeCache("nfc.sqlite", [
            Record(key: "Caf\u{e9}:1", fields: ["v": .string("composed")]),
            Record(key: "Cafe\u{301}:1", fields: ["v": .string("decomposed")]),
            Record(key: "\u{212B}", fields: ["v": .string("angstrom sign")]),
            Record(key: "\u{C5}", fields: ["v": .string("A with ring")]),
        ])
        let extract = path("nfc.json")
        XCTAssertEqual(gqlcache("export", cache, "--format", "apollo-client", "-o", extract).status, .success)
        let copy = path("copy.sqlite")
        let imported = gqlcache("import", copy, extract, "--create")
        XCTAssertEqual(imported.status, .success, imported.stderr)
        XCTAssertTrue(imported.stdout.contains("imported 4 records (apollo-client)") && imported.stdout.contains("4 added"), imported.stdout)
        let diff = gqlcache("diff", cache, copy)
        XCTAssertEqual(diff.status, .success, diff.stdout)
        XCTAssertEqual(try sqliteShell(copy, "SELECT hex(key) || ' ' || record FROM records WHERE key LIKE 'Caf%' ORDER BY key"),
                       #"43616665CC813A31 {"v":"decomposed"}"# + "\n" + #"436166C3A93A31 {"v":"composed"}"#)
    }

    func testApolloClientFormMergesAnEntityIDGivenTwiceInTheTextsOrder() throws {
        let input = path("twice.json")
        try Data(#"{"A:1":{"x":1,"z":0},"A:1":{"y":2,"z":null}}"#.utf8).write(to: URL(fileURLWithPath: input))
        let cache = path("twice.sqlite")
        let result = gqlcache("import", cache, input, "--create")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(try sqliteShell(cache, "SELECT record FROM records WHERE key = 'A:1'"), #"{"x":1,"y":2,"z":null}"#)
    }

    /// Apollo Client keys a field's arguments as JSON, which Apollo iOS
    /// never reads: imported as they are, with a warning; an export of an
    /// Apollo iOS file has none.
    func testFieldsKeyedAsApolloClientKeysArgumentsAreImportedWithAWarning() throws {
        let input = path("client.json")
        try Data(#"{"ROOT_QUERY":{"__typename":"Query","hero({\"episode\":\"JEDI\"})":{"__ref":"Droid:1"},"feed:{\"type\":\"top\"}":[],"plain":1},"Droid:1":{"__typename":"Droid","name":"R2"}}"#.utf8)
            .write(to: URL(fileURLWithPath: input))
        let cache = path("client.sqlite")
        let result = gqlcache("import", cache, input, "--create")
        XCTAssertEqual(result.status, .success, result.stderr)
        XCTAssertEqual(result.stderr, #"gqlcache: warning: \#(input): the field feed:{"type":"top"} of 'QUERY_ROOT' is keyed as Apollo Client keys a "#
            + "field's arguments (and 1 more field); it is imported as it is, and Apollo iOS, which writes them as name(arg:value), never reads it\n")
        XCTAssertEqual(try records(cache)["QUERY_ROOT"]?[#"hero({"episode":"JEDI"})"#], .reference(CacheKey("Droid:1")))
        let exported = path("starwars.json")
        XCTAssertEqual(gqlcache("export", try copyOfFixture("starwars.sqlite"), "--format", "apollo-client", "-o", exported).status, .success)
        let clean = gqlcache("import", path("copy.sqlite"), exported, "--create")
        XCTAssertEqual(clean.stderr, "")
    }

    /// A line or an entity wraps its record in one more level of JSON: the
    /// nesting limit counts from the record, so any record the file holds
    /// comes back.
    /// Every upsert takes an _id (spec §6): a file whose AUTOINCREMENT
    /// counter is at its maximum cannot take one more, which SQLite calls
    /// "database or disk is full". The disk is not named for it.
    func testAnIdCounterAtItsMaximumIsNotCalledAFullDisk() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        try sqliteShell(cache, "UPDATE sqlite_sequence SET seq = 9223372036854775807")
        let before = try bytes(cache)
        let result = gqlcache("import", cache, "-", input: #"{"key":"Human:1002","record":{"name":"X"}}"# + "\n")
        XCTAssertEqual(result.status, .io)
        XCTAssertEqual(result.stderr, "gqlcache: \(cache): SQLite found the database full (database or disk is full), though its disk has room: "
            + "the _id counter (sqlite_sequence) may be at its maximum, the file at its max_page_count, or the space for temporary files full\n")
        XCTAssertEqual(try bytes(cache), before)
    }

    func testARecordNestedToTheLimitComesBackThroughBothForms() throws {
        let deep = #"{"a":"# + String(repeating: "[", count: 511) + "1" + String(repeating: "]", count: 511) + "}"
        let cache = try makeCache("deep.sqlite", [Record(key: "Plain:1", fields: ["a": .int(1)])], raw: [("Deep:1", deep)])
        XCTAssertEqual(gqlcache("show", cache, "Deep:1").status, .success)
        for form in ["jsonl", "apollo-client"] {
            let exported = path("deep.\(form)")
            XCTAssertEqual(gqlcache("export", cache, "--format", form, "-o", exported).status, .success)
            let copy = path("deep-\(form).sqlite")
            let imported = gqlcache("import", copy, exported, "--create")
            XCTAssertEqual(imported.status, .success, "\(form): \(imported.stderr)")
            XCTAssertEqual(gqlcache("diff", cache, copy).status, .success, form)
        }
    }
}
