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
        while let row = try rows.next() {
            let outcome = try row.withUnsafeData(atIndex: 1) { keyData -> RowOutcome in
                guard let keyData else { return .keyless }
                return try keyData.withUnsafeBytes { rawKey in
                    let key = rawKey.bindMemory(to: UInt8.self)
                    return try row.withUnsafeData(atIndex: 2) { data -> RowOutcome in
                        guard let data else { return .null(graph.beginRecord(key: key, bytes: 0)) }
                        let node = graph.beginRecord(key: key, bytes: data.count)
                        let isObject = data.withUnsafeBytes { raw in
                            let text = raw.bindMemory(to: UInt8.self)
                            return ReferenceScanner.scan(
                                inUTF8: text,
                                references: { field, target in
                                    Self.withUnescaped(text, field) { field in
                                        Self.withUnescaped(text, target) { target in
                                            graph.addReference(from: node, field: field, target: target)
                                        }
                                    }
                                },
                                typename: { range in Self.withUnescaped(text, range) { graph.setTypename(of: node, $0) } })
                        }
                        return isObject ? .record : .refused(node)
                    }
                }
            }
            switch outcome {
            case .record:
                continue
            case .keyless:
                graph.addKeylessRow(id: row[0])
            case .null(let node):
                graph.markDamaged(node, problem: .null)
            case .refused(let node):
                // The scanner refused the text: decode it to say why, or, where
                // the decoder is more lenient than the scanner, to read it after all.
                do {
                    graph.replaceReferences(of: node, with: try Record(key: graph.key(node), jsonText: row[2]))
                } catch CacheStoreError.damagedRecord(_, let problem) {
                    graph.markDamaged(node, problem: problem)
                }
            }
        }
        return graph
    }

    private enum RowOutcome {
        case record, keyless, null(Int32), refused(Int32)
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
