import Foundation

// Copies and comparisons of the short byte strings the graph pass handles by
// the million (keys, field names, typenames: mostly 4 to 16 bytes). A call
// to memcpy or memcmp costs more than the work for such a string; two
// overlapping loads of 8 (or 4) bytes cover it, reading only its own bytes.

/// Copies `count` bytes; the ranges must not overlap.
@inline(__always)
func copyBytes(to target: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>, count: Int) {
    let to = UnsafeMutableRawPointer(target)
    let from = UnsafeRawPointer(source)
    if count >= 8 && count <= 16 {
        let head = from.loadUnaligned(as: UInt64.self)
        let tail = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
        to.storeBytes(of: head, as: UInt64.self)
        to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
    } else if count >= 4 && count < 8 {
        let head = from.loadUnaligned(as: UInt32.self)
        let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
        to.storeBytes(of: head, as: UInt32.self)
        to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
    } else if count < 4 {
        for index in 0..<count { target[index] = source[index] }
    } else {
        to.copyMemory(from: from, byteCount: count)
    }
}

/// Whether the `count` bytes at `lhs` and at `rhs` are the same.
@inline(__always)
func bytesEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, count: Int) -> Bool {
    let left = UnsafeRawPointer(lhs)
    let right = UnsafeRawPointer(rhs)
    if count >= 8 && count <= 16 {
        return left.loadUnaligned(as: UInt64.self) == right.loadUnaligned(as: UInt64.self)
            && left.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }
    if count >= 4 && count < 8 {
        return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
            && left.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                == right.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
    }
    if count < 4 {
        for index in 0..<count where lhs[index] != rhs[index] { return false }
        return true
    }
    return memcmp(lhs, rhs, count) == 0
}

/// Bytes that only grow, written by one owner at a time (a scan batch,
/// a chunk of raw rows); copies of the owner share them.
final class ByteArena: @unchecked Sendable {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { base.deallocate() }

    /// Copies `text` to `offset`, keeping the `offset` bytes before it when it grows.
    @inline(__always)
    func write(_ text: UnsafeBufferPointer<UInt8>, at offset: Int) {
        let count = text.count
        if offset + count > capacity { grow(to: offset + count, keeping: offset) }
        guard let source = text.baseAddress else { return }
        copyBytes(to: base + offset, from: source, count: count)
    }

    private func grow(to needed: Int, keeping kept: Int) {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: Swift.max(needed, 2 * capacity))
        grown.initialize(from: base, count: kept)
        base.deallocate()
        base = grown
        capacity = Swift.max(needed, 2 * capacity)
    }
}
