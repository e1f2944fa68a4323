import CacheStore

/// Why a variable's value does not fit its declared type; `path` is where in
/// the value (`.text`, `[2]`), empty for the value itself.
struct VariableProblem: Error {
    var path = ""
    let message: String

    init(_ message: String) { self.message = message }

    func at(_ step: String) -> VariableProblem {
        var problem = self
        problem.path = step + problem.path
        return problem
    }
}

extension InputValue {
    /// The value as a message shows it: a string quoted, so that "10" and 10
    /// read apart; a list or an object by what it is.
    var shown: String {
        switch self {
        case .string(let text): return "\"\(text.shortenedForMessage)\""
        case .list: return "a list"
        case .object: return "an object"
        default: return FieldKey.scalar(self)
        }
    }
}
