import CacheStore

/// What an import read and changed, and how it is printed.
struct ImportReport {
    var form: ExchangeForm
    var dryRun: Bool
    /// The cache file was created (or, in a dry run, would be).
    var created: Bool
    var read = 0
    var added = 0
    var changed = 0
    var fields = 0
    /// Records of the input with no fields: Apollo's merge writes fields,
    /// so it writes nothing of them.
    var withoutFields = 0
    /// With a dry run, what would change, record by record.
    var records: [RecordChanges.RecordChange] = []

    mutating func count(_ changes: [RecordChanges.RecordChange]) {
        for change in changes {
            if change.isNew { added += 1 } else { changed += 1 }
            fields += change.fields.count
        }
        if dryRun { records += changes }
    }

    mutating func count(_ merged: MergeCount) {
        added += merged.added
        changed += merged.changed
        fields += merged.fields
    }

    /// "imported 10 records (jsonl) into new.sqlite, created: 10 added, 0 changed (36 fields)".
    func summary(path: String) -> String {
        let verb = dryRun ? "would import" : "imported"
        let into = path.shownOnLine + (created ? (dryRun ? ", which would be created" : ", created") : "")
        // An empty input is an empty cache's export: no error, but said plainly.
        let outcome = read == 0
            ? "the input holds no records"
            : added + changed == 0
            ? (withoutFields == read ? "nothing to change" : "nothing to change, the cache already holds them")
            : "\(added) added, \(changed) changed (\(plural(fields, "field")))"
        let empty = withoutFields == 0 ? ""
            : "; \(plural(withoutFields, "record")) with no fields \(dryRun ? "would not be" : "not") written, as Apollo's merge writes none"
        return "\(verb) \(plural(read, "record")) (\(form.rawValue)) into \(into): \(outcome)\(empty)" + (dryRun ? "; dry run, nothing written" : "")
    }

    var countMembers: [(String, JSONOutput)] {
        [("dryRun", .bool(dryRun)), ("created", .bool(created)), ("form", .string(form.rawValue)),
         ("read", .int(read)), ("added", .int(added)), ("changed", .int(changed)), ("fields", .int(fields)),
         ("withoutFields", .int(withoutFields))]
    }

    func render(format: OutputFormat, path: String, context: CommandContext) {
        switch format {
        case .text:
            for record in records {
                for line in record.textLines(style: context.style) { context.print(line) }
            }
            context.note(summary(path: path))
        case .json:
            format.emit(.object(countMembers + (dryRun ? [("records", .array(records.map(\.json)))] : [])), to: context)
        case .jsonl:
            for record in records {
                format.emit(.object([("type", .string("record"))] + record.json.members), to: context)
            }
            format.emit(.object([("type", .string("summary"))] + countMembers), isSummary: true, to: context)
        }
    }
}

/// Works out what a dry run's batches of records would change, as the
/// store's merge does: later records win field by field, fields are never
/// removed, and what changes is counted against the records as they were
/// before the first batch (``BatchedMerge``), so a record two batches
/// change is one change, and one changed back is none. Nothing is written,
/// so the records that would change are kept here (memory grows with what
/// would change); any other is still as the file holds it.
struct ImportMerge {
    private var states: [CacheKey: (original: Record?, merged: Record)] = [:]
    /// Keys in the order they first changed; some may have changed back since.
    private var order: [CacheKey] = []
    private var ordered: Set<CacheKey> = []

    /// Merges `batch` over `tx` (nil: a cache not created yet) and what
    /// earlier batches would have written.
    mutating func merge(_ batch: [Record], in tx: ReadTransaction?) throws {
        var seen: Set<CacheKey> = []
        let unseen = batch.map(\.key).filter { states[$0] == nil && seen.insert($0).inserted }
        let loaded = try tx?.records(for: unseen) ?? [:]
        for record in batch {
            var state: (original: Record?, merged: Record)
            if let known = states[record.key] {
                state = known
            } else {
                let original = try loaded[record.key]?.get().loadableByApollo()
                state = (original, original ?? Record(key: record.key, fields: [:]))
            }
            for (field, value) in record.fields { state.merged.fields[field] = value }
            states[record.key] = state
        }
        var checked: Set<CacheKey> = []
        for record in batch where checked.insert(record.key).inserted {
            let key = record.key
            guard let state = states[key] else { continue }
            if Self.changedFields(state.original, state.merged).isEmpty {
                states[key] = nil
            } else if ordered.insert(key).inserted {
                order.append(key)
            }
        }
    }

    /// What would change, record by record, in the order each first changed.
    var changes: [RecordChanges.RecordChange] {
        order.compactMap { key in
            guard let state = states[key] else { return nil }
            let fields = Self.changedFields(state.original, state.merged)
            return RecordChanges.RecordChange(
                key: key, isNew: state.original == nil,
                fields: fields.map { RecordChanges.FieldChange(field: $0, before: state.original?.fields[$0], after: state.merged.fields[$0]!.asStored) })
        }
    }

    private static func changedFields(_ original: Record?, _ merged: Record) -> [String] {
        merged.fields.keys.sorted(by: byteOrder).filter { original?.fields[$0] != merged.fields[$0] }
    }
}
