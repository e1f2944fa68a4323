import GraphQL

/// A field's type as the schema declares it, reduced to what checking a
/// cached value needs.
indirect enum OutputType: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case scalar
        case enumeration(Set<String>)
        case composite
    }

    case nonNull(OutputType)
    case list(OutputType)
    case named(String, Kind)

    init(_ type: GraphQLType) {
        if let nonNull = type as? GraphQLNonNull {
            self = .nonNull(OutputType(nonNull.ofType))
        } else if let list = type as? GraphQLList {
            self = .list(OutputType(list.ofType))
        } else if let enumeration = type as? GraphQLEnumType {
            self = .named(enumeration.name, .enumeration(Set(enumeration.values.map(\.name))))
        } else if let scalar = type as? GraphQLScalarType {
            self = .named(scalar.name, .scalar)
        } else {
            self = .named((type as? GraphQLNamedType)?.name ?? "", .composite)
        }
    }

    var description: String {
        switch self {
        case .nonNull(let inner): return "\(inner)!"
        case .list(let inner): return "[\(inner)]"
        case .named(let name, _): return name
        }
    }

    /// Whether null is not a value of the type (`String!`).
    var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The type without its outer `!`.
    var nullable: OutputType {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    /// The named type at the bottom of the lists.
    var namedType: (name: String, kind: Kind) {
        switch self {
        case .nonNull(let inner), .list(let inner): return inner.namedType
        case .named(let name, let kind): return (name, kind)
        }
    }
}
