import Foundation
internal import GRDB

extension ReadTransaction {
    /// Compares this cache (the first, "before") with `other` (the second,
    /// "after") and calls `body` with each record that was added, removed
    /// or changed, in key (byte) order.
    ///
    /// ```swift
    /// let counts = try old.read { a in try new.read { b in
    ///     try a.compare(with: b) { difference in print(difference.kind, difference.key) }
    /// } }
    /// ```
    ///
    /// A merge join: both tables are walked once, in key order, with one
    /// cursor each on their key index, so memory does not grow with the
    /// files. Rows with byte-identical text are not decoded. The two
    /// transactions must come from two stores (two connections), even for
    /// one file.
    @discardableResult
    public func compare(with other: ReadTransaction, _ body: (RecordDifference) throws -> Void) throws -> ComparisonCounts {
        let sql = "SELECT key, record FROM records WHERE typeof(key) = 'text' ORDER BY key"
        // Each file's errors name that file: both cursors step inside the
        // other store's transaction, whose errors name its own file.
        let left = try StoreErrors.mapping(path: path, waited: 0) { try Row.fetchCursor(try database(), sql: sql) }
        let right = try StoreErrors.mapping(path: other.path, waited: 0) { try Row.fetchCursor(try other.database(), sql: sql) }
        var leftOrder = KeyOrderCheck(path: path)
        var rightOrder = KeyOrderCheck(path: other.path)
        func nextLeft() throws -> Row? { try Self.checked(try StoreErrors.mapping(path: path, waited: 0) { try left.next() }, &leftOrder) }
        func nextRight() throws -> Row? { try Self.checked(try StoreErrors.mapping(path: other.path, waited: 0) { try right.next() }, &rightOrder) }
        var counts = ComparisonCounts()
        var a = try nextLeft()
        var b = try nextRight()
        while a != nil || b != nil {
            let order: Int
            if let a, let b {
                order = try ReadTransaction.compareBytes(a, b, column: 0)
            } else {
                order = a == nil ? 1 : -1
            }
            if order < 0 {
                let removed = StoredRecord(row: a!)
                try body(RecordDifference(kind: .removed, key: removed.key, before: removed, after: nil))
                counts.removed += 1
                a = try nextLeft()
            } else if order > 0 {
                let added = StoredRecord(row: b!)
                try body(RecordDifference(kind: .added, key: added.key, before: nil, after: added))
                counts.added += 1
                b = try nextRight()
            } else {
                // The same text needs no decoding: the common case when a
                // file is compared with its backup.
                if try ReadTransaction.compareBytes(a!, b!, column: 1) == 0 {
                    counts.unchanged += 1
                } else if let difference = RecordDifference.comparing(StoredRecord(row: a!), StoredRecord(row: b!)) {
                    try body(difference)
                    counts.changed += 1
                } else {
                    counts.unchanged += 1
                }
                a = try nextLeft()
                b = try nextRight()
            }
        }
        return counts
    }

    /// `row`, once its key is found above the one before (see ``KeyOrderCheck``).
    private static func checked(_ row: Row?, _ order: inout KeyOrderCheck) throws -> Row? {
        guard let row else { return nil }
        try row.withUnsafeData(atIndex: 0) { data in
            guard let data else { return }
            try data.withUnsafeBytes { try order.check($0.bindMemory(to: UInt8.self)) }
        }
        return row
    }

    /// Byte order of one column of two rows, as SQLite's BINARY collation
    /// sorts: negative, zero or positive. NULL sorts first.
    private static func compareBytes(_ a: Row, _ b: Row, column: Int) throws -> Int {
        try a.withUnsafeData(atIndex: column) { left in
            try b.withUnsafeData(atIndex: column) { right in
                switch (left, right) {
                case (nil, nil): return 0
                case (nil, _): return -1
                case (_, nil): return 1
                case let (left?, right?):
                    return left.withUnsafeBytes { l in
                        right.withUnsafeBytes { r in
                            let common = min(l.count, r.count)
                            let result = common == 0 ? 0 : memcmp(l.baseAddress!, r.baseAddress!, common)
                            if result != 0 { return Int(result) }
                            return l.count - r.count
                        }
                    }
                }
            }
        }
    }
}

extension StoredRecord {
    /// The row's key and text from every byte SQLite holds (a String
    /// column value stops at a NUL), as the other reads of a row take them.
    init(row: Row) {
        func text(_ index: Int) -> String? {
            (try? row.withUnsafeData(atIndex: index) { $0.map { String(decoding: $0, as: UTF8.self) } }) ?? nil
        }
        self.init(key: CacheKey(text(0) ?? ""), text: text(1))
    }
}
