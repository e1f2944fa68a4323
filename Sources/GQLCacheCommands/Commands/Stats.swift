import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache stats CACHE [--top N]`: where the records and bytes go.
    struct Stats: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Count records and bytes per __typename, root field and key prefix; list the largest records.",
            discussion: """
                One pass over the table. Bytes are those of each record's JSON text. A record reachable \
                from a root counts under the root field that reaches it in the fewest steps; fields \
                that differ only by arguments (user(id:1), user(id:2)) count together. Key prefixes \
                are Typename:* for keys like User:1, Typename:*.* for path keys below them \
                (User:1.avatar(size:64)) and QUERY_ROOT.* for path keys below a root. VACUUM reclaims \
                at least the free pages.
                """)

        @OptionGroup var file: CacheFileArgument

        @Option(parsing: .unconditional, help: ArgumentHelp("How many rows of each list to show (0: the summary alone).", valueName: "n"))
        var top: Int = 10

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        func validate() throws {
            guard top >= 0 else { throw ValidationError("--top must be zero or more") }
        }

        func run(in context: CommandContext) throws {
            let store = try reading.openForReading(file, context)
            let statistics = try context.withProgress("reading \(file.path)") { progress in
                try store.read(progress: progress) { tx in try tx.statistics(largest: top) }
            }
            let rendering = StatisticsRendering(path: file.path, statistics: statistics, sizes: store.fileSizes(), top: top)
            switch output.format {
            case .text: context.stdout.write(rendering.text())
            case .json, .jsonl: output.format.emit(rendering.json(), to: context)
            }
            if let orderBreak = statistics.rowOrderBreak { throw CommandFailure.damagedFile(store.path, orderBreak) }
        }
    }
}
