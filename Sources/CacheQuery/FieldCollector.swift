/// Groups a selection set's fields by response name for one object, as
/// GraphQL's CollectFields does: `@include`/`@skip` applied, inline
/// fragments and fragment spreads merged in when their type condition
/// applies to the object's `__typename`. Reads and writes share it, so both
/// see the same fields.
struct FieldCollector {
    let document: QueryDocument
    let schema: CacheSchema?
    let scope: VariableScope

    /// The fields for an object of `typename`, by response name in
    /// selection order. A spread or inline fragment applies when its type
    /// condition matches; an object without `__typename` takes fragment
    /// spreads (their condition cannot be checked) but not typed inline
    /// fragments.
    func collect(_ selections: [Selection], typename: String?) -> [(String, [FieldSelection])] {
        var order: [String] = []
        var fields: [String: [FieldSelection]] = [:]
        var visitedFragments: Set<String> = []
        func collect(_ selections: [Selection]) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    guard scope.isIncluded(field.conditions) else { continue }
                    if fields[field.responseKey] == nil { order.append(field.responseKey) }
                    fields[field.responseKey, default: []].append(field)
                case .inlineFragment(let typeCondition, let conditions, let inner):
                    guard scope.isIncluded(conditions), typeCondition.map({ applies($0, to: typename) }) ?? true else { continue }
                    collect(inner)
                case .fragmentSpread(let name, let conditions):
                    guard scope.isIncluded(conditions), !visitedFragments.contains(name),
                        let fragment = document.fragments[name], typename == nil || applies(fragment.typeCondition, to: typename)
                    else { continue }
                    visitedFragments.insert(name)
                    collect(fragment.selections)
                }
            }
        }
        collect(selections)
        return order.map { ($0, fields[$0]!) }
    }

    /// The field cache keys a record may be asked for under `selections`,
    /// whatever its `__typename` and the conditions: every field of every
    /// fragment, and `__typename`. A read decodes only these of a record.
    func fieldKeys(_ selections: [Selection]) -> Set<String> {
        var keys: Set<String> = ["__typename"]
        var visitedFragments: Set<String> = []
        func visit(_ selections: [Selection]) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    keys.insert(FieldKey.render(name: field.name, arguments: scope.arguments(of: field)))
                case .inlineFragment(_, _, let inner):
                    visit(inner)
                case .fragmentSpread(let name, _):
                    guard visitedFragments.insert(name).inserted, let fragment = document.fragments[name] else { continue }
                    visit(fragment.selections)
                }
            }
        }
        visit(selections)
        return keys
    }

    /// Whether a fragment on `typeCondition` applies to an object of
    /// `typename`: with a schema through possible types, without one only
    /// the very same name.
    func applies(_ typeCondition: String, to typename: String?) -> Bool {
        if let schema { return schema.matches(typeCondition: typeCondition, typename: typename) }
        return typeCondition == typename
    }
}
