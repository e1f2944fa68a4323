import Foundation
internal import GRDB

extension ReadTransaction {
    /// The references that point at any of `targets` from records that are
    /// not themselves in `targets`, ordered by the holding record's key, then
    /// field. `filter` narrows the records read to those whose text may hold
    /// such a reference; nil reads them all.
    public func references(to targets: Set<CacheKey>, filter: ReferenceScanFilter? = nil) throws -> [ReferenceLocation] {
        var found: [(Int, ReferenceLocation)] = []
        try forEachReference(to: targets, filter: filter) { found.append((found.count, $0)) }
        found.sort { lhs, rhs in
            if lhs.1.from != rhs.1.from { return lhs.1.from < rhs.1.from }
            if lhs.1.field != rhs.1.field { return byteOrder(lhs.1.field, rhs.1.field) }
            return lhs.0 < rhs.0
        }
        return found.map(\.1)
    }

    /// Calls `body` with each reference to one of `targets` held by a record
    /// that is not itself in `targets`, in row order, streaming: memory does
    /// not grow with the number of references. After removing `targets`
    /// these are exactly the references the removal left dangling.
    public func forEachReference(
        to targets: Set<CacheKey>, filter: ReferenceScanFilter? = nil, _ body: (ReferenceLocation) throws -> Void
    ) throws {
        guard !targets.isEmpty else { return }
        let isTarget = { (key: String) in targets.contains(CacheKey(key)) }
        try scanReferences(filter: filter ?? .everything, skipping: isTarget, isTarget: isTarget, body)
    }

    /// Reads the records the filter lets through and reports their references
    /// to targets, finding them in the JSON text without decoding records.
    private func scanReferences(
        filter: ReferenceScanFilter, skipping: (String) -> Bool, isTarget: (String) -> Bool,
        _ body: (ReferenceLocation) throws -> Void
    ) throws {
        let statement = try database().makeStatement(
            sql: "SELECT key, record FROM records WHERE typeof(key) = 'text' AND record IS NOT NULL AND \(filter.sql)")
        statement.arguments = StatementArguments(filter.arguments)
        let rows = try Row.fetchCursor(statement)
        var pending: [ReferenceLocation] = []
        while let row = try rows.next() {
            let key: String = row[0]
            guard !skipping(key) else { continue }
            let from = CacheKey(key)
            // The text as SQLite holds it: no copy into a String.
            let isObject = try row.withUnsafeData(atIndex: 1) { data in
                (data ?? Data()).withUnsafeBytes { raw in
                    let text = raw.bindMemory(to: UInt8.self)
                    if ReferenceScanner.references(inUTF8: text, { field, target in
                        if isTarget(target) { pending.append(ReferenceLocation(from: from, field: field, to: CacheKey(target))) }
                    }) {
                        return true
                    }
                    pending.removeAll(keepingCapacity: true)
                    guard let decoded = ReferenceScanner.decodedReferences(inUTF8: text) else { return false }
                    for (field, target) in decoded where isTarget(target) {
                        pending.append(ReferenceLocation(from: from, field: field, to: CacheKey(target)))
                    }
                    return true
                }
            }
            // A damaged record (not a JSON object) holds no references, as when decoding.
            if isObject {
                for reference in pending { try body(reference) }
            }
            pending.removeAll(keepingCapacity: true)
        }
    }
}

/// One reference: record `from` holds, in field `field`, a reference to `to`.
public struct ReferenceLocation: Hashable, Sendable {
    public let from: CacheKey
    public let field: String
    public let to: CacheKey

    public init(from: CacheKey, field: String, to: CacheKey) {
        self.from = from
        self.field = field
        self.to = to
    }
}

