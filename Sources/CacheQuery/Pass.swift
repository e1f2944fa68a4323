import CacheStore

/// A list's objects read and its elements now, grouped by their data:
/// objects alike in all the selection holds are told apart by nothing else.
/// An object read and changed at its place counts as still there, in the
/// group of what it was.
struct AlikeCounts {
    let read: [FieldValue: (elements: Int, keys: [CacheKey])]
    let now: [FieldValue: Int]
}

/// One normalization: the records built so far.
struct Pass {
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
}
