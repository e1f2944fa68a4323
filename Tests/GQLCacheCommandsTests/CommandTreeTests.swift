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
}
