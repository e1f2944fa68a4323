import ExampleCaches
import Foundation
import XCTest

@testable import CacheStore

/// On a large cache, stats sums its records in two halves at once and
/// doctor runs its case check beside its reachability check. Forced on a
/// small cache, each must give exactly what the one-thread way gives.
final class SplitAnalysisTests: XCTestCase {
    /// A blog cache with ten records of the same size, five written before
    /// the blog and five after (so equal sizes fall in both halves, the
    /// first in key order written last), keys
    /// equal but for case, and a removed user (references dangle).
    private func graph(_ folder: TemporaryDirectory) throws -> CacheGraph {
        let store = try CacheStore.create(at: folder.path("blog.sqlite"))
        let filler = String(repeating: "x", count: 400)
        func big(_ name: String) -> Record { Record(key: CacheKey("Big:\(name)"), fields: ["text": .string(filler)]) }
        _ = try store.write { tx in try tx.merge(["j", "i", "h", "g", "f"].map(big)) }
        try BlogCache(users: 400).write(to: store)
        _ = try store.write { tx in
            try tx.merge(["a", "b", "c", "d", "e"].map(big))
            try tx.merge([Record(key: "user:7", fields: ["id": .string("7")]), Record(key: "POST:3", fields: ["id": .string("3")])])
            _ = try tx.removeObject(for: "User:5")
        }
        return try store.read { tx in try tx.graph() }
    }

    func testStatisticsSummedInHalvesAreTheOnePassStatistics() throws {
        let graph = try graph(try TemporaryDirectory(self))
        let pages = PageStatistics(pageSize: 4096, pageCount: 10, freePages: 1)
        for largest in [0, 3, 7, 50] {
            let split = graph.statistics(largest: largest, pages: pages, splitFrom: 0)
            XCTAssertEqual(split, graph.statistics(largest: largest, pages: pages, splitFrom: .max), "largest \(largest)")
            XCTAssertEqual(split.largest.count, largest)
        }
        // Of ten equal sizes, the first in key order are kept, as info's
        // census keeps them (not the first rows met, Big:j, i and h).
        XCTAssertEqual(
            graph.statistics(largest: 3, pages: pages, splitFrom: 0).largest.map(\.key), ["Big:a", "Big:b", "Big:c"])
        XCTAssertEqual(graph.census(largest: 3, damagedKeys: 0).largest.map(\.key), ["Big:a", "Big:b", "Big:c"])
        let statistics = graph.statistics(largest: 3, pages: pages, splitFrom: 0)
        XCTAssertGreaterThan(statistics.byKeyPrefix.count, 3)
        XCTAssertGreaterThan(statistics.unreachable.records, 0)
        XCTAssertEqual(statistics.recordCount, graph.recordCount)
    }

    func testHealthReportWithChecksSideBySideIsTheOneThreadReport() throws {
        let graph = try graph(try TemporaryDirectory(self))
        let split = HealthReport(integrityProblems: [], fullIntegrityCheck: false, graph: graph, splitFrom: 0)
        XCTAssertEqual(split, HealthReport(integrityProblems: [], fullIntegrityCheck: false, graph: graph, splitFrom: .max))
        XCTAssertEqual(split.caseDuplicates, [["POST:3", "Post:3"], ["User:7", "user:7"]])
        XCTAssertFalse(split.danglingReferences.isEmpty)
        XCTAssertFalse(split.unreachableKeys.isEmpty)
    }

    func testFoldedHashIgnoresTheCaseOfASCIILettersOnly() {
        func hash(_ text: String) -> UInt64 {
            var text = text
            return text.withUTF8 { CacheGraph.foldedHash($0) }
        }
        let lower = "query_root.feed(first:10).0.author:user:42"
        for length in 0...lower.utf8.count {
            let prefix = String(lower.utf8.prefix(length))!
            // Each letter in turn upper-cased, at every length (so in the
            // eight-byte words and in the last bytes).
            for (offset, character) in prefix.enumerated() where character.isLetter {
                var changed = Array(prefix)
                changed[offset] = Character(character.uppercased())
                XCTAssertEqual(hash(String(changed)), hash(prefix), String(changed))
            }
            XCTAssertEqual(hash(prefix.uppercased()), hash(prefix), prefix)
        }
        XCTAssertNotEqual(hash("User:é"), hash("User:É"), "é and É differ beyond ASCII")
        // A byte above 0x7F is never folded, even where its low seven bits spell a letter ("Ł" is C5 81, C5 & 7F is "E").
        for length in [2, 9, 16] {
            let bytes = [UInt8](repeating: 0xC5, count: length)
            XCTAssertNotEqual(
                bytes.withUnsafeBufferPointer(CacheGraph.foldedHash),
                bytes.map { $0 | 0x20 }.withUnsafeBufferPointer(CacheGraph.foldedHash), "length \(length)")
        }
        XCTAssertNotEqual(hash("User:1"), hash("User:2"))
        XCTAssertNotEqual(hash("User@1"), hash("User`1"), "@ and ` are not letters")
    }

    /// The case check sorts folded hashes in buckets by their top 16 bits:
    /// keys that differ only in their last digits must spread over them as
    /// random values would (10,000 values fill about 9,270 of 65,536).
    func testFoldedHashesOfNumberedKeysSpreadOverTheSortBuckets() {
        for (prefix, width) in [("Comment:", 6), ("User:", 5), ("QUERY_ROOT.feed(first:10).", 4)] {
            var buckets: Set<UInt64> = []
            for number in 0..<10_000 {
                var key = prefix + String(repeating: "0", count: width - String(number).count) + String(number)
                let hash = key.withUTF8 { CacheGraph.foldedHash($0) }
                buckets.insert((hash ^ (hash << 32)) >> 48)  // as caseInsensitiveDuplicates() packs it
            }
            XCTAssertGreaterThan(buckets.count, 9_000, prefix)
        }
    }
}
