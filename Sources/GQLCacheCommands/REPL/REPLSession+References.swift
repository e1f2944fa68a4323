import CacheStore

/// Reading `cd`'s argument against the record you are at: which field, which
/// list element, and so which key. Pure: records in, keys or errors out.
extension REPLSession {
    /// The key a field of `record` refers to: `author`, or with list
    /// indexes `friends.1` (also `friends[1]`, `grid.0.1`). `command`: the
    /// one the examples in the errors are typed with (cd, ls), after
    /// `typedBefore`, the part of the path typed before the field (`../`).
    static func follow(_ path: String, in record: Record, command: String = "cd", typedBefore: String = "") throws -> CacheKey? {
        guard let (name, indexes) = FieldPath.fieldAndIndexes(path, in: record), var value = record.fields[name] else { return nil }
        for (depth, index) in indexes.enumerated() {
            guard case .list(let elements) = value else {
                throw CommandFailure(.usage, "\(name) is not a list at depth \(depth + 1)")
            }
            guard elements.indices.contains(index) else {
                // The list this index is into: grid.0 in grid.0.5.
                let list = name + indexes.prefix(depth).map { ".\($0)" }.joined()
                throw CommandFailure(.notFound, "\(list) has \(elements.count) element\(elements.count == 1 ? "" : "s"); no index \(index)")
            }
            value = elements[index]
        }
        switch value {
        case .reference(let key): return key
        case .list(let elements):
            // The first element that leads to a reference, as the example: a list of
            // values (appearsIn) has none to go to.
            guard let first = firstReference(in: elements) else {
                throw CommandFailure(.usage, "\(path) is a list of \(elements.count) holding no reference, so there is nothing to go to")
            }
            // The example is typed as shown: a key with spaces or quotes in it comes quoted.
            let example = command + " " + ShellWords.quote(typedBefore + path + first.map { ".\($0)" }.joined())
            let shown = example.contains("'") ? "\"\(example)\"" : "'\(example)'"
            throw CommandFailure(.usage, "\(path) is a list of \(elements.count); say which element, e.g. \(shown)")
        case .null:
            throw CommandFailure(.usage, "\(path) is null, not a reference")
        default:
            throw CommandFailure(.usage, "\(path) holds a value, not a reference")
        }
    }

    /// The indexes of the first reference in `elements`, in lists at any
    /// depth (`[1, 0]`), or nil when they hold none.
    private static func firstReference(in elements: [FieldValue]) -> [Int]? {
        for (index, element) in elements.enumerated() {
            switch element {
            case .reference: return [index]
            case .list(let inner): if let found = firstReference(in: inner) { return [index] + found }
            default: continue
            }
        }
        return nil
    }

    /// Fields of a record that hold references (directly or in lists).
    static func referenceFields(of record: Record) -> [String] {
        func holdsReference(_ value: FieldValue) -> Bool {
            switch value {
            case .reference: return true
            case .list(let elements): return elements.contains(where: holdsReference)
            default: return false
            }
        }
        return record.fields.keys.filter { holdsReference(record.fields[$0]!) }.sorted(by: byteOrder)
    }

    /// Where `cd` can go from `record`, as Tab offers it: each field that
    /// holds a reference, and each element of a list of them by its index
    /// (`friends.0`, `search(…).1.0`; a list itself is not a place).
    static func referencePaths(of record: Record) -> [String] {
        var paths: [String] = []
        func visit(_ value: FieldValue, at path: String) {
            switch value {
            case .reference: paths.append(path)
            case .list(let elements): for (index, element) in elements.enumerated() { visit(element, at: "\(path).\(index)") }
            default: break
            }
        }
        for field in record.fields.keys.sorted(by: byteOrder) { visit(record.fields[field]!, at: field) }
        return paths
    }
}
