import Foundation

/// The key of one record in a normalized cache, such as `QUERY_ROOT`,
/// `Droid:2001` or `QUERY_ROOT.reviews(episode:JEDI,first:2).0`.
///
/// Keys are opaque, case-sensitive strings: nothing in them is escaped, so
/// ids and argument values may contain `.`, `(`, `)` and `,`. Parse them only
/// for display. Two keys are the same when their UTF-8 bytes are, as SQLite
/// compares them (`WHERE key IN (…)`): `Café:1` written with a composed `é`
/// and with `e` and a combining accent are two records, which Swift's
/// string equality would take for one.
public struct CacheKey: Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static func == (lhs: CacheKey, rhs: CacheKey) -> Bool {
        sameBytes(lhs.rawValue, rhs.rawValue)
    }

    public func hash(into hasher: inout Hasher) {
        var text = rawValue
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    public static func < (lhs: CacheKey, rhs: CacheKey) -> Bool {
        byteOrder(lhs.rawValue, rhs.rawValue)
    }

    public static let queryRoot: CacheKey = "QUERY_ROOT"
    public static let mutationRoot: CacheKey = "MUTATION_ROOT"
    public static let subscriptionRoot: CacheKey = "SUBSCRIPTION_ROOT"
    /// The three operation roots, in the order Apollo documents them.
    public static let roots: [CacheKey] = [.queryRoot, .mutationRoot, .subscriptionRoot]

    /// True for `QUERY_ROOT`, `MUTATION_ROOT` and `SUBSCRIPTION_ROOT`.
    public var isRoot: Bool { CacheKey.roots.contains(self) }
}

extension Array where Element == CacheKey {
    /// The keys without repeats, in their first places. Not `Array(Set(…))`:
    /// keys in a set's order, inserted into another set or dictionary,
    /// can land in one long run of its buckets when the new table's hash
    /// seed equals the old one's (Swift seeds a table with its storage's
    /// address, which malloc reuses), and each insert then probes the whole
    /// run: 300,000 keys took seconds instead of milliseconds.
    func uniqued() -> [CacheKey] {
        var seen = Set<CacheKey>(minimumCapacity: count)
        return filter { seen.insert($0).inserted }
    }
}

/// Whether two strings hold the same UTF-8 bytes (Swift's `==` also takes
/// canonically equivalent ones, `é` and `e` with a combining accent, for equal).
public func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
    let same = lhs.utf8.withContiguousStorageIfAvailable { left in
        rhs.utf8.withContiguousStorageIfAvailable { right in
            left.count == right.count && (left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
        }
    }
    if let same, let same { return same }
    return lhs.utf8.elementsEqual(rhs.utf8)
}

/// Byte order of UTF-8, as SQLite's BINARY collation sorts keys.
public func byteOrder(_ lhs: String, _ rhs: String) -> Bool {
    // Native strings hold contiguous UTF-8: compare it with memcmp.
    let ordered = lhs.utf8.withContiguousStorageIfAvailable { left in
        rhs.utf8.withContiguousStorageIfAvailable { right in
            let common = min(left.count, right.count)
            let result = common == 0 ? 0 : memcmp(left.baseAddress!, right.baseAddress!, common)
            return result != 0 ? result < 0 : left.count < right.count
        }
    }
    if let ordered, let ordered { return ordered }
    return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
}
