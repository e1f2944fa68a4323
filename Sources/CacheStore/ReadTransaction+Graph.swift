import Foundation
internal import GRDB

extension ReadTransaction {
    /// Reads the whole table once, in row order, and returns its
    /// ``CacheGraph``: keys, sizes, typenames, damaged rows and references.
    /// Each record's text is walked where SQLite holds it, for its
    /// references and `__typename`, and never decoded or kept.
    public func graph() throws -> CacheGraph {
        let db = try database()
        // The largest _id bounds the row count, from the end of the table's b-tree.
        let capacity = min(try Int.fetchOne(db, sql: "SELECT max(_id) FROM records") ?? 0, 50_000_000)
        var graph = CacheGraph(capacity: capacity + capacity / 8)
        let rows = try Row.fetchCursor(db, sql: "SELECT _id, key, record FROM records")
        var batch = ScanBatch()
        while let row = try rows.next() {
            let outcome = try row.withUnsafeData(atIndex: 1) { keyData -> RowOutcome in
                guard let keyData else { return .keyless }
                return try row.withUnsafeData(atIndex: 2) { data -> RowOutcome in
                    guard let data else { return .null }
                    batch.beginRow()
                    let isObject = data.withUnsafeBytes { raw in
                        let text = raw.bindMemory(to: UInt8.self)
                        return ReferenceScanner.scan(
                            inUTF8: text,
                            references: { field, target in
                                Self.withUnescaped(text, field) { field in
                                    Self.withUnescaped(text, target) { target in batch.addReference(field: field, target: target) }
                                }
                            },
                            typename: { range in Self.withUnescaped(text, range) { batch.setTypename($0) } })
                    }
                    guard isObject else {
                        batch.dropRow()
                        return .refused
                    }
                    keyData.withUnsafeBytes { batch.endRow(key: $0.bindMemory(to: UInt8.self), size: data.count) }
                    return .record
                }
            }
            if case .record = outcome {
                if batch.isFull { batch.flush(into: &graph) }
                continue
            }
            // A row that is not a plain record is handled on its own, in order.
            batch.flush(into: &graph)
            switch outcome {
            case .record:
                break
            case .keyless:
                graph.addKeylessRow(id: row[0])
            case .null:
                let node = try row.withUnsafeData(atIndex: 1) { key in
                    key!.withUnsafeBytes { graph.beginRecord(key: $0.bindMemory(to: UInt8.self), bytes: 0) }
                }
                graph.markDamaged(node, problem: .null)
            case .refused:
                // The scanner refused the text: decode it to say why, or, where
                // the decoder is more lenient than the scanner, to read it after all.
                // Decoded leniently: a BLOB that is not UTF-8 must not stop the pass.
                let (text, bytes) = try row.withUnsafeData(atIndex: 2) { data in
                    (String(decoding: data ?? Data(), as: UTF8.self), data?.count ?? 0)
                }
                let node = try row.withUnsafeData(atIndex: 1) { key in
                    key!.withUnsafeBytes { graph.beginRecord(key: $0.bindMemory(to: UInt8.self), bytes: bytes) }
                }
                do {
                    graph.replaceReferences(of: node, with: try Record(key: graph.key(node), jsonText: text))
                } catch CacheStoreError.damagedRecord(_, let problem) {
                    graph.markDamaged(node, problem: problem)
                }
            }
        }
        batch.flush(into: &graph)
        return graph
    }

    private enum RowOutcome {
        case record, keyless, null, refused
    }

    /// Calls `body` with the bytes of a JSON string's contents, unescaped
    /// when they hold an escape (rare in keys and field names).
    private static func withUnescaped<T>(
        _ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> T
    ) -> T {
        let slice = UnsafeBufferPointer(rebasing: text[range])
        guard slice.contains(UInt8(ascii: "\\")) else { return body(slice) }
        var decoded = ReferenceScanner.decodeString(text, range)
        return decoded.withUTF8(body)
    }

    /// SQLite's own check of the file: `PRAGMA quick_check`, or the slower
    /// `integrity_check` that also compares every index with its table.
    /// Returns the problems SQLite lists; empty when it says `ok`.
    public func sqliteIntegrityCheck(full: Bool) throws -> [String] {
        let lines = try String.fetchAll(try database(), sql: full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
        return lines == ["ok"] ? [] : lines
    }
}
