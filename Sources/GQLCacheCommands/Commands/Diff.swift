import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache diff A B`: the records added, removed and changed between two caches.
    struct Diff: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Show the records added, removed and changed between two cache files, field by field.",
            discussion: """
                Records are compared as JSON values: member order, \\/ against /, and 4 against 4.0 \
                are not differences; a reference differs from a string holding the same key. Both \
                files are read once, in key order, with one cursor each, so memory does not grow \
                with them; a file compared with its --backup copy works the same. Text output marks \
                records + (only in the second file), - (only in the first) and ~ (in both, changed), \
                with their fields below, then a summary line. Exit status, as diff and cmp: 0 when \
                both files hold the same records, 1 when they differ, 2 or more on trouble (see \
                gqlcache --help).
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(
            help: ArgumentHelp("The second cache file, compared with the first.", valueName: "other-cache-file"),
            // Any file: the usual second file is a backup, cache.sqlite.backup-YYYYMMDD-HHMMSS.
            completion: .file())
        var other: String

        @Flag(help: "List only the keys of the records that differ, not their fields.")
        var keysOnly = false

        @Flag(help: "Print only the counts.")
        var summary = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        func validate() throws {
            if other.isEmpty { throw ValidationError("the second cache file is an empty name; name a file, e.g. a backup of the first") }
            if keysOnly && summary { throw ValidationError("give --keys-only or --summary, not both") }
        }

        func run(in context: CommandContext) throws {
            let detail: DiffReport.Detail = summary ? .summary : keysOnly ? .keys : .fields
            let first = try reading.openForReading(file, context)
            // A store of its own even for the same path: two cursors need two connections.
            let second = try CacheFileArgument.openForReading(other, context, busyTimeout: reading.busyTimeout, shared: false)
            // With --summary the JSON holds the counts alone, as documented.
            let listsRecords = output.format == .json && detail != .summary
            // Opened when the comparison begins: a file that fails before
            // then (not a cache, busy) leaves nothing behind, and one whose
            // damaged page stops the comparison the records compared, in a
            // closed document, as grep and keys leave theirs.
            var records: StreamedJSONArray?
            func openRecords() -> StreamedJSONArray {
                if let records { return records }
                let opened = StreamedJSONArray(context, opening: "{\n  \"records\": [", indent: "    ")
                records = opened
                return opened
            }
            defer { records?.close(after: "\n}\n") }
            var uncompared: [(path: String, rows: Int)] = []
            let counts = try context.holdingOutput(while: first) { try context.holdingOutput(while: second) { try first.read { a in
                uncompared.append((file.path, try a.rowsWithoutTextKeyCount()))
                return try second.read { b in
                    uncompared.append((other, try b.rowsWithoutTextKeyCount()))
                    if listsRecords { _ = openRecords() }
                    return try a.compare(with: b) { difference in
                        guard detail != .summary else { return }
                        switch output.format {
                        case .text:
                            for line in DiffReport.textLines(for: difference, detail: detail, style: context.style) { context.print(line) }
                        case .json:
                            openRecords().append(DiffReport.json(for: difference, detail: detail).rendered(pretty: false))
                        case .jsonl:
                            context.print(DiffReport.jsonLine(for: difference, detail: detail).rendered(pretty: false))
                        }
                    }
                }
            } } }
            switch output.format {
            case .text:
                // The summary line is the data --summary asks for; otherwise a summary --quiet leaves out.
                if detail == .summary { context.print(DiffReport.summary(counts)) } else { context.note(DiffReport.summary(counts)) }
            case .json:
                if listsRecords {
                    openRecords().close(after: "")
                    for (name, value) in DiffReport.countMembers(counts) {
                        context.stdout.write(",\n  \(JSONWriter.quoted(name)): \(value.rendered(pretty: false))")
                    }
                    context.print("\n}")
                } else {
                    output.format.emit(.object(DiffReport.countMembers(counts)), to: context)
                }
            case .jsonl:
                context.print(JSONOutput.object([("type", .string("summary"))] + DiffReport.countMembers(counts)).rendered(pretty: false))
            }
            let notUTF8 = [counts.notUTF8KeysInFirst, counts.notUTF8KeysInSecond]
            for ((path, rows), other) in zip(uncompared, notUTF8) where rows + other > 0 {
                let rows = rows + other
                context.warn(
                    "\(plural(rows, "row")) of \(path) \(rows == 1 ? "has" : "have") no UTF-8 text key (NULL, a BLOB or other bytes), "
                        + "which Apollo never reads; not compared (gqlcache doctor lists them)")
            }
            // As diff and cmp: 1 says the files differ, without a message.
            if !counts.isSame { throw CommandFailure(.notFound, "") }
        }
    }
}
