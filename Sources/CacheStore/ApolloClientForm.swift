/// The JSON object Apollo Client's `InMemoryCache.extract()` produces (and
/// `restore()` takes): entity IDs mapped to objects of fields.
///
/// ```json
/// {"ROOT_QUERY":{"hero(episode:NEWHOPE)":{"__ref":"Droid:2001"}},
///  "Droid:2001":{"__typename":"Droid","name":"R2-D2"}}
/// ```
///
/// The translation, both ways, and nothing else:
/// - Record keys: `QUERY_ROOT` ↔ `ROOT_QUERY`, `MUTATION_ROOT` ↔
///   `ROOT_MUTATION`, `SUBSCRIPTION_ROOT` ↔ `ROOT_SUBSCRIPTION`. Other keys,
///   path keys such as `QUERY_ROOT.reviews(first:2).0` included, stay as
///   they are.
/// - References: `{"$reference":"KEY"}` ↔ `{"__ref":"ID"}`, wherever they
///   are (fields, lists at any depth, inside custom-scalar objects), with
///   the key translated as above.
/// - Everything else is copied as it is: field cache keys (Apollo iOS's
///   `hero(episode:JEDI)` is not turned into Apollo Client's
///   `hero({"episode":"JEDI"})`, which needs the schema's types), scalars,
///   null list elements, and custom-scalar objects (an inline object stays
///   an inline object; it is not split into records).
///
/// What cannot be translated is refused, never guessed:
/// - export: a record keyed `ROOT_QUERY`, `ROOT_MUTATION`,
///   `ROOT_SUBSCRIPTION` or `__META`, or a reference to one (it would come
///   back as a root, or be read as metadata), a custom-scalar object with a
///   string `__ref` member (Apollo Client's `isReference` would read it as a
///   reference, whatever else it holds), and an object with a string
///   `$reference` beside other members (Apollo iOS reads it as a
///   reference, and the form has no place for the rest);
/// - import: both `ROOT_QUERY` and `QUERY_ROOT` (or the other pairs) as
///   entity IDs, since they name one record; an entity that is not an
///   object; an object with a string `__ref` beside other members (Apollo
///   Client reads it as a reference, and Apollo iOS has no place for the
///   rest), and one with a string `$reference` beside other members (Apollo
///   iOS would read it as a reference, as export says), or alone (a value
///   in Apollo Client's form, which Apollo iOS would read as a reference),
///   and a reference to `__META` (export would refuse it).
///   The `__META` member (`extraRootIds`, what `cache.retain` kept) is
///   skipped: Apollo iOS has no such notion.
public enum ApolloClientForm {
    /// Apollo iOS root keys and Apollo Client's names for them.
    public static let rootNames: [(key: CacheKey, id: String)] = [
        (.queryRoot, "ROOT_QUERY"), (.mutationRoot, "ROOT_MUTATION"), (.subscriptionRoot, "ROOT_SUBSCRIPTION"),
    ]

    /// The member of `extract()` that holds metadata, not an entity.
    public static let metadataMember = "__META"

    /// Keys an Apollo iOS cache cannot hold if it is to be exported in this form.
    public static let reservedKeys: [CacheKey] = rootNames.map { CacheKey($0.id) } + [CacheKey(metadataMember)]

    /// The entity ID for a record key.
    public static func entityID(for key: CacheKey) -> String {
        rootNames.first { $0.key == key }?.id ?? key.rawValue
    }

    /// The record key for an entity ID.
    public static func cacheKey(forEntityID id: String) -> CacheKey {
        rootNames.first { $0.id == id }?.key ?? CacheKey(id)
    }

    // MARK: Export

    /// One member of the extract object, `"ID":{…}`, for a record.
    public static func member(for record: Record) throws -> String {
        var output = JSONText()
        output.appendQuoted(entityID(for: record.key), asStored: false)
        output.append(":")
        var fields: [String: FieldValue] = [:]
        fields.reserveCapacity(record.fields.count)
        for (field, value) in record.fields {
            fields[field] = try exported(value, key: record.key, field: field)
        }
        output.appendObject(fields, asStored: false)
        return output.string
    }

    private static func exported(_ value: FieldValue, key: CacheKey, field: String) throws -> FieldValue {
        switch value {
        case .reference(let target):
            if reservedKeys.contains(target) {
                throw CacheStoreError.cannotConvert(
                    message: "record '\(key)', field '\(field)': a reference to '\(target)', a name Apollo Client gives a root or its metadata; the apollo-client form cannot hold it")
            }
            return .object(["__ref": .string(entityID(for: target))])
        case .list(let elements):
            return .list(try elements.map { try exported($0, key: key, field: field) })
        case .object(let members):
            if case .string? = members["__ref"] {
                throw CacheStoreError.cannotConvert(
                    message: "record '\(key)', field '\(field)': a custom-scalar object with a string \"__ref\" member would be read back as a reference; the apollo-client form cannot hold it")
            }
            if let target = value.mixedReferenceTarget {
                throw CacheStoreError.cannotConvert(
                    message: "record '\(key)', field '\(field)': an object with \"$reference\" beside other members, which Apollo iOS reads as a reference to '\(target)'; the apollo-client form cannot hold its other members")
            }
            return .object(try members.mapValues { try exported($0, key: key, field: field) })
        case .null, .bool, .int, .double, .number, .string:
            return value
        }
    }

    // MARK: Import

    /// The members of an extract object's text, in the order it has them,
    /// none folded into another: entity IDs are told apart by their bytes,
    /// as SQLite tells keys apart (`café` composed and decomposed are two).
    /// `repeated`: the first member an entity gives twice (byte for byte),
    /// whose last value it keeps; see ``JSONReader/readsImportInput``.
    /// `offset` of an entity: where its ID starts in the text's UTF-8.
    public static func entities(inExtractText text: String) throws -> (entities: [Entity], repeated: RepeatedMember?) {
        do {
            guard let (members, repeated) = try JSONReader.parseMemberList(text) else {
                throw CacheStoreError.cannotConvert(message: "not an Apollo Client cache: expected a JSON object of entity IDs")
            }
            return (members.map { Entity(id: $0.name, value: $0.value, offset: $0.offset) }, repeated)
        } catch let error as JSONReader.SyntaxError {
            throw CacheStoreError.invalidJSON(offset: error.offset, message: error.message)
        } catch let repeated as RepeatedMember {
            throw CacheStoreError.repeatedMember(offset: repeated.offset, name: repeated.name)
        }
    }

    /// One member of an extract object: an entity ID, its value, and where
    /// the ID starts in the text's UTF-8.
    public struct Entity {
        public let id: String
        public let value: FieldValue
        public let offset: Int
    }

    /// An entity that cannot be converted: `offset` is where its ID starts
    /// (see ``Entity``), `field` the member of it at fault, if one is.
    public struct EntityProblem: Error, Equatable {
        public let offset: Int
        public let field: String?
        public let message: String
    }

    /// Where the member `field` of the entity whose ID starts at `offset`
    /// starts in `text`'s UTF-8, to name the line of an ``EntityProblem``.
    public static func offset(ofField field: String, ofEntityAt offset: Int, in text: String) -> Int? {
        JSONReader.offset(ofMember: field, inValueOfMemberAt: offset, of: text)
    }

    /// The records `entities` (an extract object's members) hold, in byte
    /// order of their keys. An ID given twice gives two records with one
    /// key, which a merge applies in the order the text has them. Throws
    /// ``EntityProblem``.
    public static func records(fromEntities entities: [Entity]) throws -> [Record] {
        for (key, id) in rootNames {
            let both = entities.filter { $0.id.utf8.elementsEqual(key.rawValue.utf8) || $0.id.utf8.elementsEqual(id.utf8) }
            if Set(both.map(\.id)).count == 2, let second = both.dropFirst().first(where: { $0.id != both[0].id }) {
                throw EntityProblem(
                    offset: second.offset, field: nil, message: "both '\(id)' and '\(key)' are entity IDs, and both name the record '\(key)'; keep one")
            }
        }
        var records: [Record] = []
        records.reserveCapacity(entities.count)
        for entity in entities where !entity.id.utf8.elementsEqual(metadataMember.utf8) {
            let id = entity.id
            let key = cacheKey(forEntityID: id)
            let fields: [String: FieldValue]
            switch entity.value {
            case .object(let members): fields = members
            case .reference(let target): fields = ["$reference": .string(target.rawValue)]
            default:
                throw EntityProblem(offset: entity.offset, field: nil, message: "entity '\(id)' is not a JSON object")
            }
            var converted: [String: FieldValue] = [:]
            converted.reserveCapacity(fields.count)
            for (field, value) in fields {
                do {
                    converted[field] = try imported(value, id: id, field: field)
                } catch CacheStoreError.cannotConvert(let message) {
                    // Of two fields at fault, the first by name is named, the same every time.
                    for earlier in fields.keys.sorted(by: byteOrder) where byteOrder(earlier, field) {
                        do { _ = try imported(fields[earlier]!, id: id, field: earlier) } catch CacheStoreError.cannotConvert(let message) {
                            throw EntityProblem(offset: entity.offset, field: earlier, message: message)
                        }
                    }
                    throw EntityProblem(offset: entity.offset, field: field, message: message)
                }
            }
            records.append(Record(key: key, fields: converted))
        }
        // A stable sort: an ID given twice keeps its order.
        return records.enumerated().sorted { lhs, rhs in
            lhs.element.key != rhs.element.key ? lhs.element.key < rhs.element.key : lhs.offset < rhs.offset
        }.map(\.element)
    }

    private static func imported(_ value: FieldValue, id: String, field: String) throws -> FieldValue {
        switch value {
        case .list(let elements):
            return .list(try elements.map { try imported($0, id: id, field: field) })
        case .object(let members):
            if let target = isApolloClientReference(members) {
                // Export would refuse it: back in this form it would name the metadata member.
                guard !target.utf8.elementsEqual(metadataMember.utf8) else {
                    throw CacheStoreError.cannotConvert(
                        message: "entity '\(id)', field '\(field)': a reference to '\(metadataMember)', the member Apollo Client keeps its metadata in, "
                            + "which names no entity")
                }
                return .reference(cacheKey(forEntityID: target))
            }
            if case .string(let target)? = members["__ref"] {
                throw CacheStoreError.cannotConvert(
                    message: "entity '\(id)', field '\(field)': an object with a string \"__ref\" beside other members, which Apollo Client "
                        + "reads as a reference to '\(target)'; Apollo iOS has no place for its other members")
            }
            // What export refuses to write, import refuses to read: Apollo iOS
            // would take it for a reference, and lose the other members.
            if case .string(let target)? = members["$reference"] {
                throw CacheStoreError.cannotConvert(
                    message: "entity '\(id)', field '\(field)': an object with a string \"$reference\" beside other members, which Apollo iOS "
                        + "reads as a reference to '\(target)', losing the others; Apollo Client writes a reference as {\"__ref\": …}")
            }
            var converted: [String: FieldValue] = [:]
            for (name, member) in members { converted[name] = try imported(member, id: id, field: field) }
            return .object(converted)
        case .reference(let target):
            // In Apollo Client's form {"$reference": …} is a custom-scalar value;
            // Apollo iOS would read it as a reference, and export would then write {"__ref": …}.
            throw CacheStoreError.cannotConvert(
                message: "entity '\(id)', field '\(field)': {\"$reference\": \"\(target)\"} is a value in Apollo Client's form, but Apollo iOS "
                    + "would read it as a reference to '\(target)'; Apollo Client writes a reference as {\"__ref\": …}")
        case .null, .bool, .int, .double, .number, .string:
            return value
        }
    }

    /// The ID when `members` is exactly `{"__ref": string}`.
    private static func isApolloClientReference(_ members: [String: FieldValue]) -> String? {
        guard members.count == 1, case .string(let id)? = members["__ref"] else { return nil }
        return id
    }
}
