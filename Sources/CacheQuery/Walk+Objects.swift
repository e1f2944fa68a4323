import CacheStore

extension Walk {
    /// `referrer`: the record and field that hold the reference to `key`
    /// (none for the root), named when no record has it.
    mutating func object(at key: CacheKey, selections: Selections, type: String?, referrer: CacheMiss.Referrer? = nil) throws -> ResponseValue {
        switch try load(key) {
        case .missing: return try miss(CacheMiss(path: path, key: key, reason: .missingRecord(referencedBy: referrer)))
        case .damaged(let problem): return try miss(CacheMiss(path: path, key: key, reason: .damagedRecord(problem)))
        case .record(let record, let decoding):
            return try object(record, decoded: decoding, selections: selections, type: type)
        }
    }

    /// Reads the selections from one record. `type` is the type the schema
    /// declares at this place (an interface, say); the record's own
    /// `__typename` wins when the schema knows it.
    mutating func object(_ record: Record, decoded: Decoding, selections: Selections, type: String?) throws -> ResponseValue {
        // A record without `__typename` where the schema declares an object
        // type is of that type, as Apollo's generated model for the field is.
        let typename = record.typename ?? type.flatMap { reader.schema?.isObjectType($0) == true ? $0 : nil }
        let plan = collect(selections, typename: typename, parentType: type)
        // Apollo's generated models select __typename in every object but
        // one of a root type (an operation's root, a fragment on Query), so
        // Apollo's read misses at a record without it, selected or not.
        // One that holds null, or what Apollo's String does not read (a
        // Boolean, a list, an object; it reads a number as its digits), is
        // a type error there, as with a schema where the document selects
        // it (String!).
        let typenameSelected = plan.fields.contains(where: { $0.fieldKey == "__typename" })
        if !(path.isEmpty && rootIsOperation), !(type.map { CacheSchema.isRootType($0, in: reader.schema) } ?? false) {
            let problem: CacheMiss.Reason?
            switch record.fields["__typename"] {
            case nil:
                problem = typenameSelected ? nil : .missingField(fieldKey: "__typename", similar: [])
            case let held? where held.readsAsApolloString:
                problem = nil
            case let held?:
                // Selected with a schema, the field's own type check says so.
                let found = held == .null ? "null" : JSONWriter.string(for: held, asStored: false)
                problem = typenameSelected && reader.schema != nil ? nil : .typeMismatch(
                    "field '__typename': \(found) where Apollo's generated models, which select it in every object, read a String!")
            }
            if let problem {
                path.append(.field("__typename"))
                defer { path.removeLast() }
                _ = try miss(CacheMiss(path: path, key: record.key, reason: problem))
            }
        }
        if typename == nil, !plan.unchecked.isEmpty, !(path.isEmpty && rootIsOperation) {
            noteUntyped(record.key, conditions: plan.unchecked)
        }
        let selected = plan.fields
        // Decoded for another selection set, the record may lack a field
        // this one asks for: decode it whole, and read that. (Decoded for
        // this very set, a field it lacks is missing from the whole record.)
        if case .fieldsOf(let identity) = decoded, identity == nil || identity != selections.identity,
            selected.contains(where: { record.fields[$0.fieldKey] == nil })
        {
            if let whole = try reader.source.record(for: record.key) {
                known[record.key] = .record(whole, decoded: .whole)
                return try object(whole, decoded: .whole, selections: selections, type: type)
            }
        }
        if forUpdate { objectKeys[path.map(\.description).joined(separator: ".")] = record.key }
        let schemaType = typename.flatMap { name in reader.schema?.fieldTypes[name] != nil ? name : nil } ?? type
        var members: [(String, ResponseValue)] = []
        members.reserveCapacity(selected.count)
        for selectedField in selected {
            let responseKey = selectedField.responseKey, fieldKey = selectedField.fieldKey
            let field = selectedField.fields[0]
            path.append(.field(responseKey))
            defer { path.removeLast() }
            // A record of another type than the selection's (a fragment read at
            // a key the app chose) has the field as the selection declares it,
            // as Apollo's generated model does.
            let declared = schemaType.flatMap { reader.schema?.fieldType(on: $0, field: field.name) }
                ?? type.flatMap { reader.schema?.fieldType(on: $0, field: field.name) }
            guard let value = record.fields[fieldKey] else {
                // Apollo's update reads with its mapper's allowForOptionalFields:
                // a nullable field the record lacks is absent, not a miss.
                // The keys the record has for the same field are in the whole record.
                let whole = try wholeRecord(record, decoded: decoded)
                var fieldMiss = CacheMiss(
                    path: path, key: record.key, reason: .missingField(fieldKey: fieldKey, similar: similarFieldKeys(to: field.name, in: whole)))
                let otherForm = FieldKey.render(name: field.name, arguments: scope.arguments(of: field), form: scope.numberForm.other)
                if otherForm != fieldKey { fieldMiss.keyInOtherNumberForm = otherForm }
                fieldMiss.absentVariables = scope.absentVariables(of: field)
                if forUpdate, let declared, !declared.isNonNull {
                    let place = path.map(\.description).joined(separator: ".")
                    absentFields.insert(place)
                    absentFieldMisses[place] = fieldMiss
                    continue
                }
                members.append((responseKey, try miss(fieldMiss)))
                continue
            }
            if let subselections = selectedField.selections {
                // An object with a $reference beside other members is a reference to Apollo.
                members.append((responseKey, try complete(
                    value.asReadByApollo, selections: subselections, holder: record.key, fieldKey: fieldKey, type: declared)))
            } else {
                if let declared, reader.schema?.leafProblem(value, type: declared, reading: true) != nil {
                    members.append((responseKey, try misfitLeaf(value, type: declared, key: record.key, fieldKey: fieldKey)))
                    continue
                }
                if let declared, let unknown = reader.schema?.unknownEnumValue(value, type: declared) {
                    unknownEnumValues.append(UnknownEnumValue(
                        path: path.map(\.description).joined(separator: "."), value: unknown.raw, enumName: unknown.enumName))
                }
                // Apollo reads a reference where it expects a scalar as a type
                // error: the object's fields must be selected.
                if var target = value.asReadByApollo.references.first {
                    // Inside a custom scalar's object: Apollo reads any object with a "$reference" member as a reference.
                    var inside = ""
                    if case .object = value.asReadByApollo {
                        inside = ", inside its JSON object,"
                    } else if let held = Self.referenceInsideAnObject(value.asReadByApollo) {
                        (target, inside) = (held, ", inside a JSON object in its list,")
                    }
                    // With a schema the field is a scalar: no selection helps; nor
                    // for an object held inline, which a selection reads only
                    // through a reference.
                    let advice = declared.map { "the schema declares \($0), whose value Apollo cannot read from a reference" }
                        ?? (inside.isEmpty ? "select its fields, as in \(field.name) { … }"
                            : "no selection of its fields reads it either, as Apollo reads an object's fields only through a reference")
                    members.append((responseKey, try miss(CacheMiss(
                        path: path, key: record.key,
                        reason: .typeMismatch("field '\(fieldKey)' holds\(inside) a reference to \(target.rawValue), not a value; \(advice)")))))
                    continue
                }
                let read = declared.flatMap { reader.schema?.readByApollo(value, type: $0) } ?? value
                members.append((responseKey, read == .null ? .null : .scalar(read)))
            }
        }
        for fragment in plan.deferred {
            try readDeferred(fragment, from: record, decoded: decoded, type: type, into: &members)
        }
        return .object(members)
    }

    /// Reads a deferred fragment as Apollo's executor does from the cache:
    /// on its own, after the fields beside it. Where any of its fields
    /// misses (or holds a value of the wrong type), the fragment is
    /// pending: its fields are left out of the data, and the read goes on.
    mutating func readDeferred(
        _ fragment: DeferredFragment, from record: Record, decoded: Decoding, type: String?, into members: inout [(String, ResponseValue)]
    ) throws {
        let saved = (misses, objectKeys, absentFields, unknownEnumValues, partial, pending.count, pathKeyed, absentFieldMisses)
        partial = false
        defer { partial = saved.4 }
        let read: ResponseValue
        do {
            read = try object(record, decoded: decoded, selections: Selections(document: fragment.selections), type: type)
        } catch let stop as Stop {
            (misses, objectKeys, absentFields, unknownEnumValues, pathKeyed, absentFieldMisses) = (saved.0, saved.1, saved.2, saved.3, saved.6, saved.7)
            // Fragments inside this one that went pending are left out with it.
            pending.removeSubrange(saved.5...)
            pending.append(PendingFragment(path: path.map(\.description).joined(separator: "."), label: fragment.label, miss: stop.miss))
            return
        }
        guard case .object(let fields) = read else { return }
        members = ResponseValue.merging(members, fields)
    }

    /// The record's keys for the same schema field: `name` or `name(…)`;
    /// with none, up to three of a field whose name is a slip away: of
    /// case, or of a letter (two in a name of six or more): `name` for
    /// `Name` or `nme`, not for `nope`.
    func similarFieldKeys(to name: String, in record: Record) -> [String] {
        let same = record.fields.keys.filter { $0 == name || $0.hasPrefix(name + "(") }
        guard same.isEmpty else { return same.sorted(by: byteOrder) }
        func fieldName(_ fieldKey: String) -> String { String(fieldKey.prefix { $0 != "(" }) }
        let names = Array(Set(record.fields.keys.map(fieldName)))
        let near = Set(NameSuggestions.within(name.count >= 6 ? 2 : 1, editsOf: name, among: names))
        return Array(record.fields.keys.filter { near.contains(fieldName($0)) }.sorted(by: byteOrder).prefix(3))
    }

    /// The first reference inside an object held inline somewhere in
    /// `value` (a list of them, say), which no selection reads: a selection
    /// reads an object only through a reference. Nil when there is none.
    static func referenceInsideAnObject(_ value: FieldValue, inObject: Bool = false) -> CacheKey? {
        switch value {
        case .reference(let key): return inObject ? key : nil
        case .list(let elements): return elements.lazy.compactMap { referenceInsideAnObject($0, inObject: inObject) }.first
        case .object(let members):
            return members.keys.sorted(by: byteOrder).lazy.compactMap { referenceInsideAnObject(members[$0]!, inObject: true) }.first
        default: return nil
        }
    }
}
