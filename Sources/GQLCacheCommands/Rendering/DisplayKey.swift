import CacheStore

extension CacheKey {
    /// The key for line-based text output: as it is, or JSON-quoted when it
    /// holds a control character (a newline would split it across lines),
    /// is empty (`""`, not a blank line), begins or ends with a space
    /// (which a line does not show), or itself begins with `"`. So a
    /// key shown as it is never begins with `"`, and one shown quoted
    /// always does: the key `""` (two quotes) shows `"\"\""`, never as the
    /// empty key, and a listing fed back to `rm` cannot name another record.
    var display: String {
        // Control characters are single bytes in UTF-8, and no byte of a
        // longer character is below 0x80: the bytes say it, without decoding.
        rawValue.isEmpty || rawValue.utf8.first == 0x22 || rawValue.utf8.first == 0x20 || rawValue.utf8.last == 0x20
            || rawValue.utf8.contains { $0 < 0x20 || $0 == 0x7F }
            ? JSONWriter.quoted(rawValue, asStored: false) : rawValue
    }

    /// The key in a one-line message (whose control characters the
    /// report escapes): cut to its first 120 characters when longer than
    /// 200, saying how long it is, so that a 100,000-character key typed
    /// by mistake does not fill the screen.
    var inMessage: String {
        guard rawValue.count > 200 else { return rawValue }
        return "\(rawValue.prefix(120))… (\(rawValue.count) characters)"
    }
}

extension BlobKeyRow {
    /// The BLOB key for text output: its text when its bytes are UTF-8,
    /// otherwise an SQL BLOB literal, `X'FF00'`, which is exact.
    var display: String { key?.display ?? "X'\(hex)' (not UTF-8)" }

    /// JSON members naming the key: `key`, its text or null when its bytes
    /// are not UTF-8, and `keyHex`, the bytes in hexadecimal.
    var jsonKeyMembers: [(String, JSONOutput)] {
        [("key", key.map { .string($0.rawValue) } ?? .null), ("keyHex", .string(hex))]
    }
}
