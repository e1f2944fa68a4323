import CacheStore

/// The keys of the objects a read found, by response path, so that
/// writing the same data back keeps each object in its record (`update`)
/// when no key policy says what its key is.
///
/// Only identity-keyed records (`Human:1000`) are kept: the app keys their
/// type, by fields the tool may not know. An object that moved is found
/// again by `__typename` and `id`, or, in a list, by being unchanged, so
/// removing or reordering list elements moves references instead of
/// copying data between records. A path-keyed record
/// (`QUERY_ROOT.reviews(first:2).0`) is never kept: Apollo keys such an
/// object by where it is now, as it does a new one.
public struct ExistingObjects: Sendable {
    struct Object: Sendable {
        let key: CacheKey
        let signature: String?
        let data: FieldValue
    }

    var byPath: [String: Object] = [:]
    /// Where each identity-keyed record was read (its first place).
    var pathOfKey: [CacheKey: String] = [:]
    var bySignature: [String: CacheKey] = [:]
    /// The `__typename` of every object read, path-keyed ones and the root too.
    var typenames: [String: String] = [:]
    /// The members of the object read at the root.
    var root: [String: FieldValue]?
    /// The `__typename`s of the objects read with each `id`.
    var typenamesByID: [String: Set<String>] = [:]
    /// The objects of each list, with their indexes, by the list's path.
    var listElements: [String: [(index: Int, object: Object)]] = [:]
    /// The elements of each list read, as read, by the list's path.
    var listValues: [String: [FieldValue]] = [:]
    /// Elements of a list stay where they are: the data is the data read
    /// with values set at paths (`update --set`), so an element that
    /// looks like another read was changed at its place, not moved.
    public var elementsStayInPlace = false
    /// The paths of selected nullable fields the read found no value for
    /// (``ReadResult/absentFields``): data without them leaves the field
    /// unwritten, as Apollo's update does, instead of being refused.
    var absent: Set<String> = []

    public init() {}

    /// Builds the map from what a read returned, the keys it visited, and
    /// the paths of those that are path keys.
    init(keys: [String: CacheKey], pathKeyed: Set<String>, data: ResponseValue?) {
        guard let data else { return }
        if case .object(let members) = data.fieldValue { root = members }
        func visit(_ value: ResponseValue, path: String) {
            switch value {
            case .object(let members):
                let key = keys[path]
                if key != nil, case .string(let name)? = members.first(where: { $0.0 == "__typename" })?.1.fieldValue {
                    typenames[path] = name
                    if let id = Self.idText(members.first { $0.0 == "id" }?.1.fieldValue) { typenamesByID[id, default: []].insert(name) }
                }
                if let key, !path.isEmpty, !pathKeyed.contains(path) {
                    let signature = Self.signature(members.first { $0.0 == "__typename" }?.1.fieldValue, members.first { $0.0 == "id" }?.1.fieldValue)
                    byPath[path] = Object(key: key, signature: signature, data: value.fieldValue)
                    if pathOfKey[key] == nil { pathOfKey[key] = path }
                    if let signature { bySignature[signature] = key }
                }
                for (name, member) in members { visit(member, path: path.isEmpty ? name : path + "." + name) }
            case .list(let elements):
                for (index, element) in elements.enumerated() { visit(element, path: path + "." + String(index)) }
                listElements[path] = elements.indices.compactMap { index in byPath[path + "." + String(index)].map { (index, $0) } }
                listValues[path] = elements.map(\.fieldValue)
            case .null, .scalar:
                break
            }
        }
        visit(data, path: "")
    }

    /// The `__typename` of the object read at `path`, if one was.
    func typename(at path: String) -> String? { typenames[path] }

    /// The `__typename` of the object now at `path` with this `id`: that of
    /// the one object read with the id, wherever it was (a list reordered
    /// by hand moves objects); else that of the one read at `path`.
    func typename(at path: String, id: FieldValue?) -> String? {
        if let id = Self.idText(id), let found = typenamesByID[id], found.count == 1 { return found.first }
        return typenames[path]
    }

    static func idText(_ id: FieldValue?) -> String? {
        switch id {
        case .string(let text)?: return text
        case .int(let number)?: return String(number)
        default: return nil
        }
    }

    /// Every `__typename` read.
    var readTypenames: Set<String> { Set(typenames.values) }

    /// ``signature(_:_:)`` of an object's data; nil for anything else.
    static func signature(of value: FieldValue) -> String? {
        guard case .object(let members) = value else { return nil }
        return signature(members["__typename"], members["id"])
    }

    static func signature(_ typename: FieldValue?, _ id: FieldValue?) -> String? {
        guard case .string(let typename)? = typename, let id = idText(id) else { return nil }
        return typename + "\u{0}" + id
    }

    /// The identity-keyed object read at `index` of the list at `path`.
    func object(_ index: Int, ofListAt path: String) -> Object? { object(at: path + "." + String(index)) }

    /// The identity-keyed object read at `path`.
    func object(at path: String) -> Object? { byPath[path] }

    /// How many elements the list at `path` had when read, if one was.
    func count(ofListAt path: String) -> Int? { listValues[path]?.count }

    /// The element read at `index` of the list at `path`, if there was one.
    func element(_ index: Int, ofListAt path: String) -> FieldValue? {
        guard let elements = listValues[path], elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}
