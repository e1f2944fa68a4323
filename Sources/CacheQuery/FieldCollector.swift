/// Groups a selection set's fields by response name for one object, as
/// GraphQL's CollectFields does: `@include`/`@skip` applied, inline
/// fragments and fragment spreads merged in when their type condition
/// applies to the object's `__typename`. Reads and writes share it, so both
/// see the same fields.
struct FieldCollector {
    let document: QueryDocument
    let schema: CacheSchema?
    let scope: VariableScope
    /// Without a schema, the type conditions compared with each
    /// `__typename`: a read says which it did not apply.
    var log: TypeConditionLog? = nil

    /// The fields for an object of `typename`, by response name in
    /// selection order. A spread or inline fragment applies when its type
    /// condition matches; an object without `__typename` takes no typed
    /// inline fragment, and takes fragment spreads only where their
    /// condition cannot be checked: without a schema, or without the
    /// field's type. (With both, a spread on a type the field's type need
    /// not be is one Apollo's generated model wraps in a typed inline
    /// fragment, checked by `__typename`.) `parentType`, the type the selection set is on (the
    /// field's declared type), applies a condition that every object of it
    /// meets whatever its `__typename`, as Apollo's generated models merge
    /// such a fragment in without a check: `...C` on `Character` inside a
    /// `Character` field, also for a type the schema does not know.
    ///
    /// A fragment `@defer` defers (see ``Deferral``) is not collected but
    /// returned in ``CollectedFields/deferred``, for the caller to read or
    /// write on its own, as Apollo does.
    ///
    /// `holds` says whether the object's data has a response name (a
    /// write's response): a fragment left out beside one that applied is
    /// then logged as an alternative only when the data lacks its fields.
    /// `... on Character { name }` beside `... on Human { … }`, with
    /// `name` in the response, is one the server applied.
    func collect(
        _ selections: [Selection], typename: String?, parentType: String? = nil, holds: ((String) -> Bool)? = nil
    ) -> CollectedFields {
        var deferred: [DeferredFragment] = []
        var order: [String] = []
        var fields: [String: [FieldSelection]] = [:]
        var visitedFragments: Set<String> = []
        var compared: (applied: [String], notApplied: [String]) = ([], [])
        var leftOut: [String: [Selection]] = [:]
        var unchecked: [String] = []
        func applies(_ typeCondition: String, _ inner: @autoclosure () -> [Selection]) -> Bool {
            if let parentType, always(typeCondition, within: parentType) {
                if typename != nil { compared.applied.append(typeCondition) }
                return true
            }
            guard typename != nil else {
                // No type to compare with: the log and the caller say so,
                // or the fields would be missing without a word.
                log?.noteUntyped(typeCondition)
                if !unchecked.contains(typeCondition) { unchecked.append(typeCondition) }
                return false
            }
            let applies = self.applies(typeCondition, to: typename)
            if applies {
                compared.applied.append(typeCondition)
            } else {
                compared.notApplied.append(typeCondition)
                if holds != nil { leftOut[typeCondition, default: []] += inner() }
            }
            return applies
        }
        func collect(_ selections: [Selection]) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    guard scope.isIncluded(field.conditions) else { continue }
                    if fields[field.responseKey] == nil { order.append(field.responseKey) }
                    fields[field.responseKey, default: []].append(field)
                case .inlineFragment(let typeCondition, let conditions, let inner):
                    guard scope.isIncluded(conditions), typeCondition.map({ applies($0, inner) }) ?? true else { continue }
                    collect(inner)
                case .fragmentSpread(let name, let conditions):
                    let checkable = typename != nil || (schema != nil && parentType != nil)
                    guard scope.isIncluded(conditions), !visitedFragments.contains(name),
                        let fragment = document.fragments[name], !checkable || applies(fragment.typeCondition, fragment.selections)
                    else { continue }
                    visitedFragments.insert(name)
                    collect(fragment.selections)
                case .deferred(let deferral, let inner):
                    if scope.isDeferred(deferral) {
                        deferred.append(DeferredFragment(label: deferral.label, selections: inner))
                    } else {
                        collect(inner)
                    }
                }
            }
        }
        collect(selections)
        if schema == nil, let typename, let log {
            // `... on Human { } ... on Droid { }` where one applied: the
            // others may well name the other object types, as expected.
            let alternatives = !compared.applied.isEmpty
            for condition in compared.applied { log.note(condition, appliedTo: typename, true) }
            for condition in compared.notApplied {
                let answered = holds.map { holds in
                    responseKeys(leftOut[condition] ?? []).contains { fields[$0] == nil && holds($0) }
                } ?? false
                log.note(condition, appliedTo: typename, false, besideOneThatApplied: alternatives && !answered)
            }
        }
        return CollectedFields(fields: order.map { ($0, fields[$0]!) }, deferred: deferred, unchecked: unchecked)
    }

    /// The field cache keys a record may be asked for under `selections`,
    /// whatever its `__typename` and the conditions: every field of every
    /// fragment, and `__typename`. A read decodes only these of a record.
    func fieldKeys(_ selections: [Selection]) -> Set<String> {
        var keys: Set<String> = ["__typename"]
        forEachField(on: selections) { keys.insert(FieldKey.render(name: $0.name, arguments: scope.arguments(of: $0), form: scope.numberForm)) }
        return keys
    }

    /// The response names of the fields `selections` select on their
    /// object, through its fragments whatever their type conditions.
    func responseKeys(_ selections: [Selection]) -> Set<String> {
        var keys: Set<String> = []
        forEachField(on: selections) { if scope.isIncluded($0.conditions) { keys.insert($0.responseKey) } }
        return keys
    }

    /// Calls `body` with each field `selections` select on their own
    /// object: theirs, and those of every fragment in them (each named
    /// one once), whatever the type conditions; not the fields' own.
    private func forEachField(on selections: [Selection], _ body: (FieldSelection) -> Void) {
        var visitedFragments: Set<String> = []
        func visit(_ selections: [Selection]) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    body(field)
                case .inlineFragment(_, _, let inner), .deferred(_, let inner):
                    visit(inner)
                case .fragmentSpread(let name, _):
                    guard visitedFragments.insert(name).inserted, let fragment = document.fragments[name] else { continue }
                    visit(fragment.selections)
                }
            }
        }
        visit(selections)
    }

    /// Whether `selections` spread a named fragment into their own
    /// selection set (through inline fragments, not into a field's), where
    /// `@include` and `@skip` let it.
    func spreadsFragment(_ selections: [Selection]) -> Bool {
        selections.contains { selection in
            switch selection {
            case .field: return false
            case .fragmentSpread(_, let conditions): return scope.isIncluded(conditions)
            case .inlineFragment(_, let conditions, let inner): return scope.isIncluded(conditions) && spreadsFragment(inner)
            case .deferred(_, let inner): return spreadsFragment(inner)
            }
        }
    }

    /// Whether every object of `parentType` meets `typeCondition`: the
    /// same name, or with a schema an abstract type that it is a subtype of.
    func always(_ typeCondition: String, within parentType: String) -> Bool {
        if typeCondition == parentType { return true }
        return schema?.matches(typeCondition: typeCondition, typename: parentType) ?? false
    }

    /// Whether a fragment on `typeCondition` applies to an object of
    /// `typename`: with a schema through possible types, without one only
    /// the very same name.
    func applies(_ typeCondition: String, to typename: String?) -> Bool {
        if let schema { return schema.matches(typeCondition: typeCondition, typename: typename) }
        return typeCondition == typename
    }
}

/// The fields of one object's selection set, and the fragments deferred.
struct CollectedFields {
    /// By response name in selection order.
    var fields: [(String, [FieldSelection])]
    /// In selection order.
    var deferred: [DeferredFragment]
    /// For an object without `__typename`: the type conditions of the
    /// inline fragments left out because its type is unknown.
    var unchecked: [String] = []
}

/// A fragment `@defer` defers, to be read or written apart from the
/// fields beside it.
struct DeferredFragment {
    let label: String?
    /// The inline fragment's selections, or the spread.
    let selections: [Selection]
}

/// Without a schema, which type conditions a read applied to which
/// `__typename`s: a condition that never matched any object it met may
/// name an interface or union, whose fragments Apollo (which knows the
/// schema) would have applied.
final class TypeConditionLog: @unchecked Sendable {
    private var matched: Set<String> = []
    private var unmatched: [String: Set<String>] = [:]
    /// Conditions that, where they did not apply, always stood beside one
    /// that did (`... on Human { } ... on Droid { }`).
    private var onlyAlternatives: Set<String> = []
    private var notOnlyAlternatives: Set<String> = []
    /// Conditions of inline fragments met on objects without `__typename`.
    private var metUntyped: Set<String> = []

    func noteUntyped(_ typeCondition: String) {
        metUntyped.insert(typeCondition)
    }

    func note(_ typeCondition: String, appliedTo typename: String, _ applied: Bool, besideOneThatApplied: Bool = false) {
        if applied {
            matched.insert(typeCondition)
            return
        }
        unmatched[typeCondition, default: []].insert(typename)
        if besideOneThatApplied && !notOnlyAlternatives.contains(typeCondition) {
            onlyAlternatives.insert(typeCondition)
        } else {
            onlyAlternatives.remove(typeCondition)
            notOnlyAlternatives.insert(typeCondition)
        }
    }

    /// Each condition that matched no object, with the `__typename`s it was
    /// not applied to, in name order. A condition that only ever stood
    /// beside one that applied is left out when `isObjectType` says it
    /// names an object type (another member of the union, as expected);
    /// `... on Character` beside `... on Droid` is not one, and is named.
    func neverApplied(isObjectType: (String) throws -> Bool) rethrows -> [TypeConditionNotApplied] {
        var found: [TypeConditionNotApplied] = []
        for condition in Set(unmatched.keys).union(metUntyped).sorted() where !matched.contains(condition) {
            let untyped = metUntyped.contains(condition)
            if !untyped, onlyAlternatives.contains(condition), try isObjectType(condition) { continue }
            found.append(TypeConditionNotApplied(
                typeCondition: condition, typenames: unmatched[condition, default: []].sorted(), metObjectsWithoutTypename: untyped))
        }
        return found
    }
}

/// A type condition a read without a schema applied to no object: it took
/// the name for an object type, and `typenames` are the objects it met.
public struct TypeConditionNotApplied: Equatable, Sendable {
    public let typeCondition: String
    public let typenames: [String]
    /// Whether it met objects without `__typename`, whose type is unknown
    /// (inline fragments on a type are not applied to them).
    public var metObjectsWithoutTypename = false
}
