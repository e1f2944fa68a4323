import ArgumentParser
import CacheStore

/// rm --type, --cascade and --clean-references.
extension GQLCache.Remove {
    /// --type, --cascade and --clean-references: one pass over the table
    /// finds the records to remove and every reference to them.
    func removeThroughGraph(context: CommandContext) throws {
        let pattern = try match.map { try KeyPattern($0, mode: mode ?? .apollo) }
        if let pattern { try Self.refuseEmpty(pattern) }
        var seen: Set<CacheKey> = []
        let requested = keys.map { CacheKey($0) }.filter { seen.insert($0).inserted }
        // A damaged record has no __typename to read: --type cannot tell
        // whether it is one of the records asked for, and leaves it.
        var untyped: [CacheKey] = []
        // Types asked for that no record has, named as rm names keys that have no record.
        var absentTypenames: [String] = []
        func selection(_ tx: ReadTransaction, _ graph: CacheGraph) throws -> [CacheKey] {
            // Rows out of order: what the pass read may be wrong, as for gc.
            try tx.checkSoundForRepair(graph)
            neverExisted = requested.filter { !graph.containsRecord($0) }
            if !typenames.isEmpty {
                untyped = graph.damagedRecords.map(\.key)
                absentTypenames = graph.absentTypenames(typenames)
                return graph.keys(typenames: typenames)
            }
            if let pattern { return try tx.keys(matching: pattern) }
            if cascade { return try graph.cascade(from: requested) }
            return requested.filter { graph.containsRecord($0) }
        }
        // Keys are listed when they were named, and by a dry run (as rm --match --dry-run
        // lists them); a removal by type or pattern gives a count (text) or the list (json).
        let listsKeys = typenames.isEmpty && pattern == nil || output.format != .text || dryRun
        let keepAll = output.format != .text || typenames.isEmpty && pattern == nil
        // `references`: those to `keys`, from one pass over the graph per transaction.
        func outcome(_ keys: [CacheKey], _ references: [ReferenceLocation], dryRun: Bool, cleaned: ReferenceRepair?) -> RemovalOutcome {
            var result = RemovalOutcome.with(
                keys: keys, dryRun: dryRun, dangling: cleaned == nil ? references : [], keepAll: keepAll,
                cleaned: cleaned)
            if !listsKeys { result = RemovalOutcome(count: keys.count, keys: nil, dryRun: dryRun, dangling: result.dangling, cleaned: cleaned) }
            return result
        }
        var result: RemovalOutcome
        let store: CacheStore
        // The keys named that have no record, as the pass found them.
        var neverExisted: [CacheKey] = []
        if dryRun {
            store = try writing.openForDryRun(file, context)
            result = try store.read { tx in
                let graph = try tx.graph()
                let removed = try selection(tx, graph)
                let references = graph.references(to: Set(removed))
                let cleaned = cleanReferences ? try tx.plannedReferenceRepair(to: Set(removed), in: graph) : nil
                return outcome(removed, references, dryRun: true, cleaned: cleaned)
            }
        } else {
            store = try writing.openForWriting(file, context)
            let confirmed = try confirmGraphRemoval(store: store, requested: requested, selection: selection, context: context)
            result = try store.write { tx in
                let graph = try tx.graph()
                let removed = try selection(tx, graph)
                // The app may write while the question waits: what a person agreed to, or nothing.
                if let confirmed, Set(removed) != Set(confirmed.keys) {
                    throw CommandFailure(
                        .busy, "the records to remove changed while you were asked (\(plural(removed.count, "record")) now, "
                            + "\(confirmed.keys.count) then): another process wrote the file; nothing removed; run rm again")
                }
                let references = graph.references(to: Set(removed))
                // Compared as lists (sorted, so a field holding one key twice counts twice).
                if let confirmed, let agreed = confirmed.references, references != agreed {
                    throw CommandFailure(
                        .busy, "the references to drop changed while you were asked: another process wrote the file; "
                            + "nothing removed; run rm again")
                }
                let cleaned = cleanReferences ? try tx.repairReferences(to: Set(removed), in: graph) : nil
                // A holder given another field meanwhile is no longer left with none.
                if let confirmed, let cleaned, cleaned.emptied != confirmed.emptied {
                    throw CommandFailure(
                        .busy, "the records the drops leave with no field changed while you were asked: another process wrote the file; "
                            + "nothing removed; run rm again")
                }
                try tx.removeObjects(forKeys: removed)
                return outcome(removed, references, dryRun: false, cleaned: cleaned)
            }
        }
        if !requested.isEmpty { result.missing = neverExisted }
        // Nothing to remove: the error says why; scripts still get their document.
        if result.count > 0 || output.format != .text { result.render(format: output.format, context: context, placingIn: store) }
        if !untyped.isEmpty {
            let shown = untyped.listedInMessage(first: 3)
            context.warn(
                "\(plural(untyped.count, "damaged record")) in \(file.path) \(untyped.count == 1 ? "has" : "have") no readable __typename "
                    + "and \(untyped.count == 1 ? "is" : "are") left as \(untyped.count == 1 ? "it is" : "they are"): \(shown) "
                    + "(gqlcache doctor lists them; remove them by key)")
        }
        if !typenames.isEmpty, result.count == 0 {
            throw CommandFailure(
                .notFound, KeySuggestions.typenameNotFoundMessage(typenames, in: file.path) { CompletionSources.typenames(in: store) })
        }
        if !absentTypenames.isEmpty {
            context.report(
                .notFound, KeySuggestions.typenameNotFoundMessage(absentTypenames, in: file.path) { CompletionSources.typenames(in: store) })
        }
        if let pattern, result.count == 0 { throw CommandFailure(.notFound, pattern.noMatchMessage(in: file.path)) }
        guard !neverExisted.isEmpty else { return }
        let hints = try store.read { tx in try tx.suggestions(forEach: neverExisted) }
        for (key, nearest) in zip(neverExisted, hints) {
            context.report(.notFound, KeySuggestions.notFoundMessage(key, in: file.path, nearest: nearest))
        }
    }

    /// Asks before a removal by type, pattern or cascade (or any removal at
    /// the REPL's prompt), counting in a read transaction so that the write
    /// lock is never held while a person thinks. Returns the keys agreed
    /// to, and with --clean-references the references to drop and the
    /// records those drops leave with no field; nil when nobody was asked.
    private func confirmGraphRemoval(
        store: CacheStore, requested: [CacheKey], selection: (ReadTransaction, CacheGraph) throws -> [CacheKey],
        context: CommandContext
    ) throws -> (keys: [CacheKey], references: [ReferenceLocation]?, emptied: [CacheKey])? {
        let asksAlways = !typenames.isEmpty || cascade || match != nil
        guard !force, asksAlways || context.confirmsEveryRemoval else { return nil }
        guard context.canAskQuestions else {
            throw CommandFailure(.usage, "rm \(!typenames.isEmpty ? "--type" : cascade ? "--cascade" : "--match") removes records without asking only with --force (standard input is not a terminal); nothing removed")
        }
        let (keys, references, emptied) = try store.read { tx in
            let graph = try tx.graph()
            let keys = try selection(tx, graph)
            guard cleanReferences, !keys.isEmpty else { return (keys, [ReferenceLocation]?.none, [CacheKey]()) }
            return (keys, graph.references(to: Set(keys)), try tx.plannedReferenceRepair(to: Set(keys), in: graph).emptied)
        }
        guard !keys.isEmpty else { return (keys, references, emptied) }
        let them = keys.count == 1 ? "it" : "them"
        var dropping = references.map { $0.isEmpty ? "" : " and drop \(plural($0.count, "reference")) to \(them)" } ?? ""
        if !emptied.isEmpty {
            dropping += ", removing \(plural(emptied.count, "more record")) the drops leave with no field (\(emptied.listedInMessage(first: 5)))"
        }
        guard context.confirm("remove \(plural(keys.count, "record")) from \(file.path) (\(keys.listedInMessage(first: 5)))\(dropping)?") else {
            throw CommandFailure(.notFound, "nothing removed")
        }
        return (keys, references, emptied)
    }
}

