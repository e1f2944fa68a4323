import CacheStore

/// How an object written to the cache gets its record key when it has an
/// identity: `Typename:id`, the values of its key fields joined by `+`.
/// Keyed by the schema's `@typePolicy`, each value has `\` and `+` escaped
/// by a backslash, as Apollo's generated key does (spec §3); keyed by a
/// `--key-field`, which stands for the app's `cacheKeyInfo(for:object:)`,
/// nothing is escaped, as `CacheKeyInfo(jsonValue: object["id"])` escapes
/// nothing (a base64 id keeps its `+`).
///
/// Key fields come from, in Apollo's order (`SchemaMetadata.cacheKey(for:)`):
/// first the app's `cacheKeyInfo`, which the policy stands for (its entry
/// for the typename, `--key-field Human=id`; with a schema its entry for an
/// interface or union the type belongs to, `--key-field Character=id`, the
/// first by name; else its `*` entry, every type whose data has those
/// fields); then, when those give no key (none named, or the data lacks one
/// of them), the schema's `@typePolicy(keyFields:)` on the type or one of
/// its interfaces. An object neither keys is stored at a path key.
public struct KeyPolicy: Sendable, Equatable {
    public var keyFields: [String: [String]]

    public init(keyFields: [String: [String]] = [:]) {
        self.keyFields = keyFields
    }

    /// The key fields that key an object of the type when its data has
    /// them: the app's, else the schema's.
    func keyFields(of typename: String, schema: CacheSchema?) -> [String]? {
        appKeyFields(of: typename, schema: schema) ?? schema?.keyFields(of: typename)
    }

    /// The policy's key fields for the type: its own entry, an abstract
    /// type's, or `*` (the app's `cacheKeyInfo`).
    private func appKeyFields(of typename: String, schema: CacheSchema?) -> [String]? {
        policyEntry(for: typename, schema: schema) ?? keyFields["*"]
    }

    /// The key fields given for the type by name (its own, an abstract
    /// type's, or the schema's), not by `*`.
    func namedKeyFields(of typename: String, schema: CacheSchema?) -> [String]? {
        policyEntry(for: typename, schema: schema) ?? schema?.keyFields(of: typename)
    }

    /// The policy's entry for the type itself, else (with a schema) for the
    /// first by name of the interfaces and unions it belongs to.
    private func policyEntry(for typename: String, schema: CacheSchema?) -> [String]? {
        if let own = keyFields[typename] { return own }
        guard let schema, let abstract = keyFields.keys.sorted().first(where: { $0 != "*" && schema.matches(typeCondition: $0, typename: typename) })
        else { return nil }
        return keyFields[abstract]
    }

    /// The types of `policy` entries that keyed none of the `written`
    /// typenames: an interface or union counts as written when one of its
    /// types was (with a schema to say so).
    public func typesKeyingNothing(written: Set<String>, schema: CacheSchema?) -> Set<String> {
        Set(keyFields.keys.filter { type in
            type != "*" && !written.contains(type) && !written.contains { schema?.matches(typeCondition: type, typename: $0) == true }
        })
    }

    /// The identity key of an object, or nil when it has none: by the
    /// app's key fields, else by the schema's `@typePolicy`, as Apollo
    /// falls back to `keyFields` when `cacheKeyInfo` returns nil.
    func key(for object: [String: FieldValue], typename: String?, schema: CacheSchema?) -> CacheKey? {
        guard let typename else { return nil }
        // `CacheKeyInfo(jsonValue:)` escapes nothing (a base64 id keeps its `+`).
        if let fields = appKeyFields(of: typename, schema: schema), let key = Self.key(for: object, typename: typename, fields: fields, escaping: false) {
            return key
        }
        guard let fields = schema?.keyFields(of: typename) else { return nil }
        return Self.key(for: object, typename: typename, fields: fields, escaping: true)
    }

    private static func key(for object: [String: FieldValue], typename: String, fields: [String], escaping: Bool) -> CacheKey? {
        guard !fields.isEmpty else { return nil }
        var parts: [String] = []
        for field in fields {
            let text: String
            switch object[field] {
            case .string(let value)?: text = value
            case .int(let value)?: text = String(value)
            case .double(let value)?: text = value.description
            case .number(let value)?: text = value
            case .bool(let value)?: text = value ? "true" : "false"
            default: return nil
            }
            parts.append(escaping ? text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "+", with: "\\+") : text)
        }
        return CacheKey(typename + ":" + parts.joined(separator: "+"))
    }
}

/// Why response data could not be written: where, and what is wrong.
public struct NormalizationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: [PathComponent]
    public let message: String

    public var description: String {
        let place = path.isEmpty ? "(root)" : path.map(\.description).joined(separator: ".")
        return "cannot write \(place): \(message)"
    }
}

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

    /// The key fields an object of `typename` is keyed by (the policy's,
    /// or the schema's `@typePolicy`), or nil when nothing says.
    public func keyFields(of typename: String) -> [String]? {
        keyPolicy.keyFields(of: typename, schema: schema).flatMap { $0.isEmpty ? nil : $0 }
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
        let scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
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
        let scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
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
        let scope = try VariableScope(given: variables, fragment: fragment, document: document, schema: schema)
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

extension Normalization {
    /// This normalization and `other`, one after the other: the records of
    /// both, a key's fields merged (a field both give takes `other`'s
    /// value) in the order keys were first met, and what each found.
    public func adding(_ other: Normalization) -> Normalization {
        var sum = self
        var index = Dictionary(records.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        for record in other.records {
            if let at = index[record.key] {
                sum.records[at] = Record(key: record.key, fields: sum.records[at].fields.merging(record.fields) { _, later in later })
            } else {
                index[record.key] = sum.records.count
                sum.records.append(record)
            }
        }
        sum.typeConditionsNotApplied += other.typeConditionsNotApplied.filter { !typeConditionsNotApplied.contains($0) }
        sum.objectTypenames.formUnion(other.objectTypenames)
        sum.keptWithoutID += other.keptWithoutID
        sum.unkeyed += other.unkeyed
        sum.unknownEnumValues += other.unknownEnumValues
        sum.overwritten += other.overwritten
        sum.deferredNotWritten += other.deferredNotWritten
        sum.rootIdentityKey = sum.rootIdentityKey ?? other.rootIdentityKey
        return sum
    }
}

/// What Apollo writes of the fragments `@defer` defers.
public enum DeferredFragmentWriting: Sendable {
    /// None: a server's response lacks them, and Apollo's normalizer
    /// leaves them to the incremental payloads that deliver them, also
    /// when the data holds their fields.
    case notWritten
    /// Those the data holds a field of, as Apollo writes a model's
    /// fulfilled fragments; one it holds none of is pending. The data is a
    /// model's in all: with a schema, a number in a String or ID field is
    /// written as its text, as the model holds it.
    case whereGiven
}

/// A deferred fragment of a response that was not written though the data
/// holds fields that only it selects.
public struct DeferredFragmentNotWritten: Equatable, Sendable {
    /// The response path of the object, `""` for the root.
    public let path: String
    public let label: String?
    /// The fields the data holds for it, by response name.
    public let fields: [String]
}

/// What a normalization gives: the records to merge, in the order they
/// were first met, and, without a schema, the type conditions that applied
/// to no object (their fields were left out, as a read leaves them out).
public struct Normalization: Sendable {
    public var records: [Record]
    public var typeConditionsNotApplied: [TypeConditionNotApplied]
    /// The `__typename`s of the objects written, the ones a key policy
    /// can key (a fragment's root among them; an operation's root record is not).
    public var objectTypenames: Set<String> = []
    /// Objects written back into the identity-keyed record they were read
    /// from, with no key policy for their type and no `id` in the data: an
    /// app that keys the type by `id` would have Apollo write them at their
    /// path key instead.
    public var keptWithoutID: [KeptObject] = []
    /// Objects of a type with key fields written at their path key because
    /// the selection lacks one of them: those whose type was named for its
    /// key fields, and any whose data holds them unselected.
    public var unkeyed: [UnkeyedObject] = []
    /// With a schema: enum values written that the schema's enum lacks.
    public var unknownEnumValues: [UnknownEnumValue] = []
    /// Fields of one record given two different values by the data (two
    /// aliases of one field, or two paths to one keyed object), and which
    /// value Apollo keeps. Empty when refusing conflicts.
    public var overwritten: [OverwrittenField] = []
    /// Deferred fragments whose fields the data holds but Apollo does not
    /// write from a response (see ``DeferredFragmentWriting/notWritten``).
    public var deferredNotWritten: [DeferredFragmentNotWritten] = []
    /// The key a fragment's root data gives by its key fields, when that
    /// is not the key it is written at and the data read there did not
    /// give it either: the data names another object (its `id` changed),
    /// but Apollo writes a fragment at the key it is given, so the record
    /// keeps a key that no longer says what it holds.
    public var rootIdentityKey: CacheKey?
}

/// A field of a record the data gives two different values (see
/// ``Normalization/overwritten``).
public struct OverwrittenField: Sendable {
    public let key: CacheKey
    public let fieldKey: String
    /// The value kept and the values dropped, in the order the data gave
    /// them: each its response path (`hero.name`) and its JSON.
    public let kept: (path: String, value: String)
    public let dropped: [(path: String, value: String)]
}

/// An object whose type has key fields, written at its path key (see
/// ``Normalization/unkeyed``).
public struct UnkeyedObject: Equatable, Sendable {
    /// The response path, `human`.
    public let path: String
    public let typename: String
    public let keyFields: [String]
    public let pathKey: CacheKey
    /// Whether the selection asks for every key field (and so the data
    /// lacks a value).
    public let keyFieldsSelected: Bool
    /// The key fields at fault: those the selection lacks; when it has
    /// them all, those whose value cannot key (null, a list, an object).
    public let missingKeyFields: [String]
    /// The key the object's data would give, had the selection asked for
    /// the key fields it holds.
    public let keyInData: CacheKey?
}

/// An object written into the record it was read from rather than at its
/// path key (see ``Normalization/keptWithoutID``).
public struct KeptObject: Equatable, Sendable {
    /// The response path, `hero.friends.0`.
    public let path: String
    public let typename: String
    public let key: CacheKey
    public let pathKey: CacheKey
}

/// The keys of the objects a read found, by response path, so that
/// writing the same data back keeps each object in its record (`update`)
/// when no key policy says what its key is.
///
/// Only identity-keyed records (`Human:1000`) are kept: the app keys their
/// type, by fields the tool may not know. An object that moved is found
/// again by `__typename` and `id`, or, in a list, by being unchanged, so
/// removing or reordering list elements moves references instead of
/// copying data between records. A path-keyed record
/// (`QUERY_ROOT.reviews(first:2).0`) is never kept: Apollo keys such an
/// object by where it is now, as it does a new one.
public struct ExistingObjects: Sendable {
    struct Object: Sendable {
        let key: CacheKey
        let signature: String?
        let data: FieldValue
    }

    var byPath: [String: Object] = [:]
    /// Where each identity-keyed record was read (its first place).
    var pathOfKey: [CacheKey: String] = [:]
    var bySignature: [String: CacheKey] = [:]
    /// The `__typename` of every object read, path-keyed ones and the root too.
    var typenames: [String: String] = [:]
    /// The members of the object read at the root.
    var root: [String: FieldValue]?
    /// The `__typename`s of the objects read with each `id`.
    var typenamesByID: [String: Set<String>] = [:]
    /// The objects of each list, with their indexes, by the list's path.
    var listElements: [String: [(index: Int, object: Object)]] = [:]
    /// The elements of each list read, as read, by the list's path.
    var listValues: [String: [FieldValue]] = [:]
    /// Elements of a list stay where they are: the data is the data read
    /// with values set at paths (`update --set`), so an element that
    /// looks like another read was changed at its place, not moved.
    public var elementsStayInPlace = false
    /// The paths of selected nullable fields the read found no value for
    /// (``ReadResult/absentFields``): data without them leaves the field
    /// unwritten, as Apollo's update does, instead of being refused.
    var absent: Set<String> = []

    public init() {}

    /// Builds the map from what a read returned, the keys it visited, and
    /// the paths of those that are path keys.
    init(keys: [String: CacheKey], pathKeyed: Set<String>, data: ResponseValue?) {
        guard let data else { return }
        if case .object(let members) = data.fieldValue { root = members }
        func visit(_ value: ResponseValue, path: String) {
            switch value {
            case .object(let members):
                let key = keys[path]
                if key != nil, case .string(let name)? = members.first(where: { $0.0 == "__typename" })?.1.fieldValue {
                    typenames[path] = name
                    if let id = Self.idText(members.first { $0.0 == "id" }?.1.fieldValue) { typenamesByID[id, default: []].insert(name) }
                }
                if let key, !path.isEmpty, !pathKeyed.contains(path) {
                    let signature = Self.signature(members.first { $0.0 == "__typename" }?.1.fieldValue, members.first { $0.0 == "id" }?.1.fieldValue)
                    byPath[path] = Object(key: key, signature: signature, data: value.fieldValue)
                    if pathOfKey[key] == nil { pathOfKey[key] = path }
                    if let signature { bySignature[signature] = key }
                }
                for (name, member) in members { visit(member, path: path.isEmpty ? name : path + "." + name) }
            case .list(let elements):
                for (index, element) in elements.enumerated() { visit(element, path: path + "." + String(index)) }
                listElements[path] = elements.indices.compactMap { index in byPath[path + "." + String(index)].map { (index, $0) } }
                listValues[path] = elements.map(\.fieldValue)
            case .null, .scalar:
                break
            }
        }
        visit(data, path: "")
    }

    /// The `__typename` of the object read at `path`, if one was.
    func typename(at path: String) -> String? { typenames[path] }

    /// The `__typename` of the object now at `path` with this `id`: that of
    /// the one object read with the id, wherever it was (a list reordered
    /// by hand moves objects); else that of the one read at `path`.
    func typename(at path: String, id: FieldValue?) -> String? {
        if let id = Self.idText(id), let found = typenamesByID[id], found.count == 1 { return found.first }
        return typenames[path]
    }

    static func idText(_ id: FieldValue?) -> String? {
        switch id {
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        default: return nil
        }
    }

    /// Every `__typename` read.
    var readTypenames: Set<String> { Set(typenames.values) }

    /// ``signature(_:_:)`` of an object's data; nil for anything else.
    static func signature(of value: FieldValue) -> String? {
        guard case .object(let members) = value else { return nil }
        return signature(members["__typename"], members["id"])
    }

    static func signature(_ typename: FieldValue?, _ id: FieldValue?) -> String? {
        guard case .string(let typename)? = typename, let id = idText(id) else { return nil }
        return typename + "\u{0}" + id
    }

    /// What an element of a list now is, of the list read: the element
    /// read at `read`, a new object, or one of several read that nothing
    /// tells apart.
    enum ElementMatch: Equatable {
        case read(Int)
        case new
        case ambiguous(candidates: [CacheKey])
    }

    /// Which element read each element of the list now is (`now`, in
    /// order; nil for one that is no object), for the list read at `path`,
    /// worked out for the whole list at once so that no record is taken
    /// twice where it was read once: an `id` says which; else one unchanged
    /// is the one read like it, those alike paired in the order they were
    /// read (with `elementsStayInPlace`, only the one read at its place);
    /// else a changed one is the one read at its place, when no other took
    /// it. A changed one whose place another took is new when
    /// every record read is taken, and else could be any of those left.
    func matchElements(ofListAt path: String, now: [FieldValue?]) -> [ElementMatch] {
        let read = (0..<(listValues[path]?.count ?? 0)).map { self.object($0, ofListAt: path) }
        var taken = Set<Int>()
        var result = [ElementMatch?](repeating: nil, count: now.count)
        func object(_ value: FieldValue?) -> [String: FieldValue]? {
            if case .object(let members)? = value { return members }
            return nil
        }
        for (index, value) in now.enumerated() {
            guard let members = object(value) else {
                result[index] = .new
                continue
            }
            guard let signature = Self.signature(members["__typename"], members["id"]) else { continue }
            if let at = read.indices.first(where: { read[$0]?.signature == signature && !taken.contains($0) }) {
                taken.insert(at)
                result[index] = .read(at)
            } else {
                result[index] = .new
            }
        }
        if elementsStayInPlace {
            for index in now.indices where result[index] == nil && index < read.count {
                if let was = read[index], now[index] == was.data {
                    taken.insert(index)
                    result[index] = .read(index)
                }
            }
        } else {
            // Unchanged ones, where they are or moved: those alike in all the
            // selection holds are paired in the order they were read, so that
            // one put before them does not reorder their records.
            var alike: [FieldValue: [Int]] = [:]
            for (at, was) in read.enumerated() where !taken.contains(at) {
                if let was { alike[was.data, default: []].append(at) }
            }
            var paired: [FieldValue: Int] = [:]
            for index in now.indices where result[index] == nil {
                guard let value = now[index], let group = alike[value], paired[value, default: 0] < group.count else { continue }
                let at = group[paired[value, default: 0]]
                paired[value, default: 0] += 1
                taken.insert(at)
                result[index] = .read(at)
            }
        }
        for index in now.indices where result[index] == nil && index < read.count && read[index] != nil && !taken.contains(index) {
            // Changed where it was read: its signature, if any, names no other.
            let members = object(now[index]) ?? [:]
            let signature = Self.signature(members["__typename"], members["id"])
            if signature == nil || read[index]?.signature == nil || read[index]?.signature == signature {
                taken.insert(index)
                result[index] = .read(index)
            }
        }
        let left = read.indices.filter { read[$0] != nil && !taken.contains($0) }.map { read[$0]!.key }
        return result.map { $0 ?? (left.isEmpty ? .new : .ambiguous(candidates: left)) }
    }

    /// The identity-keyed record for an object now at `path` that is no
    /// list's element: the one read there, unless its `id` says it is
    /// another object (then the one with that `__typename` and `id`). Nil:
    /// the object is keyed by its path.
    func match(at path: String, object: [String: FieldValue]) -> CacheKey? {
        let signature = Self.signature(object["__typename"], object["id"])
        if let signature, let key = bySignature[signature] { return key }
        guard let old = byPath[path], old.signature == nil || signature == nil || old.signature == signature else { return nil }
        return old.key
    }

    /// The objects read in the list at `path`, grouped by their data: how
    /// many elements hold each, and their records, each once, in the list's order.
    func alikeObjects(inListAt path: String) -> [FieldValue: (elements: Int, keys: [CacheKey])] {
        var groups: [FieldValue: (elements: Int, keys: [CacheKey])] = [:]
        for (_, object) in listElements[path] ?? [] {
            var group = groups[object.data] ?? (0, [])
            group.elements += 1
            if !group.keys.contains(object.key) { group.keys.append(object.key) }
            groups[object.data] = group
        }
        return groups
    }

    /// The identity-keyed object read at `index` of the list at `path`.
    func object(_ index: Int, ofListAt path: String) -> Object? { object(at: path + "." + String(index)) }

    /// The identity-keyed object read at `path`.
    func object(at path: String) -> Object? { byPath[path] }

    /// How many elements the list at `path` had when read, if one was.
    func count(ofListAt path: String) -> Int? { listValues[path]?.count }

    /// The element read at `index` of the list at `path`, if there was one.
    func element(_ index: Int, ofListAt path: String) -> FieldValue? {
        guard let elements = listValues[path], elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

/// A list's objects read and its elements now, grouped by their data:
/// objects alike in all the selection holds are told apart by nothing else.
/// An object read and changed at its place counts as still there, in the
/// group of what it was.
private struct AlikeCounts {
    let read: [FieldValue: (elements: Int, keys: [CacheKey])]
    let now: [FieldValue: Int]
}

/// One normalization: the records built so far.
private struct Pass {
    let normalizer: ResponseNormalizer
    let collector: FieldCollector
    let scope: VariableScope
    let existing: ExistingObjects
    var records: [CacheKey: [String: FieldValue]] = [:]
    var order: [CacheKey] = []
    var typenames: Set<String> = []
    var keptWithoutID: [KeptObject] = []
    var unkeyed: [UnkeyedObject] = []
    var unknownEnumValues: [UnknownEnumValue] = []
    var overwritten: [OverwrittenField] = []
    /// Where each field's value came from, to name both places of a conflict.
    /// Every place that gave the value it holds now.
    var writtenFrom: [CacheKey: [String: [[PathComponent]]]] = [:]
    /// An operation's root, whose selection set Apollo's code generator adds no `__typename` to.
    let rootIsOperation: Bool
    /// A fragment's root without a `__typename` of its own takes the
    /// fragment's object type, as objects below the root take their field's.
    var rootTypeFromSchema = false
    var deferredFragments = DeferredFragmentWriting.notWritten
    var deferredNotWritten: [DeferredFragmentNotWritten] = []
    /// The lists of the data, by response path, to tell a list element
    /// that moved from one that stayed (``ExistingObjects/matchElements(ofListAt:now:)``).
    var newLists: [String: [FieldValue]] = [:]
    /// For each list that lost or gained elements, its objects read and
    /// its elements now, grouped by their data.
    var alikeInLists: [String: AlikeCounts] = [:]
    /// For each list, which element read each of its elements is (see
    /// ``ExistingObjects/matchElements(ofListAt:now:)``).
    var elementMatches: [String: [ExistingObjects.ElementMatch]] = [:]
    /// The objects now at a path other than the one their record was read
    /// at (moved in a list), and the lists of a list of lists that moved,
    /// by path now: the read path of each.
    var movedFrom: [String: String] = [:]
    /// For each list of lists read, the inner lists read that one now at
    /// another place was found to be.
    var takenInnerLists: [String: Set<Int>] = [:]
    /// The lists now, by path, as compared with those read (see ``normalizedElements(ofListAt:selections:type:)``).
    var normalizedLists: [String: [FieldValue]] = [:]

    /// `value` as it is compared with the data read: each object with the
    /// `__typename` it was read with and its aliased `__typename` named, in
    /// lists at any depth.
    func normalized(_ value: FieldValue, at path: [PathComponent], selections: [Selection], type: OutputType?) -> FieldValue {
        switch value {
        case .list(let elements):
            return .list(elements.enumerated().map { normalized($1, at: path + [.index($0)], selections: selections, type: type) })
        case .object(let given):
            return .object(withAliasedTypename(withKnownTypename(given, path: path), selections: selections, parentType: type?.namedType.name))
        default:
            return value
        }
    }

    /// The elements of the list now at `path`, each ``normalized(_:at:selections:type:)``:
    /// worked out once a list, as each of its elements and the list itself ask.
    mutating func normalizedElements(ofListAt path: some Collection<PathComponent>, selections: [Selection], type: OutputType?) -> [FieldValue] {
        let text = path.map(\.description).joined(separator: ".")
        if let known = normalizedLists[text] { return known }
        let elements = (newLists[text] ?? []).enumerated().map { normalized($1, at: Array(path) + [.index($0)], selections: selections, type: type) }
        normalizedLists[text] = elements
        return elements
    }

    /// Where what is now at `path` was read: an object that moved (a post
    /// of a list reversed) takes its fields with it, so its comments are
    /// compared with those read under it, not with those of the post read
    /// at its new place.
    func readPath(_ path: some Collection<PathComponent>) -> String {
        var now = ""
        var read = ""
        for component in path {
            let step = component.description
            now = now.isEmpty ? step : now + "." + step
            read = read.isEmpty ? step : read + "." + step
            if let moved = movedFrom[now] { read = moved }
        }
        return read
    }

    init(normalizer: ResponseNormalizer, collector: FieldCollector, scope: VariableScope, existing: ExistingObjects, rootIsOperation: Bool) {
        self.normalizer = normalizer
        self.collector = collector
        self.scope = scope
        self.existing = existing
        self.rootIsOperation = rootIsOperation
    }

    var schema: CacheSchema? { normalizer.schema }

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

    static let missingTypename = "the data has no '__typename', which Apollo's generated models select in every object; "
        + "give it for each new object, e.g. \"__typename\": \"TypeName\""

    /// `fieldsToWrite`: the object's fields, deferred ones merged in, when
    /// the caller worked them out already (to find its key); otherwise
    /// they are worked out here.
    mutating func write(
        _ object: [String: FieldValue], key: CacheKey, selections: [Selection], path: [PathComponent], type: String?,
        fieldsToWrite: [(String, [FieldSelection])]? = nil
    ) throws {
        let typename = object.typename
        // A fragment's root too: it is written at whatever key it is given
        // (Apollo does so, and a warning covers a key of another type), but
        // its __typename must still be an object type of its type condition.
        // A type the schema lacks that objects were read with (a newer
        // app's, in records of the cache) stays as read, wherever the object
        // now is in a list: Apollo's models take it as the field's type, and
        // update writes back what it read.
        let keptAsRead = typename.map { schema?.isObjectType($0) == false && existing.readTypenames.contains($0) } ?? false
        // The type read at a fragment's root stays, whatever the fragment is on (a warning names the key).
        let readAtRoot = path.isEmpty && typename != nil && existing.typename(at: "") == typename
        if !keptAsRead, let schema, let typename, let type,
           !schema.isObjectType(typename) || (!readAtRoot && !schema.matches(typeCondition: type, typename: typename)) {
            // A value that does not fit its type, as a string in an Int field is.
            let ofWhat = path.isEmpty ? (rootIsOperation ? "the operation's root type is" : "the fragment is on") : "the field's type is"
            let why = schema.typeNames.contains(typename) && !schema.isObjectType(typename)
                ? "\(typename) is an interface or union, and a __typename names an object type"
                : !schema.isObjectType(typename) ? "the schema has no object type '\(typename)'"
                : schema.isObjectType(type) ? "\(ofWhat) \(type)" : "it is not one of \(type)'s possible types"
            throw NormalizationError(path: path + [.field("__typename")], message: "\"\(typename)\" does not fit: \(why)")
        }
        let schemaType = typename.flatMap { schema?.fieldTypes[$0] != nil ? $0 : nil } ?? type
        if schema != nil, typename == nil, type.map({ schema?.isObjectType($0) == true }) != true {
            try checkTypeConditionsApply(selections, type: type, path: path)
        }
        if records[key] == nil {
            records[key] = [:]
            order.append(key)
        }
        var entries: [(fieldKey: String, value: FieldValue, path: [PathComponent])] = []
        // The field's type when it is an object type: the type of every object there.
        let objectType = type.flatMap { schema?.isObjectType($0) == true ? $0 : nil }
        // Below the root, the type a new object without __typename has, as
        // the app's generated model for it has (a fragment's root is the
        // record at its key, whose type is its own, if it has one).
        let schemaTypename = path.isEmpty && !rootTypeFromSchema ? nil : objectType
        // Apollo's generated models select __typename in every object below
        // an operation's root, so data without it is data Apollo's
        // normalizer refuses (a missing value); no object of no type is stored.
        // So is a fragment's root at a key whose record has no type of its
        // own (a new one): a fragment model carries its __typename too.
        if !path.isEmpty || (!rootIsOperation && rootTypeFromSchema), typename == nil, schemaTypename == nil {
            let message = object["__typename"].map { "'__typename' holds \(JSONWriter.string(for: $0, asStored: false)), not a type name" }
            throw NormalizationError(path: path + [.field("__typename")], message: message ?? Self.missingTypename)
        }
        let selected = fieldsToWrite ?? fields(
            of: object, collected: collector.collect(selections, typename: typename ?? objectType, parentType: type, holds: { object[$0] != nil }),
            typename: typename ?? objectType, parentType: type, path: path)
        if normalizer.refusesUnselected {
            let names = Set(selected.map(\.0))
            if let extra = object.keys.filter({ $0 != "__typename" && !names.contains($0) }).sorted(by: byteOrder).first {
                let selects = selected.map(\.0).joined(separator: ", ")
                throw NormalizationError(
                    path: path + [.field(extra)],
                    message: "not in the selection\(typename.map { " for a \($0)" } ?? "") (it selects: \(selects))")
            }
        }
        for (responseKey, fields) in selected {
            let field = fields[0]
            let fieldPath = path + [.field(responseKey)]
            guard let value = object[responseKey] ?? (responseKey == "__typename" ? schemaTypename.map(FieldValue.string) : nil) else {
                if existing.absent.contains(readPath(fieldPath)) { continue }
                let message = responseKey == "__typename" ? Self.missingTypename : "the data has no '\(responseKey)', which the selection asks for"
                throw NormalizationError(path: fieldPath, message: message)
            }
            let fieldKey = FieldKey.render(name: field.name, arguments: scope.arguments(of: field))
            let declared = schemaType.flatMap { schema?.fieldType(on: $0, field: field.name) }
            let stored: FieldValue
            if field.selections == nil {
                if let declared, let problem = schema?.leafProblem(value, type: declared) {
                    throw NormalizationError(path: fieldPath + problem.indexes.map(PathComponent.index), message: problem.message)
                }
                if let declared, let unknown = schema?.unknownEnumValue(value, type: declared) {
                    unknownEnumValues.append(UnknownEnumValue(
                        path: fieldPath.map(\.description).joined(separator: "."), value: unknown.raw, enumName: unknown.enumName))
                }
                if let problem = Self.unstorableProblem(value) { throw NormalizationError(path: fieldPath, message: problem) }
                // A model holds a number given for a String or ID as its text (`--set name=5` where
                // the cache held null), and writes that; a server's response is stored as sent, as
                // Apollo's normalizer takes a scalar (an ID of 7 stays the number 7).
                stored = deferredFragments == .whereGiven ? declared.flatMap { schema?.readByApollo(value, type: $0) } ?? value : value
            } else {
                stored = try complete(
                    value, selections: fields.flatMap { $0.selections ?? [] }, pathKey: key.rawValue + "." + fieldKey,
                    path: fieldPath, type: declared)
            }
            entries.append((fieldKey, stored, fieldPath))
        }
        // As Apollo's normalizer does, an object's fields go into its record
        // once every object inside it has gone into its own: where one keyed
        // object is met again inside itself, its outer fields are kept.
        for (fieldKey, stored, fieldPath) in entries {
            let earlier = records[key]![fieldKey]
            if let earlier, earlier != stored, let sources = writtenFrom[key]?[fieldKey], let source = sources.last {
                if normalizer.refusesConflicts {
                    let other = source.map(\.description).joined(separator: ".")
                    throw NormalizationError(
                        path: fieldPath,
                        message: "it is field '\(fieldKey)' of \(key), as \(other) is, and the two hold different values ("
                            + "\(fieldPath.map(\.description).joined(separator: ".")): \(JSONWriter.string(for: stored, asStored: false)), "
                            + "\(other): \(JSONWriter.string(for: earlier, asStored: false))); give both the same value")
                }
                // One field given three values is one case: the last kept,
                // the others dropped, each value once with every place that
                // gave it, and never the value kept.
                let kept = (fieldPath.map(\.description).joined(separator: "."), JSONWriter.string(for: stored, asStored: false))
                let dropped = (
                    sources.map { $0.map(\.description).joined(separator: ".") }.joined(separator: ", "),
                    JSONWriter.string(for: earlier, asStored: false))
                let index = overwritten.firstIndex { $0.key == key && $0.fieldKey == fieldKey }
                var groups: [(path: String, value: String)] = []
                for group in (index.map { overwritten[$0].dropped } ?? []) + [dropped] where group.value != kept.1 {
                    if let same = groups.firstIndex(where: { $0.value == group.value }) {
                        groups[same].path += ", " + group.path
                    } else {
                        groups.append(group)
                    }
                }
                let field = OverwrittenField(key: key, fieldKey: fieldKey, kept: kept, dropped: groups)
                if let index { overwritten[index] = field } else { overwritten.append(field) }
            }
            if let earlier, earlier == stored {
                writtenFrom[key, default: [:]][fieldKey, default: []].append(fieldPath)
            } else {
                writtenFrom[key, default: [:]][fieldKey] = [fieldPath]
            }
            records[key]![fieldKey] = stored
        }
        // Apollo's code generator selects __typename in every selection set
        // but an operation's root, so the response Apollo stores carries it
        // even when the document does not spell it: it is stored too, and
        // fragments' type conditions then apply when the data is read back.
        // Taken from the data, or from the schema when the field's type is
        // an object type (at a fragment's root, only for a record with no
        // type of its own, which otherwise the data alone may change).
        // A fragment spread at an operation's root is a fragment's
        // selection set, which selects it there too (`{ ...RootFields }`).
        if !(path.isEmpty && rootIsOperation) || collector.spreadsFragment(selections), records[key]!["__typename"] == nil,
            let known = typename ?? schemaTypename
        {
            records[key]!["__typename"] = .string(known)
        }
    }

    /// The fields to write of `object`: those collected, and those of the
    /// deferred fragments Apollo writes (see ``DeferredFragmentWriting``),
    /// each merged in after the fields beside it, as Apollo's executor
    /// adds a deferred fragment's fields after the others.
    mutating func fields(
        of object: [String: FieldValue], collected: CollectedFields, typename: String?, parentType: String?, path: [PathComponent]
    ) -> [(String, [FieldSelection])] {
        var fields = collected.fields
        var index = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.0, $0) })
        var deferred = collected.deferred[...]
        while let fragment = deferred.popFirst() {
            let inner = collector.collect(fragment.selections, typename: typename, parentType: parentType)
            // The fields only the fragment selects, which tell whether the data gives it.
            let onlyHere = inner.fields.map(\.0).filter { $0 != "__typename" && index[$0] == nil }
            switch deferredFragments {
            case .notWritten:
                let given = onlyHere.filter { object[$0] != nil }
                if !given.isEmpty {
                    deferredNotWritten.append(DeferredFragmentNotWritten(
                        path: path.map(\.description).joined(separator: "."), label: fragment.label, fields: given))
                }
            case .whereGiven:
                // One whose fields are all selected beside it adds nothing to tell.
                guard onlyHere.contains(where: { object[$0] != nil }) else { continue }
                for (responseKey, selections) in inner.fields {
                    if let at = index[responseKey] {
                        fields[at].1 += selections
                    } else {
                        index[responseKey] = fields.count
                        fields.append((responseKey, selections))
                    }
                }
                deferred.append(contentsOf: inner.deferred)
            }
        }
        return fields
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

    /// Why Apollo could not store `value`, a leaf's: a number beyond a
    /// Double (JSONSerialization refuses to write infinity), or an object
    /// with a string `$reference` member, which Apollo would read back as a
    /// reference rather than as the custom scalar written.
    static func unstorableProblem(_ value: FieldValue) -> String? {
        let referenceProblem = "an object with a string '$reference' member is what Apollo stores a reference as: it would be read back as one, not as this value"
        switch value {
        case .double, .number:
            switch value.beyondADouble {
            case .tooLarge?: return "the number is too large for a Double; Apollo cannot store it"
            case .tooSmall?: return "the number is too small for a Double (it reads as 0); Apollo cannot store it"
            case nil: return nil
            }
        case .list(let elements):
            return elements.lazy.compactMap(unstorableProblem).first
        case .object(let members):
            // Only a string one: Apollo reads `{"$reference":5}` back as the object it is.
            if case .string? = members["$reference"] { return referenceProblem }
            return members.keys.sorted().lazy.compactMap { unstorableProblem(members[$0]!) }.first
        case .reference:
            return referenceProblem
        case .null, .bool, .int, .string:
            return nil
        }
    }

    mutating func complete(_ value: FieldValue, selections: [Selection], pathKey: String, path: [PathComponent], type: OutputType?) throws -> FieldValue {
        switch value {
        case .null:
            if case .nonNull? = type { throw NormalizationError(path: path, message: "null in a non-null field of type \(type!)") }
            return .null
        case .list(let elements):
            let elementType: OutputType?
            switch type?.nullable {
            case .list(let inner)?: elementType = inner
            case nil: elementType = nil
            default: throw NormalizationError(path: path, message: "expected \(type!), found a list")
            }
            let listText = path.map(\.description).joined(separator: ".")
            newLists[listText] = elements
            // A list in a list of lists that moved (`search` reversed) takes
            // its elements with it: they are compared with those read there.
            if case .index(let index)? = path.last {
                let outer = readPath(path.dropLast())
                let now = normalizedElements(ofListAt: path, selections: selections, type: type)
                if existing.listValues[outer + "." + String(index)] != now {
                    // The inner list read that holds most of its elements (as they
                    // were, or by id; then most at the same places), unless the one
                    // read at its place holds as many.
                    func shared(_ at: Int) -> (Int, Int) {
                        let read = existing.listValues[outer + "." + String(at)] ?? []
                        let signatures = Set(read.compactMap(ExistingObjects.signature(of:)))
                        let held = now.filter { $0 != .null && (read.contains($0) || ExistingObjects.signature(of: $0).map(signatures.contains) == true) }
                        return (held.count, zip(now, read).filter { $0 != .null && $0 == $1 }.count)
                    }
                    let taken = takenInnerLists[outer] ?? []
                    let here = shared(index)
                    let best = (0..<(existing.count(ofListAt: outer) ?? 0)).filter { $0 != index && !taken.contains($0) }
                        .map { ($0, shared($0)) }.max { $0.1 < $1.1 }
                    if let (at, count) = best, count > here, count.0 > 0 {
                        movedFrom[listText] = outer + "." + String(at)
                        takenInnerLists[outer, default: []].insert(at)
                    }
                }
            }
            var stored: [FieldValue] = []
            for (index, element) in elements.enumerated() {
                stored.append(try complete(
                    element, selections: selections, pathKey: pathKey + "." + String(index), path: path + [.index(index)], type: elementType))
            }
            return .list(stored)
        case .object(let given):
            if case .list? = type?.nullable {
                throw NormalizationError(path: path, message: "expected a list of type \(type!), found an object")
            }
            let object = withAliasedTypename(withKnownTypename(given, path: path), selections: selections, parentType: type?.namedType.name)
            var typename = object.typename
            let staticType = type?.namedType.name
            if typename == nil, let staticType, schema?.isObjectType(staticType) == true { typename = staticType }
            if let typename { typenames.insert(typename) }
            let pathText = path.map(\.description).joined(separator: ".")
            let listPath = path.dropLast().map(\.description).joined(separator: ".")
            // The same, where they were read (``readPath(_:)``), for what the read holds.
            let readPathText = readPath(path)
            let readListPath = readPath(path.dropLast())
            /// The element at `index` of the new list this object is in, as it is compared with those read.
            func newElement(_ index: Int) -> FieldValue? {
                guard case .index? = path.last, newLists[listPath] != nil else { return nil }
                let elements = normalizedElements(ofListAt: path.dropLast(), selections: selections, type: type)
                return elements.indices.contains(index) ? elements[index] : nil
            }
            /// Whether the new list holds the element read at `index`, unchanged, at `index`.
            func unchangedAt(_ index: Int) -> Bool {
                guard let new = newElement(index), let read = existing.element(index, ofListAt: readListPath) else { return false }
                return read == new
            }
            /// Throws for an `id` the selection asks for and the data lacks:
            /// with it, which record this is would be plain.
            func refuseWithoutSelectedID() throws {
                let collected = collector.collect(selections, typename: typename, parentType: staticType, holds: { object[$0] != nil })
                if let (name, _) = collected.fields.first(where: { $0.1.first?.name == "id" }), object[name] == nil,
                    !existing.absent.contains(readPathText + "." + name)
                {
                    throw NormalizationError(path: path + [.field(name)], message: "the data has no '\(name)', which the selection asks for")
                }
            }
            /// The record read that this object is, if any, and whether only
            /// its place says so (changed, and no `id` names it).
            func keptRecord() throws -> (CacheKey, Bool)? {
                guard case .index(let index)? = path.last, let count = newLists[listPath]?.count else {
                    return existing.match(at: readPathText, object: object).map { ($0, false) }
                }
                // An id says which, wherever it was read (in another inner list of a list of lists, too).
                if let signature = ExistingObjects.signature(object["__typename"], object["id"]), let key = existing.bySignature[signature] {
                    return (key, false)
                }
                if elementMatches[listPath] == nil {
                    // Once a list: no record read once is taken twice.
                    elementMatches[listPath] = existing.matchElements(ofListAt: readListPath, now: (0..<count).map(newElement))
                }
                switch elementMatches[listPath]![index] {
                case .new:
                    return nil
                case .read(let at):
                    guard let was = existing.object(at, ofListAt: readListPath) else { return nil }
                    let unnamed = ExistingObjects.signature(object["__typename"], object["id"]) == nil
                    return (was.key, at == index && unnamed && was.data != .object(object))
                case .ambiguous(let candidates):
                    try refuseWithoutSelectedID()
                    let named = candidates.prefix(3).map(\.rawValue).joined(separator: ", ") + (candidates.count > 3 ? ", …" : "")
                    throw NormalizationError(
                        path: path,
                        message: "'\(listPath)' holds elements read at other places in it, and this object, changed and without "
                            + "an id where another now stands, may be any of those read that it no longer holds as they were "
                            + "(\(named)); select id, or give --key-field \(typename ?? "TYPE")=id to key it by its data as the app does")
                }
            }
            // A key policy (the schema's, or --key-field) says the key, as the
            // app's does in Apollo: an object without its key fields goes to
            // its path key, whatever record it was read from. Without one,
            // the records read are kept (``ExistingObjects``).
            let key: CacheKey
            var fieldsToWrite: [(String, [FieldSelection])]?
            if let typename, let keyFields = normalizer.keyPolicy.keyFields(of: typename, schema: schema), !keyFields.isEmpty {
                // Key fields are not added to the selection (spec §3): a
                // value the data has but the selection does not ask for
                // (a hand-written response may hold anything) keys nothing.
                // The fields collected here are the ones written below.
                // Deferred ones included where written, as Apollo keys a model by its data.
                let written = fields(
                    of: object, collected: collector.collect(selections, typename: typename, parentType: staticType, holds: { object[$0] != nil }),
                    typename: typename, parentType: staticType, path: path)
                fieldsToWrite = written
                let selected = Set(written.map(\.0))
                if let identity = normalizer.keyPolicy.key(for: object.filter { selected.contains($0.key) }, typename: typename, schema: schema) {
                    key = identity
                } else {
                    key = CacheKey(pathKey)
                    // Worth a word when the data has the values, or the type's
                    // key fields were named for it (not only by `*`).
                    let inData = normalizer.keyPolicy.key(for: object, typename: typename, schema: schema)
                    if inData != nil || normalizer.keyPolicy.namedKeyFields(of: typename, schema: schema) != nil {
                        let unselected = keyFields.filter { !selected.contains($0) }
                        let unkeying = keyFields.filter { field in
                            switch object[field] {
                            case .string?, .int?, .double?, .number?, .bool?: return false
                            default: return true
                            }
                        }
                        unkeyed.append(UnkeyedObject(
                            path: pathText, typename: typename, keyFields: keyFields, pathKey: key,
                            keyFieldsSelected: unselected.isEmpty, missingKeyFields: unselected.isEmpty ? unkeying : unselected, keyInData: inData))
                    }
                }
            } else if let (kept, byPositionAlone) = try keptRecord() {
                // An element edited in a list that lost or gained elements
                // may be any of those read: position no longer says which
                // (dropping Luke and renaming Han would rename Luke). With
                // every other element at the places both lists have as it
                // was read, only the end changed: it is the one read there.
                if byPositionAlone, case .index(let index)? = path.last, let readCount = existing.count(ofListAt: readListPath),
                    let count = newLists[listPath]?.count, count != readCount,
                    !(0..<min(count, readCount)).allSatisfy({ $0 == index || unchangedAt($0) })
                {
                    try refuseWithoutSelectedID()
                    throw NormalizationError(
                        path: path,
                        message: "'\(listPath)' has \(count) element\(count == 1 ? "" : "s") where \(readCount) "
                            + "\(readCount == 1 ? "was" : "were") read, not only at the end, so this object, changed and "
                            + "without an id, may be any of those read, not only \(kept) read at its place; select id, "
                            + "or give --key-field \(typename ?? "TYPE")=id to key it by its data as the app does")
                }
                // Objects alike in all the selection holds, fewer now than
                // were read, in a list that lost or gained elements: which
                // of them went cannot be told (removing the first of ten
                // `{ __typename }` would drop the last).
                if case .index? = path.last, ExistingObjects.signature(object["__typename"], object["id"]) == nil,
                    let readCount = existing.count(ofListAt: readListPath), let count = newLists[listPath]?.count, count != readCount
                {
                    if alikeInLists[listPath] == nil {
                        // Once a list, not once an element: a list of thousands stays linear.
                        let read = existing.alikeObjects(inListAt: readListPath)
                        var now: [FieldValue: Int] = [:]
                        for index in 0..<count { if let element = newElement(index) { now[element, default: 0] += 1 } }
                        // One changed where it was read (`--set feed.1.title=…`), into
                        // an object like none read, is still there, not removed.
                        for index in 0..<min(count, readCount) {
                            if let was = existing.element(index, ofListAt: readListPath), case .object = was,
                                let element = newElement(index), case .object = element, read[element] == nil
                            {
                                now[was, default: 0] += 1
                            }
                        }
                        alikeInLists[listPath] = AlikeCounts(read: read, now: now)
                    }
                    let counts = alikeInLists[listPath]!
                    if let read = counts.read[.object(object)], read.keys.count > 1 {
                        let now = counts.now[.object(object)] ?? 0
                        if now < read.elements {
                            let named = read.keys.prefix(3).map(\.rawValue).joined(separator: ", ") + (read.keys.count > 3 ? ", …" : "")
                            throw NormalizationError(
                                path: path,
                                message: "'\(listPath)' has \(count) element\(count == 1 ? "" : "s") where \(readCount) "
                                    + "\(readCount == 1 ? "was" : "were") read, and \(now) alike in all the selection holds where "
                                    + "\(read.elements) were (\(named)), so which of those are kept cannot be told; select id, "
                                    + "or give --key-field \(typename ?? "TYPE")=id to key them by their data as the app does")
                        }
                    }
                }
                key = kept
                if object["id"] == nil, let typename {
                    keptWithoutID.append(KeptObject(path: pathText, typename: typename, key: kept, pathKey: CacheKey(pathKey)))
                }
            } else {
                key = CacheKey(pathKey)
            }
            // What it holds was read where its record was: another place for one that
            // moved, none for a new one standing where another was read.
            let readHere = existing.object(at: readPathText)
            if case .index? = path.last, readHere?.key != key {
                if let read = existing.pathOfKey[key] {
                    movedFrom[pathText] = read
                } else if readHere != nil {
                    movedFrom[pathText] = "\u{0}" + pathText
                }
            } else if let read = existing.pathOfKey[key], read != readPathText {
                movedFrom[pathText] = read
            }
            try write(object, key: key, selections: selections, path: path, type: staticType, fieldsToWrite: fieldsToWrite)
            return .reference(key)
        default:
            throw NormalizationError(
                path: path, message: "the selection needs an object, found \(JSONWriter.string(for: value, asStored: false))")
        }
    }
}
