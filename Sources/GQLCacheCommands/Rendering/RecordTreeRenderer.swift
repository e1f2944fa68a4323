import CacheStore

/// Draws records as trees, references as `→ KEY` links, and references
/// expanded inline up to a depth. A record is expanded once, at the first
/// of its places nearest the top (where its own references reach deepest);
/// its other places say `(above)` or `(below)`, or `(cycle)` inside itself,
/// so the text grows with the records reached, not with the number of
/// paths to them:
///
/// ```
/// Droid:2001 (Droid)
/// ├─ friends [3]
/// │  ├─ [0] → Human:1000
/// │  ├─ [1] → Human:1002 (missing)
/// │  └─ [2]: null
/// └─ name: "R2-D2"
/// ```
struct RecordTreeRenderer {
    let graph: RecordGraph
    let maxDepth: Int
    var style: TextStyle = .plain

    func render(_ key: CacheKey) -> String {
        var lines: [String] = []
        render(key) { lines.append($0) }
        return lines.joined(separator: "\n")
    }

    /// Draws `key`'s tree a line at a time, so that a large one is printed
    /// as it is drawn rather than held whole.
    func render(_ key: CacheKey, emit: (String) -> Void) {
        render([key], emit: emit)
    }

    /// Draws the trees of `keys`, a blank line between two, as one
    /// drawing: each record once (a key given twice too), where it is
    /// nearest the top of any of them, as the JSON forms give it; a
    /// record given that another's tree reaches says there `(below)` or
    /// `(above)`.
    func render(_ keys: [CacheKey], emit: (String) -> Void) {
        var seen: Set<CacheKey> = []
        let keys = keys.filter { seen.insert($0).inserted }
        var tree = Tree(nearest: graph.nearestLevels(from: keys, within: maxDepth) { $0.fields.values.flatMap(\.references) }, drawn: [])
        for (index, key) in keys.enumerated() {
            if index > 0 { emit("") }
            switch graph.entries[key] {
            case .found(let record)?:
                emit(style.key(key.display) + typeSuffix(record))
                tree.drawn.insert(key)
                renderFields(of: record, prefix: "", depth: 0, path: [key], tree: &tree, emit: emit)
            case .damaged(let message)?:
                emit(style.key(key.display) + " " + style.problem("(damaged: \(message))"))
            case .unreadable(let problem)?:
                emit(style.key(key.display) + " " + style.problem("(unreadable: \(problem))"))
            case .missing?, nil:
                emit(style.key(key.display) + " " + style.problem("(missing)"))
            }
        }
    }

    /// One drawing's state: how near the top each record reached can be,
    /// and the records expanded so far.
    private struct Tree {
        let nearest: [CacheKey: Int]
        var drawn: Set<CacheKey>
    }

    private func typeSuffix(_ record: Record) -> String {
        record.typename.map { " " + style.dim("(\($0.shownOnLine))") } ?? ""
    }

    private func renderFields(
        of record: Record, prefix: String, depth: Int, path: Set<CacheKey>, tree: inout Tree, emit: (String) -> Void
    ) {
        let names = record.fields.keys.sorted(by: byteOrder)
        if names.isEmpty {
            emit(prefix + "└─ (no fields)")
            return
        }
        for (index, name) in names.enumerated() {
            renderValue(record.fields[name]!, label: name.shownOnLine, prefix: prefix, isLast: index == names.count - 1,
                        depth: depth, path: path, tree: &tree, emit: emit)
        }
    }

    private func renderValue(
        _ value: FieldValue, label: String, prefix: String, isLast: Bool, depth: Int, path: Set<CacheKey>,
        tree: inout Tree, emit: (String) -> Void
    ) {
        var head = prefix + (isLast ? "└─ " : "├─ ") + label
        let childPrefix = prefix + (isLast ? "   " : "│  ")
        var value = value
        // An inline object with a string $reference is one to Apollo, which
        // reads it back as a reference; its other members are named.
        if let target = value.mixedReferenceTarget, case .object(let members) = value {
            let others = members.keys.filter { $0 != "$reference" }.sorted(by: byteOrder).map(\.shownOnLine)
            let named = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? " and \(others.count - 3) more" : "")
            head += " " + style.dim("(an object with \(named) beside $reference)")
            value = .reference(target)
        }
        switch value {
        case .reference(let target):
            if path.contains(target) {
                emit(head + " → " + style.reference(target.display) + " " + style.dim("(cycle)"))
                return
            }
            switch graph.entries[target] {
            case .found(let record)? where depth < maxDepth && (tree.drawn.contains(target) || tree.nearest[target] != depth + 1):
                let place = tree.drawn.contains(target) ? "(above)" : "(below)"
                emit(head + " → " + style.reference(target.display) + typeSuffix(record) + " " + style.dim(place))
            case .found(let record)? where depth < maxDepth:
                emit(head + " → " + style.reference(target.display) + typeSuffix(record))
                tree.drawn.insert(target)
                renderFields(of: record, prefix: childPrefix, depth: depth + 1, path: path.union([target]), tree: &tree, emit: emit)
            case .found(let record)? where tree.drawn.contains(target) || (tree.nearest[target].map { $0 <= maxDepth } ?? false):
                // At the last level, a record drawn elsewhere says where, as everywhere else.
                let place = tree.drawn.contains(target) ? "(above)" : "(below)"
                emit(head + " → " + style.reference(target.display) + typeSuffix(record) + " " + style.dim(place))
            case .damaged(let message)? where depth < maxDepth:
                emit(head + " → " + style.reference(target.display) + " " + style.problem("(damaged: \(message))"))
            case .unreadable(let problem)? where depth < maxDepth:
                emit(head + " → " + style.reference(target.display) + " " + style.problem("(unreadable: \(problem))"))
            default:
                emit(head + " → " + style.reference(target.display) + (graph.exists(target) ? "" : " " + style.problem("(missing)")))
            }
        case .list(let elements) where elements.contains(where: \.hasStructure):
            emit(head + " [\(elements.count)]")
            for (index, element) in elements.enumerated() {
                renderValue(element, label: "[\(index)]", prefix: childPrefix, isLast: index == elements.count - 1,
                            depth: depth, path: path, tree: &tree, emit: emit)
            }
        case .object(let members) where value.hasStructure:
            // A custom scalar's object holding references: its members drawn as fields are.
            emit(head + " {\(members.count)}")
            let names = members.keys.sorted(by: byteOrder)
            for (index, name) in names.enumerated() {
                renderValue(members[name]!, label: name.shownOnLine, prefix: childPrefix, isLast: index == names.count - 1,
                            depth: depth, path: path, tree: &tree, emit: emit)
            }
        default:
            emit(head + ": " + displayText(value))
        }
    }

    /// A scalar, a flat list or an inline object as compact, readable JSON.
    func displayText(_ value: FieldValue) -> String {
        switch value {
        case .list(let elements):
            return "[" + elements.map(displayText).joined(separator: ", ") + "]"
        default:
            return value.shownOnLine
        }
    }
}

extension FieldValue {
    /// True for values drawn as a subtree: references (objects Apollo
    /// reads as one too), and lists and inline objects holding them.
    var hasStructure: Bool {
        if mixedReferenceTarget != nil { return true }
        switch self {
        case .reference: return true
        case .list(let elements): return elements.contains(where: \.hasStructure)
        case .object(let members): return members.values.contains(where: \.hasStructure)
        default: return false
        }
    }
}
