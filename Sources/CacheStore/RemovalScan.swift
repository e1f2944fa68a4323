import Foundation

/// Watches a pattern removal's pass over the table and works out which keys
/// went and which references the removal leaves dangling.
///
/// SQLite hands every row to ``visit(key:record:removed:)`` while it runs the
/// statement. The rows are copied into chunks, and a second thread finds the
/// references in them while SQLite goes on deleting: the table is read once,
/// and the reading of references costs the removal little time on a machine
/// with a second core. ``finish()`` waits for that thread and gives the
/// result.
final class RemovalScan: @unchecked Sendable {
    struct Result {
        /// What the statement selected.
        var removal: PatternRemoval
        /// The references from kept records to the selected keys, in row order.
        var dangling: [ReferenceLocation]
    }

    private let pattern: KeyPattern
    private let listsKeys: Bool
    /// A run of the pattern that every matching key contains (ASCII case
    /// aside); nil when there is none to look for.
    private let needle: [UInt8]?

    // Filled on SQLite's thread, handed over when full.
    private var chunk = Chunk(capacity: RemovalScan.chunkSize)
    private static let chunkSize = 1 << 18

    // The second thread, which examines the chunks.
    private var worker: OrderedWorker<Chunk>!
    private static let maximumQueued = 8

    // The worker's own; read by finish() once the worker is done. The
    // selected keys are kept as bytes: no string or hashing per key.
    private var gone = KeyTable(capacity: 1024)
    private var candidates: [ReferenceLocation] = []
    private var keys: [CacheKey]?

    /// `listsKeys`: also give the selected keys, in byte order.
    init(pattern: KeyPattern, listsKeys: Bool) {
        self.pattern = pattern
        self.listsKeys = listsKeys
        self.needle = RemovalScan.needle(of: pattern)
        worker = OrderedWorker(
            name: "gqlcache removal scan", maximumQueued: Self.maximumQueued,
            handle: { [unowned self] chunk in
                examine(UnsafeBufferPointer(start: chunk.base, count: chunk.count))
                chunk.deallocate()
            },
            afterLast: { [unowned self] in settle() })
    }

    /// One row of the statement. `record` is nil for a NULL record; it is
    /// not kept for a row that goes.
    func visit(key: UnsafeBufferPointer<UInt8>, record: UnsafeBufferPointer<UInt8>?, removed: Bool) {
        let kept = removed ? nil : record
        let size = 9 + key.count + (kept?.count ?? 0)
        if chunk.count + size > chunk.capacity {
            handOver()
            if size > chunk.capacity {
                chunk.deallocate()
                chunk = Chunk(capacity: size)
            }
        }
        chunk.append(byte: removed ? 1 : 0)
        chunk.append(length: key.count)
        chunk.append(key)
        if let kept {
            chunk.append(length: kept.count)
            chunk.append(kept)
        } else {
            chunk.append(length: Int(UInt32.max))
        }
    }

    /// Says the statement has shown every row: the worker takes the last
    /// chunk and settles what it found while the caller goes on (commits,
    /// say). No row may follow. ``finish()`` calls it when it was not.
    func endOfRows() {
        guard !hasEnded else { return }
        hasEnded = true
        if chunk.count > 0 { handOver() }
        chunk.deallocate()
        worker.close()
    }

    private var hasEnded = false

    /// Waits for the worker and gives what it found. Call it exactly once,
    /// also when the statement failed.
    func finish() -> Result {
        endOfRows()
        worker.finish()
        return Result(removal: PatternRemoval(count: gone.count, keys: keys), dangling: candidates)
    }

    private func handOver() {
        worker.send(chunk)
        chunk = Chunk(capacity: RemovalScan.chunkSize)
    }

    // MARK: The worker

    /// After the last chunk: whether a matching key existed is known only now.
    private func settle() {
        candidates.removeAll { gone.find($0.to.rawValue) == nil }
        if listsKeys {
            let table = gone
            keys = (0..<Int32(table.count)).sorted(by: table.precedes).map { CacheKey(table.string($0)) }
        }
    }

    private func examine(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        func length() -> Int {
            let value = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
            index += 4
            return Int(value)
        }
        while index < bytes.count {
            let removed = bytes[index] == 1
            index += 1
            let keyLength = length()
            let key = UnsafeBufferPointer(rebasing: bytes[index..<index + keyLength])
            index += keyLength
            let recordLength = length()
            guard recordLength != Int(UInt32.max) else {
                if removed { _ = gone.insert(key) }
                continue
            }
            let record = UnsafeBufferPointer(rebasing: bytes[index..<index + recordLength])
            index += recordLength
            examine(keptRecord: record, key: key)
        }
    }

    private var pending: [(field: String, target: CacheKey)] = []

    /// Keeps the references of a kept record that point at keys the pattern
    /// matches; whether those keys existed is known at the end.
    private func examine(keptRecord record: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>) {
        // Without the needle and without an escape, no reference in this
        // text can name a matching key.
        if let needle, !LikeMatcher.containsFoldingASCII(record, needle), !record.contains(UInt8(ascii: "\\")) { return }
        defer { pending.removeAll(keepingCapacity: true) }
        var isObject = ReferenceScanner.references(inUTF8: record) { field, target in
            let target = CacheKey(target)
            if pattern.matches(target) { pending.append((field, target)) }
        }
        if !isObject {
            pending.removeAll(keepingCapacity: true)
            if let decoded = ReferenceScanner.decodedReferences(inUTF8: record) {
                isObject = true
                for (field, target) in decoded where pattern.matches(CacheKey(target)) { pending.append((field, CacheKey(target))) }
            }
        }
        // A damaged record (not a JSON object) holds no references, as when decoding.
        guard isObject, !pending.isEmpty else { return }
        let from = CacheKey(String(decoding: key, as: UTF8.self))
        for (field, target) in pending { candidates.append(ReferenceLocation(from: from, field: field, to: target)) }
    }

    /// The longest run of literal text in the pattern, which every key it
    /// matches contains.
    static func needle(of pattern: KeyPattern) -> [UInt8]? {
        let runs: [Substring]
        switch pattern.mode {
        case .apollo:
            runs = pattern.text.split(whereSeparator: { $0 == "%" || $0 == "_" })
        case .literal, .prefix:
            runs = [pattern.text[...]]
        case .glob, .regex:
            return nil
        }
        guard let longest = runs.max(by: { $0.utf8.count < $1.utf8.count }), !longest.isEmpty else { return nil }
        return Array(longest.utf8)
    }
}

/// Rows copied out of SQLite for the worker: a flag byte, then the key and
/// the record, each as a 4-byte little-endian length and the bytes (the
/// record's length is 0xFFFFFFFF when it is not there).
private struct Chunk: @unchecked Sendable {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var count = 0

    init(capacity: Int) {
        self.base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    func deallocate() { base.deallocate() }

    mutating func append(byte: UInt8) {
        base[count] = byte
        count += 1
    }

    mutating func append(length: Int) {
        let value = UInt32(truncatingIfNeeded: length)
        base[count] = UInt8(truncatingIfNeeded: value)
        base[count + 1] = UInt8(truncatingIfNeeded: value >> 8)
        base[count + 2] = UInt8(truncatingIfNeeded: value >> 16)
        base[count + 3] = UInt8(truncatingIfNeeded: value >> 24)
        count += 4
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }
}

/// What a pattern removal took (or, previewed, would take).
public struct PatternRemoval: Sendable, Equatable {
    /// How many records.
    public let count: Int
    /// Their keys in byte order, when the removal was asked to list them.
    public let keys: [CacheKey]?
}
