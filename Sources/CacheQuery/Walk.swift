import CacheStore

/// One walk over the records: the state of a single read.
struct Walk {
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
    var absentFieldMisses: [String: CacheMiss] = [:]
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

    /// The fields to read for an object of `typename` where `parentType`
    /// is declared, worked out once per selection set and types.
    mutating func collect(_ selections: Selections, typename: String?, parentType: String? = nil) -> Plan {
        func plan() -> Plan {
            let collected = collector.collect(selections.list, typename: typename, parentType: parentType)
            return Plan(fields: collected.fields.map { responseKey, fields in
                SelectedField(
                    responseKey: responseKey, fields: fields,
                    fieldKey: FieldKey.render(name: fields[0].name, arguments: scope.arguments(of: fields[0]), form: scope.numberForm),
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
}
