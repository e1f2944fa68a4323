import CacheQuery
import CacheStore

/// What merging records changes, field by field: the report of `write` and
/// `update`, the same before (`--dry-run`) and after writing.
struct RecordChanges {
    struct FieldChange {
        let field: String
        /// nil when the record did not have the field.
        let before: FieldValue?
        let after: FieldValue
    }

    struct RecordChange {
        let key: CacheKey
        let isNew: Bool
        var fields: [FieldChange]
    }

    let records: [RecordChange]
    let dryRun: Bool
    /// The `__typename` of each record written, as it is after the merge
    /// (changed or not).
    var typenames: [CacheKey: String] = [:]
    /// A new record at a path key that has an `id`, and a record the cache
    /// holds under its type's name: `twin` is `Type:id` itself when the
    /// cache holds it (`Post:1` beside a new `QUERY_ROOT.feed(first:3).1`,
    /// a copy of it written without the app's key fields), else another
    /// record of the type (`Human:1000` beside a new `Droid:2001.friends.2`
    /// with id 1003), which says the app keys the type by its data.
    struct IdentityTwin {
        let written: CacheKey
        let twin: CacheKey
        /// `Type:id` of the values written: where the app keying the type by id writes them.
        let keyedByID: CacheKey
        var sameObject: Bool { twin == keyedByID }
    }

    /// See ``IdentityTwin``.
    var identityTwins: [IdentityTwin] = []
    /// The data's fields under fragments that applied to no object were
    /// left out of what was written (a warning names them).
    var leavesOutFragments = false

    var fieldCount: Int { records.reduce(0) { $0 + $1.fields.count } }

    /// References that pointed at a key of the object's own (`Droid:2001`)
    /// and now point at a path key under the record holding them
    /// (`QUERY_ROOT.hero(episode:NEWHOPE)`): what writing a response
    /// without the app's key fields does. Each as record, field (with the
    /// place in a list: `friends[1]`), before, after. A list that still
    /// references the old key elsewhere only moved it, and is not one.
    var referencesMovedToPathKeys: [MovedReference] {
        referencesMoved { old, new, pathKey in new.rawValue == pathKey && old.rawValue != pathKey }
    }

    /// References that pointed at a record of a unique key group and now
    /// point at the same values under another name (`Character:2001`,
    /// a Droid, → `Droid:2001`): the cache keys the object in a group, as
    /// an app's `CacheKeyInfo(id:uniqueKeyGroup:)` does, and the write did
    /// not. Only where the record moved from holds an object of the type
    /// written, under a key that does not begin with its type: a Human
    /// replaced by a Droid of the same id is no such move.
    var referencesMovedOutOfKeyGroups: [MovedReference] = []

    /// References that moved between keys of the same values under two
    /// names (`Character:2001` → `Droid:2001`): the candidates of
    /// ``referencesMovedOutOfKeyGroups``.
    private var referencesMovedToAnotherName: [MovedReference] {
        referencesMoved { old, new, _ in
            let (oldGroup, newGroup) = (old.rawValue.prefix { $0 != ":" }, new.rawValue.prefix { $0 != ":" })
            // Names (`Character`): a key's group, not a path key's start (`QUERY_ROOT.hero(episode`).
            return oldGroup != newGroup && GraphQLName.isName(oldGroup) && GraphQLName.isName(newGroup) && oldGroup.count < old.rawValue.count
                && newGroup.count < new.rawValue.count && old.rawValue.dropFirst(oldGroup.count) == new.rawValue.dropFirst(newGroup.count)
        }
    }

    typealias MovedReference = (key: CacheKey, field: String, before: CacheKey, after: CacheKey)

    /// The references that changed from one key to another as `moved`
    /// says of the two and the path key of where they are (the record's
    /// key, the field key, each list index), unless the list holding one
    /// still references the old key elsewhere.
    private func referencesMoved(_ moved: (_ old: CacheKey, _ new: CacheKey, _ pathKey: String) -> Bool) -> [MovedReference] {
        var found: [MovedReference] = []
        for record in records {
            // An identity key may begin as a path key does (`Category:a.b` in `Category:a`).
            func compare(_ before: FieldValue, _ after: FieldValue, field: String, pathKey: String, stillReferenced: Set<CacheKey>) {
                switch (before, after) {
                case (.reference(let old), .reference(let new)):
                    if old != new && moved(old, new, pathKey) && !stillReferenced.contains(old) {
                        found.append((record.key, field, old, new))
                    }
                case (.list(let old), .list(let new)):
                    for (index, (oldElement, newElement)) in zip(old, new).enumerated() {
                        compare(oldElement, newElement, field: "\(field)[\(index)]", pathKey: "\(pathKey).\(index)", stillReferenced: stillReferenced)
                    }
                default:
                    break
                }
            }
            for change in record.fields {
                guard let before = change.before else { continue }
                compare(before, change.after, field: change.field, pathKey: record.key.rawValue + "." + change.field,
                        stillReferenced: Set(change.after.references))
            }
        }
        return found
    }

    /// The `__typename` written to the record `key`, if this change set one.
    func typename(of key: CacheKey) -> String? { typenames[key] }

    /// The `__typename` the record `key` had (nil: none, or not a string)
    /// and the one it has now, when this change set it anew.
    func typenameChange(at key: CacheKey) -> (before: String?, after: String?)? {
        guard let change = records.first(where: { $0.key == key })?.fields.first(where: { $0.field == "__typename" }) else { return nil }
        func name(_ value: FieldValue?) -> String? {
            if case .string(let name)? = value { return name }
            return nil
        }
        return (name(change.before), name(change.after))
    }

    /// The changes merging `incoming` into the cache would make, worked out
    /// as the store merges (later records win, fields are never removed);
    /// with no transaction, into a cache not yet created. `findingTwins`:
    /// also look up each new record's `Type:id` (see ``identityTwins``).
    static func of(merging incoming: [Record], in tx: ReadTransaction?, dryRun: Bool, findingTwins: Bool = false) throws -> RecordChanges {
        let loaded = try tx?.records(for: incoming.map(\.key)) ?? [:]
        var working: [CacheKey: Record] = [:]
        var changes: [CacheKey: RecordChange] = [:]
        var order: [CacheKey] = []
        for record in incoming {
            // As the write itself: a record Apollo cannot load takes no merge.
            let existing = try working[record.key] ?? loaded[record.key]?.get().loadableByApollo()
            var current = existing ?? Record(key: record.key, fields: [:])
            for field in record.fields.keys.sorted(by: byteOrder) where record.fields[field]!.changes(current.fields[field]) {
                if changes[record.key] == nil {
                    changes[record.key] = RecordChange(key: record.key, isNew: loaded[record.key] == nil, fields: [])
                    order.append(record.key)
                }
                changes[record.key]!.fields.append(FieldChange(field: field, before: current.fields[field], after: record.fields[field]!.asStored))
                current.fields[field] = record.fields[field]
            }
            working[record.key] = current
        }
        // As the write refuses it: a record Apollo could not read.
        if let key = order.first(where: { working[$0]!.nestsTooDeepForApollo }) { throw CacheStoreError.recordNestedTooDeep(key: key) }
        var typenames: [CacheKey: String] = [:]
        for (key, record) in working {
            if let name = record.typename { typenames[key] = name }
        }
        var twins: [IdentityTwin] = []
        if let tx, findingTwins {
            // The first key of each type's own (`Human:1000`), looked up once a type.
            var keyedByName: [String: CacheKey?] = [:]
            for key in order where changes[key]!.isNew {
                guard let record = working[key], let name = record.typename, !key.rawValue.hasPrefix(name + ":") else { continue }
                let id: String
                switch record.fields["id"] {
                case .string(let text)?: id = text
                case .int(let number)?: id = String(number)
                default: continue
                }
                let twin = CacheKey("\(name):\(id)")
                if try tx.contains(twin) {
                    twins.append(IdentityTwin(written: key, twin: twin, keyedByID: twin))
                    continue
                }
                if keyedByName[name] == nil {
                    var first: CacheKey?
                    try tx.forEachKey(matching: try KeyPattern(name + ":", mode: .prefix), limit: 1) { first = $0 }
                    keyedByName[name] = .some(first)
                }
                if let other = keyedByName[name]!, other != key { twins.append(IdentityTwin(written: key, twin: other, keyedByID: twin)) }
            }
        }
        var result = RecordChanges(records: order.map { changes[$0]! }, dryRun: dryRun, typenames: typenames)
        result.identityTwins = twins
        let moves = result.referencesMovedToAnotherName
        if let tx, !moves.isEmpty {
            let before = try tx.records(for: moves.map(\.before))
            result.referencesMovedOutOfKeyGroups = moves.filter { move in
                guard case .success(let record)? = before[move.before], let typename = record.typename else { return false }
                return typename == typenames[move.after] && !move.before.rawValue.hasPrefix(typename + ":")
            }
        }
        return result
    }

    /// Works out the records to write in a transaction and merges them,
    /// reporting every changed field; with `dryRun`, only reports, in a
    /// read transaction.
    static func merging(
        into store: CacheStore, dryRun: Bool, findingTwins: Bool = false, _ records: (ReadTransaction) throws -> [Record]
    ) throws -> RecordChanges {
        do {
            if dryRun {
                return try store.read { tx in try of(merging: try records(tx), in: tx, dryRun: true, findingTwins: findingTwins) }
            }
            return try store.write { tx in
                let written = try records(tx)
                let changes = try of(merging: written, in: tx, dryRun: false, findingTwins: findingTwins)
                try tx.merge(written)
                return changes
            }
        } catch CacheStoreError.damagedRecord(let key, let problem) {
            // As import says it: Apollo's write would fail there too.
            throw CommandFailure(.damagedRecord, damagedMergeMessage(key: key, problem: problem, in: store.path) + "; nothing written"
                + " (remove it first with: \(ShellQuoting.removal(of: key, in: store.path)))")
        }
    }

    /// "record 'K' is damaged in FILE (…), so nothing can be merged into it".
    static func damagedMergeMessage(key: CacheKey, problem: CacheStoreError.RecordProblem, in path: String) -> String {
        "record '\(key.rawValue)' is damaged in \(path) (\(problem)), so nothing can be merged into it"
    }

    /// One line of summary: what was (or would be) written.
    var summary: String {
        guard !records.isEmpty else {
            // Not "this data": the fields of those fragments were in it.
            if leavesOutFragments { return "nothing to write: the cache already holds the data written, which leaves out the fragments that applied to no object" }
            return "nothing to write: the cache already holds this data"
        }
        let added = records.filter(\.isNew).count
        let changed = records.count - added
        var parts: [String] = []
        if changed > 0 { parts.append("\(changed) record\(changed == 1 ? "" : "s") changed") }
        if added > 0 { parts.append("\(added) record\(added == 1 ? "" : "s") added") }
        let fields = "\(fieldCount) field\(fieldCount == 1 ? "" : "s")"
        return parts.joined(separator: ", ") + " (\(fields))" + (dryRun ? "; dry run, nothing written" : "")
    }

    /// Each changed record and its changed fields, without the summary.
    func text(style: TextStyle = .plain) -> String {
        records.flatMap { $0.textLines(style: style) }.map { $0 + "\n" }.joined()
    }

    func render(format: OutputFormat, context: CommandContext) {
        switch format {
        case .text:
            // Quiet: a dry run's changes are what was asked for; a write's are not.
            if !(context.isQuiet && !dryRun) { context.stdout.write(text(style: context.style)) }
            context.note(summary)
        case .json:
            format.emit(.object([
                ("dryRun", .bool(dryRun)),
                ("records", .array(records.map(\.json))),
            ]), to: context)
        case .jsonl:
            for record in records {
                for change in record.fields {
                    format.emit(.object([("key", .string(record.key.rawValue)), ("new", .bool(record.isNew))] + change.json.members), to: context)
                }
            }
        }
    }
}

extension RecordChanges.RecordChange {
    /// The key (with "(new record)"), then one line per changed field.
    func textLines(style: TextStyle = .plain) -> [String] {
        [style.key(key.display) + (isNew ? " " + style.added("(new record)") : "")] + fields.map { change in
            let after = style.added(change.after.shownOnLine)
            if let before = change.before {
                return "  \(change.field.shownOnLine): \(style.removed(before.shownOnLine)) → \(after)"
            }
            return "  \(style.added("+")) \(change.field.shownOnLine): \(after)"
        }
    }

    var json: JSONOutput {
        .object([("key", .string(key.rawValue)), ("new", .bool(isNew)), ("fields", .array(fields.map(\.json)))])
    }
}

extension RecordChanges.FieldChange {
    var json: JSONOutput {
        // No "before" member for a field the record did not have (null would say it held null).
        .object([("field", .string(field))] + (before.map { [("before", JSONOutput.value($0))] } ?? []) + [("after", .value(after))])
    }
}

extension JSONOutput {
    var members: [(String, JSONOutput)] {
        if case .object(let members) = self { return members }
        return []
    }
}
