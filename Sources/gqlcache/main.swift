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
// A write past the file-size limit (`ulimit -f`) fails with EFBIG, as
// a full disk fails, and the command says so, rolls back and removes its
// temporary files; SIGXFSZ would end the process mid-write without a word.
signal(SIGXFSZ, SIG_IGN)
let context = CommandContext.standard()
// As bytes: CommandLine.arguments would turn those that are not UTF-8 into U+FFFD.
let rawArguments = (1..<Int(CommandLine.argc)).map { index in
    CommandLine.unsafeArgv[index].map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0))) } ?? []
}
let status = GQLCacheMain.run(rawArguments: rawArguments, context: context)
// The context holds what the command kept until exit: exit with it alive.
withExtendedLifetime(context) { () -> Never in exit(status.rawValue) }
