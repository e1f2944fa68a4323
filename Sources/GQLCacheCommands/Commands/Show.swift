import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache show CACHE KEY…`: records as trees, following references.
    struct Show: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Show records as trees, with references as links to their keys.",
            discussion: """
                References are drawn as '→ KEY', also inside a custom scalar's object (any object with a \
                string $reference, which Apollo reads back as a reference); a reference to a key with no \
                record is marked (missing). \
                --depth N expands referenced records inline, N levels deep, each record once, where it is \
                nearest the top; its other places say (above) or (below), and (cycle) inside itself. \
                With --format json or jsonl each \
                record is {"key": K, "depth": D, "record": {...}} with the stored fields (references as {"$reference": K}; \
                a number keeps its value but not its spelling, 1.10 shows 1.1, in text too; grep and export keep the spelling); \
                records expanded by --depth follow with their depth; a key with no record gives \
                {"key": K, "depth": D, "missing": true} and a damaged one {"key": K, "depth": D, "error": "..."}. \
                A record on a damaged page of the file is marked unreadable (an "error" in JSON) and named \
                on standard error (those --depth reached counted in one line), exit status 5; the others are still shown.
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(
            help: ArgumentHelp("Keys of the records to show, e.g. QUERY_ROOT or 'Droid:2001'.", valueName: "key"),
            completion: .custom(ShellCompletion.keys))
        var keys: [String]

        @Option(parsing: .unconditional, help: ArgumentHelp("Expand referenced records this many levels deep (at most 1000).", valueName: "n"))
        var depth: Int = 0

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        func validate() throws {
            guard !keys.isEmpty else { throw ValidationError("name at least one key to show, e.g. QUERY_ROOT") }
            guard depth >= 0, depth <= ReferenceDepth.maximum else {
                throw ValidationError("--depth must be from 0 to \(ReferenceDepth.maximum)")
            }
        }

        func run(in context: CommandContext) throws {
            let requested = keys.map { CacheKey($0) }
            let store = try reading.openForReading(file, context)
            var found: [CacheKey: RecordGraph.Entry] = [:]
            // Records --depth reached on damaged pages of the file.
            var unreadableBelow: [CacheKey] = []
            var suggestions: [CacheKey: KeySuggestions.Hint] = [:]
            switch output.format {
            case .text:
                let graph = try store.read { tx in
                    let graph = try RecordGraph.load(requested, depth: depth, in: tx)
                    found = graph.entries
                    suggestions = try missingKeySuggestions(found, in: tx)
                    return graph
                }
                unreadableBelow = graph.entries.compactMap { key, entry in
                    if case .unreadable = entry, !requested.contains(key) { return key }
                    return nil
                }
                let renderer = RecordTreeRenderer(graph: graph, maxDepth: depth, style: context.style)
                renderer.render(requested.filter { graph.entries[$0] != .missing }) { context.print($0) }
            case .json, .jsonl:
                // Written as read, level by level: what --depth reaches on a
                // large cache is never held whole.
                let pretty = output.format == .json
                let array = pretty ? StreamedJSONArray(context) : nil
                defer { array?.close() }
                try context.holdingOutput(while: store) { try store.read { tx in
                    try RecordGraph.walk(requested, depth: depth, in: tx) { level, key, entry in
                        if level == 0 { found[key] = entry }
                        if level > 0, case .unreadable = entry, !requested.contains(key) { unreadableBelow.append(key) }
                        let line = jsonEntry(key, level: level, entry).rendered(pretty: pretty, indent: pretty ? 1 : 0)
                        if let array { array.append(line) } else { context.print(line) }
                    }
                    suggestions = try missingKeySuggestions(found, in: tx)
                } }
                array?.close()
            }
            var reported: Set<CacheKey> = []
            for key in requested where reported.insert(key).inserted {
                switch found[key] {
                case .missing?:
                    context.report(.notFound, KeySuggestions.notFoundMessage(key, in: file.path, nearest: suggestions[key] ?? KeySuggestions.Hint()))
                case .damaged(let problem)?:
                    context.report(.damagedRecord, "\(file.path): record '\(key.rawValue)' is damaged: \(problem)")
                case .unreadable(let problem)?:
                    context.report(.io, "\(file.path): record '\(key.rawValue)' cannot be read: \(problem); "
                        + "'gqlcache doctor' says more")
                default:
                    break
                }
            }
            // Shown marked, but a script must hear that the file is damaged, as for a record named.
            if !unreadableBelow.isEmpty {
                // In key order, whatever the order the format met them in.
                let keys = unreadableBelow.sorted()
                let some = keys.listedInMessage(first: 3)
                let one = keys.count == 1
                context.report(.io, "\(file.path): \(plural(keys.count, "record")) that --depth reached cannot be read (\(some)): "
                    + "the \(one ? "page" : "pages") of the file that \(one ? "holds it is" : "hold them are") damaged; 'gqlcache doctor' says more")
            }
        }

        /// The nearest keys to each requested key that has no record.
        private func missingKeySuggestions(_ found: [CacheKey: RecordGraph.Entry], in tx: ReadTransaction) throws -> [CacheKey: KeySuggestions.Hint] {
            let missing = keys.map { CacheKey($0) }.filter { found[$0] == .missing }
            return Dictionary(try zip(missing, tx.suggestions(forEach: missing)).map { ($0, $1) }) { first, _ in first }
        }

        private func jsonEntry(_ key: CacheKey, level: Int, _ entry: RecordGraph.Entry) -> JSONOutput {
            var members: [(String, JSONOutput)] = [("key", .string(key.rawValue)), ("depth", .int(level))]
            switch entry {
            case .found(let record): members.append(("record", .record(record.fields)))
            case .damaged(let problem), .unreadable(let problem): members.append(("error", .string(problem)))
            case .missing: members.append(("missing", .bool(true)))
            }
            return .object(members)
        }
    }
}
