/// Finds the references in a record's JSON text without decoding the record:
/// a walk over the UTF-8 bytes that allocates only for the references it
/// reports. It agrees with decoding: an object whose only member is a string
/// `$reference` is a reference, at any depth, and the field is the top-level
/// member that holds it.
///
/// Returns nil when the text is not a JSON object; callers then treat the
/// record as damaged, as decoding would.
enum ReferenceScanner {
    static func references(in text: String, _ found: (_ field: String, _ target: String) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { references(inUTF8: $0, found) }
    }

    /// The same over the UTF-8 bytes of the text, as SQLite hands them out.
    static func references(inUTF8 bytes: UnsafeBufferPointer<UInt8>, _ found: (_ field: String, _ target: String) -> Void) -> Bool {
        var scanner = Scanner(bytes: bytes)
        return scanner.scanRecord(found)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func scanRecord(_ found: (String, String) -> Void) -> Bool {
            skipWhitespace()
            guard consume(UInt8(ascii: "{")) else { return false }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return atEnd() }
            while true {
                skipWhitespace()
                guard let nameRange = scanStringRange() else { return false }
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                var fieldName: String?
                let source = bytes
                let ok = scanValue(depth: 1) { target in
                    if fieldName == nil { fieldName = Scanner.decodeString(source, nameRange) }
                    found(fieldName!, target)
                }
                guard ok else { return false }
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

        private mutating func scanValue(depth: Int, _ found: (String) -> Void) -> Bool {
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
            default:
                // A number or a literal: its characters up to a delimiter.
                let start = index
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x0A, 0x0D, 0x09: break
                    default: index += 1; continue
                    }
                    break
                }
                return index > start
            }
        }

        private mutating func scanObject(depth: Int, _ found: (String) -> Void) -> Bool {
            index += 1  // "{"
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            var members = 0
            var referenceTarget: Range<Int>?
            var nested: [String] = []
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
                found(Scanner.decodeString(bytes, referenceTarget))
            } else {
                nested.forEach(found)
            }
            return true
        }

        private func isReferenceName(_ range: Range<Int>) -> Bool {
            let name: StaticString = "$reference"
            guard range.count == name.utf8CodeUnitCount else { return false }
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != name.utf8Start[offset] {
                return false
            }
            return true
        }

        /// Skips a string; returns the range between its quotes.
        private mutating func scanStringRange() -> Range<Int>? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    let range = start..<index
                    index += 1
                    return range
                case UInt8(ascii: "\\"):
                    index += 2
                default:
                    index += 1
                }
            }
            return nil
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

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }
}
