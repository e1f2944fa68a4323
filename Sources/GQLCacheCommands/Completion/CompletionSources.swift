import CacheQuery
import CacheStore
import Foundation

/// What both the REPL's Tab and the shells' completion offer for a cache
/// key or a definition name. Looks only, never fails: a problem gives no
/// candidates.
enum CompletionSources {
    /// Keys that start with `prefix`, in key order, at most `limit`: a
    /// range of the key index, so it stays instant on a million records.
    /// When more match, the last is the greatest of them all, so that what
    /// the keys listed share (which Tab inserts) is what every match
    /// shares: in byte order, that of the first and the last. Only keys
    /// `offered` takes count (a shell cannot be handed a key with a line
    /// break): the greatest one it does not take would leave its place
    /// empty, and Tab would insert what fewer keys share.
    static func keys(in store: CacheStore, startingWith prefix: String, limit: Int, offered: (String) -> Bool = { _ in true }) -> [String] {
        keysAndWhetherCut(in: store, startingWith: prefix, limit: limit, offered: offered).keys
    }

    /// ``keys(in:startingWith:limit:offered:)``, and whether more keys
    /// match than those.
    static func keysAndWhetherCut(
        in store: CacheStore, startingWith prefix: String, limit: Int, offered: (String) -> Bool = { _ in true }
    ) -> (keys: [String], cut: Bool) {
        let pattern = prefix.isEmpty ? nil : try? KeyPattern(prefix, mode: .prefix)
        struct Enough: Error {}
        var keys: [String] = []
        var cut = false
        try? store.read { tx in
            do {
                try tx.forEachKey(matching: pattern) { key in
                    guard offered(key.rawValue) else { return }
                    keys.append(key.rawValue)
                    if keys.count > limit { throw Enough() }
                }
            } catch is Enough {}
            guard keys.count > limit else { return }
            cut = true
            keys.removeLast(2)
            do {
                try tx.forEachKey(matching: pattern, descending: true) { key in
                    guard offered(key.rawValue) else { return }
                    keys.append(key.rawValue)
                    throw Enough()
                }
            } catch is Enough {}
        }
        return (keys, cut)
    }

    /// The `__typename`s the file's records hold, sorted: a scan of every
    /// record (about half a second on a million).
    static func typenames(in store: CacheStore) -> [String] {
        readTypenames(in: store) ?? []
    }

    /// ``typenames(in:)``, or nil when the file could not be read (held
    /// locked by the app, interrupted): nothing to keep for the next Tab.
    static func readTypenames(in store: CacheStore) -> [String]? {
        guard let census = try? store.read({ tx in try tx.census(largest: 0, damagedKeys: 0) }) else { return nil }
        // --type refuses an empty name: a record whose __typename is "" is not offered.
        return census.typeCounts.compactMap(\.typename).filter { !$0.isEmpty }.sorted()
    }

    /// The field names records hold that start with `prefix`, for `grep
    /// --field`, sorted: a scan of every record, as for ``typenames(in:)``.
    /// The names without arguments (`height`), which match every argument
    /// list; the field cache keys with their arguments once `prefix` has
    /// a `(`.
    static func fieldNames(in store: CacheStore, startingWith prefix: String) -> [String] {
        fieldNames(fieldNames(in: store) ?? [], startingWith: prefix)
    }

    /// Every field name the records hold (see ``fieldNames(in:startingWith:)``),
    /// or nil when the file could not be read.
    static func fieldNames(in store: CacheStore) -> Set<String>? {
        try? store.read { tx in try tx.fieldNames() }
    }

    /// Those of `names` offered for `prefix` (see ``fieldNames(in:startingWith:)``).
    static func fieldNames(_ names: Set<String>, startingWith prefix: String) -> [String] {
        let withArguments = prefix.contains("(")
        return names.filter { $0.hasPrefix(prefix) && $0.contains("(") == withArguments }.sorted(by: byteOrder)
    }

    /// Whether a Tab may read `path`: a regular file of at most 16 MiB. A
    /// FIFO or /dev/stdin would wait for input (the prompt hangs, and the
    /// keys typed go to the completer), /dev/zero never ends.
    static func isSmallRegularFile(_ path: String) -> Bool {
        (FileProbe.regularFileSize(atPath: path) ?? .max) <= 16 << 20
    }

    /// The names of the operations and fragments in these documents (each
    /// parsed on its own, so one that does not parse hides only its own),
    /// and in the files an Apollo codegen config finds. For `update`, only
    /// the local cache mutations (`forUpdate`): it refuses the others.
    static func definitionNames(
        documentFiles: [String], texts: [String] = [], apolloConfig: String? = nil, forUpdate: Bool = false
    ) -> (operations: [String], fragments: [String]) {
        var sources: [(name: String, text: String)] = []
        // The files the config finds are read as the ones named on the line are.
        var files = documentFiles
        if let apolloConfig, isSmallRegularFile(apolloConfig), let config = try? ApolloConfig.load(apolloConfig),
            let found = try? config.operationFiles() {
            files = found + files
        }
        // Never the cache file a store has open: closing a descriptor of it
        // would release the store's locks.
        for file in files where isSmallRegularFile(file) && !FileProbe.isHeldByAnOpenStore(file) {
            if let text = try? String(contentsOfFile: file, encoding: .utf8) { sources.append((file, text)) }
        }
        sources += texts.map { ("--text", $0) }
        var operations: Set<String> = []
        var fragments: Set<String> = []
        for source in sources {
            guard let document = try? QueryDocument.parse([source]) else { continue }
            operations.formUnion(document.operations.filter { !forUpdate || $0.isLocalCacheMutation }.compactMap(\.name))
            fragments.formUnion(document.fragments.filter { !forUpdate || $0.value.isLocalCacheMutation }.map(\.key))
        }
        return (operations.sorted(), fragments.sorted())
    }
}
