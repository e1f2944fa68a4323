import CacheQuery
import CacheStore
import Foundation

/// update --edit: the data in the user's editor, written back when saved.
extension GQLCache.Update {
    /// An edit that changed nothing: said in text, and in JSON as the
    /// report of a write that changed no record.
    private func noChanges(_ context: CommandContext) {
        guard output.format == .text else { return RecordChanges(records: [], dryRun: dryRun).render(format: output.format, context: context) }
        context.note("no changes; nothing written")
    }

    /// --edit: the current data in an editor, written back when saved
    /// with changes. The write lock is not held while the editor is open;
    /// the data is read again under it, and a change in between stops
    /// the update. Returns what changed; nil when nothing was written.
    func runEditor(
        context: CommandContext, target: Target, checkingLeaves: Bool,
        currentData: (ReadTransaction) throws -> ReadResult,
        records: (FieldValue, ExistingObjects, String, String?) throws -> [Record]
    ) throws -> RecordChanges? {
        let before = try writing.openForReading(file, context).read { tx in try currentData(tx) }
        let shown = JSONOutput.response(before.data ?? .null).rendered(pretty: true) + "\n"
        let temporary = FileManager.default.temporaryDirectory
            .appendingPathComponent("gqlcache-update-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max)).json").path
        // Readable by its owner alone: the cache's data may be a person's.
        guard FileManager.default.createFile(atPath: temporary, contents: Data(shown.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CommandFailure(.io, "\(temporary): cannot create the file to edit")
        }
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(atPath: temporary) } }
        try Editor.open(temporary, context: context)
        guard let bytes = FileManager.default.contents(atPath: temporary) else {
            throw CommandFailure(.io, "\(temporary): cannot read the edited data back; nothing written")
        }
        guard let edited = String(data: bytes, encoding: .utf8) else {
            keep = true
            throw CommandFailure(.usage, "the edited data is not UTF-8 text; nothing written; your edit is kept in \(temporary)")
        }
        if edited == shown {
            noChanges(context)
            return nil
        }
        let value: FieldValue
        do {
            value = try FieldValue(documentText: edited)
        } catch let error as CacheStoreError {
            keep = true
            let problem: String
            switch error {
            case .invalidJSON(let offset, let message):
                let place = SourcePlace(utf8Offset: offset, in: edited)
                problem = "is not JSON: \(message) at line \(place.line), column \(place.column)"
            case .repeatedMember(let offset, _):
                let place = SourcePlace(utf8Offset: offset, in: edited)
                problem = "at line \(place.line), column \(place.column): \(error)"
            default:
                problem = "is not JSON: \(error)"
            }
            throw CommandFailure(.usage, "the edited data \(problem); nothing written; your edit is kept in \(temporary)")
        }
        if value == before.data?.fieldValue {
            noChanges(context)
            return nil
        }
        let written: [Record]
        do {
            if let problem = before.data?.problem(writing: value, absent: before.absentFields, checkingLeaves: checkingLeaves) {
                throw CommandFailure(.usage, "the edited data: \(problem); nothing written; your edit is kept in \(temporary)")
            }
            written = try records(value, before.existingObjects, "the edited data", temporary)
        } catch {
            keep = true
            throw error
        }
        let store = dryRun ? try writing.openForDryRun(file, context) : try writing.openForWriting(file, context)
        func check(_ tx: ReadTransaction) throws {
            guard try currentData(tx).data == before.data else {
                keep = true
                throw CommandFailure(.busy, "the cache changed while the editor was open; nothing written; your edit is kept in \(temporary)")
            }
        }
        let changes = try RecordChanges.merging(into: store, dryRun: dryRun, findingTwins: true) { tx in
            try check(tx)
            return written
        }
        changes.render(format: output.format, context: context)
        return changes
    }
}
