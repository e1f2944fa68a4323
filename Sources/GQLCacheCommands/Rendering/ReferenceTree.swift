import CacheStore

/// The references of a record and, to a depth, of the records they reach,
/// drawn as a tree of `field[i] → KEY` links. As `show` does, a record is
/// expanded once, at the first of its places nearest the top (so that
/// everything within the depth is drawn); its other places say `(above)`
/// or `(below)`, and `(cycle)` inside itself.
struct ReferenceTree {
    /// Where a record not expanded at this place is.
    enum Elsewhere: String {
        case above, below, cycle
    }

    struct Node {
        let reference: ReferencePath
        let state: String?
        /// The problem of a damaged record, whose references cannot be read.
        let damage: String?
        let typename: String?
        let exists: Bool
        let children: [Node]
        /// Expanded at another place in the tree.
        let elsewhere: Elsewhere?
        /// A record at the last level drawn that has references of its
        /// own: a deeper --depth would draw them.
        let beyondDepth: Bool
    }

    let key: CacheKey
    let root: RecordGraph.Entry?
    let nodes: [Node]

    /// Builds the tree of what `key` reaches, `depth` levels deep, from a
    /// graph loaded to that depth.
    static func build(_ key: CacheKey, depth: Int, graph: RecordGraph) -> ReferenceTree {
        // Records whose own references are drawn: those reached before the last level.
        let nearest = graph.nearestLevels(from: key, within: depth - 1) { $0.referencePaths.map(\.target) }
        var drawn: Set<CacheKey> = [key]
        func children(of key: CacheKey, level: Int, path: Set<CacheKey>) -> [Node] {
            guard level <= depth, case .found(let record)? = graph.entries[key] else { return [] }
            var nodes: [Node] = []
            for reference in record.referencePaths {
                let target = reference.target
                let entry = graph.entries[target]
                var typename: String?
                var state: String?
                var damage: String?
                switch entry {
                case .found(let record)?: typename = record.typename
                case .damaged(let message)?:
                    state = "damaged: \(message)"
                    damage = message
                case .unreadable(let problem)?:
                    state = "unreadable: \(problem)"
                    damage = problem
                case .missing?: state = "missing"
                case nil: state = graph.exists(target) ? nil : "missing"
                }
                var elsewhere: Elsewhere?
                var below: [Node] = []
                if path.contains(target) {
                    elsewhere = .cycle
                } else if level < depth, case .found? = entry {
                    // Its references would be drawn here: once, where it is nearest the top.
                    if drawn.contains(target) {
                        elsewhere = .above
                    } else if nearest[target] != level {
                        elsewhere = .below
                    } else {
                        drawn.insert(target)
                        below = children(of: target, level: level + 1, path: path.union([target]))
                    }
                } else if case .found? = entry, nearest[target] != nil {
                    // At the last level, a record whose references are drawn elsewhere says where.
                    elsewhere = drawn.contains(target) ? .above : .below
                }
                var beyondDepth = false
                if level == depth, elsewhere == nil, case .found? = entry { beyondDepth = graph.holdsReferences(target) }
                nodes.append(Node(
                    reference: reference, state: state, damage: damage, typename: typename, exists: graph.exists(target),
                    children: below, elsewhere: elsewhere, beyondDepth: beyondDepth))
            }
            return nodes
        }
        return ReferenceTree(key: key, root: graph.entries[key], nodes: children(of: key, level: 1, path: [key]))
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
        case .found(let record)?: emit(style.key(key.display) + (record.typename.map { " " + style.dim("(\($0.shownOnLine))") } ?? ""))
        case .damaged(let message)?: emit(style.key(key.display) + " " + style.problem("(damaged: \(message))"))
        case .unreadable(let problem)?: emit(style.key(key.display) + " " + style.problem("(unreadable: \(problem))"))
        case .missing?, nil: emit(style.key(key.display) + " " + style.problem("(missing)"))
        }
        if case .found? = root, nodes.isEmpty { emit("└─ (no references)") }
        func draw(_ nodes: [Node], prefix: String) {
            for (index, node) in nodes.enumerated() {
                let last = index == nodes.count - 1
                var line = prefix + (last ? "└─ " : "├─ ") + "\(node.reference.shownLocation) → " + style.reference(node.reference.target.display)
                if let typename = node.typename { line += " " + style.dim("(\(typename.shownOnLine))") }
                if let state = node.state { line += " " + style.problem("(\(state))") }
                if let elsewhere = node.elsewhere { line += " " + style.dim("(\(elsewhere.rawValue))") }
                emit(line)
                draw(node.children, prefix: prefix + (last ? "   " : "│  "))
            }
        }
        draw(nodes, prefix: "")
    }

    /// The tree as JSON, each reference with those of the record it
    /// reaches nested in its `references`.
    func json() -> [JSONOutput] {
        func encode(_ node: Node) -> JSONOutput {
            .object(Self.members(of: node, inside: node.children.isEmpty ? [] : [("references", .array(node.children.map(encode)))]))
        }
        return nodes.map(encode)
    }

    /// The tree a reference to a line, for JSON Lines: each as in
    /// ``json()`` with `"type": "reference"`, its `depth` and the record
    /// holding it (`from`) in place of the nesting, in the text's order.
    /// Nested JSON grows two levels a step, and past about 85 steps is
    /// more than some parsers take (jq 1.6); these lines are flat at any depth.
    func jsonLines() -> [JSONOutput] {
        var lines: [JSONOutput] = []
        func add(_ nodes: [Node], depth: Int, from: CacheKey) {
            for node in nodes {
                lines.append(.object([("type", .string("reference")), ("depth", .int(depth)), ("from", .string(from.rawValue))]
                    + Self.members(of: node, inside: [])))
                add(node.children, depth: depth + 1, from: node.reference.target)
            }
        }
        add(nodes, depth: 1, from: key)
        return lines
    }

    /// A reference's members, with `inside` (its nested references) after
    /// the error a damaged record has.
    private static func members(of node: Node, inside: [(String, JSONOutput)]) -> [(String, JSONOutput)] {
        var members: [(String, JSONOutput)] = [
            ("field", .string(node.reference.field)),
            ("location", .string(node.reference.location)),
            ("to", .string(node.reference.target.rawValue)),
            ("exists", .bool(node.exists)),
            ("typename", node.typename.map(JSONOutput.string) ?? .null),
        ]
        if let damage = node.damage { members.append(("error", .string(damage))) }
        members += inside
        // Not drawn for the depth: not a record without references.
        if node.beyondDepth { members.append(("beyondDepth", .bool(true))) }
        // As the text's "(above)" and "(below)": its references are in the tree, not absent.
        switch node.elsewhere {
        case .above?: members.append(("shownAbove", .bool(true)))
        // A record that leads back to itself: above, on the path here.
        case .cycle?: members += [("shownAbove", .bool(true)), ("cycle", .bool(true))]
        case .below?: members.append(("shownBelow", .bool(true)))
        case nil: break
        }
        return members
    }
}
