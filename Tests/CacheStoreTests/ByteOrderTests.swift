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
}
