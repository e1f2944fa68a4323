import CacheStore

/// Reads an operation or a fragment from cache records as Apollo iOS does:
/// from the root record (or a given key), field by field, computing each
/// field cache key, following references (also inside nested lists) and
/// applying fragments whose type condition matches the record's
/// `__typename`.
///
/// ```swift
/// let result = try store.read { tx in
///     try CacheReader(document: document, source: tx).read(operation, variables: ["episode": .enumValue("JEDI")])
/// }
/// ```
///
/// A fragment on the selection set's declared type (or, with a schema, a
/// type it implements) applies to every object, as in Apollo's generated
/// models; at an operation's root that is its root type (`Query` when
/// there is no schema). Otherwise, without a schema a type condition matches only a
/// record whose `__typename` is that very name (the result names the
/// conditions that matched none, which may be interfaces or unions), and
/// values are returned as stored. With
/// one, interfaces and unions match their possible types and variables are
/// coerced to their declared types (an integer for a Float renders `-2.0`).
public struct CacheReader {
    let document: QueryDocument
    let schema: CacheSchema?
    let source: RecordSource

    public init(document: QueryDocument, schema: CacheSchema? = nil, source: RecordSource) {
        self.document = document
        self.schema = schema
        self.source = source
    }

    /// Reads `operation` from its root record. With `partial`, every miss
    /// is collected and the data found is returned with nulls in their
    /// place; without, the first miss ends the read with no data.
    /// `forUpdate` reads as Apollo's `ReadWriteTransaction.update` does:
    /// a field that the record lacks and the schema declares nullable is
    /// left out of the data (listed in ``ReadResult/absentFields``) rather
    /// than a miss, and the record each object came from is kept.
    public func read(
        _ operation: Operation, variables: [String: InputValue] = [:], partial: Bool = false, forUpdate: Bool = false
    ) throws -> ReadResult {
        // A spread of a fragment no document defines is the document's
        // fault, said before any variable it needs (which would not mend it).
        try document.checkFragmentSpreads(in: operation.selections)
        let scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
        return try run(rootKey: operation.rootKey, selections: operation.selections, scope: scope, partial: partial,
                       type: operation.rootType(in: schema), rootIsOperation: true, forUpdate: forUpdate)
    }

    /// Reads `fragment` from the record at `key`.
    public func read(
        _ fragment: FragmentDefinition, key: CacheKey, variables: [String: InputValue] = [:], partial: Bool = false,
        forUpdate: Bool = false
    ) throws -> ReadResult {
        try document.checkFragmentSpreads(in: fragment.selections)
        let scope = try VariableScope(given: variables, fragment: fragment, document: document, schema: schema)
        var result = try run(
            rootKey: key, selections: fragment.selections, scope: scope, partial: partial, type: fragment.typeCondition, forUpdate: forUpdate)
        // Apollo reads a fragment from whatever record the key names; a
        // schema can tell when that record's type is not one the fragment is on.
        if let schema, case .string(let typename)? = result.records[key]?.fields["__typename"] {
            result.fragmentOnOtherType = FragmentOnOtherType.of(fragment, at: key, typename: typename, schema: schema)
        }
        return result
    }

    private func run(
        rootKey: CacheKey, selections: [Selection], scope: VariableScope, partial: Bool, type: String?, rootIsOperation: Bool = false,
        forUpdate: Bool
    ) throws -> ReadResult {
        try document.checkFragmentSpreads(in: selections)
        var fieldMergeCheck = FieldMergeCheck(document: document, schema: schema)
        try fieldMergeCheck.check(selections, type: type)
        try scope.checkConditions(in: selections, document: document)
        var walk = Walk(reader: self, scope: scope, partial: partial)
        walk.forUpdate = forUpdate
        walk.rootIsOperation = rootIsOperation
        do {
            let data = try walk.object(at: rootKey, selections: Selections(document: selections), type: type)
            var result = ReadResult(data: data, misses: walk.misses, objectKeys: walk.objectKeys, records: walk.loadedRecords)
            result.pathKeyedObjects = walk.pathKeyed
            result.absentFields = walk.absentFields
            result.unknownEnumValues = walk.unknownEnumValues
            result.pendingFragments = walk.pending
            result.untypedObjects = walk.untypedObjects
            // An object type of the cache has records keyed `Type:…`.
            result.typeConditionsNotApplied = try walk.collector.log?.neverApplied { try source.keysRecords(byType: $0) } ?? []
            return result
        } catch let stop as Walk.Stop {
            return ReadResult(data: nil, misses: [stop.miss], objectKeys: [:], records: walk.loadedRecords)
        }
    }
}

/// One walk over the records: the state of a single read.
private struct Walk {
    struct Stop: Error { let miss: CacheMiss }

    let reader: CacheReader
    let scope: VariableScope
    let collector: FieldCollector
    /// Whether a miss is collected (the walk goes on with null) rather
    /// than ending the read; never inside a deferred fragment.
    var partial: Bool
    var misses: [CacheMiss] = []
    /// Deferred fragments left out of the data, where each first missed.
    var pending: [PendingFragment] = []
    /// Where the walk is in the response: pushed and popped around each
    /// field and list element, and copied only into a miss.
    var path: [PathComponent] = []
    /// Reading for an update (see ``CacheReader/read(_:variables:partial:forUpdate:)``).
    var forUpdate = false
    var objectKeys: [String: CacheKey] = [:]
    /// The response paths of the objects read from records at their path
    /// keys (see ``ReadResult/pathKeyedObjects``).
    var pathKeyed: Set<String> = []
    var absentFields: Set<String> = []
    var unknownEnumValues: [UnknownEnumValue] = []
    /// Whether the root is an operation's root record, whose type Apollo
    /// knows without a `__typename`.
    var rootIsOperation = false
    var untypedObjects: UntypedObjects?
    var untypedKeys: Set<CacheKey> = []

    init(reader: CacheReader, scope: VariableScope, partial: Bool) {
        self.reader = reader
        self.scope = scope
        self.collector = FieldCollector(
            document: reader.document, schema: reader.schema, scope: scope, log: reader.schema == nil ? TypeConditionLog() : nil)
        self.partial = partial
    }

    /// Records a miss; in partial mode the walk goes on with null.
    mutating func miss(_ miss: CacheMiss) throws -> ResponseValue {
        guard partial else { throw Stop(miss: miss) }
        misses.append(miss)
        return .null
    }

    enum Loaded {
        case record(Record, decoded: Decoding)
        case missing
        case damaged(String)
    }

    /// How much of a loaded record was decoded.
    enum Decoding {
        case whole
        /// Only the fields the selection set with this identity may ask for
        /// (see ``prefetch(_:selections:)``); nil for a merged selection set.
        case fieldsOf(UnsafeRawPointer?)
    }

    /// A field to read from an object, with what the walk needs of it
    /// worked out once per selection set and type rather than per object.
    struct SelectedField {
        let responseKey: String
        let fields: [FieldSelection]
        let fieldKey: String
        /// The merged subselections of a composite field; nil for a leaf.
        let selections: Selections?
    }

    struct CollectKey: Hashable {
        let selections: UnsafeRawPointer
        let typename: String?
        let parentType: String?
    }

    /// The fields of a selection set for an object, and the fragments
    /// deferred, which are read apart.
    struct Plan {
        let fields: [SelectedField]
        let deferred: [DeferredFragment]
        /// Type conditions left out for want of a type (see ``CollectedFields/unchecked``).
        let unchecked: [String]
    }

    var collected: [CollectKey: Plan] = [:]

    /// Every key looked up so far, and what was found: one dictionary, so
    /// that each step of the walk hashes a key once.
    var known: [CacheKey: Loaded] = [:]

    /// The records loaded (some decoded only in part).
    var loadedRecords: [CacheKey: Record] {
        known.compactMapValues { if case .record(let record, _) = $0 { record } else { nil } }
    }
    var fieldKeysBySelections: [UnsafeRawPointer: Set<String>] = [:]

    /// The field keys an object under `selections` may be asked for.
    mutating func fieldKeys(_ selections: Selections) -> Set<String> {
        guard let identity = selections.identity else { return collector.fieldKeys(selections.list) }
        if let known = fieldKeysBySelections[identity] { return known }
        let keys = collector.fieldKeys(selections.list)
        fieldKeysBySelections[identity] = keys
        return keys
    }

    /// Loads the records a list refers to in one batch, as Apollo's loader
    /// does, instead of one lookup per element, decoding only the fields
    /// `selections` may ask for.
    mutating func prefetch(_ elements: [FieldValue], selections: Selections) throws {
        var keys: [CacheKey] = []
        func collect(_ value: FieldValue) {
            switch value {
            case .reference(let key) where known[key] == nil: keys.append(key)
            case .list(let inner): inner.forEach(collect)
            default: break
            }
        }
        elements.forEach(collect)
        guard keys.count > 1 else { return }
        let found = try reader.source.records(for: keys, onlyFields: fieldKeys(selections))
        for key in keys {
            switch found[key] {
            // Decoded for this selection set only: another one may need more.
            case .success(let record)?: known[key] = Self.loaded(record, decoded: .fieldsOf(selections.identity))
            case .failure(CacheStoreError.damagedRecord(_, let problem))?: known[key] = .damaged(problem.description)
            case .failure(let error)?: throw error
            case nil: known[key] = .missing
            }
        }
    }

    /// Looks one level ahead: the records the list's records refer to
    /// through the selected fields, in one batch too, so a list of users
    /// and their posts takes a few queries, not one per user.
    mutating func prefetchReferences(of elements: [FieldValue], selections: Selections) throws {
        // The children by the selection set they are read with.
        var next: [(selections: Selections, values: [FieldValue])] = []
        var groupOf: [UnsafeRawPointer: Int] = [:]
        func visit(_ value: FieldValue) {
            switch value {
            case .reference(let key):
                guard case .record(let record, _)? = known[key] else { return }
                for field in collect(selections, typename: record.typename).fields {
                    guard let childSelections = field.selections, let child = record.fields[field.fieldKey] else { continue }
                    if let identity = childSelections.identity, let group = groupOf[identity] {
                        next[group].values.append(child)
                    } else {
                        if let identity = childSelections.identity { groupOf[identity] = next.count }
                        next.append((childSelections, [child]))
                    }
                }
            case .list(let inner): inner.forEach(visit)
            default: break
            }
        }
        elements.forEach(visit)
        for group in next { try prefetch(group.values, selections: group.selections) }
    }

    /// The fields to read for an object of `typename` where `parentType`
    /// is declared, worked out once per selection set and types.
    mutating func collect(_ selections: Selections, typename: String?, parentType: String? = nil) -> Plan {
        func plan() -> Plan {
            let collected = collector.collect(selections.list, typename: typename, parentType: parentType)
            return Plan(fields: collected.fields.map { responseKey, fields in
                SelectedField(
                    responseKey: responseKey, fields: fields,
                    fieldKey: FieldKey.render(name: fields[0].name, arguments: scope.arguments(of: fields[0])),
                    selections: fields[0].selections == nil ? nil : Selections(fields))
            }, deferred: collected.deferred, unchecked: collected.unchecked)
        }
        guard let identity = selections.identity else { return plan() }
        let key = CollectKey(selections: identity, typename: typename, parentType: parentType)
        if let known = collected[key] { return known }
        let fields = plan()
        collected[key] = fields
        return fields
    }

    /// An object of unknown type at which inline fragments on `conditions` were left out.
    mutating func noteUntyped(_ key: CacheKey, conditions: [String]) {
        let isNew = untypedKeys.insert(key).inserted
        guard var found = untypedObjects else {
            untypedObjects = UntypedObjects(firstPath: path.map(\.description).joined(separator: "."), firstKey: key, typeConditions: conditions)
            return
        }
        if isNew { found.count += 1 }
        found.typeConditions += conditions.filter { !found.typeConditions.contains($0) }
        untypedObjects = found
    }

    /// A record holding a number too large for a Double is damaged to
    /// Apollo, whose JSON reading refuses the whole record.
    static func loaded(_ record: Record, decoded: Decoding) -> Loaded {
        if let found = record.numberApolloCannotRead { return .damaged(found.description) }
        return .record(record, decoded: decoded)
    }

    mutating func load(_ key: CacheKey) throws -> Loaded {
        if let found = known[key] { return found }
        let found: Loaded
        do {
            found = try reader.source.record(for: key).map { Self.loaded($0, decoded: .whole) } ?? .missing
        } catch CacheStoreError.damagedRecord(_, let problem) {
            found = .damaged(problem.description)
        }
        known[key] = found
        return found
    }

    /// `referrer`: the record and field that hold the reference to `key`
    /// (none for the root), named when no record has it.
    mutating func object(at key: CacheKey, selections: Selections, type: String?, referrer: CacheMiss.Referrer? = nil) throws -> ResponseValue {
        switch try load(key) {
        case .missing: return try miss(CacheMiss(path: path, key: key, reason: .missingRecord(referencedBy: referrer)))
        case .damaged(let problem): return try miss(CacheMiss(path: path, key: key, reason: .damagedRecord(problem)))
        case .record(let record, let decoding):
            return try object(record, decoded: decoding, selections: selections, type: type)
        }
    }

    /// Reads the selections from one record. `type` is the type the schema
    /// declares at this place (an interface, say); the record's own
    /// `__typename` wins when the schema knows it.
    mutating func object(_ record: Record, decoded: Decoding, selections: Selections, type: String?) throws -> ResponseValue {
        // A record without `__typename` where the schema declares an object
        // type is of that type, as Apollo's generated model for the field is.
        let typename = record.typename ?? type.flatMap { reader.schema?.isObjectType($0) == true ? $0 : nil }
        let plan = collect(selections, typename: typename, parentType: type)
        // Apollo's generated models select __typename in every object but
        // one of a root type (an operation's root, a fragment on Query), so
        // Apollo's read misses at a record without it, selected or not.
        if record.fields["__typename"] == nil, !(path.isEmpty && rootIsOperation),
            !(type.map { CacheSchema.isRootType($0, in: reader.schema) } ?? false),
            !plan.fields.contains(where: { $0.fieldKey == "__typename" })
        {
            path.append(.field("__typename"))
            defer { path.removeLast() }
            _ = try miss(CacheMiss(path: path, key: record.key, reason: .missingField(fieldKey: "__typename", similar: [])))
        }
        if typename == nil, !plan.unchecked.isEmpty, !(path.isEmpty && rootIsOperation) {
            noteUntyped(record.key, conditions: plan.unchecked)
        }
        let selected = plan.fields
        // Decoded for another selection set, the record may lack a field
        // this one asks for: decode it whole, and read that. (Decoded for
        // this very set, a field it lacks is missing from the whole record.)
        if case .fieldsOf(let identity) = decoded, identity == nil || identity != selections.identity,
            selected.contains(where: { record.fields[$0.fieldKey] == nil })
        {
            if let whole = try reader.source.record(for: record.key) {
                known[record.key] = .record(whole, decoded: .whole)
                return try object(whole, decoded: .whole, selections: selections, type: type)
            }
        }
        if forUpdate { objectKeys[path.map(\.description).joined(separator: ".")] = record.key }
        let schemaType = typename.flatMap { name in reader.schema?.fieldTypes[name] != nil ? name : nil } ?? type
        var members: [(String, ResponseValue)] = []
        members.reserveCapacity(selected.count)
        for selectedField in selected {
            let responseKey = selectedField.responseKey, fieldKey = selectedField.fieldKey
            let field = selectedField.fields[0]
            path.append(.field(responseKey))
            defer { path.removeLast() }
            // A record of another type than the selection's (a fragment read at
            // a key the app chose) has the field as the selection declares it,
            // as Apollo's generated model does.
            let declared = schemaType.flatMap { reader.schema?.fieldType(on: $0, field: field.name) }
                ?? type.flatMap { reader.schema?.fieldType(on: $0, field: field.name) }
            guard let value = record.fields[fieldKey] else {
                // Apollo's update reads with its mapper's allowForOptionalFields:
                // a nullable field the record lacks is absent, not a miss.
                if forUpdate, let declared, !declared.isNonNull {
                    absentFields.insert(path.map(\.description).joined(separator: "."))
                    continue
                }
                // The keys the record has for the same field are in the whole record.
                let whole = try wholeRecord(record, decoded: decoded)
                members.append((responseKey, try miss(CacheMiss(
                    path: path, key: record.key,
                    reason: .missingField(fieldKey: fieldKey, similar: similarFieldKeys(to: field.name, in: whole))))))
                continue
            }
            if let subselections = selectedField.selections {
                // An object with a $reference beside other members is a reference to Apollo.
                members.append((responseKey, try complete(
                    value.asReadByApollo, selections: subselections, holder: record.key, fieldKey: fieldKey, type: declared)))
            } else {
                if let declared, reader.schema?.leafProblem(value, type: declared, reading: true) != nil {
                    members.append((responseKey, try misfitLeaf(value, type: declared, key: record.key, fieldKey: fieldKey)))
                    continue
                }
                if let declared, let unknown = reader.schema?.unknownEnumValue(value, type: declared) {
                    unknownEnumValues.append(UnknownEnumValue(
                        path: path.map(\.description).joined(separator: "."), value: unknown.raw, enumName: unknown.enumName))
                }
                // Apollo reads a reference where it expects a scalar as a type
                // error: the object's fields must be selected.
                if let target = value.asReadByApollo.references.first {
                    // With a schema the field is a scalar: no selection helps.
                    let advice = declared.map { "the schema declares \($0), whose value Apollo cannot read from a reference" }
                        ?? "select its fields, as in \(field.name) { … }"
                    // Inside a custom scalar's object: Apollo reads any object with a "$reference" member as a reference.
                    var inside = ""
                    if case .object = value.asReadByApollo { inside = ", inside its JSON object," }
                    members.append((responseKey, try miss(CacheMiss(
                        path: path, key: record.key,
                        reason: .typeMismatch("field '\(fieldKey)' holds\(inside) a reference to \(target.rawValue), not a value; \(advice)")))))
                    continue
                }
                let read = declared.flatMap { reader.schema?.readByApollo(value, type: $0) } ?? value
                members.append((responseKey, read == .null ? .null : .scalar(read)))
            }
        }
        for fragment in plan.deferred {
            try readDeferred(fragment, from: record, decoded: decoded, type: type, into: &members)
        }
        return .object(members)
    }

    /// A leaf value (a scalar, or lists of them) that does not fit its
    /// declared type: each element that does not is a miss at its own
    /// path (`c.0.1`, as a GraphQL response gives it), null in
    /// `--partial`'s data beside the elements that fit.
    mutating func misfitLeaf(_ value: FieldValue, type: OutputType, key: CacheKey, fieldKey: String) throws -> ResponseValue {
        let nullable: OutputType
        if case .nonNull(let inner) = type { nullable = inner } else { nullable = type }
        if case .list(let elementType) = nullable, case .list(let elements) = value {
            var read: [ResponseValue] = []
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                read.append(try misfitLeaf(element, type: elementType, key: key, fieldKey: fieldKey))
            }
            return .list(read)
        }
        if let problem = reader.schema?.leafProblem(value, type: type, reading: true) {
            return try miss(CacheMiss(path: path, key: key, reason: .typeMismatch("field '\(fieldKey)': \(problem.message)")))
        }
        if let unknown = reader.schema?.unknownEnumValue(value, type: type) {
            unknownEnumValues.append(UnknownEnumValue(path: path.map(\.description).joined(separator: "."), value: unknown.raw, enumName: unknown.enumName))
        }
        let read = reader.schema?.readByApollo(value, type: type) ?? value
        return read == .null ? .null : .scalar(read)
    }

    /// Reads a deferred fragment as Apollo's executor does from the cache:
    /// on its own, after the fields beside it. Where any of its fields
    /// misses (or holds a value of the wrong type), the fragment is
    /// pending: its fields are left out of the data, and the read goes on.
    mutating func readDeferred(
        _ fragment: DeferredFragment, from record: Record, decoded: Decoding, type: String?, into members: inout [(String, ResponseValue)]
    ) throws {
        let saved = (misses, objectKeys, absentFields, unknownEnumValues, partial, pending.count, pathKeyed)
        partial = false
        defer { partial = saved.4 }
        let read: ResponseValue
        do {
            read = try object(record, decoded: decoded, selections: Selections(document: fragment.selections), type: type)
        } catch let stop as Stop {
            (misses, objectKeys, absentFields, unknownEnumValues, pathKeyed) = (saved.0, saved.1, saved.2, saved.3, saved.6)
            // Fragments inside this one that went pending are left out with it.
            pending.removeSubrange(saved.5...)
            pending.append(PendingFragment(path: path.map(\.description).joined(separator: "."), label: fragment.label, miss: stop.miss))
            return
        }
        guard case .object(let fields) = read else { return }
        members = ResponseValue.merging(members, fields)
    }

    /// `record` decoded whole: itself, or decoded again (once; the walk then
    /// keeps the whole one).
    mutating func wholeRecord(_ record: Record, decoded: Decoding) throws -> Record {
        if case .whole = decoded { return record }
        if case .record(let kept, .whole)? = known[record.key] { return kept }
        guard let whole = try reader.source.record(for: record.key) else { return record }
        known[record.key] = .record(whole, decoded: .whole)
        return whole
    }

    /// A composite field's value: follows references, walks lists, and
    /// with a schema checks nullability and list depth.
    mutating func complete(
        _ value: FieldValue, selections: Selections, holder: CacheKey, fieldKey: String, type: OutputType?
    ) throws -> ResponseValue {
        func mismatch(_ message: String) throws -> ResponseValue {
            try miss(CacheMiss(path: path, key: holder, reason: .typeMismatch("field '\(fieldKey)': \(message)")))
        }
        switch (value, type) {
        case (.null, .nonNull?):
            return try mismatch("null in a non-null field of type \(type!)")
        case (.null, _):
            return .null
        case (.reference, .list?), (.reference, .nonNull(.list)?):
            return try mismatch("expected a list of type \(type!), found a reference")
        case (.reference(let key), _):
            // Apollo's key for an object it keyed by its path: the holder's
            // key, the field key, and the index at each list level.
            if forUpdate {
                let indexes = path.reversed().prefix { if case .index = $0 { true } else { false } }.reversed()
                let pathKey = holder.rawValue + "." + fieldKey + indexes.map { "." + $0.description }.joined()
                if key.rawValue == pathKey {
                    pathKeyed.insert(path.map(\.description).joined(separator: "."))
                }
            }
            return try object(at: key, selections: selections, type: type?.namedType.name, referrer: CacheMiss.Referrer(key: holder, fieldKey: fieldKey))
        case (.list(let elements), _):
            let elementType: OutputType?
            switch type?.nullable {
            case .list(let inner)?: elementType = inner
            case nil: elementType = nil
            default: return try mismatch("expected \(type!), found a list")
            }
            try prefetch(elements, selections: selections)
            try prefetchReferences(of: elements, selections: selections)
            var list: [ResponseValue] = []
            list.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                list.append(try complete(element, selections: selections, holder: holder, fieldKey: fieldKey, type: elementType))
            }
            return .list(list)
        case (.object, _):
            // Apollo never inlines an object; a custom scalar's JSON is read by a selection without fields.
            return try mismatch("the selection needs an object, which Apollo stores as a reference to its record "
                + "({\"$reference\":KEY}), but the record holds inline JSON \(JSONWriter.string(for: value, asStored: false))")
        default:
            return try mismatch("the selection needs an object, but the record holds \(JSONWriter.string(for: value, asStored: false))")
        }
    }

    /// The record's keys for the same schema field: `name` or `name(…)`;
    /// with none, up to three of a field whose name is a slip away: of
    /// case, or of a letter (two in a name of six or more): `name` for
    /// `Name` or `nme`, not for `nope`.
    func similarFieldKeys(to name: String, in record: Record) -> [String] {
        let same = record.fields.keys.filter { $0 == name || $0.hasPrefix(name + "(") }
        guard same.isEmpty else { return same.sorted(by: byteOrder) }
        func fieldName(_ fieldKey: String) -> String { String(fieldKey.prefix { $0 != "(" }) }
        let names = Array(Set(record.fields.keys.map(fieldName)))
        let near = Set(NameSuggestions.within(name.count >= 6 ? 2 : 1, editsOf: name, among: names))
        return Array(record.fields.keys.filter { near.contains(fieldName($0)) }.sorted(by: byteOrder).prefix(3))
    }
}

/// A selection set being read, and whether it is the document's own array
/// (alive for the whole read, so its storage can key a cache) or one merged
/// from several fields of the same name.
struct Selections {
    let list: [Selection]
    /// The address of the document's array; nil for a merged one.
    let identity: UnsafeRawPointer?

    init(document list: [Selection]) {
        self.init(list: list, identity: list.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) })
    }

    private init(list: [Selection], identity: UnsafeRawPointer?) {
        self.list = list
        self.identity = identity
    }

    /// The subselections of a field, merged when it is selected more than once.
    init(_ fields: [FieldSelection]) {
        if fields.count == 1, let only = fields[0].selections {
            self.init(document: only)
        } else {
            self.init(list: fields.flatMap { $0.selections ?? [] }, identity: nil)
        }
    }
}
