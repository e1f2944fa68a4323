import CacheStore

/// Draws records as trees, references as `→ KEY` links, and references
/// expanded inline up to a depth:
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
        switch graph.entries[key] {
        case .found(let record)?:
            lines.append(style.key(key.display) + typeSuffix(record))
            renderFields(of: record, prefix: "", depth: 0, path: [key], into: &lines)
        case .damaged(let message)?:
            lines.append(style.key(key.display) + " " + style.problem("(damaged: \(message))"))
        case .missing?, nil:
            lines.append(style.key(key.display) + " " + style.problem("(missing)"))
        }
        return lines.joined(separator: "\n")
    }

    private func typeSuffix(_ record: Record) -> String {
        record.typename.map { " " + style.dim("(\($0))") } ?? ""
    }

    private func renderFields(of record: Record, prefix: String, depth: Int, path: Set<CacheKey>, into lines: inout [String]) {
        let names = record.fields.keys.sorted(by: byteOrder)
        if names.isEmpty {
            lines.append(prefix + "└─ (no fields)")
            return
        }
        for (index, name) in names.enumerated() {
            renderValue(record.fields[name]!, label: name, prefix: prefix, isLast: index == names.count - 1,
                        depth: depth, path: path, into: &lines)
        }
    }

    private func renderValue(
        _ value: FieldValue, label: String, prefix: String, isLast: Bool, depth: Int, path: Set<CacheKey>,
        into lines: inout [String]
    ) {
        let head = prefix + (isLast ? "└─ " : "├─ ") + label
        let childPrefix = prefix + (isLast ? "   " : "│  ")
        switch value {
        case .reference(let target):
            if path.contains(target) {
                lines.append(head + " → " + style.reference(target.display) + " " + style.dim("(cycle)"))
                return
            }
            switch graph.entries[target] {
            case .found(let record)? where depth < maxDepth:
                lines.append(head + " → " + style.reference(target.display) + typeSuffix(record))
                renderFields(of: record, prefix: childPrefix, depth: depth + 1, path: path.union([target]), into: &lines)
            case .damaged(let message)? where depth < maxDepth:
                lines.append(head + " → " + style.reference(target.display) + " " + style.problem("(damaged: \(message))"))
            default:
                lines.append(head + " → " + style.reference(target.display) + (graph.exists(target) ? "" : " " + style.problem("(missing)")))
            }
        case .list(let elements) where elements.contains(where: \.hasStructure):
            lines.append(head + " [\(elements.count)]")
            for (index, element) in elements.enumerated() {
                renderValue(element, label: "[\(index)]", prefix: childPrefix, isLast: index == elements.count - 1,
                            depth: depth, path: path, into: &lines)
            }
        default:
            lines.append(head + ": " + displayText(value))
        }
    }

    /// A scalar, a flat list or an inline object as compact, readable JSON.
    func displayText(_ value: FieldValue) -> String {
        switch value {
        case .list(let elements):
            return "[" + elements.map(displayText).joined(separator: ", ") + "]"
        default:
            return JSONWriter.string(for: value, asStored: false)
        }
    }
}

extension FieldValue {
    /// True for values drawn as a subtree: references and lists holding them.
    var hasStructure: Bool {
        switch self {
        case .reference: return true
        case .list(let elements): return elements.contains(where: \.hasStructure)
        default: return false
        }
    }
}
