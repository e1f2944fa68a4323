/// Exact comparison of JSON number literals, for the numbers
/// ``FieldValue/number(_:)`` keeps as text: `1e22`, `10e21` and
/// `10000000000000000000000` are one number; `18446744073709551615` and
/// `18446744073709551614` are two, although a Double holds neither.
enum NumberText {
    /// The literal's value as sign, significant digits (no leading or
    /// trailing zeros) and the power of ten of the last digit; zero is
    /// `(false, [], 0)` whatever its sign, as -0.0 == 0.0. Nil for text
    /// that is not a JSON number, or an exponent beyond an Int.
    static func value(of text: String) -> (negative: Bool, digits: [UInt8], exponent: Int)? {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var seenPoint = false
        while let byte = bytes.first, byte == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
            if seenPoint { exponent -= 1 }
        }
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            var powerText = bytes.dropFirst()
            if powerText.first == UInt8(ascii: "+") { powerText = powerText.dropFirst() }
            guard let power = Int(String(decoding: powerText, as: UTF8.self)) else { return nil }
            let (sum, overflow) = exponent.addingReportingOverflow(power)
            guard !overflow else { return nil }
            exponent = sum
        } else if !bytes.isEmpty {
            return nil
        }
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            exponent += 1
        }
        return digits.isEmpty ? (false, [], 0) : (negative, digits, exponent)
    }

    /// True when both literals are the same number, exactly.
    static func same(_ a: String, _ b: String) -> Bool {
        guard let left = value(of: a), let right = value(of: b) else { return a == b }
        return left.negative == right.negative && left.digits == right.digits && left.exponent == right.exponent
    }

    /// The exact decimal digits of a finite, whole Double (`2^64` is
    /// `18446744073709551616`), which its shortest form (`1.8446744073709552e+19`)
    /// does not give.
    static func wholeDigits(of number: Double) -> String {
        precondition(number.isFinite && number == number.rounded())
        if let exact = Int64(exactly: number) { return String(exact) }
        // number = significand × 2^exponent, the significand a whole number below 2^53.
        let exponent = Int(number.exponent) - Double.significandBitCount
        var digits: [UInt8] = Array(String(UInt64(number.magnitude / Double(sign: .plus, exponent: exponent, significand: 1))).utf8.reversed())
            .map { $0 - UInt8(ascii: "0") }
        for _ in 0..<max(exponent, 0) {
            var carry: UInt8 = 0
            for index in digits.indices {
                let doubled = digits[index] * 2 + carry
                digits[index] = doubled % 10
                carry = doubled / 10
            }
            if carry > 0 { digits.append(carry) }
        }
        return (number < 0 ? "-" : "") + String(decoding: digits.reversed().map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }
}
