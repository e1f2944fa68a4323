import CacheStore

/// Changing read data before it is written back (`update --set`).
extension ResponseValue {
    /// The value as plain JSON, for the normalizer or an editor.
    public var fieldValue: FieldValue {
        switch self {
        case .null: return .null
        case .scalar(let value): return value
        case .list(let elements): return .list(elements.map(\.fieldValue))
        case .object(let members): return .object(Dictionary(members.map { ($0.0, $0.1.fieldValue) }, uniquingKeysWith: { $1 }))
        }
    }

    /// JSON as data: objects with their members in key order.
    public init(_ value: FieldValue) {
        switch value {
        case .null: self = .null
        case .list(let elements): self = .list(elements.map(ResponseValue.init))
        case .object(let members): self = .object(members.keys.sorted(by: byteOrder).map { ($0, ResponseValue(members[$0]!)) })
        default: self = .scalar(value)
        }
    }

    /// The value at `path` (response names and list indexes, also inside
    /// a list of scalars or a custom scalar's JSON), or nil when the data
    /// has nothing there.
    public func value(at path: [String]) -> ResponseValue? {
        guard let head = path.first else { return self }
        switch self {
        case .object(let members):
            return members.first { $0.0 == head }?.1.value(at: Array(path.dropFirst()))
        case .list(let elements):
            guard let index = Self.index(head), elements.indices.contains(index) else { return nil }
            return elements[index].value(at: Array(path.dropFirst()))
        case .scalar(let value):
            // An element of a list of scalars, or a member of a custom scalar's object.
            var value = value
            for step in path {
                switch value {
                case .list(let elements):
                    guard let index = Self.index(step), elements.indices.contains(index) else { return nil }
                    value = elements[index]
                case .object(let members):
                    guard let member = members[step] else { return nil }
                    value = member
                default: return nil
                }
            }
            return value == .null ? .null : .scalar(value)
        case .null:
            return nil
        }
    }

    /// A list index as a path writes it: digits without a sign or a
    /// leading zero (`01` and `+1` are no other way to write 1).
    static func index(_ step: String) -> Int? {
        guard step == "0" || (step.first != "0" && !step.isEmpty && step.utf8.allSatisfy { (48...57).contains($0) }) else { return nil }
        return Int(step)
    }

    /// The data with the value at `path` (response names and list indexes,
    /// `hero.friends.0.name`) replaced. Only what the data already holds can
    /// be set, so a path outside the selection is an error; an index one
    /// past a list's end appends. `absent`: the paths of selected fields
    /// the read left out (``ReadResult/absentFields``), which may be set
    /// whole.
    public func setting(_ path: [String], to value: ResponseValue, absent: Set<String> = []) throws -> ResponseValue {
        try setting(path[...], to: value, at: [], absent: absent)
    }

    /// `insideJSON`: the data is a leaf's JSON (a custom scalar's object),
    /// where any member may be added, not a selection's object.
    private func setting(
        _ path: ArraySlice<String>, to value: ResponseValue, at place: [String], absent: Set<String>, insideJSON: Bool = false
    ) throws -> ResponseValue {
        guard let head = path.first else { return value }
        let here = place.isEmpty ? "the data" : place.joined(separator: ".")
        switch self {
        case .object(var members):
            guard let index = members.firstIndex(where: { $0.0 == head }) else {
                let field = (place + [head]).joined(separator: ".")
                if insideJSON {
                    guard path.count == 1 else { throw DataPathError("\(here) has no '\(head)' to set a member of; set \(field) whole") }
                    members.append((head, value))
                    return .object(members)
                }
                if absent.contains(field) {
                    guard path.count == 1 else { throw DataPathError("\(field) is not in the cache; set it whole (--set \(field)=…)", isCacheMiss: true) }
                    members.append((head, value))
                    return .object(members)
                }
                let names = members.map(\.0).joined(separator: ", ")
                throw DataPathError("\(here) has no '\(head)' in the selection (it has: \(names))")
            }
            members[index].1 = try members[index].1.setting(path.dropFirst(), to: value, at: place + [head], absent: absent, insideJSON: insideJSON)
            return .object(members)
        case .list(var elements):
            guard let index = Self.index(head), index <= elements.count else {
                throw DataPathError("\(here) is a list of \(elements.count) element\(elements.count == 1 ? "" : "s"); '\(head)' is not an index in it "
                    + (elements.isEmpty ? "(0 appends one)" : "(0 to \(elements.count - 1) change an element, \(elements.count) appends one)"))
            }
            if index == elements.count {
                guard path.count == 1 else { throw DataPathError("\(here) has no element \(index) to change") }
                elements.append(value)
            } else {
                elements[index] = try elements[index].setting(path.dropFirst(), to: value, at: place + [head], absent: absent, insideJSON: insideJSON)
            }
            return .list(elements)
        case .null:
            throw DataPathError("\(here) is null, so it has no '\(head)'; set \(here) to a whole object instead")
        case .scalar(let leaf):
            switch leaf {
            case .list, .object:
                // A list of scalars (`appearsIn.0`), or a custom scalar's JSON: changed inside, still a leaf.
                return .scalar(try ResponseValue(leaf).setting(path, to: value, at: place, absent: [], insideJSON: true).fieldValue)
            default:
                throw DataPathError("\(here) is a value, not an object or a list, so it has no '\(head)'")
            }
        }
    }

    /// Why `new`, data to write back in place of this data as read, does
    /// not fit it: a member the selection lacks (a typo would otherwise be
    /// dropped without a word; `absent` names the selected fields the read
    /// left out, which may be written), or a value of another shape than
    /// the one read (an object, a list or a single value), which the app's
    /// generated model could not hold. Null, read or written, fits any
    /// shape, but a list element appended or written where null was read
    /// takes the shape of the elements read; an object of another
    /// `__typename` in a list is not compared.
    /// A leaf read as an object is a custom scalar, whose JSON may take
    /// any shape; `checkingLeaves: false` leaves every leaf to a schema's
    /// own check (a custom scalar that was a string may become an object).
    public func problem(writing new: FieldValue, absent: Set<String> = [], checkingLeaves: Bool = true) -> String? {
        problem(writing: new, at: [], absent: absent, checkingLeaves: checkingLeaves)
    }

    /// "an object", "a list" or "a single value".
    fileprivate static func shape(_ value: FieldValue) -> String {
        switch value {
        case .object: return "an object"
        case .list: return "a list"
        default: return "a single value"
        }
    }

    /// ``shape(_:)`` of data read, without making JSON of it.
    fileprivate var shape: String {
        switch self {
        case .object: return "an object"
        case .list: return "a list"
        case .null, .scalar(_): return Self.shape(fieldValue)
        }
    }

    /// `besides`: when this is an element of a list, the elements read
    /// with it, whose fields say the shape of one of its own read as null.
    private func problem(
        writing new: FieldValue, at place: [String], absent: Set<String>, checkingLeaves: Bool, besides: ShapeModel? = nil
    ) -> String? {
        let here = place.isEmpty ? "the data" : place.joined(separator: ".")
        let shape = Self.shape
        switch (self, new) {
        case (.null, _), (_, .null):
            return nil
        case (.object(let members), .object(let written)):
            let ownType = typename
            if let ownType, case .string(let now)? = written["__typename"], ownType != now {
                return nil
            }
            // The same field of the objects read beside this one, of its type.
            func beside(_ name: String) -> ShapeModel? { besides?.member(name, ofType: ownType) }
            for name in written.keys.sorted(by: byteOrder) where !members.contains(where: { $0.0 == name }) {
                guard absent.contains((place + [name]).joined(separator: ".")) else {
                    return "\(here) has no '\(name)' in the selection (it has: \(members.map(\.0).joined(separator: ", ")))"
                }
                if let model = beside(name),
                    let problem = model.problem(writing: written[name]!, at: place + [name], inList: false, checkingLeaves: checkingLeaves)
                {
                    return problem
                }
            }
            for (name, value) in members {
                guard let newValue = written[name] else { continue }
                // A field read as null takes the shape the objects beside it hold there.
                let problem = value == .null
                    ? beside(name)?.problem(writing: newValue, at: place + [name], inList: false, checkingLeaves: checkingLeaves)
                    : value.problem(writing: newValue, at: place + [name], absent: absent, checkingLeaves: checkingLeaves, besides: beside(name))
                if let problem { return problem }
            }
            return nil
        case (.list(let elements), .list(let written)):
            // An element appended, or written where null was read, takes the
            // shape of those read: no list of the model holds both objects and
            // lists. In a list of lists, or a field of objects in a list, those
            // of the lists beside this one count too.
            let model = besides?.elements ?? ShapeModel(elements)
            for (index, element) in written.enumerated() {
                let place = place + [String(index)]
                let problem = index < elements.count && elements[index] != .null
                    ? elements[index].problem(writing: element, at: place, absent: absent, checkingLeaves: checkingLeaves, besides: model)
                    : model.problem(writing: element, at: place, inList: true, checkingLeaves: checkingLeaves)
                if let problem { return problem }
            }
            return nil
        case (.object, _), (.list, _):
            return "\(here) is \(shape(fieldValue)) in the data read, and cannot be written as \(shape(new))"
        case (.scalar(let leaf), _):
            if !checkingLeaves { return nil }
            return Self.leafProblem(leaf, writing: new, at: place, besides: besides)
        }
    }

    /// The `__typename` of an object read, if it has one.
    fileprivate var typename: String? {
        guard case .string(let name)? = member("__typename")?.fieldValue else { return nil }
        return name
    }

    /// The member `name` of an object read.
    fileprivate func member(_ name: String) -> ResponseValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// The elements of a list read, a list of leaves' too (each a leaf).
    fileprivate var elements: [ResponseValue] {
        switch self {
        case .list(let elements): return elements
        case .scalar(.list(let leaves)): return leaves.map { $0 == .null ? .null : .scalar($0) }
        default: return []
        }
    }

    /// A leaf read that only a custom scalar holds: an object, or a list
    /// holding one (at any depth) or values of several shapes.
    fileprivate static func isFreeJSON(_ leaf: FieldValue) -> Bool {
        switch leaf {
        case .object: return true
        case .list(let elements):
            let held = elements.filter { $0 != .null }
            return held.contains(where: isFreeJSON) || !held.allSatisfy { shape($0) == shape(held[0]) }
        default: return false
        }
    }

    /// What ``ShapeModel/problem(writing:at:inList:checkingLeaves:)`` says of `new`, not of the shape `model` read beside it.
    fileprivate static func misfit(_ new: FieldValue, model: String, at place: [String], inList: Bool) -> String {
        let here = place.joined(separator: ".")
        return inList
            ? "\(here) is in a list of \(plural(model)) in the data read, and cannot be \(shape(new))"
            : "\(here) is \(shape(new)) where the objects read beside it hold \(model), which the app's model cannot hold"
    }

    /// "objects" for "an object": the elements of a list of that shape.
    fileprivate static func plural(_ shape: String) -> String {
        switch shape {
        case "an object": return "objects"
        case "a list": return "lists"
        default: return "single values"
        }
    }

    /// A leaf keeps its shape, and so does each element of a list of
    /// leaves (`[[1, 2]]` takes no `5` for `[1, 2]`); an element appended,
    /// or written where null was read, takes the shape of those read
    /// beside it. Inside a custom scalar's JSON anything goes: a leaf read
    /// as an object, or a list holding one or elements not all of one
    /// shape, which no GraphQL list of scalars is.
    /// `besides`: the values read beside this leaf, whose elements an
    /// element appended to it takes the shape of too.
    private static func leafProblem(
        _ leaf: FieldValue, writing new: FieldValue, at place: [String], besides: ShapeModel? = nil
    ) -> String? {
        if isFreeJSON(leaf) { return nil }
        switch (leaf, new) {
        case (.null, _), (_, .null):
            return nil
        case (.list(let elements), .list(let written)):
            let model = besides?.elements ?? ShapeModel(ResponseValue.scalar(leaf).elements)
            for (index, element) in written.enumerated() {
                let problem = index < elements.count && elements[index] != .null
                    ? leafProblem(elements[index], writing: element, at: place + [String(index)], besides: model)
                    : model.problem(writing: element, at: place + [String(index)], inList: true, checkingLeaves: true)
                if let problem { return problem }
            }
            return nil
        default:
            guard shape(leaf) != shape(new) else { return nil }
            let here = place.isEmpty ? "the data" : place.joined(separator: ".")
            return "\(here) is \(shape(leaf)) in the data read, and cannot be written as \(shape(new))"
        }
    }
}

/// A `--set` path that does not lead anywhere in the data.
public struct DataPathError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    /// The path goes through a field the cache does not hold (a cache
    /// miss), not through one outside the selection.
    public let isCacheMiss: Bool
    init(_ description: String, isCacheMiss: Bool = false) {
        self.description = description
        self.isCacheMiss = isCacheMiss
    }
}

/// What the values read beside a place (a list's other elements, or the
/// same field of the objects beside one) say of the shape of a value
/// written where nothing was read: worked out once for all the values
/// written there, so that a list of thousands appended to is gone over
/// once, not once an element.
private final class ShapeModel {
    private let read: [ResponseValue]

    init(_ read: [ResponseValue]) { self.read = read }

    private lazy var held = read.filter { $0 != .null }

    /// The shape all the values read hold; nil when none was read, or they
    /// hold several, or one is a custom scalar's JSON: anything goes.
    private lazy var shape: String? = {
        guard let first = held.first?.shape, held.allSatisfy({ $0.shape == first }) else { return nil }
        let free = held.contains { value in
            if case .scalar(let leaf) = value { return ResponseValue.isFreeJSON(leaf) }
            return false
        }
        return free ? nil : first
    }()

    private lazy var isLeaf: Bool = {
        if case .scalar? = held.first { return true }
        return false
    }()

    /// The elements of the lists read, for those of a list written.
    lazy var elements = ShapeModel(held.flatMap(\.elements))

    /// The fields of the objects read, by name, for each `__typename` written.
    private var members: [String: [String: ShapeModel]] = [:]

    /// The field `name` of the objects read of `typename` (or of any type,
    /// when either does not say): another type's object holds another selection.
    func member(_ name: String, ofType typename: String?) -> ShapeModel {
        if let known = members[typename ?? ""]?[name] { return known }
        let model = ShapeModel(held.compactMap { $0.typename == nil || typename == nil || $0.typename == typename ? $0.member(name) : nil })
        members[typename ?? "", default: [:]][name] = model
        return model
    }

    /// Why `new`, written where nothing was read (appended to a list, or
    /// where null was read), has not the shape of the values read beside
    /// it, at any depth: the app's model holds each level of a list in one
    /// shape, and each field in one. Leaves are checked only when
    /// `checkingLeaves` (a schema checks them otherwise). `inList`: `new`
    /// is a list's element.
    func problem(writing new: FieldValue, at place: [String], inList: Bool, checkingLeaves: Bool) -> String? {
        guard new != .null, let shape, checkingLeaves || !isLeaf else { return nil }
        guard ResponseValue.shape(new) == shape else { return ResponseValue.misfit(new, model: shape, at: place, inList: inList) }
        switch new {
        case .list(let written):
            for (index, element) in written.enumerated() {
                if let problem = elements.problem(writing: element, at: place + [String(index)], inList: true, checkingLeaves: checkingLeaves) {
                    return problem
                }
            }
        case .object(let written) where !isLeaf:
            let typename: String? = if case .string(let name)? = written["__typename"] { name } else { nil }
            for name in written.keys.sorted(by: byteOrder) {
                let problem = member(name, ofType: typename).problem(
                    writing: written[name]!, at: place + [name], inList: false, checkingLeaves: checkingLeaves)
                if let problem { return problem }
            }
        default:
            break
        }
        return nil
    }
}
