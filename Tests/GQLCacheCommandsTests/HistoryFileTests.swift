import Foundation
import XCTest

@testable import GQLCacheCommands

/// The REPL's history file, without a terminal: what one session writes,
/// the next reads back entry for entry.
final class HistoryFileTests: CommandTestCase {
    func testAStatementOverSeveralLinesComesBackAsOneEntryExactlyAsTyped() throws {
        let file = HistoryFile(path: path("history"), limit: 1000)
        XCTAssertNil(file.prepare())
        // A comment that would pass for a readline timestamp, a brace in it, a block string over two lines.
        let statement = "query {\n#1 first } of all\n  a(t: \"\"\"two\nlines\"\"\") { name }\n}"
        file.append("keys --count")
        file.append(statement)
        file.append("pwd")
        XCTAssertEqual(HistoryFile(path: path("history"), limit: 1000).entries(), ["keys --count", statement, "pwd"])
        XCTAssertEqual(try String(contentsOfFile: path("history"), encoding: .utf8).split(separator: "\n").count, 3, "one line an entry")
    }

    /// U+0001 stands for a newline in the file: a line typed with one
    /// (Ctrl-V Ctrl-A) would come back as two, the second run as a
    /// command, so it is not kept.
    func testAnEntryHoldingTheFilesNewlineMarkIsNotKept() throws {
        let file = HistoryFile(path: path("history"), limit: 1000)
        file.append("keys a\u{1}b")
        file.append("pwd")
        XCTAssertEqual(file.entries(), ["pwd"])
    }

    func testAFileOfPlainLinesReadsAsOneEntryALine() throws {
        try "keys --count\nshow 'a b'\n\n{ hero { name } }\n".write(toFile: path("history"), atomically: true, encoding: .utf8)
        XCTAssertEqual(HistoryFile(path: path("history"), limit: 1000).entries(), ["keys --count", "show 'a b'", "{ hero { name } }"])
    }

    /// A file whose last line has no newline (cut short, or edited by
    /// hand) keeps that entry apart from the next one added.
    func testAnEntryAddedAfterAnUnfinishedLastLineStaysAnEntryOfItsOwn() throws {
        try "info\nkeys Hu".write(toFile: path("history"), atomically: true, encoding: .utf8)
        let file = HistoryFile(path: path("history"), limit: 10)
        file.append("keys --count")
        file.append("quit")
        XCTAssertEqual(file.entries(), ["info", "keys Hu", "keys --count", "quit"])
    }

    func testOnlyTheLastEntriesAreKeptAndOnlyTheOwnerMayReadThem() throws {
        let file = HistoryFile(path: path("history"), limit: 3)
        XCTAssertNil(file.prepare())
        for number in 1...5 { file.append("query {\n  n\(number)\n}") }
        XCTAssertEqual(file.entries(), (3...5).map { "query {\n  n\($0)\n}" })
        let attributes = try FileManager.default.attributesOfItem(atPath: path("history"))
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["history"], "no temporary file left")
    }

    /// Keeping the last entries rewrites the file a link names, not the
    /// link, and keeps the mode its owner gave it, as appending does.
    func testKeepingTheLastEntriesFollowsALinkAndKeepsTheFilesMode() throws {
        try FileManager.default.createDirectory(atPath: path("dotfiles"), withIntermediateDirectories: true)
        try (1...5).map { "show N:\($0)\n" }.joined().write(toFile: path("dotfiles/history"), atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path("dotfiles/history"), 0o644), 0)
        try FileManager.default.createSymbolicLink(atPath: path("history"), withDestinationPath: path("dotfiles/history"))
        let file = HistoryFile(path: path("history"), limit: 3)
        file.append("pwd")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: path("history")), path("dotfiles/history"))
        XCTAssertEqual(HistoryFile(path: path("dotfiles/history"), limit: 3).entries(), ["show N:4", "show N:5", "pwd"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path("dotfiles/history"))
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o644)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("dotfiles")), ["history"], "no temporary file left")
    }

    /// A history file that cannot be written is said once, at the start,
    /// rather than losing the session's commands without a word.
    func testAHistoryFileThatCannotBeWrittenIsSaid() throws {
        let file = HistoryFile(path: path("missing/history"), limit: 10)
        XCTAssertEqual(file.prepare(), "No such file or directory")
        let reader = ReadlineLineReader(historyPath: path("missing/history"))
        XCTAssertEqual(reader.historyProblem, "cannot write the history file \(path("missing/history")) (No such file or directory); this session's commands are not kept")
        XCTAssertNil(ReadlineLineReader(historyPath: path("history")).historyProblem)
    }

    /// GQLCACHE_HISTORY naming a file that holds no history (the cache
    /// itself, any binary file, a FIFO, a folder) leaves it as it is, byte
    /// for byte and mode for mode, and the session says it keeps none:
    /// appending and keeping the last 1000 "lines" destroyed a cache, and a
    /// FIFO held the session before its first prompt. /dev/null keeps none
    /// without a word, as for bash's HISTFILE.
    func testAFileThatHoldsNoHistoryIsLeftAloneAndSaid() throws {
        let cache = try copyOfFixture("starwars.sqlite")
        let binary = path("image.bin")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00]).write(to: URL(fileURLWithPath: binary))
        let fifo = path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        for (file, why) in [
            (cache, "it is an SQLite database, not a history file"), (binary, "it holds binary data, not a history file"),
            (fifo, "it is not a regular file"), (folder.path, "it is a folder"),
        ] {
            let before = FileManager.default.contents(atPath: file)
            let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
            let reader = ReadlineLineReader(historyPath: file)
            XCTAssertEqual(reader.historyProblem, "the history file \(file) is left alone: \(why); this session's commands are not kept")
            reader.addToHistory("keys Human")
            XCTAssertEqual(FileManager.default.contents(atPath: file), before, file)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber, mode, file)
        }
        XCTAssertNil(ReadlineLineReader(historyPath: "/dev/null").historyProblem)
    }

    /// GQLCACHE_HISTORY names the file (empty keeps none); else it is in
    /// HOME, or, with HOME unset or empty, in the account's home, as bash
    /// and sqlite3 find it.
    func testHistoryIsKeptInTheAccountsHomeWhenHOMEIsUnset() {
        let account = { "/home/account" as String? }
        XCTAssertEqual(ReadlineLineReader.historyPath(environment: ["HOME": "/h"], accountHome: account), "/h/.gqlcache_history")
        XCTAssertEqual(ReadlineLineReader.historyPath(environment: [:], accountHome: account), "/home/account/.gqlcache_history")
        XCTAssertEqual(ReadlineLineReader.historyPath(environment: ["HOME": ""], accountHome: account), "/home/account/.gqlcache_history")
        XCTAssertEqual(ReadlineLineReader.historyPath(environment: ["GQLCACHE_HISTORY": "/x/h"], accountHome: account), "/x/h")
        XCTAssertNil(ReadlineLineReader.historyPath(environment: ["GQLCACHE_HISTORY": "", "HOME": "/h"], accountHome: account))
        XCTAssertNil(ReadlineLineReader.historyPath(environment: [:], accountHome: { nil }))
    }

    /// The account's home is the one the password database gives, as
    /// getent prints it.
    func testTheAccountsHomeIsThePasswordDatabases() throws {
        let entry = try runProgram("/usr/bin/getent", ["passwd", String(getuid())])
        let fields = entry.stdout.trimmingCharacters(in: .newlines).split(separator: ":", omittingEmptySubsequences: false)
        guard entry.status == 0, fields.count == 7 else { throw XCTSkip("getent knows no entry for this user") }
        XCTAssertEqual(ReadlineLineReader.accountHome(), String(fields[5]))
    }
}
