/// How one record differs between two caches: the unit of `diff`.
///
/// Records are compared as JSON values, field by field: member order, `\/`
/// against `/`, and `4` against `4.0` are not differences (see
/// ``FieldValue``'s equality). Two rows whose text is byte for byte the same
/// are equal without being decoded.
public struct RecordDifference: Sendable {
    public enum Kind: String, Sendable {
        /// Only the second cache has the key.
        case added
        /// Only the first cache has the key.
        case removed
        /// Both have it, with different values.
        case changed
    }

    public let kind: Kind
    public let key: CacheKey
    /// The row in the first cache; nil when added.
    public let before: StoredRecord?
    /// The row in the second cache; nil when removed.
    public let after: StoredRecord?
    private let changedFields: [FieldDifference]?

    init(kind: Kind, key: CacheKey, before: StoredRecord?, after: StoredRecord?, changedFields: [FieldDifference]? = nil) {
        self.kind = kind
        self.key = key
        self.before = before
        self.after = after
        self.changedFields = changedFields
    }

    /// The fields that differ, in field key (byte) order: every field of an
    /// added or removed record, the differing fields of a changed one.
    /// Throws ``CacheStoreError/damagedRecord(key:problem:)`` when a side
    /// that would be listed is damaged.
    public func fields() throws -> [FieldDifference] {
        if let changedFields { return changedFields }
        switch kind {
        case .added: return FieldDifference.between(nil, try after!.decoded())
        case .removed: return FieldDifference.between(try before!.decoded(), nil)
        case .changed:
            // Only reached when a side is damaged: say which.
            _ = try before!.decoded()
            _ = try after!.decoded()
            return []
        }
    }

    /// Compares two rows with the same key: nil when they hold the same
    /// JSON value. Damaged rows are equal only when their text is.
    static func comparing(_ before: StoredRecord, _ after: StoredRecord) -> RecordDifference? {
        if before.text == nil && after.text == nil { return nil }
        if let a = before.text, let b = after.text, a.utf8.elementsEqual(b.utf8) { return nil }
        guard case .success(let old) = before.result, case .success(let new) = after.result else {
            return RecordDifference(kind: .changed, key: before.key, before: before, after: after)
        }
        let fields = FieldDifference.between(old, new)
        guard !fields.isEmpty else { return nil }
        return RecordDifference(kind: .changed, key: before.key, before: before, after: after, changedFields: fields)
    }
}

/// One field that differs: `before` nil when the field was added, `after`
/// nil when it was removed.
public struct FieldDifference: Equatable, Sendable {
    public let field: String
    public let before: FieldValue?
    public let after: FieldValue?

    public init(field: String, before: FieldValue?, after: FieldValue?) {
        self.field = field
        self.before = before
        self.after = after
    }

    /// The fields whose values differ as JSON values, in byte order of
    /// their keys. A nil record has no fields. Names and strings are
    /// compared by their bytes, as JSON compares them: `café` with a
    /// composed `é` and with a combining accent differ.
    public static func between(_ old: Record?, _ new: Record?) -> [FieldDifference] {
        // Keyed by bytes (CacheKey compares bytes), not by Swift's string equality.
        let oldFields = Dictionary((old?.fields ?? [:]).map { (CacheKey($0.key), $0.value) }, uniquingKeysWith: { $1 })
        let newFields = Dictionary((new?.fields ?? [:]).map { (CacheKey($0.key), $0.value) }, uniquingKeysWith: { $1 })
        let names = Set(oldFields.keys).union(newFields.keys).sorted()
        return names.compactMap { name in
            let before = oldFields[name]
            let after = newFields[name]
            if let before, let after, before.isSameJSON(as: after) { return nil }
            return FieldDifference(field: name.rawValue, before: before, after: after)
        }
    }
}

extension FieldValue {
    /// JSON value equality, as ``==`` (`4` equals `4.0`, member order never
    /// matters), but with strings and member names compared by their bytes.
    /// ``==`` takes canonically equivalent strings for equal, as Swift, and
    /// so Apollo's merge, does.
    func isSameJSON(as other: FieldValue) -> Bool {
        switch (self, other) {
        case let (.string(a), .string(b)): return sameBytes(a, b)
        case let (.reference(a), .reference(b)): return a == b
        case let (.list(a), .list(b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isSameJSON(as: $1) }
        case let (.object(a), .object(b)):
            let left = Dictionary(a.map { (CacheKey($0.key), $0.value) }, uniquingKeysWith: { $1 })
            let right = Dictionary(b.map { (CacheKey($0.key), $0.value) }, uniquingKeysWith: { $1 })
            return left.count == right.count && left.allSatisfy { name, value in right[name].map { value.isSameJSON(as: $0) } ?? false }
        default: return self == other
        }
    }
}

/// How many records each kind of difference counted.
public struct ComparisonCounts: Equatable, Sendable {
    public var added = 0
    public var removed = 0
    public var changed = 0
    public var unchanged = 0
    /// Rows of the first file, and of the second, whose key is text that
    /// is not UTF-8: Apollo never finds them, export leaves them out, and
    /// two such keys would show alike (U+FFFD for the bad bytes), so they
    /// are not compared.
    public var notUTF8KeysInFirst = 0
    public var notUTF8KeysInSecond = 0

    public init() {}

    /// True when both caches hold the same records.
    public var isSame: Bool { added == 0 && removed == 0 && changed == 0 }
}
