import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache rm CACHE KEY…` and `gqlcache rm CACHE --match PATTERN`.
    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Remove records by key (removeObject(for:)), by pattern (removeObjects(matching:)) or by type.",
            discussion: """
                Removal never cascades, exactly as in Apollo: references to a removed record stay in \
                other records and dangle, and rm says how many it left. KEY removes exactly that key \
                (case-sensitive); a KEY without a record is named on standard error and makes the exit \
                status 1, while the others are still removed, as rm(1) does. --match removes every key the pattern matches, by mode: \
                \(KeyPattern.Mode.helpText). The default, apollo, is Apollo's own SQL, so 'Human:100_' \
                also removes Human:1000 and Human:1002. --type removes every record whose __typename is \
                that type (repeat it for several). --cascade KEY… also removes every record reachable only through the given \
                keys: never one that a root or any record left in place still reaches. \
                --clean-references drops the references to the removed records (the field, or the list \
                element) instead of leaving them dangling, as gc --dangling does: a record that leaves with no \
                field is removed too. Removal by pattern, type or cascade asks for \
                confirmation on a terminal and needs --force otherwise. --type, --cascade and \
                --clean-references decide from a pass over the whole table and, as gc, refuse a file \
                whose rows come out of _id order, which only damaged pages give (exit status 5).
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: ArgumentHelp("Exact keys of the records to remove.", valueName: "key"), completion: .custom(ShellCompletion.keys))
        var keys: [String] = []

        @Option(help: ArgumentHelp("Remove every record whose key matches this pattern.", valueName: "pattern"))
        var match: String?

        @Option(help: "How --match matches: apollo (default), literal, prefix, glob or regex.")
        var mode: KeyPattern.Mode?

        @Option(
            name: .customLong("type"), help: ArgumentHelp("Remove every record whose __typename is this type; repeat for several.", valueName: "typename"),
            completion: .custom(ShellCompletion.typenames))
        var typenames: [String] = []

        @Flag(help: "Also remove every record reachable only through the given keys (never one a root or another record still reaches).")
        var cascade = false

        @Flag(help: "Drop the references to the removed records (the field, or the list element) instead of leaving them dangling.")
        var cleanReferences = false

        @Flag(help: "List what would be removed, and the references that would dangle, without removing.")
        var dryRun = false

        @Flag(name: .shortAndLong, help: "Remove without asking (removal by pattern, type or cascade asks on a terminal, and so does every removal at the REPL's prompt).")
        var force = false

        @OptionGroup var writing: WriteOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var display: DisplayOptions

        func validate() throws {
            if !typenames.isEmpty && (match != nil || !keys.isEmpty || cascade) {
                throw ValidationError("--type removes by type alone: give no keys, --match or --cascade with it")
            }
            if typenames.contains("") {
                throw ValidationError("--type needs a type name")
            }
            if cascade && keys.isEmpty {
                throw ValidationError("--cascade goes with the keys to start from")
            }
            if match == nil && keys.isEmpty && typenames.isEmpty {
                throw ValidationError("name the keys to remove, a pattern with --match, or a type with --type")
            }
            if match != nil && !keys.isEmpty {
                throw ValidationError("give either keys or --match, not both")
            }
            if mode != nil && match == nil {
                throw ValidationError("--mode goes with --match")
            }
        }

        func run(in context: CommandContext) throws {
            if !typenames.isEmpty || cascade || cleanReferences {
                try removeThroughGraph(context: context)
            } else if let match {
                try removeMatching(try KeyPattern(match, mode: mode ?? .apollo), context: context)
            } else {
                try removeKeys(keys.map { CacheKey($0) }, context: context)
            }
        }

        private func removeKeys(_ requested: [CacheKey], context: CommandContext) throws {
            var seen: Set<CacheKey> = []
            let requested = requested.filter { seen.insert($0).inserted }
            let store = dryRun ? try writing.openForDryRun(file, context) : try writing.openForWriting(file, context)
            // At the REPL's prompt even exact keys are confirmed: those that
            // have a record (the others are named below, not asked about).
            if context.confirmsEveryRemoval && !force && !dryRun {
                let existing = try store.read { tx in try tx.existingKeys(among: requested) }
                let asked = requested.filter { existing.contains($0) }
                if !asked.isEmpty {
                    let shown = asked.listedInMessage(first: 5)
                    guard context.confirm("remove \(plural(asked.count, "record")) from \(file.path) (\(shown))?") else {
                        throw CommandFailure(.notFound, "nothing removed")
                    }
                }
            }
            var outcome: RemovalOutcome
            func outcomeOfRemoving(_ removed: [CacheKey], in tx: ReadTransaction) throws -> RemovalOutcome {
                try RemovalOutcome.after(
                    removing: Set(removed), count: removed.count, keys: removed, dryRun: dryRun,
                    filter: .containing(keys: removed), keepAll: true, in: tx)
            }
            if dryRun {
                outcome = try store.read { tx in
                    let existing = try tx.existingKeys(among: requested)
                    return try outcomeOfRemoving(requested.filter { existing.contains($0) }, in: tx)
                }
            } else {
                outcome = try store.write { tx in try outcomeOfRemoving(try requested.filter { try tx.removeObject(for: $0) }, in: tx) }
            }
            let gone = Set(outcome.keys ?? [])
            let missing = requested.filter { !gone.contains($0) }
            outcome.missing = missing
            // No key found: the errors below say it; scripts still get their document.
            if outcome.count > 0 || output.format != .text { outcome.render(format: output.format, context: context, placingIn: store) }
            guard !missing.isEmpty else { return }
            let suggestions = try store.read { tx in try tx.suggestions(forEach: missing) }
            for (key, nearest) in zip(missing, suggestions) {
                context.report(.notFound, KeySuggestions.notFoundMessage(key, in: file.path, nearest: nearest))
            }
        }

        /// An empty pattern removes nothing: Apollo's removeObjects(matching:)
        /// ignores it, and in another mode it would match every key.
        static func refuseEmpty(_ pattern: KeyPattern) throws {
            if pattern.matchesNothing {
                throw CommandFailure(
                    .notFound, "an empty apollo pattern matches nothing (Apollo ignores it; before 1.21 it removed every record); to remove every record use 'gqlcache clear'")
            }
            if pattern.matchesEverything {
                throw CommandFailure(
                    .usage, "an empty \(pattern.mode.rawValue) pattern matches every key; to remove every record use 'gqlcache clear'")
            }
        }

        private func removeMatching(_ pattern: KeyPattern, context: CommandContext) throws {
            try Self.refuseEmpty(pattern)
            // Text shows a sample of the dangling references; scripts get them all.
            let keepAll = output.format != .text
            // One full scan, for the progress shown on a terminal: the keys
            // and the references they leave dangling are found in one pass.
            if dryRun {
                let store = try writing.openForDryRun(file, context)
                let outcome = try context.withProgress("finding keys matching \(pattern)", scans: 1) { progress in try store.read(progress: progress) { tx in
                    var report = DanglingReport(keepAll: keepAll)
                    let removal = try tx.previewRemovingObjects(matching: pattern, listingKeys: true) { report.add($0) }
                    return RemovalOutcome(count: removal.count, keys: removal.keys, dryRun: true, dangling: report)
                } }
                // No match: the error says it; scripts still get their document.
                if outcome.count > 0 || output.format != .text { outcome.render(format: output.format, context: context, placingIn: store) }
                if outcome.count == 0 { throw CommandFailure(.notFound, pattern.noMatchMessage(in: file.path)) }
                return
            }
            let store = try writing.openForWriting(file, context)
            // The keys a person agreed to remove: the app may change them while the question waits.
            var confirmed: KeyDigest?
            if !force {
                guard context.canAskQuestions else {
                    throw CommandFailure(
                        .usage, "rm --match removes records without asking only with --force (standard input is not a terminal); nothing removed")
                }
                // Count in a read transaction: the write lock is never held while a person thinks.
                // A prefix range is counted in the key index; other modes scan every key.
                let keyScans = pattern.mode == .prefix ? 0 : 1
                let (digest, sample) = try context.withProgress("counting keys matching \(pattern)", scans: keyScans) { progress in try store.read(progress: progress) { tx in
                    var sample: [CacheKey] = []
                    try tx.forEachKey(matching: pattern, limit: 5) { sample.append($0) }
                    return (try tx.keyDigest(matching: pattern), sample)
                } }
                let count = digest.count
                guard count > 0 else { throw CommandFailure(.notFound, pattern.noMatchMessage(in: file.path)) }
                let examples = sample.map(\.inMessageList).joined(separator: ", ") + (count > sample.count ? ", …" : "")
                guard context.confirm("remove \(plural(count, "record")) matching \(pattern) from \(file.path) (\(examples))?") else {
                    throw CommandFailure(.notFound, "nothing removed")
                }
                confirmed = digest
            }
            // The transaction commits while the dangling references are still being worked out.
            let pending = try context.withProgress("removing keys matching \(pattern)", scans: 1) { progress in try store.write(progress: progress) { tx in
                if let confirmed {
                    let now = try tx.keyDigest(matching: pattern)
                    guard now == confirmed else {
                        throw CommandFailure(
                            .busy, "the keys matching \(pattern) changed while you were asked (\(plural(now.count, "record")) match now, "
                                + "\(confirmed.count) then): another process wrote the file; nothing removed; run rm again")
                    }
                }
                return try tx.beginRemovingObjects(matching: pattern, listingKeys: keepAll)
            } }
            var report = DanglingReport(keepAll: keepAll)
            let removal = pending.result { report.add($0) }
            let outcome = RemovalOutcome(count: removal.count, keys: removal.keys, dryRun: false, dangling: report)
            if outcome.count > 0 || output.format != .text { outcome.render(format: output.format, context: context, placingIn: store) }
            if outcome.count == 0 { throw CommandFailure(.notFound, pattern.noMatchMessage(in: file.path)) }
        }
    }
}
