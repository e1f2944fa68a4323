import Foundation
internal import GRDB
internal import GRDBSQLite

extension ReadTransaction {
    /// Reads the whole table once, in row order, and returns its
    /// ``CacheGraph``: keys, sizes, typenames, damaged rows and references.
    /// Each record's text is walked where SQLite holds it, for its
    /// references and `__typename`, and never decoded or kept.
    public func graph() throws -> CacheGraph { try graph(scanning: .balanced) }

    /// Which thread scans the records' text while ``graph()`` reads the table.
    enum GraphScanning {
        /// The reading thread, but for the chunks of rows it hands over
        /// unscanned while the builder's thread is about to run out of work.
        case balanced
        /// Always the reading thread.
        case readingThread
        /// Always the builder's thread.
        case builderThread
    }

    /// The rows to reserve room for: at most the largest `_id`, a
    /// sixteenth of the file's bytes, or 50 million.
    static func graphCapacity(largestID: Int, fileBytes: Int) -> Int {
        max(0, min(largestID, fileBytes / 16, 50_000_000))
    }

    /// ``graph()``, with the scanning split as `scanning` says: whatever
    /// the split, the graph is the same.
    func graph(scanning: GraphScanning) throws -> CacheGraph {
        let db = try database()
        // The largest _id bounds the row count, from the end of the table's
        // b-tree; but ids only grow (legacy Apollo's INSERT OR REPLACE gives
        // a row a new one on every update), so a few rows may have an id in
        // the millions. The file's size bounds it too: no row takes less
        // than 16 bytes of it. Room is only reserved: everything grows.
        let largestID = try Int.fetchOne(db, sql: "SELECT max(_id) FROM records") ?? 0
        let pages = try pageStatistics()
        let capacity = Self.graphCapacity(largestID: largestID, fileBytes: pages.pageCount * pages.pageSize)
        // The key table is filled on a second thread while this one reads
        // and scans the records (GraphBuilder).
        let builder = GraphBuilder(capacity: capacity + capacity / 8)
        // The one loop over a million rows steps SQLite's statement itself:
        // GRDB's cursor and rows would wrap each column in a Data value.
        let statement = try db.makeStatement(sql: "SELECT _id, key, record FROM records")
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        // Not captured by a local function: closures that capture a variable
        // such a function also captures check each access at run time.
        var scanner = RowScanner()
        var raw = RawRows()
        // Whether the rows from here to the end of the chunk go unscanned:
        // decided where a chunk starts, as the steps must keep the rows' order.
        var handsOverRaw = false
        var previousID: Int64?
        var orderBreak: RowOrderBreak?
        do {
            while try Self.step(handle) {
                let id = sqlite3_column_int64(handle, 0)
                if let previousID, id <= previousID, orderBreak == nil { orderBreak = RowOrderBreak(previous: previousID, next: id) }
                previousID = id
                let keyIsBlob = sqlite3_column_type(handle, 1) == SQLITE_BLOB
                let key = Self.column(handle, 1)
                if keyIsBlob || key.map(Self.isUTF8) == false {
                    // Not a record (CacheGraph.blobKeyRows); sent after the
                    // rows before it, as every step keeps the rows' order.
                    if !raw.isEmpty {
                        builder.send(.rows(raw))
                        raw = RawRows()
                    }
                    scanner.flush(emit: builder.send)
                    builder.send(.blobKeyRow(id: id, key: key.map(Array.init) ?? [], isBlob: keyIsBlob))
                    continue
                }
                let text = Self.column(handle, 2)
                if scanner.isEmpty && raw.isEmpty {
                    switch scanning {
                    case .balanced: handsOverRaw = builder.wantsRawRows
                    case .readingThread: handsOverRaw = false
                    case .builderThread: handsOverRaw = true
                    }
                }
                if handsOverRaw, !RawRows.takes(text) {
                    // A large record is scanned where SQLite holds it, never
                    // copied: memory follows the keys, not the records.
                    if !raw.isEmpty {
                        builder.send(.rows(raw))
                        raw = RawRows()
                    }
                    handsOverRaw = false
                }
                if handsOverRaw {
                    raw.append(id: id, key: key, text: text)
                    if raw.isFull {
                        builder.send(.rows(raw))
                        raw = RawRows()
                    }
                } else {
                    scanner.add(id: id, key: key, text: text, emit: builder.send)
                }
            }
        } catch {
            _ = builder.finish()
            throw error
        }
        if !raw.isEmpty { builder.send(.rows(raw)) }
        scanner.flush(emit: builder.send)
        var graph = builder.finish()
        graph.path = path
        graph.rowOrderBreak = orderBreak
        return graph
    }

    /// SQLite's own check of the file: `PRAGMA quick_check`, or the slower
    /// `integrity_check` that also compares every index with its table.
    /// Returns the problems SQLite lists; empty when it says `ok`.
    public func sqliteIntegrityCheck(full: Bool) throws -> [String] {
        var lines: [String] = []
        let statement = try database().makeStatement(sql: full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
        // Reset, a statement that failed no longer fails the transaction's end.
        defer { sqlite3_reset(statement.sqliteStatement) }
        let cursor = try String.fetchCursor(statement)
        do {
            // A row may hold several findings, one a line, under a heading
            // that names the schema ("*** in database main ***").
            while let row = try cursor.next() {
                lines += row.split(separator: "\n").map(String.init).filter { !($0.hasPrefix("*** in database ") && $0.hasSuffix(" ***")) }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT && !lines.isEmpty {
            // SQLite lists what it found, then stops at a page it cannot read
            // at all: the list is the answer, and the stop one more finding.
            lines.append("the check stopped: \(error.message ?? "database disk image is malformed")")
        }
        return lines == ["ok"] ? [] : lines
    }
}
