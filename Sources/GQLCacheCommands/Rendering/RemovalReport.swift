import CacheStore

/// What a removal did, or would do with --dry-run.
struct RemovalOutcome {
    let count: Int
    /// The removed keys, when they were asked for.
    let keys: [CacheKey]?
    let dryRun: Bool
    var dangling: DanglingReport
    /// With --clean-references: the references dropped instead of left
    /// dangling, and the records that left with no field, removed too.
    var cleaned: ReferenceRepair? = nil
    /// The keys named that have no record, when keys were named: standard
    /// error says each, and the JSON lists them for scripts.
    var missing: [CacheKey]? = nil
    /// A Ctrl-C cut the listing of the dangling references short: only
    /// their count is told.
    var listingInterrupted = false

    /// The outcome of removing the records `gone`: every reference to one
    /// of them dangles. `keys` is what to list (nil: only the count);
    /// `keepAll` keeps every dangling reference rather than a sample.
    static func after(
        removing gone: Set<CacheKey>, count: Int, keys: [CacheKey]?, dryRun: Bool,
        filter: ReferenceScanFilter, keepAll: Bool, in tx: ReadTransaction
    ) throws -> RemovalOutcome {
        var report = DanglingReport(keepAll: keepAll)
        try tx.forEachReference(to: gone, filter: filter) { report.add($0) }
        return RemovalOutcome(count: count, keys: keys, dryRun: dryRun, dangling: report)
    }

    /// The outcome of a removal whose dangling references are already known.
    static func with(
        keys: [CacheKey], dryRun: Bool, dangling references: [ReferenceLocation], keepAll: Bool, cleaned: ReferenceRepair?
    ) -> RemovalOutcome {
        var report = DanglingReport(keepAll: keepAll)
        if cleaned == nil { references.forEach { report.add($0) } }
        return RemovalOutcome(count: keys.count, keys: keys, dryRun: dryRun, dangling: report, cleaned: cleaned)
    }

    /// Renders the report; the dangling references shown are first placed
    /// in their records (`friends[1]`, not `friends`) through `store`, as
    /// doctor and gc name them.
    /// A Ctrl-C while they are placed (at the REPL, where it stops the
    /// statement running) cuts the listing short: the count is printed and
    /// the command ends interrupted, saying whether the change stands.
    func render(format: OutputFormat, context: CommandContext, placingIn store: CacheStore) {
        var outcome = self
        do {
            outcome.dangling.replaceReferences(with: try store.read { tx in try tx.placing(dangling.references) })
        } catch CacheStoreError.interrupted {
            outcome.dangling.replaceReferences(with: [])
            outcome.listingInterrupted = true
            outcome.render(format: format, context: context)
            let what = dryRun ? "nothing was changed" : "the change was written and stands"
            context.report(.interrupted, "\(store.path): interrupted while listing the dangling references; \(what)")
            return
        } catch {
            // Unplaced, they still name the record, field and key.
        }
        outcome.render(format: format, context: context)
    }

    func render(format: OutputFormat, context: CommandContext) {
        let references = dangling.references
        switch format {
        case .text:
            context.stdout.write(text(style: context.style, quiet: context.isQuiet))
        case .json:
            format.emit(.object([
                ("dryRun", .bool(dryRun)),
                ("removed", .int(count)),
                ("keys", .array((keys ?? []).map { .string($0.rawValue) })),
                ("danglingReferences", .int(dangling.count)),
                ("dangling", .array(references.map(\.json))),
            ] + (cleaned.map { [("cleaned", .array($0.drops.flatMap(\.json))), ("emptied", .array($0.emptied.map { .string($0.rawValue) }))] } ?? [])
              + (missing.map { [("missing", .array($0.map { .string($0.rawValue) }))] } ?? [])), to: context)
        case .jsonl:
            for key in keys ?? [] { context.print(JSONOutput.object([("type", .string("key")), ("key", .string(key.rawValue))]).rendered(pretty: false)) }
            for key in missing ?? [] {
                context.print(JSONOutput.object([("type", .string("missing")), ("key", .string(key.rawValue))]).rendered(pretty: false))
            }
            for reference in references {
                context.print(JSONOutput.object([("type", .string("dangling"))] + reference.jsonMembers).rendered(pretty: false))
            }
            for drops in cleaned?.drops ?? [] {
                for reference in drops.dropped {
                    context.print(JSONOutput.object([("type", .string("cleaned"))] + drops.jsonMembers(reference)).rendered(pretty: false))
                }
            }
            for key in cleaned?.emptied ?? [] {
                context.print(JSONOutput.object([("type", .string("emptied")), ("key", .string(key.rawValue))]).rendered(pretty: false))
            }
            format.emit(.object([
                ("type", .string("summary")), ("dryRun", .bool(dryRun)), ("removed", .int(count)),
                ("danglingReferences", .int(dangling.count)),
            ]), isSummary: true, to: context)
        }
    }

    /// The report as text; `quiet` keeps only what a dry run was asked
    /// for, the keys it would remove.
    func text(style: TextStyle = .plain, quiet: Bool = false) -> String {
        var text = ""
        let verb = dryRun ? "would remove" : "removed"
        if quiet && !dryRun { return "" }
        for key in keys ?? [] { text += "\(verb) \(key.display)\n" }
        if quiet { return text }
        text += "\(verb) \(plural(count, "record"))"
        if let cleaned {
            let lines = cleaned.drops.flatMap(\.lines)
            if lines.isEmpty { return text + (dryRun ? ", leaving no reference dangling\n" : "; no reference left dangling\n") }
            let them = count == 1 ? "it" : "them"
            text += dryRun ? " and would drop \(plural(lines.count, "reference")) to \(them):\n"
                : " and dropped \(plural(lines.count, "reference")) to \(them):\n"
            text += lines.map { "  \($0)\n" }.joined()
            guard !cleaned.emptied.isEmpty else { return text }
            text += "\(verb) \(plural(cleaned.emptied.count, "more record")) the drops left with no field, as Apollo writes none:\n"
            return text + cleaned.emptied.map { "  \($0.display)\n" }.joined()
        }
        if dangling.count == 0 {
            text += dryRun ? ", leaving no reference dangling\n" : "; no reference left dangling\n"
            return text
        }
        let leaving = dryRun ? ", leaving \(plural(dangling.count, "reference")) dangling" : "; left \(plural(dangling.count, "reference")) dangling"
        if listingInterrupted { return text + leaving + " (not listed: interrupted)\n" }
        text += leaving + ":\n"
        // All are kept for JSON when few keys were named; text shows a sample, as for --match.
        let shown = dangling.references.prefix(DanglingReport.sampleSize)
        for reference in shown {
            text += "  \(reference.from.display) \(reference.shownLocation) → \(style.problem(reference.to.display))\n"
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

    /// Replaces the kept references with `placed`: the same ones, in the
    /// same order, with their paths.
    mutating func replaceReferences(with placed: [ReferenceLocation]) {
        kept = placed
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
    /// `from`, `field`, then `path` when known (steps: numbers for list
    /// positions, names for object members, as `gc` gives them), and `to`.
    var jsonMembers: [(String, JSONOutput)] {
        [("from", .string(from.rawValue)), ("field", .string(field))]
            + (path.map { [("path", .array($0.map(\.json)))] } ?? [])
            + [("to", .string(to.rawValue))]
    }
    var json: JSONOutput { .object(jsonMembers) }
}
