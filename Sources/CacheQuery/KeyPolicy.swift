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
///
/// An object the app's key fields key is `Group:values` where the app sets
/// a unique key group (`CacheKeyInfo(id:uniqueKeyGroup:)`, spec §3): the
/// policy's `groups` give one for an entry (`Character` → `Character`, so
/// a Droid keyed by Character's entry is `Character:2001`). The schema's
/// `@typePolicy` always keys by the object's own type, as Apollo's does.
public struct KeyPolicy: Sendable, Equatable {
    public var keyFields: [String: [String]]
    /// The unique key group of each `keyFields` entry that has one.
    public var groups: [String: String]

    public init(keyFields: [String: [String]] = [:], groups: [String: String] = [:]) {
        self.keyFields = keyFields
        self.groups = groups
    }

    /// The key fields that key an object of the type when its data has
    /// them: the app's, else the schema's.
    func keyFields(of typename: String, schema: CacheSchema?) -> [String]? {
        appKeyFields(of: typename, schema: schema) ?? schema?.keyFields(of: typename)
    }

    /// The policy's key fields for the type: its own entry, an abstract
    /// type's, or `*` (the app's `cacheKeyInfo`).
    private func appKeyFields(of typename: String, schema: CacheSchema?) -> [String]? {
        appEntry(for: typename, schema: schema).map { keyFields[$0]! }
    }

    /// The name of the policy's entry that keys the type: its own, an
    /// abstract type's, or `*`.
    func appEntry(for typename: String, schema: CacheSchema?) -> String? {
        policyEntry(for: typename, schema: schema) ?? (keyFields["*"] != nil ? "*" : nil)
    }

    /// The key fields given for the type by name (its own, an abstract
    /// type's, or the schema's), not by `*`.
    func namedKeyFields(of typename: String, schema: CacheSchema?) -> [String]? {
        policyEntry(for: typename, schema: schema).map { keyFields[$0]! } ?? schema?.keyFields(of: typename)
    }

    /// The name of the policy's entry for the type itself, else (with a
    /// schema) of the first by name of the interfaces and unions it belongs to.
    private func policyEntry(for typename: String, schema: CacheSchema?) -> String? {
        if keyFields[typename] != nil { return typename }
        guard let schema else { return nil }
        return keyFields.keys.sorted().first { $0 != "*" && schema.matches(typeCondition: $0, typename: typename) }
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
        if let entry = appEntry(for: typename, schema: schema),
           let key = Self.key(for: object, group: groups[entry] ?? typename, fields: keyFields[entry]!, escaping: false) {
            return key
        }
        guard let fields = schema?.keyFields(of: typename) else { return nil }
        return Self.key(for: object, group: typename, fields: fields, escaping: true)
    }

    /// `group:values`, the group being the typename unless the app sets one.
    private static func key(for object: [String: FieldValue], group: String, fields: [String], escaping: Bool) -> CacheKey? {
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
        return CacheKey(group + ":" + parts.joined(separator: "+"))
    }
}
