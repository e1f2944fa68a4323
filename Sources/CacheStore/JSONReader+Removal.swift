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

    /// Takes the value out whole.
    static let whole: RemovalTree = {
        var tree = RemovalTree()
        tree.removesWhole = true
        return tree
    }()

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
    /// Apollo's separators. A member an edit names that the object gives
    /// twice is read as its last: the edit is made there, and the earlier
    /// ones, which no read sees, go (kept, one would be read once the last
    /// is gone). Nil when the text is not one well-formed object; the
    /// caller then writes the record afresh.
    /// Bytes are kept as bytes: a string's bytes that are not UTF-8 stay as
    /// the file holds them, not turned into U+FFFD.
    static func recordText(_ text: UnsafeBufferPointer<UInt8>, removing tree: RemovalTree) -> [UInt8]? {
        var reader = JSONReader(bytes: text)
        reader.skipWhitespace()
        guard reader.peek() == UInt8(ascii: "{"), let kept = try? reader.removing(tree, depth: 0) else { return nil }
        reader.skipWhitespace()
        guard reader.index == text.count else { return nil }
        return kept
    }

    /// The text cannot be edited as asked: the record is written afresh.
    private struct Unfit: Error {}

    /// The value here, without what `tree` takes out of it.
    private mutating func removing(_ tree: RemovalTree, depth: Int) throws -> [UInt8] {
        skipWhitespace()
        let start = index
        guard !tree.children.isEmpty else {
            try skipValue(depth: depth)
            return Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }
        var kept: [[UInt8]] = []
        let isObject = peek() == UInt8(ascii: "{")
        if isObject {
            index += 1
            // Where each edited member's last occurrence is, the one read.
            var scan = self
            var last: [String: Int] = [:]
            var ordinal = 0
            try scan.forEachMember { reader, name, _ in
                if tree.children[.member(name)] != nil { last[name] = ordinal }
                ordinal += 1
                try reader.skipValue(depth: depth + 1)
            }
            ordinal = 0
            try forEachMember { reader, name, memberStart in
                var child = tree.children[.member(name)]
                if child != nil, last[name] != ordinal { child = .whole }
                ordinal += 1
                if let item = try reader.keptItem(from: memberStart, without: child, depth: depth + 1) { kept.append(item) }
            }
        } else if peek() == UInt8(ascii: "[") {
            index += 1
            try forEachElement { reader, position in
                let child = tree.children[.index(position)]
                if let item = try reader.keptItem(from: reader.index, without: child, depth: depth + 1) { kept.append(item) }
            }
        } else {
            throw Unfit()  // a path into a value that holds nothing
        }
        var text: [UInt8] = [UInt8(ascii: isObject ? "{" : "[")]
        for (offset, item) in kept.enumerated() {
            if offset > 0 { text.append(UInt8(ascii: ",")) }
            text += item
        }
        text.append(UInt8(ascii: isObject ? "}" : "]"))
        return text
    }

    /// The member or element from `start` to the end of the value here,
    /// without what `child` takes out of the value; nil when it goes whole.
    private mutating func keptItem(from start: Int, without child: RemovalTree?, depth: Int) throws -> [UInt8]? {
        skipWhitespace()
        let valueStart = index
        guard let child else {
            try skipValue(depth: depth)
            return Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        }
        if child.removesWhole {
            try skipValue(depth: depth)
            return nil
        }
        let value = try removing(child, depth: depth)
        return Array(UnsafeBufferPointer(rebasing: bytes[start..<valueStart])) + value
    }
}
