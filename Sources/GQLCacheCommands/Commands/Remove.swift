import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache rm CACHE KEY…` and `gqlcache rm CACHE --match PATTERN`.
    struct Remove: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Remove records by key (removeObject(for:)) or by pattern (removeObjects(matching:)).",
            discussion: """
                Removal never cascades, exactly as in Apollo: references to a removed record stay in \
                other records and dangle, and rm says how many it left. KEY removes exactly that key \
                (case-sensitive). --match removes every key the pattern matches; the default mode, apollo, \
                is Apollo's SQL: a case-insensitive substring in which % and _ are wildcards, so \
                'Human:100_' also removes Human:1000 and Human:1002. Other modes: \(KeyPattern.Mode.helpText). \
                Pattern removal asks for confirmation on a terminal and needs --force otherwise.
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: ArgumentHelp("Exact keys of the records to remove.", valueName: "key"))
        var keys: [String] = []

        @Option(help: ArgumentHelp("Remove every record whose key matches this pattern.", valueName: "pattern"))
        var match: String?

        @Option(help: "How --match matches: apollo (default), literal, prefix, glob or regex.")
        var mode: KeyPattern.Mode?

        @Flag(help: "List what would be removed, and the references that would dangle, without removing.")
        var dryRun = false

        @Flag(name: .shortAndLong, help: "Remove by pattern without asking.")
        var force = false

        @OptionGroup var writing: WriteOptions
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if match == nil && keys.isEmpty {
                throw ValidationError("name the keys to remove, or a pattern with --match")
            }
            if match != nil && !keys.isEmpty {
                throw ValidationError("give either keys or --match, not both")
            }
            if mode != nil && match == nil {
                throw ValidationError("--mode goes with --match")
            }
        }

        func run(in context: CommandContext) throws {
            if let match {
                try removeMatching(try KeyPattern(match, mode: mode ?? .apollo), context: context)
            } else {
                try removeKeys(keys.map { CacheKey($0) }, context: context)
            }
        }

        private func removeKeys(_ requested: [CacheKey], context: CommandContext) throws {
            let outcome: RemovalOutcome
            if dryRun {
                let store = try file.openForReading()
                outcome = try store.read { tx in
                    let existing = try tx.existingKeys(among: requested)
                    let removed = requested.filter { existing.contains($0) }
                    var report = DanglingReport(keepAll: true)
                    try tx.references(to: Set(removed), filter: .containing(keys: removed)).forEach { report.add($0) }
                    return RemovalOutcome(count: removed.count, keys: removed, dryRun: true, dangling: report)
                }
            } else {
                let store = try writing.openForWriting(file)
                outcome = try store.write { tx in
                    let removed = try requested.filter { try tx.removeObject(for: $0) }
                    var report = DanglingReport(keepAll: true)
                    try tx.references(to: Set(removed), filter: .containing(keys: removed)).forEach { report.add($0) }
                    return RemovalOutcome(count: removed.count, keys: removed, dryRun: false, dangling: report)
                }
            }
            outcome.render(format: output.format, context: context)
            let gone = Set(outcome.keys ?? [])
            for key in requested where !gone.contains(key) {
                context.report(.notFound, "no record '\(key.rawValue)' in \(file.path)")
            }
        }

        private func removeMatching(_ pattern: KeyPattern, context: CommandContext) throws {
            if pattern.matchesNothing {
                throw CommandFailure(
                    .notFound, "an empty apollo pattern matches nothing (Apollo ignores it); to remove every record use 'gqlcache clear'")
            }
            if pattern.text.isEmpty {
                throw CommandFailure(
                    .usage, "an empty \(pattern.mode.rawValue) pattern matches every key; to remove every record use 'gqlcache clear'")
            }
            // Text shows a sample of the dangling references; scripts get them all.
            let keepAll = output.format != .text
            if dryRun {
                let store = try file.openForReading()
                let outcome = try store.read { tx in
                    let keys = try tx.keys(matching: pattern)
                    var report = DanglingReport(keepAll: keepAll)
                    try tx.forEachReference(toKeysMatching: pattern) { report.add($0) }
                    return RemovalOutcome(count: keys.count, keys: keys, dryRun: true, dangling: report)
                }
                outcome.render(format: output.format, context: context)
                if outcome.count == 0 { throw CommandFailure(.notFound, "no key matches \(pattern) in \(file.path)") }
                return
            }
            let store = try writing.openForWriting(file)
            if !force {
                guard context.canAskQuestions else {
                    throw CommandFailure(
                        .usage, "rm --match removes records without asking only with --force (standard input is not a terminal); nothing removed")
                }
                // Count in a read transaction: the write lock is never held while a person thinks.
                let (count, sample) = try store.read { tx in
                    var sample: [CacheKey] = []
                    try tx.forEachKey(matching: pattern, limit: 5) { sample.append($0) }
                    return (try tx.countKeys(matching: pattern), sample)
                }
                guard count > 0 else { throw CommandFailure(.notFound, "no key matches \(pattern) in \(file.path)") }
                let examples = sample.map(\.rawValue).joined(separator: ", ") + (count > sample.count ? ", …" : "")
                guard context.confirm("remove \(count) record(s) matching \(pattern) from \(file.path) (\(examples))?") else {
                    throw CommandFailure(.notFound, "nothing removed")
                }
            }
            let outcome = try store.write { tx in
                // Text reports a count: one plain DELETE, as Apollo runs it. Scripts get the keys.
                let keys = keepAll ? try tx.removeObjectsReturningKeys(matching: pattern) : nil
                let count = try keys?.count ?? tx.removeObjects(matching: pattern)
                // Every key the pattern matches is gone now, so each reference to one dangles.
                var report = DanglingReport(keepAll: keepAll)
                try tx.forEachReference(toKeysMatching: pattern) { report.add($0) }
                return RemovalOutcome(count: count, keys: keys, dryRun: false, dangling: report)
            }
            outcome.render(format: output.format, context: context)
            if outcome.count == 0 { throw CommandFailure(.notFound, "no key matches \(pattern) in \(file.path)") }
        }
    }
}

/// What a removal did, or would do with --dry-run.
struct RemovalOutcome {
    let count: Int
    /// The removed keys, when they were asked for.
    let keys: [CacheKey]?
    let dryRun: Bool
    let dangling: DanglingReport

    func render(format: OutputFormat, context: CommandContext) {
        let references = dangling.references
        switch format {
        case .text:
            context.stdout.write(text())
        case .json:
            format.emit(.object([
                ("dryRun", .bool(dryRun)),
                ("removed", .int(count)),
                ("keys", .array((keys ?? []).map { .string($0.rawValue) })),
                ("danglingReferences", .int(dangling.count)),
                ("dangling", .array(references.map(\.json))),
            ]), to: context)
        case .jsonl:
            for key in keys ?? [] { context.print(JSONOutput.object([("type", .string("key")), ("key", .string(key.rawValue))]).rendered(pretty: false)) }
            for reference in references {
                context.print(JSONOutput.object([("type", .string("dangling"))] + reference.jsonMembers).rendered(pretty: false))
            }
            context.print(JSONOutput.object([
                ("type", .string("summary")), ("dryRun", .bool(dryRun)), ("removed", .int(count)),
                ("danglingReferences", .int(dangling.count)),
            ]).rendered(pretty: false))
        }
    }

    func text() -> String {
        var text = ""
        let verb = dryRun ? "would remove" : "removed"
        for key in keys ?? [] { text += "\(verb) \(key.rawValue)\n" }
        text += "\(verb) \(plural(count, "record"))"
        if dangling.count == 0 {
            text += dryRun ? ", leaving no reference dangling\n" : "; no reference left dangling\n"
            return text
        }
        text += dryRun ? ", leaving \(plural(dangling.count, "reference")) dangling:\n"
            : "; left \(plural(dangling.count, "reference")) dangling:\n"
        let shown = dangling.references
        for reference in shown {
            text += "  \(reference.from.rawValue) \(reference.field) → \(reference.to.rawValue)\n"
        }
        if dangling.count > shown.count {
            text += "  … and \(dangling.count - shown.count) more (--format json lists them all)\n"
        }
        return text
    }
}

/// Counts dangling references and keeps them all, or only the first few in
/// key order, so a removal that leaves millions does not hold them.
struct DanglingReport {
    static let sampleSize = 10

    let keepAll: Bool
    private(set) var count = 0
    /// All references (keepAll), or the smallest `sampleSize`, kept sorted.
    private var kept: [ReferenceLocation] = []

    init(keepAll: Bool) { self.keepAll = keepAll }

    mutating func add(_ reference: ReferenceLocation) {
        count += 1
        if keepAll {
            kept.append(reference)
            return
        }
        if kept.count == Self.sampleSize {
            guard Self.precedes(reference, kept[kept.count - 1]) else { return }
            kept.removeLast()
        }
        // Insert after every element that does not come later: equal ones keep their scan order.
        let index = kept.firstIndex { Self.precedes(reference, $0) } ?? kept.count
        kept.insert(reference, at: index)
    }

    /// The kept references in order of the holding key, then field; equal
    /// ones in the order they were found.
    var references: [ReferenceLocation] {
        guard keepAll else { return kept }
        return kept.enumerated().sorted { lhs, rhs in
            Self.precedes(lhs.element, rhs.element) || (!Self.precedes(rhs.element, lhs.element) && lhs.offset < rhs.offset)
        }.map(\.element)
    }

    private static func precedes(_ lhs: ReferenceLocation, _ rhs: ReferenceLocation) -> Bool {
        if lhs.from != rhs.from { return lhs.from < rhs.from }
        return byteOrder(lhs.field, rhs.field)
    }
}

func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

extension ReferenceLocation {
    var jsonMembers: [(String, JSONOutput)] {
        [("from", .string(from.rawValue)), ("field", .string(field)), ("to", .string(to.rawValue))]
    }
    var json: JSONOutput { .object(jsonMembers) }
}
