import Foundation
import GQLCacheCommands

let status = GQLCacheMain.run(arguments: Array(CommandLine.arguments.dropFirst()), context: .standard())
exit(status.rawValue)
