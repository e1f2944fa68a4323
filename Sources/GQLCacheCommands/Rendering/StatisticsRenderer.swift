import CacheStore

/// What `stats` prints, as text or JSON, with each list cut to `top` rows.
struct StatisticsRendering {
    let path: String
    let statistics: CacheStatistics
    let sizes: FileSizes
    let top: Int

    private var reclaimable: Int64 { Int64(statistics.pages.freePages * statistics.pages.pageSize) }

    private func percent(_ part: Int, of whole: Int) -> String {
        guard whole > 0 else { return "0.0%" }
        return "\((Double(part) * 1000 / Double(whole)).rounded() / 10)%"
    }

    func text() -> String {
        let stats = statistics
        var rows = [
            ("file", "\(path.shownOnLine), \(formatBytes(sizes.total))"),
            ("records", "\(stats.recordCount), \(formatBytes(Int64(stats.totalBytes))) of JSON"
                + (stats.damagedCount > 0 ? ", \(stats.damagedCount) damaged" : "")),
        ]
        // As info says them: no record, so in no list below.
        if stats.keylessRowCount > 0 { rows.append(("rows without a key", "\(stats.keylessRowCount) (damage; 'gqlcache doctor' lists them)")) }
        if stats.blobKeyRowCount > 0 {
            rows.append(("rows with a bad key", "\(stats.blobKeyRowCount) (a BLOB, or text not UTF-8: Apollo never finds them; 'gqlcache doctor' lists them)"))
        }
        rows += [
            ("path-keyed", "\(stats.pathKeyedCount) (\(percent(stats.pathKeyedCount, of: stats.recordCount)))"),
            ("free pages", "\(stats.pages.freePages) of \(stats.pages.pageCount): VACUUM would reclaim \(reclaimableText(reclaimable))"
                + ((sizes.wal ?? 0) > 0 ? " (and empty the -wal file, \(formatBytes(sizes.wal!)))" : "")),
        ]
        var text = aligned(rows)
        // --top 0 asks for the summary alone: no list, not even a heading.
        guard top > 0 else { return text }
        func more(_ count: Int) -> String { count > top ? "  … and \(count - top) more (--top N)\n" : "" }
        if !stats.byTypename.isEmpty {
            text += "\n" + table(["by __typename", "records", "bytes"], stats.byTypename.prefix(top).map {
                [typenameLabel($0.name), String($0.records), formatBytes(Int64($0.bytes))]
            }) + more(stats.byTypename.count)
        }
        if !stats.byRootField.isEmpty || stats.unreachable.records > 0 {
            var rows = stats.byRootField.prefix(top).map {
                ["\($0.root.rawValue).\($0.field.shownOnLine)", String($0.fieldKeys), String($0.records), formatBytes(Int64($0.bytes))]
            }
            if stats.unreachable.records > 0 {
                rows.append(["(no root reaches)", "", String(stats.unreachable.records), formatBytes(Int64(stats.unreachable.bytes))])
            }
            text += "\n" + table(["by root field (first to reach)", "field keys", "records", "bytes"], rows) + more(stats.byRootField.count)
        }
        if !stats.byKeyPrefix.isEmpty {
            text += "\n" + table(["by key prefix", "records", "bytes"], stats.byKeyPrefix.prefix(top).map {
                [$0.name?.shownOnLine ?? "(no prefix)", String($0.records), formatBytes(Int64($0.bytes))]
            }) + more(stats.byKeyPrefix.count)
        }
        if !stats.largest.isEmpty {
            text += "\n" + table(["largest records", "bytes"], stats.largest.map { [$0.key.display, formatBytes(Int64($0.bytes))] })
        }
        return text
    }

    func json() -> JSONOutput {
        let stats = statistics
        func group(_ group: CacheStatistics.Group, named label: String) -> JSONOutput {
            .object([(label, group.name.map(JSONOutput.string) ?? .null), ("records", .int(group.records)), ("bytes", .int(group.bytes))])
        }
        return .object([
            ("file", .string(path)),
            ("records", .int(stats.recordCount)),
            ("bytes", .int(stats.totalBytes)),
            ("damagedRecords", .int(stats.damagedCount)),
            ("keylessRows", .int(stats.keylessRowCount)), ("blobKeyRows", .int(stats.blobKeyRowCount)),
            ("pathKeyedRecords", .int(stats.pathKeyedCount)),
            ("pageSize", .int(stats.pages.pageSize)),
            ("pageCount", .int(stats.pages.pageCount)),
            ("freePages", .int(stats.pages.freePages)),
            ("vacuumReclaimsBytes", .int(Int(reclaimable))),
            ("walBytes", .int(Int(sizes.wal ?? 0))),
            // Each list cut to --top comes with how many there are, so a script can tell it was cut.
            ("typeCount", .int(stats.byTypename.count)),
            ("types", .array(stats.byTypename.prefix(top).map { group($0, named: "typename") })),
            ("rootFieldCount", .int(stats.byRootField.count)),
            ("rootFields", .array(stats.byRootField.prefix(top).map {
                .object([
                    ("root", .string($0.root.rawValue)), ("field", .string($0.field)), ("fieldKeys", .int($0.fieldKeys)),
                    ("records", .int($0.records)), ("bytes", .int($0.bytes)),
                ])
            })),
            ("unreachable", .object([("records", .int(stats.unreachable.records)), ("bytes", .int(stats.unreachable.bytes))])),
            ("keyPrefixCount", .int(stats.byKeyPrefix.count)),
            ("keyPrefixes", .array(stats.byKeyPrefix.prefix(top).map { group($0, named: "prefix") })),
            ("largest", .array(stats.largest.map { .object([("key", .string($0.key.rawValue)), ("bytes", .int($0.bytes))]) })),
        ])
    }
}
