import GraphQL

extension CacheSchema {
    /// GraphQL 4.3.0's KnownArgumentNamesRule checks every argument against
    /// the field it is in, a directive's too (`id @foo(y: 1)` is "Field
    /// "id" … does not have argument "y""), and nothing checks the
    /// arguments of a directive on an operation. This rule does as
    /// graphql-js's: a directive's arguments against the directive's own,
    /// wherever it stands, and the field's check, GraphQL's own, for the
    /// arguments of fields alone.
    static let knownArgumentNamesRule: @Sendable (ValidationContext) -> Visitor = { context in
        let fieldArguments = specifiedRules[knownArgumentNamesRuleIndex](context)
        return Visitor(
            enter: { node, key, parent, path, ancestors in
                guard let directive = node as? Directive else {
                    return fieldArguments.enter(node: node, key: key, parent: parent, path: path, ancestors: ancestors)
                }
                // An unknown directive is KnownDirectivesRule's to report.
                if let definition = context.schema.getDirective(name: directive.name.value) {
                    let known = definition.args.map(\.name)
                    for argument in directive.arguments where !known.contains(argument.name.value) {
                        let near = NameSuggestions.withinTwoEdits(of: argument.name.value, among: known)
                        context.report(error: GraphQLError(
                            message: "Unknown argument \"\(argument.name.value)\" on directive \"@\(directive.name.value)\"."
                                + (near.isEmpty ? "" : " Did you mean " + near.map { "\"\($0)\"" }.joined(separator: " or ") + "?"),
                            nodes: [argument]))
                    }
                }
                // Its arguments are not the field's.
                return .skip
            },
            leave: { node, key, parent, path, ancestors in
                fieldArguments.leave(node: node, key: key, parent: parent, path: path, ancestors: ancestors)
            })
    }
}
