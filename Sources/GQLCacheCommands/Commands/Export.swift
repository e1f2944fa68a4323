import ArgumentParser
import CacheStore

/// The two forms a whole cache is exported and imported in.
enum ExchangeForm: String, ExpressibleByArgument, CaseIterable {
    /// One `{"key": …, "record": {…}}` per line.
    case jsonl
    /// The object Apollo Client's `cache.extract()` gives.
    case apolloClient = "apollo-client"
}

extension GQLCache {
    /// `gqlcache export CACHE`: every record, as JSON Lines or as Apollo Client's extract() object.
    struct Export: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Write the whole cache as JSON Lines or as Apollo Client's cache.extract() object.",
            discussion: """
                jsonl (the default) writes one record per line, in key order: \
                {"key":"Droid:2001","record":{…}}, the record exactly as the file holds it (references \
                as {"$reference":"KEY"}), so the export loses nothing (import, which merges as \
                Apollo does, writes no record with no fields). apollo-client writes one JSON object, \
                one entity per line, as Apollo Client's extract() gives and restore() takes: \
                QUERY_ROOT, MUTATION_ROOT and SUBSCRIPTION_ROOT are named ROOT_QUERY, ROOT_MUTATION \
                and ROOT_SUBSCRIPTION, and references {"__ref":"ID"}; field cache keys, scalars and \
                custom-scalar objects stay as they are. A cache that holds a key or value this form \
                cannot tell apart is refused with exit status 2: a record named ROOT_QUERY before \
                anything is written, a custom scalar {"__ref": …} where its record comes (standard \
                output keeps the unfinished object; --output writes nothing). Records are read one at a time and written through a buffer, so memory does \
                not grow with the file. --output writes a file that appears whole, or not at all. \
                Damaged records are reported and left out (exit status 6), and so are records Apollo cannot \
                read for a number too large for a Double (1e400), which import refuses.
                """)

        @OptionGroup var file: CacheFileArgument
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions

        @Option(help: "The form: jsonl (one record per line) or apollo-client (Apollo Client's cache.extract() object).")
        var format: ExchangeForm = .jsonl

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write to this file (replaced when the export is complete; never an SQLite database, nor one's -wal, -shm or -journal) instead of standard output; - is standard output.", valueName: "file"),
            completion: .file(extensions: ["jsonl", "json"]))
        var output: String?

        func validate() throws {
            if output == "" { throw ValidationError("--output needs a file name, or - for standard output") }
        }

        func run(in context: CommandContext) throws {
            // `-o -` is standard output, as for curl and most tools.
            let output = self.output == "-" ? nil : self.output
            if let output, let part = FileOutput.cachePart(output, cache: file.path) {
                throw CommandFailure(.usage, "--output \(output) is \(part); name another file")
            }
            if let output, FileProbe.isSQLiteFile(atPath: output) {
                // A slip of the keyboard would replace a cache with its JSON.
                throw CommandFailure(.usage, "the output file \(output) is an SQLite database, which the export would replace; remove it first or name another file")
            }
            if let output, let part = FileProbe.sqliteSideFile(atPath: output) {
                // Another cache's log or journal: its committed changes, or its way back from a half-done write.
                throw CommandFailure(.usage, "the output file \(output) is \(part); replacing it could lose that database's changes or damage it; name another file")
            }
            let store = try reading.openForReading(file, context)
            if format == .apolloClient {
                let reserved = try store.read { tx in try tx.existingKeys(among: ApolloClientForm.reservedKeys) }
                if let key = ApolloClientForm.reservedKeys.first(where: reserved.contains) {
                    throw CommandFailure(
                        .usage,
                        "\(file.path) holds a record '\(key)', a name the apollo-client form gives a root or its metadata, "
                            + "so it could not be told apart; export it with --format jsonl")
                }
            }
            let fileOutput = try output.map { try FileOutput(path: $0, removedOnStop: context.catchesStopSignals) }
            let sink: TextSink = fileOutput ?? context.stdout
            // -o naming a pipe (`-o /dev/stdout`, a FIFO) holds output back as standard output does.
            let (count, skipped) = try context.holdingOutput(of: sink, while: store) { try store.read { tx in
                let (count, notUTF8Keys): (Int, Int)
                switch format {
                case .jsonl: (count, notUTF8Keys) = try writeLines(tx, to: sink, context: context)
                case .apolloClient: (count, notUTF8Keys) = try writeExtract(tx, to: sink, context: context)
                }
                return (count, try tx.rowsWithoutTextKeyCount() + notUTF8Keys)
            } }
            if skipped > 0 {
                // Not records as Apollo reads the file: the export is whole without them, but say so.
                context.warn(
                    "\(plural(skipped, "row")) of \(file.path) \(skipped == 1 ? "has" : "have") no UTF-8 text key (NULL, a BLOB or other bytes), "
                        + "which Apollo never reads; not exported (gqlcache doctor lists them)")
            }
            if let fileOutput {
                try fileOutput.commit()
                // -o /dev/stdout is standard output, as -o - is: no summary in the data.
                if !fileOutput.isStandardOutput {
                    context.note("exported \(plural(count, "record")) (\(format.rawValue)) to \(fileOutput.path.shownOnLine)")
                }
            }
        }

        /// A record keyed by the empty string, or by a key that holds a NUL
        /// character: no Apollo cache key is, and import refuses both (a
        /// NUL would cut the key short), so they are not exported either:
        /// the export stays one that import takes back whole.
        static func refusingKeyImportRefuses(_ stored: StoredRecord, in path: String, _ context: CommandContext) -> Bool {
            if stored.key.rawValue.isEmpty {
                context.report(.damagedRecord, "\(path): a record has the empty string as its key, which no Apollo cache key is (import refuses it); not exported")
                return true
            }
            if stored.key.rawValue.utf8.contains(0) {
                context.report(
                    .damagedRecord,
                    "\(path): the key \(JSONWriter.quoted(stored.key.rawValue, asStored: false)) holds a NUL character, which no Apollo cache key does "
                        + "(import refuses it); not exported")
                return true
            }
            return false
        }

        /// Records written, and rows skipped for a key that is not UTF-8.
        private func writeLines(_ tx: ReadTransaction, to sink: TextSink, context: CommandContext) throws -> (Int, Int) {
            var count = 0
            var notUTF8 = NotUTF8Records()
            let skipped = try tx.forEachStoredRecordCheckingJSON { stored, isWellFormed, isUTF8 in
                if Self.refusingKeyImportRefuses(stored, in: file.path, context) { return }
                do {
                    sink.write(try RecordLine.line(for: stored, isWellFormed: isWellFormed))
                    sink.write("\n")
                    count += 1
                    if !isUTF8 { notUTF8.note(stored.key) }
                } catch let error as CacheStoreError {
                    context.report(.damagedRecord, "\(file.path): \(error); not exported")
                }
            }
            notUTF8.warn(context, path: file.path)
            return (count, skipped)
        }

        /// Records whose text holds bytes that are not UTF-8. Apollo reads
        /// such a row as a Swift string, with U+FFFD in place of each bad
        /// sequence, and that is what is exported: said, since the export
        /// otherwise holds the text as the file does.
        struct NotUTF8Records {
            private(set) var count = 0
            private(set) var first: CacheKey?

            mutating func note(_ key: CacheKey) {
                count += 1
                if first == nil { first = key }
            }

            func warn(_ context: CommandContext, path: String) {
                guard let first else { return }
                let which = count == 1 ? "record '\(first.rawValue)' holds" : "\(count) records (the first '\(first.rawValue)') hold"
                context.warn("\(path): \(which) bytes that are not UTF-8; exported as Apollo reads them, with U+FFFD in place of each bad sequence")
            }
        }

        private func writeExtract(_ tx: ReadTransaction, to sink: TextSink, context: CommandContext) throws -> (Int, Int) {
            var count = 0
            var notUTF8 = NotUTF8Records()
            defer { notUTF8.warn(context, path: file.path) }
            sink.write("{")
            let skipped = try tx.forEachStoredRecordCheckingJSON { stored, _, isUTF8 in
                if Self.refusingKeyImportRefuses(stored, in: file.path, context) { return }
                switch Result(catching: { try stored.decodedAsApolloReads() }) {
                case .success(let record):
                    if !isUTF8 { notUTF8.note(stored.key) }
                    let member: String
                    do {
                        member = try ApolloClientForm.member(for: record)
                    } catch CacheStoreError.cannotConvert(let message) {
                        // Standard output already holds the records before it: say that the object is cut short.
                        throw CommandFailure(
                            .usage, "\(file.path): \(message); \(output == nil ? "the export stopped there, leaving an unfinished object" : "nothing exported") "
                                + "(--format jsonl holds every record)")
                    }
                    sink.write(count == 0 ? "\n" : ",\n")
                    sink.write(member)
                    count += 1
                case .failure(let error):
                    context.report(.damagedRecord, "\(file.path): \(error); not exported")
                }
            }
            sink.write(count == 0 ? "}\n" : "\n}\n")
            return (count, skipped)
        }
    }
}
