import ArgumentParser
import CacheQuery
import CacheStore

extension GQLCache {
    /// `gqlcache grep CACHE VALUE`: records whose field values hold a string or match a regex.
    struct Grep: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "grep",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Find the records whose field values contain a string or match a regular expression.",
            discussion: """
                Every value inside every field is searched, through lists and custom-scalar objects \
                at any depth: strings as they are, references by the key they point to, booleans as \
                true and false, and numbers as the file writes them (1.10, 1e2), as printed. Null \
                values and field names are not. Each match prints \
                the record's key, the path to the value (friends[1], meta.source) and the value; \
                references print as → KEY. Records are read in key order, one at a time, so memory \
                does not grow with the file; a case-sensitive literal search lets SQLite skip the \
                records that cannot hold it. Damaged records are reported and skipped, and the exit \
                status is then 6, as for export. Exit status \
                1 when nothing matched, as grep. With --quiet nothing is printed but errors, and \
                the search stops at the first match, as with grep -q: the status alone says \
                whether anything matched, and a match is 0 even after a damaged record.
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: ArgumentHelp("The text to find in field values (a regular expression with --regex).", valueName: "value"))
        var value: String

        @Flag(help: "VALUE is an ICU regular expression, found anywhere in the value.")
        var regex = false

        @Flag(name: [.customShort("i"), .customLong("ignore-case")], help: "Match regardless of case.")
        var ignoreCase = false

        @Option(
            name: .customLong("field"),
            help: ArgumentHelp("Search only this field, with or without arguments: 'height' searches height(unit:FOOT) (repeatable).", valueName: "name"),
            completion: .custom(ShellCompletion.fieldNames))
        var fields: [String] = []

        @Flag(help: "Print each matching record's key once, not its matches.")
        var keysOnly = false

        @Flag(
            name: [.customShort("Z"), .customShort("z"), .customLong("null")],
            help: "With --keys-only, end each key with a NUL, not a newline, and never quote it: for xargs -0 (as grep -lZ, git grep -z).")
        var null = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: GrepDisplayOptions
        @OptionGroup var pager: PagerOptions

        func validate() throws {
            // Every value holds the empty text: that is what export is for.
            if value.isEmpty { throw ValidationError("an empty VALUE matches every field value; give the text to find (or use 'gqlcache export')") }
            if fields.contains("") { throw ValidationError("--field needs a field name") }
            if null && !keysOnly { throw ValidationError("--null goes with --keys-only: it ends each key listed") }
            try NullTerminated.check(null, format: output.format)
        }

        func run(in context: CommandContext) throws {
            var pattern = try ValuePattern(value, isRegex: regex, ignoringCase: ignoreCase)
            let store = try reading.openForReading(file, context)
            var matchedRecords = 0
            var skippedDamaged = false
            // grep -q: only the status answers, and the first match gives it.
            // This grep's own -q: a REPL started with --quiet still shows the data asked for.
            let silent = display.quiet
            // Colour marks each match in a value, as GNU grep does.
            pattern.findsEveryMatch = output.format == .text && context.style.isColored && !keysOnly && !silent
            struct FirstMatch: Error {}
            let array = output.format == .json && !silent ? StreamedJSONArray(context) : nil
            defer { array?.close() }
            func emit(_ line: () -> JSONOutput) {
                switch output.format {
                case .text: break
                case .json: array?.append(line().rendered(pretty: false))
                case .jsonl: context.print(line().rendered(pretty: false))
                }
            }
            do {
                try context.holdingOutput(while: store) { try store.read { tx in
                    try tx.forEachStoredRecord(mayMatch: pattern) { stored in
                        let matches: [ValueMatch]
                        do {
                            matches = try tx.matches(of: pattern, in: stored, inFields: fields)
                        } catch let error as CacheStoreError {
                            guard case .damagedRecord = error else { throw error }
                            // Reported, not warned of: the search did not cover the file (as export's status says).
                            context.report(.damagedRecord, "\(file.path): \(error); not searched")
                            skippedDamaged = true
                            return
                        }
                        guard !matches.isEmpty else { return }
                        matchedRecords += 1
                        if silent { throw FirstMatch() }
                        if keysOnly {
                            if output.format == .text {
                                if null { NullTerminated.write(stored.key, context: context) } else { context.print(context.style.key(stored.key.display)) }
                            }
                            emit { .string(stored.key.rawValue) }
                            return
                        }
                        for match in matches {
                            if output.format == .text { context.print(GrepReport.textLine(key: stored.key, match: match, style: context.style)) }
                            emit { GrepReport.json(key: stored.key, match: match) }
                        }
                    }
                } }
            } catch is FirstMatch {}
            array?.close()
            // grep -q: a script asks whether anything matched, and the status
            // is the answer, as GNU grep -q's is even after an error.
            if silent && matchedRecords > 0 && skippedDamaged { throw CommandFailure(.success, "") }
            if matchedRecords == 0 {
                let what = regex ? "matches the regular expression" : "contains"
                let scope = fields.isEmpty ? "field value" : "value of \(fields.map { "'\($0)'" }.joined(separator: ", "))"
                var message = "no \(scope) \(what) '\(value.shortenedForMessage)'\(ignoreCase ? " (ignoring case)" : "") in \(file.path)"
                // A field no record has is most often mistyped (`--field nme`): say so, with the names near it.
                if !fields.isEmpty, !context.isQuiet, let names = try? store.read({ tx in try tx.fieldNames() }) {
                    for field in fields where !names.contains(field) {
                        let near = NameSuggestions.withinTwoEdits(of: field, among: names.sorted(by: byteOrder)).prefix(3)
                        message += "; no record has a field '\(field)'" + (near.isEmpty ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?)")
                    }
                }
                // After a damaged record the status stays 6: the search did not cover the file.
                throw CommandFailure(skippedDamaged ? .damagedRecord : .notFound, context.isQuiet ? "" : message)
            }
        }
    }
}
