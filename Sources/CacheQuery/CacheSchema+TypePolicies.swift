import GraphQL

extension CacheSchema {
    /// The `@typePolicy` a type carries itself, as Apollo's codegen takes
    /// it: one on an `extend` of the type first, then the definition's.
    static func ownTypePolicy(of type: GraphQLNamedType) -> StringValue? {
        ownTypePolicyAndPlace(of: type)?.keyFields
    }

    /// ``ownTypePolicy(of:)``, and whether it is on an `extend` of the type:
    /// codegen takes that one without looking at the interfaces.
    static func ownTypePolicyAndPlace(of type: GraphQLNamedType) -> (keyFields: StringValue, onExtension: Bool)? {
        let (definition, extensions): ([Directive], [Directive])
        if let object = type as? GraphQLObjectType {
            (definition, extensions) = (object.astNode?.directives ?? [], object.extensionASTNodes.flatMap(\.definition.directives))
        } else if let interface = type as? GraphQLInterfaceType {
            (definition, extensions) = (interface.astNode?.directives ?? [], interface.extensionASTNodes.flatMap(\.definition.directives))
        } else {
            return nil
        }
        func keyFields(_ directives: [Directive]) -> StringValue? {
            directives.first { $0.name.value == "typePolicy" }?.arguments.first { $0.name.value == "keyFields" }?.value as? StringValue
        }
        if let onExtension = keyFields(extensions) { return (onExtension, true) }
        return keyFields(definition).map { ($0, false) }
    }

    /// The key fields of `keyFields` as Apollo's codegen reads them: names
    /// separated by single spaces.
    static func keyFieldNames(_ keyFields: StringValue) -> [String] {
        keyFields.value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    }

    /// Apollo's codegen refuses a schema whose `@typePolicy` names no
    /// field, or a field the type lacks, or one that is nullable or not a
    /// scalar (the key would come from a value a response may not hold),
    /// or whose policies conflict: a type's own with its interface's, or
    /// two interfaces' it inherits. So does this check, in the same cases.
    static func checkTypePolicies(of schema: GraphQLSchema) throws {
        for (name, type) in schema.typeMap.sorted(by: { $0.key < $1.key }) where !name.hasPrefix("__") {
            let fields: GraphQLFieldMap
            var interfaces: [GraphQLInterfaceType] = []
            if let object = type as? GraphQLObjectType {
                fields = try object.fields()
                interfaces = try object.interfaces()
            } else if let interface = type as? GraphQLInterfaceType {
                fields = try interface.fields()
                interfaces = try interface.interfaces()
            } else {
                continue
            }
            let ownAndPlace = ownTypePolicyAndPlace(of: type)
            let own = ownAndPlace?.keyFields
            if let own {
                for keyField in keyFieldNames(own) {
                    guard !keyField.isEmpty else {
                        throw GraphQLError(message: "@typePolicy on \(name): keyFields must be field names separated by single spaces", nodes: [own])
                    }
                    guard let field = fields[keyField] else {
                        let names = fields.keys.sorted()
                        let listed = names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", …" : "")
                        throw GraphQLError(
                            message: "@typePolicy on \(name) names key field '\(keyField)', which \(name) does not have (its fields: \(listed))",
                            nodes: [own])
                    }
                    guard let nonNull = field.type as? GraphQLNonNull else {
                        throw GraphQLError(
                            message: "@typePolicy on \(name) names key field '\(keyField)', which is nullable (\(field.type)); a key field must be non-null",
                            nodes: [own])
                    }
                    guard nonNull.ofType is GraphQLScalarType else {
                        throw GraphQLError(
                            message: "@typePolicy on \(name) names key field '\(keyField)', of type \(field.type); a key field must be a scalar",
                            nodes: [own])
                    }
                }
            }
            // A policy on an extension is taken as it is, whatever the interfaces say.
            if ownAndPlace?.onExtension == true { continue }
            // What it inherits: each interface's own, in the order it names them.
            let inherited = interfaces.compactMap { interface in ownTypePolicy(of: interface).map { (interface.name, $0) } }
            if let own, let other = inherited.first(where: { $0.1.value != own.value }) {
                throw GraphQLError(message: "@typePolicy on \(name) conflicts with the one on its interface \(other.0)", nodes: [own])
            }
            if own == nil, let first = inherited.first, let other = inherited.first(where: { $0.1.value != first.1.value }) {
                throw GraphQLError(
                    message: "\(name) inherits conflicting @typePolicy directives from its interfaces \(first.0) and \(other.0)",
                    nodes: [first.1])
            }
        }
    }
}
