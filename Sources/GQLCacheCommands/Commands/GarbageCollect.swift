import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache gc CACHE --unreachable --dangling [--vacuum]`.
    struct GarbageCollect: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "gc",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Remove unreachable records, dangling references and stray rows, then optionally VACUUM.",
            discussion: """
                --unreachable removes the records that no root (QUERY_ROOT, MUTATION_ROOT, \
                SUBSCRIPTION_ROOT) reaches through references. --dangling drops each reference to a \
                key that has no record: the field when the field is the reference, the list element \
                when it sits in a list, and says which; a record that leaves with no field goes too, \
                as Apollo writes none, and the references to it are dropped in turn. --stray-rows deletes the rows Apollo never \
                finds, those without a key or with a key that is a BLOB or not UTF-8, named by _id. \
                --all does all three. Damaged records are never removed (doctor lists them; rm \
                removes them). Everything happens in one write \
                transaction after one pass over the table: an interrupted gc changes nothing. \
                --vacuum then rebuilds the file to give free pages back. --dry-run lists exactly what \
                would change. gc asks first on a terminal and needs --force otherwise (--vacuum alone changes no \
                record and needs neither). It refuses \
                --unreachable while damaged records exist (their references cannot be read), when \
                there is no root record, or when there is no QUERY_ROOT while records are unreachable (what queries wrote, which the \
                app's next query reaches again, would go). A damaged file gets no repair (exit status 5): one whose rows \
                come out of _id order, whose key index holds a root or a referenced key that no row \
                read has, or, before rows without a key are deleted, one that SQLite's \
                quick_check finds damaged.
                """)

        @OptionGroup var file: CacheFileArgument

        @Flag(help: "Remove records that no root reaches.")
        var unreachable = false

        @Flag(help: "Drop references to keys that have no record (the field, or the list element).")
        var dangling = false

        @Flag(help: "Delete the rows Apollo never finds: without a key, or with a key that is a BLOB or not UTF-8 (doctor lists them by _id).")
        var strayRows = false

        @Flag(help: "--unreachable, --dangling and --stray-rows.")
        var all = false

        @Flag(help: "Afterwards, rebuild the file with VACUUM to give free pages back to the file system.")
        var vacuum = false

        @Flag(help: "List what would change, without changing anything.")
        var dryRun = false

        @Flag(name: .shortAndLong, help: "Collect without asking (gc asks on a terminal, and needs --force otherwise, as rm --match does).")
        var force = false

        @OptionGroup var writing: WriteOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var display: DisplayOptions

        var kinds: GarbageCollection.Kinds {
            var kinds: GarbageCollection.Kinds = all ? .all : []
            if unreachable { kinds.insert(.unreachable) }
            if dangling { kinds.insert(.dangling) }
            if strayRows { kinds.insert(.strayRows) }
            return kinds
        }

        func validate() throws {
            if kinds.isEmpty && !vacuum {
                throw ValidationError("say what to collect: --unreachable, --dangling, --stray-rows, --all, and/or --vacuum")
            }
        }

        func run(in context: CommandContext) throws {
            do {
                try collect(in: context)
            } catch let error as CacheStoreError where kinds.contains(.unreachable) && kinds != .unreachable {
                // --all refuses whole when "unreachable" cannot be told;
                // the other repairs do not depend on it.
                switch error {
                case .noRootRecord, .noQueryRoot, .reachabilityUnknown:
                    let others = [dangling || all ? "--dangling" : nil, strayRows || all ? "--stray-rows" : nil].compactMap { $0 }
                    throw CommandFailure(
                        ExitStatus(for: error),
                        "\(error.description); without --unreachable, 'gqlcache gc \(others.joined(separator: " "))' still runs")
                default: throw error
                }
            }
        }

        private func collect(in context: CommandContext) throws {
            let kinds = self.kinds
            let store = dryRun ? try writing.openForDryRun(file, context) : try writing.openForWriting(file, context)
            let collected: GarbageCollection?
            if kinds.isEmpty {
                collected = nil
            } else if dryRun {
                collected = try context.withProgress("checking \(file.path)") { progress in
                    try store.read(progress: progress) { tx in try tx.plannedGarbageCollection(kinds) }
                }
            } else {
                let confirmed = try confirm(kinds, store: store, context: context)
                collected = try context.withProgress("collecting garbage in \(file.path)") { progress in
                    try store.write(progress: progress) { tx in
                        let done = try tx.collectGarbage(kinds)
                        // The app may write while the question waits: what a person agreed to, or nothing.
                        if let confirmed, !done.makesTheSameChanges(as: confirmed) {
                            throw CommandFailure(
                                .busy, "the garbage in \(file.path) changed while you were asked: another process wrote the file; "
                                    + "nothing changed; run gc again")
                        }
                        return done
                    }
                }
            }
            var vacuumed: (before: Int64, after: Int64?)?
            // Stopped, or failed, during VACUUM after the collection committed: the report says what stands.
            var vacuumRun: VacuumAfterChange?
            if vacuum {
                let before = store.fileSizes().recordBytes
                if dryRun {
                    vacuumed = (before, nil)
                } else {
                    let run = try VacuumAfterChange(store, changed: collected?.isEmpty == false)
                    if run.rebuilt { vacuumed = (before, store.fileSizes().recordBytes) }
                    vacuumRun = run
                }
            }
            var free: PageStatistics?
            if vacuum && dryRun { free = try store.read { tx in try tx.pageStatistics() } }
            var report = GarbageReport(collected: collected, dryRun: dryRun, vacuum: vacuumed, freePages: free)
            if collected == nil { report.recordCount = try store.read { tx in try tx.countKeys() } }
            switch output.format {
            case .text:
                // --quiet keeps a dry run's plan, the data asked for (none when there is nothing
                // to collect), and drops a done gc's report, as rm does.
                if !(context.isQuiet && !dryRun) { context.stdout.write(report.text(quiet: context.isQuiet)) }
            case .json: output.format.emit(report.json(), to: context)
            case .jsonl: context.stdout.write(report.jsonLines(backup: context.backupCopy))
            }
            try vacuumRun?.finish(file.path, quiet: context.isQuiet && output.format == .text)
        }

        /// Asks before changing anything, as rm --match does: on a terminal;
        /// elsewhere only --force lets gc go on. The plan is worked out in a
        /// read transaction, so the write lock is never held while a person
        /// thinks. Returns the plan agreed to (nil with --force).
        private func confirm(_ kinds: GarbageCollection.Kinds, store: CacheStore, context: CommandContext) throws -> GarbageCollection? {
            guard !force else { return nil }
            guard context.canAskQuestions else {
                throw CommandFailure(
                    .usage, "gc changes records without asking only with --force (standard input is not a terminal); nothing changed")
            }
            let plan = try store.read { tx in try tx.plannedGarbageCollection(kinds) }
            guard !plan.isEmpty else { return plan }
            // The VACUUM after it is named too: it rewrites the whole file.
            guard context.confirm("\(Self.question(plan)) in \(file.path)\(vacuum ? ", then VACUUM it" : "")?") else {
                throw CommandFailure(.notFound, "nothing changed")
            }
            return plan
        }

        /// What gc asks to do, naming only the changes it would make, with
        /// the first few of each, as rm names the keys it asks about:
        /// "remove 2 records (Tool:1, Tool:2) and drop 1 reference
        /// (Droid:2001 friends[1] → Human:1002)".
        static func question(_ plan: GarbageCollection) -> String {
            let dropped = plan.droppedReferences.flatMap { holder in
                holder.dropped.map { "\(holder.key.inMessageList) \($0.shownLocation) → \($0.target.inMessageList)" }
            }
            func some(_ items: [String]) -> String { " (" + items.prefix(3).joined(separator: ", ") + (items.count > 3 ? ", …" : "") + ")" }
            var changes: [String] = []
            if !plan.removedKeys.isEmpty {
                changes.append("remove \(plural(plan.removedKeys.count, "record"))" + some(plan.removedKeys.map(\.inMessageList)))
            }
            if plan.removedStrayRowCount > 0 { changes.append("delete \(plural(plan.removedStrayRowCount, "stray row"))") }
            if !dropped.isEmpty { changes.append("drop \(plural(dropped.count, "reference"))" + some(dropped)) }
            if !plan.emptiedKeys.isEmpty {
                changes.append("remove \(plural(plan.emptiedKeys.count, "record")) left with no field" + some(plan.emptiedKeys.map(\.inMessageList)))
            }
            guard let last = changes.popLast() else { return "change nothing" }
            return changes.isEmpty ? last : changes.joined(separator: ", ") + " and " + last
        }
    }
}
