import CacheStore

/// GraphQL documents reduced to what reading the cache needs: operations,
/// fragments, selections and argument values. Built from the GraphQL
/// package's AST by ``QueryDocument/parse(_:)``; nothing else in this module
/// sees that AST.
public struct Operation: Sendable {
    public enum Kind: String, Sendable { case query, mutation, subscription }

    public let kind: Kind
    public let name: String?
    public let variables: [VariableDefinition]
    public let directives: [String]
    let selections: [Selection]

    /// The record a read of this operation starts from.
    public var rootKey: CacheKey {
        switch kind {
        case .query: return .queryRoot
        case .mutation: return .mutationRoot
        case .subscription: return .subscriptionRoot
        }
    }
}

/// A fragment definition: `fragment Name on Type { … }`.
public struct FragmentDefinition: Sendable {
    public let name: String
    public let typeCondition: String
    public let directives: [String]
    let selections: [Selection]
}

/// `$name: Type = default`.
public struct VariableDefinition: Sendable {
    public let name: String
    public let type: TypeReference
    public var isNonNull: Bool {
        if case .nonNull = type { return true }
        return false
    }
    let defaultValue: ValueNode?
}

/// A type as written in a document: `Episode`, `[ID!]`, `ReviewInput!`.
public indirect enum TypeReference: Sendable, Equatable, CustomStringConvertible {
    case named(String)
    case list(TypeReference)
    case nonNull(TypeReference)

    public var description: String {
        switch self {
        case .named(let name): return name
        case .list(let inner): return "[\(inner)]"
        case .nonNull(let inner): return "\(inner)!"
        }
    }
}

indirect enum Selection: Sendable {
    case field(FieldSelection)
    case inlineFragment(typeCondition: String?, conditions: [Condition], selections: [Selection])
    case fragmentSpread(name: String, conditions: [Condition])
}

struct FieldSelection: Sendable {
    let alias: String?
    let name: String
    let arguments: [(name: String, value: ValueNode)]
    let conditions: [Condition]
    /// nil for a leaf field.
    let selections: [Selection]?

    var responseKey: String { alias ?? name }
}

/// `@include(if:)` (include true) or `@skip(if:)` (include false).
struct Condition: Sendable {
    let include: Bool
    let value: ValueNode
}

/// A value as written in the document, before variables are substituted.
indirect enum ValueNode: Sendable {
    case variable(String)
    case null
    case int(String)
    case float(String)
    case string(String)
    case boolean(Bool)
    case enumValue(String)
    case list([ValueNode])
    case object([(name: String, value: ValueNode)])
}
