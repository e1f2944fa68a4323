import GraphQL

/// GraphQL's rules checked without a schema, each at the place it names.
///
/// A name is given once: a variable declared twice, an argument or an
/// input object field given twice, `@include`, `@skip` or `@defer` twice on
/// one selection, `@apollo_client_ios_localCacheMutation` twice or with an
/// argument, which Apollo declares without one. Apollo's code generator
/// refuses such a document; read without a schema, the last value would
/// quietly win and the read would look for another field than the one the
/// first names (`hero(episode: NEWHOPE, episode: JEDI)`). A schema's
/// validation says so too, in its own words. The response name
/// `__typename` is taken too: Apollo's code generator selects `__typename`
/// in every model, and refuses another field aliased to it.
///
/// A literal is one the app's generated operation can hold: a number
/// within a Double (`1e400` would be keyed `inf`, which no Apollo build
/// writes), and a variable's default of its declared built-in type
/// (`$n: Int = "x"`), which would otherwise be refused at the read as an
/// invalid variable that nobody gave.
enum SchemalessCheck {
    /// Directives given at most once in one place: GraphQL's, and Apollo's
    /// local cache mutation marker.
    private static let unrepeatable: Set<String> = ["include", "skip", "defer", "apollo_client_ios_localCacheMutation"]

    /// Where GraphQL's directives, and Apollo's marker, may stand
    /// (graphql-js and Apollo's codegen schema extension declare them so):
    /// elsewhere a schema's validation refuses them, and without one
    /// `@skip` on an operation would be passed over as if it skipped nothing.
    private static let allowedLocations: [String: Set<String>] = [
        "include": ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"],
        "skip": ["FIELD", "FRAGMENT_SPREAD", "INLINE_FRAGMENT"],
        "defer": ["FRAGMENT_SPREAD", "INLINE_FRAGMENT"],
        "apollo_client_ios_localCacheMutation": ["QUERY", "MUTATION", "SUBSCRIPTION", "FRAGMENT_DEFINITION"],
    ]

    /// Throws ``QueryError/validation(source:line:column:message:)`` for
    /// the first name given twice in `definition`, at the second, or the
    /// first literal it cannot hold. The first directive out of its place
    /// goes to `misplaced`, when that holds none yet: it counts only where
    /// no schema is given, as a schema may declare `@defer` or Apollo's
    /// marker itself, with other places, and its validation says where.
    static func check(_ definition: Definition, source: String, misplaced: inout QueryError?) throws {
        func problem(_ node: Node, _ message: String) -> QueryError {
            let place = node.loc?.place
            return .validation(source: source, line: place?.line ?? 0, column: place?.column ?? 0, message: message)
        }
        func checkValue(_ value: Value) throws {
            // An IntValue too: digits past Int64 are read as a Double.
            let number = (value as? IntValue)?.value ?? (value as? FloatValue)?.value
            if let number, !(Double(number)?.isFinite ?? false) {
                throw problem(value, "\(number.shortenedForMessage) is a number beyond a Double, which Apollo's JSON cannot hold")
            }
            if let object = value as? ObjectValue {
                var seen: Set<String> = []
                for field in object.fields {
                    guard seen.insert(field.name.value).inserted else {
                        throw problem(field, "input field '\(field.name.value)' is given twice in one object")
                    }
                    try checkValue(field.value)
                }
            } else if let list = value as? ListValue {
                try list.values.forEach(checkValue)
            }
        }
        func checkArguments(_ arguments: [Argument], of owner: String) throws {
            var seen: Set<String> = []
            for argument in arguments {
                guard seen.insert(argument.name.value).inserted else {
                    throw problem(argument, "argument '\(argument.name.value)' is given twice to \(owner)")
                }
                try checkValue(argument.value)
            }
        }
        func checkDirectives(_ directives: [Directive], on location: String) throws {
            var seen: Set<String> = []
            for directive in directives {
                let name = directive.name.value
                if misplaced == nil, let allowed = allowedLocations[name], !allowed.contains(location) {
                    // In the words of a schema's validation.
                    misplaced = problem(directive, "Directive \"@\(name)\" may not be used on \(location).")
                }
                if unrepeatable.contains(name) && !seen.insert(name).inserted {
                    throw problem(directive, "@\(name) is given twice in one place; give it once")
                }
                // Apollo declares it without arguments, and its code generator refuses any.
                if name == "apollo_client_ios_localCacheMutation", let argument = directive.arguments.first {
                    throw problem(argument, "@\(name) takes no arguments")
                }
                try checkArguments(directive.arguments, of: "@\(name)")
            }
        }
        func checkSet(_ set: SelectionSet) throws {
            for selection in set.selections {
                if let field = selection as? Field {
                    // Without a schema its value would be taken for the object's type, and key it.
                    if field.alias?.value == "__typename", field.name.value != "__typename" {
                        throw problem(field, "'__typename: \(field.name.value)' gives another field the response name __typename, "
                            + "which Apollo's generated models keep for the object's type; Apollo's code generator refuses it")
                    }
                    try checkArguments(field.arguments, of: "'\(field.name.value)'")
                    try checkDirectives(field.directives, on: "FIELD")
                    if let inner = field.selectionSet { try checkSet(inner) }
                } else if let inline = selection as? InlineFragment {
                    try checkDirectives(inline.directives, on: "INLINE_FRAGMENT")
                    try checkSet(inline.selectionSet)
                } else if let spread = selection as? FragmentSpread {
                    try checkDirectives(spread.directives, on: "FRAGMENT_SPREAD")
                }
            }
        }
        // Enums, input objects and custom scalars are left to a schema.
        func checkDefault(_ value: Value, of variable: GraphQL.VariableDefinition) throws {
            // A literal is no JSON: GraphQL's Int and ID take no Float literal, even a whole one (`1.0`).
            func checkFloat(_ value: Value, _ type: TypeReference, path: String) throws {
                switch type {
                case .nonNull(let inner): try checkFloat(value, inner, path: path)
                case .list(let inner):
                    guard let list = value as? ListValue else { return try checkFloat(value, inner, path: path) }
                    for (index, element) in list.values.enumerated() { try checkFloat(element, inner, path: path + "[\(index)]") }
                case .named(let name):
                    if name == "Int" || name == "ID", let float = value as? FloatValue {
                        throw problem(value, "the default of $\(variable.variable.name.value)\(path): expected \(name), found \(float.value)")
                    }
                }
            }
            try checkFloat(value, ASTConversion.typeReference(variable.type), path: "")
            let given = VariableScope(values: [:]).resolve(ASTConversion.value(value)) ?? .null
            do {
                _ = try VariableCoercion(schema: nil).coerce(given, to: ASTConversion.typeReference(variable.type))
            } catch {
                throw problem(value, "the default of $\(variable.variable.name.value)\(error.path): \(error.message)")
            }
        }
        if let operation = definition as? OperationDefinition {
            var declared: Set<String> = []
            for variable in operation.variableDefinitions {
                guard declared.insert(variable.variable.name.value).inserted else {
                    throw problem(variable, "$\(variable.variable.name.value) is declared twice")
                }
                if let value = variable.defaultValue {
                    try checkValue(value)
                    try checkDefault(value, of: variable)
                }
                try checkDirectives(variable.directives, on: "VARIABLE_DEFINITION")
            }
            try checkDirectives(operation.directives, on: operation.operation.rawValue.uppercased())
            try checkSet(operation.selectionSet)
        } else if let fragment = definition as? GraphQL.FragmentDefinition {
            try checkDirectives(fragment.directives, on: "FRAGMENT_DEFINITION")
            try checkSet(fragment.selectionSet)
        }
    }
}
