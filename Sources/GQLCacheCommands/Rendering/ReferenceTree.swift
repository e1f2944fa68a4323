import CacheStore

/// The references of a record and, to a depth, of the records they reach,
/// drawn as a tree of `field[i] → KEY` links. A record already expanded is
/// marked `(above)` rather than drawn again.
struct ReferenceTree {
    struct Node {
        let reference: ReferencePath
        let state: String?
        let typename: String?
        let exists: Bool
        let children: [Node]
        /// Already expanded elsewhere in the tree.
        let repeated: Bool
    }

    let key: CacheKey
    let root: RecordGraph.Entry?
    let nodes: [Node]

    /// Builds the tree of what `key` reaches, `depth` levels deep, from a
    /// graph loaded to that depth.
    static func build(_ key: CacheKey, depth: Int, graph: RecordGraph) -> ReferenceTree {
        var expanded: Set<CacheKey> = [key]
        func children(of key: CacheKey, level: Int) -> [Node] {
            guard level <= depth, case .found(let record)? = graph.entries[key] else { return [] }
            var nodes: [Node] = []
            for reference in record.referencePaths {
                let target = reference.target
                let entry = graph.entries[target]
                var typename: String?
                var state: String?
                switch entry {
                case .found(let record)?: typename = record.typename
                case .damaged(let message)?: state = "damaged: \(message)"
                case .missing?: state = "missing"
                case nil: state = graph.exists(target) ? nil : "missing"
                }
                let repeated = !expanded.insert(target).inserted
                nodes.append(Node(
                    reference: reference, state: state, typename: typename, exists: graph.exists(target),
                    children: repeated ? [] : children(of: target, level: level + 1), repeated: repeated))
            }
            return nodes
        }
        return ReferenceTree(key: key, root: graph.entries[key], nodes: children(of: key, level: 1))
    }

    /// The tree as `show` draws one, coloured the same way with `style`.
    func textLines(style: TextStyle = .plain) -> [String] {
        var lines: [String] = []
        drawText(style: style) { lines.append($0) }
        return lines
    }

    /// ``textLines(style:)`` a line at a time: a deep tree's text, its
    /// prefixes growing with the depth, can be gigabytes, which are
    /// printed as they are drawn rather than held whole.
    func drawText(style: TextStyle = .plain, emit: (String) -> Void) {
        switch root {
        case .found(let record)?: emit(style.key(key.display) + (record.typename.map { " " + style.dim("(\($0))") } ?? ""))
        case .damaged(let message)?: emit(style.key(key.display) + " " + style.problem("(damaged: \(message))"))
        case .missing?, nil: emit(style.key(key.display) + " " + style.problem("(missing)"))
        }
        if case .found? = root, nodes.isEmpty { emit("└─ (no references)") }
        func draw(_ nodes: [Node], prefix: String) {
            for (index, node) in nodes.enumerated() {
                let last = index == nodes.count - 1
                var line = prefix + (last ? "└─ " : "├─ ") + "\(node.reference.shownLocation) → " + style.reference(node.reference.target.display)
                if let typename = node.typename { line += " " + style.dim("(\(typename))") }
                if let state = node.state { line += " " + style.problem("(\(state))") }
                if node.repeated { line += " " + style.dim("(above)") }
                emit(line)
                draw(node.children, prefix: prefix + (last ? "   " : "│  "))
            }
        }
        draw(nodes, prefix: "")
    }

    func json() -> [JSONOutput] {
        func encode(_ node: Node) -> JSONOutput {
            var members: [(String, JSONOutput)] = [
                ("field", .string(node.reference.field)),
                ("location", .string(node.reference.location)),
                ("to", .string(node.reference.target.rawValue)),
                ("exists", .bool(node.exists)),
                ("typename", node.typename.map(JSONOutput.string) ?? .null),
            ]
            if !node.children.isEmpty { members.append(("references", .array(node.children.map(encode)))) }
            // As the text's "(above)": its references are in the tree already, not absent.
            if node.repeated { members.append(("shownAbove", .bool(true))) }
            return .object(members)
        }
        return nodes.map(encode)
    }
}
