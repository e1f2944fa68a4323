import CacheQuery
import CacheStore
import Foundation

/// Ranks candidate keys by how close they are to a key that was not found.
enum KeySuggestions {
    /// The closest `limit` candidates by edit distance; keys equal but for
    /// case, when there are any, alone. Candidates too far away to be a typo
    /// are dropped.
    /// `closeness`: the largest edit distance taken, at least (3 by default, for
    /// keys, which share long prefixes; type names are short, and 3 edits
    /// would make `Nope` one of `Post`).
    static func nearest(to key: CacheKey, among candidates: [CacheKey], limit: Int = 3, closeness: Int = 3) -> [CacheKey] {
        let target = Array(key.rawValue.unicodeScalars)
        let lowered = key.rawValue.lowercased()
        let threshold = max(closeness, target.count / 3)
        var scored: [(CacheKey, Int)] = []
        for candidate in Set(candidates) where candidate != key {
            // A key typed whole up to its arguments or path (QUERY_ROOT.reviews
            // for QUERY_ROOT.reviews(first:2).0) is as near as a typo.
            let extends = key.rawValue.count >= 3 && candidate.rawValue.hasPrefix(key.rawValue)
            let distance = candidate.rawValue.lowercased() == lowered
                ? 0 : extends ? 1 : NameSuggestions.editDistance(target, Array(candidate.rawValue.unicodeScalars))
            if distance <= threshold { scored.append((candidate, distance)) }
        }
        scored.sort { ($0.1, $0.0) < ($1.1, $1.0) }
        // A key that differs only in case is the answer; others would be noise.
        if let best = scored.first, best.1 == 0 { scored = scored.filter { $0.1 == 0 } }
        return scored.prefix(limit).map(\.0)
    }

    /// How many of a command's missing keys are given nearest keys.
    static let hintedKeyLimit = 10

    /// What to tell a person about a key that was not found.
    struct Hint: Equatable {
        /// Keys close to it, nearest first.
        var nearest: [CacheKey] = []
        /// The cache holds no records at all.
        var cacheIsEmpty = false
        /// The `_id` of a row whose key is these bytes stored as a BLOB,
        /// which no lookup by text finds.
        var blobKeyRowID: Int64? = nil
        /// A row whose key is text that is not UTF-8 and is listed as
        /// this key, with U+FFFD for its bad bytes.
        var notUTF8Row: BlobKeyRow? = nil

        /// "row _id 11 has that key as a BLOB, which Apollo never finds",
        /// or the like for a key that is not UTF-8; nil for neither.
        var strayRow: String? {
            if let rowID = blobKeyRowID { return "row _id \(rowID) has that key as a BLOB, which Apollo never finds" }
            if let row = notUTF8Row {
                return "row _id \(row.rowID) has a key that is not UTF-8 (X'\(row.hex)'), listed with U+FFFD for its bad bytes, which Apollo never finds"
            }
            return nil
        }
    }

    /// "no record 'K' in FILE; nearest keys: A, B" for a key not found, or,
    /// when the key is stored as a BLOB or as bytes that are not UTF-8,
    /// where that row is and what removes it.
    static func notFoundMessage(_ key: CacheKey, in path: String, nearest hint: Hint) -> String {
        if let strayRow = hint.strayRow {
            return "no record '\(key.inMessage)' in \(path): \(strayRow); 'gqlcache gc \(path) --stray-rows' deletes it"
        }
        if hint.cacheIsEmpty { return "no record '\(key.inMessage)' in \(path), which holds no records" }
        // Listed as keys are shown (quoted when odd), unlike the one asked for, which the message quotes.
        let nearest = hint.nearest.isEmpty ? "" : "; nearest keys: " + hint.nearest.map { $0.rawValue.count > 200 ? $0.inMessage : $0.display }
            .joined(separator: ", ")
        return "no record '\(key.inMessage)' in \(path)\(nearest)" + (hint.nearest.lazy.compactMap { Self.lookalikeNote(key, $0) }.first ?? "")
    }

    /// Why a key asked for and a nearest one that look alike are two keys:
    /// the inside of a quoted key copied with its escapes as typed text
    /// (`New\nline:1` for a key holding a newline), or one character
    /// written composed and the other decomposed (`é` and `e` + U+0301).
    static func lookalikeNote(_ asked: CacheKey, _ near: CacheKey) -> String? {
        let shown = near.display
        if shown.hasPrefix("\""), shown.count > 2, String(shown.dropFirst().dropLast()) == asked.rawValue {
            return " (a key shown in quotes is a JSON string: its escapes stand for the characters, such as \\n for a newline; "
                + "type the characters, as bash's $'…' does, or take the key from --format jsonl)"
        }
        let sameText = asked.rawValue == near.rawValue  // Swift compares strings by canonical equivalence
        if sameText && !asked.rawValue.utf8.elementsEqual(near.rawValue.utf8) {
            return " (the two look alike but differ in their bytes: an accented character is written composed in one "
                + "and as a letter plus a combining mark in the other, and keys are compared byte by byte)"
        }
        return nil
    }

    /// "no record has __typename 'human' in FILE; nearest typenames: Human":
    /// the names the file's records hold that are nearest to those asked
    /// for, as ``nearest(to:among:)`` ranks keys. `held` is read only for
    /// the message (a scan of the records), so only when nothing matched.
    static func typenameNotFoundMessage(_ asked: [String], in path: String, held: () -> [String]) -> String {
        let message = "no record has __typename \(OptionTable.choices(asked.map(\.shortenedForMessage))) in \(path)"
        // --type refuses an empty name, so a record whose __typename is "" is not offered.
        let heldNames = held().filter { !$0.isEmpty }
        let candidates = heldNames.map { CacheKey($0) }
        var nearest: [String] = []
        for name in asked {
            for candidate in Self.nearest(to: CacheKey(name), among: candidates, closeness: 2) where !nearest.contains(candidate.rawValue) {
                nearest.append(candidate.rawValue)
            }
        }
        if nearest.isEmpty {
            // None close: the file's types, when they are few enough to read.
            let others = heldNames.filter { !asked.contains($0) }.sorted(by: byteOrder)
            guard !others.isEmpty, others.count <= 12 else { return message }
            return message + "; the file's typenames: " + others.map(\.shownOnLine).joined(separator: ", ")
        }
        return message + "; nearest typenames: " + nearest.map(\.shownOnLine).joined(separator: ", ")
    }
}

extension ReadTransaction {
    /// A hint for each of `keys`, which were not found: the first
    /// ``KeySuggestions/hintedKeyLimit`` get their nearest keys, the rest
    /// only the row that holds the key as a BLOB or as text that is not
    /// UTF-8, if one does (see ``strayRowHint(for:)``). Nearest keys cost a pass over
    /// the key index (the match that ignores case), and a script's
    /// thousands of missing keys took seconds apiece.
    func suggestions(forEach keys: [CacheKey]) throws -> [KeySuggestions.Hint] {
        try keys.enumerated().map { index, key in
            if index < KeySuggestions.hintedKeyLimit { return try suggestions(for: key) }
            return try strayRowHint(for: key) ?? KeySuggestions.Hint()
        }
    }

    /// The row that holds `key` as a BLOB, or as text that is not UTF-8
    /// listed as `key`, if one does: an index lookup, and for a key that
    /// holds U+FFFD a range of the key index (the keys that go on with a
    /// byte that is not ASCII where it holds the first).
    private func strayRowHint(for key: CacheKey) throws -> KeySuggestions.Hint? {
        if let rowID = try rowID(ofBlobKey: key) { return KeySuggestions.Hint(blobKeyRowID: rowID) }
        if let row = try rowsNotUTF8(readingAs: key).first { return KeySuggestions.Hint(notUTF8Row: row) }
        return nil
    }

    /// Keys near `key` to suggest when it is not found: case variants, its
    /// neighbours in key order, and the neighbours of its type prefix. Index
    /// lookups only, so it stays fast on large files. A row whose key is
    /// `key` stored as a BLOB, or listed as `key`, is named instead.
    func suggestions(for key: CacheKey) throws -> KeySuggestions.Hint {
        if let stray = try strayRowHint(for: key) { return stray }
        var candidates = try keys(equalIgnoringCase: key)
        candidates += try keys(around: key, limit: 5)
        // Its neighbours in key order are any keys at all.
        if candidates.isEmpty { return KeySuggestions.Hint(cacheIsEmpty: true) }
        // The key with its accented characters written the other way
        // (composed or decomposed), which sorts far from it.
        candidates += try existingKeys(among: [
            CacheKey(key.rawValue.precomposedStringWithCanonicalMapping), CacheKey(key.rawValue.decomposedStringWithCanonicalMapping),
        ])
        if let colon = key.rawValue.firstIndex(of: ":") {
            let typePrefix = String(key.rawValue[...colon])
            for variant in Set([typePrefix, typePrefix.prefix(1).uppercased() + typePrefix.dropFirst()]) {
                candidates += try keys(around: CacheKey(variant + key.rawValue[key.rawValue.index(after: colon)...]), limit: 3)
            }
        }
        return KeySuggestions.Hint(nearest: KeySuggestions.nearest(to: key, among: candidates))
    }
}
