import XCTest

@testable import CacheStore

final class KeyTableHashTests: XCTestCase {
    /// The hash as first written: eight bytes at a time, then the rest one
    /// byte at a time, the first of them lowest.
    private func referenceHash(_ bytes: [UInt8]) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        while index + 8 <= bytes.count {
            var word: UInt64 = 0
            for offset in 0..<8 { word |= UInt64(bytes[index + offset]) << UInt64(8 * offset) }
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 32
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    func testHashDependsOnTheBytesOnlyAtEveryLengthAndOffset() {
        let source = Array("QUERY_ROOT.feed(first:10).0.author:User:42 é😀".utf8)
        for length in 0...source.count {
            for offset in 0...(source.count - length) {
                let piece = Array(source[offset..<offset + length])
                // Read in place, inside a longer buffer, with bytes on both sides.
                let inPlace = source.withUnsafeBufferPointer { KeyTable.hash(UnsafeBufferPointer(rebasing: $0[offset..<offset + length])) }
                XCTAssertEqual(inPlace, referenceHash(piece), "length \(length), offset \(offset)")
            }
        }
    }
}

final class KeyTableSortTests: XCTestCase {
    private func byteOrder(_ keys: [[UInt8]]) -> [[UInt8]] {
        keys.sorted { $0.lexicographicallyPrecedes($1) }
    }

    private func tableOrder(_ keys: [[UInt8]], function: String = #function) -> [[UInt8]] {
        var table = KeyTable()
        let entries = keys.map { key in key.withUnsafeBufferPointer { table.insert($0) } }
        var generator = TestRandom(function)
        return table.sorted(entries.shuffled(using: &generator)).map { entry in table.withBytes(entry) { Array($0) } }
    }

    /// Keys that are hard on a sort by the first 16 bytes: shared long
    /// prefixes, keys that are prefixes of others, zero bytes (which tie
    /// with the padding), short keys, bytes above 0x7F.
    private func awkwardKeys(_ count: Int) -> [[UInt8]] {
        var keys: Set<[UInt8]> = []
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let stems = ["", "a", "User:", "Comment:", "QUERY_ROOT.feed(first:10).", "QUERY_ROOT.feed(first:10)", "é", "Z"]
        while keys.count < count {
            var key = Array(stems[next(stems.count)].utf8)
            for _ in 0..<next(12) {
                key.append([0, 0x30, 0x31, 0x39, 0x2E, 0x7A, 0xC3, 0xFF][next(8)])
            }
            keys.insert(key)
        }
        return Array(keys)
    }

    func testSortedKeysAreInByteOrderByComparisonAndByRadix() {
        for count in [2, 100, 5_000] {
            let keys = awkwardKeys(count)
            XCTAssertEqual(tableOrder(keys), byteOrder(keys), "\(count) keys")
        }
    }

    func testEntriesEqualInTheirFirstSixteenBytesAreOrderedInFull() {
        let stem = Array("QUERY_ROOT.feed(first:10).".utf8)
        var keys: [[UInt8]] = []
        for number in 0..<5_000 { keys.append(stem + Array(String(number).utf8)) }
        keys += [Array(stem.prefix(16)), Array(stem.prefix(16)) + [0], Array(stem.prefix(16)) + [0, 0], Array(stem.prefix(15)) + [0]]
        XCTAssertEqual(tableOrder(keys), byteOrder(keys))
    }
}

/// The copies and comparisons of short byte strings read two overlapping
/// words: they must touch only the string's own bytes and see every one.
final class ShortBytesTests: XCTestCase {
    func testShortCopiesWriteExactlyTheirBytesAtEveryLength() {
        let source: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...40 {
            for offset in [0, 1, 7, 8, 13] where offset + length <= source.count {
                var target = [UInt8](repeating: 0xEE, count: length + 16)
                source.withUnsafeBufferPointer { from in
                    target.withUnsafeMutableBufferPointer { to in
                        copyBytes(to: to.baseAddress! + 8, from: from.baseAddress! + offset, count: length)
                    }
                }
                XCTAssertEqual(Array(target[8..<8 + length]), Array(source[offset..<offset + length]), "length \(length)")
                XCTAssertEqual(target[..<8] + target[(8 + length)...], ArraySlice(repeating: 0xEE, count: 16), "length \(length)")
            }
        }
    }

    func testShortComparisonsSeeADifferenceInEveryByteAtEveryLength() {
        let source: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...40 {
            let piece = Array(source[3..<3 + length])
            source.withUnsafeBufferPointer { whole in
                piece.withUnsafeBufferPointer { copy in
                    XCTAssertTrue(bytesEqual(whole.baseAddress! + 3, copy.baseAddress!, count: length), "length \(length)")
                }
            }
            for position in 0..<length {
                var changed = piece
                changed[position] ^= 0x01
                source.withUnsafeBufferPointer { whole in
                    changed.withUnsafeBufferPointer { copy in
                        XCTAssertFalse(
                            bytesEqual(whole.baseAddress! + 3, copy.baseAddress!, count: length), "length \(length), byte \(position)")
                    }
                }
            }
        }
    }
}
