/// What can go wrong before a read starts: the document or the request.
public enum QueryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The document does not parse: where and why.
    case syntax(source: String, line: Int, column: Int, message: String)
    /// No operation, with the fragments the documents do hold.
    case noOperation(source: String, fragments: [String])
    case unknownOperation(String, available: [String])
    /// An operation's name given that names a fragment.
    case fragmentNotOperation(String)
    /// Two operations with one name: which one it picks would depend on the
    /// order of the files.
    case duplicateOperation(String, sources: [String])
    /// Two fragments with one name: which one a spread reads would depend
    /// on the order of the files.
    case duplicateFragment(String, sources: [String])
    case ambiguousOperation(available: [String])
    case unknownFragment(String, available: [String])
    /// A spread `...Name` of a fragment no document defines: where it is.
    case unknownSpread(String, source: String, line: Int, column: Int, available: [String])
    /// A fragment that spreads itself, through the fragments named in order.
    case fragmentCycle([String])
    case undefinedVariable(String, operation: String)
    case missingVariable(String, operation: String)
    case schema(source: String, line: Int, column: Int, message: String)
    case validation(source: String, line: Int, column: Int, message: String)
    case invalidVariables(String)

    public var description: String {
        switch self {
        case .syntax(let source, let line, let column, let message):
            return "\(place(source, line, column)): \(message)"
        case .schema(let source, let line, let column, let message):
            return "\(place(source, line, column)): schema error: \(message)"
        case .validation(let source, let line, let column, let message):
            return "\(place(source, line, column)): \(message)"
        case .noOperation(let source, let fragments) where fragments.isEmpty:
            return "\(source): no operation or fragment to read"
        case .noOperation(let source, let fragments):
            return "\(source) hold no operation; a fragment takes --fragment NAME --key KEY" + listing(fragments, "fragments")
        case .unknownOperation(let name, let available):
            // Apollo's generated class is the operation's name with its kind after it.
            let generated = ["Query", "Mutation", "Subscription"].lazy.compactMap { suffix -> String? in
                guard name.hasSuffix(suffix), available.contains(String(name.dropLast(suffix.count))) else { return nil }
                return "; Apollo's generated \(name) is the operation '\(name.dropLast(suffix.count))'"
            }.first ?? ""
            return "no operation named '\(name)'" + listing(available, "operations") + generated
        case .fragmentNotOperation(let name):
            return "'\(name)' is a fragment, not an operation: give it with --fragment \(name) --key KEY"
        case .duplicateOperation(let name, let sources):
            let places = sources.first == sources.last ? "in \(sources[0])" : "in \(sources.joined(separator: " and "))"
            return "two operations are named '\(name)' (\(places)); an operation name must be unique"
        case .duplicateFragment(let name, let sources):
            let places = sources.first == sources.last ? "in \(sources[0])" : "in \(sources.joined(separator: " and "))"
            return "two fragments are named '\(name)' (\(places)); a fragment name must be unique"
        case .ambiguousOperation(let available) where available.isEmpty:
            // Nothing to name: every operation is anonymous.
            return "the documents hold several anonymous operations; keep one, or name them (query Name { … }) and give the name"
        case .ambiguousOperation(let available):
            return "the documents hold several operations; name one" + listing(available, "operations")
        case .unknownFragment(let name, let available):
            return "no fragment named '\(name)'" + listing(available, "fragments")
        case .unknownSpread(let name, let source, let line, let column, let available):
            return "\(place(source, line, column)): unknown fragment '\(name)'" + listing(available, "fragments")
        case .fragmentCycle(let names):
            return "fragment '\(names[0])' spreads itself (\(names.joined(separator: " → "))); a fragment cannot include itself"
        case .undefinedVariable(let name, let operation):
            return "operation '\(operation)' uses $\(name) without defining it; add ($\(name): TYPE) to the operation"
        case .missingVariable(let name, let operation):
            return "operation '\(operation)' needs variable $\(name) (a non-null variable without a default); give it with --var \(name)=VALUE"
        case .invalidVariables(let message):
            return "invalid variables: \(message)"
        }
    }

    /// FILE:LINE:COLUMN, or just FILE when the error has no place (line 0).
    private func place(_ source: String, _ line: Int, _ column: Int) -> String {
        line > 0 ? "\(source):\(line):\(column)" : source
    }

    private func listing(_ names: [String], _ what: String) -> String {
        names.isEmpty ? "" : " (\(what): \(names.joined(separator: ", ")))"
    }
}
