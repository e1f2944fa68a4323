import CacheStore

/// What gc did, or would do.
struct GarbageReport {
    let collected: GarbageCollection?
    let dryRun: Bool
    let vacuum: (before: Int64, after: Int64?)?
    let freePages: PageStatistics?
    /// The records in the file, counted when nothing was collected (--vacuum alone).
    var recordCount = 0

    /// `quiet` leaves out the "nothing to collect" summary: an empty plan is no lines.
    func text(quiet: Bool = false) -> String {
        var text = ""
        if let collected {
            let dropped = collected.droppedReferences.flatMap(\.lines)
            if collected.isEmpty && !quiet {
                text += "nothing to collect in \(plural(collected.recordCount, "record"))\n"
            }
            if !collected.removedKeys.isEmpty {
                text += "\(dryRun ? "would remove" : "removed") \(plural(collected.removedKeys.count, "unreachable record")):\n"
                // Built as bytes: a String append checks the seam between
                // the two texts, which for 200,000 short lines costs more
                // than the lines themselves.
                var lines: [UInt8] = []
                lines.reserveCapacity(collected.removedKeys.count * 24)
                for key in collected.removedKeys {
                    lines.append(0x20)
                    lines.append(0x20)
                    lines.append(contentsOf: key.display.utf8)
                    lines.append(0x0A)
                }
                text += String(decoding: lines, as: UTF8.self)
            }
            if !dropped.isEmpty {
                text += "\(dryRun ? "would drop" : "dropped") \(plural(dropped.count, "dangling reference")):\n"
                for line in dropped { text += "  \(line)\n" }
            }
            if !collected.emptiedKeys.isEmpty {
                text += "\(dryRun ? "would remove" : "removed") \(plural(collected.emptiedKeys.count, "record")) "
                    + "the drops left with no field, as Apollo writes none:\n"
                for key in collected.emptiedKeys { text += "  \(key.display)\n" }
            }
            if collected.removedStrayRowCount > 0 {
                text += "\(dryRun ? "would delete" : "deleted") \(plural(collected.removedStrayRowCount, "row")) Apollo never finds:\n"
                for id in collected.removedKeylessRowIDs { text += "  _id \(id): no key\n" }
                for row in collected.removedBlobKeyRows { text += "  _id \(row.rowID): \(row.isBlob ? "BLOB key" : "key") \(row.display)\n" }
            }
        }
        if let vacuum {
            if let after = vacuum.after {
                text += vacuumLine(before: vacuum.before, after: after) + "\n"
            } else if let freePages {
                text += plannedVacuumLine(fileBytes: vacuum.before, pages: freePages, freedBy: collected?.isEmpty == false ? "this gc would free" : nil) + "\n"
            }
        }
        return text
    }

    private var summaryMembers: [(String, JSONOutput)] {
        // The same members whether or not garbage was collected (--vacuum alone).
        [("dryRun", .bool(dryRun)),
         ("records", .int(collected?.recordCount ?? recordCount)), ("removedRecords", .int(collected?.removedKeys.count ?? 0)),
         ("droppedReferences", .int(collected?.droppedReferences.reduce(0) { $0 + $1.dropped.count } ?? 0)),
         ("emptiedRecords", .int(collected?.emptiedKeys.count ?? 0)),
         ("deletedRows", .int(collected?.removedStrayRowCount ?? 0))]
            + vacuumMembers
    }

    private var vacuumMembers: [(String, JSONOutput)] {
        var members: [(String, JSONOutput)] = []
        members.append(("vacuumed", .bool(vacuum?.after != nil)))
        if let vacuum {
            members.append(("bytesBefore", .int(Int(vacuum.before))))
            members.append(("bytesAfter", vacuum.after.map { .int(Int($0)) } ?? .null))
        }
        return members
    }

    func json() -> JSONOutput {
        .object(summaryMembers + [
            ("removed", .array((collected?.removedKeys ?? []).map { .string($0.rawValue) })),
            ("dropped", .array((collected?.droppedReferences ?? []).flatMap(\.json))),
            ("emptied", .array((collected?.emptiedKeys ?? []).map { .string($0.rawValue) })),
            ("deleted", .array(strayRows.map { .object($0) })),
        ])
    }

    /// Each stray row: its `_id` and key (null, or a BLOB's or non-UTF-8 text's text and bytes).
    private var strayRows: [[(String, JSONOutput)]] {
        guard let collected else { return [] }
        return collected.removedKeylessRowIDs.map { [("rowid", .int(Int($0))), ("key", .null)] }
            + collected.removedBlobKeyRows.map { [("rowid", .int(Int($0.rowID)))] + $0.jsonKeyMembers }
    }

    /// One line per removal and drop, then the summary (naming `backup`,
    /// the copy `--backup` made), each ending with a newline.
    func jsonLines(backup: String? = nil) -> String {
        var lines = JSONLines()
        for key in collected?.removedKeys ?? [] { lines.appendKeyLine("type", "remove", key: key) }
        for drops in collected?.droppedReferences ?? [] {
            for dropped in drops.dropped { lines.append(.object([("type", .string("drop"))] + drops.jsonMembers(dropped))) }
        }
        for key in collected?.emptiedKeys ?? [] { lines.appendKeyLine("type", "emptied", key: key) }
        for row in strayRows { lines.append(.object([("type", .string("delete"))] + row)) }
        lines.append(JSONOutput.object([("type", .string("summary"))] + summaryMembers).namingBackup(backup))
        return lines.string
    }
}
