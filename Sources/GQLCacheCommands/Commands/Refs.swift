import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache refs CACHE KEY [--depth N]`: what a record references and what references it.
    struct Refs: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "refs",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Show a record's references (field → key) and the records that reference it.",
            discussion: """
                References are listed with where they sit in the field (friends[1]); a key without a \
                record is marked (missing). --depth N draws what the records reached reference in \
                turn, N levels deep, each record's references once, where it is nearest the top; its \
                other places say (above) or (below), and (cycle) inside itself. Incoming references are found by reading the records whose text \
                mentions the key; they are listed for a key without a record too, which is how to \
                see who holds a dangling reference; a damaged record whose text mentions it is warned \
                of, as a reference it holds cannot be read. In JSON, a damaged record has "error", and one \
                whose own references lie beyond --depth has "beyondDepth": true. --format json nests each \
                record's references in the reference to it; --format jsonl gives a line per reference, \
                with its depth and the record holding it (from), flat at any depth, where some JSON \
                parsers refuse nesting past about 85 levels of --depth.
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: ArgumentHelp("The exact key of the record.", valueName: "key"), completion: .custom(ShellCompletion.keys))
        var key: String

        @Option(parsing: .unconditional, help: ArgumentHelp("How many levels of references to draw, from 1 to 1000.", valueName: "n"))
        var depth: Int = 1

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        func validate() throws {
            guard depth >= 1, depth <= ReferenceDepth.maximum else {
                throw ValidationError("--depth must be from 1 to \(ReferenceDepth.maximum)")
            }
        }

        func run(in context: CommandContext) throws {
            let key = CacheKey(self.key)
            let store = try reading.openForReading(file, context)
            var unreadable: [CacheKey] = []
            let (graph, incoming) = try store.read { tx in
                let incoming = try tx.references(to: [key], filter: .containing(keys: [key]), fromTargetsToo: true) { unreadable.append($0) }
                // With where each sits in its field (friends[1]), as the outgoing ones are listed.
                return (try RecordGraph.load([key], depth: depth, in: tx, summarizingLastLevel: true), try tx.placing(incoming))
            }
            let tree = ReferenceTree.build(key, depth: depth, graph: graph)
            switch output.format {
            case .text:
                tree.drawText(style: context.style) { context.stdout.write($0 + "\n") }
                context.stdout.write((incoming.isEmpty ? "no incoming references" : "incoming references (\(incoming.count))") + "\n")
                for reference in incoming { context.stdout.write("  " + context.style.reference(reference.from.display) + " \(reference.shownLocation)\n") }
            case .json, .jsonl:
                var typename: JSONOutput = .null
                if case .found(let record)? = graph.entries[key] { typename = record.typename.map(JSONOutput.string) ?? .null }
                // A damaged record's "error", as show gives it: its references cannot be read.
                var damage: [(String, JSONOutput)] = []
                if case .damaged(let problem)? = graph.entries[key] { damage = [("error", .string(problem))] }
                let record: [(String, JSONOutput)] = [("key", .string(key.rawValue)), ("exists", .bool(graph.exists(key))), ("typename", typename)] + damage
                func incomingMembers(_ reference: ReferenceLocation) -> [(String, JSONOutput)] {
                    [("from", .string(reference.from.rawValue)), ("field", .string(reference.field)), ("location", .string(reference.location))]
                }
                if output.format == .jsonl {
                    // A line each, flat at any depth.
                    context.print(JSONOutput.object([("type", .string("record"))] + record).rendered(pretty: false))
                    for line in tree.jsonLines() { context.print(line.rendered(pretty: false)) }
                    for reference in incoming {
                        context.print(JSONOutput.object([("type", .string("referencedBy"))] + incomingMembers(reference)).rendered(pretty: false))
                    }
                } else {
                    output.format.emit(.object(record + [
                        ("references", .array(tree.json())),
                        ("referencedBy", .array(incoming.map { .object(incomingMembers($0)) })),
                    ]), to: context)
                }
            }
            // Damaged records whose text names the key: one may point at it, as
            // far as anyone can tell, so the incoming list may be short (grep warns likewise).
            for holder in unreadable where holder != key {
                context.warn("\(file.path): record '\(holder.rawValue)' is damaged (not a JSON object) and its text holds '\(key.rawValue)'; "
                    + "any reference it holds cannot be read and is not listed ('gqlcache doctor' lists damaged records)")
            }
            if case .damaged(let problem)? = graph.entries[key] {
                // Its references cannot be read, as show says with the same status.
                context.report(.damagedRecord, "\(file.path): record '\(key.rawValue)' is damaged: \(problem)")
            } else if !graph.exists(key) {
                let nearest = try store.read { tx in try tx.suggestions(for: key) }
                context.report(.notFound, KeySuggestions.notFoundMessage(key, in: file.path, nearest: nearest))
            }
        }
    }
}
