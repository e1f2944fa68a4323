import Foundation
import GQLCacheCommands

let context = CommandContext.standard()
let status = GQLCacheMain.run(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
// The context holds what the command kept until exit: exit with it alive.
withExtendedLifetime(context) { () -> Never in exit(status.rawValue) }
