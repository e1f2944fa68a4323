import CacheStore

extension Walk {
    /// A leaf value (a scalar, or lists of them) that does not fit its
    /// declared type: each element that does not is a miss at its own
    /// path (`c.0.1`, as a GraphQL response gives it), null in
    /// `--partial`'s data beside the elements that fit.
    mutating func misfitLeaf(_ value: FieldValue, type: OutputType, key: CacheKey, fieldKey: String) throws -> ResponseValue {
        let nullable: OutputType
        if case .nonNull(let inner) = type { nullable = inner } else { nullable = type }
        if case .list(let elementType) = nullable, case .list(let elements) = value {
            var read: [ResponseValue] = []
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                read.append(try misfitLeaf(element, type: elementType, key: key, fieldKey: fieldKey))
            }
            return .list(read)
        }
        if let problem = reader.schema?.leafProblem(value, type: type, reading: true) {
            return try miss(CacheMiss(path: path, key: key, reason: .typeMismatch("field '\(fieldKey)': \(problem.message)")))
        }
        if let unknown = reader.schema?.unknownEnumValue(value, type: type) {
            unknownEnumValues.append(UnknownEnumValue(path: path.map(\.description).joined(separator: "."), value: unknown.raw, enumName: unknown.enumName))
        }
        let read = reader.schema?.readByApollo(value, type: type) ?? value
        return read == .null ? .null : .scalar(read)
    }

    /// A composite field's value: follows references, walks lists, and
    /// with a schema checks nullability and list depth.
    mutating func complete(
        _ value: FieldValue, selections: Selections, holder: CacheKey, fieldKey: String, type: OutputType?
    ) throws -> ResponseValue {
        func mismatch(_ message: String) throws -> ResponseValue {
            try miss(CacheMiss(path: path, key: holder, reason: .typeMismatch("field '\(fieldKey)': \(message)")))
        }
        switch (value, type) {
        case (.null, .nonNull?):
            return try mismatch("null in a non-null field of type \(type!)")
        case (.null, _):
            return .null
        case (.reference, .list?), (.reference, .nonNull(.list)?):
            return try mismatch("expected a list of type \(type!), found a reference")
        case (.reference(let key), _):
            // Apollo's key for an object it keyed by its path: the holder's
            // key, the field key, and the index at each list level.
            if forUpdate {
                let indexes = path.reversed().prefix { if case .index = $0 { true } else { false } }.reversed()
                let pathKey = holder.rawValue + "." + fieldKey + indexes.map { "." + $0.description }.joined()
                if key.rawValue == pathKey {
                    pathKeyed.insert(path.map(\.description).joined(separator: "."))
                }
            }
            return try object(at: key, selections: selections, type: type?.namedType.name, referrer: CacheMiss.Referrer(key: holder, fieldKey: fieldKey))
        case (.list(let elements), _):
            let elementType: OutputType?
            switch type?.nullable {
            case .list(let inner)?: elementType = inner
            case nil: elementType = nil
            default: return try mismatch("expected \(type!), found a list")
            }
            try prefetch(elements, selections: selections)
            try prefetchReferences(of: elements, selections: selections)
            var list: [ResponseValue] = []
            list.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                defer { path.removeLast() }
                list.append(try complete(element, selections: selections, holder: holder, fieldKey: fieldKey, type: elementType))
            }
            return .list(list)
        case (.object, _):
            // Apollo never inlines an object; a custom scalar's JSON is read by a selection without fields.
            return try mismatch("the selection needs an object, which Apollo stores as a reference to its record "
                + "({\"$reference\":KEY}), but the record holds inline JSON \(JSONWriter.string(for: value, asStored: false))")
        default:
            return try mismatch("the selection needs an object, but the record holds \(JSONWriter.string(for: value, asStored: false))")
        }
    }
}
