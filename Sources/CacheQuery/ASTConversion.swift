import GraphQL

/// The GraphQL package's AST, turned into this module's model.
enum ASTConversion {
    static func operation(_ node: OperationDefinition, source: String) -> Operation {
        let kind: Operation.Kind
        switch node.operation {
        case .query: kind = .query
        case .mutation: kind = .mutation
        case .subscription: kind = .subscription
        }
        return Operation(
            kind: kind, name: node.name?.value,
            variables: node.variableDefinitions.map(variable),
            directives: node.directives.map(\.name.value),
            selections: selections(node.selectionSet, source: source))
    }

    static func fragment(_ node: GraphQL.FragmentDefinition, source: String) -> FragmentDefinition {
        FragmentDefinition(
            name: node.name.value, typeCondition: node.typeCondition.name.value,
            directives: node.directives.map(\.name.value), selections: selections(node.selectionSet, source: source))
    }

    static func variable(_ node: GraphQL.VariableDefinition) -> VariableDefinition {
        VariableDefinition(name: node.variable.name.value, type: typeReference(node.type), defaultValue: node.defaultValue.map(value))
    }

    static func typeReference(_ type: GraphQL.`Type`) -> TypeReference {
        if let list = type as? ListType { return .list(typeReference(list.type)) }
        if let nonNull = type as? NonNullType { return .nonNull(typeReference(nonNull.type)) }
        return .named((type as? NamedType)?.name.value ?? "")
    }

    static func selections(_ set: SelectionSet, source: String) -> [Selection] {
        set.selections.compactMap { selection -> Selection? in
            if let field = selection as? Field {
                return .field(FieldSelection(
                    alias: field.alias?.value, name: field.name.value,
                    arguments: field.arguments.map { ($0.name.value, value($0.value)) },
                    conditions: conditions(field.directives),
                    selections: field.selectionSet.map { selections($0, source: source) },
                    place: field.loc.map { SelectionPlace(source: source, utf8Offset: $0.start) }))
            }
            if let inline = selection as? InlineFragment {
                let inner = selections(inline.selectionSet, source: source)
                return .inlineFragment(
                    typeCondition: inline.typeCondition?.name.value, conditions: conditions(inline.directives),
                    selections: deferral(inline.directives).map { [.deferred($0, selections: inner)] } ?? inner)
            }
            if let spread = selection as? FragmentSpread {
                let spreading = Selection.fragmentSpread(name: spread.name.value, conditions: conditions(spread.directives))
                return deferral(spread.directives).map { .deferred($0, selections: [spreading]) } ?? spreading
            }
            return nil
        }
    }

    static func conditions(_ directives: [Directive]) -> [Condition] {
        directives.compactMap { directive in
            guard directive.name.value == "include" || directive.name.value == "skip",
                let argument = directive.arguments.first(where: { $0.name.value == "if" })
            else { return nil }
            return Condition(include: directive.name.value == "include", value: value(argument.value))
        }
    }

    /// `@defer`, with its label and `if:` as written.
    static func deferral(_ directives: [Directive]) -> Deferral? {
        guard let directive = directives.first(where: { $0.name.value == "defer" }) else { return nil }
        let label = directive.arguments.first(where: { $0.name.value == "label" }).flatMap { ($0.value as? StringValue)?.value }
        return Deferral(label: label, condition: directive.arguments.first(where: { $0.name.value == "if" }).map { value($0.value) })
    }

    static func value(_ node: GraphQL.Value) -> ValueNode {
        switch node {
        case let variable as Variable: return .variable(variable.name.value)
        case let int as IntValue: return .int(int.value)
        case let float as FloatValue: return .float(float.value)
        case let string as StringValue: return .string(string.value)
        case let boolean as BooleanValue: return .boolean(boolean.value)
        case let enumValue as EnumValue: return .enumValue(enumValue.value)
        case let list as ListValue: return .list(list.values.map(value))
        case let object as ObjectValue: return .object(object.fields.map { ($0.name.value, value($0.value)) })
        default: return .null
        }
    }
}
