import XCTest

@testable import CacheStore

final class ByteOrderTests: XCTestCase {
    func testByteOrderIsTheOrderOfUTF8BytesAsSQLiteSortsKeys() {
        let keys = ["", "A", "a", "Z", "_", "Post:1", "Post:10", "Post:1.author", "QUERY_ROOT", "é", "e\u{301}", "ß", "Ω", "😀",
                    String(repeating: "x", count: 15), String(repeating: "x", count: 16), "User:9999999999999999999"]
        for lhs in keys {
            for rhs in keys {
                XCTAssertEqual(byteOrder(lhs, rhs), Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8)), "\(lhs) < \(rhs)")
            }
        }
        // Bridged or slice-backed strings take the same answer.
        let substring = "xxPost:2"[...].dropFirst(2)
        XCTAssertTrue(byteOrder(String(substring), "Post:3"))
    }

    /// SQLite finds a key by its bytes: `é` composed and `e` with a
    /// combining accent are two keys, which Swift's `==` takes for one.
    func testKeysAreTheSameOnlyWhenTheirBytesAre() {
        let composed = CacheKey("Caf\u{e9}:1"), decomposed = CacheKey("Cafe\u{301}:1")
        XCTAssertEqual(composed.rawValue, decomposed.rawValue, "Swift's strings take them for equal")
        XCTAssertNotEqual(composed, decomposed)
        XCTAssertEqual(Set([composed, decomposed, CacheKey("Caf\u{e9}:1")]).count, 2)
        XCTAssertEqual([composed: 1, decomposed: 2][decomposed], 2)
        XCTAssertTrue(sameBytes("a", "a"))
        XCTAssertFalse(sameBytes("Caf\u{e9}", "Cafe\u{301}"))
    }
}
