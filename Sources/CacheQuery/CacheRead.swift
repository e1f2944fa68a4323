import CacheStore

/// One step of a response path: a field's response name or a list index.
public enum PathComponent: Equatable, Sendable, CustomStringConvertible {
    case field(String)
    case index(Int)

    public var description: String {
        switch self {
        case .field(let name): return name
        case .index(let index): return String(index)
        }
    }
}

/// Why a read could not give a value, with everything needed to see why.
public struct CacheMiss: Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        /// The record holds no field with this field cache key; `similar`
        /// lists the keys of the same field that it does hold.
        case missingField(fieldKey: String, similar: [String])
        /// No record with the key: a dangling reference, with the record and
        /// field that hold it, or no root.
        case missingRecord(referencedBy: Referrer?)
        /// The record cannot be decoded.
        case damagedRecord(String)
        /// The value is not what the selection needs (an object where a
        /// reference was expected, null in a non-null position, …).
        case typeMismatch(String)
    }

    /// The record and field cache key that hold a reference.
    public struct Referrer: Equatable, Sendable {
        public let key: CacheKey
        public let fieldKey: String
    }

    public let path: [PathComponent]
    public let key: CacheKey
    public let reason: Reason
    /// For a missing field: its key with nested Floats written in the
    /// other ``NumberForm``, when that differs (`lng:-2` for `lng:-2.0`).
    /// A record holding that key was written by Apollo on the other platform.
    public var keyInOtherNumberForm: String?
    /// For a missing field: the variables, not given, that its arguments
    /// are, which Apollo leaves out of its key (`hero` for
    /// `hero(episode: $ep)` without `$ep`).
    public var absentVariables: [String] = []

    /// Whether the field may miss for a variable not given: the record
    /// holds the field under other arguments (``absentVariables``).
    public var mayMissForAbsentVariables: Bool {
        guard case .missingField(_, let similar) = reason else { return false }
        return !similar.isEmpty && !absentVariables.isEmpty
    }

    public init(path: [PathComponent], key: CacheKey, reason: Reason) {
        self.path = path
        self.key = key
        self.reason = reason
    }

    /// `hero.friends.1`, or `(root)` for the operation's root.
    public var pathText: String { path.isEmpty ? "(root)" : path.map(\.description).joined(separator: ".") }

    public var description: String {
        switch reason {
        case .missingField, .missingRecord:
            return "cache miss at \(pathText): \(whatIsMissing)"
        case .damagedRecord(let problem):
            return "cannot read \(pathText): record '\(key.rawValue)' is damaged: \(problem)"
        case .typeMismatch(let message):
            return "type error at \(pathText): record '\(key.rawValue)', \(message)"
        }
    }

    /// For a missing field or record, what is missing: `record 'QUERY_ROOT'
    /// has no field 'hero(episode:EMPIRE)'; it has 'hero(episode:NEWHOPE)'`.
    /// For a damaged record or a type error, the whole description.
    public var whatIsMissing: String {
        switch reason {
        case .missingField(let fieldKey, let similar):
            // Each key is cut where it differs from the one named beside it
            // that is nearest it (the longest start in common), not where they
            // read alike. In character order that one is a neighbour.
            let ordered = ([fieldKey] + similar).sorted { $0.lexicographicallyPrecedes($1) }
            var nearest: [String: String] = [:]
            for (index, named) in ordered.enumerated() {
                let common = { (other: String) in zip(named, other).prefix { $0 == $1 }.count }
                nearest[named] = [index - 1, index + 1].filter(ordered.indices.contains).map { ordered[$0] }.max { common($0) < common($1) }
            }
            func shown(_ named: String) -> String {
                nearest[named].map { named.shortenedForMessage(differingFrom: $0) } ?? named.shortenedForMessage
            }
            var text = "record '\(key.rawValue.shortenedForMessage)' has no field '\(shown(fieldKey))'"
            if !similar.isEmpty { text += "; it has " + similar.map { "'\(shown($0))'" }.joined(separator: ", ") }
            if mayMissForAbsentVariables {
                let names = absentVariables.map { "$" + $0 }
                text += " (\(names.joined(separator: ", ")) \(names.count == 1 ? "was" : "were") not given, so Apollo leaves "
                    + "\(names.count == 1 ? "its argument" : "their arguments") out of the key: give \(absentVariables.map { "--var \($0)=…" }.joined(separator: " ")))"
            }
            // A root type's models select none (a root record has it only if a query asked).
            if fieldKey == "__typename" && !key.isRoot { text += ", which Apollo's generated models select in every object" }
            return text
        case .missingRecord(let referrer):
            return "no record '\(key.rawValue.shortenedForMessage)'"
                + (referrer.map { " (field '\($0.fieldKey.shortenedForMessage)' of \($0.key.rawValue.shortenedForMessage) refers to it)" } ?? "")
        case .damagedRecord, .typeMismatch:
            return description
        }
    }
}

/// The data a read gives, in the shape of the selection: response names,
/// selection order.
public indirect enum ResponseValue: Equatable, Sendable {
    case null
    /// A scalar, an enum, a custom scalar or a list of them, as stored.
    case scalar(FieldValue)
    case list([ResponseValue])
    case object([(String, ResponseValue)])

    public static func == (lhs: ResponseValue, rhs: ResponseValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.scalar(a), .scalar(b)): return a == b
        case let (.list(a), .list(b)): return a == b
        case let (.object(a), .object(b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }
}

extension ResponseValue {
    /// `members` with those of `more` added: an object or a list of
    /// objects under a name both have is merged member by member, as the
    /// fields of one object selected twice are; otherwise the first stays.
    static func merging(_ members: [(String, ResponseValue)], _ more: [(String, ResponseValue)]) -> [(String, ResponseValue)] {
        var merged = members
        var index = Dictionary(members.enumerated().map { ($1.0, $0) }, uniquingKeysWith: { first, _ in first })
        for (name, value) in more {
            guard let at = index[name] else {
                index[name] = merged.count
                merged.append((name, value))
                continue
            }
            merged[at].1 = merged[at].1.merging(value)
        }
        return merged
    }

    func merging(_ other: ResponseValue) -> ResponseValue {
        switch (self, other) {
        case let (.object(a), .object(b)): return .object(Self.merging(a, b))
        case let (.list(a), .list(b)) where a.count == b.count: return .list(zip(a, b).map { $0.merging($1) })
        default: return self
        }
    }
}

/// What a read gave: the data (nil when a miss stopped it) and every miss.
public struct ReadResult: Sendable {
    public let data: ResponseValue?
    public let misses: [CacheMiss]
    /// The record each object was read from, by response path (`""` for
    /// the root, `hero.friends.0`), when the read was asked to keep them.
    public let objectKeys: [String: CacheKey]
    /// Read for an update: the response paths of the objects whose records
    /// are at the path keys Apollo gives an object it cannot key
    /// (`Category:a.sub.0`), as opposed to identity keys that merely begin
    /// as one would (`Category:a.b`, reached through `Category:a`).
    public var pathKeyedObjects: Set<String> = []
    /// The records the read decoded, by key: those its data came from (and,
    /// after a miss, those it had reached).
    public let records: [CacheKey: Record]
    /// Without a schema: fragments and inline fragments whose type
    /// condition matched no object the read met (see ``CacheReader``).
    public var typeConditionsNotApplied: [TypeConditionNotApplied] = []
    /// Read for an update with a schema: the response paths
    /// (`reviews.1.meta`) of nullable fields the records lack, which the
    /// data leaves out and an update may set.
    public var absentFields: Set<String> = []
    /// The misses those fields would have been, by their paths: what a
    /// path through one of them says.
    public var absentFieldMisses: [String: CacheMiss] = [:]
    /// With a schema: a fragment read at a record whose `__typename` is
    /// not a type the fragment is on (Apollo reads it all the same).
    public var fragmentOnOtherType: FragmentOnOtherType?
    /// With a schema: enum values read that the schema's enum lacks.
    public var unknownEnumValues: [UnknownEnumValue] = []
    /// Deferred fragments left out of the data because the cache lacks
    /// some of their fields, as Apollo leaves them pending.
    public var pendingFragments: [PendingFragment] = []
    /// Objects below the root whose records have no `__typename` and whose
    /// type no schema gives, so that inline fragments on a type were left
    /// out of them; nil when there were none.
    public var untypedObjects: UntypedObjects?

    /// The objects read, for writing changed data back to the same records.
    public var existingObjects: ExistingObjects {
        var existing = ExistingObjects(keys: objectKeys, pathKeyed: pathKeyedObjects, data: data)
        existing.absent = absentFields
        return existing
    }
}

/// A fragment `@defer` defers that a read left out: Apollo reads one from
/// the cache on its own, and where any of its fields misses, returns the
/// rest of the data with the fragment pending.
public struct PendingFragment: Sendable {
    /// The response path of the object it is on, `""` for the root.
    public let path: String
    public let label: String?
    /// The first miss inside it.
    public let miss: CacheMiss
}

/// A string in an enum field that the schema's enum has no value for:
/// Apollo reads (and writes) it as `GraphQLEnum.unknown`, as it does a
/// value a server added after the schema was fetched.
public struct UnknownEnumValue: Equatable, Sendable {
    /// The response path, `hero.appearsIn`.
    public let path: String
    public let value: String
    public let enumName: String
}

/// A fragment read from a record of a type it is not on: `fragment
/// HumanDetails on Human` at `Droid:2001`.
public struct FragmentOnOtherType: Equatable, Sendable {
    public let fragment: String
    public let typeCondition: String
    public let key: CacheKey
    public let typename: String

    /// The mismatch of `fragment` at `key`, whose record is a `typename`,
    /// when `schema` says that is not a type the fragment is on.
    public static func of(_ fragment: FragmentDefinition, at key: CacheKey, typename: String, schema: CacheSchema) -> FragmentOnOtherType? {
        guard !schema.matches(typeCondition: fragment.typeCondition, typename: typename) else { return nil }
        return FragmentOnOtherType(fragment: fragment.name, typeCondition: fragment.typeCondition, key: key, typename: typename)
    }
}

/// Where a read finds records: the store's read transaction, or records in
/// memory in tests.
public protocol RecordSource {
    /// The record for `key`; nil when there is none; throws when damaged.
    func record(for key: CacheKey) throws -> Record?
    /// Several records at once (a list's references): those found, each
    /// decoded or failed on its own.
    func records(for keys: [CacheKey]) throws -> [CacheKey: Result<Record, CacheStoreError>]
    /// ``records(for:)`` that needs only `fields` of each record, and may
    /// leave the others out.
    func records(for keys: [CacheKey], onlyFields fields: Set<String>) throws -> [CacheKey: Result<Record, CacheStoreError>]
    /// Whether records are keyed `name:…` (`Human:1000`) by their type:
    /// without a schema, the sign that `name` is an object type of the
    /// cache. A key group an app chose (`Character:2001` for a Droid,
    /// named for an interface) is not.
    func keysRecords(byType name: String) throws -> Bool
}

extension RecordSource {
    /// No key is known: a source of records in memory cannot say.
    public func keysRecords(byType name: String) throws -> Bool { false }

    /// Every field: a source that cannot leave fields out gives them all.
    public func records(for keys: [CacheKey], onlyFields fields: Set<String>) throws -> [CacheKey: Result<Record, CacheStoreError>] {
        try records(for: keys)
    }

    public func records(for keys: [CacheKey]) throws -> [CacheKey: Result<Record, CacheStoreError>] {
        var found: [CacheKey: Result<Record, CacheStoreError>] = [:]
        for key in keys {
            do {
                if let record = try record(for: key) { found[key] = .success(record) }
            } catch let error as CacheStoreError {
                found[key] = .failure(error)
            }
        }
        return found
    }
}

extension ReadTransaction: RecordSource {
    /// One of the first records keyed `name:…` has `__typename` `name`, or
    /// none (the key then says all that is known). Those of another type
    /// are a key group an app chose (`Character:2001` for a Droid), or an
    /// object's path-keyed children (`Human:u.1.friends.0`, left when
    /// `Human:u.1` was removed, its id holding a '.' or not): the siblings
    /// of such a key, up to its last '.', are stepped over at once through
    /// the key index, however many. One that cannot be read says nothing.
    public func keysRecords(byType name: String) throws -> Bool {
        let prefix = name + ":"
        var after = prefix
        for _ in 0..<32 {
            // The key index's next key after `after`.
            guard let key = try keys(around: CacheKey(after), limit: 1).last, key.rawValue.hasPrefix(prefix),
                  !key.rawValue.utf8.lexicographicallyPrecedes(after.utf8), key.rawValue != after
            else { return false }
            after = key.rawValue
            if let record = try? record(for: key) {
                guard let typename = record.fields["__typename"] else { return true }
                if typename == .string(name) { return true }
            }
            if let lastDot = key.rawValue.dropFirst(prefix.count).lastIndex(of: ".") {
                // Past every key that begins with the same path and a '.': '/' comes next in byte order.
                after = String(key.rawValue[..<lastDot]) + "/"
            }
        }
        return false
    }
}

/// Objects a read met without a type (no `__typename`, and no object type
/// declared for their field), at which inline fragments on a type could
/// not be checked and were left out. Apollo's generated models select
/// `__typename` in every object, so Apollo's read misses there.
public struct UntypedObjects: Equatable, Sendable {
    /// The first such object: its response path and record.
    public let firstPath: String
    public let firstKey: CacheKey
    /// How many records were met so.
    public internal(set) var count = 1
    /// The type conditions left out, in the order first met.
    public internal(set) var typeConditions: [String]
}
