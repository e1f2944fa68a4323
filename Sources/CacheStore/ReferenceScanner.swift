import Foundation

/// Finds the references in a record's JSON text without decoding the record:
/// a walk over the UTF-8 bytes that allocates only for the references it
/// reports. It agrees with decoding: an object whose only member is a string
/// `$reference` is a reference, at any depth, and the field is the top-level
/// member that holds it.
///
/// Returns false when the text is not a JSON object, or not valid JSON;
/// callers then treat the record as damaged, as decoding would.
enum ReferenceScanner {
    static func references(in text: String, _ found: (_ field: String, _ target: String) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { references(inUTF8: $0, found) }
    }

    /// The same over the UTF-8 bytes of the text, as SQLite hands them out.
    static func references(inUTF8 bytes: UnsafeBufferPointer<UInt8>, _ found: (_ field: String, _ target: String) -> Void) -> Bool {
        var scanner = Scanner(bytes: bytes)
        // A list field holds many references: its name is decoded once.
        var lastField: Range<Int>?
        var fieldName = ""
        return scanner.scanRecord(
            { field, target in
                if field != lastField {
                    lastField = field
                    fieldName = decodeString(bytes, field)
                }
                found(fieldName, decodeString(bytes, target))
            },
            typename: { _ in }, reportsTypename: false)
    }

    /// The references, and the top-level `__typename` when it is a string,
    /// in one walk over the bytes, reported as the byte ranges between the
    /// quotes of the field name, the target key and the typename: still
    /// JSON-escaped (see ``decodeString(_:_:)``).
    static func scan(
        inUTF8 bytes: UnsafeBufferPointer<UInt8>, references found: (_ field: Range<Int>, _ target: Range<Int>) -> Void,
        typename: (Range<Int>) -> Void
    ) -> Bool {
        var scanner = Scanner(bytes: bytes)
        return scanner.scanRecord(found, typename: typename, reportsTypename: true)
    }

    /// The string between quotes, unescaped (through the full parser when
    /// it has escapes).
    static func decodeString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[range])
        if !slice.contains(UInt8(ascii: "\\")) { return String(decoding: slice, as: UTF8.self) }
        let quoted = "\"" + String(decoding: slice, as: UTF8.self) + "\""
        if case .string(let text)? = try? JSONReader.parseValue(quoted) { return text }
        return String(decoding: slice, as: UTF8.self)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func scanRecord(
            _ found: (Range<Int>, Range<Int>) -> Void, typename: (Range<Int>) -> Void, reportsTypename: Bool
        ) -> Bool {
            skipWhitespace()
            guard consume(UInt8(ascii: "{")) else { return false }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return atEnd() }
            while true {
                skipWhitespace()
                guard let nameRange = scanStringRange() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                if reportsTypename, isName(nameRange, "__typename"), index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    guard let value = scanStringRange() else { return false }
                    typename(value)
                    skipWhitespace()
                    if consume(UInt8(ascii: ",")) { continue }
                    guard consume(UInt8(ascii: "}")) else { return false }
                    return atEnd()
                }
                guard scanValue(depth: 1, { found(nameRange, $0) }) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "}")) else { return false }
                return atEnd()
            }
        }

        private mutating func atEnd() -> Bool {
            skipWhitespace()
            return index == bytes.count
        }

        private mutating func scanValue(depth: Int, _ found: (Range<Int>) -> Void) -> Bool {
            guard depth < 2000 else { return false }
            skipWhitespace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                return scanStringRange() != nil
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                if consume(UInt8(ascii: "]")) { return true }
                while true {
                    guard scanValue(depth: depth + 1, found) else { return false }
                    skipWhitespace()
                    if consume(UInt8(ascii: ",")) { continue }
                    return consume(UInt8(ascii: "]"))
                }
            case UInt8(ascii: "{"):
                return scanObject(depth: depth, found)
            case UInt8(ascii: "t"):
                return consumeLiteral("true")
            case UInt8(ascii: "f"):
                return consumeLiteral("false")
            case UInt8(ascii: "n"):
                return consumeLiteral("null")
            default:
                return scanNumber()
            }
        }

        private mutating func scanObject(depth: Int, _ found: (Range<Int>) -> Void) -> Bool {
            index += 1  // "{"
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            var members = 0
            var referenceTarget: Range<Int>?
            var nested: [Range<Int>] = []
            while true {
                skipWhitespace()
                guard let name = scanStringRange() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                members += 1
                if isReferenceName(name), index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                    guard let target = scanStringRange() else { return false }
                    referenceTarget = target
                } else {
                    guard scanValue(depth: depth + 1, { nested.append($0) }) else { return false }
                }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                guard consume(UInt8(ascii: "}")) else { return false }
                break
            }
            if members == 1, let referenceTarget {
                found(referenceTarget)
            } else {
                nested.forEach(found)
            }
            return true
        }

        /// A JSON number, by the RFC 8259 grammar, as the decoder reads it.
        private mutating func scanNumber() -> Bool {
            _ = consume(UInt8(ascii: "-"))
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            if !consume(UInt8(ascii: "0")) { skipDigits() }
            if consume(UInt8(ascii: ".")) {
                guard skipDigits() > 0 else { return false }
            }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                guard skipDigits() > 0 else { return false }
            }
            return true
        }

        private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        @discardableResult
        private mutating func skipDigits() -> Int {
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            return index - start
        }

        private mutating func consumeLiteral(_ literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
            index += count
            return true
        }

        private func isReferenceName(_ range: Range<Int>) -> Bool { isName(range, "$reference") }

        private func isName(_ range: Range<Int>, _ name: StaticString) -> Bool {
            // Called for every member name: most differ in length or first byte.
            guard range.count == name.utf8CodeUnitCount, bytes[range.lowerBound] == name.utf8Start[0] else { return false }
            return memcmp(bytes.baseAddress! + range.lowerBound, name.utf8Start, range.count) == 0
        }

        /// Skips a string; returns the range between its quotes. Nil for a
        /// string the decoder would refuse (a control character, a bad escape).
        private mutating func scanStringRange() -> Range<Int>? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                skipPlainStringBytes()
                guard index < bytes.count else { return nil }
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    let range = start..<index
                    index += 1
                    return range
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count else { return nil }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 2
                    case UInt8(ascii: "u"):
                        guard index + 6 <= bytes.count else { return nil }
                        for offset in 2..<6 where !isHexDigit(bytes[index + offset]) { return nil }
                        index += 6
                    default:
                        return nil
                    }
                default:
                    if byte < 0x20 { return nil }
                    index += 1
                }
            }
            return nil
        }

        /// Skips plain bytes, eight at a time, up to the first quote,
        /// backslash or control character (bytes of non-ASCII characters
        /// are plain); in the last seven bytes, it leaves the work to the
        /// caller.
        @inline(__always)
        private mutating func skipPlainStringBytes() {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                let special = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
                let flags = special & highs
                if flags != 0 {
                    // The lowest flag is exact (borrows only flag bytes above a real one).
                    index += flags.trailingZeroBitCount / 8
                    return
                }
                index += 8
            }
        }

        private func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
        }

        @inline(__always)
        private mutating func skipWhitespace() {
            // Apollo writes no whitespace: one comparison says so.
            while index < bytes.count, bytes[index] <= 0x20 {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        @inline(__always)
        private mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }
}
