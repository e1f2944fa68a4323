import CacheStore

/// What a normalization gives: the records to merge, in the order they
/// were first met, and, without a schema, the type conditions that applied
/// to no object (their fields were left out, as a read leaves them out).
public struct Normalization: Sendable {
    public var records: [Record]
    public var typeConditionsNotApplied: [TypeConditionNotApplied]
    /// The `__typename`s of the objects written, the ones a key policy
    /// can key (a fragment's root among them; an operation's root record is not).
    public var objectTypenames: Set<String> = []
    /// Objects written back into the identity-keyed record they were read
    /// from, with no key policy for their type and no `id` in the data: an
    /// app that keys the type by `id` would have Apollo write them at their
    /// path key instead.
    public var keptWithoutID: [KeptObject] = []
    /// Objects of a type with key fields written at their path key because
    /// the selection lacks one of them: those whose type was named for its
    /// key fields, and any whose data holds them unselected.
    public var unkeyed: [UnkeyedObject] = []
    /// With a schema: enum values written that the schema's enum lacks.
    public var unknownEnumValues: [UnknownEnumValue] = []
    /// Fields of one record given two different values by the data (two
    /// aliases of one field, or two paths to one keyed object), and which
    /// value Apollo keeps. Empty when refusing conflicts.
    public var overwritten: [OverwrittenField] = []
    /// Deferred fragments whose fields the data holds but Apollo does not
    /// write from a response (see ``DeferredFragmentWriting/notWritten``).
    public var deferredNotWritten: [DeferredFragmentNotWritten] = []
    /// The key a fragment's root data gives by its key fields, when that
    /// is not the key it is written at and the data read there did not
    /// give it either: the data names another object (its `id` changed),
    /// but Apollo writes a fragment at the key it is given, so the record
    /// keeps a key that no longer says what it holds.
    public var rootIdentityKey: CacheKey?
}

extension Normalization {
    /// This normalization and `other`, one after the other: the records of
    /// both, a key's fields merged (a field both give takes `other`'s
    /// value) in the order keys were first met, and what each found.
    public func adding(_ other: Normalization) -> Normalization {
        var sum = self
        var index = Dictionary(records.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        for record in other.records {
            if let at = index[record.key] {
                sum.records[at] = Record(key: record.key, fields: sum.records[at].fields.merging(record.fields) { _, later in later })
            } else {
                index[record.key] = sum.records.count
                sum.records.append(record)
            }
        }
        sum.typeConditionsNotApplied += other.typeConditionsNotApplied.filter { !typeConditionsNotApplied.contains($0) }
        sum.objectTypenames.formUnion(other.objectTypenames)
        sum.keptWithoutID += other.keptWithoutID
        sum.unkeyed += other.unkeyed
        sum.unknownEnumValues += other.unknownEnumValues
        sum.overwritten += other.overwritten
        sum.deferredNotWritten += other.deferredNotWritten
        sum.rootIdentityKey = sum.rootIdentityKey ?? other.rootIdentityKey
        return sum
    }
}

/// A deferred fragment of a response that was not written though the data
/// holds fields that only it selects.
public struct DeferredFragmentNotWritten: Equatable, Sendable {
    /// The response path of the object, `""` for the root.
    public let path: String
    public let label: String?
    /// The fields the data holds for it, by response name.
    public let fields: [String]
}

/// A field of a record the data gives two different values (see
/// ``Normalization/overwritten``).
public struct OverwrittenField: Sendable {
    public let key: CacheKey
    public let fieldKey: String
    /// The value kept and the values dropped, in the order the data gave
    /// them: each its response path (`hero.name`) and its JSON.
    public let kept: (path: String, value: String)
    public let dropped: [(path: String, value: String)]
}

/// An object whose type has key fields, written at its path key (see
/// ``Normalization/unkeyed``).
public struct UnkeyedObject: Equatable, Sendable {
    /// The response path, `human`.
    public let path: String
    public let typename: String
    public let keyFields: [String]
    public let pathKey: CacheKey
    /// Whether the selection asks for every key field (and so the data
    /// lacks a value).
    public let keyFieldsSelected: Bool
    /// The key fields at fault: those the selection lacks; when it has
    /// them all, those whose value cannot key (null, a list, an object).
    public let missingKeyFields: [String]
    /// The key the object's data would give, had the selection asked for
    /// the key fields it holds.
    public let keyInData: CacheKey?
}

/// An object written into the record it was read from rather than at its
/// path key (see ``Normalization/keptWithoutID``).
public struct KeptObject: Equatable, Sendable {
    /// The response path, `hero.friends.0`.
    public let path: String
    public let typename: String
    public let key: CacheKey
    public let pathKey: CacheKey
}
