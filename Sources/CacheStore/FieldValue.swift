/// The value of one field of a record, as the `record` JSON stores it.
///
/// ```swift
/// let friends: FieldValue = .list([.reference("Human:1000"), .null])
/// ```
///
/// Numbers keep the form they had in the file: an integer literal is `.int`,
/// anything with a fraction or exponent is `.double`, and a number neither
/// holds (an integer beyond 64 bits, a magnitude beyond a Double's range,
/// more digits than a Double keeps) is `.number`, its text as the file has it. As JSON values `4` and `4.0`
/// are the same number, so they compare equal. `.object` is an inline
/// JSON object (a custom scalar); a JSON object whose only member is a string
/// `$reference` is a `.reference`.
public enum FieldValue: Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// A number that neither an Int64 nor a Double holds (an integer
    /// beyond 64 bits, such as `18446744073709551615`; `1e400`; `1e-400`;
    /// `19.990000000000000000001`, which a Double rounds to `19.99`),
    /// kept as the file writes it: shown, compared and written back
    /// exactly, where a Double would round it (or make it infinity or 0).
    case number(String)
    case string(String)
    case reference(CacheKey)
    case list([FieldValue])
    case object([String: FieldValue])

    /// The value as compact JSON, exactly as it is written to the file.
    public var description: String { JSONWriter.string(for: self) }

    /// How a number lies beyond what a Double holds.
    public enum BeyondADouble: Sendable {
        /// `1e400`: infinity to a Double, which Apollo's JSON cannot write.
        case tooLarge
        /// `1e-400`: no 0 as written, but 0 to a Double.
        case tooSmall
    }

    /// Whether Apollo's `String`, which its generated models read
    /// `__typename` as, reads this value: a string, or a number (as its
    /// digits); not null, a Boolean, a list, an object or a reference.
    public var readsAsApolloString: Bool {
        switch self {
        case .string, .int, .double, .number: true
        case .null, .bool, .list, .object, .reference: false
        }
    }

    /// For a number a Double cannot hold, which way (nil for any other
    /// value; lists and objects are not searched). An integer beyond 64
    /// bits is none: a Double holds it, rounded.
    public var beyondADouble: BeyondADouble? {
        switch self {
        case .double(let number): return number.isFinite ? nil : .tooLarge
        case .number(let text):
            guard let number = Double(text), number.isFinite else { return .tooLarge }
            // Kept as written with the value 0 only when it is no 0 (the reader makes 0e5 a Double).
            return number == 0 ? .tooSmall : nil
        case .null, .bool, .int, .string, .reference, .list, .object: return nil
        }
    }

    /// Every reference inside this value, in list order, depth first.
    public var references: [CacheKey] {
        var found: [CacheKey] = []
        collectReferences(into: &found)
        return found
    }

    func collectReferences(into found: inout [CacheKey]) {
        // Apollo reads an object with a string $reference as a reference.
        if let target = mixedReferenceTarget {
            found.append(target)
            return
        }
        switch self {
        case .reference(let key): found.append(key)
        case .list(let elements): for element in elements { element.collectReferences(into: &found) }
        case .object(let members): for key in members.keys.sorted() { members[key]!.collectReferences(into: &found) }
        case .null, .bool, .int, .double, .number, .string: break
        }
    }
}

extension FieldValue: Equatable {
    /// JSON value equality: `4` equals `4.0`, object member order never matters.
    public static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.int(a), .double(b)), let (.double(b), .int(a)): return Double(a) == b && Double(exactly: b) != nil && Int64(exactly: b) == a
        case let (.number(a), .number(b)): return NumberText.same(a, b)
        case let (.number(a), .int(b)), let (.int(b), .number(a)): return NumberText.same(a, String(b))
        case let (.number(a), .double(b)), let (.double(b), .number(a)):
            guard b.isFinite else { return false }
            // A fraction kept as written equals the Double whose shortest form has its value.
            return b == b.rounded() ? NumberText.same(a, NumberText.wholeDigits(of: b)) : NumberText.same(a, "\(b)")
        case let (.string(a), .string(b)): return a == b
        case let (.reference(a), .reference(b)): return a == b
        case let (.list(a), .list(b)): return a == b
        case let (.object(a), .object(b)): return a == b
        default: return false
        }
    }
}

extension FieldValue: Hashable {
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(Double(value))
        case .double(let value): hasher.combine(value)
        // Equal numbers are the same Double (the nearest to their value).
        case .number(let text): hasher.combine(Double(text) ?? 0)
        case .string(let value): hasher.combine(value)
        case .reference(let key): hasher.combine(key)
        case .list(let elements): hasher.combine(elements)
        case .object(let members): hasher.combine(members)
        }
    }
}
