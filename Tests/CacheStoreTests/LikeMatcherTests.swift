import XCTest

@testable import CacheStore

final class LikeMatcherTests: XCTestCase {
    /// The obvious search: every start, byte by byte, ASCII letters folded.
    private func naiveContains(_ text: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard text.count >= needle.count else { return false }
        return (0...(text.count - needle.count)).contains { start in
            needle.indices.allSatisfy { LikeMatcher.foldASCII(text[start + $0]) == LikeMatcher.foldASCII(needle[$0]) }
        }
    }

    func testFoldingSubstringSearchAgreesWithTheObviousSearchAtEveryLengthAndPosition() {
        // Bytes that fold, bytes that only look alike under `| 0x20`
        // (`@` and `` ` ``, `:` and 0x1A), and non-ASCII UTF-8.
        let alphabet: [UInt8] = Array("pPoOsStT:@`".utf8) + [0x1A, 0xC3, 0xA9, 0x7B]
        var generator = TestRandom()
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let needle = (0..<Int.random(in: 1...4, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let found = text.withUnsafeBufferPointer { LikeMatcher.containsFoldingASCII($0, needle) }
            XCTAssertEqual(found, naiveContains(text, needle), "\(text) contains \(needle)")
        }
    }

    func testFoldingSubstringSearchFindsTheNeedleAtTheVeryEndOfALongText() {
        let text = Array((String(repeating: "x", count: 61) + "pOST:").utf8)
        for length in 5...text.count {
            let slice = Array(text.suffix(length))
            XCTAssertTrue(slice.withUnsafeBufferPointer { LikeMatcher.containsFoldingASCII($0, Array("Post:".utf8)) }, "length \(length)")
            XCTAssertFalse(slice.withUnsafeBufferPointer { LikeMatcher.containsFoldingASCII($0, Array("Posts".utf8)) }, "length \(length)")
        }
    }

    /// LIKE's definition, tried every way: `%` any run of characters, `_`
    /// one, anything else itself with ASCII letters folded.
    private func definitionMatches(_ text: ArraySlice<Character>, _ pattern: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        switch first {
        case "%": return (0...text.count).contains { definitionMatches(text.dropFirst($0), pattern.dropFirst()) }
        case "_": return !text.isEmpty && definitionMatches(text.dropFirst(), pattern.dropFirst())
        default:
            guard let head = text.first, head.lowercased() == first.lowercased() || (!head.isASCII && head == first) else { return false }
            return definitionMatches(text.dropFirst(), pattern.dropFirst())
        }
    }

    func testLikeContainmentAgreesWithTheDefinitionOfLike() {
        let alphabet: [Character] = ["a", "A", "b", ":", "é", "%", "_"]
        var generator = TestRandom()
        for _ in 0..<20_000 {
            let text = String((0..<Int.random(in: 0...9, using: &generator)).map { _ in alphabet.dropLast(2).randomElement(using: &generator)! })
            let pattern = String((0..<Int.random(in: 1...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            var utf8 = text
            let found = utf8.withUTF8 { LikeMatcher.containsLike($0, pattern: Array(pattern.utf8)) }
            XCTAssertEqual(found, definitionMatches(ArraySlice(Array(text)), ArraySlice(Array("%" + pattern + "%"))), "'\(text)' LIKE '%\(pattern)%'")
        }
    }

    /// Each `%` tried at every place the others could end took time that
    /// grew with the text's length to the power of the `%` count (minutes
    /// for eight on a 60-letter key, inside `rm --match`'s write lock).
    func testLikeContainmentWithManyPercentSignsOnALongTextAnswers() {
        var text = String(repeating: "A", count: 4000)
        let pattern = Array(String(repeating: "a%", count: 12).appending("b").utf8)
        XCTAssertFalse(text.withUTF8 { LikeMatcher.containsLike($0, pattern: pattern) })
        text += "B"
        XCTAssertTrue(text.withUTF8 { LikeMatcher.containsLike($0, pattern: pattern) })
    }

    /// A search over a short key is timed only when its pattern can
    /// backtrack for long there: a repeated group, or three repeats.
    func testPatternsThatCanBacktrackLongOverShortKeysAreTold() {
        for slow in [#"(a+)+$"#, #"(a|aa)*$"#, #"^(?:ab)*c"#, #"a*a*a*b"#, #".*x.*y.*z"#, #"(a){2,}"#, #"\Q(a)\E"#, #"x\Q*\E"#, #"(?#[)(a+)+$"#, #"(?x)(a+) +$"#, "(a+)+\u{301}", #"(?=a)b"#, String(repeating: "(a|a)", count: 24) + "b", #"^(Human|Droid|Starship):\d+$"#] {
            XCTAssertTrue(RegexCache.isSlowOverShortTexts(slow), slow)
        }
        for quick in [#"^Human:\d+$"#, #"User:.*\.posts"#, #"^QUERY_ROOT\.hero\(.*\)"#, #"[(*)+?{]x+"#, #"\(a\)+b*"#, #"(?i)^droid:(\d)"#, #"(?:hero|droid)\d+"#, #"(?i:droid)\d+"#, #"^(Human|Droid):\d+$"#] {
            XCTAssertFalse(RegexCache.isSlowOverShortTexts(quick), quick)
        }
    }
}
