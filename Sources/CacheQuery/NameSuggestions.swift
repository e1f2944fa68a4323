/// Names near a mistyped one, for a "did you mean": of fields, types,
/// arguments, options and keys.
public enum NameSuggestions {
    /// Levenshtein distance over Unicode scalars.
    public static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The names among `candidates` at most two edits from `name`, case
    /// aside, in the order given: for a mistyped type or field name, which
    /// is short (`nme` for `name`). Never one that shares no letter with
    /// it (`ab` for `id`).
    public static func withinTwoEdits(of name: String, among candidates: [String]) -> [String] {
        within(2, editsOf: name, among: candidates)
    }

    /// The names among `candidates` at most `limit` edits from `name`,
    /// case aside, in the order given; never one that shares no letter with it.
    public static func within(_ limit: Int, editsOf name: String, among candidates: [String]) -> [String] {
        let target = Array(name.lowercased().unicodeScalars)
        return candidates.filter {
            let distance = editDistance(Array($0.lowercased().unicodeScalars), target)
            return distance <= limit && distance < target.count
        }
    }
}
