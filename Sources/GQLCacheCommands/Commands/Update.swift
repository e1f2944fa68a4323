import ArgumentParser
import CacheQuery
import CacheStore
import Foundation

extension GQLCache {
    /// `gqlcache update CACHE [OPERATION] --set path=value`: a local cache
    /// mutation, as Apollo's `ReadWriteTransaction.update` performs it.
    struct Update: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "update",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Change cached data through a local cache mutation, as Apollo iOS's update does.",
            discussion: """
                Only operations and fragments marked @apollo_client_ios_localCacheMutation may be written, \
                as in Apollo. The definition's data is read (an operation from its root record, \
                QUERY_ROOT for a query, a fragment from --key; with --schema a nullable field the record \
                lacks is left out, as Apollo's update leaves it, and may be set), changed with --set, replaced with --data, or edited in $VISUAL or $EDITOR with \
                --edit, and written back: only the selected fields (with __typename, as Apollo's \
                generated models carry it), merged field by field. Objects keep the records they were \
                read from; a new object is keyed by @typePolicy or --key-field, or else by its path. \
                Every changed field is printed; --dry-run prints them without writing. With --edit, \
                unchanged data writes nothing, and data that is not valid JSON or does not fit writes \
                nothing and keeps the edited text in a temporary file.
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: "The local cache mutation operation, by name; optional when the documents hold just one operation.", completion: .custom(ShellCompletion.operations))
        var operation: String?

        @OptionGroup var documents: DocumentOptions

        @Option(help: ArgumentHelp("Update through this fragment instead of an operation (needs --key).", valueName: "name"), completion: .custom(ShellCompletion.fragments))
        var fragment: String?

        @Option(help: ArgumentHelp("The record the fragment is read from and written to, e.g. 'Droid:2001'.", valueName: "key"), completion: .custom(ShellCompletion.keys))
        var key: String?

        @Option(
            name: .customLong("set"),
            help: ArgumentHelp(
                "Set the value at a path of response names and list indexes, e.g. hero.friends.0.name=Luke; the value is JSON when it parses as JSON, else a string, and a number or true/false where the data holds a string stays text (repeatable).",
                valueName: "path=value"))
        var assignments: [String] = []

        @Option(
            help: ArgumentHelp("The whole new data of the selection, as JSON; - reads piped standard input.", valueName: "file"),
            completion: .file(extensions: ["json"]))
        var data: String?

        @Flag(help: "Edit the current data in $VISUAL or $EDITOR and write it back when saved.")
        var edit = false

        @OptionGroup var keyFields: KeyFieldOptions

        @Flag(help: "Print what would change without writing.")
        var dryRun = false

        @OptionGroup var writing: WriteOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var display: DisplayOptions

        func validate() throws {
            try documents.requireDocuments(operation: operation)
            if fragment != nil && key == nil { throw ValidationError("--fragment needs --key, the record to update") }
            if key != nil && fragment == nil { throw ValidationError("--key goes with --fragment") }
            // Apollo never keys a record so, and export and import refuse one.
            if key == "" { throw ValidationError("--key is empty, which no Apollo cache key is") }
            if fragment != nil && operation != nil { throw ValidationError("give an operation or --fragment, not both") }
            let modes = [!assignments.isEmpty, data != nil, edit].filter { $0 }.count
            if modes == 0 { throw ValidationError("say what to change: --set PATH=VALUE, --data FILE or --edit") }
            if modes > 1 { throw ValidationError("give one of --set, --data and --edit") }
            if data == "-" && documents.variablesFile == "-" {
                throw ValidationError("--data and --variables-file cannot both read standard input (-)")
            }
            for assignment in assignments where !assignment.contains("=") {
                throw ValidationError("--set takes path=value, e.g. hero.name=R2-D2; got '\(assignment)'")
            }
            // Two values for one path: only the last would be written.
            try DocumentOptions.refuseTwoValues(in: assignments, of: "--set")
            // A path set after one inside it replaces what that one changed.
            let paths = assignments.map { $0.prefix { $0 != "=" }.split(separator: ".", omittingEmptySubsequences: false) }
            for (index, inner) in paths.enumerated() {
                if let outer = paths[(index + 1)...].first(where: { $0.count < inner.count && inner.starts(with: $0) }) {
                    let innerPath = inner.joined(separator: "."), outerPath = outer.joined(separator: ".")
                    throw ValidationError(
                        "--set \(outerPath) comes after --set \(innerPath) and replaces what it changed; set \(outerPath) first, or give the change in its value")
                }
            }
        }

        func run(in context: CommandContext) throws {
            let loaded = try documents.load(context)
            try keyFields.check(against: loaded.schema)
            let document = loaded.document.addingTypename(schema: loaded.schema)
            let target = try target(loaded, document: document, context: context)
            // Data a person edited: two aliases of one field, or two paths to one
            // object, that now disagree would keep only one (Apollo's rule),
            // and drop the change made to the other.
            var normalizer = ResponseNormalizer(
                document: document, schema: loaded.schema, keyPolicy: keyFields.policy, refusingConflicts: true,
                refusingUnselected: true)
            normalizer.numberForm = documents.numberForm
            // --edit reads the data twice: the warnings are said once.
            var warned = false
            // Enum values the schema lacks that the cache already held, which an update writes back unchanged.
            var enumValuesHeld: [UnknownEnumValue] = []
            func currentData(_ tx: ReadTransaction) throws -> ReadResult {
                // --data replaces everything, so what is missing now does not matter.
                var reader = CacheReader(document: document, schema: loaded.schema, source: tx)
                reader.numberForm = documents.numberForm
                let result = try target.read(reader, data != nil)
                enumValuesHeld = result.unknownEnumValues
                // A record of another type than the fragment's explains a miss too.
                if !warned { context.warnOfFragmentOnOtherType(result.fragmentOnOtherType, writing: true) }
                if data == nil, result.data == nil, let miss = result.misses.first {
                    // A fragment's key with no record is named as show and read name it, with the nearest keys.
                    if fragment != nil, let key, miss.path.isEmpty, case .missingRecord = miss.reason, try !tx.contains(CacheKey(key)) {
                        throw CommandFailure(
                            .notFound, KeySuggestions.notFoundMessage(CacheKey(key), in: file.path, nearest: try tx.suggestions(for: CacheKey(key))))
                    }
                    var message = "cannot update \(target.name): \(miss)"
                    let numberNote = miss.numberWritingSuffix(schemaGiven: loaded.schema != nil, form: documents.numberForm)
                    if !numberNote.isEmpty {
                        // The same field written otherwise, not one to leave out.
                        message += numberNote
                    } else if let hint = GQLCache.Read.rootRecordHint(
                        miss, fragment: fragment.flatMap { try? document.fragment(named: $0) }, key: key, schema: loaded.schema, context: context, verb: "update") {
                        message += hint
                    } else if case .typeMismatch(let problem) = miss.reason, problem.hasPrefix("field '__typename': ") {
                        // A record written with a __typename of null: the data given whole mends it.
                        message += " (so Apollo's update fails here too; give the whole data, __typename included, with --data)"
                    } else if case .missingField(let fieldKey, _) = miss.reason, loaded.schema == nil {
                        // Apollo goes on past a nullable one; only a schema says which those are.
                        // __typename is never nullable: its record was written without it.
                        message += fieldKey == "__typename"
                            ? " (so Apollo's update misses here too; "
                                + "give the whole data, __typename included, with --data)"
                            : " (Apollo's update leaves out a missing field of a nullable type: give --schema to do the same)"
                    }
                    throw CommandFailure(miss.status, message)
                }
                if data != nil || edit, !warned {
                    // --data writes a field key the record lacks beside the ones it
                    // has for the same field: most often the same arguments written
                    // otherwise (a Float argument Apollo writes -2.0, given as -2).
                    // With a schema such a field is left out as absent, not a miss.
                    for miss in result.misses + result.absentFieldMisses.keys.sorted().map({ result.absentFieldMisses[$0]! }) {
                        guard case .missingField(let fieldKey, let similar) = miss.reason else { continue }
                        let alike = similar.filter { FieldKey.differOnlyInNumbers($0, fieldKey) }
                        guard !alike.isEmpty else { continue }
                        context.warn(
                            "record '\(miss.key.inMessage)' has no field '\(fieldKey)', which \(data != nil ? "--data adds" : "an edit that sets it adds") beside "
                                + alike.map { "'\($0)'" }.joined(separator: ", ")
                                + miss.numberWritingSuffix(schemaGiven: loaded.schema != nil, form: documents.numberForm))
                    }
                }
                // The fields of a fragment that applied to nothing can be
                // neither read nor written: say so, as read does.
                if !warned { context.warnOfTypeConditions(result.typeConditionsNotApplied, in: "update") }
                // Its fields are not in the data, and are not written back.
                if !warned, data == nil { context.warnOfPendingFragments(result.pendingFragments) }
                warned = true
                return result
            }
            // Known once data was normalized (an edit left unsaved writes none).
            var writtenTypenames: Set<String>?
            var rootIdentityKey: CacheKey?
            var keptWithoutID: [KeptObject] = []
            var unkeyedObjects: [UnkeyedObject] = []
            var newEnumValues: [UnknownEnumValue] = []
            func records(for data: FieldValue, existing: ExistingObjects, origin: String, keptIn kept: String? = nil) throws -> [Record] {
                do {
                    let normalization = try target.normalize(normalizer, data, existing)
                    writtenTypenames = normalization.objectTypenames
                    rootIdentityKey = normalization.rootIdentityKey
                    keptWithoutID = normalization.keptWithoutID
                    unkeyedObjects = normalization.unkeyed
                    newEnumValues = normalization.unknownEnumValues.filter { !enumValuesHeld.contains($0) }
                    return normalization.records
                } catch let error as NormalizationError {
                    throw CommandFailure(.usage, "\(origin): \(error); nothing written" + (kept.map { "; your edit is kept in \($0)" } ?? ""))
                }
            }

            if edit {
                let changes = try runEditor(
                    context: context, target: target, checkingLeaves: loaded.schema == nil, currentData: currentData,
                    records: records)
                if let changes {
                    context.warnOfKeying(changes, dryRun: dryRun, normalizer: normalizer, unkeyed: unkeyedObjects)
                }
                if let changes, !changes.records.isEmpty { context.warnOfObjectsKeptWithoutID(keptWithoutID, dryRun: dryRun) }
                if let changes { warnOfRootNamingAnother(changes, identityKey: rootIdentityKey, context: context) }
                if changes != nil { context.warnOfUnknownEnumValues(newEnumValues, writing: true) }
                if let writtenTypenames { keyFields.warnOfTypesNotWritten(writtenTypenames, schema: loaded.schema, context: context) }
                return
            }
            // Read before the file is opened: standard input may take its
            // time, and the write lock held meanwhile would fail the app's writes.
            let dataInput = try data.map { try JSONInput.read($0, what: "data", context: context) }
            // Said once the change is made: a schema that types the field
            // refuses such text first, and then no warning is due.
            var textWarnings: [String] = []
            let newData: (ReadResult) throws -> (FieldValue, String) = { current in
                if let data, let input = dataInput {
                    return (try JSONInput.responseData(input, from: data, rootNames: target.rootNames, context: context), JSONInput.name(of: data))
                }
                var value = current.data ?? .null
                for assignment in assignments {
                    let path = String(assignment.prefix { $0 != "=" })
                    let text = String(assignment.dropFirst(path.count + 1))
                    let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                    let parsed: FieldValue?
                    var warned = false
                    do {
                        parsed = try FieldValue(jsonText: text)
                    } catch let error as CacheStoreError {
                        // JSON in form, but deeper than Apollo reads: refused as a record nested so deep is.
                        if error.isJSONNestedTooDeep, case .invalidJSON(let offset, let message) = error {
                            throw CommandFailure(.usage, "--set \(path): the value has \(message) (at byte \(offset + 1)), "
                                + "which Apollo's JSON reader refuses; nothing written")
                        }
                        parsed = nil
                        // `meta={"a":1` (a brace left out) is a typo more often than the text meant.
                        if case .invalidJSON = error, let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[" {
                            textWarnings.append("--set \(path): \(FieldValue.string(text).shownOnLine) begins as JSON but is not (\(error)), "
                                + "so it is written as a string; give it as a JSON string (\"…\") to mean the text")
                            warned = true
                        }
                    }
                    var newValue = parsed ?? .string(text)
                    // `name=123` where the data holds a string means the text,
                    // as --var keeps it for a String or ID.
                    if case .scalar(.string) = value.value(at: components) {
                        switch newValue {
                        case .int, .double, .number, .bool: newValue = .string(text)
                        default: break
                        }
                    }
                    // `likes=1O` (a letter O) where the data holds a number is
                    // text, not JSON: where no schema refuses it (none given,
                    // or inside a custom scalar), say so, as the app's Int
                    // decoding would then fail on it.
                    if parsed == nil, !warned, case .scalar(let held) = value.value(at: components) {
                        switch held {
                        case .int, .double, .number, .bool:
                            let kind: String
                            if case .bool = held { kind = "Boolean" } else { kind = "number" }
                            textWarnings.append("--set \(path): \(FieldValue.string(text).shownOnLine) is not JSON, "
                                + "so it is written as a string where the data holds \(JSONWriter.string(for: held, asStored: false)); "
                                + "the app's model reads that field as a \(kind), so check the value")
                        default: break
                        }
                    }
                    do {
                        value = try value.setting(components, to: ResponseValue(newValue), absent: current.absentFields)
                    } catch let error as DataPathError {
                        // A path through a field the cache lacks is a miss, as a read's (status 1).
                        var message = "--set \(path): \(error)"
                        // A field left out as absent: the field cache key looked for, as a read's miss names it.
                        if error.isCacheMiss, let absent = current.absentFieldMisses.first(where: { path.hasPrefix($0.key + ".") })?.value {
                            // The field written otherwise (a cache from a device): to set it whole would add a second one.
                            let numberNote = absent.numberWritingSuffix(schemaGiven: loaded.schema != nil, form: documents.numberForm)
                            // With its variable given it may be there: to set it whole would add a second one.
                            let givenOtherwise = absent.mayMissForAbsentVariables
                            message = "--set \(path): \(absent.pathText) is not in the cache (\(absent.whatIsMissing))"
                                + (!numberNote.isEmpty ? numberNote : givenOtherwise ? "" : "; set it whole (--set \(absent.pathText)=…)")
                        }
                        // A field of a pending deferred fragment is not in the data to set.
                        let parent = components.dropLast().joined(separator: ".")
                        if !error.isCacheMiss, let pending = current.pendingFragments.first(where: {
                            $0.path.isEmpty || parent == $0.path || parent.hasPrefix($0.path + ".")
                        }) {
                            message += "; \(CommandContext.deferredFragment(pending.label, at: pending.path)) is pending (\(pending.miss)), "
                                + "and Apollo's update cannot set the fields of a pending fragment"
                        } else if !error.isCacheMiss, !current.typeConditionsNotApplied.isEmpty {
                            // The field may be under a fragment that applied to nothing (the warning above).
                            let conditions = current.typeConditionsNotApplied.map { "'\($0.typeCondition)'" }.joined(separator: ", ")
                            message += "; if it is selected in fragments on \(conditions), which applied to no object, give --schema"
                        }
                        throw CommandFailure(error.isCacheMiss ? .notFound : .usage, "\(message); nothing written")
                    }
                }
                return (value.fieldValue, "--set")
            }
            let store = dryRun ? try writing.openForDryRun(file, context) : try writing.openForWriting(file, context)
            let body: (ReadTransaction) throws -> [Record] = { tx in
                let current = try currentData(tx)
                let (value, origin) = try newData(current)
                if let problem = current.data?.problem(writing: value, absent: current.absentFields, checkingLeaves: loaded.schema == nil) {
                    throw CommandFailure(.usage, "\(origin): \(problem); nothing written")
                }
                var existing = current.existingObjects
                // Values set at paths change elements where they are: none moves.
                existing.elementsStayInPlace = origin == "--set"
                return try records(for: value, existing: existing, origin: origin)
            }
            let changes = try RecordChanges.merging(into: store, dryRun: dryRun, findingTwins: true, body)
            changes.render(format: output.format, context: context)
            textWarnings.forEach(context.warn)
            context.warnOfKeying(changes, dryRun: dryRun, normalizer: normalizer, unkeyed: unkeyedObjects)
            if !changes.records.isEmpty { context.warnOfObjectsKeptWithoutID(keptWithoutID, dryRun: dryRun) }
            warnOfRootNamingAnother(changes, identityKey: rootIdentityKey, context: context)
            context.warnOfUnknownEnumValues(newEnumValues, writing: true)
            if let writtenTypenames { keyFields.warnOfTypesNotWritten(writtenTypenames, schema: loaded.schema, context: context) }
        }

        /// A fragment's data changed to name another object than the record
        /// at --key holds (a new __typename, or key fields giving another
        /// key): Apollo's update writes it at that key all the same.
        private func warnOfRootNamingAnother(_ changes: RecordChanges, identityKey: CacheKey?, context: CommandContext) {
            guard fragment != nil, let key else { return }
            if let change = changes.typenameChange(at: CacheKey(key)), let before = change.before, let after = change.after, before != after {
                context.warnOfTypenameChange(at: CacheKey(key), from: before, to: after, dryRun: dryRun)
            }
            context.warnOfRootIdentity(identityKey, writtenAt: CacheKey(key), dryRun: dryRun)
        }
    }
}
