import CacheStore
import Foundation
import GQLCacheCommands

// The process ends with its command: what the command no longer uses is
// left for the exit to free, which costs nothing.
CacheStore.leavesTeardownToExit = true
// Ctrl-\ (SIGQUIT) quits, as it quits any program: the Swift runtime's
// crash reporter, which takes it too, would print a backtrace and hold
// the terminal for half a minute. (A write under way still rolls back
// first, as for Ctrl-C; see StopSignals.)
signal(SIGQUIT, SIG_DFL)
let context = CommandContext.standard()
let status = GQLCacheMain.run(arguments: Array(CommandLine.arguments.dropFirst()), context: context)
// The context holds what the command kept until exit: exit with it alive.
withExtendedLifetime(context) { () -> Never in exit(status.rawValue) }
