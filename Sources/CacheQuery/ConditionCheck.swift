import GraphQL

/// `@include` and `@skip` as GraphQL defines them, checked without a
/// schema: one argument, `if`, a Boolean or a variable. Anything else would
/// otherwise read as false, and quietly drop or keep a field.
enum ConditionCheck {
    /// Throws ``QueryError/validation(source:line:column:message:)`` for the
    /// first `@include`/`@skip` in `definition`'s selections that lacks its
    /// `if`, has another argument, or gives `if` a literal that is not a Boolean.
    static func check(_ definition: Definition, source: String) throws {
        if let operation = definition as? OperationDefinition {
            try check(operation.selectionSet, source: source)
        } else if let fragment = definition as? GraphQL.FragmentDefinition {
            try check(fragment.selectionSet, source: source)
        }
    }

    private static func check(_ set: SelectionSet, source: String) throws {
        for selection in set.selections {
            if let field = selection as? Field {
                try check(field.directives, source: source)
                if let inner = field.selectionSet { try check(inner, source: source) }
            } else if let inline = selection as? InlineFragment {
                try check(inline.directives, source: source)
                try check(inline.selectionSet, source: source)
            } else if let spread = selection as? FragmentSpread {
                try check(spread.directives, source: source)
            }
        }
    }

    private static func check(_ directives: [Directive], source: String) throws {
        for directive in directives where directive.name.value == "include" || directive.name.value == "skip" {
            let name = directive.name.value
            func problem(_ node: Node, _ message: String) -> QueryError {
                let place = node.loc?.place
                return .validation(source: source, line: place?.line ?? 0, column: place?.column ?? 0, message: message)
            }
            if let other = directive.arguments.first(where: { $0.name.value != "if" }) {
                throw problem(other, "@\(name) has no argument '\(other.name.value)'; it takes if: Boolean!")
            }
            guard let argument = directive.arguments.first else {
                throw problem(directive, "@\(name) needs its argument if: Boolean!")
            }
            switch argument.value {
            case is BooleanValue, is Variable: continue
            default:
                throw problem(argument.value, "@\(name)(if:) takes a Boolean, found \(print(ast: argument.value))")
            }
        }
    }
}
