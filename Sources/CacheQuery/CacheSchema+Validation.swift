import GraphQL

extension CacheSchema {
    /// Validation errors of the documents, each with its source, line and
    /// column. Fragments may be unused: Apollo projects keep them apart. An
    /// anonymous operation must be alone in its own source (one --text), not
    /// in all of them together: ``QueryDocument/parse(_:)`` sees to that,
    /// source by source, with or without a schema.
    public func validate(_ document: QueryDocument) -> [QueryError] {
        let combined = CombinedSource(document.sources)
        guard let ast = try? GraphQL.parse(source: Source(body: combined.text, name: "documents")) else { return [] }
        let skipped: Set = [Self.noUnusedFragmentsRuleIndex, Self.loneAnonymousOperationRuleIndex]
        let rules = specifiedRules.enumerated().filter { !skipped.contains($0.offset) }
            .map { $0.offset == Self.knownArgumentNamesRuleIndex ? Self.knownArgumentNamesRule : $0.element } + [Self.int32LiteralRule]
        var found: [(place: (line: Int, column: Int), message: String)] = GraphQL.validate(schema: schema, ast: ast, rules: rules)
            .filter { !Self.isIntegerCalledNonInteger($0.message) }
            .map { ($0.firstPlace, $0.message) }
        // GraphQL's rules check no operation against a root type the schema
        // lacks: a subscription would only miss its root record.
        for case let operation as OperationDefinition in ast.definitions {
            let kind = operation.operation
            let root: GraphQLObjectType? =
                switch kind {
                case .query: schema.queryType
                case .mutation: schema.mutationType
                case .subscription: schema.subscriptionType
                }
            guard root == nil else { continue }
            let place = operation.loc?.place ?? SourcePlace(utf8Offset: 0, in: combined.text)
            found.append((
                (place.line, place.column),
                "the schema has no \(kind.rawValue) type, so a \(kind.rawValue) cannot be checked or read with it"))
        }
        // In the order of the text, as the rules find them rule by rule.
        return found.enumerated()
            .sorted { ($0.element.place.line, $0.element.place.column, $0.offset) < ($1.element.place.line, $1.element.place.column, $1.offset) }
            .map { problem in
                let location = combined.location(ofLine: problem.element.place.line)
                return QueryError.validation(
                    source: location.name, line: location.line, column: problem.element.place.column, message: problem.element.message)
            }
    }

    /// graphql-js, whose validation Apollo's codegen runs, takes an Int
    /// literal only within 32 bits, as the GraphQL spec's Int is; GraphQL
    /// 4.3.0 takes any that a Swift Int holds (a key `f(i:3000000000)` for
    /// an operation the app could not have), and calls a longer one a
    /// "non-integer value". This rule says it as graphql-js does.
    static let int32LiteralRule: @Sendable (ValidationContext) -> Visitor = { context in
        Visitor(enter: { node, _, _, _, _ in
            guard let literal = node as? IntValue, getNamedType(type: context.inputType)?.name == "Int" else { return .continue }
            if Int32(literal.value) != nil { return .continue }
            context.report(error: GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(literal.value)", nodes: [literal]))
            return .continue
        })
    }

    /// GraphQL 4.3.0's message for an Int literal beyond a Swift Int, which
    /// ``int32LiteralRule`` reports in its own words.
    static func isIntegerCalledNonInteger(_ message: String) -> Bool {
        let prefix = "Int cannot represent non-integer value: "
        guard message.hasPrefix(prefix) else { return false }
        let literal = message.dropFirst(prefix.count).drop { $0 == "-" }
        return !literal.isEmpty && literal.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Places in `specifiedRules` (GraphQL 4.3.0, whose rules are internal
    /// and so can only be told apart by place; tests pin them).
    static let loneAnonymousOperationRuleIndex = 2
    static let noUnusedFragmentsRuleIndex = 10
    static let knownArgumentNamesRuleIndex = 18
}
