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
/// Without a schema a type condition matches only a record whose
/// `__typename` is that very name, and values are returned as stored. With
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
    public func read(
        _ operation: Operation, variables: [String: InputValue] = [:], partial: Bool = false, keepingKeys: Bool = false
    ) throws -> ReadResult {
        let scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
        return try run(rootKey: operation.rootKey, selections: operation.selections, scope: scope, partial: partial,
                       type: schema?.rootTypeName(operation.kind), keepingKeys: keepingKeys)
    }

    /// Reads `fragment` from the record at `key`.
    public func read(
        _ fragment: FragmentDefinition, key: CacheKey, variables: [String: InputValue] = [:], partial: Bool = false,
        keepingKeys: Bool = false
    ) throws -> ReadResult {
        try run(rootKey: key, selections: fragment.selections, scope: VariableScope(values: variables), partial: partial,
            type: fragment.typeCondition, keepingKeys: keepingKeys)
    }

    private func run(rootKey: CacheKey, selections: [Selection], scope: VariableScope, partial: Bool, type: String?, keepingKeys: Bool) throws -> ReadResult {
        var walk = Walk(reader: self, scope: scope, partial: partial)
        walk.keepingKeys = keepingKeys
        do {
            let data = try walk.object(at: rootKey, selections: Selections(document: selections), path: [], type: type)
            return ReadResult(data: data, misses: walk.misses, objectKeys: walk.objectKeys, records: walk.loaded)
        } catch let stop as Walk.Stop {
            return ReadResult(data: nil, misses: [stop.miss], objectKeys: [:], records: walk.loaded)
        }
    }
}

/// One walk over the records: the state of a single read.
private struct Walk {
    struct Stop: Error { let miss: CacheMiss }

    let reader: CacheReader
    let scope: VariableScope
    let collector: FieldCollector
    let partial: Bool
    var misses: [CacheMiss] = []
    var loaded: [CacheKey: Record] = [:]
    var keepingKeys = false
    var objectKeys: [String: CacheKey] = [:]

    init(reader: CacheReader, scope: VariableScope, partial: Bool) {
        self.reader = reader
        self.scope = scope
        self.collector = FieldCollector(document: reader.document, schema: reader.schema, scope: scope)
        self.partial = partial
    }

    /// Records a miss; in partial mode the walk goes on with null.
    mutating func miss(_ miss: CacheMiss) throws -> ResponseValue {
        guard partial else { throw Stop(miss: miss) }
        misses.append(miss)
        return .null
    }

    enum Loaded {
        case record(Record)
        case missing
        case damaged(String)
    }

    struct CollectKey: Hashable {
        let selections: UnsafeRawPointer
        let typename: String?
    }

    var collected: [CollectKey: [(String, [FieldSelection])]] = [:]

    /// Keys already looked up in a batch and found missing or damaged.
    var absent: [CacheKey: Loaded] = [:]

    /// Records decoded for one selection set only (the fields it may ask
    /// for): another selection set of the same record may need more.
    var partlyDecoded: Set<CacheKey> = []
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
            case .reference(let key) where loaded[key] == nil && absent[key] == nil: keys.append(key)
            case .list(let inner): inner.forEach(collect)
            default: break
            }
        }
        elements.forEach(collect)
        guard keys.count > 1 else { return }
        let found = try reader.source.records(for: keys, onlyFields: fieldKeys(selections))
        for key in keys {
            switch found[key] {
            case .success(let record)?:
                loaded[key] = record
                partlyDecoded.insert(key)
            case .failure(CacheStoreError.damagedRecord(_, let problem))?: absent[key] = .damaged(problem.description)
            case .failure(let error)?: throw error
            case nil: absent[key] = .missing
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
                guard let record = loaded[key] else { return }
                for (_, fields) in collect(selections, typename: record.typename) where fields[0].selections != nil {
                    let fieldKey = FieldKey.render(name: fields[0].name, arguments: scope.arguments(of: fields[0]))
                    guard let child = record.fields[fieldKey] else { continue }
                    let childSelections = Selections(fields)
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

    /// The fields to read for an object of `typename`, worked out once per
    /// selection set and type.
    mutating func collect(_ selections: Selections, typename: String?) -> [(String, [FieldSelection])] {
        guard let identity = selections.identity else { return collector.collect(selections.list, typename: typename) }
        let key = CollectKey(selections: identity, typename: typename)
        if let known = collected[key] { return known }
        let fields = collector.collect(selections.list, typename: typename)
        collected[key] = fields
        return fields
    }

    mutating func load(_ key: CacheKey) throws -> Loaded {
        if let record = loaded[key] { return .record(record) }
        if let known = absent[key] { return known }
        do {
            guard let record = try reader.source.record(for: key) else { return .missing }
            loaded[key] = record
            return .record(record)
        } catch CacheStoreError.damagedRecord(_, let problem) {
            return .damaged(problem.description)
        }
    }

    mutating func object(at key: CacheKey, selections: Selections, path: [PathComponent], type: String?) throws -> ResponseValue {
        switch try load(key) {
        case .missing: return try miss(CacheMiss(path: path, key: key, reason: .missingRecord))
        case .damaged(let problem): return try miss(CacheMiss(path: path, key: key, reason: .damagedRecord(problem)))
        case .record(let record): return try object(record, selections: selections, path: path, type: type)
        }
    }

    /// Reads the selections from one record. `type` is the type the schema
    /// declares at this place (an interface, say); the record's own
    /// `__typename` wins when the schema knows it.
    mutating func object(_ record: Record, selections: Selections, path: [PathComponent], type: String?) throws -> ResponseValue {
        let typename = record.typename
        let selected = collect(selections, typename: typename).map { responseKey, fields in
            (responseKey, fields, FieldKey.render(name: fields[0].name, arguments: scope.arguments(of: fields[0])))
        }
        // Decoded for another selection set, the record may lack a field
        // this one asks for: decode it whole, and read that.
        if partlyDecoded.contains(record.key), selected.contains(where: { record.fields[$0.2] == nil }) {
            partlyDecoded.remove(record.key)
            if let whole = try reader.source.record(for: record.key) {
                loaded[record.key] = whole
                return try object(whole, selections: selections, path: path, type: type)
            }
        }
        if keepingKeys { objectKeys[path.map(\.description).joined(separator: ".")] = record.key }
        let schemaType = typename.flatMap { name in reader.schema?.fieldTypes[name] != nil ? name : nil } ?? type
        var members: [(String, ResponseValue)] = []
        for (responseKey, fields, fieldKey) in selected {
            let field = fields[0]
            let fieldPath = path + [.field(responseKey)]
            guard let value = record.fields[fieldKey] else {
                members.append((responseKey, try miss(CacheMiss(
                    path: fieldPath, key: record.key,
                    reason: .missingField(fieldKey: fieldKey, similar: similarFieldKeys(to: field.name, in: record))))))
                continue
            }
            let declared = schemaType.flatMap { reader.schema?.fieldType(on: $0, field: field.name) }
            if field.selections == nil {
                if let declared, let problem = reader.schema?.leafProblem(value, type: declared) {
                    members.append((responseKey, try miss(CacheMiss(
                        path: fieldPath, key: record.key, reason: .typeMismatch("field '\(fieldKey)': \(problem)")))))
                    continue
                }
                members.append((responseKey, value == .null ? .null : .scalar(value)))
            } else {
                let subselections = Selections(fields)
                members.append((responseKey, try complete(
                    value, selections: subselections, path: fieldPath, holder: record.key, fieldKey: fieldKey, type: declared)))
            }
        }
        return .object(members)
    }

    /// A composite field's value: follows references, walks lists, and
    /// with a schema checks nullability and list depth.
    mutating func complete(
        _ value: FieldValue, selections: Selections, path: [PathComponent], holder: CacheKey, fieldKey: String, type: OutputType?
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
            return try object(at: key, selections: selections, path: path, type: type?.namedType.name)
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
            for (index, element) in elements.enumerated() {
                list.append(try complete(
                    element, selections: selections, path: path + [.index(index)], holder: holder, fieldKey: fieldKey, type: elementType))
            }
            return .list(list)
        default:
            return try mismatch("the selection needs an object, but the record holds \(JSONWriter.string(for: value, escapingSlashes: false))")
        }
    }

    /// The record's keys for the same schema field: `name` or `name(…)`.
    func similarFieldKeys(to name: String, in record: Record) -> [String] {
        record.fields.keys.filter { $0 == name || $0.hasPrefix(name + "(") }.sorted(by: byteOrder)
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
