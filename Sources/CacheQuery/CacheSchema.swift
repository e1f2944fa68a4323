import GraphQL

/// A schema (SDL) that makes reads schema-aware: abstract type conditions
/// resolve through possible types, Float inputs render as Apollo renders
/// them, and documents are validated with line and column.
///
/// Apollo's client directives (`@typePolicy`, `@fieldPolicy`,
/// `@apollo_client_ios_localCacheMutation`, `@import`) are declared for the
/// user when the SDL does not declare them; `extend type` works.
public struct CacheSchema: @unchecked Sendable {
    let schema: GraphQLSchema

    static let clientDirectives: [(name: String, declaration: String)] = [
        ("typePolicy", "directive @typePolicy(keyFields: String!) on OBJECT | INTERFACE"),
        ("fieldPolicy", "directive @fieldPolicy(forField: String!, keyArgs: String!) repeatable on OBJECT | INTERFACE"),
        ("apollo_client_ios_localCacheMutation",
         "directive @apollo_client_ios_localCacheMutation on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
        ("import", "directive @import(module: String!) repeatable on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
    ]

    /// Builds the schema from SDL text named `source` (a file name).
    public static func parse(sdl: String, source: String) throws -> CacheSchema {
        try parse([(source, sdl)])
    }

    /// Builds one schema from several SDL files read as one, so a file may
    /// `extend` a type another defines, in any order. An error names the file,
    /// and the line and column in it.
    ///
    /// ```swift
    /// let schema = try CacheSchema.parse([("schema.graphqls", base), ("search.graphqls", "extend type Query { … }")])
    /// ```
    public static func parse(_ sources: [(name: String, text: String)]) throws -> CacheSchema {
        let combined = CombinedSource(sources)
        let missing = clientDirectives.filter { !combined.text.contains("directive @\($0.name)") }
        let prelude = missing.map(\.declaration).joined(separator: "\n")
        do {
            let schema = try buildSchema(source: Source(body: combined.text + prelude, name: combined.names))
            return CacheSchema(schema: schema)
        } catch let error as GraphQLError {
            let place = error.firstPlace
            let location = combined.location(ofLine: place.line)
            throw QueryError.schema(source: location.name, line: location.line, column: place.column, message: error.oneLineMessage)
        }
    }

    /// Whether a record of `typename` takes a fragment on `typeCondition`:
    /// the same type, or an interface or union that has it as a possible type.
    func matches(typeCondition: String, typename: String?) -> Bool {
        guard let typename else { return false }
        if typeCondition == typename { return true }
        guard let abstract = schema.getType(name: typeCondition) as? GraphQLAbstractType,
            let concrete = schema.getType(name: typename)
        else { return false }
        return schema.isSubType(abstractType: abstract, maybeSubType: concrete)
    }

    /// The value as Apollo holds it for an input of `type`: an integer given
    /// for a Float becomes a double (rendered `-2.0`, not `-2`).
    func coerce(_ value: InputValue, to type: TypeReference) -> InputValue {
        switch (type, value) {
        case (.nonNull(let inner), _):
            return coerce(value, to: inner)
        case (.list(let inner), .list(let elements)):
            return .list(elements.map { coerce($0, to: inner) })
        case (.list(let inner), _):
            return coerce(value, to: inner)
        case (.named(let name), _):
            return coerce(value, toNamed: name)
        }
    }

    private func coerce(_ value: InputValue, toNamed name: String) -> InputValue {
        if name == "Float", case .int(let number) = value { return .float(Double(number)) }
        guard case .object(let members) = value, let object = schema.getType(name: name) as? GraphQLInputObjectType,
            let fields = try? object.fields()
        else { return value }
        var coerced = members
        for (member, memberValue) in members {
            if let field = fields[member] { coerced[member] = coerce(memberValue, toInput: field.type) }
        }
        return .object(coerced)
    }

    private func coerce(_ value: InputValue, toInput type: GraphQLInputType) -> InputValue {
        coerce(value, to: Self.reference(type))
    }

    static func reference(_ type: GraphQLType) -> TypeReference {
        if let nonNull = type as? GraphQLNonNull { return .nonNull(reference(nonNull.ofType)) }
        if let list = type as? GraphQLList { return .list(reference(list.ofType)) }
        return .named((type as? GraphQLNamedType)?.name ?? "")
    }

    /// Validation errors of the documents, each with its source, line and
    /// column. Fragments may be unused: Apollo projects keep them apart. An
    /// anonymous operation must be alone in its own source (one --text), not
    /// in all of them together.
    public func validate(_ document: QueryDocument) -> [QueryError] {
        let combined = CombinedSource(document.sources)
        guard let ast = try? GraphQL.parse(source: Source(body: combined.text, name: "documents")) else { return [] }
        let skipped: Set = [Self.noUnusedFragmentsRuleIndex, Self.loneAnonymousOperationRuleIndex]
        let rules = specifiedRules.enumerated().filter { !skipped.contains($0.offset) }.map(\.element)
        var problems = GraphQL.validate(schema: schema, ast: ast, rules: rules).map { error in
            let place = error.firstPlace
            let location = combined.location(ofLine: place.line)
            return QueryError.validation(source: location.name, line: location.line, column: place.column, message: error.message)
        }
        for source in document.sources {
            guard let ast = try? GraphQL.parse(source: Source(body: source.text, name: source.name)) else { continue }
            problems += GraphQL.validate(schema: schema, ast: ast, rules: [specifiedRules[Self.loneAnonymousOperationRuleIndex]]).map { error in
                let place = error.firstPlace
                return QueryError.validation(source: source.name, line: place.line, column: place.column, message: error.message)
            }
        }
        return problems
    }

    /// Places in `specifiedRules` (GraphQL 4.3.0, whose rules are internal
    /// and so can only be told apart by place; tests pin them).
    static let loneAnonymousOperationRuleIndex = 2
    static let noUnusedFragmentsRuleIndex = 10
}
