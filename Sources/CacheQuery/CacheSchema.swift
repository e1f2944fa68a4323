import GraphQL

/// A schema (SDL) that makes reads schema-aware: abstract type conditions
/// resolve through possible types, Float inputs render as Apollo renders
/// them, and documents are validated with line and column.
///
/// Apollo's client directives (`@typePolicy`, `@fieldPolicy`,
/// `@apollo_client_ios_localCacheMutation`, `@import`, `@defer`) are declared for the
/// user when the SDL does not declare them; `extend type` works.
public struct CacheSchema: @unchecked Sendable {
    let schema: GraphQLSchema
    /// The output fields of every object and interface type, by type name,
    /// worked out once: the GraphQL package rebuilds them on each access.
    let fieldTypes: [String: [String: OutputType]]
    /// `@typePolicy(keyFields:)` of each object type, its own or its
    /// interfaces'.
    let typePolicies: [String: [String]]
    /// Names of the object types (concrete, so a `__typename` of their own).
    let objectTypes: Set<String>

    init(schema: GraphQLSchema) {
        self.schema = schema
        var fieldTypes: [String: [String: OutputType]] = [:]
        var objectTypes: Set<String> = []
        var ownPolicies: [String: [String]] = [:]
        var interfacesOf: [String: [String]] = [:]
        for (name, type) in schema.typeMap where !name.hasPrefix("__") {
            var fields: GraphQLFieldMap?
            if let object = type as? GraphQLObjectType {
                objectTypes.insert(name)
                fields = try? object.fields()
                interfacesOf[name] = ((try? object.interfaces()) ?? []).map(\.name)
            } else if let interface = type as? GraphQLInterfaceType {
                fields = try? interface.fields()
            }
            guard let fields else { continue }
            var types: [String: OutputType] = ["__typename": .nonNull(.named("String", .scalar))]
            for (fieldName, field) in fields { types[fieldName] = OutputType(field.type) }
            fieldTypes[name] = types
            if let keyFields = Self.ownTypePolicy(of: type) { ownPolicies[name] = Self.keyFieldNames(keyFields) }
        }
        // Its own, or else its interfaces' (which checkTypePolicies found to agree).
        var typePolicies: [String: [String]] = [:]
        for name in objectTypes {
            if let own = ownPolicies[name] {
                typePolicies[name] = own
            } else if let inherited = interfacesOf[name]?.lazy.compactMap({ ownPolicies[$0] }).first {
                typePolicies[name] = inherited
            }
        }
        self.fieldTypes = fieldTypes
        self.typePolicies = typePolicies
        self.objectTypes = objectTypes
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

    static func reference(_ type: GraphQLType) -> TypeReference {
        if let nonNull = type as? GraphQLNonNull { return .nonNull(reference(nonNull.ofType)) }
        if let list = type as? GraphQLList { return .list(reference(list.ofType)) }
        return .named((type as? GraphQLNamedType)?.name ?? "")
    }
}

extension CacheSchema {
    /// The declared type of `field` on the object or interface `typeName`.
    func fieldType(on typeName: String, field: String) -> OutputType? {
        fieldTypes[typeName]?[field]
    }

    /// The declared type of `argument` of `field` on the object or interface `typeName`.
    func argumentType(on typeName: String, field: String, argument: String) -> TypeReference? {
        let fields: GraphQLFieldMap?
        switch schema.getType(name: typeName) {
        case let object as GraphQLObjectType: fields = try? object.fields()
        case let interface as GraphQLInterfaceType: fields = try? interface.fields()
        default: fields = nil
        }
        guard let definition = fields?.first(where: { $0.key == field })?.value,
            let type = definition.args.first(where: { $0.key == argument })?.value.type
        else { return nil }
        return CacheSchema.reference(type)
    }

    /// The declared type of `field` of the input object type `typeName`.
    func inputFieldType(of typeName: String, field: String) -> TypeReference? {
        guard let object = schema.getType(name: typeName) as? GraphQLInputObjectType,
            let type = (try? object.fields())?[field]?.type
        else { return nil }
        return CacheSchema.reference(type)
    }

    /// Whether `type` is a root operation type: the schema's, or without
    /// one GraphQL's default names. Apollo's code generator gives the
    /// models of these no `__typename`.
    public static func isRootType(_ type: String, in schema: CacheSchema?) -> Bool {
        let kinds: [Operation.Kind] = [.query, .mutation, .subscription]
        if let schema { return kinds.contains { schema.rootTypeName($0) == type } }
        return ["Query", "Mutation", "Subscription"].contains(type)
    }

    /// The name of the root type for operations of this kind.
    func rootTypeName(_ kind: Operation.Kind) -> String? {
        switch kind {
        case .query: return schema.queryType?.name
        case .mutation: return schema.mutationType?.name
        case .subscription: return schema.subscriptionType?.name
        }
    }

    /// Whether `name` is an object type (not an interface or union).
    func isObjectType(_ name: String) -> Bool { objectTypes.contains(name) }

    /// The names of the schema's types, its own (not `__Type` and the like).
    public var typeNames: [String] { schema.typeMap.keys.filter { !$0.hasPrefix("__") }.sorted() }

    /// Whether an object or interface type `type` has `field`; nil for a
    /// type without fields of its own (a union, a scalar) or none at all.
    public func hasField(_ field: String, on type: String) -> Bool? {
        fieldTypes[type].map { $0[field] != nil }
    }

    /// Why `field` of `type` cannot be a key field, or nil when it can: a
    /// key is made of single values (a string, a number, a boolean), and a
    /// list or an object has none.
    public func keyFieldProblem(_ field: String, on type: String) -> String? {
        guard let declared = fieldTypes[type]?[field] else { return nil }
        switch declared.nullable {
        case .list: return "\(type)'s field '\(field)' is a list (\(declared)); a key field holds one value"
        case .named(let name, .composite): return "\(type)'s field '\(field)' is an object (\(name)); a key field holds one value"
        default: return nil
        }
    }

    /// The `@typePolicy(keyFields:)` key fields of an object type.
    func keyFields(of typename: String) -> [String]? { typePolicies[typename] }
}
