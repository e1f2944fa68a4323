import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache repl CACHE`: the commands at a prompt, on a file opened once.
    struct Repl: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "repl",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Explore a cache at a prompt: every command without the file, cd through references, GraphQL typed in.",
            discussion: """
                Every command works as on the command line, minus the cache file ('keys Droid:%', \
                'show', 'read --document q.graphql Hero', 'rm Human:1000'; a later 'read Villain' reads \
                the documents named earlier), and its output is not paged. The REPL adds cd KEY or \
                cd FIELD to follow references (cd hero.friends.0 along a path of them), ls (ls FIELD, ls .. and ls ../FIELD show where cd would go), back (or cd ..), cd ../FIELD (on from the record before), cd - (where the last move started), pwd, open FILE, edit (\\e) for the last \
                query, status, help and quit. GraphQL typed at the prompt (alone, or after read and its options: read --format json { … }), over as many lines as its braces \
                need, runs with read (and a later read, update or write that names no document uses it: read --var id=1, \
                update --fragment F --set name=X); a fragment \
                is read (or, with update or write, written) at the record you are at unless --key names another. Tab completes commands, flags, keys, fields, operation and variable names, and file names. History \
                is kept in ~/.gqlcache_history (GQLCACHE_HISTORY overrides it; empty keeps none). Ctrl-C \
                clears the line, gives up a question (status 130) or stops the running command; Ctrl-D or quit leaves. At the prompt, removals ask \
                first unless --force; in a script, rm KEY removes as on the command line, and what asks on a terminal \
                (rm by pattern, type or cascade, clear, gc) needs --force. No lock is held between commands, so the app may write meanwhile; \
                --busy-timeout holds for every command at the prompt that gives none of its own. \
                Without a terminal (a script on standard input, or -c), lines run without prompts and \
                the exit status is the last command's (a script's errors name its line); --bail stops at the first failure, and a failed \
                open stops the script in any case (its next commands were meant for that file).
                """)

        @OptionGroup var file: CacheFileArgument

        @Option(name: .short, help: ArgumentHelp(
            "Run these commands (separated by ';' or line breaks) instead of reading standard input; repeated, each -c in turn, as psql runs them (a GraphQL document ends within its -c).",
            valueName: "commands"))
        var commands: [String] = []

        @Flag(help: "Stop at the first command that fails, and exit with its status.")
        var bail = false

        @OptionGroup var reading: ReadOptions

        @OptionGroup var display: DisplayOptions

        func run(in context: CommandContext) throws {
            // A session runs many commands: each store it is done with is
            // freed then, not kept until the exit.
            CacheStore.leavesTeardownToExit = false
            let interactive = commands.isEmpty && context.stdinIsTerminal
            let session = REPLSession(cachePath: file.path, context: context, interactive: interactive, busyTimeout: reading.busyTimeout)
            try session.start()
            let reader: LineReader
            if !commands.isEmpty {
                reader = SourceLineReader(pieces: commands.map(ShellWords.commands))
            } else if interactive {
                // Output to a file or a pipe gets the data alone: the
                // prompt, the typing and the greeting go to the terminal
                // through standard error, as bash's prompt does.
                let promptToStandardError = !context.stdoutIsTerminal && context.stderrIsTerminal
                session.promptToStandardError = promptToStandardError
                let readline = ReadlineLineReader(
                    historyPath: ReadlineLineReader.historyPath(environment: context.environment), promptToStandardError: promptToStandardError)
                readline.setCompleter(REPLCompleter(session: session))
                reader = readline
                // SIGTERM, SIGHUP and Ctrl-\ roll a write back before the
                // session ends, and leave the terminal as it was.
                if context.catchesStopSignals { StopSignals.shared.catchForInteractiveSession { readline.restoreTerminal() } }
                session.answers = TerminalAnswers()
                let greeting = "gqlcache \(GQLCacheVersion.current) on \(file.path.shownOnLine); 'help' lists the commands, Tab completes, Ctrl-D leaves."
                if !promptToStandardError { context.note(greeting) } else if !context.isQuiet { context.stderr.write(greeting + "\n") }
                if let problem = readline.historyProblem { context.warn(problem) }
            } else {
                reader = SourceLineReader(source: context.stdin)
                session.scriptIsStandardInput = true
            }
            let status = session.run(reader: reader, bail: bail)
            reader.setCompleter(nil)
            // As the sqlite3 shell does on exit: a WAL file's changes go into the file.
            session.stores.closeAll()
            // The last command's status, not that of a failed cd or open before it.
            context.settleStatus(status)
        }
    }
}
