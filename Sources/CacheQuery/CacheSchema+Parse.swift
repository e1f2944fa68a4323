import GraphQL

extension CacheSchema {
    static let clientDirectives: [(name: String, declaration: String)] = [
        ("typePolicy", "directive @typePolicy(keyFields: String!) on OBJECT | INTERFACE"),
        ("fieldPolicy", "directive @fieldPolicy(forField: String!, keyArgs: String!) repeatable on OBJECT | INTERFACE"),
        ("apollo_client_ios_localCacheMutation",
         "directive @apollo_client_ios_localCacheMutation on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
        ("import", "directive @import(module: String!) repeatable on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
        // Apollo iOS codegen adds @defer to the schema it is given; a
        // deferred fragment is read from the cache as any other is.
        ("defer", "directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT"),
    ]

    /// Builds the schema from SDL text named `source` (a file name).
    public static func parse(sdl: String, source: String) throws -> CacheSchema {
        try parse([(source, sdl)])
    }

    /// Builds one schema from several SDL files read as one, so a file may
    /// `extend` a type another defines, in any order. An error names the file,
    /// and the line and column in it. A file may also be an introspection
    /// result (JSON), read as the SDL of its types.
    ///
    /// ```swift
    /// let schema = try CacheSchema.parse([("schema.graphqls", base), ("search.graphqls", "extend type Query { … }")])
    /// ```
    public static func parse(_ sources: [(name: String, text: String)]) throws -> CacheSchema {
        // An introspection result (schema.json) is read as the SDL it describes.
        let sources = try sources.map { name, text in
            (name: name, text: IntrospectionSchema.isJSON(text) ? try IntrospectionSchema.sdl(fromJSON: text, source: name) : text)
        }
        // The directives the files declare, by name: a client directive
        // they do not declare (Apollo's codegen knows them) is declared after them.
        var declared: Set<String> = []
        for (name, text) in sources {
            // Each file parsed alone first: joined, a brace left open at the
            // end of one file would be reported in the next, or in the
            // directives declared after them all.
            let document = try NestingLimit.parse(text, name: name) { QueryError.schema(source: name, line: $0, column: $1, message: $2) }
            // An operations file given as the schema: the schema builder
            // would only say that a type such as Int is unknown.
            if let executable = document.definitions.first(where: { $0 is OperationDefinition || $0 is GraphQL.FragmentDefinition }) {
                let place = executable.loc?.place ?? SourcePlace(utf8Offset: 0, in: text)
                let what = executable is OperationDefinition ? "an operation" : "a fragment"
                throw QueryError.schema(
                    source: name, line: place.line, column: place.column,
                    message: "this is \(what), not a type definition: a schema file holds types (SDL) or an introspection result; "
                        + "give operations with --document")
            }
            declared.formUnion(document.definitions.compactMap { ($0 as? DirectiveDefinition)?.name.value })
        }
        let combined = CombinedSource(sources)
        let missing = clientDirectives.filter { !declared.contains($0.name) }
        let prelude = missing.map(\.declaration).joined(separator: "\n")
        do {
            let schema = try buildSchema(source: Source(body: combined.text + prelude, name: combined.names))
            // What a server would refuse to start with: no Query type, a
            // type without fields, an interface wrongly implemented.
            if let problem = validateSchema(schema: schema).first { throw problem }
            try checkTypePolicies(of: schema)
            return CacheSchema(schema: schema)
        } catch let error as GraphQLError {
            var place = error.firstPlace
            if place.line == 0, let found = Self.placeOfUnknownType(in: error.message, text: combined.text)
                ?? Self.placeOfDuplicateType(in: error.message, text: combined.text)
                ?? Self.placeOfUndefinedExtension(in: error.message, text: combined.text)
            {
                place = found
            }
            let location = combined.location(ofLine: place.line)
            throw QueryError.schema(source: location.name, line: location.line, column: place.column, message: error.oneLineMessage)
        }
    }
}
