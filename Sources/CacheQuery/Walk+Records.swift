import CacheStore

extension Walk {
    /// The field keys an object under `selections` may be asked for.
    mutating func fieldKeys(_ selections: Selections) -> Set<String> {
        guard let identity = selections.identity else { return collector.fieldKeys(selections.list) }
        if let known = fieldKeysBySelections[identity] { return known }
        let keys = collector.fieldKeys(selections.list)
        fieldKeysBySelections[identity] = keys
        return keys
    }

    /// Loads the records a list refers to in one batch, as Apollo's loader
    /// does, instead of one lookup per element, decoding only the fields
    /// `selections` may ask for.
    mutating func prefetch(_ elements: [FieldValue], selections: Selections) throws {
        var keys: [CacheKey] = []
        func collect(_ value: FieldValue) {
            switch value {
            case .reference(let key) where known[key] == nil: keys.append(key)
            case .list(let inner): inner.forEach(collect)
            default: break
            }
        }
        elements.forEach(collect)
        guard keys.count > 1 else { return }
        let found = try reader.source.records(for: keys, onlyFields: fieldKeys(selections))
        for key in keys {
            switch found[key] {
            // Decoded for this selection set only: another one may need more.
            case .success(let record)?: known[key] = Self.loaded(record, decoded: .fieldsOf(selections.identity))
            case .failure(CacheStoreError.damagedRecord(_, let problem))?: known[key] = .damaged(problem.description)
            case .failure(let error)?: throw error
            case nil: known[key] = .missing
            }
        }
    }

    /// Looks one level ahead: the records the list's records refer to
    /// through the selected fields, in one batch too, so a list of users
    /// and their posts takes a few queries, not one per user.
    mutating func prefetchReferences(of elements: [FieldValue], selections: Selections) throws {
        // The children by the selection set they are read with.
        var next: [(selections: Selections, values: [FieldValue])] = []
        var groupOf: [UnsafeRawPointer: Int] = [:]
        func visit(_ value: FieldValue) {
            switch value {
            case .reference(let key):
                guard case .record(let record, _)? = known[key] else { return }
                for field in collect(selections, typename: record.typename).fields {
                    guard let childSelections = field.selections, let child = record.fields[field.fieldKey] else { continue }
                    if let identity = childSelections.identity, let group = groupOf[identity] {
                        next[group].values.append(child)
                    } else {
                        if let identity = childSelections.identity { groupOf[identity] = next.count }
                        next.append((childSelections, [child]))
                    }
                }
            case .list(let inner): inner.forEach(visit)
            default: break
            }
        }
        elements.forEach(visit)
        for group in next { try prefetch(group.values, selections: group.selections) }
    }

    /// A record holding a number too large for a Double is damaged to
    /// Apollo, whose JSON reading refuses the whole record.
    static func loaded(_ record: Record, decoded: Decoding) -> Loaded {
        if let found = record.numberApolloCannotRead { return .damaged(found.description) }
        return .record(record, decoded: decoded)
    }

    mutating func load(_ key: CacheKey) throws -> Loaded {
        if let found = known[key] { return found }
        let found: Loaded
        do {
            found = try reader.source.record(for: key).map { Self.loaded($0, decoded: .whole) } ?? .missing
        } catch CacheStoreError.damagedRecord(_, let problem) {
            found = .damaged(problem.description)
        }
        known[key] = found
        return found
    }

    /// `record` decoded whole: itself, or decoded again (once; the walk then
    /// keeps the whole one).
    mutating func wholeRecord(_ record: Record, decoded: Decoding) throws -> Record {
        if case .whole = decoded { return record }
        if case .record(let kept, .whole)? = known[record.key] { return kept }
        guard let whole = try reader.source.record(for: record.key) else { return record }
        known[record.key] = .record(whole, decoded: .whole)
        return whole
    }
}
