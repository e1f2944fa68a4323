import CacheStore

extension DroppedReferences {
    /// One line per dropped reference: `Droid:2001 friends[1] → Human:1002 (list element)`.
    var lines: [String] {
        dropped.map { "\(key.display) \($0.shownLocation) → \($0.target.display) (\($0.droppedPart))" }
    }

    var json: [JSONOutput] {
        dropped.map { .object(jsonMembers($0)) }
    }

    func jsonMembers(_ reference: ReferencePath) -> [(String, JSONOutput)] {
        [
            ("key", .string(key.rawValue)), ("field", .string(reference.field)),
            ("path", .array(reference.path.map(\.json))),
            ("to", .string(reference.target.rawValue)), ("dropped", .string(reference.droppedPart)),
        ]
    }
}

extension ReferencePath {
    /// What dropping this reference removes: the field, a list element or an object member.
    var droppedPart: String {
        switch path.last {
        case nil: return "field"
        case .index?: return "list element"
        case .member?: return "object member"
        }
    }
}

extension ValuePathStep {
    /// A list position as a number, an object member as its name.
    var json: JSONOutput {
        switch self {
        case .index(let index): return .int(index)
        case .member(let name): return .string(name)
        }
    }
}
