/// One step from a field's value to a value inside it.
public enum ValuePathStep: Hashable, Sendable, CustomStringConvertible {
    /// A list element, by position.
    case index(Int)
    /// A member of an inline JSON object (a custom scalar).
    case member(String)

    /// `[1]` or `.name`.
    public var description: String {
        switch self {
        case .index(let index): return "[\(index)]"
        case .member(let name): return ".\(name)"
        }
    }
}

/// A reference inside a record: the field, where in the field's value
/// (empty: the value is the reference), and the key it points at.
public struct ReferencePath: Hashable, Sendable {
    public let field: String
    public let path: [ValuePathStep]
    public let target: CacheKey

    public init(field: String, path: [ValuePathStep], target: CacheKey) {
        self.field = field
        self.path = path
        self.target = target
    }

    /// `friends[1]`, `hero(episode:JEDI)`.
    public var location: String { field + path.map(\.description).joined() }
}

extension Record {
    /// Every reference, with where it sits, by field (byte order), then
    /// position.
    public var referencePaths: [ReferencePath] {
        fields.keys.sorted(by: byteOrder).flatMap { field in
            var found: [ReferencePath] = []
            fields[field]!.collectReferencePaths(field: field, path: [], into: &found)
            return found
        }
    }

    /// The record without its references to `targets`: a field that is
    /// such a reference is dropped, and so is a list element or object
    /// member that is one. Returns what was dropped, in the order of
    /// ``referencePaths`` (positions as they were before dropping).
    public func droppingReferences(to targets: Set<CacheKey>) -> (record: Record, dropped: [ReferencePath]) {
        var record = self
        var dropped: [ReferencePath] = []
        for field in fields.keys.sorted(by: byteOrder) {
            var found: [(path: [ValuePathStep], target: CacheKey)] = []
            let kept = fields[field]!.removingReferences(to: targets, path: [], dropped: &found)
            guard !found.isEmpty else { continue }
            record.fields[field] = kept
            dropped += found.map { ReferencePath(field: field, path: $0.path, target: $0.target) }
        }
        return (record, dropped)
    }
}

extension FieldValue {
    /// The key an inline object points at when it has a string
    /// `$reference` member beside others: Apollo reads any such object back
    /// as a reference (the spec, §2), so it is one for reachability, the
    /// reference scans and reads. It stays an object in the record, its
    /// other members kept, since a custom scalar may look like that.
    public var mixedReferenceTarget: CacheKey? {
        guard case .object(let members) = self, case .string(let key)? = members["$reference"] else { return nil }
        return CacheKey(key)
    }

    /// The value as Apollo reads it back: such objects, also in lists,
    /// become references.
    public var asReadByApollo: FieldValue {
        switch self {
        case .object:
            return mixedReferenceTarget.map(FieldValue.reference) ?? self
        case .list(let elements):
            return .list(elements.map(\.asReadByApollo))
        default:
            return self
        }
    }

    /// Whether writing this value over `stored` (nil: no such field)
    /// changes the field, as Apollo's merge tells it: it compares with the
    /// record as it loaded it, where an object with a string `$reference`
    /// is a reference, whatever else it holds (`{"$reference":"Droid:2001",
    /// "note":1}` is not changed by writing `Droid:2001`).
    public func changes(_ stored: FieldValue?) -> Bool {
        guard let stored, stored != self else { return stored == nil }
        // Only a reference, or a list that may hold one, can equal what
        // Apollo loads from other stored text: any other value differs,
        // and a merge's hot path makes no copy to find it.
        switch self {
        case .reference, .list: return stored.asReadByApollo != self
        default: return true
        }
    }

    func collectReferencePaths(field: String, path: [ValuePathStep], into found: inout [ReferencePath]) {
        if let target = mixedReferenceTarget {
            found.append(ReferencePath(field: field, path: path, target: target))
            return
        }
        switch self {
        case .reference(let key):
            found.append(ReferencePath(field: field, path: path, target: key))
        case .list(let elements):
            for (index, element) in elements.enumerated() {
                element.collectReferencePaths(field: field, path: path + [.index(index)], into: &found)
            }
        case .object(let members):
            for name in members.keys.sorted(by: byteOrder) {
                members[name]!.collectReferencePaths(field: field, path: path + [.member(name)], into: &found)
            }
        case .null, .bool, .int, .double, .number, .string:
            break
        }
    }

    /// The value without the references to `targets`; nil when the value
    /// itself is one.
    func removingReferences(
        to targets: Set<CacheKey>, path: [ValuePathStep], dropped: inout [(path: [ValuePathStep], target: CacheKey)]
    ) -> FieldValue? {
        if let target = mixedReferenceTarget {
            guard targets.contains(target) else { return self }
            dropped.append((path, target))
            return nil
        }
        switch self {
        case .reference(let key):
            guard targets.contains(key) else { return self }
            dropped.append((path, key))
            return nil
        case .list(let elements):
            var kept: [FieldValue] = []
            for (index, element) in elements.enumerated() {
                if let value = element.removingReferences(to: targets, path: path + [.index(index)], dropped: &dropped) {
                    kept.append(value)
                }
            }
            return .list(kept)
        case .object(let members):
            var kept: [String: FieldValue] = [:]
            for name in members.keys.sorted(by: byteOrder) {
                if let value = members[name]!.removingReferences(to: targets, path: path + [.member(name)], dropped: &dropped) {
                    kept[name] = value
                }
            }
            return .object(kept)
        case .null, .bool, .int, .double, .number, .string:
            return self
        }
    }
}
