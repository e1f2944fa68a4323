import Foundation

/// What the records themselves hold, as `info` shows it: how many of each
/// `__typename`, which are damaged, which are the largest. Worked out from
/// the graph's one pass over the table, so it says what ``CacheGraph``
/// (and so `doctor` and `stats`) says of every record.
public struct RecordCensus: Equatable, Sendable {
    /// Rows with a text key: the records.
    public let recordCount: Int
    /// Rows whose key is NULL: only a damaged file has them.
    public let keylessRowCount: Int
    /// Rows whose key is a BLOB, which no lookup by text finds
    /// (``CacheGraph/blobKeyRows``): only another program writes them.
    public let blobKeyRowCount: Int
    /// Records per `__typename`, most first (ties by name); records without
    /// a string `__typename` count under nil. Damaged records are left out.
    public let typeCounts: [TypenameCount]
    /// Records that cannot be decoded: NULL, not JSON, not a JSON object.
    public let damagedCount: Int
    /// The first damaged keys in key order, as many as were asked for.
    public let damagedKeys: [CacheKey]
    /// The largest records by the bytes of their JSON text, damaged ones
    /// too; ties in key order.
    public let largest: [RecordSize]
    /// Rows met out of `_id` order: the file is damaged, and the counts
    /// may be wrong (``CacheGraph/rowOrderBreak``).
    public let rowOrderBreak: RowOrderBreak?
}

extension ReadTransaction {
    /// The records' ``RecordCensus``, with the `largest` biggest records
    /// and the first `damagedKeys` damaged keys, from one pass over the
    /// table. Rows without a key or with a BLOB key are counted, but are no
    /// record.
    public func census(largest: Int, damagedKeys: Int) throws -> RecordCensus {
        try graph().census(largest: largest, damagedKeys: damagedKeys)
    }
}

extension CacheGraph {
    func census(largest limit: Int, damagedKeys keyLimit: Int) -> RecordCensus {
        let untyped = typenameTable.count
        var counts = [Int](repeating: 0, count: untyped + 1)
        var largest = TopRecords(limit: limit)
        for index in 0..<nodeCount where states[index] != .missing {
            let node = Int32(index)
            if states[index] == .record {
                counts[typenameOf[index] < 0 ? untyped : Int(typenameOf[index])] += 1
            }
            largest.offer((node, Int(sizes[index])), goesBefore: largerFirst)
        }
        var typeCounts: [TypenameCount] = []
        for (number, count) in counts.enumerated() where count > 0 {
            typeCounts.append(TypenameCount(typename: number == untyped ? nil : typenameTable.string(Int32(number)), count: count))
        }
        typeCounts.sort { ($0.count, $1.typename ?? "") > ($1.count, $0.typename ?? "") }
        let damaged = damagedRecords.map(\.key).sorted { byteOrder($0.rawValue, $1.rawValue) }
        return RecordCensus(
            recordCount: recordCount, keylessRowCount: keylessRowIDs.count, blobKeyRowCount: blobKeyRows.count, typeCounts: typeCounts, damagedCount: damagedRecords.count, damagedKeys: Array(damaged.prefix(keyLimit)),
            largest: largest.largest(largerFirst).map { RecordSize(key: key($0.node), bytes: $0.bytes) }, rowOrderBreak: rowOrderBreak)
    }
}
