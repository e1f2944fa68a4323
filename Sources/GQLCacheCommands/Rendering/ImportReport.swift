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
        var changes: [CacheKey: RecordChanges.RecordChange] = [:]
        var order: [CacheKey] = []
        for record in batch {
            let earlier = overlay?[record.key]
            var current = try working[record.key] ?? earlier ?? loaded[record.key]?.get() ?? Record(key: record.key, fields: [:])
            for field in record.fields.keys.sorted(by: byteOrder) where current.fields[field] != record.fields[field] {
                if changes[record.key] == nil {
                    changes[record.key] = RecordChanges.RecordChange(
                        key: record.key, isNew: earlier == nil && loaded[record.key] == nil, fields: [])
                    order.append(record.key)
                }
                changes[record.key]!.fields.append(
                    RecordChanges.FieldChange(field: field, before: current.fields[field], after: record.fields[field]!))
                current.fields[field] = record.fields[field]
            }
            working[record.key] = current
        }
        if overlay != nil {
            for key in order { overlay![key] = working[key] }
        }
        return order.map { changes[$0]! }
    }
}
