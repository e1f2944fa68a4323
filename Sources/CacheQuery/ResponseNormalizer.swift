import CacheStore

/// Turns response data for an operation or a fragment into cache records,
/// as Apollo iOS's normalizer does: each field under its field cache key
/// (§3), every object in a record of its own reached by a reference, keyed
/// by identity or by path (`QUERY_ROOT.reviews(episode:JEDI,first:2).0`).
///
/// ```swift
/// let records = try ResponseNormalizer(document: document, schema: schema, keyPolicy: policy)
///     .normalize(operation, data: data, variables: variables).records
/// try store.write { tx in try tx.merge(records) }
/// ```
///
/// With a schema, leaf values are type-checked, null in a non-null field
/// is refused, and so is an object's `__typename` that is not its field's
/// type or one of its possible types, so nothing is written that a read
/// would reject or the app's models could not hold.
public struct ResponseNormalizer {
    let document: QueryDocument
    let schema: CacheSchema?
    let keyPolicy: KeyPolicy
    /// How field keys write a Float nested in a list or an input
    /// object (see ``CacheReader/numberForm``).
    public var numberForm = NumberForm.linux

    /// The key fields an object of `typename` is keyed by (the policy's,
    /// or the schema's `@typePolicy`), or nil when nothing says.
    public func keyFields(of typename: String) -> [String]? {
        keyPolicy.keyFields(of: typename, schema: schema).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The name of the key policy's entry that keys an object of
    /// `typename` (its own, an interface's or union's, or `*`), or nil
    /// when none does.
    public func keyEntry(of typename: String) -> String? {
        keyPolicy.appEntry(for: typename, schema: schema)
    }

    /// The unique key group the key policy gives objects of `typename`
    /// (`--key-group`), or nil when they are keyed by their type's name.
    public func keyGroup(of typename: String) -> String? {
        keyEntry(of: typename).flatMap { keyPolicy.groups[$0] }
    }

    let refusesConflicts: Bool
    let refusesUnselected: Bool

    /// `refusingConflicts`: refuse data that gives one field of one record
    /// two different values, through two aliases or two paths to the same
    /// object. Apollo keeps one of them (``Normalization/overwritten`` says
    /// which); for data a person edited (a local cache mutation), that
    /// silently drops the change made to the other.
    /// `refusingUnselected`: refuse an object member the selection does not
    /// select (`__typename` aside). Apollo writes only what is selected and
    /// ignores the rest of a server's response; in data a person typed, such
    /// a member is a typo (`nmae`) that would be dropped without a word.
    public init(
        document: QueryDocument, schema: CacheSchema? = nil, keyPolicy: KeyPolicy = KeyPolicy(), refusingConflicts: Bool = false,
        refusingUnselected: Bool = false
    ) {
        self.document = document
        self.schema = schema
        self.keyPolicy = keyPolicy
        self.refusesConflicts = refusingConflicts
        self.refusesUnselected = refusingUnselected
    }

    /// The records for `data`, the response's `data` object, written from
    /// the operation's root record. `deferredFragments` says whether the
    /// data is a server's response, which Apollo writes without the
    /// fragments `@defer` defers (their fields come in a later payload), or
    /// an operation's model (a local cache mutation's), whose deferred
    /// fragments Apollo writes when the data holds them.
    public func normalize(
        _ operation: Operation, data: FieldValue, variables: [String: InputValue] = [:], existing: ExistingObjects = ExistingObjects(),
        deferredFragments: DeferredFragmentWriting = .notWritten
    ) throws -> Normalization {
        // A spread no document defines is said before a variable it needs.
        try document.checkFragmentSpreads(in: operation.selections)
        var scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
        scope.numberForm = numberForm
        return try run(data, rootKey: operation.rootKey, selections: operation.selections, scope: scope,
                       type: operation.rootType(in: schema), existing: existing, isOperation: true, deferredFragments: deferredFragments)
    }

    /// The records for one part of a later payload of a deferred response
    /// (an element of its `incremental` list), as Apollo writes it: the
    /// data of the deferred fragment with that label at that path, at the
    /// key of the path from the operation's root record, response names
    /// and list indexes joined by dots (`QUERY_ROOT.hero.friends.0`), not
    /// at the key of the object the path leads to.
    public func normalize(
        _ operation: Operation, incremental data: FieldValue, path: [PathComponent], label: String, variables: [String: InputValue] = [:]
    ) throws -> Normalization {
        let fieldPath = path.compactMap { component -> String? in
            if case .field(let name) = component { return name }
            return nil
        }
        guard let fragment = deferredFragment(in: operation, label: label, fieldPath: fieldPath) else {
            let labels = deferredLabels(in: operation).map { "'\($0.label)' at \($0.fieldPath.isEmpty ? "the root" : $0.fieldPath.joined(separator: "."))" }
            throw NormalizationError(
                path: path,
                message: "the operation has no fragment deferred with label '\(label)' at "
                    + "\(fieldPath.isEmpty ? "the root" : fieldPath.joined(separator: "."))"
                    + (labels.isEmpty ? "; it defers none" : "; it defers \(labels.joined(separator: ", "))"))
        }
        var scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
        scope.numberForm = numberForm
        let key = ([operation.rootKey.rawValue] + path.map(\.description)).joined(separator: ".")
        do {
            return try run(
                data, rootKey: CacheKey(key), selections: fragment.selections, scope: scope, type: fragment.type, existing: ExistingObjects(),
                isOperation: false, deferredFragments: .notWritten)
        } catch let error as NormalizationError {
            // Placed in the response, as the part's data is.
            throw NormalizationError(path: path + error.path, message: error.message)
        }
    }

    /// The labelled deferred fragments of `operation`, each with the
    /// response names of the fields from the root to the object it is on,
    /// as Apollo's generated operation lists them.
    func deferredLabels(in operation: Operation) -> [(label: String, fieldPath: [String], selections: [Selection], type: String?)] {
        var found: [(label: String, fieldPath: [String], selections: [Selection], type: String?)] = []
        // Each fragment once at each field path: a cycle ends, and fragments
        // that spread the same others are not walked once per path to them.
        var spread: Set<[String]> = []
        func visit(_ selections: [Selection], fieldPath: [String], type: String?) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    guard let inner = field.selections else { continue }
                    let fieldType = type.flatMap { schema?.fieldType(on: $0, field: field.name)?.namedType.name }
                    visit(inner, fieldPath: fieldPath + [field.responseKey], type: fieldType)
                case .inlineFragment(let typeCondition, _, let inner):
                    visit(inner, fieldPath: fieldPath, type: typeCondition ?? type)
                case .fragmentSpread(let name, _):
                    guard let fragment = document.fragments[name], spread.insert([name] + fieldPath).inserted else { continue }
                    visit(fragment.selections, fieldPath: fieldPath, type: fragment.typeCondition)
                case .deferred(let deferral, let inner):
                    // A deferred spread's data is of the fragment's type.
                    var ownType = type
                    if inner.count == 1, case .fragmentSpread(let name, _) = inner[0], let fragment = document.fragments[name] {
                        ownType = fragment.typeCondition
                    }
                    if let label = deferral.label { found.append((label, fieldPath, inner, ownType)) }
                    visit(inner, fieldPath: fieldPath, type: type)
                }
            }
        }
        visit(operation.selections, fieldPath: [], type: operation.rootType(in: schema))
        return found
    }

    func deferredFragment(in operation: Operation, label: String, fieldPath: [String]) -> (selections: [Selection], type: String?)? {
        deferredLabels(in: operation).first { $0.label == label && $0.fieldPath == fieldPath }.map { ($0.selections, $0.type) }
    }

    /// The records for `data` read as `fragment`, written at `key`.
    /// `keyHoldsTypename` false: the record at `key` has no `__typename`
    /// (or there is none), so data without one gets the fragment's type
    /// when the schema makes it an object type, as the app's generated
    /// fragment model carries it. A record with a type of its own keeps
    /// it unless the data says otherwise.
    public func normalize(
        _ fragment: FragmentDefinition, key: CacheKey, data: FieldValue, variables: [String: InputValue] = [:],
        existing: ExistingObjects = ExistingObjects(), keyHoldsTypename: Bool = true
    ) throws -> Normalization {
        try document.checkFragmentSpreads(in: fragment.selections)
        var scope = try VariableScope(given: variables, fragment: fragment, document: document, schema: schema)
        scope.numberForm = numberForm
        // A fragment's data is a model's: Apollo's `write(data:forKey:)`.
        return try run(
            data, rootKey: key, selections: fragment.selections, scope: scope, type: fragment.typeCondition, existing: existing, isOperation: false,
            deferredFragments: .whereGiven, rootTypeFromSchema: !keyHoldsTypename)
    }

    private func run(
        _ data: FieldValue, rootKey: CacheKey, selections: [Selection], scope: VariableScope, type: String?, existing: ExistingObjects,
        isOperation: Bool, deferredFragments: DeferredFragmentWriting, rootTypeFromSchema: Bool = false
    ) throws -> Normalization {
        try document.checkFragmentSpreads(in: selections)
        var fieldMergeCheck = FieldMergeCheck(document: document, schema: schema)
        try fieldMergeCheck.check(selections, type: type)
        try scope.checkConditions(in: selections, document: document)
        guard case .object(let object) = data else {
            throw NormalizationError(path: [], message: "the data must be a JSON object")
        }
        let collector = FieldCollector(document: document, schema: schema, scope: scope, log: schema == nil ? TypeConditionLog() : nil)
        var pass = Pass(normalizer: self, collector: collector, scope: scope, existing: existing, rootIsOperation: isOperation)
        pass.rootTypeFromSchema = rootTypeFromSchema
        pass.deferredFragments = deferredFragments
        let given = pass.withAliasedTypename(pass.withKnownTypename(object, path: []), selections: selections, parentType: type)
        try pass.write(given, key: rootKey, selections: selections, path: [], type: type)
        var rootIdentityKey: CacheKey?
        if !isOperation {
            // A fragment's root is an object of its type written too (an operation's is its root record).
            let typename = given.typename
            if let typename { pass.typenames.insert(typename) }
            rootIdentityKey = identityKey(of: given, typename: typename, insteadOf: rootKey, read: existing)
        }
        return Normalization(
            records: pass.order.map { Record(key: $0, fields: pass.records[$0]!) },
            // Written data has no cache to tell object types by: a condition
            // beside one that applied is taken for another member.
            typeConditionsNotApplied: collector.log?.neverApplied { _ in true } ?? [],
            objectTypenames: pass.typenames, keptWithoutID: pass.keptWithoutID, unkeyed: pass.unkeyed,
            unknownEnumValues: pass.unknownEnumValues, overwritten: pass.overwritten, deferredNotWritten: pass.deferredNotWritten,
            rootIdentityKey: rootIdentityKey)
    }

    /// The key `written`, a fragment's root data of `typename`, gives by
    /// its key fields when that is neither `key` nor the key the data read
    /// there gave.
    private func identityKey(
        of written: [String: FieldValue], typename: String?, insteadOf key: CacheKey, read existing: ExistingObjects
    ) -> CacheKey? {
        guard let identity = keyPolicy.key(for: written, typename: typename, schema: schema), identity != key else { return nil }
        let read = existing.root.flatMap { keyPolicy.key(for: $0, typename: $0.typename ?? existing.typename(at: ""), schema: schema) }
        return identity == read ? nil : identity
    }
}
