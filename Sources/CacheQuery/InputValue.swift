import CacheStore

/// An argument or variable value with variables substituted: what a field
/// cache key is made of.
public indirect enum InputValue: Equatable, Sendable {
    case null
    case boolean(Bool)
    case int(Int64)
    case float(Double)
    /// A String or ID.
    case string(String)
    case enumValue(String)
    case list([InputValue])
    case object([String: InputValue])

    /// A variable value given as JSON (`--variables`, `--var`). JSON strings
    /// stay strings; an enum's raw value renders the same way.
    public init(json value: FieldValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .boolean(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .float(number)
        // Beyond what an argument's Int or Float holds: its nearest Double.
        case .number(let text): self = .float(Double(text) ?? 0)
        case .string(let text): self = .string(text)
        case .reference(let key): self = .object(["$reference": .string(key.rawValue)])
        case .list(let elements): self = .list(elements.map(InputValue.init(json:)))
        case .object(let members): self = .object(members.mapValues(InputValue.init(json:)))
        }
    }
}
