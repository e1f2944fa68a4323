import CacheStore

extension CacheKey {
    /// The key for line-based text output: as it is, or JSON-quoted when it
    /// holds a control character (a newline would split it across lines).
    var display: String {
        // Control characters are single bytes in UTF-8, and no byte of a
        // longer character is below 0x80: the bytes say it, without decoding.
        rawValue.utf8.contains { $0 < 0x20 || $0 == 0x7F }
            ? JSONWriter.quoted(rawValue, escapingSlashes: false) : rawValue
    }
}
