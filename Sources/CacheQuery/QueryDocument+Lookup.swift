extension QueryDocument {
    /// The operation with this name. Without a name, the only operation, or
    /// else the only one without a name (an ad-hoc `{ … }` beside a
    /// project's named operations), which no name could pick.
    public func operation(named name: String?) throws -> Operation {
        let names = operations.compactMap(\.name)
        let operation: Operation
        if let name {
            guard let named = operations.first(where: { $0.name == name }) else {
                if fragments[name] != nil { throw QueryError.fragmentNotOperation(name) }
                throw QueryError.unknownOperation(name, available: names)
            }
            operation = named
        } else if operations.count == 1 {
            operation = operations[0]
        } else {
            let anonymous = operations.filter { $0.name == nil }
            guard anonymous.count == 1 else {
                throw operations.isEmpty ? QueryError.noOperation(source: "the documents", fragments: fragments.keys.sorted()) : QueryError.ambiguousOperation(available: names)
            }
            operation = anonymous[0]
        }
        try checkVariablesAreDefined(in: operation)
        return operation
    }

    public func fragment(named name: String) throws -> FragmentDefinition {
        guard let fragment = fragments[name] else {
            throw QueryError.unknownFragment(name, available: fragments.keys.sorted())
        }
        return fragment
    }
}
