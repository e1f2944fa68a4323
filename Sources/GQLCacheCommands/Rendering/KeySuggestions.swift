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
        let written = apolloForm(key.rawValue)
        let threshold = max(closeness, target.count / 3)
        var scored: [(CacheKey, Int)] = []
        for candidate in Set(candidates) where candidate != key {
            // A key typed whole up to its arguments or path (QUERY_ROOT.reviews
            // for QUERY_ROOT.reviews(first:2).0) is as near as a typo.
            let extends = key.rawValue.count >= 3 && candidate.rawValue.hasPrefix(key.rawValue)
            // Arguments as Apollo writes them (`(first:2,episode:JEDI)` for `(episode:JEDI,first:2)`) are no typo at all.
            let distance = candidate.rawValue.lowercased() == lowered || (written != key.rawValue && apolloForm(candidate.rawValue) == written)
                ? 0 : extends ? 1 : NameSuggestions.editDistance(target, Array(candidate.rawValue.unicodeScalars))
            if distance <= threshold { scored.append((candidate, distance)) }
        }
        scored.sort { ($0.1, $0.0) < ($1.1, $1.0) }
        // A key that differs only in case is the answer; others would be noise.
        if let best = scored.first, best.1 == 0 { scored = scored.filter { $0.1 == 0 } }
        return scored.prefix(limit).map(\.0)
    }

    /// `key` with the arguments of each field written as Apollo writes
    /// them, as far as a person's way of typing them can be told apart:
    /// `human(id: "1000")` is `human(id:1000)`, and `reviews(first: 2,
    /// episode: JEDI)` is `reviews(episode:JEDI,first:2)`. Top-level
    /// arguments only: each trimmed, the space after its name's `:` and
    /// the quotes around a whole string value taken away, then sorted by
    /// name in byte order; what is inside them stays as typed (a list's
    /// `[a, b]` holds a space in Apollo's form too).
    static func apolloForm(_ key: String) -> String {
        let scalars = Array(key.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "(", let close = closing(scalars, from: index) else {
                result.append(scalars[index])
                index += 1
                continue
            }
            var arguments: [[Unicode.Scalar]] = []
            var start = index + 1, depth = 0
            for position in (index + 1)...close {
                let scalar = scalars[position]
                if position == close || (scalar == "," && depth == 0) {
                    arguments.append(argument(scalars[start..<position]))
                    start = position + 1
                } else if scalar == "(" || scalar == "[" {
                    depth += 1
                } else if scalar == ")" || scalar == "]" {
                    depth -= 1
                }
            }
            // By name, which an input object's brackets enclose too (`[filter:limit:2]`).
            func name(_ argument: [Unicode.Scalar]) -> ArraySlice<Unicode.Scalar> { argument.drop { $0 == "[" }.prefix { $0 != ":" } }
            let written = arguments.sorted { name($0).lexicographicallyPrecedes(name($1)) { $0.value < $1.value } }
            result.append("(")
            for (number, argument) in written.enumerated() {
                if number > 0 { result.append(",") }
                result.append(contentsOf: argument)
            }
            result.append(")")
            index = close + 1
        }
        return String(result)
    }

    /// Where the bracket that `open` is closes, counting `(` and `[`; nil when none does.
    private static func closing(_ scalars: [Unicode.Scalar], from open: Int) -> Int? {
        var depth = 0
        for position in open..<scalars.count {
            switch scalars[position] {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { return scalars[position] == ")" ? position : nil }
            default: break
            }
        }
        return nil
    }

    /// One argument as Apollo writes it: `id: "1000"` is `id:1000`.
    private static func argument(_ text: ArraySlice<Unicode.Scalar>) -> [Unicode.Scalar] {
        let trimmed = Array(text.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed())
        guard let colon = trimmed.firstIndex(of: ":") else { return trimmed }
        var value = trimmed[(colon + 1)...].drop { $0.properties.isWhitespace }
        if value.count >= 2, value.first == "\"", value.last == "\"" { value = value.dropFirst().dropLast() }
        return Array(trimmed[...colon]) + value
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
        /// The key read as a path of fields from a record that exists,
        /// as Apollo writes an object's key when it has no id
        /// (`QUERY_ROOT.hero` for QUERY_ROOT's hero(episode:NEWHOPE)):
        /// each reference followed, to the record of another key.
        var path: [PathStep] = []
        /// Where that path ends, when the key is one.
        var pathEnd: PathEnd? = nil

        /// One reference followed along a key read as a path.
        struct PathStep: Equatable {
            /// The record that holds the reference.
            var holder: CacheKey
            /// Its field's cache key with any list indexes (`friends.1`).
            var field: String
            /// The key the reference names.
            var target: CacheKey
        }

        /// The end of a key read as a path.
        enum PathEnd: Equatable {
            /// At the last reference of the path, which names a record, or none.
            case reference(dangling: Bool)
            /// At a field (with list indexes) of the last record that holds no reference.
            case value(field: String, of: CacheKey)
        }

        /// "row _id 11 has that key as a BLOB, which Apollo never finds",
        /// or the like for a key that is not UTF-8; nil for neither.
        var strayRow: String? {
            if let rowID = blobKeyRowID { return "row _id \(rowID) has that key as a BLOB, which Apollo never finds" }
            if let row = notUTF8Row {
                return "row _id \(row.rowID) has a key that is not UTF-8 (X'\(row.hex)'), listed with U+FFFD for its bad bytes, which Apollo never finds"
            }
            return nil
        }

        /// "; read as a path of fields: QUERY_ROOT hero(episode:NEWHOPE) → Droid:2001",
        /// or nil when the key is no such path.
        var pathNote: String? {
            guard let pathEnd else { return nil }
            let steps = path.enumerated().map { index, step in
                (index == 0 ? step.holder.display + " " : "") + step.field + " → " + step.target.display
            }.joined(separator: " ")
            switch pathEnd {
            case .reference(let dangling):
                return "; read as a path of fields: " + steps + (dangling ? ", which has no record (a dangling reference)" : "")
            case .value(let field, let holder):
                return "; read as a path of fields, it is field \(field) of \(holder.display), not a record"
                    + (path.isEmpty ? "" : " (" + steps + ")")
            }
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
        return "no record '\(key.inMessage)' in \(path)\(hint.pathNote ?? "")\(nearest)" + (hint.nearest.lazy.compactMap { Self.lookalikeNote(key, $0) }.first ?? "")
    }

    /// Why a key asked for and a nearest one that look alike are two keys:
    /// the inside of a quoted key copied with its escapes as typed text
    /// (`New\nline:1` for a key holding a newline), or one character
    /// written composed and the other decomposed (`é` and `e` + U+0301).
    static func lookalikeNote(_ asked: CacheKey, _ near: CacheKey) -> String? {
        let shown = near.display
        // By scalar: a combining mark that begins the key makes one character with the quote.
        if shown.unicodeScalars.first == "\"", shown.unicodeScalars.count > 2, shown.insideQuotes == asked.rawValue {
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
        // Arguments typed as in a document (`human(id: "1000")`): the key Apollo writes, or the path it reads as.
        let written = CacheKey(KeySuggestions.apolloForm(key.rawValue))
        if written != key, try contains(written) { return KeySuggestions.Hint(nearest: [written]) }
        // A path that leads to a key says where; one that ends at a field's value (a list) gets the nearest keys too.
        let pathHint = try pathHint(for: key) ?? (written != key ? try pathHint(for: written) : nil)
        if let pathHint, case .reference? = pathHint.pathEnd { return pathHint }
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
        var nearest = KeySuggestions.nearest(to: key, among: candidates)
        // The record whose field the path ends at is named already.
        if case .value(_, let holder)? = pathHint?.pathEnd { nearest.removeAll { $0 == holder } }
        return KeySuggestions.Hint(nearest: nearest, path: pathHint?.path ?? [], pathEnd: pathHint?.pathEnd)
    }

    /// The records a path of fields leads through to a record the cache
    /// holds, read from `record` (`hero.friends.0`, also `hero` for its one
    /// field of that name), or from the record whose key begins `text`
    /// (`QUERY_ROOT.hero.friends.0`) with that record first; nil when it
    /// leads to no record (then a message says where it ends).
    func recordsAlong(_ text: String, from record: Record?) throws -> [CacheKey]? {
        if let record, let hint = try follow(Substring(text), from: record), case .reference(dangling: false)? = hint.pathEnd {
            return hint.path.map(\.target)
        }
        guard let hint = try pathHint(for: CacheKey(text)), case .reference(dangling: false)? = hint.pathEnd, let first = hint.path.first else {
            return nil
        }
        return [first.holder] + hint.path.map(\.target)
    }

    /// Most dots in a key tried as the end of a record's key, for
    /// ``pathHint(for:)``: each is a lookup.
    private static let pathHintDotLimit = 16

    /// `key` read as a path of fields (`QUERY_ROOT.hero.friends.0`): from
    /// the record whose key is the text before one of its dots, through
    /// fields that hold references, to the key of the last. Nil when no
    /// such path runs the whole key: then it is only a key.
    private func pathHint(for key: CacheKey) throws -> KeySuggestions.Hint? {
        let raw = Substring(key.rawValue)
        for dot in raw.indices.lazy.filter({ raw[$0] == "." }).prefix(Self.pathHintDotLimit) {
            // A damaged record is no start; the message about the key is enough.
            guard let record = try? record(for: CacheKey(String(raw[..<dot]))) else { continue }
            if let hint = try follow(raw[raw.index(after: dot)...], from: record) { return hint }
        }
        return nil
    }

    /// The references `path` follows from `record`, to its end, a
    /// reference or a field that holds none; nil when a step is no field
    /// of the record it is in, or goes on from a field that holds no
    /// reference or from a key with no record.
    private func follow(_ path: Substring, from record: Record) throws -> KeySuggestions.Hint? {
        var steps: [KeySuggestions.Hint.PathStep] = []
        var record = record, path = path
        while steps.count < 64, let (name, indexes, rest) = FieldPath.firstStep(of: path, in: record) {
            guard var value = record.fields[name] else { return nil }
            for index in indexes {
                guard case .list(let elements) = value, elements.indices.contains(index) else { return nil }
                value = elements[index]
            }
            let field = name + indexes.map { ".\($0)" }.joined()
            guard case .reference(let target) = value else {
                return rest == nil ? KeySuggestions.Hint(path: steps, pathEnd: .value(field: field, of: record.key)) : nil
            }
            steps.append(.init(holder: record.key, field: field, target: target))
            guard let rest else {
                return KeySuggestions.Hint(path: steps, pathEnd: .reference(dangling: try !contains(target)))
            }
            guard let next = try? self.record(for: target) else { return nil }
            record = next
            path = rest
        }
        return nil
    }
}
