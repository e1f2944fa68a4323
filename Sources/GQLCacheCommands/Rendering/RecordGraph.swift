import CacheStore

/// Records loaded for display: the ones asked for and, level by level, the
/// records they reference, up to a depth.
struct RecordGraph {
    enum Entry: Equatable {
        case found(Record)
        case damaged(String)
        /// The file is damaged where the record is stored: SQLite cannot
        /// read it, and the text says so, with what SQLite said.
        case unreadable(String)
        case missing
    }

    /// Every loaded key, with its entry.
    var entries: [CacheKey: Entry] = [:]
    /// Loaded keys by level: the requested keys, then what they reference, …
    var levels: [[CacheKey]] = []
    /// Keys referenced past the last level that have a record (not loaded).
    var existingBeyond: Set<CacheKey> = []
    /// With the last level summarized, its records that hold references
    /// (their fields are not kept).
    var summarizedWithReferences: Set<CacheKey> = []

    /// Whether the record at `key` holds references, as far as the graph knows.
    func holdsReferences(_ key: CacheKey) -> Bool {
        if summarizedWithReferences.contains(key) { return true }
        if case .found(let record)? = entries[key] { return !record.referencePaths.isEmpty }
        return false
    }

    /// Whether a record exists for `key`, as far as the graph knows.
    func exists(_ key: CacheKey) -> Bool {
        switch entries[key] {
        case .found?, .damaged?, .unreadable?: return true
        case .missing?: return false
        case nil: return existingBeyond.contains(key)
        }
    }

    /// Loads `keys` and what they reference up to `depth` levels away.
    /// `summarizingLastLevel` (for `refs`, which draws no fields): the
    /// records of the last level keep only their `__typename`, and whether
    /// they hold references; what they reference is not looked up. A
    /// root listing a million keys then costs a few hundred bytes a key,
    /// not the decoded records.
    static func load(_ keys: [CacheKey], depth: Int, in tx: ReadTransaction, summarizingLastLevel: Bool = false) throws -> RecordGraph {
        var graph = RecordGraph()
        let beyond = try walk(keys, depth: depth, in: tx, collectingBeyond: !summarizingLastLevel) { level, key, entry in
            if level == graph.levels.count { graph.levels.append([]) }
            graph.levels[level].append(key)
            if summarizingLastLevel, level == depth, level > 0, case .found(let record) = entry {
                graph.entries[key] = .found(Record(key: record.key, fields: record.fields.filter { $0.key == "__typename" }))
                if !record.referencePaths.isEmpty { graph.summarizedWithReferences.insert(key) }
            } else {
                graph.entries[key] = entry
            }
        }
        graph.existingBeyond = try tx.existingKeys(among: beyond)
        return graph
    }

    /// Hands over `keys`, then what they reference, level by level up to
    /// `depth` levels away, each key once, where it is nearest the top:
    /// its level, its entry. Records are read `chunkSize` keys at a time
    /// and let go once handed over, so memory follows the keys, not the
    /// records. Returns the keys referenced past the last level that were
    /// not handed over when `collectingBeyond`, else nothing.
    @discardableResult
    static func walk(
        _ keys: [CacheKey], depth: Int, in tx: ReadTransaction, chunkSize: Int = 4096, collectingBeyond: Bool = false,
        _ body: (_ level: Int, _ key: CacheKey, _ entry: Entry) throws -> Void
    ) throws -> [CacheKey] {
        var seen: Set<CacheKey> = []
        var frontier = keys.filter { seen.insert($0).inserted }
        for level in 0...depth {
            let follows = level < depth || collectingBeyond
            var next: [CacheKey] = []
            var start = 0
            while start < frontier.count {
                let chunk = Array(frontier[start..<min(start + chunkSize, frontier.count)])
                start += chunk.count
                let (loaded, unreadable) = try tx.recordsReadingAroundDamage(for: chunk)
                for key in chunk {
                    let entry: Entry
                    switch loaded[key] {
                    case .success(let record)?: entry = .found(record)
                    case .failure(.damagedRecord(_, let problem))?: entry = .damaged(problem.description)
                    case .failure(let error)?: entry = .damaged(error.description)
                    case nil:
                        entry = unreadable[key].map { .unreadable("the page of the file that holds it is damaged (SQLite: \($0))") } ?? .missing
                    }
                    try body(level, key, entry)
                    guard follows, case .found(let record) = entry else { continue }
                    for reference in record.references where seen.insert(reference.key).inserted {
                        next.append(reference.key)
                    }
                }
            }
            if level == depth { return collectingBeyond ? next : [] }
            if next.isEmpty { break }
            frontier = next
        }
        return []
    }

    /// The fewest references from `key` to each record reached within
    /// `levels` of it, following the `references` each found record holds
    /// (those a drawing follows): where a tree expands each record.
    func nearestLevels(from key: CacheKey, within levels: Int, following references: (Record) -> [CacheKey]) -> [CacheKey: Int] {
        nearestLevels(from: [key], within: levels, following: references)
    }

    /// As ``nearestLevels(from:within:following:)`` from several records at
    /// once, each at level 0.
    func nearestLevels(from keys: [CacheKey], within levels: Int, following references: (Record) -> [CacheKey]) -> [CacheKey: Int] {
        var nearest: [CacheKey: Int] = [:]
        for key in keys { nearest[key] = 0 }
        var frontier = Array(nearest.keys)
        var level = 0
        while !frontier.isEmpty && level < levels {
            level += 1
            var next: [CacheKey] = []
            for holder in frontier {
                guard case .found(let record)? = entries[holder] else { continue }
                for target in references(record) where nearest[target] == nil {
                    nearest[target] = level
                    next.append(target)
                }
            }
            frontier = next
        }
        return nearest
    }
}
