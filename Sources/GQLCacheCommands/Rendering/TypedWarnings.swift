import CacheQuery
import CacheStore

/// Warnings of a typed read or write that went as the user asked but likely
/// not as meant, as Apollo would have done it without a word: fragments that
/// applied to nothing, a fragment read at a record of another type,
/// variables the operation does not define, references moved to path keys.
/// --quiet keeps them, as it keeps every warning: a script that passes it
/// is the one that most needs to hear of a misspelled variable.
extension CommandContext {
    /// Without a schema a fragment on an interface or union applies to
    /// nothing, and the data silently lacks its fields: say which type
    /// conditions matched no object, and how to make the read exact
    /// (`read`, and the read `update` changes), or that their fields were
    /// not written (`write`).
    /// `command`: the one that met them, `read`, `write` or `update`.
    func warnOfTypeConditions(_ conditions: [TypeConditionNotApplied], in command: String = "read") {
        for condition in conditions {
            var met = condition.typenames.map { "'\($0)'" }
            if condition.metObjectsWithoutTypename { met.append("objects without __typename") }
            let effect = ["write": "; their fields were not written", "update": "; their fields cannot be set"][command] ?? ""
            let advice = condition.typenames.isEmpty
                ? "an object's type is its __typename, or with --schema the type its field declares"
                : "if \(condition.typeCondition) is an interface or union, give --schema to \(command) as Apollo does"
            warn("without a schema, fragments on '\(condition.typeCondition)' applied to no object (they met \(met.joined(separator: ", ")))"
                + "\(effect); \(advice)")
        }
    }

    /// A record without `__typename` whose type no schema gives cannot
    /// take an inline fragment on a type, and the data lacks its fields
    /// without a word; Apollo, whose models select `__typename`, misses
    /// there. Say where, and which fragments.
    func warnOfUntypedObjects(_ objects: UntypedObjects?) {
        guard let objects else { return }
        let place = objects.firstPath.isEmpty ? objects.firstKey.display : "\(objects.firstPath) (\(objects.firstKey.display))"
        let conditions = objects.typeConditions.map { "'\($0)'" }.joined(separator: ", ")
        let subject = objects.count > 1 ? "\(place) and \(plural(objects.count - 1, "record")) more have" : "\(place) has"
        let them = objects.count > 1 ? "them: their types are" : "it: its type is"
        warn("\(subject) no __typename, so fragments on \(conditions) were left out of \(them) unknown; "
            + "Apollo's generated models select __typename, so Apollo's own read misses there")
    }

    /// A deferred fragment whose fields the cache lacks leaves the read
    /// successful but without them, as Apollo's does (the fragment is
    /// pending): say which fragments, and the first miss in each, so that
    /// missing data is not taken for data the query does not select.
    func warnOfPendingFragments(_ pending: [PendingFragment]) {
        for fragment in pending {
            warn("\(Self.deferredFragment(fragment.label, at: fragment.path)) is left out, pending, as Apollo leaves it: \(fragment.miss)")
        }
    }

    /// `deferred fragment 'more' at hero`, `a deferred fragment at the root`.
    static func deferredFragment(_ label: String?, at path: String) -> String {
        (label.map { "deferred fragment '\($0)'" } ?? "a deferred fragment") + (path.isEmpty ? " at the root" : " at \(path)")
    }

    /// Deferred fragments of a response are not written, as Apollo writes
    /// them from their incremental payloads only: where the data holds
    /// their fields all the same, say they were left out.
    func warnOfDeferredNotWritten(_ fragments: [DeferredFragmentNotWritten], dryRun: Bool) {
        guard let first = fragments.first else { return }
        let others = fragments.count > 1 ? " (and \(fragments.count - 1) more)" : ""
        let fields = first.fields.map { "'\($0)'" }.joined(separator: ", ")
        warn("the data holds \(fields) of \(Self.deferredFragment(first.label, at: first.path))\(others), which \(dryRun ? "would not be" : "was not") written: Apollo writes "
            + "a deferred fragment from the incremental payload that delivers it, not from the response that defers it")
    }

    /// An enum value the schema lacks is no type error (Apollo's
    /// GraphQLEnum holds it as .unknown), but often means the schema is
    /// older than the server: say so, with the first one.
    func warnOfUnknownEnumValues(_ values: [UnknownEnumValue], writing: Bool = false) {
        guard let first = values.first else { return }
        let others = values.count > 1 ? " (and \(values.count - 1) more)" : ""
        let shown = JSONWriter.string(for: .string(first.value), asStored: false)
        warn("\(first.path): \(shown) is not a value of enum \(first.enumName) in the schema\(others); Apollo "
            + "\(writing ? "writes it all the same and reads it" : "reads it") as .unknown(\(shown)), as a value the server added since "
            + "the schema was fetched")
    }

    /// Data that gives one field of one record two different values has
    /// Apollo keep one without a word; typed by hand it is most often a
    /// mistake (an alias of the wrong field, one object edited in one
    /// place only): say which value stays, with the first case.
    func warnOfOverwrittenFields(_ fields: [OverwrittenField], dryRun: Bool) {
        guard let first = fields.first else { return }
        let others = fields.count > 1 ? " (and \(fields.count - 1) more)" : ""
        let count = first.dropped.count + 1
        let dropped = first.dropped.map { "\($0.value) (\($0.path))" }
        warn("the data gives \(first.key.display) \(count == 2 ? "two" : String(count)) values of '\(first.fieldKey)'\(others): "
            + "Apollo keeps \(first.kept.value) (\(first.kept.path)) and drops \(dropped.joined(separator: " and "))"
            + (dryRun ? ", and so would this write" : ""))
    }

    /// A fragment at a record of another type reads (or writes) the fields
    /// of that record all the same, as Apollo does: most often the key is
    /// not the one meant.
    func warnOfFragmentOnOtherType(_ mismatch: FragmentOnOtherType?, writing: Bool = false) {
        guard let mismatch else { return }
        warn("fragment '\(mismatch.fragment)' is on \(mismatch.typeCondition), but \(mismatch.key.display) has __typename \(mismatch.typename); "
            + "Apollo \(writing ? "writes" : "reads") it all the same, so check the key")
    }

    /// Data written as a fragment at a key that changes the record's
    /// `__typename`: the record the key names is of one type, and the data
    /// of another; Apollo writes it, and most often the key is not the one
    /// meant.
    func warnOfTypenameChange(at key: CacheKey, from before: String, to after: String, dryRun: Bool) {
        let shown = { (name: String) in JSONWriter.string(for: .string(name), asStored: false) }
        warn("the data \(dryRun ? "would change" : "changed") the __typename of \(key.display) from \(shown(before)) to \(shown(after)); "
            + "Apollo writes it all the same, so check the key")
    }

    /// A fragment's root data whose key fields give another key than the
    /// one it is written at (``Normalization/rootIdentityKey``): Apollo
    /// writes a fragment at the key it is given, so the record keeps a key
    /// that no longer says what it holds.
    func warnOfRootIdentity(_ identityKey: CacheKey?, writtenAt key: CacheKey, dryRun: Bool) {
        guard let identityKey else { return }
        warn("the data's key fields give \(identityKey.display), not \(key.display); Apollo writes a fragment at the key it is given, "
            + "so the record \(dryRun ? "would stay" : "stays") \(key.display) and a reference to \(identityKey.display) does not reach it")
    }

    /// A variable the operation does not define changes nothing: Apollo's
    /// generated operations carry only the variables they define. Given
    /// anyway, it is most often a misspelled name, so say so.
    func warnOfUndefinedVariables(_ variables: [String: InputValue], in operation: CacheQuery.Operation) {
        let defined = operation.variables.map(\.name)
        let extra = variables.keys.filter { !defined.contains($0) }.sorted()
        guard !extra.isEmpty else { return }
        let names = extra.map { "$\($0)" }.joined(separator: ", ")
        let definitions = defined.isEmpty ? "it defines none" : "it defines " + defined.map { "$\($0)" }.joined(separator: ", ")
        warn("\(operation.name.map { "operation '\($0)'" } ?? "the operation") does not define \(names), so "
            + "\(extra.count == 1 ? "it was" : "they were") not used; \(definitions)")
    }

    /// A fragment declares no variables, so one it uses and `--var` does
    /// not give is absent, and its argument is left out of the field key
    /// (spec: an absent variable's argument is left out), which is most
    /// often not the field meant: say which, and how to give it.
    func warnOfVariablesNotGiven(_ variables: [String: InputValue], to fragment: FragmentDefinition, in document: QueryDocument) {
        let absent = document.argumentVariables(of: fragment).filter { variables[$0] == nil }
        guard !absent.isEmpty else { return }
        let names = absent.map { "$\($0)" }.joined(separator: ", ")
        let how = absent.map { "--var \($0)=VALUE" }.joined(separator: " ")
        warn("fragment '\(fragment.name)' uses \(names), not given, so \(absent.count == 1 ? "its argument is" : "their arguments are") "
            + "left out of the field keys, as Apollo leaves out an absent variable; give \(how)")
    }

    /// Objects with no key field are written under path keys; where the
    /// cache held them under a key of their own (as an app keying them
    /// by id writes them), the reference moved and the old record went
    /// stale. Likely a missing --key-field: say so, with the first case
    /// (`write`, and `update` adding an object where a keyed one was).
    /// When key fields were given for its type, the data lacks them
    /// (`keyFields` says which): say that instead.
    /// `unkeyed`: the normalization's objects of keyed types written at
    /// their path keys, which say which key fields were at fault.
    func warnOfPathKeys(_ changes: RecordChanges, dryRun: Bool, keyFields: (String) -> [String]?, unkeyed: [UnkeyedObject] = []) {
        let moved = changes.referencesMovedToPathKeys
        guard let first = moved.first else { return }
        let others = moved.count > 1 ? " and \(moved.count - 1) more" : ""
        var why = "objects without a key field are keyed by their path; if the app keys them (by id, say), give --key-field "
            + "(e.g. '*=id') or a schema with @typePolicy"
        // Every object written below the root has a __typename (data
        // without one is refused).
        if let typename = changes.typename(of: first.after), let fields = keyFields(typename) {
            // The fields at fault: as the normalization found them; else
            // those the record's changes lack (not selected), else all.
            let missing: [String]
            let selected: Bool
            if let object = unkeyed.first(where: { $0.pathKey == first.after }) {
                (missing, selected) = (object.missingKeyFields, object.keyFieldsSelected)
            } else {
                let written = Set(changes.records.first { $0.key == first.after }?.fields.map(\.field) ?? [])
                let unwritten = fields.filter { !written.contains($0) }
                (missing, selected) = (unwritten.isEmpty ? fields : unwritten, unwritten.isEmpty)
            }
            let names = missing.map { "'\($0)'" }.joined(separator: ", ")
            let which = Self.keyFieldsNote(fields, naming: missing)
            if selected {
                why = "the \(typename) written has no value for \(names) (\(which)) that can key it (a string, a number or a boolean), "
                    + "so it is keyed by its path, as Apollo keys it"
            } else {
                // Selected, they key it by their values, which need not give the
                // key it had (Starship:3001 came from its id; keyed by name it is Starship:X-wing).
                why = "the \(typename) written has no \(names), \(which), so it is keyed by its "
                    + "path, as Apollo keys it; select \(names) to key it by its data"
            }
        }
        warn("\(first.key.display) \(first.field) \(dryRun ? "would point" : "now points") at \(first.after.display), "
            + "not \(first.before.display)\(others): \(why)")
    }
}

extension CommandContext {
    /// What `write` and `update` say of how the objects written were
    /// keyed: references moved to path keys or to another key group,
    /// objects of keyed types written at path keys, and copies at path
    /// keys of records the cache holds.
    func warnOfKeying(_ changes: RecordChanges, dryRun: Bool, normalizer: ResponseNormalizer, unkeyed: [UnkeyedObject]) {
        warnOfPathKeys(changes, dryRun: dryRun, keyFields: normalizer.keyFields(of:), unkeyed: unkeyed)
        warnOfKeyGroups(changes, dryRun: dryRun, normalizer: normalizer)
        warnOfUnkeyedObjects(unkeyed, changes: changes, dryRun: dryRun)
        warnOfIdentityTwins(changes, unkeyed: unkeyed, dryRun: dryRun, keyGroup: normalizer.keyGroup(of:))
    }

    /// A reference moved from `Group:2001` to `Droid:2001`: the cache keys
    /// the object in a unique key group (the app's `CacheKeyInfo`), which
    /// the write did not give. Said with the first, and the option that
    /// gives it.
    func warnOfKeyGroups(_ changes: RecordChanges, dryRun: Bool, normalizer: ResponseNormalizer) {
        let moved = changes.referencesMovedOutOfKeyGroups
        guard let first = moved.first, let typename = changes.typename(of: first.after) else { return }
        let group = String(first.before.rawValue.prefix { $0 != ":" })
        let option: String
        switch normalizer.keyEntry(of: typename) {
        case group?: option = "--key-group \(group)"
        case let entry? where entry != "*": option = "--key-group \(entry)=\(group)"
        default:
            // Keyed by the schema's @typePolicy (always by the type's own
            // name), or by `*`, whose group every type would join: the type's own entry.
            let fields = normalizer.keyFields(of: typename)?.joined(separator: ",") ?? "id"
            option = "--key-field \(typename)=\(fields) --key-group \(typename)=\(group)"
        }
        let others = moved.count > 1 ? " and \(moved.count - 1) more" : ""
        warn("\(first.key.display) \(first.field) \(dryRun ? "would point" : "now points") at \(first.after.display), not "
            + "\(first.before.display)\(others): the cache keys this \(typename) in the group \(group), as an app's "
            + "CacheKeyInfo(id:uniqueKeyGroup:) does; give \(option) to write it there")
    }

    /// Objects of a type with key fields that the selection does not ask
    /// for are keyed by their path, as Apollo keys them (it adds no field to
    /// a selection): say so, with the first case, unless ``warnOfPathKeys``
    /// already said it of a reference that moved.
    func warnOfUnkeyedObjects(_ unkeyed: [UnkeyedObject], changes: RecordChanges, dryRun: Bool) {
        guard let first = unkeyed.first, changes.referencesMovedToPathKeys.isEmpty else { return }
        let others = unkeyed.count > 1 ? " (and \(unkeyed.count - 1) more)" : ""
        let names = first.missingKeyFields.map { "'\($0)'" }.joined(separator: ", ")
        let which = Self.keyFieldsNote(first.keyFields, naming: first.missingKeyFields)
        let written = dryRun ? "would be written" : "was written"
        if first.keyFieldsSelected {
            warn("\(first.path): the \(first.typename) \(written) at its path key, \(first.pathKey.display)\(others), as Apollo keys it: "
                + "the data has no value for \(names) (\(which)) that can key it (a string, a number or a boolean); give "
                + "\(first.missingKeyFields.count == 1 ? "one" : "them") in the data to key it")
        } else if let key = first.keyInData {
            warn("\(first.path): the \(first.typename) \(written) at its path key, \(first.pathKey.display)\(others): the selection has no "
                + "\(names) (\(which); Apollo adds none to a selection), so the data's value keys nothing; select \(names) to write it into \(key.display)")
        } else {
            warn("\(first.path): the \(first.typename) \(written) at its path key, \(first.pathKey.display)\(others), as Apollo keys it: "
                + "the selection has no \(names) (\(which)); select \(names) and give \(first.missingKeyFields.count == 1 ? "it" : "them") in the data to key it")
        }
    }

    /// A new record at a path key that is the same object as one the cache
    /// holds under `Type:id` (the app keys its type by id, the write was
    /// given no key fields), or that has an id while the cache holds other
    /// records of its type under keys of their own (`Human:1000`): said
    /// with the first, unless a warning of ``warnOfPathKeys`` or
    /// ``warnOfUnkeyedObjects`` said it already.
    func warnOfIdentityTwins(_ changes: RecordChanges, unkeyed: [UnkeyedObject], dryRun: Bool, keyGroup: (String) -> String? = { _ in nil }) {
        // Keyed by the app's key fields, a record's key begins with its type
        // (`Post:A` keyed by title), or with the key group given for it
        // (`Character:2001`): no path-keyed copy. One a warning above named
        // already is not named again.
        let said = Set(unkeyed.map(\.pathKey) + changes.referencesMovedToPathKeys.map(\.after))
        let twins = changes.identityTwins.filter { twin in
            guard !said.contains(twin.written), let typename = changes.typename(of: twin.written) else { return false }
            return !([typename] + (keyGroup(typename).map { [$0] } ?? [])).contains { twin.written.rawValue.hasPrefix($0 + ":") }
        }
        guard let first = twins.first, let typename = changes.typename(of: first.written) else { return }
        let others = twins.count > 1 ? " (and \(twins.count - 1) more)" : ""
        let held = first.sameObject
            ? "the same \(typename) as \(first.twin.display)"
            : "other \(typename) records under keys of their own, as \(first.twin.display)"
        warn("\(first.written.display) \(dryRun ? "would be" : "was") written as a new record\(others), though the cache holds \(held): "
            + "if the app keys \(typename) by id, give --key-field \(typename)=id (or '*=id') "
            + "or a schema with @typePolicy to write it \(first.sameObject ? "there" : "as \(first.keyedByID.display)")")
    }

    /// "its key field", "its key fields", or "of its key fields 'id', 'code'"
    /// when only some of them are named.
    static func keyFieldsNote(_ fields: [String], naming named: [String]) -> String {
        if named.count == fields.count { return fields.count == 1 ? "its key field" : "its key fields" }
        return "of its key fields " + fields.map { "'\($0)'" }.joined(separator: ", ")
    }

    /// `update` without a key policy keeps each object in the record it
    /// was read from. Where the data has no `id`, an app that keys the type
    /// by `id` would have Apollo write the object at its path key instead
    /// (the key is computed from the data written): say so, with the first
    /// case, and how to do as Apollo would.
    func warnOfObjectsKeptWithoutID(_ kept: [KeptObject], dryRun: Bool) {
        guard let first = kept.first else { return }
        let others = kept.count > 1 ? " (and \(kept.count - 1) more)" : ""
        warn("\(first.path) \(dryRun ? "would be" : "was") written into \(first.key.display), the record it was read from\(others); "
            + "the selection has no id, so if the app keys \(first.typename) by id, Apollo writes it at \(first.pathKey.display) "
            + "instead: give --key-field \(first.typename)=id (or '*=id') to do the same, or select id")
    }
}
