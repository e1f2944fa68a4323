/// One row of the cache: a key and its fields, each field keyed by its field
/// cache key (`name`, `hero(episode:JEDI)`).
///
/// ```swift
/// var record = Record(key: "Droid:2001", fields: ["name": .string("R2-D2")])
/// record.merge(Record(key: "Droid:2001", fields: ["name": .string("Artoo")]))
/// ```
public struct Record: Hashable, Sendable {
    public var key: CacheKey
    public var fields: [String: FieldValue]

    public init(key: CacheKey, fields: [String: FieldValue]) {
        self.key = key
        self.fields = fields
    }

    public subscript(field: String) -> FieldValue? {
        get { fields[field] }
        set { fields[field] = newValue }
    }

    /// The `__typename` field, when the record has one as a string.
    public var typename: String? { fields.typename }

    /// Every reference the record holds, with the field it sits in, ordered by
    /// field key then list position.
    public var references: [(field: String, key: CacheKey)] {
        fields.keys.sorted().flatMap { field in fields[field]!.references.map { (field, $0) } }
    }

    /// Merges `other` into this record field by field, as Apollo does: fields
    /// of `other` replace those with the same key, other fields stay, no field
    /// is ever removed. Returns the keys of the fields whose value changed.
    /// A field is compared as Apollo loads it (``FieldValue/changes(_:)``):
    /// a reference stored with other members beside `$reference` is the
    /// same reference written again, and is kept as it was.
    @discardableResult
    public mutating func merge(_ other: Record) -> Set<String> {
        var changed: Set<String> = []
        for (field, value) in other.fields where value.changes(fields[field]) {
            fields[field] = value
            changed.insert(field)
        }
        return changed
    }

    /// The record's JSON text, as stored in the `record` column.
    public var jsonText: String { JSONWriter.string(forFields: fields) }

    /// The record, when Apollo can load it to merge into: a write loads
    /// the record first, and one holding a number too large for a Double
    /// fails the load, and the write with it, as a damaged record does.
    /// Throws ``CacheStoreError/damagedRecord(key:problem:)`` then.
    public func loadableByApollo() throws -> Record {
        if let found = numberApolloCannotRead { throw CacheStoreError.damagedRecord(key: key, problem: .numberApolloCannotRead(found)) }
        return self
    }

    /// The first field (in key order) holding, at any depth, a number too
    /// large for a Double (`1e400`), with that number as written. Apollo's
    /// JSONSerialization refuses such a number, and with it the whole
    /// record: every read or write of it fails there.
    public var numberApolloCannotRead: NumberApolloCannotRead? {
        // In key order, members too, so that the one named is always the same.
        func found(_ value: FieldValue, inOrder: Bool) -> String? {
            switch value {
            case .number(let text): return value.beyondADouble == .tooLarge ? text : nil
            case .list(let elements): return elements.lazy.compactMap { found($0, inOrder: inOrder) }.first
            case .object(let members):
                let names = inOrder ? members.keys.sorted() : Array(members.keys)
                return names.lazy.compactMap { found(members[$0]!, inOrder: inOrder) }.first
            case .null, .bool, .int, .double, .string, .reference: return nil
            }
        }
        // Most records hold none: nothing is sorted to find that out.
        guard fields.values.contains(where: { found($0, inOrder: false) != nil }) else { return nil }
        for field in fields.keys.sorted() {
            if let number = found(fields[field]!, inOrder: true) { return NumberApolloCannotRead(key: key, field: field, number: number) }
        }
        return nil
    }

    /// The record's `__typename` when it is there but is what Apollo's
    /// `String` does not read (null, a Boolean, a list, an object; a
    /// number reads as its digits), which every Apollo read of the record
    /// fails at (see ``TypenameApolloCannotRead``). A record with none has
    /// nothing to fail at, nor has a root record, whose selections Apollo
    /// gives no `__typename`.
    public var typenameApolloCannotRead: TypenameApolloCannotRead? {
        guard let value = fields["__typename"], !key.isRoot, !value.readsAsApolloString else { return nil }
        return TypenameApolloCannotRead(key: key, value: value)
    }

    /// Decodes a record from the text of its `record` column.
    ///
    /// Throws ``CacheStoreError/damagedRecord(key:problem:)`` when the text is
    /// NULL, not JSON, or not a JSON object.
    ///
    /// `fields`: decode only these fields (those absent stay absent); the
    /// whole text is still checked, so a damaged record is damaged either way.
    public init(key: CacheKey, jsonText: String?, fields: Set<String>? = nil) throws {
        guard var jsonText else { throw CacheStoreError.damagedRecord(key: key, problem: .null) }
        let filter = fields.map(JSONReader.MemberFilter.init)
        try self = jsonText.withUTF8 { try Record(key: key, utf8: $0, fields: filter) }
    }

    /// Decodes a record from the UTF-8 bytes of its `record` column, as
    /// SQLite holds them; `fields` as in ``init(key:jsonText:fields:)``.
    init(key: CacheKey, utf8: UnsafeBufferPointer<UInt8>, fields: JSONReader.MemberFilter?) throws {
        do {
            self.init(key: key, fields: try JSONReader.parseRecordFields(utf8: utf8, only: fields))
        } catch let error as JSONReader.SyntaxError {
            throw CacheStoreError.damagedRecord(
                key: key, problem: .invalidJSON(offset: error.offset, message: error.message))
        } catch let error as JSONReader.NotAnObject {
            throw CacheStoreError.damagedRecord(key: key, problem: .notAnObject(error.kind))
        }
    }
}

extension Record {
    /// How many objects and arrays its text nests, its own object one of
    /// them, as ``JSONReader`` counts levels (a reference is an object).
    var nestingDepth: Int { 1 + (fields.values.lazy.map(\.nestingDepth).max() ?? 0) }

    /// True when its text would nest more objects and arrays than Apollo's
    /// JSON reader takes: a merge that makes such a record is refused
    /// (``CacheStoreError/recordNestedTooDeep(key:)``).
    public var nestsTooDeepForApollo: Bool { nestingDepth > JSONReader.maximumDepth }
}

extension FieldValue {
    /// Objects and arrays nested in the value's text; 0 for a scalar.
    var nestingDepth: Int {
        switch self {
        case .reference: return 1
        case .list(let elements): return 1 + (elements.lazy.map(\.nestingDepth).max() ?? 0)
        case .object(let members): return 1 + (members.values.lazy.map(\.nestingDepth).max() ?? 0)
        case .null, .bool, .int, .double, .number, .string: return 0
        }
    }

    /// Parses one JSON value, such as a value given on a command line.
    public init(jsonText: String) throws {
        do {
            self = try JSONReader.parseValue(jsonText)
        } catch let error as JSONReader.SyntaxError {
            throw CacheStoreError.invalidJSON(offset: error.offset, message: error.message)
        }
    }

    /// Parses a JSON document a person wrote or edited (data, a response,
    /// variables), refusing an object that gives one member twice: which
    /// value was meant cannot be told, where a parser would silently keep one.
    public init(documentText text: String) throws {
        do {
            let (value, repeated) = try JSONReader.parseImportInput(text, wrapperLevels: 0)
            if let repeated { throw repeated }
            self = value
        } catch let error as JSONReader.SyntaxError {
            throw CacheStoreError.invalidJSON(offset: error.offset, message: error.message)
        } catch let repeated as RepeatedMember {
            throw CacheStoreError.repeatedMember(offset: repeated.offset, name: repeated.name)
        }
    }
}

extension Dictionary where Key == String, Value == FieldValue {
    /// The `__typename` member of a record's fields or an object's
    /// members, when it is a string.
    public var typename: String? {
        if case .string(let name)? = self["__typename"] { return name }
        return nil
    }
}
