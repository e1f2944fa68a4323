import Foundation

/// Numbers, kept as Int, Double or their own text where a Double would
/// change them.
extension JSONReader {
    mutating func parseNumber(converting: Bool = true) throws -> FieldValue {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw error("invalid number")
        }
        var integerDigits = 1
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            integerDigits = skipDigits()
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard skipDigits() > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        var exponentDigits = 0
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            exponentDigits = skipDigits()
            guard exponentDigits > 0 else { throw error("invalid number: digits expected in exponent") }
        }
        guard converting else {
            // Only these can lie beyond a Double (see ReferenceScanner); rare, so converted when met.
            if exponentDigits >= 3 || integerDigits > 200,
                let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)), !value.isFinite {
                skippedNumberBeyondADouble = true
            }
            return .null
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text) else {
            index = start
            throw error("invalid number")
        }
        // An integer beyond 64 bits, or a magnitude a Double cannot reach
        // (infinity, or 0 for a number that is not): kept as written.
        if isInteger || !value.isFinite || (value == 0 && text.utf8.contains { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") }) {
            // A zero with a nonzero exponent only: 0e5 is 0.
            if value == 0, let parsed = NumberText.value(of: text), parsed.digits.isEmpty { return .double(value) }
            return .number(text)
        }
        // More digits than a Double keeps (`19.990000000000000000001`): kept
        // as written, so that a merge into the record does not round a
        // field it was not asked to change. Up to 15 significant digits a
        // Double's shortest form always gives the literal's value back.
        // Seventeen digits that are the Double's exact 17-digit form
        // (`5.6430448000000002`, as older Foundation wrote 5.6430448) are
        // that Double: the same value, which Apollo reads as equal to it.
        let digits = Self.significantDigitCount(text)
        if digits > 15 && !NumberText.same(text, "\(value)") && (digits > 17 || !NumberText.same(text, Self.seventeenDigits(value))) {
            return .number(text)
        }
        return .double(value)
    }

    /// `value` with 17 significant digits (`%.17g`), through C's formatter:
    /// Foundation's String(format:) costs several times as much, and a
    /// cache an older Foundation wrote holds such a number in every Float.
    private static func seventeenDigits(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            let count = withVaList([value]) { vsnprintf(buffer.baseAddress!, 32, "%.17g", $0) }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(min(max(count, 0), 31))), as: UTF8.self)
        }
    }

    /// The digits of a number literal's mantissa, leading zeros aside.
    private static func significantDigitCount(_ text: String) -> Int {
        var count = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") || (byte == UInt8(ascii: "0") && count > 0) { count += 1 }
        }
        return count
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }
}
