import Foundation

/// Questions about the whole graph: keys that differ only by case, and
/// what a cascading removal takes.
extension CacheGraph {
    /// Record keys that no Apollo cache key is: the empty string, or one
    /// that holds a NUL character (which a C string would cut short, so a
    /// lookup by it finds another record). In key order.
    public func unusableKeys() -> [CacheKey] {
        var found: [CacheKey] = []
        for node in 0..<Int32(nodeCount) where states[Int(node)] != .missing {
            let unusable = keyTable.withBytes(node) { bytes in
                bytes.isEmpty || memchr(bytes.baseAddress!, 0, bytes.count) != nil
            }
            if unusable { found.append(key(node)) }
        }
        return found.sorted()
    }

    /// Groups of record keys equal but for ASCII case, each sorted, ordered
    /// by their first key.
    public func caseInsensitiveDuplicates() -> [[CacheKey]] {
        // A folded hash per key, sorted, then equal hashes compared for real:
        // no folded copy of every key is kept.
        // Each entry: the hash in the high 32 bits, the node in the low ones,
        // so that one sort of plain integers brings equal hashes together.
        var hashes: [UInt64] = []
        hashes.reserveCapacity(recordCount)
        for node in 0..<Int32(nodeCount) where states[Int(node)] != .missing {
            let hash = keyTable.withBytes(node, Self.foldedHash)
            hashes.append((hash ^ (hash << 32)) & 0xFFFF_FFFF_0000_0000 | UInt64(UInt32(node)))
        }
        Self.sortSpreadValues(&hashes)
        var groups: [[CacheKey]] = []
        var start = 0
        while start < hashes.count {
            var end = start + 1
            while end < hashes.count && hashes[end] >> 32 == hashes[start] >> 32 { end += 1 }
            if end - start > 1 {
                var byFolded: [[UInt8]: [CacheKey]] = [:]
                for entry in hashes[start..<end] {
                    let node = Int32(truncatingIfNeeded: entry & 0xFFFF_FFFF)
                    byFolded[keyTable.withBytes(node) { $0.map(LikeMatcher.foldASCII) }, default: []].append(key(node))
                }
                groups += byFolded.values.filter { $0.count > 1 }.map { $0.sorted() }
            }
            start = end
        }
        return groups.sorted { $0[0] < $1[0] }
    }

    /// Sorts integers whose high bits are evenly spread (hashes): a
    /// counting pass puts them in 65,536 buckets by their top 16 bits, and
    /// each bucket, a handful of values, is sorted on its own. For a
    /// million keys that is a tenth of the work of one general sort.
    static func sortSpreadValues(_ values: inout [UInt64]) {
        guard values.count > 1 << 12 else { return values.sort() }
        let bucketCount = 1 << 16
        var starts = [Int](repeating: 0, count: bucketCount + 1)
        for value in values { starts[Int(value >> 48) + 1] += 1 }
        for bucket in 0..<bucketCount { starts[bucket + 1] += starts[bucket] }
        var next = starts
        var sorted = [UInt64](repeating: 0, count: values.count)
        sorted.withUnsafeMutableBufferPointer { sorted in
            for value in values {
                let bucket = Int(value >> 48)
                sorted[next[bucket]] = value
                next[bucket] += 1
            }
            for bucket in 0..<bucketCount where starts[bucket + 1] - starts[bucket] > 1 {
                sorted[starts[bucket]..<starts[bucket + 1]].sort()
            }
        }
        values = sorted
    }

    /// A hash of the bytes with ASCII letters lowercased: keys equal but
    /// for ASCII case hash alike. Eight bytes at a time: in each, the
    /// bytes from `A` to `Z` get their 0x20 bit set, all at once.
    static func foldedHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        @inline(__always)
        func folded(_ word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let low = word & (ones &* 0x7F)
            // High bit of each byte: its low 7 bits are at least "A", above "Z".
            let atLeastA = low &+ ones &* (0x80 - 0x41)
            let aboveZ = low &+ ones &* (0x80 - 0x5B)
            let upper = atLeastA & ~aboveZ & ~word & (ones &* 0x80)
            return word | (upper &>> 2)
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        while index &+ 8 <= bytes.count {
            hash = (hash ^ folded(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash &>> 29
            index &+= 8
        }
        // The last bytes, the first of them lowest (see KeyTable.hash).
        var tail: UInt64 = 0
        let left = bytes.count &- index
        if left > 0 && bytes.count >= 8 {
            tail = folded(raw.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self)) &>> UInt64(8 &* (8 &- left))
        } else {
            var shift: UInt64 = 0
            while index < bytes.count {
                tail |= UInt64(LikeMatcher.foldASCII(bytes[index])) &<< shift
                shift &+= 8
                index &+= 1
            }
        }
        // Every bit of the result depends on every byte: the sort below
        // buckets by the top bits.
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash &>> 31
        hash = hash &* 0xBF58_476D_1CE4_E5B9
        return hash ^ (hash &>> 29)
    }

    /// What removing `keys` with their cascade takes: those keys (the ones
    /// with a record) and every record reachable from them that nothing
    /// else reaches: no root, and no record outside what is removed. In key order.
    /// Throws ``CacheStoreError/reachabilityUnknown(path:damaged:)`` when a
    /// damaged record might reference what the cascade would take.
    public func cascade(from keys: [CacheKey]) throws -> [CacheKey] {
        try checkReachabilityIsKnown()
        let starts = keys.compactMap(recordNode)
        let isStart = Set(starts)
        // Everything the removed keys reach.
        let inReach = reached(from: starts, avoiding: nil)
        // What stays of it: roots in reach, records in reach referenced
        // from outside the reach, and all they reach without passing
        // through a removed key.
        var seeds: [Int32] = rootNodes.filter { inReach[Int($0)] && !isStart.contains($0) }
        for node in 0..<Int32(nodeCount) where !inReach[Int(node)] && states[Int(node)] == .record {
            for edge in edges(of: node) {
                let target = edgeTargets[edge]
                if inReach[Int(target)] && !isStart.contains(target) { seeds.append(target) }
            }
        }
        let kept = reached(from: seeds, avoiding: { isStart.contains($0) })
        return sortedKeys((0..<Int32(nodeCount)).filter { inReach[Int($0)] && !kept[Int($0)] && states[Int($0)] != .missing })
    }
}
