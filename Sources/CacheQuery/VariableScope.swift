/// The variables of one read: those given, and the operation's defaults.
struct VariableScope: Sendable {
    let values: [String: InputValue]
    /// How field keys write a Float nested in their arguments.
    var numberForm = NumberForm.linux

    /// Checks the given values against the operation's definitions: a
    /// default applies when a variable is not given; a non-null variable
    /// without either is an error.
    init(given: [String: InputValue], definitions: [VariableDefinition], operationName: String, schema: CacheSchema? = nil) throws {
        var values = given
        for definition in definitions where values[definition.name] == nil {
            if let defaultValue = definition.defaultValue {
                values[definition.name] = VariableScope(values: [:]).resolve(defaultValue)
            } else if definition.isNonNull {
                throw QueryError.missingVariable(definition.name, operation: operationName)
            }
        }
        // Given values and defaults alike, as the app's generated operation
        // holds them (a Float default of -2 is the Double -2.0).
        let coercion = VariableCoercion(schema: schema)
        for definition in definitions {
            guard let value = values[definition.name] else { continue }
            do {
                try VariableCoercion.checkFinite(value)
                values[definition.name] = try coercion.coerce(value, to: definition.type)
            } catch {
                throw QueryError.invalidVariables("$\(definition.name)\(error.path): \(error.message)")
            }
        }
        self.values = values
    }

    init(values: [String: InputValue]) { self.values = values }

    /// The value with variables substituted; nil when it is an absent
    /// variable (Apollo then leaves the argument out of the field key). In
    /// an input object an absent member is left out, and so is an absent
    /// element of a list: Apollo evaluates both with compactMap, so
    /// `[1, $x]` without `$x` is `[1]`, not `[1, null]`.
    func resolve(_ node: ValueNode) -> InputValue? {
        switch node {
        case .variable(let name): return values[name]
        case .null: return .null
        case .int(let text): return Int64(text).map(InputValue.int) ?? Double(text).map(InputValue.float) ?? .string(text)
        case .float(let text): return Double(text).map(InputValue.float) ?? .string(text)
        case .string(let text): return .string(text)
        case .boolean(let flag): return .boolean(flag)
        case .enumValue(let name): return .enumValue(name)
        case .list(let elements): return .list(elements.compactMap { resolve($0) })
        case .object(let members):
            var object: [String: InputValue] = [:]
            for (name, value) in members {
                if let resolved = resolve(value) { object[name] = resolved }
            }
            return .object(object)
        }
    }

    /// The variables, not given, that a field's arguments are: Apollo
    /// leaves those arguments out of its key.
    func absentVariables(of field: FieldSelection) -> [String] {
        field.arguments.compactMap { _, value in
            guard case .variable(let name) = value, values[name] == nil else { return nil }
            return name
        }
    }

    /// The arguments of a field, resolved; absent variables dropped.
    func arguments(of field: FieldSelection) -> [String: InputValue] {
        var arguments: [String: InputValue] = [:]
        for (name, value) in field.arguments {
            if let resolved = resolve(value) { arguments[name] = resolved }
        }
        return arguments
    }

    /// Throws ``QueryError/invalidVariables(_:)`` when an `@include` or
    /// `@skip` of `selections` (or of the fragments they spread) takes its
    /// `if` from a variable that is not given or not a Boolean: GraphQL
    /// refuses such a request, where reading it as false would quietly drop
    /// or keep a field.
    func checkConditions(in selections: [Selection], document: QueryDocument) throws {
        try document.forEachSelection(in: selections) { selection in
            let conditions: [(directive: String, value: ValueNode)]
            switch selection {
            case .field(let field): conditions = field.conditions.map { ($0.include ? "@include" : "@skip", $0.value) }
            case .inlineFragment(_, let own, _), .fragmentSpread(_, let own):
                conditions = own.map { ($0.include ? "@include" : "@skip", $0.value) }
            case .deferred(let deferral, _): conditions = deferral.condition.map { [("@defer", $0)] } ?? []
            }
            for (directive, value) in conditions {
                guard case .variable(let name) = value else { continue }
                switch values[name] {
                case .boolean?: continue
                case nil:
                    throw QueryError.invalidVariables("$\(name) is not given, and \(directive)(if: $\(name)) needs a Boolean")
                case let value?:
                    throw QueryError.invalidVariables("$\(name): \(directive)(if:) needs a Boolean, found \(value.shown)")
                }
            }
        }
    }

    /// Whether `@defer` defers its fragment: unless its `if:` is false.
    func isDeferred(_ deferral: Deferral) -> Bool {
        guard let condition = deferral.condition else { return true }
        if case .boolean(let flag)? = resolve(condition) { return flag }
        return true
    }

    /// Whether `@include` / `@skip` keep a selection.
    func isIncluded(_ conditions: [Condition]) -> Bool {
        conditions.allSatisfy { condition in
            let value: Bool
            if case .boolean(let flag)? = resolve(condition.value) { value = flag } else { value = false }
            return condition.include ? value : !value
        }
    }
}

extension QueryDocument {
    /// The types of the variables a fragment uses, which it does not
    /// declare, by where the schema says each one is used: a field's
    /// argument, or a member of an input object or an element of a list
    /// inside one (the first place found, for a name used at several).
    public func variableTypes(in fragment: FragmentDefinition, schema: CacheSchema) -> [String: TypeReference] {
        var types: [String: TypeReference] = [:]
        var visited: Set<String> = []
        func place(_ value: ValueNode, as type: TypeReference) {
            var unwrapped = type
            if case .nonNull(let inner) = unwrapped { unwrapped = inner }
            switch (value, unwrapped) {
            case (.variable(let name), _):
                if types[name] == nil { types[name] = type }
            case (.list(let elements), .list(let element)):
                for item in elements { place(item, as: element) }
            case (.object(let members), .named(let name)):
                for member in members {
                    if let fieldType = schema.inputFieldType(of: name, field: member.name) { place(member.value, as: fieldType) }
                }
            default:
                break
            }
        }
        func visit(_ selections: [Selection], on typeName: String) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    for (argument, value) in field.arguments {
                        guard let type = schema.argumentType(on: typeName, field: field.name, argument: argument) else { continue }
                        place(value, as: type)
                    }
                    if let inner = field.selections, let type = schema.fieldType(on: typeName, field: field.name) {
                        visit(inner, on: type.namedType.name)
                    }
                case .inlineFragment(let condition, _, let inner):
                    visit(inner, on: condition ?? typeName)
                case .deferred(_, let inner):
                    visit(inner, on: typeName)
                case .fragmentSpread(let name, _):
                    guard visited.insert(name).inserted, let spread = fragments[name] else { continue }
                    visit(spread.selections, on: spread.typeCondition)
                }
            }
        }
        visit(fragment.selections, on: fragment.typeCondition)
        return types
    }
}

extension VariableScope {
    /// The variables of a fragment read or written on its own, which
    /// declares none: with a schema, each one used as a field's argument,
    /// or inside one (a member of an input object, an element of a list),
    /// is checked and held as the type of that place, as the app's
    /// generated operation would hold it (`--var size=abc` for an Int is
    /// refused, not looked for as `avatar(size:abc)`, and `--var lng=-2`
    /// for a Float in an input object is `lng:-2.0`).
    init(given: [String: InputValue], fragment: FragmentDefinition, document: QueryDocument, schema: CacheSchema?) throws {
        guard let schema else {
            self.init(values: given)
            return
        }
        let types = document.variableTypes(in: fragment, schema: schema)
        var values = given
        let coercion = VariableCoercion(schema: schema)
        for (name, value) in given {
            guard let type = types[name] else { continue }
            do {
                try VariableCoercion.checkFinite(value)
                values[name] = try coercion.coerce(value, to: type)
            } catch {
                throw QueryError.invalidVariables("$\(name)\(error.path): \(error.message)")
            }
        }
        self.init(values: values)
    }
}
