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

    /// The decoded record, as Apollo would read it: also throws
    /// ``CacheStoreError/damagedRecord(key:problem:)`` with
    /// ``CacheStoreError/RecordProblem/numberApolloCannotRead(_:)`` when it
    /// holds a number too large for a Double.
    public func decodedAsApolloReads() throws -> Record { try decoded().loadableByApollo() }

    /// True when the text may hold a number beyond a Double: an exponent
    /// of three digits or more, or a run of more than 200 digits (see
    /// ``ReferenceScanner``), outside strings. One pass over the bytes, no
    /// decoding; text that is not JSON may make it true too.
    var mayHoldNumberBeyondADouble: Bool {
        guard var text else { return false }
        return text.withUTF8 { bytes in
            var digits = 0
            var index = 0
            var strings = JSONStringTracker()
            while index < bytes.count {
                let byte = bytes[index]
                let inString = strings.inString
                strings.take(byte)
                if inString {
                    // A hex id ("…3e123…") is no number.
                } else if byte == UInt8(ascii: "\"") {
                    digits = 0
                } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    digits += 1
                    if digits > 200 { return true }
                } else {
                    if (byte | 0x20) == UInt8(ascii: "e") && digits > 0 {
                        var next = index + 1
                        if next < bytes.count && (bytes[next] == UInt8(ascii: "+") || bytes[next] == UInt8(ascii: "-")) { next += 1 }
                        var exponentDigits = 0
                        while next < bytes.count && bytes[next] >= UInt8(ascii: "0") && bytes[next] <= UInt8(ascii: "9") {
                            exponentDigits += 1
                            next += 1
                        }
                        if exponentDigits >= 3 { return true }
                    }
                    digits = 0
                }
                index += 1
            }
            return false
        }
    }

    /// The decoded record, or the reason it cannot be decoded.
    public var result: Result<Record, CacheStoreError> {
        Result { try decoded() }.mapError { $0 as! CacheStoreError }
    }
}
