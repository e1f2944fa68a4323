import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache clear CACHE`: Apollo's clearCache().
    struct Clear: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Remove every record (Apollo's clearCache()); --vacuum also shrinks the file.",
            discussion: "Asks for confirmation on a terminal and needs --force otherwise. --dry-run says how many records would go, changing nothing.")

        @OptionGroup var file: CacheFileArgument

        @Flag(name: .shortAndLong, help: "Clear without asking.")
        var force = false

        @Flag(help: "Rebuild the file afterwards so it gives the freed space back.")
        var vacuum = false

        @Flag(help: "Say how many records would be removed, without removing them.")
        var dryRun = false

        @OptionGroup var writing: WriteOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var display: DisplayOptions

        func run(in context: CommandContext) throws {
            if dryRun { return try planOnly(context) }
            let store = try writing.openForWriting(file, context)
            var asked: Int?
            if !force {
                guard context.canAskQuestions else {
                    throw CommandFailure(
                        .usage, "clear removes every record without asking only with --force (standard input is not a terminal); nothing removed")
                }
                let count = try store.read { tx in try tx.recordCount() }
                if count == 0 && vacuum {
                    // Nothing to remove: VACUUM alone, which loses nothing, is not asked about.
                    asked = 0
                } else if count == 0 {
                    if output.format == .text {
                        context.note("\(file.path) holds no records; nothing to clear")
                    } else {
                        let bytes = Int(store.fileSizes().recordBytes)
                        output.format.emit(.object([
                            ("dryRun", .bool(false)), ("removed", .int(0)), ("vacuumed", .bool(false)), ("bytesBefore", .int(bytes)),
                            ("bytesAfter", .int(bytes)),
                        ]), to: context)
                    }
                    return
                } else {
                    // At the REPL's prompt, where redis-cli's and a shell's clear clear the screen.
                    let screen = context.confirmsEveryRemoval ? " (this empties the cache; Ctrl-L clears the screen)" : ""
                    guard context.confirm("remove all \(plural(count, "record")) from \(file.path)?\(screen)") else {
                        throw CommandFailure(.notFound, "nothing removed")
                    }
                    asked = count
                }
            }
            let before = store.fileSizes()
            let removed = try store.write { tx in
                // As rm --match and gc: the answer was given for the records the question named.
                if let asked, case let now = try tx.recordCount(), now != asked {
                    throw CommandFailure(
                        .busy, "\(file.path) changed while you were asked (\(plural(now, "record")) now, \(asked) then): "
                            + "another process wrote the file; nothing removed; run clear again")
                }
                return try tx.clear()
            }
            // Stopped, or failed, during VACUUM after the removal committed: the report says what stands.
            var vacuumRun: VacuumAfterChange?
            if vacuum {
                vacuumRun = try VacuumAfterChange(store, changed: removed > 0)
            } else {
                // In WAL mode the removal sits in the -wal file until a
                // checkpoint: the size after is the size the file keeps.
                try? store.checkpoint()
            }
            let after = store.fileSizes()
            switch output.format {
            case .text:
                context.note("removed \(plural(removed, "record"))")
                if vacuumRun?.rebuilt == true { context.note(vacuumLine(before: before.recordBytes, after: after.recordBytes)) }
            case .json, .jsonl:
                // One line, the summary, with jsonl as with json.
                output.format.emit(.object([
                    ("dryRun", .bool(false)), ("removed", .int(removed)), ("vacuumed", .bool(vacuumRun?.rebuilt == true)),
                    ("bytesBefore", .int(Int(before.recordBytes))), ("bytesAfter", .int(Int(after.recordBytes))),
                ]), isSummary: true, to: context)
            }
            try vacuumRun?.finish(file.path, quiet: context.isQuiet && output.format == .text)
        }

        /// --dry-run: what clear would remove, read without a write lock,
        /// asking nothing and making no backup, as gc --dry-run.
        private func planOnly(_ context: CommandContext) throws {
            let store = try writing.openForDryRun(file, context)
            let (count, pages) = try store.read { tx in (try tx.recordCount(), try tx.pageStatistics()) }
            let bytes = Int(store.fileSizes().recordBytes)
            switch output.format {
            case .text:
                // The plan is the data a dry run asks for, kept by --quiet as gc keeps its.
                context.print(count == 0 ? "\(file.path) holds no records; nothing would be removed" : "would remove \(plural(count, "record")) from \(file.path)")
                if vacuum {
                    context.print(plannedVacuumLine(fileBytes: Int64(bytes), pages: pages, freedBy: "the records free"))
                }
            case .json, .jsonl:
                output.format.emit(.object([
                    ("dryRun", .bool(true)), ("removed", .int(count)), ("vacuumed", .bool(false)),
                    ("bytesBefore", .int(bytes)), ("bytesAfter", .null),
                ]), to: context)
            }
        }
    }
}
