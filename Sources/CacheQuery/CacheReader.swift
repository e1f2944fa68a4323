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
    /// How field keys write a Float nested in a list or an input
    /// object: as Apollo's Linux builds do (`2.0`, the default) or as Apollo
    /// on Apple platforms does (`2`), for a cache from a device or simulator.
    public var numberForm = NumberForm.linux

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
        var scope = try VariableScope(
            given: variables, definitions: operation.variables, operationName: operation.name ?? "(anonymous)", schema: schema)
        scope.numberForm = numberForm
        return try run(rootKey: operation.rootKey, selections: operation.selections, scope: scope, partial: partial,
                       type: operation.rootType(in: schema), rootIsOperation: true, forUpdate: forUpdate)
    }

    /// Reads `fragment` from the record at `key`.
    public func read(
        _ fragment: FragmentDefinition, key: CacheKey, variables: [String: InputValue] = [:], partial: Bool = false,
        forUpdate: Bool = false
    ) throws -> ReadResult {
        try document.checkFragmentSpreads(in: fragment.selections)
        var scope = try VariableScope(given: variables, fragment: fragment, document: document, schema: schema)
        scope.numberForm = numberForm
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
            result.absentFieldMisses = walk.absentFieldMisses
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
