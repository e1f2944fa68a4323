import ArgumentParser
import CacheQuery
import CacheStore

extension GQLCache {
    /// `gqlcache read CACHE [OPERATION]`: a typed read, as Apollo would read.
    struct Read: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Read a query, a mutation's stored result or a fragment exactly as Apollo iOS would.",
            discussion: """
                Field cache keys are computed from the document and the variables, references are \
                followed, and fragments apply by __typename; at the root, one on the root type applies \
                (Query, Mutation or Subscription, or the schema's), and with --schema one on an \
                interface or union the type belongs to. Without a schema, any other type condition \
                matches only that exact __typename, and a warning names each one that applied to no object. The data is printed in the operation's shape: pretty JSON \
                as text, one line with --format json or jsonl. A cache miss exits 1 and names the \
                response path, the record, the field key looked for and the keys of that field the \
                record does hold (or of one whose name is a slip away); an object whose record has no __typename misses too, as Apollo's \
                generated models select it. --partial prints the data found with a GraphQL-style "errors" list, \
                and exits 1 still when anything missed.
                """)

        @OptionGroup var file: CacheFileArgument

        @Argument(help: "The operation to read, by name; optional when the documents hold just one, or just one without a name (such as --text '{ … }').", completion: .custom(ShellCompletion.operations))
        var operation: String?

        @OptionGroup var documents: DocumentOptions

        @Option(help: ArgumentHelp("Read this fragment instead of an operation (needs --key).", valueName: "name"), completion: .custom(ShellCompletion.fragments))
        var fragment: String?

        @Option(help: ArgumentHelp("The record a fragment is read from, e.g. 'Droid:2001'.", valueName: "key"), completion: .custom(ShellCompletion.keys))
        var key: String?

        @Flag(help: "Print what was found, with every miss in \"errors\" and null in its place (also in a non-null field: no null propagates up, so nothing found is hidden), instead of stopping at the first miss.")
        var partial = false

        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        func validate() throws {
            try documents.requireDocuments(operation: operation)
            if fragment != nil && key == nil { throw ValidationError("--fragment needs --key, the record to read it from") }
            if key != nil && fragment == nil { throw ValidationError("--key goes with --fragment") }
            if fragment != nil && operation != nil { throw ValidationError("give an operation or --fragment, not both") }
        }

        func run(in context: CommandContext) throws {
            let loaded = try documents.load(context)
            let (document, schema, variables) = (loaded.document, loaded.schema, loaded.variables)
            let store = try reading.openForReading(file, context)
            let result: ReadResult = try store.read { tx in
                var reader = CacheReader(document: document, schema: schema, source: tx)
                reader.numberForm = documents.numberForm
                do {
                    if let fragment, let key {
                        let definition = try document.fragment(named: fragment)
                        context.warnOfVariablesNotGiven(variables, to: definition, in: document)
                        // A key with no record is named as show names it, with the nearest
                        // keys (with --partial, it is the miss in "errors").
                        guard try partial || tx.contains(CacheKey(key)) else {
                            throw CommandFailure(
                                .notFound, KeySuggestions.notFoundMessage(CacheKey(key), in: file.path, nearest: try tx.suggestions(for: CacheKey(key))))
                        }
                        return try reader.read(definition, key: CacheKey(key), variables: variables, partial: partial)
                    }
                    let definition = try document.operation(named: operation)
                    context.warnOfUndefinedVariables(variables, in: definition)
                    return try reader.read(definition, variables: variables, partial: partial)
                } catch let error as QueryError {
                    throw context.failure(error, command: "read")
                }
            }
            // Printed, the result is done with: the process's own run exits
            // without taking the time to free it.
            defer { context.keepUntilExit(result) }
            defer {
                if result.data != nil {
                    // Records without a type are named, with their conditions, on their own.
                    let untyped = result.untypedObjects?.typeConditions ?? []
                    let conditions = result.typeConditionsNotApplied.compactMap { condition in
                        guard untyped.contains(condition.typeCondition) else { return condition }
                        var typed = condition
                        typed.metObjectsWithoutTypename = false
                        return typed.typenames.isEmpty ? nil : typed
                    }
                    context.warnOfTypeConditions(conditions)
                    context.warnOfUntypedObjects(result.untypedObjects)
                }
                context.warnOfFragmentOnOtherType(result.fragmentOnOtherType)
                context.warnOfUnknownEnumValues(result.unknownEnumValues)
                if result.data != nil { context.warnOfPendingFragments(result.pendingFragments) }
            }
            let pretty = output.format == .text
            if partial {
                var members: [(String, JSONOutput)] = [("data", result.data.map(JSONOutput.response) ?? .null)]
                if !result.misses.isEmpty {
                    members.append(("errors", .array(result.misses.map { miss in
                        .object([("message", .string(miss.description + miss.numberWritingSuffix(schemaGiven: schema != nil, form: documents.numberForm))), ("path", .array(miss.path.map(\.json)))])
                    })))
                }
                context.print(JSONOutput.object(members).rendered(pretty: pretty))
                // The gravest status, whatever the order of the fields: a type error after a miss is still 6.
                if let gravest = result.misses.map(\.status).max(by: { $0.rawValue < $1.rawValue }) { throw CommandFailure(gravest, "") }
                return
            }
            guard let data = result.data else {
                var message = result.misses.first?.description ?? "cache miss"
                if let miss = result.misses.first, let hint = Self.rootRecordHint(
                    miss, fragment: fragment.flatMap { try? document.fragment(named: $0) }, key: key, schema: schema, context: context) {
                    message += hint
                } else if let miss = result.misses.first {
                    message += miss.numberWritingSuffix(schemaGiven: schema != nil, form: documents.numberForm)
                }
                throw CommandFailure(result.misses.first?.status ?? .notFound, message)
            }
            context.print(JSONOutput.response(data).rendered(pretty: pretty))
        }
    }
}

extension GQLCache.Read {
    /// A fragment read (or updated) at a root record, the REPL's first
    /// place, misses at its `__typename` first: what to add to the miss,
    /// which says why and where to read it instead. Nil for any other miss,
    /// and for a fragment on a root type, whose models select none.
    static func rootRecordHint(
        _ miss: CacheMiss, fragment: FragmentDefinition?, key: String?, schema: CacheSchema?, context: CommandContext, verb: String = "read"
    ) -> String? {
        guard let fragment, let key, CacheKey(key).isRoot, miss.path == [.field("__typename")],
              !CacheSchema.isRootType(fragment.typeCondition, in: schema) else { return nil }
        return ", which Apollo's generated models select in every object; "
            + notARootType(key, fragment.typeCondition, schema: schema, context: context, verb: verb)
    }

    /// "QUERY_ROOT is a root record, not a User: read the fragment at the
    /// key of one". Only a schema says the root types' names when they are
    /// not Query, Mutation and Subscription: without one, a type named like
    /// a root type (`RootQuery`, `QueryRoot`) is told to give it.
    static func notARootType(_ key: String, _ typeCondition: String, schema: CacheSchema?, context: CommandContext, verb: String) -> String {
        let rootLike = typeCondition.range(of: "query|mutation|subscription|root", options: [.regularExpression, .caseInsensitive]) != nil
        return "\(key) is a root record, not a \(typeCondition): \(verb) the fragment at the key of one"
            + (context.isREPLCommand ? " (cd to it, or give --key KEY)" : "")
            + (schema == nil && rootLike ? "; or, if \(typeCondition) is the schema's root type, give --schema, which says so" : "")
    }
}

extension QueryError {
    /// Every problem with the documents, the names asked for included, is
    /// a usage error: a mistyped operation name is a mistake on the command
    /// line, and a script must not take it for a cache miss (status 1).
    var status: ExitStatus { .usage }
}

extension CommandContext {
    /// The failure for a problem with the documents of `command` (read,
    /// update, write), said as it is typed where the command runs: at the
    /// REPL's prompt a fragment needs no --key (the record you are at is
    /// the one), and a query typed there takes its variables from the
    /// command that reads it again.
    func failure(_ error: QueryError, command: String) -> CommandFailure {
        switch error {
        case .missingVariable(let name, let operation) where readsQueryTypedAtPrompt:
            return CommandFailure(
                error.status, "operation '\(operation)' needs variable $\(name) (a non-null variable without a default); "
                    + "give it with '\(command) --var \(name)=VALUE', which \(command == "read" ? "reads" : "uses") the query typed last")
        case .noOperation(let source, let fragments) where isREPLCommand && !fragments.isEmpty:
            return CommandFailure(
                error.status, "\(source) hold no operation; for a fragment, give '\(command) --fragment NAME' (at the record you are at, "
                    + "or --key KEY) (fragments: \(fragments.joined(separator: ", ")))")
        default:
            return CommandFailure(error.status, error.description)
        }
    }
}

extension PathComponent {
    var json: JSONOutput {
        switch self {
        case .field(let name): return .string(name)
        case .index(let index): return .int(index)
        }
    }
}
