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

    /// The type of the root object: the schema's, or without one the
    /// name GraphQL gives it by default (`Query`), so that a fragment on
    /// it applies at the root as it does in Apollo's generated models.
    func rootType(in schema: CacheSchema?) -> String? {
        if let schema { return schema.rootTypeName(kind) }
        switch kind {
        case .query: return "Query"
        case .mutation: return "Mutation"
        case .subscription: return "Subscription"
        }
    }

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
    /// Non-null without a default: an operation cannot run without it.
    public var isRequired: Bool { isNonNull && defaultValue == nil }
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
    /// The selections of a fragment marked `@defer`: a spread, or an
    /// inline fragment's own selections (its type condition and
    /// `@include`/`@skip` stay on the inline fragment around it, as in
    /// Apollo's generated models).
    case deferred(Deferral, selections: [Selection])
}

/// `@defer(label:if:)`. Apollo reads a deferred fragment from the cache on
/// its own: where its fields miss, the fragment is pending and the rest of
/// the data is read. It writes one only from the incremental payload that
/// delivers it, not from the response that defers it.
struct Deferral: Sendable {
    let label: String?
    /// `if:`; nil where it is not given (it defaults to true).
    let condition: ValueNode?
}

struct FieldSelection: Sendable {
    let alias: String?
    let name: String
    let arguments: [(name: String, value: ValueNode)]
    let conditions: [Condition]
    /// nil for a leaf field.
    let selections: [Selection]?
    /// Where the field is written; nil for one the document does not spell.
    var place: SelectionPlace? = nil

    var responseKey: String { alias ?? name }
}

/// Where in the documents: the source's name and the UTF-8 offset (turned
/// into a line and column only for a message).
struct SelectionPlace: Sendable {
    let source: String
    let utf8Offset: Int
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

extension Operation {
    /// Whether Apollo lets this operation's data be written locally.
    public var isLocalCacheMutation: Bool { directives.contains(QueryDocument.localCacheMutationDirective) }
}

extension FragmentDefinition {
    /// Whether Apollo lets this fragment's data be written locally.
    public var isLocalCacheMutation: Bool { directives.contains(QueryDocument.localCacheMutationDirective) }
}

extension QueryDocument {
    /// A directive among `directives` that looks like a mistyped
    /// `@apollo_client_ios_localCacheMutation` (its case, or a letter or
    /// two), or nil.
    public static func misspelledLocalCacheMutation(among directives: [String]) -> String? {
        directives.first { $0 != localCacheMutationDirective && !NameSuggestions.withinTwoEdits(of: $0, among: [localCacheMutationDirective]).isEmpty }
    }
}

extension QueryDocument {
    /// The directive Apollo iOS lets write to the cache, without its `@`.
    public static let localCacheMutationDirective = "apollo_client_ios_localCacheMutation"

    /// The response names an operation's data may hold at its top level,
    /// through fragments too: whether `{"data": …}` may be that data
    /// itself, where the operation selects a field named `data`.
    public func rootResponseNames(of operation: Operation) -> Set<String> {
        var visited: Set<String> = []
        return responseNames(in: operation.selections, visited: &visited)
    }

    /// As ``rootResponseNames(of:)``, for a fragment's data.
    public func rootResponseNames(of fragment: FragmentDefinition) -> Set<String> {
        var visited: Set<String> = [fragment.name]
        return responseNames(in: fragment.selections, visited: &visited)
    }

    /// The names are a union: each fragment adds its own once, however
    /// many spreads lead to it (fragments that spread two that both spread
    /// two more would otherwise be walked once per path, 2ⁿ times).
    private func responseNames(in selections: [Selection], visited: inout Set<String>) -> Set<String> {
        var names: Set<String> = []
        for selection in selections {
            switch selection {
            case .field(let field): names.insert(field.responseKey)
            case .inlineFragment(_, _, let inner), .deferred(_, let inner): names.formUnion(responseNames(in: inner, visited: &visited))
            case .fragmentSpread(let name, _):
                guard let fragment = fragments[name], visited.insert(name).inserted else { continue }
                names.formUnion(responseNames(in: fragment.selections, visited: &visited))
            }
        }
        return names
    }

    /// The document as Apollo's code generator sees it: `__typename`
    /// selected first in every selection set that has none (but an
    /// operation's root, or a fragment's on a root type), so that generated
    /// models, and so local cache mutations, carry it.
    public func addingTypename(schema: CacheSchema?) -> QueryDocument {
        var copy = self
        copy.operations = operations.map { operation in
            Operation(kind: operation.kind, name: operation.name, variables: operation.variables,
                      directives: operation.directives, selections: Self.addingTypename(to: operation.selections, atRoot: true))
        }
        copy.fragments = fragments.mapValues { fragment in
            FragmentDefinition(name: fragment.name, typeCondition: fragment.typeCondition, directives: fragment.directives,
                               selections: Self.addingTypename(
                                   to: fragment.selections, atRoot: CacheSchema.isRootType(fragment.typeCondition, in: schema)))
        }
        return copy
    }

    static func addingTypename(to selections: [Selection], atRoot: Bool = false) -> [Selection] {
        let nested = selections.map { selection -> Selection in
            switch selection {
            case .field(let field):
                guard let inner = field.selections else { return selection }
                return .field(FieldSelection(alias: field.alias, name: field.name, arguments: field.arguments,
                                             conditions: field.conditions, selections: addingTypename(to: inner), place: field.place))
            case .inlineFragment(let typeCondition, let conditions, let inner):
                return .inlineFragment(
                    typeCondition: typeCondition, conditions: conditions, selections: addingTypename(to: inner, atRoot: atRoot))
            case .fragmentSpread:
                return selection
            case .deferred(let deferral, let inner):
                return .deferred(deferral, selections: addingTypename(to: inner, atRoot: atRoot))
            }
        }
        let hasTypename = selections.contains { selection in
            if case .field(let field) = selection { return field.responseKey == "__typename" && field.conditions.isEmpty }
            return false
        }
        guard !hasTypename, !atRoot else { return nested }
        let typename = FieldSelection(alias: nil, name: "__typename", arguments: [], conditions: [], selections: nil)
        return [.field(typename)] + nested
    }
}
