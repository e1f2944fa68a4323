@testable import CacheQuery

/// What parsing `text`, named `source`, is refused for (the error as
/// printed), or nil when it parses.
func documentProblem(_ text: String, source: String) -> String? {
    do {
        _ = try QueryDocument.parse([(source, text)])
        return nil
    } catch {
        return "\(error)"
    }
}
