import Foundation
internal import GRDB

extension ReadTransaction {
    /// The references that point at any of `targets` from records that are
    /// not themselves in `targets` (what a removal of them leaves dangling),
    /// or from any record, them too, with `fromTargetsToo` (what points at
    /// a record, as `refs` lists it), ordered by the holding record's key,
    /// then field. `filter` narrows the records read to those whose text
    /// may hold such a reference; nil reads them all. `damaged` is called
    /// with each record whose text is not a JSON object but holds a target
    /// as a JSON string (`"Human:1000"`, `/` also as `\/`): a reference
    /// that cannot be read may be there.
    public func references(
        to targets: Set<CacheKey>, filter: ReferenceScanFilter? = nil, fromTargetsToo: Bool = false,
        damaged: ((CacheKey) -> Void)? = nil
    ) throws -> [ReferenceLocation] {
        var found: [(Int, ReferenceLocation)] = []
        try forEachReference(to: targets, filter: filter, fromTargetsToo: fromTargetsToo, damaged: damaged) { found.append((found.count, $0)) }
        found.sort { lhs, rhs in
            if lhs.1.from != rhs.1.from { return lhs.1.from < rhs.1.from }
            if lhs.1.field != rhs.1.field { return byteOrder(lhs.1.field, rhs.1.field) }
            return lhs.0 < rhs.0
        }
        return found.map(\.1)
    }

    /// Calls `body` with each reference to one of `targets` held by a record
    /// that is not itself in `targets` (any record with `fromTargetsToo`),
    /// in row order, streaming: memory does not grow with the number of
    /// references. After removing `targets` these are exactly the
    /// references the removal left dangling. `damaged`: as for
    /// ``references(to:filter:fromTargetsToo:damaged:)``.
    public func forEachReference(
        to targets: Set<CacheKey>, filter: ReferenceScanFilter? = nil, fromTargetsToo: Bool = false,
        damaged: ((CacheKey) -> Void)? = nil, _ body: (ReferenceLocation) throws -> Void
    ) throws {
        guard !targets.isEmpty else { return }
        let isTarget = { (key: String) in targets.contains(CacheKey(key)) }
        // A damaged record is searched for the targets' keys as JSON strings only when asked.
        let mentioned = damaged.map { damaged in
            let spellings = targets.flatMap { key in
                Set([key.rawValue, key.rawValue.replacingOccurrences(of: "/", with: "\\/")]).map { Array("\"\($0)\"".utf8) }
            }
            return { (key: CacheKey, text: UnsafeBufferPointer<UInt8>) in
                if spellings.contains(where: { text.firstRange(of: $0) != nil }) { damaged(key) }
            }
        }
        try scanReferences(
            filter: filter ?? .everything, skipping: fromTargetsToo ? { _ in false } : isTarget, isTarget: isTarget, damaged: mentioned, body)
    }

    /// Reads the records the filter lets through and reports their references
    /// to targets, finding them in the JSON text without decoding records.
    private func scanReferences(
        filter: ReferenceScanFilter, skipping: (String) -> Bool, isTarget: (String) -> Bool,
        damaged: ((CacheKey, UnsafeBufferPointer<UInt8>) -> Void)?,
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
            // The text as SQLite holds it, no copy into a String; as UTF-8
            // whatever the file's encoding (a UTF-16 file's bytes as they
            // are would hold no reference the scanner can see).
            let text = ReadTransaction.column(statement.sqliteStatement, 1) ?? UnsafeBufferPointer(start: nil, count: 0)
            var isObject = ReferenceScanner.references(inUTF8: text) { field, target in
                if isTarget(target) { pending.append(ReferenceLocation(from: from, field: field, to: CacheKey(target))) }
            }
            if !isObject {
                pending.removeAll(keepingCapacity: true)
                if let decoded = ReferenceScanner.decodedReferences(inUTF8: text) {
                    isObject = true
                    for (field, target) in decoded where isTarget(target) {
                        pending.append(ReferenceLocation(from: from, field: field, to: CacheKey(target)))
                    }
                }
            }
            // A damaged record (not a JSON object) holds no references, as when decoding.
            if isObject {
                for reference in pending { try body(reference) }
            } else {
                damaged?(from, text)
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
    /// Where in the field's value the reference sits (empty: the value is
    /// the reference); nil when not worked out (see
    /// ``ReadTransaction/placing(_:)``).
    public var path: [ValuePathStep]?

    public init(from: CacheKey, field: String, to: CacheKey, path: [ValuePathStep]? = nil) {
        self.from = from
        self.field = field
        self.to = to
        self.path = path
    }

    /// `friends[1]` when the path is known, else the field.
    public var location: String { field + (path ?? []).map(\.description).joined() }
}

extension ReadTransaction {
    /// The references with their paths in the holding records (`friends[1]`
    /// rather than `friends`), in the order given. The holding records are
    /// read again, 500 at a time; a reference whose record is gone or
    /// damaged, or no longer holds it there, is left without a path. Where a
    /// field holds the same key twice, the references given for it take its
    /// places in order.
    public func placing(_ references: [ReferenceLocation]) throws -> [ReferenceLocation] {
        var placed = references
        var indexesByHolder: [CacheKey: [Int]] = [:]
        for (index, reference) in references.enumerated() { indexesByHolder[reference.from, default: []].append(index) }
        let holders = Array(indexesByHolder.keys)
        for start in stride(from: 0, to: holders.count, by: 500) {
            let batch = Array(holders[start..<min(start + 500, holders.count)])
            let loaded = try records(for: batch)
            for holder in batch {
                guard case .success(let record)? = loaded[holder] else { continue }
                // Each place of the record, taken once, in order: a cursor per
                // field and target, as one record may hold a million references to one key.
                // Both compared by their bytes, as keys are: `P:é` and `P:e\u{301}` are two.
                struct Slot: Hashable {
                    let field: CacheKey
                    let target: CacheKey
                }
                var places: [Slot: [ReferencePath]] = [:]
                var taken: [Slot: Int] = [:]
                for path in record.referencePaths { places[Slot(field: CacheKey(path.field), target: path.target), default: []].append(path) }
                for index in indexesByHolder[holder] ?? [] {
                    let slot = Slot(field: CacheKey(references[index].field), target: references[index].to)
                    let position = taken[slot, default: 0]
                    guard let paths = places[slot], position < paths.count else { continue }
                    taken[slot] = position + 1
                    placed[index].path = paths[position].path
                }
            }
        }
        return placed
    }
}

