import Foundation

/// Finds the references in a record's JSON text without decoding the record:
/// a walk over the UTF-8 bytes that allocates only for the references it
/// reports. It agrees with decoding: an object with a string `$reference`
/// member is a reference, at any depth, whatever its other members (see
/// ``FieldValue/mixedReferenceTarget``), and the field is the top-level
/// member that holds it.
///
/// Returns false when the text is not a JSON object, or not valid JSON, or
/// holds what only the decoder reads right (a member name with an escape,
/// a name twice in one object, `$reference` among them, names beyond
/// ASCII, which Swift may take for one, or a number that may lie beyond a
/// Double); callers then decode the text
/// (``decodedReferences(inUTF8:)``) and treat the record as damaged only
/// when that fails too.
enum ReferenceScanner {
    static func references(in text: String, _ found: (_ field: String, _ target: String) -> Void) -> Bool {
        var text = text
        return text.withUTF8 { references(inUTF8: $0, found) }
    }

    /// The same over the UTF-8 bytes of the text, as SQLite hands them out.
    static func references(inUTF8 bytes: UnsafeBufferPointer<UInt8>, _ found: (_ field: String, _ target: String) -> Void) -> Bool {
        // A list field holds many references: its name is decoded once.
        var lastField: Range<Int>?
        var fieldName = ""
        return Scanner.withScanner(bytes) { scanner in scanner.scanRecord(
            { field, target, _ in
                if field != lastField {
                    lastField = field
                    fieldName = decodeString(bytes, field)
                }
                found(fieldName, decodeString(bytes, target))
            },
            typename: { _, _ in }, reportsTypename: false) }
    }

    /// The references decoding finds in a text the scanner refused, in the
    /// decoder's order; nil when decoding refuses it too (a damaged record).
    static func decodedReferences(inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> [(field: String, target: String)]? {
        guard let record = try? Record(key: "", utf8: bytes, fields: nil) else { return nil }
        return record.references.map { ($0.field, $0.key.rawValue) }
    }

    /// The references, and the top-level `__typename`, in one walk over
    /// the bytes, reported as the byte ranges between the quotes of the
    /// field name, the target key and the typename: still JSON-escaped
    /// (see ``decodeString(_:_:)``). `escaped` is false when no string read
    /// so far, these included, holds an escape: the ranges are then the
    /// strings' bytes as they are. A `__typename` that is not a string is
    /// reported as nil (its references, if it holds any, as references).
    static func scan(
        inUTF8 bytes: UnsafeBufferPointer<UInt8>,
        references found: (_ field: Range<Int>, _ target: Range<Int>, _ escaped: Bool) -> Void,
        typename: (_ name: Range<Int>?, _ escaped: Bool) -> Void
    ) -> Bool {
        Scanner.withScanner(bytes) { $0.scanRecord(found, typename: typename, reportsTypename: true) }
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
        /// Whether a string read so far holds a backslash escape.
        private(set) var sawEscape = false
        /// The member names of the objects being read, innermost last: room
        /// on the stack for a record's worth, no allocation per record.
        private let names: UnsafeMutableBufferPointer<Range<Int>>
        private var nameCount = 0
        /// Whether an object being read has a name beyond ASCII.
        private var sawWideName = false

        /// Runs `body` with a scanner over `bytes`.
        static func withScanner<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (inout Scanner) -> T) -> T {
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 1024) { names in
                var scanner = Scanner(bytes: bytes, names: names)
                return body(&scanner)
            }
        }

        /// Notes a member name of the object whose names begin at `start`;
        /// false where the decoder may read the object otherwise than the
        /// scan: a name given twice (the decoder keeps the last member,
        /// whose value may hold no reference where the first did), or more
        /// names in the objects being read than the room kept for them (1,024:
        /// a QUERY_ROOT may hold hundreds of fields, one per argument set).
        /// The decoder reads those.
        private mutating func noteName(_ name: Range<Int>, since start: Int) -> Bool {
            guard nameCount < names.count else { return false }
            if !sawWideName {
                for offset in name where bytes[offset] >= 0x80 {
                    sawWideName = true
                    break
                }
            }
            let base = bytes.baseAddress!
            var earlierIndex = start
            while earlierIndex < nameCount {
                let earlier = names[earlierIndex]
                if earlier.count == name.count, memcmp(base + earlier.lowerBound, base + name.lowerBound, name.count) == 0 { return false }
                earlierIndex &+= 1
            }
            names[nameCount] = name
            nameCount &+= 1
            return true
        }

        /// Ends the object whose names begin at `start`; false when two of
        /// them differ in their bytes but are one name to Swift, which
        /// compares strings by canonical equivalence (`café` composed and
        /// decomposed, `K` and the Kelvin sign): the decoder keeps one.
        /// Only an object with a name beyond ASCII can hold such a pair.
        private mutating func endObject(since start: Int) -> Bool {
            defer {
                nameCount = start
                sawWideName = false
            }
            guard sawWideName, nameCount - start > 1 else { return true }
            let decoded = names[start..<nameCount].map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
            return Set(decoded).count == decoded.count
        }

        private init(bytes: UnsafeBufferPointer<UInt8>, names: UnsafeMutableBufferPointer<Range<Int>>) {
            self.bytes = bytes
            self.names = names
        }

        mutating func scanRecord(
            _ found: (Range<Int>, Range<Int>, Bool) -> Void, typename: (Range<Int>?, Bool) -> Void, reportsTypename: Bool
        ) -> Bool {
            guard peek() == UInt8(ascii: "{") else { return false }
            index &+= 1
            if peek() == UInt8(ascii: "}") {
                index &+= 1
                return atEnd()
            }
            while true {
                guard let nameRange = scanStringRange(), expect(UInt8(ascii: ":")), !isEscapedName(nameRange), noteName(nameRange, since: 0)
                else { return false }
                if reportsTypename, isName(nameRange, "__typename"), peek() == UInt8(ascii: "\"") {
                    guard let value = scanStringRange() else { return false }
                    typename(value, sawEscape)
                } else if reportsTypename, isName(nameRange, "__typename") {
                    guard scanValue(depth: 1, { found(nameRange, $0, $1) }) else { return false }
                    typename(nil, sawEscape)
                } else {
                    guard scanValue(depth: 1, { found(nameRange, $0, $1) }) else { return false }
                }
                switch peek() {
                case UInt8(ascii: ","):
                    index &+= 1
                case UInt8(ascii: "}"):
                    index &+= 1
                    return endObject(since: 0) && atEnd()
                default:
                    return false
                }
            }
        }

        private mutating func atEnd() -> Bool { peek() == nil }

        /// Reports each reference target with whether a string read so far held an escape.
        private mutating func scanValue(depth: Int, _ found: (Range<Int>, Bool) -> Void) -> Bool {
            guard depth < JSONReader.maximumDepth else { return false }
            switch peek() {
            case UInt8(ascii: "\""):
                return scanStringRange() != nil
            case UInt8(ascii: "["):
                index &+= 1
                if peek() == UInt8(ascii: "]") {
                    index &+= 1
                    return true
                }
                while true {
                    guard scanValue(depth: depth + 1, found) else { return false }
                    switch peek() {
                    case UInt8(ascii: ","):
                        index &+= 1
                    case UInt8(ascii: "]"):
                        index &+= 1
                        return true
                    default:
                        return false
                    }
                }
            case UInt8(ascii: "{"):
                return scanObject(depth: depth, found)
            case UInt8(ascii: "t"):
                return consumeLiteral("true")
            case UInt8(ascii: "f"):
                return consumeLiteral("false")
            case UInt8(ascii: "n"):
                return consumeLiteral("null")
            case nil:
                return false
            default:
                return scanNumber()
            }
        }

        private mutating func scanObject(depth: Int, _ found: (Range<Int>, Bool) -> Void) -> Bool {
            index &+= 1  // "{"
            if peek() == UInt8(ascii: "}") {
                index &+= 1
                return true
            }
            var referenceTarget: Range<Int>?
            var nested: [Range<Int>] = []
            let start = nameCount
            let outerSawWideName = sawWideName
            sawWideName = false
            members: while true {
                guard let name = scanStringRange(), expect(UInt8(ascii: ":")), !isEscapedName(name), noteName(name, since: start)
                else { return false }
                if isReferenceName(name), peek() == UInt8(ascii: "\"") {
                    // Twice in one object, the decoder keeps the last: a
                    // reference the scanner would not see. Left to it.
                    guard referenceTarget == nil, let target = scanStringRange() else { return false }
                    referenceTarget = target
                } else {
                    guard scanValue(depth: depth + 1, { target, _ in nested.append(target) }) else { return false }
                }
                switch peek() {
                case UInt8(ascii: ","):
                    index &+= 1
                case UInt8(ascii: "}"):
                    index &+= 1
                    break members
                default:
                    return false
                }
            }
            guard endObject(since: start) else { return false }
            sawWideName = outerSawWideName
            // An object with a string $reference is one, whatever else it
            // holds: Apollo reads it back as a reference (mixedReferenceTarget).
            if let referenceTarget {
                found(referenceTarget, sawEscape)
            } else {
                for target in nested { found(target, sawEscape) }
            }
            return true
        }

        /// A JSON number, by the RFC 8259 grammar, as the decoder reads it.
        /// One that may lie beyond a Double (three exponent digits, or more
        /// than 200 integer digits) is refused too: the decoder tells
        /// whether it does, which makes the record one Apollo cannot read
        /// (``Record/numberApolloCannotRead``).
        private mutating func scanNumber() -> Bool {
            _ = consume(UInt8(ascii: "-"))
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            let integerDigits = consume(UInt8(ascii: "0")) ? 1 : skipDigits()
            if consume(UInt8(ascii: ".")) {
                guard skipDigits() > 0 else { return false }
            }
            var exponentDigits = 0
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                exponentDigits = skipDigits()
                guard exponentDigits > 0 else { return false }
            }
            return exponentDigits < 3 && integerDigits <= 200
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

        /// Whether a member name holds an escape. Names are compared as
        /// their bytes, and `"\u0024reference"` is `$reference` to the
        /// decoder: the scanner refuses such a text, which then goes to
        /// the decoder. (Apollo never escapes a name; with no escape read
        /// yet, nothing is searched.)
        private func isEscapedName(_ range: Range<Int>) -> Bool {
            sawEscape && UnsafeBufferPointer(rebasing: bytes[range]).contains(UInt8(ascii: "\\"))
        }

        private func isName(_ range: Range<Int>, _ name: StaticString) -> Bool {
            // Called for every member name: most differ in length or first byte.
            guard range.count == name.utf8CodeUnitCount, bytes[range.lowerBound] == name.utf8Start[0] else { return false }
            return memcmp(bytes.baseAddress! + range.lowerBound, name.utf8Start, range.count) == 0
        }

        /// Skips a string; returns the range between its quotes. Nil for a
        /// string the decoder would refuse (a control character, a bad escape).
        ///
        /// Inlined where it is called: most strings are plain and end within
        /// a few words, and the call would cost as much as reading them.
        /// The rest (escapes, control characters, the text's last seven
        /// bytes) go to ``scanStringRemainder(from:)``.
        @inline(__always)
        private mutating func scanStringRange() -> Range<Int>? {
            guard peek() == UInt8(ascii: "\"") else { return nil }
            index &+= 1
            let start = index
            skipPlainStringBytes()
            if index < bytes.count && bytes[index] == UInt8(ascii: "\"") {
                index &+= 1
                return start..<(index &- 1)
            }
            return scanStringRemainder(from: start)
        }

        /// The rest of a string begun at `start`, from `index`.
        private mutating func scanStringRemainder(from start: Int) -> Range<Int>? {
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
                    sawEscape = true
                    guard index + 1 < bytes.count else { return nil }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 2
                    case UInt8(ascii: "u"):
                        guard let unit = hexEscape(at: index) else { return nil }
                        index += 6
                        // A surrogate counts only as the first half of a pair
                        // followed by its second, as the decoder reads it.
                        if unit >= 0xD800 && unit < 0xE000 {
                            guard unit < 0xDC00, bytes.count > index, bytes[index] == UInt8(ascii: "\\"),
                                let low = hexEscape(at: index), low >= 0xDC00 && low < 0xE000
                            else { return nil }
                            index += 6
                        }
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
            while index &+ 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                let special = ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes) | ((word &- ones &* 0x20) & ~word)
                let flags = special & highs
                if flags != 0 {
                    // The lowest flag is exact (borrows only flag bytes above a real one).
                    index &+= flags.trailingZeroBitCount &>> 3
                    return
                }
                index &+= 8
            }
        }

        /// The code unit of the `\uXXXX` escape at `start` (its backslash).
        private func hexEscape(at start: Int) -> UInt32? {
            guard start + 6 <= bytes.count, bytes[start + 1] == UInt8(ascii: "u") else { return nil }
            var unit: UInt32 = 0
            for offset in 2..<6 {
                let byte = bytes[start + offset]
                guard isHexDigit(byte) else { return nil }
                unit = unit << 4 | UInt32(isDigit(byte) ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10)
            }
            return unit
        }

        private func isHexDigit(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
        }

        /// The next byte that is not whitespace, with `index` moved to it;
        /// nil at the end of the text. Apollo writes no whitespace between
        /// tokens: one comparison says so.
        @inline(__always)
        private mutating func peek() -> UInt8? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            return byte > 0x20 ? byte : peekAfterWhitespace()
        }

        private mutating func peekAfterWhitespace() -> UInt8? {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return bytes[index]
                }
            }
            return nil
        }

        /// Consumes `byte` when it is the next byte after any whitespace.
        @inline(__always)
        private mutating func expect(_ byte: UInt8) -> Bool {
            guard peek() == byte else { return false }
            index &+= 1
            return true
        }

        @inline(__always)
        private mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
    }
}
