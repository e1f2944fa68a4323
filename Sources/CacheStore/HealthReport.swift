import Foundation

/// Everything `doctor` checks: SQLite's own check of the file, and one pass
/// over the table.
public struct HealthReport: Equatable, Sendable {
    /// Rows with a key.
    public let recordCount: Int
    /// True when SQLite's `integrity_check` ran, false for `quick_check`.
    public let fullIntegrityCheck: Bool
    /// What SQLite's check listed; empty when it said `ok`.
    public let integrityProblems: [String]
    /// The root records present.
    public let roots: [CacheKey]
    /// Records whose column is NULL, or whose text is not a JSON object.
    public let damagedRecords: [DamagedRecord]
    /// Rows whose key is NULL, by `_id`.
    public let keylessRowIDs: [Int64]
    /// Rows whose key is a BLOB, which Apollo never finds.
    public let blobKeyRows: [BlobKeyRow]
    /// References to keys without a record, with their paths.
    public let danglingReferences: [ReferenceLocation]
    /// Records no root reaches, in key order.
    public let unreachableKeys: [CacheKey]
    /// Damaged records no root reaches (listed with the damaged ones), in
    /// key order.
    public let unreachedDamagedKeys: [CacheKey]
    /// Keys equal but for ASCII case.
    public let caseDuplicates: [[CacheKey]]
    /// Why the pass over the records stopped before the end: SQLite found
    /// a page of the table damaged. The record checks were not made, and
    /// their lists are empty; SQLite's own check says what is damaged.
    public var unreadTable: String? = nil
    /// With ``unreadTable``: SQLite could not even read the schema, so
    /// the file could not be opened as a database at all.
    public var schemaUnread = false
    /// Where the pass over the table met rows out of `_id` order, which
    /// only damaged pages give (``CacheGraph/rowOrderBreak``).
    public var rowOrderBreak: RowOrderBreak? = nil
    /// Two rows with one key, which only a damaged index lets in
    /// (``CacheGraph/duplicateKeyRows``).
    public var duplicateKeyRows: DuplicateKeyRows? = nil
    /// For a dangling reference's key, a record whose key looks the same
    /// but is written in the other Unicode form (an accent composed, or a
    /// letter plus a combining mark): keys are compared by their bytes, so
    /// the reference dangles, and the record may be unreachable.
    public var lookalikeRecords: [CacheKey: CacheKey] = [:]
    /// The file ends before its header says it does (see ``FileCut``).
    public var cutShort: FileCut? = nil
    /// Records keyed by the empty string, or by a key holding a NUL
    /// (``CacheGraph/unusableKeys()``), which export and import refuse.
    public var unusableKeys: [CacheKey] = []
    /// Records holding a number Apollo's JSON reading refuses, with the
    /// whole record (``CacheGraph/recordsApolloCannotRead``), in row order.
    public var recordsApolloCannotRead: [NumberApolloCannotRead] = []
    /// Records whose `__typename` is not a string, which every Apollo
    /// read of them fails at (``CacheGraph/typenamesApolloCannotRead``).
    public var typenamesApolloCannotRead: [TypenameApolloCannotRead] = []
    /// Triggers on `records`, which Apollo's table never has and which a
    /// write would run: commands that write refuse the file.
    public var triggers: [String] = []

    /// True when the file itself is damaged (SQLite's check, the pass
    /// over the table or the file's size says so): what was read of the
    /// records may be the damage rather than the app's data, and nothing
    /// gets repaired.
    public var fileIsDamaged: Bool {
        !integrityProblems.isEmpty || unreadTable != nil || rowOrderBreak != nil || duplicateKeyRows != nil || cutShort != nil
    }

    /// How many problems were found.
    public var problemCount: Int {
        integrityProblems.count + damagedRecords.count + keylessRowIDs.count + blobKeyRows.count + danglingReferences.count
            + unreachableKeys.count + caseDuplicates.count + (unreadTable == nil ? 0 : 1) + (rowOrderBreak == nil ? 0 : 1) + (duplicateKeyRows == nil ? 0 : 1)
            + (cutShort == nil ? 0 : 1) + unusableKeys.count + recordsApolloCannotRead.count + typenamesApolloCannotRead.count
            + triggers.count
    }
}

/// A file shorter than its header says: cut short by a copy that stopped,
/// a full disk or `head -c`. SQLite reads the missing end of the last page
/// as zeros, and finds a whole page missing only when it reads it.
public struct FileCut: Equatable, Sendable, CustomStringConvertible {
    public let size: Int64
    public let expected: Int64

    /// Nil also for a file in WAL mode whose -wal file holds frames: they
    /// may hold the pages past the file's end, and a checkpoint may be
    /// copying them in. To be asked while a transaction keeps other
    /// commits out (in rollback mode, one writes page 1, with the new size,
    /// before the pages that make the file that long).
    static func of(_ path: String) -> FileCut? {
        guard let cut = FileProbe.truncation(path) else { return nil }
        if FileProbe.isWALMode(path), let wal = FileProbe.signature(FileProbe.resolved(path) + "-wal"), wal.size > 32 { return nil }
        return FileCut(size: cut.size, expected: cut.expected)
    }

    public var description: String { "the file is cut short: \(size) bytes, where its header says \(expected)" }
}

extension ReadTransaction {
    /// Checks the file with SQLite (`quick_check`, or `integrity_check`
    /// when `full`) and the records with one pass over the table.
    public func healthReport(fullIntegrityCheck full: Bool) throws -> HealthReport {
        let graph = try graph()
        var report = HealthReport(
            integrityProblems: try sqliteIntegrityCheck(full: full), fullIntegrityCheck: full, graph: graph,
            danglingReferences: try placing(graph.danglingReferences))
        report.triggers = try triggersOnRecords()
        return report
    }
}

extension CacheStore {
    /// ``ReadTransaction/healthReport(fullIntegrityCheck:)`` with SQLite's
    /// check run on a second read-only connection while the records are
    /// read: the two passes over the file overlap. Each reads a consistent
    /// snapshot; a write committed between their starts is seen by one only.
    /// `progress` follows the records' pass.
    public func healthReport(fullIntegrityCheck full: Bool, progress: ProgressHandler? = nil) throws -> HealthReport {
        // It waits for the app's lock as long as this store was told to.
        let checker = try CacheStore.open(at: path, access: .readOnly, busyTimeout: busyTimeout)
        let check = IntegrityCheckThread(checker, full: full)
        let graph: CacheGraph
        var dangling: [ReferenceLocation] = []
        var cut: FileCut?
        var triggers: [String] = []
        do {
            graph = try read(progress: progress) { tx in
                triggers = try tx.triggersOnRecords()
                let graph = try tx.graph()
                // Still in the transaction, which has read: no commit is half-way meanwhile.
                cut = FileCut.of(path)
                // Few, as a rule: their places are looked up in the same snapshot.
                dangling = try tx.placing(graph.danglingReferences)
                return graph
            }
        } catch CacheStoreError.corrupt(_, let message, let walBytes) {
            // A damaged page is what the check is for: report what SQLite's
            // check found, unless it could not run either.
            let problems: [String]
            switch check.result() {
            case .success(let listed): problems = listed
            // Neither could read the file (a copy cut at a page's end
            // leaves pages SQLite's schema points past): that is the finding.
            case .failure(CacheStoreError.corrupt(_, let checkMessage, _)): problems = [HealthReport.checkCouldNotRun(checkMessage)]
            case .failure: throw CacheStoreError.corrupt(path: path, message: message, walBytes: walBytes)
            }
            var report = HealthReport(unreadTable: message, integrityProblems: problems, fullIntegrityCheck: full)
            report.cutShort = FileCut.of(path)
            return report
        } catch {
            _ = check.result()
            throw error
        }
        var report = HealthReport(integrityProblems: try check.result().get(), fullIntegrityCheck: full, graph: graph, danglingReferences: dangling)
        report.cutShort = cut
        report.triggers = triggers
        return report
    }
}

/// SQLite's integrity check, run on a thread of its own.
private final class IntegrityCheckThread: @unchecked Sendable {
    private var outcome: Result<[String], Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ store: CacheStore, full: Bool) {
        let thread = Thread { [self] in
            var listed: [String]?
            outcome = Result { try store.read { tx in
                listed = try tx.sqliteIntegrityCheck(full: full)
                return listed!
            } }
            // After a damaged page SQLite fails the end of the read
            // transaction too; what the check listed stands.
            if case .failure(CacheStoreError.corrupt) = outcome, let listed { outcome = .success(listed) }
            done.signal()
        }
        thread.name = "gqlcache integrity check"
        thread.start()
    }

    /// Waits for the check.
    func result() -> Result<[String], Error> {
        done.wait()
        done.signal()
        return outcome!
    }
}

/// What `doctor` can say of a file SQLite cannot open at all: the
/// schema itself sits on a damaged page, or on one past the end of a
/// file cut short at a page's end (the usual kind of copy that stopped).
public struct UnreadableFile: Sendable {
    public let report: HealthReport
    /// `wal` when the header says so; else `unknown`, as the other modes
    /// are not kept in the file.
    public let journalMode: String
    public let pendingWAL: PendingWAL?

    /// `message`: SQLite's, from ``CacheStoreError/corrupt(path:message:walBytes:)``.
    /// The check named is the one a readable file would have had:
    /// integrity_check with `fullIntegrityCheck`, or when committed changes
    /// wait in the -wal file.
    public init(path: String, message: String, fullIntegrityCheck full: Bool) {
        let cut = FileCut.of(path)
        let pending = PendingWAL.inspect(path: path)
        // The cut is a finding of its own, not part of what SQLite said.
        let said = cut.map { message.replacingOccurrences(of: "; \($0)", with: "") } ?? message
        var report = HealthReport(
            unreadTable: said, integrityProblems: [HealthReport.checkCouldNotRun(said)], fullIntegrityCheck: full || pending != nil)
        report.cutShort = cut
        report.schemaUnread = true
        self.report = report
        journalMode = FileProbe.isWALMode(path) ? "wal" : "unknown"
        pendingWAL = pending
    }
}

extension HealthReport {
    /// SQLite's check stopped with `message` before it could list anything.
    static func checkCouldNotRun(_ message: String) -> String { "the check could not run: \(message)" }

    /// The report when the table could not be read to its end.
    init(unreadTable: String, integrityProblems: [String], fullIntegrityCheck full: Bool) {
        self.init(
            recordCount: 0, fullIntegrityCheck: full, integrityProblems: integrityProblems, roots: [], damagedRecords: [],
            keylessRowIDs: [], blobKeyRows: [], danglingReferences: [], unreachableKeys: [], unreachedDamagedKeys: [],
            caseDuplicates: [], unreadTable: unreadTable)
    }

    /// `splitFrom`: the number of nodes from which the case check runs
    /// beside the reachability check (tests set it to compare).
    /// `danglingReferences`: the graph's, placed (see
    /// ``ReadTransaction/placing(_:)``); nil takes them from the graph as
    /// they are.
    init(
        integrityProblems: [String], fullIntegrityCheck full: Bool, graph: CacheGraph,
        danglingReferences placed: [ReferenceLocation]? = nil, splitFrom: Int = 1 << 16
    ) {
        // The keys' own checks (case, unusable keys) and the reachability
        // check each go over every key: on a large cache, one runs beside the other.
        let keyChecks: @Sendable () -> ([[CacheKey]], [CacheKey]) = { (graph.caseInsensitiveDuplicates(), graph.unusableKeys()) }
        let ((caseDuplicates, unusableKeys), (dangling, unreached)) =
            graph.nodeCount >= splitFrom
            ? bothAtOnce(keyChecks, { (placed ?? graph.danglingReferences, graph.unreachedKeys()) })
            : (keyChecks(), (placed ?? graph.danglingReferences, graph.unreachedKeys()))
        self.init(
            recordCount: graph.recordCount, fullIntegrityCheck: full, integrityProblems: integrityProblems,
            roots: graph.rootNodes.map(graph.key),
            damagedRecords: graph.damagedRecords, keylessRowIDs: graph.keylessRowIDs, blobKeyRows: graph.blobKeyRows,
            danglingReferences: dangling, unreachableKeys: unreached.records, unreachedDamagedKeys: unreached.damaged,
            caseDuplicates: caseDuplicates, rowOrderBreak: graph.rowOrderBreak, duplicateKeyRows: graph.duplicateKeyRows,
            unusableKeys: unusableKeys, recordsApolloCannotRead: graph.recordsApolloCannotRead,
            typenamesApolloCannotRead: graph.typenamesApolloCannotRead)
        // Only a key beyond ASCII has another Unicode form.
        for reference in dangling where lookalikeRecords[reference.to] == nil && !reference.to.rawValue.utf8.allSatisfy({ $0 < 0x80 }) {
            let text = reference.to.rawValue
            for form in [text.precomposedStringWithCanonicalMapping, text.decomposedStringWithCanonicalMapping] {
                let key = CacheKey(form)
                if key != reference.to, graph.containsRecord(key) {
                    lookalikeRecords[reference.to] = key
                    break
                }
            }
        }
    }
}
