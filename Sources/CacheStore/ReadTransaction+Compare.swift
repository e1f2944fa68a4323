import Foundation
internal import GRDB
internal import GRDBSQLite

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
        // Each file's errors name that file: both cursors step inside the
        // other store's transaction, whose errors name its own file. The
        // columns are read as UTF-8 whatever each file's encoding, in UTF-8
        // byte order, so a UTF-16 file compares with its UTF-8 copy.
        let left = try StoreErrors.mapping(path: path, waited: 0) {
            try database().makeStatement(sql: "SELECT key, record FROM records WHERE typeof(key) = 'text' \(try orderByKey())")
        }
        let right = try StoreErrors.mapping(path: other.path, waited: 0) {
            try other.database().makeStatement(sql: "SELECT key, record FROM records WHERE typeof(key) = 'text' \(try other.orderByKey())")
        }
        let a = left.sqliteStatement, b = right.sqliteStatement
        var leftOrder = KeyOrderCheck(path: path)
        var rightOrder = KeyOrderCheck(path: other.path)
        var counts = ComparisonCounts()
        /// Steps to the next row whose key is UTF-8, counting those passed over in `skipped`.
        func next(_ handle: OpaquePointer, _ order: inout KeyOrderCheck, _ path: String, _ skipped: inout Int) throws -> Bool {
            while try StoreErrors.mapping(path: path, waited: 0, { try Self.step(handle) }) {
                guard let key = Self.column(handle, 0) else { return true }
                try order.check(key)
                if Self.isUTF8(key) { return true }
                skipped += 1
            }
            return false
        }
        return try Self.stepping(a, binding: [CacheKey]()) {
            try Self.stepping(b, binding: [CacheKey]()) {
                var hasA = try next(a, &leftOrder, path, &counts.notUTF8KeysInFirst)
                var hasB = try next(b, &rightOrder, other.path, &counts.notUTF8KeysInSecond)
                while hasA || hasB {
                    let order: Int
                    if hasA && hasB {
                        order = Self.compareBytes(Self.column(a, 0), Self.column(b, 0))
                    } else {
                        order = hasA ? -1 : 1
                    }
                    if order < 0 {
                        let removed = StoredRecord(handle: a)
                        try body(RecordDifference(kind: .removed, key: removed.key, before: removed, after: nil))
                        counts.removed += 1
                        hasA = try next(a, &leftOrder, path, &counts.notUTF8KeysInFirst)
                    } else if order > 0 {
                        let added = StoredRecord(handle: b)
                        try body(RecordDifference(kind: .added, key: added.key, before: nil, after: added))
                        counts.added += 1
                        hasB = try next(b, &rightOrder, other.path, &counts.notUTF8KeysInSecond)
                    } else {
                        // The same text needs no decoding: the common case when a
                        // file is compared with its backup.
                        if Self.compareBytes(Self.column(a, 1), Self.column(b, 1)) == 0 {
                            counts.unchanged += 1
                        } else if let difference = RecordDifference.comparing(StoredRecord(handle: a), StoredRecord(handle: b)) {
                            try body(difference)
                            counts.changed += 1
                        } else {
                            counts.unchanged += 1
                        }
                        hasA = try next(a, &leftOrder, path, &counts.notUTF8KeysInFirst)
                        hasB = try next(b, &rightOrder, other.path, &counts.notUTF8KeysInSecond)
                    }
                }
                return counts
            }
        }
    }

    /// Byte order of two column values, as SQLite's BINARY collation
    /// sorts: negative, zero or positive. NULL sorts first.
    static func compareBytes(_ left: UnsafeBufferPointer<UInt8>?, _ right: UnsafeBufferPointer<UInt8>?) -> Int {
        switch (left, right) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case let (left?, right?):
            let common = min(left.count, right.count)
            let result = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
            if result != 0 { return Int(result) }
            return left.count - right.count
        }
    }
}

extension StoredRecord {
    /// The current row's key and text from every byte SQLite holds (a
    /// String column value stops at a NUL), as the other reads of a row take them.
    init(handle: OpaquePointer) {
        func text(_ index: Int32) -> String? { ReadTransaction.column(handle, index).map { String(decoding: $0, as: UTF8.self) } }
        self.init(key: CacheKey(text(0) ?? ""), text: text(1))
    }
}
