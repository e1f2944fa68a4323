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
    public func read(_ operation: Operation, variables: [String: InputValue] = [:], partial: Bool = false) throws -> ReadResult {
        let scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
        return try run(rootKey: operation.rootKey, selections: operation.selections, scope: scope, partial: partial)
    }

    /// Reads `fragment` from the record at `key`.
    public func read(_ fragment: FragmentDefinition, key: CacheKey, variables: [String: InputValue] = [:], partial: Bool = false) throws -> ReadResult {
        try run(rootKey: key, selections: fragment.selections, scope: VariableScope(values: variables), partial: partial)
    }

    private func run(rootKey: CacheKey, selections: [Selection], scope: VariableScope, partial: Bool) throws -> ReadResult {
        var walk = Walk(reader: self, scope: scope, partial: partial)
        do {
            let data = try walk.object(at: rootKey, selections: selections, path: [])
            return ReadResult(data: data, misses: walk.misses)
        } catch let stop as Walk.Stop {
            return ReadResult(data: nil, misses: [stop.miss])
        }
    }
}

/// One walk over the records: the state of a single read.
private struct Walk {
    struct Stop: Error { let miss: CacheMiss }

    let reader: CacheReader
    let scope: VariableScope
    let partial: Bool
    var misses: [CacheMiss] = []
    var loaded: [CacheKey: Record] = [:]

    init(reader: CacheReader, scope: VariableScope, partial: Bool) {
        self.reader = reader
        self.scope = scope
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

    mutating func load(_ key: CacheKey) throws -> Loaded {
        if let record = loaded[key] { return .record(record) }
        do {
            guard let record = try reader.source.record(for: key) else { return .missing }
            loaded[key] = record
            return .record(record)
        } catch CacheStoreError.damagedRecord(_, let problem) {
            return .damaged(problem.description)
        }
    }

    mutating func object(at key: CacheKey, selections: [Selection], path: [PathComponent]) throws -> ResponseValue {
        switch try load(key) {
        case .missing: return try miss(CacheMiss(path: path, key: key, reason: .missingRecord))
        case .damaged(let problem): return try miss(CacheMiss(path: path, key: key, reason: .damagedRecord(problem)))
        case .record(let record): return try object(record, selections: selections, path: path)
        }
    }

    mutating func object(_ record: Record, selections: [Selection], path: [PathComponent]) throws -> ResponseValue {
        var members: [(String, ResponseValue)] = []
        for (responseKey, fields) in collectFields(selections, typename: record.typename) {
            let field = fields[0]
            let fieldPath = path + [.field(responseKey)]
            let fieldKey = FieldKey.render(name: field.name, arguments: scope.arguments(of: field))
            guard let value = record.fields[fieldKey] else {
                members.append((responseKey, try miss(CacheMiss(
                    path: fieldPath, key: record.key,
                    reason: .missingField(fieldKey: fieldKey, similar: similarFieldKeys(to: field.name, in: record))))))
                continue
            }
            if field.selections == nil {
                members.append((responseKey, value == .null ? .null : .scalar(value)))
            } else {
                let subselections = fields.flatMap { $0.selections ?? [] }
                members.append((responseKey, try complete(value, selections: subselections, path: fieldPath, holder: record.key)))
            }
        }
        return .object(members)
    }

    /// A composite field's value: follows references, walks lists.
    mutating func complete(_ value: FieldValue, selections: [Selection], path: [PathComponent], holder: CacheKey) throws -> ResponseValue {
        switch value {
        case .null:
            return .null
        case .reference(let key):
            return try object(at: key, selections: selections, path: path)
        case .list(let elements):
            var list: [ResponseValue] = []
            for (index, element) in elements.enumerated() {
                list.append(try complete(element, selections: selections, path: path + [.index(index)], holder: holder))
            }
            return .list(list)
        default:
            return try miss(CacheMiss(
                path: path, key: holder,
                reason: .typeMismatch("the selection needs an object, but the record holds \(JSONWriter.string(for: value, escapingSlashes: false))")))
        }
    }

    /// The fields to read for a record of `typename`, by response key in
    /// selection order, with fragments whose type condition matches merged in.
    func collectFields(_ selections: [Selection], typename: String?) -> [(String, [FieldSelection])] {
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
                        let fragment = reader.document.fragments[name], typename == nil || applies(fragment.typeCondition, to: typename)
                    else { continue }
                    visitedFragments.insert(name)
                    collect(fragment.selections)
                }
            }
        }
        collect(selections)
        return order.map { ($0, fields[$0]!) }
    }

    /// Whether a fragment on `typeCondition` applies to a record of `typename`.
    func applies(_ typeCondition: String, to typename: String?) -> Bool {
        if let schema = reader.schema { return schema.matches(typeCondition: typeCondition, typename: typename) }
        return typeCondition == typename
    }

    /// The record's keys for the same schema field: `name` or `name(…)`.
    func similarFieldKeys(to name: String, in record: Record) -> [String] {
        record.fields.keys.filter { $0 == name || $0.hasPrefix(name + "(") }.sorted(by: byteOrder)
    }
}
