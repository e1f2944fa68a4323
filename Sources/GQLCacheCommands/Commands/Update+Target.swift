import CacheQuery
import CacheStore

/// The operation or fragment update writes through, which must be a local
/// cache mutation.
extension GQLCache.Update {
    /// The definition being written, and how to read and write it.
    struct Target {
        let name: String
        let read: (CacheReader, Bool) throws -> ReadResult
        let normalize: (ResponseNormalizer, FieldValue, ExistingObjects) throws -> Normalization
        /// The response names the data may hold at its top level.
        let rootNames: Set<String>
    }

    func target(_ loaded: LoadedDocuments, document: QueryDocument, context: CommandContext) throws -> Target {
        let variables = loaded.variables
        do {
            if let fragment, let key {
                let definition = try document.fragment(named: fragment)
                try requireLocalCacheMutation(definition.directives, "fragment", definition.name, example: "fragment \(definition.name) on \(definition.typeCondition) @apollo_client_ios_localCacheMutation { … }")
                context.warnOfVariablesNotGiven(variables, to: definition, in: document)
                return Target(
                    name: "fragment \(definition.name) at \(key)",
                    read: { reader, partial in try reader.read(definition, key: CacheKey(key), variables: variables, partial: partial, forUpdate: true) },
                    normalize: { normalizer, data, existing in
                        try normalizer.normalize(definition, key: CacheKey(key), data: data, variables: variables, existing: existing)
                    },
                    rootNames: document.rootResponseNames(of: definition))
            }
            let definition = try document.operation(named: operation)
            context.warnOfUndefinedVariables(variables, in: definition)
            let name = definition.name ?? "(anonymous)"
            // Apollo declares the directive on queries, mutations and
            // subscriptions alike; a marked mutation updates MUTATION_ROOT.
            try requireLocalCacheMutation(definition.directives, definition.kind.rawValue, name, example: "\(definition.kind.rawValue) \(definition.name ?? "Name") @apollo_client_ios_localCacheMutation { … }")
            return Target(
                name: "\(definition.kind.rawValue) \(name)",
                read: { reader, partial in try reader.read(definition, variables: variables, partial: partial, forUpdate: true) },
                normalize: { normalizer, data, existing in
                    try normalizer.normalize(definition, data: data, variables: variables, existing: existing, deferredFragments: .whereGiven)
                },
                rootNames: document.rootResponseNames(of: definition))
        } catch let error as QueryError {
            throw context.failure(error, command: "update")
        }
    }

    private func requireLocalCacheMutation(_ directives: [String], _ kind: String, _ name: String, example: String) throws {
        let marker = QueryDocument.localCacheMutationDirective
        guard !directives.contains(marker) else { return }
        if let slip = QueryDocument.misspelledLocalCacheMutation(among: directives) {
            throw CommandFailure(
                .usage,
                "\(kind) '\(name)' is not a local cache mutation: it is marked @\(slip), not @\(marker)"
                    + (slip.lowercased() == marker.lowercased() ? " (directive names are case-sensitive)" : ""))
        }
        throw CommandFailure(
            .usage,
            "\(kind) '\(name)' is not a local cache mutation: Apollo only lets definitions marked "
                + "@apollo_client_ios_localCacheMutation write to the cache, and so does gqlcache; "
                + "mark it as in '\(example)'")
    }
}
