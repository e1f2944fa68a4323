import ArgumentParser

/// The root command: configuration only.
public struct GQLCache: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "gqlcache",
        abstract: "Inspect and repair normalized GraphQL cache files (Apollo iOS SQLite caches).",
        discussion: """
            Every command takes the cache file right after its name (gqlcache info cache.sqlite). Commands that only read open the file \
            read-only and never change it; commands that write hold the lock for one transaction. \
            'gqlcache CACHE' alone opens the REPL on the file. Every command that writes takes \
            --backup, which first copies the file beside itself.

            Every command takes --color auto|always|never (colour only on a terminal, and not with \
            NO_COLOR set) and --quiet (no summaries). info, keys, show, read, grep, diff, doctor, stats and refs page long text through \
            $PAGER on a terminal (--no-pager turns it off); rm --match, info, doctor, stats and gc show \
            progress on standard error when it is a terminal. 'gqlcache completions SHELL' prints the completion script.

            Exit status: 0 success; 1 not found, a cache miss (read), no match (grep), the files differ (diff), or declined; 2 usage error; \
            3 not an Apollo iOS cache file; 4 database busy (locked by another process, or changed while a removal was \
            being confirmed or while update --edit's editor was open); \
            5 I/O error (missing, unreadable, read-only or damaged file, or a folder); 6 damaged record (also gc --unreachable \
            and rm --cascade refusing to judge reachability while some are damaged), or a value read with \
            --schema that does not fit its type (one to write is a usage error); 7 doctor found problems; \
            130 Ctrl-C, or a write stopped by Ctrl-\\, SIGTERM or SIGHUP and rolled back (with --vacuum, the VACUUM alone, the change \
            before it written; one that came as the change was being committed leaves it made; the message says which; \
            at any other moment those end the process as usual); \
            141 in the shell when standard output is a pipe whose reader left (a write that had committed stands, and says so).
            """,
        version: GQLCacheVersion.current,
        subcommands: [
            Info.self, Keys.self, Show.self, Read.self, Write.self, Update.self, Remove.self, Clear.self,
            Grep.self, Diff.self, Export.self, Import.self, Doctor.self, GarbageCollect.self, Stats.self, Refs.self,
            Repl.self, Completions.self,
        ]
    )

    public init() {}

    /// The subcommand names, and `help`. Every subcommand names itself in
    /// its configuration: deriving a name from the type's name costs a
    /// demangling on each start.
    static let commandNames: [String] = configuration.subcommands.map { $0._commandName } + ["help"]

    /// Named by every subcommand as its super-command. A command line is
    /// parsed by its subcommand alone first (see
    /// ``GQLCacheMain/parseSubcommandAlone(_:)``); a command that has a
    /// super-command skips the parser's probe for
    /// `--generate-completion-script`, which builds the options of two
    /// more commands by reflection, as long as the subcommand's own. The
    /// name only shows in help printed for a subcommand parsed alone, which
    /// never happens: that parse is silent, and its failures go to the
    /// root's parse, which answers completion-script requests as before.
    static let superCommandName = "gqlcache"
}

public enum GQLCacheVersion {
    public static let current = "0.1.0"
}
