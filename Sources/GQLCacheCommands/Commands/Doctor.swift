import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache doctor CACHE`: a read-only health check.
    struct Doctor: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Check a cache for damaged records, dangling references, unreachable records and other problems.",
            discussion: """
                Read-only. Reports records whose JSON is NULL, does not parse or is not an object; records \
                holding a number too large for a Double (1e400), which Apollo's JSON reading refuses with the \
                whole record; records whose __typename is null, a Boolean, a list or an object, which \
                every Apollo read reaching them fails at (Apollo reads it as String!); triggers on the records table, which Apollo's never has (commands that write \
                refuse the file); rows \
                without a key, or whose key is a BLOB or not UTF-8 (Apollo looks keys up by text and never finds them); \
                references to keys that have no record (which record, which field, which \
                key); records that no root (QUERY_ROOT, MUTATION_ROOT, SUBSCRIPTION_ROOT) reaches; keys \
                that differ only by case; keys no Apollo cache key is (empty, or holding a NUL); what SQLite's PRAGMA quick_check (or integrity_check with \
                --full, or when changes wait in the -wal file: one copied from another cache reads as damaged only to it) finds; and committed changes left in the -wal file without a checkpoint when no \
                process has the file open (while the app has it open, that is normal and only said), or a -wal file that cannot \
                be this file's, whose changes SQLite can never copy in (commands that write refuse it). Exit \
                status 0 when there is no problem, 7 when there are problems, also when the file is so damaged that SQLite \
                cannot read it (other statuses: doctor could not look, e.g. no such file, or the app holds the lock). 'gqlcache gc' repairs dangling references and unreachable records.
                """)

        @OptionGroup var file: CacheFileArgument

        @Flag(help: "Run SQLite's PRAGMA integrity_check, which also compares every index with its table, instead of quick_check (doctor runs it anyway when committed changes wait in the -wal file).")
        var full = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        func run(in context: CommandContext) throws {
            let store: CacheStore
            do {
                store = try reading.openForReading(file, context)
            } catch CacheStoreError.corrupt(_, let message, _) {
                // Not even the schema can be read (a copy cut at a page's
                // end): that is the report, with what the file itself says.
                let unreadable = UnreadableFile(path: file.path, message: message, fullIntegrityCheck: full)
                return try show(HealthRendering(
                    path: file.path, report: unreadable.report, pendingWAL: unreadable.pendingWAL, journalMode: unreadable.journalMode), in: context)
            }
            // Changes in a -wal file are read as part of the file, and one
            // copied there from another cache can leave every page sound but
            // the key index at odds with the table, which only integrity_check
            // finds: the file is checked in full before a checkpoint is advised
            // or called normal (a reader that closes first leaves the checkpoint
            // to the next connection), as every write checks it. The changes
            // are looked at once: what is checked is what the report names.
            let pending = store.pendingWAL()
            let fullCheck = full || pending != nil
            let report: HealthReport
            do {
                report = try context.withProgress("checking \(file.path)") { progress in
                    try store.healthReport(fullIntegrityCheck: fullCheck, progress: progress)
                }
            } catch let error as CacheStoreError {
                // Damage SQLite's own check could not get past: the advice doctor gives for any damaged file.
                guard case .corrupt = error else { throw error }
                throw CommandFailure(.io, "\(error); \(HealthRendering.damagedFileAdvice(file.path, wal: pending))")
            }
            // An immutable snapshot's WAL mode is read from the file's header (see journalMode()).
            let journalMode = try store.read { try $0.journalMode() }
            try show(HealthRendering(path: file.path, report: report, pendingWAL: pending, journalMode: journalMode), in: context)
        }

        private func show(_ rendering: HealthRendering, in context: CommandContext) throws {
            var rendering = rendering
            rendering.atThePrompt = context.isREPLCommand
            switch output.format {
            case .text: context.stdout.write(rendering.text())
            case .json: output.format.emit(rendering.json(), to: context)
            case .jsonl: context.stdout.write(rendering.jsonLines())
            }
            if !rendering.isHealthy { throw CommandFailure(.problemsFound, "") }
        }
    }
}
