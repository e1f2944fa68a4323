import CacheStore

/// What `doctor` prints: the report of the store plus the state of the
/// -wal file, as text or JSON.
struct HealthRendering {
    static let sampleSize = 10

    let path: String
    let report: HealthReport
    let pendingWAL: PendingWAL?
    /// As `PRAGMA journal_mode` says: a file not in WAL mode has no -wal file to check.
    let journalMode: String
    /// At the REPL's prompt the suggested commands are typed without
    /// `gqlcache` and the file, which the prompt supplies.
    var atThePrompt = false

    /// After a dangling reference to `Café:1` when the record `Café:1` is
    /// there in the other Unicode form: the two lines would look alike.
    static func lookalikeNote(_ record: CacheKey) -> String {
        " (the record \(record.display) looks the same but is written in the other Unicode form, "
            + "an accent composed or as a combining mark; keys are compared by their bytes)"
    }

    /// `wal`: changes wait in a -wal file beside it, which SQLite reads
    /// as part of the file: one copied from another cache makes a sound file
    /// read as damaged, and a checkpoint would copy it in for good. While
    /// another process (the app) has the file open, the -wal file may be
    /// that process's, which moving it would lose, and its last close
    /// checkpoints: nothing is to be moved or deleted before it quits.
    static func damagedFileAdvice(_ path: String, wal: PendingWAL? = nil) -> String {
        let remedy = "delete it (the app builds a new cache) or copy a fresh one; "
            + "'sqlite3 \(ShellQuoting.file(path)) .recover' may copy out what SQLite can still read"
        if wal?.isOpenElsewhere == true {
            return "the file reads as damaged with the -wal file beside it, and another process (the app) has the file open: "
                + "quit it before moving or deleting either file (its close copies the -wal file in), then check again; "
                + "if the file is still damaged, " + remedy
        }
        return (wal == nil ? "" : "the file reads as damaged with the -wal file beside it: if that came from another cache, move it away "
            + "and check again (opening the file with the app or sqlite3 would copy it in for good); otherwise ")
            + "the file is damaged: " + remedy
    }

    /// `gqlcache rm FILE`, or `rm` at the prompt.
    private func command(_ name: String) -> String { atThePrompt ? name : "gqlcache \(name) \(ShellQuoting.file(path))" }

    /// Changes waiting in the -wal file that nothing here explains.
    /// One that is not this file's is a problem also while the app has it open.
    private var unexplainedWAL: PendingWAL? {
        pendingWAL?.isOpenElsewhere == true && pendingWAL?.foreignBecause == nil && pendingWAL?.cutShortBecause == nil ? nil : pendingWAL
    }

    var problemCount: Int { report.problemCount + (unexplainedWAL == nil ? 0 : 1) }
    var isHealthy: Bool { problemCount == 0 }
    var pragma: String { report.fullIntegrityCheck ? "integrity_check" : "quick_check" }

    func text() -> String {
        // The file's name as a line shows it: a newline or escape sequence in it is escaped.
        let shownPath = path.shownOnLine
        var text = isHealthy
            ? "\(shownPath): no problems in \(plural(report.recordCount, "record"))\n"
            : report.unreadTable != nil
            ? "\(shownPath): \(plural(problemCount, "problem")); the records could not all be read\n"
            : "\(shownPath): \(plural(problemCount, "problem")) in \(plural(report.recordCount, "record"))\n"
        // Summary lines first, indented; then each list of problems under its title.
        text += report.integrityProblems.isEmpty
            ? "  SQLite \(pragma): ok\n"
            : "  SQLite \(pragma): \(plural(report.integrityProblems.count, "problem")) (listed below)\n"
        if let cut = report.cutShort {
            text += "  file: cut short: \(cut.size) bytes, where its header says \(cut.expected) (a copy that stopped, or a full disk)\n"
        }
        if let orderBreak = report.rowOrderBreak {
            text += "  records table: \(orderBreak), which only damaged pages give\n"
        }
        if let duplicate = report.duplicateKeyRows {
            text += "  records table: two rows (_id \(duplicate.firstRowID) and _id \(duplicate.secondRowID)) hold the key \(duplicate.key.display), "
                + "which the table's UNIQUE index on key forbids: the index is damaged ('gqlcache doctor --full' shows SQLite's findings)\n"
        }
        if let pendingWAL {
            let waiting = "  WAL: \(plural(pendingWAL.frames, "page")) of committed changes in \(pendingWAL.walPath.shownOnLine) "
                + "(\(formatBytes(pendingWAL.walBytes))) "
            if let cut = pendingWAL.cutShortBecause {
                text += waiting + "that do not make up the pages the file lacks, as it is cut short (\(cut)): SQLite cannot copy them in "
                    + "(a checkpoint fails as malformed); copy the file again whole, with its -wal file\n"
            } else if let foreign = pendingWAL.foreignBecause {
                text += waiting + "that are not this file's (\(foreign)): the -wal file came from another copy of the cache, and SQLite "
                    + "cannot copy it in (a checkpoint fails as malformed, and every change written after stays in it); "
                    + "move it away while no program has the file open\n"
            } else if report.fileIsDamaged {
                // A checkpoint of a -wal file that belongs to another database would make the damage for good.
                text += waiting + "not checkpointed into the database; the file reads as damaged with them (see below)\n"
            } else if pendingWAL.isOpenElsewhere == true {
                text += waiting + "not checkpointed yet; normal: another process (the app) has the file open and checkpoints it in time\n"
            } else if pendingWAL.isOpenElsewhere == false {
                text += waiting + "not checkpointed into the database, and no process has the file open: it was not closed cleanly; "
                    + "open it once with the app or sqlite3 to checkpoint\n"
            } else {
                // Whether another process has the file open cannot be told here.
                text += waiting + "not checkpointed into the database; normal while the app has the file open, otherwise open it once "
                    + "with the app or sqlite3 to checkpoint\n"
            }
        } else if journalMode == "wal" {
            text += "  WAL: no changes waiting for a checkpoint\n"
        } else if journalMode != "unknown" {
            text += "  journal mode: \(journalMode) (no WAL)\n"
        }
        let roots = report.roots.map(\.rawValue).joined(separator: ", ")
        // Another root there, but no QUERY_ROOT: what queries wrote is not
        // reached, and is not garbage (the app's next query reaches it again).
        let queryRootMissing = !report.roots.isEmpty && !report.roots.contains(.queryRoot) && !report.unreachableKeys.isEmpty
        if let unread = report.unreadTable {
            text += report.schemaUnread
                ? "  records: not checked: SQLite could not read the file's schema (\(unread))\n"
                : "  records: not checked: SQLite stopped reading the table at a damaged page (\(unread))\n"
        } else if report.recordCount == 0 {
            text += "  reachability: no records\n"
        } else if report.roots.isEmpty {
            text += "  reachability: no root record (\(CacheKey.roots.map(\.rawValue).joined(separator: ", "))), so no record is reached\n"
        } else if report.unreachableKeys.isEmpty && report.unreachedDamagedKeys.isEmpty {
            text += "  reachability: every record reached from \(roots)\n"
        } else if !report.damagedRecords.isEmpty {
            // A damaged record's references cannot be read: what it reaches is not known.
            // Damaged records no root reaches count too, as in stats' "(no root reaches)".
            let damaged = report.unreachedDamagedKeys.count
            let unreached = report.unreachableKeys.isEmpty
                ? plural(damaged, "damaged record")
                : plural(report.unreachableKeys.count + damaged, "record") + (damaged > 0 ? " (\(damaged) of them damaged)" : "")
            text += "  reachability: \(unreached) not reached from \(roots) "
                + "(not for certain: the references of damaged records cannot be read)\n"
        } else {
            text += "  reachability: \(plural(report.unreachableKeys.count, "record")) not reached from \(roots)"
                + (queryRootMissing ? " (there is no QUERY_ROOT, where every query's data starts)" : "") + "\n"
        }
        text += section("SQLite \(pragma) found", report.integrityProblems) { $0 }
        let rowFindings = report.damagedRecords.count + report.keylessRowIDs.count + report.blobKeyRows.count
            + report.danglingReferences.count + report.unreachableKeys.count + report.caseDuplicates.count + report.unusableKeys.count
            + report.recordsApolloCannotRead.count + report.typenamesApolloCannotRead.count + report.triggers.count
        if report.fileIsDamaged && rowFindings > 0 {
            text += "(what follows was read from a damaged file: some of it may be the damage itself, not the app's data)\n"
        }
        text += section("damaged records", report.damagedRecords) { "\($0.key.display): \($0.problem)" }
        text += section("records Apollo cannot read", report.recordsApolloCannotRead) { "\($0.key.display): \($0)" }
        text += section(
            "records whose __typename is null, a Boolean, a list or an object, which Apollo reads as String!, so every read reaching them fails",
            report.typenamesApolloCannotRead) { "\($0.key.display): __typename \($0.value.shownOnLine)" }
        text += section("triggers on table 'records', which Apollo's never has and a write would run (commands that write refuse the file)",
                        report.triggers) { $0.shownOnLine }
        text += section("rows without a key", report.keylessRowIDs) { "_id \($0)" }
        text += section("rows whose key is a BLOB or not UTF-8 text, which Apollo never finds", report.blobKeyRows) { "_id \($0.rowID): \($0.display)" }
        text += section("dangling references", report.danglingReferences) {
            "\($0.from.display) \($0.shownLocation) → \($0.to.display)" + (report.lookalikeRecords[$0.to].map(Self.lookalikeNote) ?? "")
        }
        text += section("unreachable records", report.unreachableKeys) { $0.display }
        text += section("keys differing only by case", report.caseDuplicates) { $0.map(\.display).joined(separator: ", ") }
        text += section("keys that no Apollo cache key is (empty, or holding a NUL; export and import refuse them)", report.unusableKeys) {
            $0.rawValue.quotedForLine
        }
        // A file SQLite finds damaged gets no repair by gqlcache: what was read
        // of it may be wrong, and the app can rebuild its cache.
        if report.fileIsDamaged {
            text += Self.damagedFileAdvice(path, wal: pendingWAL) + "\n"
            return text
        }
        var repairs: [String] = []
        // gc refuses --unreachable while damaged records hide references, or with no root.
        if !report.unreachableKeys.isEmpty && report.damagedRecords.isEmpty && !report.roots.isEmpty && !queryRootMissing { repairs.append("--unreachable") }
        if queryRootMissing {
            text += "no repair for the unreachable records: without QUERY_ROOT they are what queries wrote, which the app's next query "
                + "writes QUERY_ROOT again to reach (those keyed by id); gc --unreachable refuses them\n"
        }
        if !report.danglingReferences.isEmpty { repairs.append("--dangling") }
        if !report.keylessRowIDs.isEmpty || !report.blobKeyRows.isEmpty { repairs.append("--stray-rows") }
        if !report.damagedRecords.isEmpty {
            // Apollo cannot read them either; removing them is the one repair, and a person's call.
            text += "remove damaged records with: \(command("rm")) \(Self.keyWords(report.damagedRecords.map(\.key), each: "each damaged key"))\n"
        }
        if !report.triggers.isEmpty {
            let drops = report.triggers.map { "DROP TRIGGER \"\($0.replacingOccurrences(of: "\"", with: "\"\""))\";" }.joined(separator: " ")
            text += "remove the triggers with: sqlite3 \(ShellQuoting.file(path)) \(ShellQuoting.word(drops))\n"
        }
        if !report.recordsApolloCannotRead.isEmpty {
            // The app fetches them again once they are gone; no gc kind takes them.
            text += "remove records Apollo cannot read with: \(command("rm")) \(Self.keyWords(report.recordsApolloCannotRead.map(\.key), each: "each key Apollo cannot read"))\n"
        }
        if !report.typenamesApolloCannotRead.isEmpty {
            // Writes still merge into them: the app's next fetch mends them, or a person removes them.
            text += "the app's next fetch of them writes __typename again; or remove them with: \(command("rm")) "
                + "\(Self.keyWords(report.typenamesApolloCannotRead.map(\.key), each: "each key whose __typename Apollo cannot read"))\n"
        }
        if report.unusableKeys.contains(CacheKey("")) {
            // A person's call too: a reference may lead to it, and Apollo reads it then.
            text += "remove the record keyed by the empty string with: \(command("rm")) --clean-references -- ''\n"
        }
        if !repairs.isEmpty {
            text += "repair with: \(command("gc")) \(repairs.joined(separator: " ")) (add --dry-run to see each change first)\n"
        }
        return text
    }

    /// Keys to give `rm`, as shell words after `--` when one starts with
    /// '-' (it would be read as an option), or a placeholder for more than
    /// the sample.
    private static func keyWords(_ keys: [CacheKey], each: String) -> String {
        guard keys.count <= sampleSize else { return "-- KEY… (\(each); --format json lists them all)" }
        return ShellQuoting.keys(keys)
    }

    /// A titled sample of `items`, each shown as `line` gives it (only the
    /// sample is formatted: a list can have hundreds of thousands of items).
    private func section<Item>(_ title: String, _ items: [Item], _ line: (Item) -> String) -> String {
        guard !items.isEmpty else { return "" }
        var text = "\(title) (\(items.count))\n"
        for item in items.prefix(Self.sampleSize) { text += "  \(line(item))\n" }
        if items.count > Self.sampleSize {
            text += "  … and \(items.count - Self.sampleSize) more (--format json lists them all)\n"
        }
        return text
    }

    /// One object per problem, in the order the text lists them.
    func problems() -> [JSONOutput] {
        problemsBeforeUnreachable()
            + report.unreachableKeys.map { .object([("kind", .string("unreachable")), ("key", .string($0.rawValue))]) }
            + caseDuplicateProblems() + unusableKeyProblems()
    }

    private func problemsBeforeUnreachable() -> [JSONOutput] {
        var problems: [JSONOutput] = report.cutShort.map { cut in
            [.object([("kind", .string("cutShort")), ("bytes", .int(Int(cut.size))), ("headerBytes", .int(Int(cut.expected)))])]
        } ?? []
        problems += report.integrityProblems.map { .object([("kind", .string("integrity")), ("message", .string($0))]) }
        if let unread = report.unreadTable {
            problems.append(.object([("kind", .string("unreadTable")), ("message", .string(unread))]))
        }
        if let orderBreak = report.rowOrderBreak {
            problems.append(.object([
                ("kind", .string("rowOrder")), ("rowid", .int(Int(orderBreak.next))), ("afterRowid", .int(Int(orderBreak.previous))),
            ]))
        }
        if let duplicate = report.duplicateKeyRows {
            problems.append(.object([
                ("kind", .string("duplicateKey")), ("key", .string(duplicate.key.rawValue)),
                ("rowids", .array([.int(Int(duplicate.firstRowID)), .int(Int(duplicate.secondRowID))])),
            ]))
        }
        if let pendingWAL = unexplainedWAL {
            problems.append(.object([
                ("kind", .string(pendingWAL.cutShortBecause != nil ? "walBeyondCutFile" : pendingWAL.foreignBecause != nil ? "foreignWAL" : "uncheckpointedWAL")),
                ("frames", .int(pendingWAL.frames)), ("walBytes", .int(Int(pendingWAL.walBytes))),
            ] + ((pendingWAL.cutShortBecause ?? pendingWAL.foreignBecause).map { [("reason", .string($0))] } ?? [])))
        }
        for damaged in report.damagedRecords {
            if damaged.problem == .null {
                problems.append(.object([("kind", .string("nullRecord")), ("key", .string(damaged.key.rawValue))]))
            } else {
                problems.append(.object([
                    ("kind", .string("invalidRecord")), ("key", .string(damaged.key.rawValue)), ("message", .string(damaged.problem.description)),
                ]))
            }
        }
        problems += report.recordsApolloCannotRead.map {
            .object([
                ("kind", .string("numberApolloCannotRead")), ("key", .string($0.key.rawValue)), ("field", .string($0.field)),
                ("number", .string($0.number)),
            ])
        }
        problems += report.typenamesApolloCannotRead.map {
            .object([("kind", .string("typenameApolloCannotRead")), ("key", .string($0.key.rawValue)), ("typename", .value($0.value))])
        }
        problems += report.triggers.map { .object([("kind", .string("trigger")), ("name", .string($0))]) }
        problems += report.keylessRowIDs.map { .object([("kind", .string("keylessRow")), ("rowid", .int(Int($0)))]) }
        problems += report.blobKeyRows.map {
            .object([("kind", .string($0.isBlob ? "blobKeyRow" : "nonUTF8KeyRow")), ("rowid", .int(Int($0.rowID)))] + $0.jsonKeyMembers)
        }
        problems += report.danglingReferences.map { reference in
            .object([("kind", .string("dangling"))] + reference.jsonMembers
                + (report.lookalikeRecords[reference.to].map { [("lookalikeRecord", .string($0.rawValue))] } ?? []))
        }
        return problems
    }

    private func unusableKeyProblems() -> [JSONOutput] {
        report.unusableKeys.map { .object([("kind", .string("unusableKey")), ("key", .string($0.rawValue))]) }
    }

    private func caseDuplicateProblems() -> [JSONOutput] {
        report.caseDuplicates.map { .object([("kind", .string("caseDuplicate")), ("keys", .array($0.map { .string($0.rawValue) }))]) }
    }

    func summaryMembers() -> [(String, JSONOutput)] {
        [
            ("file", .string(path)), ("healthy", .bool(isHealthy)), ("records", report.unreadTable == nil ? .int(report.recordCount) : .null),
            ("problemCount", .int(problemCount)), ("integrityCheck", .string(pragma)), ("journalMode", .string(journalMode)),
            ("roots", .array(report.roots.map { .string($0.rawValue) })),
        ]
    }

    func json() -> JSONOutput { .object(summaryMembers() + [("problems", .array(problems()))]) }

    /// One line per problem, then the summary, each ending with a newline.
    func jsonLines() -> String {
        var lines = JSONLines()
        problemsBeforeUnreachable().forEach { lines.append($0) }
        // Unreachable records can be most of a large cache: their lines are written directly.
        for key in report.unreachableKeys { lines.appendKeyLine("kind", "unreachable", key: key) }
        caseDuplicateProblems().forEach { lines.append($0) }
        unusableKeyProblems().forEach { lines.append($0) }
        lines.append(.object([("kind", .string("summary"))] + summaryMembers()))
        return lines.string
    }
}
