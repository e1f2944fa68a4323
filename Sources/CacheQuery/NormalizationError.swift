/// Why response data could not be written: where, and what is wrong.
public struct NormalizationError: Error, Equatable, Sendable, CustomStringConvertible {
    public let path: [PathComponent]
    public let message: String

    public var description: String {
        let place = path.isEmpty ? "(root)" : path.map(\.description).joined(separator: ".")
        return "cannot write \(place): \(message)"
    }
}
