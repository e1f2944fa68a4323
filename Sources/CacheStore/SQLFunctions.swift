import Foundation
internal import GRDB

/// `gqlcache_typename(record)`: the record's top-level `__typename` when
/// it is a string, the last one where the text holds two; NULL for a
/// damaged record.
enum TypenameFunction {
    static let sqlName = "gqlcache_typename"
    private static let filter = JSONReader.MemberFilter(["__typename"])

    static func typename(of value: DatabaseValue) -> String? {
        let text: String
        switch value.storage {
        case .string(let string): text = string
        case .blob(let data): text = String(decoding: data, as: UTF8.self)
        default: return nil
        }
        var copy = text
        return copy.withUTF8 { bytes in (try? Record(key: "", utf8: bytes, fields: filter))?.typename }
    }
}

/// `gqlcache_too_deep(record)`: 1 when JSON text that SQLite's json_valid
/// accepts nests more than ``JSONReader/maximumDepth`` objects and arrays,
/// which Apollo's reader refuses. A record too short to nest so deep is
/// answered from its length alone.
enum NestingFunction {
    static let sqlName = "gqlcache_too_deep"

    /// Whether `bytes`, well-formed JSON, nests deeper than the limit.
    static func isTooDeep(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Each level takes an opening and a closing byte.
        guard bytes.count > 2 * JSONReader.maximumDepth else { return false }
        var depth = 0
        var inString = false, escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > JSONReader.maximumDepth { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }
}
