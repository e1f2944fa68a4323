import ArgumentParser
import CacheStore
import Foundation

/// How `import` finds the form of its input.
enum ImportForm: String, ExpressibleByArgument, CaseIterable {
    case auto, jsonl
    case apolloClient = "apollo-client"

    var exchangeForm: ExchangeForm? { ExchangeForm(rawValue: rawValue) }
}

extension GQLCache {
    /// `gqlcache import CACHE INPUT`: records from an export, merged as Apollo merges.
    struct Import: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Merge the records of an export (JSON Lines or Apollo Client's extract()) into a cache file.",
            discussion: """
                The input's form is found from its first line: a {"key": …, "record": {…}} line is \
                JSON Lines, anything else is read as Apollo Client's extract() object (ROOT_QUERY, \
                ROOT_MUTATION and ROOT_SUBSCRIPTION become QUERY_ROOT, MUTATION_ROOT and \
                SUBSCRIPTION_ROOT, {"__ref": ID} a reference, and __META is skipped); \
                --input-format says which. Records are merged field by field as Apollo merges: \
                fields are replaced or added, never removed, and records not in the input stay. \
                Everything is written in one transaction, or nothing is. --create makes the cache \
                file (Apollo iOS's current layout) when it does not exist or is empty. JSON Lines is read a \
                batch at a time, so memory grows only with the keys written, not the records; the apollo-client form is \
                one JSON document and is read whole. --dry-run lists what would change (and keeps \
                it in memory, to compare later lines with).
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(
            help: ArgumentHelp("The export to read; - reads standard input.", valueName: "input"),
            completion: .file(extensions: ["jsonl", "json"]))
        var input: String

        @Option(help: "The input's form: auto (default), jsonl, or apollo-client.")
        var inputFormat: ImportForm = .auto

        @Flag(help: "Create the cache file (Apollo's current layout) when it does not exist or is empty (0 bytes); not beside a -journal or -wal file an earlier database left.")
        var create = false

        @Flag(help: "List what would change without writing.")
        var dryRun = false

        @OptionGroup var writing: WriteOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var display: DisplayOptions

        private static let batchSize = 1000

        func run(in context: CommandContext) throws {
            if input == "-" && context.stdinIsTerminal {
                throw CommandFailure(.usage, context.isREPLCommand
                    ? "standard input is the terminal the prompt reads; name the file to import"
                    : "standard input is a terminal; pipe an export in, or name the file to import")
            }
            // Standard input, or a pipe named as a file, is read whole before
            // the lock is taken (see FileLines.spoolingStandardInput): a dry
            // run's read lock too keeps the app from writing.
            let lines: LineSource = input == "-" ? try FileLines.spoolingStandardInput(context.stdin) : try FileLines.opening(path: input)
            let made = create && CreatedFile.isToBeMade(file.path)
            let wasEmpty = made && CacheStore.isEmptyFile(at: file.path)
            if !made { try CreatedFile.refuseMissing(file.path) }
            let reader = try ImportReader(name: JSONInput.name(of: input), lines: lines, form: inputFormat.exchangeForm)
            var report = ImportReport(form: reader.form, dryRun: dryRun, created: made)
            var merge = ImportMerge()
            var batches = BatchedMerge()
            func importAll(into tx: ReadTransaction?, writing: ReadWriteTransaction?) throws {
                while let batch = try reader.nextBatch(size: Self.batchSize) {
                    report.withoutFields += batch.count { $0.fields.isEmpty }
                    report.read += batch.count
                    do {
                        if let writing {
                            // The merge counts its own changes, against the records
                            // as they were before the first batch: the batch is loaded once.
                            try writing.mergeCounting(batch, across: &batches)
                        } else {
                            try merge.merge(batch, in: tx)
                        }
                    } catch CacheStoreError.damagedRecord(let key, let problem) {
                        // Apollo merges field by field; a record it cannot read takes no fields.
                        throw CommandFailure(
                            .damagedRecord,
                            "\(reader.place(of: key)): \(RecordChanges.damagedMergeMessage(key: key, problem: problem, in: file.path)); "
                                + "nothing imported (remove it first with: \(ShellQuoting.removal(of: key, in: file.path)))")
                    }
                }
                guard let writing else {
                    report.count(merge.changes)
                    return
                }
                try writing.endBatchedMerge(&batches)
                report.count(batches.count)
                // Records changed and changed back: the file is left as it
                // was, byte for byte, with no backup, as for no change at all.
                if batches.count.added + batches.count.changed == 0 { throw NothingChanged() }
            }
            struct NothingChanged: Error {}
            if dryRun {
                if made {
                    try CreatedFile.refuseLeftoverJournal(file.path)
                    try importAll(into: nil, writing: nil)
                } else {
                    try writing.openForDryRun(file, context).read { tx in try importAll(into: tx, writing: nil) }
                }
            } else if made, let store = try CreatedFile.make(file.path, context: context) {
                do {
                    try store.write { tx in try importAll(into: tx, writing: tx) }
                } catch is NothingChanged {
                    // A new file keeps its table, as an empty input leaves it.
                } catch {
                    // The file is this command's own: nothing half-done stays behind.
                    CreatedFile.undo(file.path, store: store, wasEmpty: wasEmpty)
                    throw error
                }
            } else {
                report.created = false
                do {
                    try writing.openForWriting(file, context).write { tx in try importAll(into: tx, writing: tx) }
                } catch is NothingChanged {}
            }
            if let warning = reader.repeatedMemberWarning { context.warn(warning) }
            if let warning = reader.repeatedEntityWarning { context.warn(warning) }
            if let warning = reader.clientFieldKeyWarning { context.warn(warning) }
            report.render(format: output.format, path: file.path, context: context)
        }
    }
}
