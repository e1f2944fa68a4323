import XCTest

@testable import CacheStore

/// The reference scanner reads references out of record text without
/// decoding; it must find exactly what decoding finds.
final class ReferenceScannerTests: XCTestCase {
    private func scanned(_ text: String) -> (isObject: Bool, references: [String]) {
        var found: [String] = []
        let isObject = ReferenceScanner.references(in: text) { field, target in found.append("\(field) → \(target)") }
        return (isObject, found.sorted())
    }

    private func decoded(_ text: String) throws -> [String] {
        try Record(key: "X", jsonText: text).references.map { "\($0.field) → \($0.key.rawValue)" }.sorted()
    }

    func testScannerFindsWhatDecodingFindsInEveryFixtureRecord() throws {
        let rows = try SQLiteShell.lines(Fixtures.starwars.path, "SELECT record FROM records")
        XCTAssertEqual(rows.count, 10)
        var total = 0
        for text in rows {
            let result = scanned(text)
            XCTAssertTrue(result.isObject, text)
            XCTAssertEqual(result.references, try decoded(text), text)
            total += result.references.count
        }
        XCTAssertEqual(total, 12, "references in starwars.sqlite")
    }

    func testScannerAgreesWithDecodingOnAwkwardRecords() throws {
        let texts = [
            #"{"a":{"$reference":"K:1"},"b":[[{"$reference":"K:2"},null],[]],"c":"{\"$reference\":\"no\"}"}"#,
            #"{ "spaced" : { "$reference" : "K:3" } , "n" : -1.5e3 , "t" : true , "z" : null }"#,
            #"{"custom":{"$reference":"not-a-ref","extra":1},"nested":{"inner":{"$reference":"K:4"}}}"#,
            #"{"number":{"$reference":12},"escaped":{"$reference":"Odd:\"q\"\/\u00e9\\x"}}"#,
            #"{"empty":{},"list":[],"s":"]}\"["}"#,
            "{}",
        ]
        for text in texts {
            let result = scanned(text)
            XCTAssertTrue(result.isObject, text)
            XCTAssertEqual(result.references, try decoded(text), text)
        }
    }

    /// A name given twice in one object, or two names Swift takes for one
    /// (composed and decomposed `é`, `K` and the Kelvin sign): the decoder
    /// keeps the last member, which may hold no reference where the first
    /// did, so the scanner leaves such texts to it, and what the callers
    /// read (``ReferenceScanner/decodedReferences(inUTF8:)``) is what
    /// decoding reads. Names beyond ASCII that differ are scanned as usual.
    func testNamesTheDecoderTakesForOneAreLeftToIt() throws {
        let texts = [
            #"{"friends":{"$reference":"Gone:1"},"friends":{"$reference":"Human:1000"}}"#,
            #"{"meta":{"a":{"$reference":"Gone:2"},"a":1},"n":1}"#,
            "{\"caf\u{E9}\":{\"$reference\":\"Gone:3\"},\"cafe\u{301}\":2}",
            "{\"K\":{\"$reference\":\"Gone:4\"},\"\u{212A}\":2}",
        ]
        for text in texts {
            XCTAssertFalse(scanned(text).isObject, text)
            var utf8 = text
            let references = utf8.withUTF8 { ReferenceScanner.decodedReferences(inUTF8: $0) }
            XCTAssertEqual(references?.map { "\($0.field) → \($0.target)" }, try decoded(text), text)
            XCTAssertFalse(references?.contains { $0.target.hasPrefix("Gone:") } ?? true, "the shadowed member's reference: \(text)")
        }
        let distinct = "{\"caf\u{E9}\":{\"$reference\":\"K:1\"},\"na\u{EF}ve\":2,\"plain\":3}"
        XCTAssertTrue(scanned(distinct).isObject)
        XCTAssertEqual(scanned(distinct).references, try decoded(distinct))
    }

    /// A number that may lie beyond a Double goes to the decoder, which
    /// tells whether Apollo can read the record
    /// (``Record/numberApolloCannotRead``); the usual numbers are scanned.
    func testNumbersThatMayBeBeyondADoubleAreLeftToTheDecoder() throws {
        let digits201 = String(repeating: "9", count: 201)
        for number in ["1e400", "-1.8e308", "1E-400", "0.5e100", digits201] {
            let text = #"{"a":{"$reference":"K:1"},"n":[1,{"x":"# + number + "}]}"
            XCTAssertFalse(scanned(text).isObject, number)
            var utf8 = text
            XCTAssertEqual(utf8.withUTF8 { ReferenceScanner.decodedReferences(inUTF8: $0) }?.map(\.target), ["K:1"], number)
        }
        for number in ["1e99", "-1.5e-30", "12345678901234567890", "0.25", String(repeating: "9", count: 200)] {
            let text = #"{"a":{"$reference":"K:1"},"n":"# + number + "}"
            XCTAssertEqual(scanned(text).references, ["a → K:1"], number)
        }
    }

    func testTextThatIsNotAJSONObjectIsReportedAsSuch() {
        for text in [#"{"r":{"$reference":"K:1"}"#, "[1,2]", "", #""text""#, #"{"a":1} trailing"#, #"{"a":}"#] {
            XCTAssertFalse(scanned(text).isObject, text)
        }
    }

    func testStreamedReferencesToATargetSetSkipTheTargetsThemselves() throws {
        let directory = try TemporaryDirectory(self)
        let store = try CacheStore.open(at: try directory.copy(Fixtures.starwars))
        var found: [ReferenceLocation] = []
        try store.read { tx in
            let filter = ReferenceScanFilter.containing(keys: ["Human:1000", "Human:1002"])
            try tx.forEachReference(to: ["Human:1000", "Human:1002"], filter: filter) { found.append($0) }
        }
        XCTAssertEqual(Set(found), [
            ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1000"),
            ReferenceLocation(from: "Droid:2001", field: "friends", to: "Human:1002"),
            ReferenceLocation(from: "Droid:2001.friendsConnection(after:null,first:2)", field: "friends", to: "Human:1000"),
            ReferenceLocation(from: "QUERY_ROOT", field: "human(id:1000)", to: "Human:1000"),
            ReferenceLocation(from: "QUERY_ROOT", field: "search([filter:limit:2,[near:lat:1.5,lng:-2.0],tags:[a, b],text:sky])", to: "Human:1000"),
        ])
        XCTAssertEqual(found.count, 5)
    }
}

/// The scanner refuses exactly the texts the decoder refuses, so that a
/// pass over the table that trusts the scanner reports the damaged records
/// that decoding would.
final class ReferenceScannerValidityTests: XCTestCase {
    func testScannerRefusesTheInvalidJSONTheDecoderRefuses() {
        let texts = [
            #"{"a": tru}"#, #"{"a": nul}"#, #"{"a": 01}"#, #"{"a": 1.}"#, #"{"a": -}"#, #"{"a": 1e}"#, #"{"a": .5}"#,
            #"{"a": "\x"}"#, #"{"a": "\u12G4"}"#, "{\"a\": \"tab\there\"}", #"{"a": +1}"#, #"{"a": [1,]}"#,
            #"{"a": "x"#, #"{"a" 1}"#, #"{"a": truex}"#,
        ]
        for text in texts {
            XCTAssertFalse(ReferenceScanner.references(in: text) { _, _ in }, text)
            XCTAssertThrowsError(try Record(key: "X", jsonText: text), text)
        }
    }

    func testScannerAcceptsTheNumbersLiteralsAndEscapesTheDecoderAccepts() throws {
        let texts = [
            #"{"a": 0, "b": -0.5, "c": 1E+9, "d": 2e-3, "e": 123}"#, #"{"t": true, "f": false, "n": null}"#,
            #"{"s": "\" \\ \/ \b \f \n \r \t \u00E9 \uD83D\uDE00"}"#,
        ]
        for text in texts {
            XCTAssertTrue(ReferenceScanner.references(in: text) { _, _ in }, text)
            XCTAssertNoThrow(try Record(key: "X", jsonText: text), text)
        }
    }

    func testStringsAreReadTheSameWhereverTheirSpecialBytesFallInAWord() throws {
        // The scanner skips eight plain bytes at a time: put the quote, an
        // escape, a control character and non-ASCII text at every offset.
        for offset in 0..<24 {
            let pad = String(repeating: "a", count: offset)
            let good = [
                #"{"k\#(pad)":{"$reference":"K:\#(pad)"}}"#,
                #"{"k":{"$reference":"\#(pad)\"q\"\#(pad)"},"s":"\#(pad)é\\\#(pad)\u00e9"}"#,
            ]
            for text in good {
                var found: [String] = []
                XCTAssertTrue(ReferenceScanner.references(in: text) { found.append("\($0) → \($1)") }, text)
                XCTAssertEqual(found, try Record(key: "X", jsonText: text).references.map { "\($0.field) → \($0.key.rawValue)" }, text)
            }
            for bad in ["{\"k\":\"\(pad)\u{01}\"}", #"{"k":"\#(pad)\q"}"#, #"{"k":"\#(pad)"#] {
                XCTAssertFalse(ReferenceScanner.references(in: bad) { _, _ in }, bad)
                XCTAssertThrowsError(try Record(key: "X", jsonText: bad), bad)
            }
        }
    }

    /// What `scan` reports of `text`: whether it took it, the typenames
    /// (nil for one that is not a string) and the references.
    private func scanned(_ text: String) -> (ok: Bool, names: [String?], references: [String]) {
        var names: [String?] = []
        var references: [String] = []
        var copy = text
        let ok = copy.withUTF8 { bytes in
            ReferenceScanner.scan(
                inUTF8: bytes,
                references: { field, target, _ in
                    references.append("\(ReferenceScanner.decodeString(bytes, field)) → \(ReferenceScanner.decodeString(bytes, target))")
                },
                typename: { name, _ in names.append(name.map { ReferenceScanner.decodeString(bytes, $0) }) })
        }
        return (ok, names, references)
    }

    func testScanReportsTheTopLevelTypenameOnly() {
        let result = scanned(#"{"nested":{"__typename":"Inner"},"__typename":"Outer","friend":{"$reference":"K:1"}}"#)
        XCTAssertTrue(result.ok)
        XCTAssertEqual(result.names, ["Outer"])
        XCTAssertEqual(result.references, ["friend → K:1"])
    }

    /// A `__typename` that is null, or a list holding a reference, is
    /// reported as no string; the reference inside still counts.
    func testScanReportsATypenameThatIsNotAStringWithItsReferences() {
        for (text, expected) in [
            (#"{"__typename":null,"a":1}"#, [String]()),
            (#"{"__typename":[{"$reference":"K:1"}]}"#, ["__typename → K:1"]),
        ] {
            let result = scanned(text)
            XCTAssertTrue(result.ok, text)
            XCTAssertEqual(result.names, [nil], text)
            XCTAssertEqual(result.references, expected, text)
        }
    }
}

/// Thousands of generated texts, whole and damaged, read by the scanner and
/// by the decoder: where the scanner accepts a text, the decoder reads the
/// same references and typename from it, and where the decoder refuses a
/// text, so does the scanner.
final class ReferenceScannerGeneratedTextTests: XCTestCase {
    /// A small deterministic generator (the same texts on every run).
    private struct Generator {
        var state: UInt64
        /// Whether the text last made has a member name with an escape,
        /// `$reference` twice in an object, or a number with three exponent
        /// digits: texts the scanner leaves to the decoder.
        var leftToDecoder = false

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func chance(_ percent: Int) -> Bool { next(100) < percent }

        mutating func space() -> String {
            guard chance(15) else { return "" }
            return [" ", "\n", "\t", "\r", "  "][next(5)]
        }

        mutating func string() -> String {
            let pieces = [
                "a", "User:", "42", "é", "😀", "\\\"", "\\\\", "\\/", "\\n", "\\u00e9", "\\uD83D\\uDE00", " ", "x.y", "$",
                "(first:10)", "abcdefgh",
            ]
            var text = ""
            for _ in 0..<next(6) { text += pieces[next(pieces.count)] }
            return "\"" + text + "\""
        }

        mutating func name() -> String {
            let name: String
            switch next(12) {
            case 0, 1: name = "\"$reference\""
            case 2: name = "\"__typename\""
            case 3: name = ["\"\\u0024reference\"", "\"\\u005f_typename\""][next(2)]
            case 4, 5: name = string()
            default:
                // Plain names, as Apollo writes them, mostly.
                let plain = ["id", "a", "author", "posts(first:2)", "é", "user(id:1)", "b", "x.y", "😀", "c"]
                name = "\"" + plain[next(plain.count)] + (chance(50) ? String(next(100)) : "") + "\""
            }
            if name.contains("\\") { leftToDecoder = true }
            return name
        }

        mutating func value(depth: Int) -> String {
            switch depth > 3 ? next(5) : next(8) {
            case 0: return string()
            case 1:
                // A number that may be beyond a Double (three exponent digits) the decoder checks.
                if chance(3) {
                    leftToDecoder = true
                    return ["1e400", "-2.5E+308", "1e-400", "7e100"][next(4)]
                }
                return ["0", "-1", "12.5", "3e7", "-0.25E-3", "9007199254740993"][next(6)]
            case 2: return ["true", "false", "null"][next(3)]
            case 3:
                if chance(10) {
                    leftToDecoder = true
                    return "{\"$reference\":" + string() + "," + space() + "\"$reference\":" + string() + "}"
                }
                return "{" + space() + "\"$reference\"" + space() + ":" + space() + string() + space() + "}"
            case 4: return string()
            case 5, 6: return object(depth: depth + 1)
            default:
                let count = next(4)
                return "[" + space() + (0..<count).map { _ in value(depth: depth + 1) }.joined(separator: space() + "," + space()) + space() + "]"
            }
        }

        /// Member names are distinct once decoded ("é" and "\u00e9" are
        /// the same name): with a name twice, which member counts is the
        /// decoder's choice, not something to compare.
        mutating func object(depth: Int) -> String {
            var names: Set<String> = []
            var members: [String] = []
            for _ in 0..<next(5) {
                let name = name()
                guard case .string(let decoded)? = try? JSONReader.parseValue(name), names.insert(decoded).inserted else { continue }
                members.append(name + space() + ":" + space() + value(depth: depth))
            }
            return "{" + space() + members.joined(separator: space() + "," + space()) + space() + "}"
        }

        /// Damage that keeps the text valid UTF-8: ASCII bytes only are
        /// taken out, put in or replaced, between characters.
        mutating func damage(_ bytes: inout [UInt8]) {
            let inserted = Array("\"\\{}[],: \u{01}a0-.eEu".utf8)
            for _ in 0..<(1 + next(2)) {
                guard !bytes.isEmpty else { return }
                let at = next(bytes.count)
                guard bytes[at] & 0xC0 != 0x80 else { continue }
                switch next(4) {
                case 0: if bytes[at] < 0x80 { bytes.remove(at: at) }
                case 1: bytes.insert(inserted[next(inserted.count)], at: at)
                case 2: if bytes[at] < 0x80 { bytes[at] = inserted[next(inserted.count)] }
                default: bytes.removeLast(bytes.count - at)
                }
            }
        }
    }

    private struct Scanned: Equatable {
        var references: [String] = []
        var typename: String?
        var typenameIsNotAString = false
    }

    /// What the scanner reads, or nil when it refuses the text. Checks on
    /// the way that a string reported as unescaped reads as its bytes.
    private func scan(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Scanned? {
        var result = Scanned()
        let accepted = bytes.withUnsafeBufferPointer { buffer in
            ReferenceScanner.scan(
                inUTF8: buffer,
                references: { field, target, escaped in
                    let decodedField = ReferenceScanner.decodeString(buffer, field)
                    let decodedTarget = ReferenceScanner.decodeString(buffer, target)
                    if !escaped {
                        XCTAssertEqual(Array(buffer[field]), Array(decodedField.utf8), file: file, line: line)
                        XCTAssertEqual(Array(buffer[target]), Array(decodedTarget.utf8), file: file, line: line)
                    }
                    result.references.append("\(decodedField) → \(decodedTarget)")
                },
                typename: { name, escaped in
                    guard let name else { return result.typenameIsNotAString = true }
                    let decoded = ReferenceScanner.decodeString(buffer, name)
                    if !escaped { XCTAssertEqual(Array(buffer[name]), Array(decoded.utf8), file: file, line: line) }
                    result.typename = decoded
                })
        }
        return accepted ? result : nil
    }

    private func decode(_ bytes: [UInt8]) -> Scanned? {
        guard let record = try? bytes.withUnsafeBufferPointer({ try Record(key: "X", utf8: $0, fields: nil) }) else { return nil }
        return Scanned(
            references: record.references.map { "\($0.field) → \($0.key.rawValue)" }, typename: record.typename,
            typenameIsNotAString: record.fields["__typename"].map { if case .string = $0 { false } else { true } } ?? false)
    }

    /// Whether an object in this JSON text (one the decoder reads) has two
    /// members whose names are one Swift string.
    private static func repeatsAName(_ bytes: [UInt8]) -> Bool {
        var objects: [Set<String>?] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): objects.append([])
            case UInt8(ascii: "["): objects.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): objects.removeLast()
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while bytes[index] != UInt8(ascii: "\"") { index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1 }
                var after = index + 1
                while after < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[after]) { after += 1 }
                if after < bytes.count, bytes[after] == UInt8(ascii: ":"), objects.last != nil,
                    case .string(let name)? = try? JSONReader.parseValue(String(decoding: bytes[start...index], as: UTF8.self)),
                    objects[objects.count - 1]?.insert(name).inserted == false
                {
                    return true
                }
            default: break
            }
            index += 1
        }
        return false
    }

    func testScannerAndDecoderAgreeOnGeneratedTextsWholeAndDamaged() {
        var generator = Generator(state: 0x5EED)
        var accepted = 0
        var refused = 0
        var leftToDecoder = 0
        for round in 0..<6000 {
            generator.leftToDecoder = false
            var bytes = Array(generator.object(depth: 0).utf8)
            if round % 2 == 1 { generator.damage(&bytes) }
            let text = String(decoding: bytes, as: UTF8.self)
            let scanned = scan(bytes)
            let decoded = decode(bytes)
            if let scanned {
                accepted += 1
                guard var decoded else { return XCTFail("the scanner accepts what the decoder refuses: \(text)") }
                // The decoder's references come in field order; the scanner's in text order.
                decoded.references.sort()
                var sorted = scanned
                sorted.references.sort()
                XCTAssertEqual(sorted, decoded, text)
            } else {
                refused += 1
                guard let decoded else { continue }
                // Refused, the text goes to the decoder (decodedReferences): fine
                // for what the scanner leaves to it, a lost speed-up otherwise.
                // (Damage may put a backslash into a name, make two names one, or
                // an exponent of many digits out of a long integer.)
                let damagedAlike = round % 2 == 1
                    && (text.contains("\\") || Self.repeatsAName(bytes) || text.contains(#/[eE][+-]?[0-9]{3}/#))
                XCTAssertTrue(generator.leftToDecoder || damagedAlike, "the scanner refuses what the decoder reads: \(text)")
                let references = bytes.withUnsafeBufferPointer { ReferenceScanner.decodedReferences(inUTF8: $0) }
                XCTAssertEqual(references?.map { "\($0.field) → \($0.target)" }.sorted(), decoded.references.sorted(), text)
                leftToDecoder += 1
            }
        }
        // Both kinds were tried, many times.
        XCTAssertGreaterThan(accepted, 2000)
        XCTAssertGreaterThan(refused, 1000)
        XCTAssertGreaterThan(leftToDecoder, 100)
    }
}
