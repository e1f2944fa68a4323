import CacheStore
import GraphQL

/// Variable values made into what the app's generated operation holds, by
/// the types the operation declares. The built-in scalars, non-null and
/// lists need no schema; enums and input objects are checked only with one.
struct VariableCoercion {
    let schema: CacheSchema?

    /// A variable's value as Apollo holds it for an input of `type`, or why
    /// it cannot be one, as a server would refuse it: an enum value the enum
    /// lacks, text for an Int, null for a non-null type, an input object's
    /// unknown or missing required member. An integer given for a Float
    /// becomes a double (rendered `-2.0`, not `-2`); a whole number for an
    /// Int an integer; a number for a String or ID its text. Custom scalars
    /// take any value.
    /// Refuses a number beyond a Double (`1e400`), wherever it sits in the
    /// value, custom scalars and input objects without a schema included:
    /// Apollo's JSON cannot hold it, and a field key would say `inf`.
    static func checkFinite(_ value: InputValue) throws(VariableProblem) {
        switch value {
        case .float(let number) where !number.isFinite:
            throw VariableProblem("a number beyond a Double, which Apollo's JSON cannot hold")
        case .list(let elements):
            for (index, element) in elements.enumerated() {
                do { try checkFinite(element) } catch { throw error.at("[\(index)]") }
            }
        case .object(let members):
            for name in members.keys.sorted() {
                do { try checkFinite(members[name]!) } catch { throw error.at(".\(name)") }
            }
        default:
            break
        }
    }

    func coerce(_ value: InputValue, to type: TypeReference) throws(VariableProblem) -> InputValue {
        switch (type, value) {
        case (.nonNull, .null):
            throw VariableProblem("expected a non-null \(type), found null")
        case (.nonNull(let inner), _):
            return try coerce(value, to: inner)
        case (_, .null):
            return .null
        case (.list(let inner), .list(let elements)):
            var coerced: [InputValue] = []
            for (index, element) in elements.enumerated() {
                do { coerced.append(try coerce(element, to: inner)) } catch { throw error.at("[\(index)]") }
            }
            return .list(coerced)
        case (.list(let inner), _):
            // A single value where a list is declared is a list of one, as
            // GraphQL coerces it, and as the app's typed value (an array) is.
            return .list([try coerce(value, to: inner)])
        case (.named(let name), _):
            return try coerce(value, toNamed: name)
        }
    }

    private func coerce(_ value: InputValue, toNamed name: String) throws(VariableProblem) -> InputValue {
        func mismatch() -> VariableProblem { VariableProblem("expected \(name), found \(value.shown)") }
        switch (name, value) {
        case ("Int", .int): return value
        case ("Int", .float(let number)) where Int64(exactly: number) != nil: return .int(Int64(number))
        case ("Int", .float(let number)) where number == number.rounded():
            throw VariableProblem("expected Int, found a whole number beyond the 64 bits of Apollo's Int (\(value.shown))")
        case ("Float", .int(let number)): return .float(Double(number))
        case ("Float", .float): return value
        case ("String", .string), ("ID", .string): return value
        case ("ID", .int(let number)): return .string(String(number))
        // JSON has one kind of number: 1000.0 is the integer 1000, which an ID takes, as an Int does;
        // but only up to 2^53, past which a Double no longer holds every integer, and the ID would be another.
        case ("ID", .float(let number)) where number == number.rounded() && abs(number) <= 9_007_199_254_740_992:
            return .string(String(Int64(number)))
        case ("Boolean", .boolean): return value
        case ("Int", _), ("Float", _), ("String", _), ("ID", _), ("Boolean", _): throw mismatch()
        default: break
        }
        guard let schema else {
            // Without a schema an enum, input object or custom scalar is
            // taken as given.
            return value
        }
        switch schema.schema.getType(name: name) {
        case let enumeration as GraphQLEnumType:
            let names = enumeration.values.map(\.name)
            switch value {
            case .string(let text) where names.contains(text), .enumValue(let text) where names.contains(text):
                return .enumValue(text)
            default:
                throw VariableProblem("expected one of \(name)'s values (\(names.joined(separator: ", "))), found \(value.shown)")
            }
        case let object as GraphQLInputObjectType:
            guard case .object(let members) = value, let fields = try? object.fields() else { throw mismatch() }
            if let unknown = members.keys.sorted(by: byteOrder).first(where: { fields[$0] == nil }) {
                throw VariableProblem("\(name) has no field '\(unknown)'")
            }
            if let missing = fields.keys.sorted(by: byteOrder).first(where: { fields[$0]!.type is GraphQLNonNull && fields[$0]!.defaultValue == nil && members[$0] == nil }) {
                throw VariableProblem("\(name) needs its field '\(missing)'")
            }
            var coerced: [String: InputValue] = [:]
            for (member, memberValue) in members {
                do { coerced[member] = try coerce(memberValue, to: CacheSchema.reference(fields[member]!.type)) } catch { throw error.at(".\(member)") }
            }
            return .object(coerced)
        default:
            // A custom scalar (or a type the schema lacks, which validation reports).
            return value
        }
    }
}
