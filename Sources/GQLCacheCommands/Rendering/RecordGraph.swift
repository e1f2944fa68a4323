import CacheStore

/// Records loaded for display: the ones asked for and, level by level, the
/// records they reference, up to a depth.
struct RecordGraph {
    enum Entry: Equatable {
        case found(Record)
        case damaged(String)
        case missing
    }

    /// Every loaded key, with its entry.
    var entries: [CacheKey: Entry] = [:]
    /// Loaded keys by level: the requested keys, then what they reference, …
    var levels: [[CacheKey]] = []
    /// Keys referenced past the last level that have a record (not loaded).
    var existingBeyond: Set<CacheKey> = []

    /// Whether a record exists for `key`, as far as the graph knows.
    func exists(_ key: CacheKey) -> Bool {
        switch entries[key] {
        case .found?, .damaged?: return true
        case .missing?: return false
        case nil: return existingBeyond.contains(key)
        }
    }

    /// Loads `keys` and what they reference up to `depth` levels away.
    static func load(_ keys: [CacheKey], depth: Int, in tx: ReadTransaction) throws -> RecordGraph {
        var graph = RecordGraph()
        var frontier = unique(keys)
        for level in 0...depth {
            let loaded = try tx.records(for: frontier)
            for key in frontier {
                switch loaded[key] {
                case .success(let record)?: graph.entries[key] = .found(record)
                case .failure(.damagedRecord(_, let problem))?: graph.entries[key] = .damaged(problem.description)
                case .failure(let error)?: graph.entries[key] = .damaged(error.description)
                case nil: graph.entries[key] = .missing
                }
            }
            graph.levels.append(frontier)
            let referenced = unique(frontier.flatMap { graph.references(of: $0) }).filter { graph.entries[$0] == nil }
            if level == depth {
                graph.existingBeyond = try tx.existingKeys(among: referenced)
                break
            }
            if referenced.isEmpty { break }
            frontier = referenced
        }
        return graph
    }

    /// The fewest references from `key` to each record reached within
    /// `levels` of it, following the `references` each found record holds
    /// (those a drawing follows): where a tree expands each record.
    func nearestLevels(from key: CacheKey, within levels: Int, following references: (Record) -> [CacheKey]) -> [CacheKey: Int] {
        var nearest: [CacheKey: Int] = [key: 0]
        var frontier = [key]
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

    private func references(of key: CacheKey) -> [CacheKey] {
        guard case .found(let record)? = entries[key] else { return [] }
        return record.references.map(\.key)
    }

    private static func unique(_ keys: [CacheKey]) -> [CacheKey] {
        var seen: Set<CacheKey> = []
        return keys.filter { seen.insert($0).inserted }
    }
}
