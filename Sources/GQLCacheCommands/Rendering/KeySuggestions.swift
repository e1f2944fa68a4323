import CacheStore

/// Ranks candidate keys by how close they are to a key that was not found.
enum KeySuggestions {
    /// The closest `limit` candidates by edit distance; keys equal but for
    /// case, when there are any, alone. Candidates too far away to be a typo
    /// are dropped.
    static func nearest(to key: CacheKey, among candidates: [CacheKey], limit: Int = 3) -> [CacheKey] {
        let target = Array(key.rawValue.unicodeScalars)
        let lowered = key.rawValue.lowercased()
        let threshold = max(3, target.count / 3)
        var scored: [(CacheKey, Int)] = []
        for candidate in Set(candidates) where candidate != key {
            let distance = candidate.rawValue.lowercased() == lowered
                ? 0 : editDistance(target, Array(candidate.rawValue.unicodeScalars))
            if distance <= threshold { scored.append((candidate, distance)) }
        }
        scored.sort { ($0.1, $0.0) < ($1.1, $1.0) }
        // A key that differs only in case is the answer; others would be noise.
        if let best = scored.first, best.1 == 0 { scored = scored.filter { $0.1 == 0 } }
        return scored.prefix(limit).map(\.0)
    }

    /// What to tell a person about a key that was not found.
    struct Hint: Equatable {
        /// Keys close to it, nearest first.
        var nearest: [CacheKey] = []
        /// The `_id` of a row whose key is these bytes stored as a BLOB,
        /// which no lookup by text finds.
        var blobKeyRowID: Int64? = nil
    }

    /// "no record 'K' in FILE; nearest keys: A, B" for a key not found, or,
    /// when the key is stored as a BLOB, where that row is and what
    /// removes it.
    static func notFoundMessage(_ key: CacheKey, in path: String, nearest hint: Hint) -> String {
        if let rowID = hint.blobKeyRowID {
            return "no record '\(key.inMessage)' in \(path): row _id \(rowID) has that key as a BLOB, which Apollo never "
                + "finds; 'gqlcache gc \(path) --stray-rows' deletes it"
        }
        // Listed as keys are shown (quoted when odd), unlike the one asked for, which the message quotes.
        let nearest = hint.nearest.isEmpty ? "" : "; nearest keys: " + hint.nearest.map { $0.rawValue.count > 200 ? $0.inMessage : $0.display }
            .joined(separator: ", ")
        return "no record '\(key.inMessage)' in \(path)\(nearest)"
    }

    /// "no record has __typename 'human' in FILE; nearest typenames: Human":
    /// the names the file's records hold that are nearest to those asked
    /// for, as ``nearest(to:among:)`` ranks keys. `held` is read only for
    /// the message (a scan of the records), so only when nothing matched.
    static func typenameNotFoundMessage(_ asked: [String], in path: String, held: () -> [String]) -> String {
        let message = "no record has __typename \(OptionTable.choices(asked)) in \(path)"
        let candidates = held().map { CacheKey($0) }
        var nearest: [String] = []
        for name in asked {
            for candidate in Self.nearest(to: CacheKey(name), among: candidates) where !nearest.contains(candidate.rawValue) {
                nearest.append(candidate.rawValue)
            }
        }
        return nearest.isEmpty ? message : message + "; nearest typenames: " + nearest.map(\.shownOnLine).joined(separator: ", ")
    }

    /// Levenshtein distance over Unicode scalars.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}

extension ReadTransaction {
    /// Keys near `key` to suggest when it is not found: case variants, its
    /// neighbours in key order, and the neighbours of its type prefix. Index
    /// lookups only, so it stays fast on large files. A row whose key is
    /// `key` stored as a BLOB is named instead.
    func suggestions(for key: CacheKey) throws -> KeySuggestions.Hint {
        if let rowID = try rowID(ofBlobKey: key) { return KeySuggestions.Hint(blobKeyRowID: rowID) }
        var candidates = try keys(equalIgnoringCase: key)
        candidates += try keys(around: key, limit: 5)
        if let colon = key.rawValue.firstIndex(of: ":") {
            let typePrefix = String(key.rawValue[...colon])
            for variant in Set([typePrefix, typePrefix.prefix(1).uppercased() + typePrefix.dropFirst()]) {
                candidates += try keys(around: CacheKey(variant + key.rawValue[key.rawValue.index(after: colon)...]), limit: 3)
            }
        }
        return KeySuggestions.Hint(nearest: KeySuggestions.nearest(to: key, among: candidates))
    }
}
