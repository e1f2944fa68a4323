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

    mutating func count(_ changes: [RecordChanges.RecordChange], read batch: Int) {
        read += batch
        for change in changes {
            if change.isNew { added += 1 } else { changed += 1 }
            fields += change.fields.count
        }
        if dryRun { records += changes }
    }

    mutating func count(_ merged: MergeCount, read batch: Int) {
        read += batch
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
            format.emit(.object([("type", .string("summary"))] + countMembers), to: context)
        }
    }
}

/// Works out what merging batches of records changes, as the store's merge
/// does: later records win field by field, fields are never removed. In a
/// dry run nothing is written, so the records merged so far are kept here
/// to compare later batches with (memory then grows with what would change).
struct ImportMerge {
    private var overlay: [CacheKey: Record]?

    init(dryRun: Bool) { overlay = dryRun ? [:] : nil }

    /// The changes `batch` makes over `tx` (nil: a cache not created yet)
    /// and what earlier batches of this dry run would have written.
    mutating func changes(of batch: [Record], in tx: ReadTransaction?) throws -> [RecordChanges.RecordChange] {
        let unseen = batch.map(\.key).filter { overlay?[$0] == nil }
        let loaded = try tx?.records(for: unseen) ?? [:]
        var working: [CacheKey: Record] = [:]
        var order: [CacheKey] = []
        for record in batch {
            if working[record.key] == nil { order.append(record.key) }
            var current = try working[record.key] ?? before(record.key, loaded)
            for (field, value) in record.fields { current.fields[field] = value }
            working[record.key] = current
        }
        // As the merge counts: against each record as it was before the batch,
        // so a field changed and changed back is no change.
        var changes: [RecordChanges.RecordChange] = []
        for key in order {
            let old = try before(key, loaded)
            let merged = working[key]!
            let fields = merged.fields.keys.sorted(by: byteOrder).filter { old.fields[$0] != merged.fields[$0] }
            guard !fields.isEmpty else { continue }
            changes.append(RecordChanges.RecordChange(
                key: key, isNew: overlay?[key] == nil && loaded[key] == nil,
                fields: fields.map { RecordChanges.FieldChange(field: $0, before: old.fields[$0], after: merged.fields[$0]!) }))
            if overlay != nil { overlay![key] = merged }
        }
        return changes
    }

    /// The record as it was before this batch: as an earlier batch of the dry
    /// run left it, as the file holds it, or empty.
    private func before(_ key: CacheKey, _ loaded: [CacheKey: Result<Record, CacheStoreError>]) throws -> Record {
        try overlay?[key] ?? loaded[key]?.get() ?? Record(key: key, fields: [:])
    }
}
