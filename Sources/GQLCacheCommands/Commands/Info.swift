import ArgumentParser
import CacheStore

extension GQLCache {
    /// `gqlcache info CACHE`: what the file is and what it holds.
    struct Info: ContextCommand {
        static let configuration = CommandConfiguration(
            commandName: "info",
            _superCommandName: GQLCache.superCommandName,
            abstract: "Show the format, journal mode, size, roots, record counts per type and the largest records.")

        @OptionGroup var file: CacheFileArgument
        @OptionGroup var output: OutputOptions
        @OptionGroup var reading: ReadOptions
        @OptionGroup var display: DisplayOptions
        @OptionGroup var pager: PagerOptions

        @Option(parsing: .unconditional, help: ArgumentHelp("How many of the largest records to list.", valueName: "n"))
        var top: Int = 5

        func validate() throws {
            guard top >= 0 else { throw ValidationError("--top must be zero or more") }
        }

        func run(in context: CommandContext) throws {
            let store = try reading.openForReading(file, context)
            // One full scan, for the types, the damaged and the largest records.
            var cut: FileCut?
            let overview = try context.withProgress("reading \(file.path)") { progress in try store.read(progress: progress) { tx in
                let census = try tx.census(largest: top, damagedKeys: 5)
                cut = try tx.fileCut()
                // Read as a snapshot, the file is in WAL mode: that is why it is read so.
                let journalMode = store.isImmutableSnapshot ? "wal" : try tx.journalMode()
                return CacheOverview(
                    path: store.path, format: store.format, journalMode: journalMode, immutableSnapshot: store.isImmutableSnapshot,
                    sizes: store.fileSizes(), pages: try tx.pageStatistics(),
                    recordCount: census.recordCount, keylessRowCount: census.keylessRowCount, blobKeyRowCount: census.blobKeyRowCount, roots: try tx.existingRoots(),
                    typeCounts: census.typeCounts, damagedCount: census.damagedCount,
                    damagedKeys: census.damagedKeys, largest: census.largest, rowOrderBreak: census.rowOrderBreak)
            } }
            switch output.format {
            case .text: context.stdout.write(context.atThePrompt(overview.text()))
            case .json, .jsonl: output.format.emit(overview.json(), to: context)
            }
            if overview.damagedCount > 0 {
                let more = overview.damagedCount > overview.damagedKeys.count ? ", …" : ""
                context.warn(
                    "\(plural(overview.damagedCount, "damaged record")) (NULL, not valid JSON, not a JSON object, or nested too deep): "
                        + overview.damagedKeys.map(\.rawValue).joined(separator: ", ") + more)
            }
            // The pages past its end are missing: doctor says what that costs.
            if let cut { context.warn("\(cut); records on the missing pages cannot be read (gqlcache doctor checks every page)") }
            if let orderBreak = overview.rowOrderBreak { throw CommandFailure.damagedFile(store.path, orderBreak) }
        }
    }
}

/// Everything `info` reports, gathered in one read transaction.
struct CacheOverview {
    let path: String
    let format: ApolloIOSSQLiteFormat
    let journalMode: String
    /// Read as an immutable snapshot: a WAL file in a folder this user
    /// cannot write, where SQLite cannot make the -shm file.
    let immutableSnapshot: Bool
    let sizes: FileSizes
    let pages: PageStatistics
    /// Rows with a key.
    let recordCount: Int
    /// Rows whose key is NULL: a damaged file's, listed by `doctor`.
    let keylessRowCount: Int
    let blobKeyRowCount: Int
    let roots: [CacheKey]
    let typeCounts: [TypenameCount]
    let damagedCount: Int
    let damagedKeys: [CacheKey]
    let largest: [RecordSize]
    let rowOrderBreak: RowOrderBreak?

    /// How many typenames the text lists, the most common first: an
    /// overview, where a file of thousands would bury the rest.
    static let typenameLimit = 20

    func text() -> String {
        var size = formatBytes(sizes.total)
        let extras = [("wal", sizes.wal), ("shm", sizes.shm), ("journal", sizes.journal)].compactMap { name, bytes in
            bytes.map { "\(name) \(formatBytes($0))" }
        }
        if !extras.isEmpty { size += " (database \(formatBytes(sizes.database)), " + extras.joined(separator: ", ") + ")" }
        var rows: [(String, String)] = [
            ("file", path.shownOnLine),
            ("format", format.summary),
            ("journal mode", immutableSnapshot
                ? "wal (read as an immutable snapshot: the folder is not writable)"
                : journalMode == "wal" && sizes.wal == nil
                ? "wal (no -wal file beside it: all is in this file, unless it was copied without its -wal)"
                : journalMode),
            ("size", size),
            ("free pages", "\(pages.freePages) of \(pages.pageCount) (\(reclaimableText(Int64(pages.freePages * pages.pageSize))) reclaimable by gc --vacuum)"),
            ("records", String(recordCount)),
            ("roots", roots.isEmpty ? "none" : roots.map(\.rawValue).joined(separator: ", ")),
        ]
        if damagedCount > 0 { rows.append(("damaged", "\(damagedCount) (NULL, not valid JSON, not a JSON object, or nested too deep; 'gqlcache doctor' lists them)")) }
        if keylessRowCount > 0 { rows.append(("rows without a key", "\(keylessRowCount) (damage; 'gqlcache doctor' lists them)")) }
        if blobKeyRowCount > 0 {
            rows.append(("rows with a bad key", "\(blobKeyRowCount) (a BLOB, or text not UTF-8: Apollo never finds them; 'gqlcache doctor' lists them)"))
        }
        var text = aligned(rows)
        if !typeCounts.isEmpty {
            text += "\nrecords by __typename\n"
            let shown = typeCounts.count > Self.typenameLimit + 1 ? Array(typeCounts.prefix(Self.typenameLimit)) : typeCounts
            text += aligned(shown.map { ("  " + typenameLabel($0.typename), String($0.count)) }, rightAlignValues: true)
            let rest = typeCounts.dropFirst(shown.count)
            if !rest.isEmpty {
                let records = rest.reduce(0) { $0 + $1.count }
                text += "  … and \(rest.count) more, \(records) record\(records == 1 ? "" : "s") (--format json lists them all)\n"
            }
        }
        if !largest.isEmpty {
            text += "\nlargest records\n"
            text += aligned(largest.map { ("  " + $0.key.display, formatBytes(Int64($0.bytes))) }, rightAlignValues: true)
        }
        return text
    }

    func json() -> JSONOutput {
        func optionalInt(_ value: Int64?) -> JSONOutput { value.map { .int(Int($0)) } ?? .null }
        return .object([
            ("file", .string(path)),
            ("format", .string(format.identifier)),
            ("ddl", .string(format.variant)),
            ("journalMode", .string(journalMode)),
            ("immutableSnapshot", .bool(immutableSnapshot)),
            ("size", .object([
                ("total", .int(Int(sizes.total))), ("database", .int(Int(sizes.database))),
                ("wal", optionalInt(sizes.wal)), ("shm", optionalInt(sizes.shm)), ("journal", optionalInt(sizes.journal)),
            ])),
            ("pageSize", .int(pages.pageSize)),
            ("pageCount", .int(pages.pageCount)),
            ("freePages", .int(pages.freePages)),
            ("records", .int(recordCount)),
            ("damagedRecords", .int(damagedCount)),
            ("keylessRows", .int(keylessRowCount)), ("blobKeyRows", .int(blobKeyRowCount)),
            ("roots", .array(roots.map { .string($0.rawValue) })),
            ("types", .array(typeCounts.map { .object([("typename", $0.typename.map(JSONOutput.string) ?? .null), ("count", .int($0.count))]) })),
            ("largest", .array(largest.map { .object([("key", .string($0.key.rawValue)), ("bytes", .int($0.bytes))]) })),
        ])
    }
}

/// Two columns, the first padded to its widest entry (in terminal
/// columns, up to ``widestPaddedLabel``).
func aligned(_ rows: [(String, String)], rightAlignValues: Bool = false) -> String {
    let width = rows.map(\.0.displayWidth).filter { $0 <= widestPaddedLabel }.max() ?? 0
    let valueWidth = rows.map(\.1.displayWidth).max() ?? 0
    return rows.map { label, value in
        let shown = rightAlignValues ? padding(value, to: valueWidth) + value : value
        return label + padding(label, to: width) + "  " + shown + "\n"
    }.joined()
}
