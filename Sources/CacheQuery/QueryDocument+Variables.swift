extension QueryDocument {
    /// Throws ``QueryError/undefinedVariable(_:operation:)`` for the first
    /// variable that `operation` uses (in its selections or the fragments
    /// they spread) without defining it: a read would quietly leave out the
    /// argument, and so look for another field than the app does.
    public func checkVariablesAreDefined(in operation: Operation) throws {
        let defined = Set(operation.variables.map(\.name))
        if let name = variablesUsed(in: operation.selections).first(where: { !defined.contains($0) }) {
            throw QueryError.undefinedVariable(name, operation: operation.name ?? "(anonymous)")
        }
    }

    /// The variables a fragment uses in its fields' arguments, which no
    /// definition declares: a fragment read or written on its own takes
    /// them from `--var`, and one not given leaves its argument out.
    public func argumentVariables(of fragment: FragmentDefinition) -> [String] {
        variablesUsed(in: fragment.selections, inConditions: false)
    }

    /// Every variable a fragment uses, in arguments and in conditions:
    /// what `--var` may give when the fragment is read on its own.
    public func variables(usedBy fragment: FragmentDefinition) -> [String] {
        variablesUsed(in: fragment.selections)
    }

    /// The variables `selections` use (in arguments, and unless told not
    /// to in `@include`, `@skip` and `@defer` conditions; also those of
    /// the fragments they spread), each once, in the order of first use.
    func variablesUsed(in selections: [Selection], inConditions: Bool = true) -> [String] {
        var names: [String] = []
        func note(_ value: ValueNode) {
            switch value {
            case .variable(let name): if !names.contains(name) { names.append(name) }
            case .list(let elements): elements.forEach(note)
            case .object(let members): members.forEach { note($0.value) }
            default: break
            }
        }
        forEachSelection(in: selections) { selection in
            switch selection {
            case .field(let field):
                field.arguments.forEach { note($0.value) }
                if inConditions { field.conditions.forEach { note($0.value) } }
            case .inlineFragment(_, let conditions, _), .fragmentSpread(_, let conditions):
                if inConditions { conditions.forEach { note($0.value) } }
            case .deferred(let deferral, _):
                if inConditions { deferral.condition.map(note) }
            }
        }
        return names
    }

    /// Calls `body` with every selection of `selections`, of the selections
    /// of their fields and inline fragments, and of the fragments they
    /// spread, each fragment's once.
    func forEachSelection(in selections: [Selection], _ body: (Selection) throws -> Void) rethrows {
        var visited: Set<String> = []
        func visit(_ selections: [Selection]) throws {
            for selection in selections {
                try body(selection)
                switch selection {
                case .field(let field):
                    try visit(field.selections ?? [])
                case .inlineFragment(_, _, let inner), .deferred(_, let inner):
                    try visit(inner)
                case .fragmentSpread(let name, _):
                    guard visited.insert(name).inserted, let fragment = fragments[name] else { continue }
                    try visit(fragment.selections)
                }
            }
        }
        try visit(selections)
    }
}
