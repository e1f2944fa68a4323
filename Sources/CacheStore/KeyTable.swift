import Foundation

/// A set of byte strings (keys, field names), each numbered in the order it
/// was first added, stored end to end in one buffer: looking a key up from
/// bytes SQLite hands out allocates nothing, and a million keys cost their
/// bytes plus about 24 bytes each.
struct KeyTable: Sendable {
    /// The entries' bytes end to end, in `storage[..<used]`; the bytes
    /// after `used` are room, not yet written.
    private var storage: [UInt8] = []
    private var used = 0
    /// Entry `i` is `storage[starts[i] ..< starts[i + 1]]`.
    private var starts: [Int] = [0]
    private var hashes: [UInt32] = []
    /// Open addressing, linear probing: the entry's hash in the high 32
    /// bits and its number + 1 in the low ones (0: empty), so that a probe
    /// reads one word.
    private var slots: [UInt64]
    private var mask: Int

    init(capacity: Int = 16) {
        var size = 16
        while size * 7 < capacity * 10 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        starts.reserveCapacity(capacity + 1)
        hashes.reserveCapacity(capacity)
    }

    var count: Int { hashes.count }

    /// The number of `bytes`, adding them when new.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        insert(bytes, hash: Self.hash(bytes))
    }

    /// ``insert(_:)`` with the bytes' ``hash(_:)`` already worked out.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32) -> Int32 {
        let tag = UInt64(hash) << 32
        var slot = Int(hash) & mask
        while true {
            let word = slots[slot]
            if word == 0 { break }
            if word & 0xFFFF_FFFF_0000_0000 == tag, equals(Int(word & 0xFFFF_FFFF) - 1, bytes) {
                return Int32(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1
            }
            slot = (slot + 1) & mask
        }
        let number = Int32(count)
        append(bytes)
        starts.append(used)
        hashes.append(hash)
        slots[slot] = tag | UInt64(number + 1)
        // Up to 70% full: a smaller table misses the processor's caches less.
        if count * 10 > slots.count * 7 { grow() }
        return number
    }

    /// Adds bytes after the last entry's. `append(contentsOf:)` costs a
    /// hundred instructions for a key of a dozen bytes; this, a fifth.
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        let end = used + bytes.count
        if end > storage.count {
            let grown = [UInt8](unsafeUninitializedCapacity: Swift.max(end, 2 * storage.count, 1 << 12)) { buffer, initialized in
                let kept = used
                storage.withUnsafeBufferPointer { old in
                    if kept > 0 { buffer.baseAddress!.initialize(from: old.baseAddress!, count: kept) }
                }
                // The room after the entries, zeroed: every byte of an array is initialized.
                (buffer.baseAddress! + kept).initialize(repeating: 0, count: buffer.count - kept)
                initialized = buffer.count
            }
            storage = grown
        }
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let start = used
        storage.withUnsafeMutableBufferPointer { copyBytes(to: $0.baseAddress! + start, from: source, count: bytes.count) }
        used = end
    }

    mutating func insert(_ string: String) -> Int32 {
        var string = string
        return string.withUTF8 { insert($0) }
    }

    /// Reads what a lookup of `hash` reads first and, when that is an
    /// entry, the start of its bytes; returns a byte of no meaning. Called
    /// for a batch of hashes before looking them up, it lets the processor
    /// fetch their memory at once rather than one miss after another.
    func touch(_ hash: UInt32) -> UInt64 {
        let word = slots[Int(hash) & mask]
        guard word != 0 else { return 0 }
        let start = starts[Int(word & 0xFFFF_FFFF) - 1]
        return word &+ UInt64(start < used ? storage[start] : 0)
    }

    /// The number of `bytes`, or nil when they were never added.
    func find(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let hash = Self.hash(bytes)
        let tag = UInt64(hash) << 32
        var slot = Int(hash) & mask
        while true {
            let word = slots[slot]
            if word == 0 { return nil }
            if word & 0xFFFF_FFFF_0000_0000 == tag, equals(Int(word & 0xFFFF_FFFF) - 1, bytes) {
                return Int32(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1
            }
            slot = (slot + 1) & mask
        }
    }

    func find(_ string: String) -> Int32? {
        var string = string
        return string.withUTF8 { find($0) }
    }

    /// Entry `number` as a string.
    func string(_ number: Int32) -> String {
        withBytes(number) { String(decoding: $0, as: UTF8.self) }
    }

    func withBytes<T>(_ number: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let range = starts[Int(number)]..<starts[Int(number) + 1]
        return try storage.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// True when entry `lhs` sorts before entry `rhs` in byte order.
    func precedes(_ lhs: Int32, _ rhs: Int32) -> Bool {
        let left = starts[Int(lhs)]..<starts[Int(lhs) + 1]
        let right = starts[Int(rhs)]..<starts[Int(rhs) + 1]
        return storage.withUnsafeBufferPointer { stored in
            let common = min(left.count, right.count)
            let order = common == 0 ? 0 : memcmp(stored.baseAddress! + left.lowerBound, stored.baseAddress! + right.lowerBound, common)
            return order != 0 ? order < 0 : left.count < right.count
        }
    }

    /// An entry to sort: its first 16 bytes as two big-endian integers,
    /// zero-padded, so that integer order is byte order but for entries
    /// that tie on them (a shorter entry ties with a longer one that goes
    /// on with zero bytes); the full comparison settles those.
    struct SortItem {
        var high: UInt64
        var low: UInt64
        var entry: Int32
    }

    /// `entries` in byte order of their bytes. Each is ordered by its first
    /// 16 bytes as two integers, and only entries equal in those are
    /// compared in full: sorting a few hundred thousand keys otherwise
    /// spends its time in calls to `memcmp` over the same first bytes. Many
    /// entries are put in order by those integers with a radix sort, which
    /// reads each item a few times instead of comparing it some twenty.
    func sorted(_ entries: [Int32]) -> [Int32] {
        var items = storage.withUnsafeBufferPointer { stored in
            entries.map { entry in
                let start = starts[Int(entry)], count = starts[Int(entry) + 1] - start
                let bytes = UnsafeBufferPointer(rebasing: stored[start..<start + count])
                return SortItem(high: Self.bigEndianWord(bytes, at: 0), low: Self.bigEndianWord(bytes, at: 8), entry: entry)
            }
        }
        if items.count >= 1 << 12 {
            Self.radixSort(&items)
        } else {
            items.sort { ($0.high, $0.low) < ($1.high, $1.low) }
        }
        // Runs that tie on their first 16 bytes, in full.
        var start = 0
        while start < items.count {
            var end = start + 1
            while end < items.count && items[end].high == items[start].high && items[end].low == items[start].low { end += 1 }
            if end - start > 1 { items[start..<end].sort { precedes($0.entry, $1.entry) } }
            start = end
        }
        return items.map(\.entry)
    }

    /// Bytes `offset ..< offset + 8` of `bytes` as a big-endian integer,
    /// zeros past the end.
    static func bigEndianWord(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        let left = bytes.count - offset
        guard left > 0 else { return 0 }
        let raw = UnsafeRawBufferPointer(bytes)
        if left >= 8 { return UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        if bytes.count >= 8 {
            // The entry's last 8 bytes: the ones wanted are its lowest, moved to the top.
            let last = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
            return last &<< UInt64(8 * (8 - left))
        }
        var value: UInt64 = 0
        for index in 0..<8 { value = value &<< 8 | UInt64(index < left ? bytes[offset + index] : 0) }
        return value
    }

    /// Stable least-significant-digit radix sort by (high, low), 16 bits a
    /// pass; a pass whose digit is the same in every item (a prefix all
    /// keys share) is skipped.
    static func radixSort(_ items: inout [SortItem]) {
        let count = items.count
        // The eight 16-bit digits of every item counted in one read: the
        // low word's four (passes 0-3), then the high word's (4-7).
        var counts = [Int](repeating: 0, count: 8 << 16)
        counts.withUnsafeMutableBufferPointer { counts in
            items.withUnsafeBufferPointer { items in
                @inline(__always)
                func count(_ word: UInt64, firstPass pass: Int) {
                    counts[(pass + 0) << 16 | Int(truncatingIfNeeded: word & 0xFFFF)] += 1
                    counts[(pass + 1) << 16 | Int(truncatingIfNeeded: (word &>> 16) & 0xFFFF)] += 1
                    counts[(pass + 2) << 16 | Int(truncatingIfNeeded: (word &>> 32) & 0xFFFF)] += 1
                    counts[(pass + 3) << 16 | Int(truncatingIfNeeded: word &>> 48)] += 1
                }
                for item in items {
                    count(item.low, firstPass: 0)
                    count(item.high, firstPass: 4)
                }
            }
        }
        var other = items
        var next = [Int](repeating: 0, count: 1 << 16)
        for pass in 0..<8 {
            let base = pass << 16
            let shift = UInt64(16 * (pass & 3))
            let usesHigh = pass >= 4
            let first = Int(truncatingIfNeeded: ((usesHigh ? items[0].high : items[0].low) &>> shift) & 0xFFFF)
            if counts[base + first] == count { continue }
            var total = 0
            for value in 0..<(1 << 16) {
                next[value] = total
                total += counts[base + value]
            }
            items.withUnsafeBufferPointer { source in
                other.withUnsafeMutableBufferPointer { target in
                    next.withUnsafeMutableBufferPointer { next in
                        for item in source {
                            let value = Int(truncatingIfNeeded: ((usesHigh ? item.high : item.low) &>> shift) & 0xFFFF)
                            target[next[value]] = item
                            next[value] += 1
                        }
                    }
                }
            }
            swap(&items, &other)
        }
    }

    private func equals(_ entry: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = starts[entry]
        guard starts[entry + 1] - start == bytes.count else { return false }
        return storage.withUnsafeBufferPointer { stored in
            bytes.isEmpty || bytesEqual(stored.baseAddress! + start, bytes.baseAddress!, count: bytes.count)
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        for entry in 0..<count {
            var slot = Int(hashes[entry]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt64(hashes[entry]) << 32 | UInt64(entry + 1)
        }
    }

    /// A fast 32-bit hash of the bytes, eight at a time.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var index = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while index &+ 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash &>> 29
            index &+= 8
        }
        // The last 0 to 7 bytes, the first of them lowest, read with loads
        // that may overlap bytes already hashed (shifted out).
        var tail: UInt64 = 0
        let left = bytes.count - index
        if left > 0 {
            if bytes.count >= 8 {
                tail = raw.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self) &>> UInt64(8 &* (8 &- left))
            } else if left >= 4 {
                let low = UInt64(raw.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                let high = UInt64(raw.loadUnaligned(fromByteOffset: bytes.count - 4, as: UInt32.self))
                tail = low | (high &<< UInt64(8 &* (left &- 4)))
            } else {
                var shift: UInt64 = 0
                while index < bytes.count {
                    tail |= UInt64(bytes[index]) << shift
                    shift += 8
                    index += 1
                }
            }
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash &>> 32
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return UInt32(truncatingIfNeeded: hash ^ (hash &>> 29))
    }
}
