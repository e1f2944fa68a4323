import ArgumentParser
import GQLCacheCommands
import XCTest

final class CommandTreeTests: XCTestCase {
    /// A name derived from the type's name costs a demangling of the type
    /// at every start of the tool; each subcommand spells its name instead.
    func testEverySubcommandNamesItselfInItsConfiguration() {
        for subcommand in GQLCache.configuration.subcommands {
            XCTAssertNotNil(subcommand.configuration.commandName, "\(subcommand) has no commandName in its configuration")
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
}
