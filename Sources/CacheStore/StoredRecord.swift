import Foundation

/// One row of `records` as it is stored: the key and the record column's
/// text, not yet decoded (nil when the column is NULL).
///
/// ```swift
/// try tx.forEachStoredRecord { stored in
///     let record = try stored.decoded()   // throws for a damaged row
/// }
/// ```
public struct StoredRecord: Hashable, Sendable {
    public let key: CacheKey
    /// The JSON text exactly as the file holds it.
    public let text: String?

    public init(key: CacheKey, text: String?) {
        self.key = key
        self.text = text
    }

    /// The decoded record. Throws ``CacheStoreError/damagedRecord(key:problem:)``
    /// when the text is NULL, not JSON, or not a JSON object.
    public func decoded() throws -> Record { try Record(key: key, jsonText: text) }

    /// True when the text holds a `\uD800`…`\uDFFF` escape: half of a
    /// surrogate pair, which SQLite's json_valid accepts and the decoder
    /// (as Foundation) refuses when it stands alone, so only decoding says
    /// whether the record is whole. Looks at each backslash, no more.
    var holdsSurrogateEscape: Bool {
        guard var text else { return false }
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return false }
            var index = 0
            // memchr: most records hold no backslash, and it finds that fast.
            while index < bytes.count, let hit = memchr(base + index, Int32(UInt8(ascii: "\\")), bytes.count - index) {
                let found = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                guard found + 3 < bytes.count else { return false }
                if bytes[found + 1] == UInt8(ascii: "u"), bytes[found + 2] | 0x20 == UInt8(ascii: "d"), bytes[found + 3] >= UInt8(ascii: "8") {
                    return true
                }
                // An escaped backslash is two bytes: the second starts nothing.
                index = found + 2
            }
            return false
        }
    }

    /// The decoded record, or the reason it cannot be decoded.
    public var result: Result<Record, CacheStoreError> {
        Result { try decoded() }.mapError { $0 as! CacheStoreError }
    }
}
