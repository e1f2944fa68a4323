import ArgumentParser
import XCTest

@testable import GQLCacheCommands

final class CommandTreeTests: XCTestCase {
    /// A name derived from the type's name costs a demangling of the type
    /// at every start of the tool; each subcommand spells its name instead.
    func testEverySubcommandNamesItselfInItsConfiguration() {
        for subcommand in GQLCache.configuration.subcommands {
            XCTAssertNotNil(subcommand.configuration.commandName, "\(subcommand) has no commandName in its configuration")
        }
    }

    /// A command with a super-command skips the parser's probe for
    /// `--generate-completion-script`, two more parses by reflection at
    /// every start.
    func testEverySubcommandNamesGQLCacheAsItsSuperCommand() {
        for subcommand in GQLCache.configuration.subcommands {
            XCTAssertEqual(subcommand.configuration._superCommandName, "gqlcache", "\(subcommand)")
        }
    }

    /// The process exits after its one command, so its context may leave a
    /// read's result unfreed; the REPL's and the tests' contexts, which live
    /// on, never do.
    func testOnlyTheProcessOwnContextKeepsResultsUntilExit() {
        XCTAssertTrue(CommandContext.standard().keepsResultsUntilExit)
        let other = CommandContext(
            stdout: StringSink(), stderr: StringSink(), stdin: ScriptedLines([]),
            stdinIsTerminal: false, stdoutIsTerminal: false, environment: [:])
        XCTAssertFalse(other.keepsResultsUntilExit)
    }

    /// A command line is parsed by its subcommand alone, which skips the
    /// root's walk over every subcommand's arguments: what it parses must
    /// be what the whole tree parses.
    func testACommandParsedAloneIsTheCommandTheWholeTreeParses() throws {
        let lines: [[String]] = [
            ["keys", "c.sqlite", "--mode", "prefix", "User:", "--count"],
            ["keys", "c.sqlite", "--type", "Post", "--limit", "3", "--format", "jsonl", "--no-pager", "-q"],
            ["show", "c.sqlite", "QUERY_ROOT", "--depth", "2", "--color", "never"],
            ["info", "c.sqlite", "--format", "json"],
            ["rm", "c.sqlite", "--match", "Post:", "--force", "--backup"],
            ["doctor", "c.sqlite", "--full"],
            ["stats", "c.sqlite", "--top", "5"],
            ["gc", "c.sqlite", "--all", "--dry-run"],
            ["grep", "c.sqlite", "Luke", "--field", "name"],
            ["diff", "a.sqlite", "b.sqlite"],
            ["completions", "zsh"],
        ]
        for line in lines {
            let alone = try XCTUnwrap(GQLCacheMain.parseSubcommandAlone(line), "\(line)")
            let whole = try GQLCache.parseAsRoot(line)
            XCTAssertEqual(String(reflecting: alone), String(reflecting: whole), "\(line)")
            XCTAssertTrue(type(of: alone) == type(of: whole), "\(line)")
        }
    }

    /// Help, the version, completion requests and mistakes are left to the
    /// whole tree, whose messages name the full command path.
    func testWhatASubcommandAloneRefusesIsLeftToTheWholeTree() {
        for line in [
            ["keys", "--help"], ["keys", "c.sqlite", "-h"], ["keys", "c.sqlite", "--version"], ["keys"],
            ["keys", "c.sqlite", "--limit", "-1"], ["keys", "c.sqlite", "--bogus"], ["help", "keys"], ["--version"], [],
            ["nosuch", "c.sqlite"], ["keys", "c.sqlite", "--generate-completion-script", "bash"],
        ] {
            XCTAssertNil(GQLCacheMain.parseSubcommandAlone(line), "\(line)")
        }
        let result = gqlcache("keys", "c.sqlite", "--bogus")
        XCTAssertEqual(result.status, .usage)
        XCTAssertTrue(result.stderr.contains("gqlcache keys --help"), result.stderr)
        let script = gqlcache("keys", "c.sqlite", "--generate-completion-script", "bash")
        XCTAssertEqual(script.status, .success, script.stderr)
        XCTAssertTrue(script.stdout.contains("complete -"), String(script.stdout.prefix(200)))
    }
}
