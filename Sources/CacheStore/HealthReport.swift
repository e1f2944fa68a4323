/// Everything `doctor` checks, gathered in one read transaction: SQLite's
/// own check of the file, then one pass over the table.
public struct HealthReport: Sendable {
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
    /// References to keys without a record.
    public let danglingReferences: [ReferenceLocation]
    /// Records no root reaches, in key order.
    public let unreachableKeys: [CacheKey]
    /// Keys equal but for ASCII case.
    public let caseDuplicates: [[CacheKey]]

    /// How many problems were found.
    public var problemCount: Int {
        integrityProblems.count + damagedRecords.count + keylessRowIDs.count + danglingReferences.count
            + unreachableKeys.count + caseDuplicates.count
    }
}

extension ReadTransaction {
    /// Checks the file with SQLite (`quick_check`, or `integrity_check`
    /// when `full`) and the records with one pass over the table.
    public func healthReport(fullIntegrityCheck full: Bool) throws -> HealthReport {
        let integrity = try sqliteIntegrityCheck(full: full)
        let graph = try graph()
        return HealthReport(
            recordCount: graph.recordCount, fullIntegrityCheck: full, integrityProblems: integrity,
            roots: graph.rootNodes.map(graph.key),
            damagedRecords: graph.damagedRecords, keylessRowIDs: graph.keylessRowIDs,
            danglingReferences: graph.danglingReferences, unreachableKeys: graph.unreachableKeys(),
            caseDuplicates: graph.caseInsensitiveDuplicates())
    }
}
