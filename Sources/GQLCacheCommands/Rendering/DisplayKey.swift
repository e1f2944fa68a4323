import CacheStore

extension CacheKey {
    /// The key for line-based text output: as it is, or JSON-quoted when it
    /// holds a control character (a newline would split it across lines).
    var display: String {
        rawValue.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
            ? JSONWriter.quoted(rawValue, escapingSlashes: false) : rawValue
    }
}
