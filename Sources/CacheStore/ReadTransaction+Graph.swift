import Foundation
internal import GRDB

extension ReadTransaction {
    /// Reads the whole table once, in row order, and returns its
    /// ``CacheGraph``: keys, sizes, typenames, damaged rows and references.
    /// Each record's text is walked where SQLite holds it, for its
    /// references and `__typename`, and never decoded or kept.
    public func graph() throws -> CacheGraph {
        var graph = CacheGraph()
        let rows = try Row.fetchCursor(try database(), sql: "SELECT _id, key, record FROM records")
        var references: [(field: String, target: String)] = []
        while let row = try rows.next() {
            guard let key: String = row[1] else {
                graph.addKeylessRow(id: row[0])
                continue
            }
            references.removeAll(keepingCapacity: true)
            var typename: String?
            let scanned: (bytes: Int, isObject: Bool)? = try row.withUnsafeData(atIndex: 2) { data in
                guard let data else { return nil }
                let isObject = data.withUnsafeBytes { raw in
                    ReferenceScanner.scan(
                        inUTF8: raw.bindMemory(to: UInt8.self),
                        references: { references.append(($0, $1)) },
                        typename: { typename = $0 })
                }
                return (data.count, isObject)
            }
            guard let scanned else {
                graph.addRecord(key: key, bytes: 0, typename: nil, references: [], problem: .null)
                continue
            }
            if scanned.isObject {
                graph.addRecord(key: key, bytes: scanned.bytes, typename: typename, references: references, problem: nil)
                continue
            }
            // The scanner refused the text: decode it to say why, or, where the
            // decoder is more lenient than the scanner, to read it after all.
            let text: String? = row[2]
            do {
                let record = try Record(key: CacheKey(key), jsonText: text)
                graph.addRecord(
                    key: key, bytes: scanned.bytes, typename: record.typename,
                    references: record.references.map { ($0.field, $0.key.rawValue) }, problem: nil)
            } catch CacheStoreError.damagedRecord(_, let problem) {
                graph.addRecord(key: key, bytes: scanned.bytes, typename: nil, references: [], problem: problem)
            }
        }
        return graph
    }

    /// SQLite's own check of the file: `PRAGMA quick_check`, or the slower
    /// `integrity_check` that also compares every index with its table.
    /// Returns the problems SQLite lists; empty when it says `ok`.
    public func sqliteIntegrityCheck(full: Bool) throws -> [String] {
        let lines = try String.fetchAll(try database(), sql: full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
        return lines == ["ok"] ? [] : lines
    }
}
