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

    /// The decoded record, or the reason it cannot be decoded.
    public var result: Result<Record, CacheStoreError> {
        Result { try decoded() }.mapError { $0 as! CacheStoreError }
    }
}
