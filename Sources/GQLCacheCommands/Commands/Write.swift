import ArgumentParser
import CacheQuery
import CacheStore
import Foundation

extension GQLCache {
    /// `gqlcache write CACHE [OPERATION] --response FILE`: a network
    /// response normalized into the cache, as Apollo would store it.
    struct Write: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "write",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Normalize a network response for an operation into the cache, as Apollo iOS stores it.",
            discussion: """
                The response's data is split into records exactly as Apollo's normalizer does: fields \
                under their field cache keys, every object in a record of its own, reached by a \
                reference. An object is keyed TYPE:id when the schema's @typePolicy(keyFields:) or a \
                --key-field names its key fields (the app's cacheKeyInfo is not in the file, so say \
                --key-field '*=id' if the app keys every type by id; --key-group gives the app's unique \
                key group, Character:2001 for a Droid); otherwise it gets a path key such \
                as QUERY_ROOT.hero. Each object's __typename is stored even when the document does not \
                select it, as Apollo's generated models always select it, so an object without one is refused \
                (unless --schema gives its field an object type). Records are merged field by field; fields are never removed. Every \
                changed field is printed, and --dry-run prints them without writing. With --schema, \
                values (and each object's __typename) are type-checked first, as a read checks them (a number \
                fits a String or ID field, as Apollo's String decodes it), and nothing is written when \
                one does not fit. Reading the \
                operation back gives the response's data. A response to an operation with @defer is \
                written payload by payload, as Apollo writes it: the first without the deferred \
                fragments, each later one's parts at the key of their path from the root record.
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: "The operation the response answers, by name; optional when the documents hold just one.", completion: .custom(ShellCompletion.operations))
        var operation: String?

        @OptionGroup var documents: DocumentOptions

        @Option(
            help: ArgumentHelp(
                "The response as JSON: {\"data\": …}, the data object itself, or a later payload of a deferred response "
                    + "({\"incremental\": …}); - reads piped standard input.", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var response: String

        @Option(help: ArgumentHelp("Write the data as this fragment instead of an operation (needs --key).", valueName: "name"), completion: .custom(ShellCompletion.fragments))
        var fragment: String?

        @Option(help: ArgumentHelp("The record a fragment's data is written to, e.g. 'Droid:2001'.", valueName: "key"), completion: .custom(ShellCompletion.keys))
        var key: String?

        @OptionGroup var keyFields: KeyFieldOptions

        @Flag(help: "Create the cache file (Apollo's current layout) when it does not exist or is empty (0 bytes); not beside a -journal or -wal file an earlier database left.")
        var create = false

        @Flag(help: "Print what would change without writing.")
        var dryRun = false

        @OptionGroup var writing: WriteOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var display: DisplayOptions

        func validate() throws {
            try documents.requireDocuments(operation: operation)
            if fragment != nil && key == nil { throw ValidationError("--fragment needs --key, the record to write it to") }
            if key != nil && fragment == nil { throw ValidationError("--key goes with --fragment") }
            // Apollo never keys a record so, and export and import refuse one.
            if key == "" { throw ValidationError("--key is empty, which no Apollo cache key is") }
            if fragment != nil && operation != nil { throw ValidationError("give an operation or --fragment, not both") }
            if response == "-" && documents.variablesFile == "-" {
                throw ValidationError("--response and --variables-file cannot both read standard input (-)")
            }
        }

        func run(in context: CommandContext) throws {
            let loaded = try documents.load(context)
            try keyFields.check(against: loaded.schema)
            let input = try JSONInput.read(response, what: "response", context: context)
            var normalizer = ResponseNormalizer(document: loaded.document, schema: loaded.schema, keyPolicy: keyFields.policy)
            normalizer.numberForm = documents.numberForm
            let normalization: Normalization
            var isLaterPayload = false
            do {
                let operationDefinition = fragment == nil ? try loaded.document.operation(named: operation) : nil
                // `{ incremental { … } }` is answered by data that looks like a later payload.
                let rootNames = operationDefinition.map(loaded.document.rootResponseNames(of:)) ?? []
                if !JSONInput.isData(input, rootNames: rootNames), let parts = try JSONInput.incrementalParts(input, from: response) {
                    guard let definition = operationDefinition else {
                        throw CommandFailure(.usage, "\(JSONInput.name(of: response)): a later payload of a deferred response belongs to an "
                            + "operation, not to --fragment; nothing written")
                    }
                    context.warnOfUndefinedVariables(loaded.variables, in: definition)
                    isLaterPayload = true
                    normalization = try incremental(parts, of: definition, normalizer: normalizer, variables: loaded.variables, context: context)
                } else if let definition = operationDefinition {
                    let data = try JSONInput.responseData(input, from: response, rootNames: rootNames, context: context)
                    context.warnOfUndefinedVariables(loaded.variables, in: definition)
                    normalization = try normalizer.normalize(definition, data: data, variables: loaded.variables)
                } else if let fragment, let key {
                    let definition = try loaded.document.fragment(named: fragment)
                    // A root record holds no object of another type: at the REPL's
                    // first place, a forgotten --key would write a User's fields into QUERY_ROOT.
                    if CacheKey(key).isRoot && !CacheSchema.isRootType(definition.typeCondition, in: loaded.schema) {
                        throw CommandFailure(.usage, GQLCache.Read.notARootType(
                            key, definition.typeCondition, schema: loaded.schema, context: context, verb: "write") + "; nothing written")
                    }
                    context.warnOfVariablesNotGiven(loaded.variables, to: definition, in: loaded.document)
                    let data = try JSONInput.responseData(
                        input, from: response, rootNames: loaded.document.rootResponseNames(of: definition), context: context)
                    normalization = try normalizer.normalize(
                        definition, key: CacheKey(key), data: data, variables: loaded.variables,
                        keyHoldsTypename: holdsTypename(CacheKey(key), context: context))
                } else {
                    // validate() has made sure of it.
                    throw CommandFailure(.usage, "--fragment needs --key, the record to write it to")
                }
            } catch let error as QueryError {
                throw context.failure(error, command: "write")
            } catch let error as NormalizationError {
                let hint = fragment == nil ? JSONInput.errorHint(at: error.path, in: input) : ""
                throw CommandFailure(.usage, "\(JSONInput.name(of: response)): \(error)\(hint); nothing written")
            }
            var changes: RecordChanges
            var fieldsWrittenOtherwise: [CacheMiss] = []
            let toBeMade = create && CreatedFile.isToBeMade(file.path)
            let wasEmpty = toBeMade && CacheStore.isEmptyFile(at: file.path)
            if toBeMade && dryRun {
                // Into the cache --create would make: every record is new, and no file is made.
                try CreatedFile.refuseLeftoverJournal(file.path)
                changes = try RecordChanges.of(merging: normalization.records, in: nil, dryRun: true)
            } else if toBeMade, let store = try CreatedFile.make(file.path, context: context) {
                do {
                    changes = try RecordChanges.merging(into: store, dryRun: false) { _ in normalization.records }
                } catch {
                    CreatedFile.undo(file.path, store: store, wasEmpty: wasEmpty)
                    throw error
                }
            } else {
                try CreatedFile.refuseMissing(file.path)
                let store = dryRun ? try writing.openForDryRun(file, context) : try writing.openForWriting(file, context)
                // Twins: path-keyed copies of Type:id records, for a warning.
                changes = try RecordChanges.merging(into: store, dryRun: dryRun, findingTwins: true) { tx in
                    fieldsWrittenOtherwise = try Self.fieldsWrittenOtherwise(normalization.records, in: tx)
                    return normalization.records
                }
            }
            changes.leavesOutFragments = !normalization.typeConditionsNotApplied.isEmpty
            changes.render(format: output.format, context: context)
            for added in fieldsWrittenOtherwise {
                guard case .missingField(let fieldKey, let similar) = added.reason else { continue }
                context.warn("record '\(added.key.inMessage)' has no field '\(fieldKey)', which this write adds beside "
                    + similar.map { "'\($0)'" }.joined(separator: ", ")
                    + added.numberWritingSuffix(schemaGiven: loaded.schema != nil, form: documents.numberForm, reading: "this write", otherFormKnown: false))
            }
            if let fragment, let key {
                warnOfAnotherType(fragment: try loaded.document.fragment(named: fragment), key: CacheKey(key), changes: changes, schema: loaded.schema, context: context)
                context.warnOfRootIdentity(normalization.rootIdentityKey, writtenAt: CacheKey(key), dryRun: dryRun)
            }
            context.warnOfKeying(changes, dryRun: dryRun, normalizer: normalizer, unkeyed: normalization.unkeyed)
            context.warnOfTypeConditions(normalization.typeConditionsNotApplied, in: "write")
            context.warnOfUnknownEnumValues(normalization.unknownEnumValues, writing: true)
            context.warnOfOverwrittenFields(normalization.overwritten, dryRun: dryRun)
            context.warnOfDeferredNotWritten(normalization.deferredNotWritten, dryRun: dryRun)
            // Each payload of a deferred response is written with the same
            // flags, and a later one may well hold none of the keyed types.
            if !isLaterPayload {
                keyFields.warnOfTypesNotWritten(normalization.objectTypenames, schema: loaded.schema, context: context)
            }
        }

        /// The fields `records` add to a record that holds the same field
        /// written otherwise (`lng:-2.0` beside `lng:-2`), each as the miss a
        /// read of it would be: most often the number written as Apollo on the
        /// other platform writes it, where the write makes a second field.
        static func fieldsWrittenOtherwise(_ records: [Record], in tx: ReadTransaction) throws -> [CacheMiss] {
            let held = try tx.records(for: records.map(\.key))
            var found: [CacheMiss] = []
            for record in records {
                guard case .success(let existing)? = held[record.key] else { continue }
                for field in record.fields.keys.sorted(by: byteOrder) where existing.fields[field] == nil {
                    let alike = existing.fields.keys.filter { FieldKey.differOnlyInNumbers($0, field) }.sorted(by: byteOrder)
                    if !alike.isEmpty { found.append(CacheMiss(path: [], key: record.key, reason: .missingField(fieldKey: field, similar: alike))) }
                }
            }
            return found
        }

        /// The records of a later payload's parts, each written as Apollo
        /// writes one (see ``ResponseNormalizer/normalize(_:incremental:path:label:variables:)``),
        /// in order: a field two parts give takes the later part's value.
        private func incremental(
            _ parts: [JSONInput.IncrementalPart], of operation: CacheQuery.Operation, normalizer: ResponseNormalizer,
            variables: [String: InputValue], context: CommandContext
        ) throws -> Normalization {
            var combined: Normalization?
            for (index, part) in parts.enumerated() {
                let place = "incremental part \(index)"
                if !part.errors.isEmpty {
                    context.warn("\(JSONInput.name(of: response)): \(place) holds \(plural(part.errors.count, "error")) (\(part.errors.joined(separator: "; ")))"
                        + (part.data == nil ? " and no data; nothing of it is written" : "; its data is written as Apollo writes it, null where a field failed"))
                }
                guard let data = part.data else { continue }
                let normalization: Normalization
                do {
                    normalization = try normalizer.normalize(operation, incremental: data, path: part.path, label: part.label, variables: variables)
                } catch let error as NormalizationError {
                    throw CommandFailure(.usage, "\(JSONInput.name(of: response)): \(place): \(error); nothing written")
                }
                combined = combined.map { $0.adding(normalization) } ?? normalization
            }
            guard let combined else {
                throw CommandFailure(.usage, "\(JSONInput.name(of: response)): the payload's parts hold no data; nothing written")
            }
            return combined
        }

        /// Whether the record at `key` has a `__typename` (true when it
        /// cannot be read: its type is then left as it is).
        private func holdsTypename(_ key: CacheKey, context: CommandContext) -> Bool {
            if create && CreatedFile.isToBeMade(file.path) { return false }
            do {
                let record = try writing.openForReading(file, context).read { tx in try tx.record(for: key) }
                return record?.fields["__typename"] != nil
            } catch {
                return true
            }
        }

        /// A fragment written at a record of a type it is not on, as `read`
        /// and `update` warn of it, or data that changes the `__typename` of
        /// the record at `--key`: Apollo writes either, and most often the
        /// key is not the one meant.
        private func warnOfAnotherType(fragment: FragmentDefinition, key: CacheKey, changes: RecordChanges, schema: CacheSchema?, context: CommandContext) {
            let typenameChange = changes.typenameChange(at: key)
            let isNew = changes.records.first { $0.key == key }?.isNew == true
            let before = typenameChange.map(\.before) ?? (isNew ? nil : changes.typenames[key])
            guard let before else { return }
            if let schema, let mismatch = FragmentOnOtherType.of(fragment, at: key, typename: before, schema: schema) {
                context.warnOfFragmentOnOtherType(mismatch, writing: true)
            } else if let after = typenameChange?.after, after != before {
                context.warnOfTypenameChange(at: key, from: before, to: after, dryRun: dryRun)
            }
        }
    }
}
