/// Which values to take out of a record's JSON: the record's own members
/// by field, and below them list elements and object members by position
/// and name.
struct RemovalTree {
    /// The value this node stands for goes, with whatever it holds.
    var removesWhole = false
    var children: [ValuePathStep: RemovalTree] = [:]

    /// The tree that takes out each of `paths` (positions as in the text).
    init(removing paths: [ReferencePath]) {
        for path in paths { insert([.member(path.field)] + path.path) }
    }

    private init() {}

    private mutating func insert(_ steps: some Collection<ValuePathStep>) {
        guard let first = steps.first else { return removesWhole = true }
        children[first, default: RemovalTree()].insert(steps.dropFirst())
    }
}

extension JSONReader {
    /// The record's JSON text with the values `tree` names taken out and
    /// every other byte as it was: a member or element that is not edited
    /// keeps its exact text (a number's digits, a string's escapes, member
    /// order), where decoding and encoding again would write it afresh.
    /// Only a list or object something is taken from is rejoined, with
    /// Apollo's separators. Nil when the text is not one well-formed object
    /// or an edited object repeats a member name (which one would be meant
    /// is unclear); the caller then writes the record afresh.
    static func recordText(_ text: UnsafeBufferPointer<UInt8>, removing tree: RemovalTree) -> String? {
        var reader = JSONReader(bytes: text)
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{"), let kept = try? reader.removing(tree, depth: 0) else { return nil }
        reader.skipWhitespace()
        guard reader.index == text.count else { return nil }
        return String(decoding: kept, as: UTF8.self)
    }

    /// The value here, without what `tree` takes out of it.
    private mutating func removing(_ tree: RemovalTree, depth: Int) throws -> [UInt8]? {
        skipWhitespace()
        let start = index
        guard !tree.children.isEmpty else {
            try skipValue(depth: depth)
            return Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }
        let isObject: Bool
        switch peek() {
        case UInt8(ascii: "{"): isObject = true
        case UInt8(ascii: "["): isObject = false
        default: return nil  // a path into a value that holds nothing
        }
        index += 1
        var kept: [[UInt8]] = []
        var edited: Set<String> = []
        var position = 0
        skipWhitespace()
        if peek() != UInt8(ascii: isObject ? "}" : "]") {
            while true {
                skipWhitespace()
                let itemStart = index
                let step: ValuePathStep
                if isObject {
                    guard peek() == UInt8(ascii: "\"") else { return nil }
                    let name = try parseString()
                    try expect(UInt8(ascii: ":"))
                    skipWhitespace()
                    step = .member(name)
                    if tree.children[step] != nil, !edited.insert(name).inserted { return nil }
                } else {
                    step = .index(position)
                }
                position += 1
                let valueStart = index
                if let child = tree.children[step] {
                    if child.removesWhole {
                        try skipValue(depth: depth + 1)
                    } else {
                        guard let value = try removing(child, depth: depth + 1) else { return nil }
                        kept.append(Array(UnsafeBufferPointer(rebasing: bytes[itemStart..<valueStart])) + value)
                    }
                } else {
                    try skipValue(depth: depth + 1)
                    kept.append(Array(UnsafeBufferPointer(rebasing: bytes[itemStart..<index])))
                }
                skipWhitespace()
                guard let next = peek() else { return nil }
                index += 1
                if next == UInt8(ascii: isObject ? "}" : "]") { break }
                guard next == UInt8(ascii: ",") else { return nil }
            }
        } else {
            index += 1
        }
        var text: [UInt8] = [UInt8(ascii: isObject ? "{" : "[")]
        for (offset, item) in kept.enumerated() {
            if offset > 0 { text.append(UInt8(ascii: ",")) }
            text += item
        }
        text.append(UInt8(ascii: isObject ? "}" : "]"))
        return text
    }
}
