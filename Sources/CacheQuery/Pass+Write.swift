import CacheStore

extension Pass {
    static let missingTypename = "the data has no '__typename', which Apollo's generated models select in every object; "
        + "give it for each new object, e.g. \"__typename\": \"TypeName\""

    /// `fieldsToWrite`: the object's fields, deferred ones merged in, when
    /// the caller worked them out already (to find its key); otherwise
    /// they are worked out here.
    mutating func write(
        _ object: [String: FieldValue], key: CacheKey, selections: [Selection], path: [PathComponent], type: String?,
        fieldsToWrite: [(String, [FieldSelection])]? = nil
    ) throws {
        let typename = object.typename
        // A fragment's root too: it is written at whatever key it is given
        // (Apollo does so, and a warning covers a key of another type), but
        // its __typename must still be an object type of its type condition.
        // A type the schema lacks that objects were read with (a newer
        // app's, in records of the cache) stays as read, wherever the object
        // now is in a list: Apollo's models take it as the field's type, and
        // update writes back what it read.
        let keptAsRead = typename.map { schema?.isObjectType($0) == false && existing.readTypenames.contains($0) } ?? false
        // The type read at a fragment's root stays, whatever the fragment is on (a warning names the key).
        let readAtRoot = path.isEmpty && typename != nil && existing.typename(at: "") == typename
        if !keptAsRead, let schema, let typename, let type,
           !schema.isObjectType(typename) || (!readAtRoot && !schema.matches(typeCondition: type, typename: typename)) {
            // A value that does not fit its type, as a string in an Int field is.
            let ofWhat = path.isEmpty ? (rootIsOperation ? "the operation's root type is" : "the fragment is on") : "the field's type is"
            let why = schema.typeNames.contains(typename) && !schema.isObjectType(typename)
                ? "\(typename) is an interface or union, and a __typename names an object type"
                : !schema.isObjectType(typename) ? "the schema has no object type '\(typename)'"
                : schema.isObjectType(type) ? "\(ofWhat) \(type)" : "it is not one of \(type)'s possible types"
            throw NormalizationError(path: path + [.field("__typename")], message: "\"\(typename)\" does not fit: \(why)")
        }
        let schemaType = typename.flatMap { schema?.fieldTypes[$0] != nil ? $0 : nil } ?? type
        if schema != nil, typename == nil, type.map({ schema?.isObjectType($0) == true }) != true {
            try checkTypeConditionsApply(selections, type: type, path: path)
        }
        if records[key] == nil {
            records[key] = [:]
            order.append(key)
        }
        var entries: [(fieldKey: String, value: FieldValue, path: [PathComponent])] = []
        // The field's type when it is an object type: the type of every object there.
        let objectType = type.flatMap { schema?.isObjectType($0) == true ? $0 : nil }
        // Below the root, the type a new object without __typename has, as
        // the app's generated model for it has (a fragment's root is the
        // record at its key, whose type is its own, if it has one).
        let schemaTypename = path.isEmpty && !rootTypeFromSchema ? nil : objectType
        // Apollo's generated models select __typename in every object below
        // an operation's root, so data without it is data Apollo's
        // normalizer refuses (a missing value); no object of no type is stored.
        // So is a fragment's root at a key whose record has no type of its
        // own (a new one): a fragment model carries its __typename too.
        if !path.isEmpty || (!rootIsOperation && rootTypeFromSchema), typename == nil, schemaTypename == nil {
            let message = object["__typename"].map { "'__typename' holds \(JSONWriter.string(for: $0, asStored: false)), not a type name" }
            throw NormalizationError(path: path + [.field("__typename")], message: message ?? Self.missingTypename)
        }
        let selected = fieldsToWrite ?? fields(
            of: object, collected: collector.collect(selections, typename: typename ?? objectType, parentType: type, holds: { object[$0] != nil }),
            typename: typename ?? objectType, parentType: type, path: path)
        if normalizer.refusesUnselected {
            let names = Set(selected.map(\.0))
            if let extra = object.keys.filter({ $0 != "__typename" && !names.contains($0) }).sorted(by: byteOrder).first {
                let selects = selected.map(\.0).joined(separator: ", ")
                throw NormalizationError(
                    path: path + [.field(extra)],
                    message: "not in the selection\(typename.map { " for a \($0)" } ?? "") (it selects: \(selects))")
            }
        }
        for (responseKey, fields) in selected {
            let field = fields[0]
            let fieldPath = path + [.field(responseKey)]
            guard let value = object[responseKey] ?? (responseKey == "__typename" ? schemaTypename.map(FieldValue.string) : nil) else {
                if existing.absent.contains(readPath(fieldPath)) { continue }
                let message = responseKey == "__typename" ? Self.missingTypename : "the data has no '\(responseKey)', which the selection asks for"
                throw NormalizationError(path: fieldPath, message: message)
            }
            let fieldKey = FieldKey.render(name: field.name, arguments: scope.arguments(of: field), form: scope.numberForm)
            let declared = schemaType.flatMap { schema?.fieldType(on: $0, field: field.name) }
            let stored: FieldValue
            if field.selections == nil {
                if let declared, let problem = schema?.leafProblem(value, type: declared) {
                    throw NormalizationError(path: fieldPath + problem.indexes.map(PathComponent.index), message: problem.message)
                }
                if let declared, let unknown = schema?.unknownEnumValue(value, type: declared) {
                    unknownEnumValues.append(UnknownEnumValue(
                        path: fieldPath.map(\.description).joined(separator: "."), value: unknown.raw, enumName: unknown.enumName))
                }
                if let problem = Self.unstorableProblem(value) { throw NormalizationError(path: fieldPath, message: problem) }
                // A model holds a number given for a String or ID as its text (`--set name=5` where
                // the cache held null), and writes that; a server's response is stored as sent, as
                // Apollo's normalizer takes a scalar (an ID of 7 stays the number 7).
                stored = deferredFragments == .whereGiven ? declared.flatMap { schema?.readByApollo(value, type: $0) } ?? value : value
            } else {
                stored = try complete(
                    value, selections: fields.flatMap { $0.selections ?? [] }, pathKey: key.rawValue + "." + fieldKey,
                    path: fieldPath, type: declared)
            }
            entries.append((fieldKey, stored, fieldPath))
        }
        // As Apollo's normalizer does, an object's fields go into its record
        // once every object inside it has gone into its own: where one keyed
        // object is met again inside itself, its outer fields are kept.
        for (fieldKey, stored, fieldPath) in entries {
            let earlier = records[key]![fieldKey]
            if let earlier, earlier != stored, let sources = writtenFrom[key]?[fieldKey], let source = sources.last {
                if normalizer.refusesConflicts {
                    let other = source.map(\.description).joined(separator: ".")
                    throw NormalizationError(
                        path: fieldPath,
                        message: "it is field '\(fieldKey)' of \(key), as \(other) is, and the two hold different values ("
                            + "\(fieldPath.map(\.description).joined(separator: ".")): \(JSONWriter.string(for: stored, asStored: false)), "
                            + "\(other): \(JSONWriter.string(for: earlier, asStored: false))); give both the same value")
                }
                // One field given three values is one case: the last kept,
                // the others dropped, each value once with every place that
                // gave it, and never the value kept.
                let kept = (fieldPath.map(\.description).joined(separator: "."), JSONWriter.string(for: stored, asStored: false))
                let dropped = (
                    sources.map { $0.map(\.description).joined(separator: ".") }.joined(separator: ", "),
                    JSONWriter.string(for: earlier, asStored: false))
                let index = overwritten.firstIndex { $0.key == key && $0.fieldKey == fieldKey }
                var groups: [(path: String, value: String)] = []
                for group in (index.map { overwritten[$0].dropped } ?? []) + [dropped] where group.value != kept.1 {
                    if let same = groups.firstIndex(where: { $0.value == group.value }) {
                        groups[same].path += ", " + group.path
                    } else {
                        groups.append(group)
                    }
                }
                let field = OverwrittenField(key: key, fieldKey: fieldKey, kept: kept, dropped: groups)
                if let index { overwritten[index] = field } else { overwritten.append(field) }
            }
            if let earlier, earlier == stored {
                writtenFrom[key, default: [:]][fieldKey, default: []].append(fieldPath)
            } else {
                writtenFrom[key, default: [:]][fieldKey] = [fieldPath]
            }
            records[key]![fieldKey] = stored
        }
        // Apollo's code generator selects __typename in every selection set
        // but an operation's root, so the response Apollo stores carries it
        // even when the document does not spell it: it is stored too, and
        // fragments' type conditions then apply when the data is read back.
        // Taken from the data, or from the schema when the field's type is
        // an object type (at a fragment's root, only for a record with no
        // type of its own, which otherwise the data alone may change).
        // A fragment spread at an operation's root is a fragment's
        // selection set, which selects it there too (`{ ...RootFields }`).
        if !(path.isEmpty && rootIsOperation) || collector.spreadsFragment(selections), records[key]!["__typename"] == nil,
            let known = typename ?? schemaTypename
        {
            records[key]!["__typename"] = .string(known)
        }
    }

    /// The fields to write of `object`: those collected, and those of the
    /// deferred fragments Apollo writes (see ``DeferredFragmentWriting``),
    /// each merged in after the fields beside it, as Apollo's executor
    /// adds a deferred fragment's fields after the others.
    mutating func fields(
        of object: [String: FieldValue], collected: CollectedFields, typename: String?, parentType: String?, path: [PathComponent]
    ) -> [(String, [FieldSelection])] {
        var fields = collected.fields
        var index = Dictionary(uniqueKeysWithValues: fields.enumerated().map { ($1.0, $0) })
        var deferred = collected.deferred[...]
        while let fragment = deferred.popFirst() {
            let inner = collector.collect(fragment.selections, typename: typename, parentType: parentType)
            // The fields only the fragment selects, which tell whether the data gives it.
            let onlyHere = inner.fields.map(\.0).filter { $0 != "__typename" && index[$0] == nil }
            switch deferredFragments {
            case .notWritten:
                let given = onlyHere.filter { object[$0] != nil }
                if !given.isEmpty {
                    deferredNotWritten.append(DeferredFragmentNotWritten(
                        path: path.map(\.description).joined(separator: "."), label: fragment.label, fields: given))
                }
            case .whereGiven:
                // One whose fields are all selected beside it adds nothing to tell.
                guard onlyHere.contains(where: { object[$0] != nil }) else { continue }
                for (responseKey, selections) in inner.fields {
                    if let at = index[responseKey] {
                        fields[at].1 += selections
                    } else {
                        index[responseKey] = fields.count
                        fields.append((responseKey, selections))
                    }
                }
                deferred.append(contentsOf: inner.deferred)
            }
        }
        return fields
    }

    /// Why Apollo could not store `value`, a leaf's: a number beyond a
    /// Double (JSONSerialization refuses to write infinity), or an object
    /// with a string `$reference` member, which Apollo would read back as a
    /// reference rather than as the custom scalar written.
    static func unstorableProblem(_ value: FieldValue) -> String? {
        let referenceProblem = "an object with a string '$reference' member is what Apollo stores a reference as: it would be read back as one, not as this value"
        switch value {
        case .double, .number:
            switch value.beyondADouble {
            case .tooLarge?: return "the number is too large for a Double; Apollo cannot store it"
            case .tooSmall?: return "the number is too small for a Double (it reads as 0); Apollo cannot store it"
            case nil: return nil
            }
        case .list(let elements):
            return elements.lazy.compactMap(unstorableProblem).first
        case .object(let members):
            // Only a string one: Apollo reads `{"$reference":5}` back as the object it is.
            if case .string? = members["$reference"] { return referenceProblem }
            return members.keys.sorted().lazy.compactMap { unstorableProblem(members[$0]!) }.first
        case .reference:
            return referenceProblem
        case .null, .bool, .int, .string:
            return nil
        }
    }
}
