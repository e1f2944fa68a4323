import XCTest

@testable import CacheStore

/// `--top N` keeps the N largest records, ties in the order asked for,
/// whether N is small or about as large as the number of records.
final class TopRecordsTests: XCTestCase {
    private func bySize(_ entry: TopRecords.Entry, _ other: TopRecords.Entry) -> Bool {
        entry.bytes != other.bytes ? entry.bytes > other.bytes : entry.node < other.node
    }

    func testTheLargestAreTheFirstOfAFullSortForAnyLimit() {
        var generator = TestRandom()
        // Many equal sizes, so that ties decide who makes the cut.
        let entries: [TopRecords.Entry] = (0..<5_000).map { (Int32($0), Int.random(in: 0..<300, using: &generator)) }
        let sorted = entries.sorted(by: bySize)
        // The largest limits an option takes keep every record, without overflow.
        for limit in [0, 1, 7, 100, 2_499, 5_000, 9_000, Int.max / 2, Int.max] {
            var top = TopRecords(limit: limit)
            for entry in entries.shuffled(using: &generator) { top.offer(entry, goesBefore: bySize) }
            let kept = top.largest(bySize)
            XCTAssertEqual(kept.map(\.node), sorted.prefix(limit).map(\.node), "limit \(limit)")
        }
    }

    func testTwoHalvesAddedTogetherKeepWhatOnePassKeeps() {
        let entries: [TopRecords.Entry] = (0..<1_000).map { (Int32($0), ($0 * 7919) % 97) }
        var first = TopRecords(limit: 50), second = TopRecords(limit: 50), whole = TopRecords(limit: 50)
        for entry in entries {
            if entry.node < 500 { first.offer(entry, goesBefore: bySize) } else { second.offer(entry, goesBefore: bySize) }
            whole.offer(entry, goesBefore: bySize)
        }
        first.add(second, goesBefore: bySize)
        XCTAssertEqual(first.largest(bySize).map(\.node), whole.largest(bySize).map(\.node))
    }
}
