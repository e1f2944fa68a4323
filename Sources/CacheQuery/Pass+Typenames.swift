import CacheStore

extension Pass {
    /// `object`, with the `__typename` an alias gives (`kind: __typename`)
    /// when it has none under its own name: the object's type all the same.
    /// The alias may sit in a fragment (`...F`, `... on Droid`), whose
    /// type condition the type it gives must then meet (`parentType`, the
    /// field's type, meets its own): `... on Droid { kind: __typename }`
    /// holding "Human" says nothing.
    func withAliasedTypename(_ object: [String: FieldValue], selections: [Selection], parentType: String?) -> [String: FieldValue] {
        guard object["__typename"] == nil else { return object }
        var visited: Set<String> = []
        func aliased(in selections: [Selection], condition: String?) -> FieldValue? {
            for selection in selections {
                switch selection {
                case .field(let field):
                    guard field.name == "__typename", scope.isIncluded(field.conditions), case .string(let name)? = object[field.responseKey]
                    else { continue }
                    if let condition, condition != parentType, !collector.applies(condition, to: name) { continue }
                    return .string(name)
                case .inlineFragment(let typeCondition, let conditions, let inner):
                    if scope.isIncluded(conditions), let found = aliased(in: inner, condition: typeCondition ?? condition) { return found }
                case .fragmentSpread(let name, let conditions):
                    if scope.isIncluded(conditions), visited.insert(name).inserted, let fragment = normalizer.document.fragments[name],
                        let found = aliased(in: fragment.selections, condition: fragment.typeCondition) { return found }
                case .deferred(_, let inner):
                    if let found = aliased(in: inner, condition: condition) { return found }
                }
            }
            return nil
        }
        guard let typename = aliased(in: selections, condition: nil) else { return object }
        var object = object
        object["__typename"] = typename
        return object
    }

    /// `object`, with the `__typename` of the object read at `path` when it
    /// has none: data edited from what `read` prints (no `__typename`
    /// there) keeps the type of each object it was read as.
    func withKnownTypename(_ object: [String: FieldValue], path: [PathComponent]) -> [String: FieldValue] {
        guard object["__typename"] == nil, let known = existing.typename(at: readPath(path), id: object["id"]) else {
            return object
        }
        var object = object
        object["__typename"] = .string(known)
        return object
    }

    /// For an object without `__typename` whose field's type has several
    /// possible types: refuses selections with inline fragments whose type
    /// condition only its `__typename` could decide. Without it their
    /// fields would be dropped unsaid; Apollo's data always has it.
    func checkTypeConditionsApply(_ selections: [Selection], type: String?, path: [PathComponent]) throws {
        var visited: Set<String> = []
        // The first fragment, inline or spread, whose condition not every object of `type` meets.
        func undecided(_ selections: [Selection]) -> String? {
            for selection in selections {
                switch selection {
                case .field:
                    continue
                case .inlineFragment(let typeCondition, let conditions, let inner):
                    guard scope.isIncluded(conditions) else { continue }
                    if let typeCondition, !decided(typeCondition) { return typeCondition }
                    if let found = undecided(inner) { return found }
                case .fragmentSpread(let name, let conditions):
                    guard scope.isIncluded(conditions), visited.insert(name).inserted, let fragment = normalizer.document.fragments[name] else { continue }
                    if !decided(fragment.typeCondition) { return fragment.typeCondition }
                    if let found = undecided(fragment.selections) { return found }
                case .deferred(_, let inner):
                    if let found = undecided(inner) { return found }
                }
            }
            return nil
        }
        func decided(_ typeCondition: String) -> Bool { type.map { collector.always(typeCondition, within: $0) } ?? false }
        guard let condition = undecided(selections) else { return }
        let example = schema?.isObjectType(condition) == true ? condition : "TypeName"
        let kind = type.map { "its type, \($0), has several possible types" } ?? "the schema does not give its type"
        throw NormalizationError(
            path: path + [.field("__typename")],
            message: "the data has no '__typename', which says whether the fragment on \(condition) applies (\(kind)); "
                + "give it for the object, e.g. \"__typename\": \"\(example)\"")
    }
}
