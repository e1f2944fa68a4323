import CacheStore

extension CacheSchema {
    /// The value as Apollo's generated model reads it from the cache: a
    /// String or ID field decodes a number as its text (`5` → `"5"`,
    /// `1.5` → `"1.5"`, a whole `5.0` → `"5"`, as Swift's NSNumber casts
    /// it), also inside lists, and an Int field a number with a fraction
    /// as its whole part (`5.0` and `5.5` as 5: NSNumber's intValue, which
    /// Apollo's `Int` decodes with). Any other value is as stored.
    func readByApollo(_ value: FieldValue, type: OutputType) -> FieldValue {
        switch (type, value) {
        case (.nonNull(let inner), _): return readByApollo(value, type: inner)
        case (.list(let inner), .list(let elements)): return .list(elements.map { readByApollo($0, type: inner) })
        case (.named("String", _), .int(let number)), (.named("ID", _), .int(let number)): return .string(String(number))
        case (.named("String", _), .double(let number)), (.named("ID", _), .double(let number)):
            if let whole = Int64(exactly: number) { return .string(String(whole)) }
            return .string(String(number))
        // leafProblem lets through only one whose whole part is within Int64.
        case (.named("Int", _), .double(let number)): return Int64(exactly: number.rounded(.towardZero)).map(FieldValue.int) ?? value
        default: return value
        }
    }

    /// Why a leaf value does not fit its declared type: where in its lists
    /// (`[0, 1]` for `[[1, null]]`) and what is wrong.
    struct LeafProblem: Equatable {
        var indexes: [Int]
        let message: String
    }

    /// Why a leaf value does not fit its declared type, or nil when it does.
    /// Custom scalars take any JSON value; String and ID take a string or
    /// a number (Apollo's String decodes an Int or a Double as its text);
    /// Float takes any number, Int an integral one, or when `reading` any
    /// whose whole part is within Int64, as Apollo's `Int` reads it (a
    /// value written is checked as a GraphQL server gives it).
    func leafProblem(_ value: FieldValue, type: OutputType, reading: Bool = false) -> LeafProblem? {
        switch (type, value) {
        case (.nonNull, .null):
            return LeafProblem(indexes: [], message: "null in a non-null field of type \(type)")
        case (.nonNull(let inner), _):
            return leafProblem(value, type: inner, reading: reading)
        case (_, .null):
            return nil
        case (.list(let inner), .list(let elements)):
            for (index, element) in elements.enumerated() {
                if var problem = leafProblem(element, type: inner, reading: reading) {
                    problem.indexes.insert(index, at: 0)
                    return problem
                }
            }
            return nil
        case (.list, _):
            return LeafProblem(indexes: [], message: "expected a list of type \(type), found \(JSONWriter.string(for: value, asStored: false))")
        case (.named(let name, let kind), _):
            let fits: Bool
            switch (kind, name, value) {
            // A value the enum lacks is read all the same: Apollo's
            // GraphQLEnum holds it as .unknown (see unknownEnumValue).
            case (.enumeration, _, .string): fits = true
            case (.enumeration, _, _): fits = false
            case (_, "Int", .int), (_, "Float", .int), (_, "Float", .double): fits = true
            case (_, "Int", .double(let number)): fits = Int64(exactly: reading ? number.rounded(.towardZero) : number) != nil
            case (_, "Float", .number): fits = true  // one too large to store is refused as such
            case (_, "Int", _), (_, "Float", _): fits = false
            case (_, "String", .string), (_, "ID", .string), (_, "Boolean", .bool): fits = true
            case (_, "String", .int), (_, "ID", .int), (_, "String", .double), (_, "ID", .double): fits = true
            case (_, "String", _), (_, "ID", _), (_, "Boolean", _): fits = false
            case (.composite, _, _): fits = false
            default: fits = true
            }
            if fits { return nil }
            return LeafProblem(indexes: [], message: "expected \(name), found \(JSONWriter.string(for: value, asStored: false))")
        }
    }

    /// The first string in `value` (or its lists) that the enum `type`
    /// declares no value for, and the enum's name: a server newer than the
    /// schema sends such values, and Apollo's generated models read them as
    /// `GraphQLEnum.unknown(raw)`, so they are no type error.
    func unknownEnumValue(_ value: FieldValue, type: OutputType) -> (raw: String, enumName: String)? {
        switch (type, value) {
        case (.nonNull(let inner), _):
            return unknownEnumValue(value, type: inner)
        case (.list(let inner), .list(let elements)):
            for element in elements {
                if let found = unknownEnumValue(element, type: inner) { return found }
            }
            return nil
        case (.named(let name, .enumeration(let values)), .string(let raw)):
            return values.contains(raw) ? nil : (raw, name)
        default:
            return nil
        }
    }
}
