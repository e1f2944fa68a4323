/// The `limit` largest records offered, by bytes of JSON text: the lists of
/// `--top N`. Offers gather in a buffer that is sorted and cut back to
/// `limit` each time it grows to twice that, so n offers cost O(n log
/// limit) however close `limit` is to n; keeping one sorted list, with an
/// insertion per offer, cost O(n × limit), seconds for `--top 100000`.
/// `goesBefore` orders two entries: most bytes first, ties as the caller
/// says, the same function on every call.
struct TopRecords {
    typealias Entry = (node: Int32, bytes: Int)

    let limit: Int
    private var entries: [Entry] = []
    /// The last of `limit` entries kept by the latest cut: an offer that
    /// does not go before it cannot be among the largest.
    private var floor: Entry?

    /// A limit beyond what any file holds (`--top 9223372036854775807`) is
    /// every record: cut so that the buffer's bound cannot overflow.
    init(limit: Int) { self.limit = min(limit, Int.max / 4) }

    mutating func offer(_ entry: Entry, goesBefore: (Entry, Entry) -> Bool) {
        guard limit > 0 else { return }
        if let floor, !goesBefore(entry, floor) { return }
        entries.append(entry)
        if entries.count >= 2 * limit + 64 { cut(goesBefore) }
    }

    /// The largest entries, in `goesBefore` order.
    mutating func largest(_ goesBefore: (Entry, Entry) -> Bool) -> [Entry] {
        cut(goesBefore)
        return entries
    }

    /// Offers every entry `other` holds.
    mutating func add(_ other: TopRecords, goesBefore: (Entry, Entry) -> Bool) {
        for entry in other.entries { offer(entry, goesBefore: goesBefore) }
    }

    private mutating func cut(_ goesBefore: (Entry, Entry) -> Bool) {
        entries.sort(by: goesBefore)
        if entries.count > limit { entries.removeLast(entries.count - limit) }
        floor = entries.count == limit ? entries.last : nil
    }
}
