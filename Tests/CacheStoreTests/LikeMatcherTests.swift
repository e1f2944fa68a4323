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
        var generator = SystemRandomNumberGenerator()
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
}
