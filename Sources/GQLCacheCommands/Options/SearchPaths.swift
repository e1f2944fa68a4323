import CacheStore
import Foundation

/// A list of search paths as an Apollo codegen config holds them: the files
/// any pattern matches, less those a pattern starting with `!` matches.
///
/// ```swift
/// let paths = try SearchPaths(["**/*.graphql", "!Legacy/**"], origin: "input.operationSearchPaths")
/// paths.matches("Feature/HeroQuery.graphql")   // true
/// paths.matches("Legacy/Old.graphql")          // false
/// ```
struct SearchPaths: Sendable {
    let patterns: [String]
    let includes: [Glob]
    let excludes: [Glob]

    /// Fails, naming `origin` and the pattern, on a `!` anywhere but first:
    /// Apollo keeps `!` for exclusions and refuses it elsewhere.
    init(_ patterns: [String], origin: String) throws {
        if let misplaced = patterns.first(where: { $0.contains("!") && !$0.hasPrefix("!") }) {
            throw CommandFailure(.usage, "\(origin): '\(misplaced)': '!' may only start a pattern, to exclude the files it matches")
        }
        self.patterns = patterns
        includes = patterns.filter { !$0.hasPrefix("!") }.map(Glob.init)
        excludes = patterns.filter { $0.hasPrefix("!") }.map { Glob(String($0.dropFirst())) }
    }

    /// Whether `path` is in the list: some pattern includes it and no `!`
    /// pattern excludes it.
    func matches(_ path: String) -> Bool {
        includes.contains { $0.matches(path) } && !excludes.contains { $0.matches(path) }
    }

    /// The files the list finds, relative patterns taken from `folder` (an
    /// absolute path): each path is `folder/…` for those, absolute for
    /// absolute patterns. In pattern order, each pattern's files sorted,
    /// each file once. Folders that no pattern can match inside are not read;
    /// a folder reached through a symbolic link is not searched by a
    /// wildcard, which keeps a link to a parent from looping.
    func files(inFolder folder: String) throws -> [String] {
        let base = Glob.escaping(folder.hasSuffix("/") ? folder : folder + "/")
        let resolve = { (glob: Glob) in glob.pattern.hasPrefix("/") ? glob : Glob(base + glob.pattern) }
        let includes = includes.map(resolve)
        let excludes = excludes.map(resolve)
        var found: [String] = []
        var seen: Set<String> = []
        for glob in includes {
            var matches: [String] = []
            if glob.isLiteral {
                if Self.isFile(glob.pattern) { matches.append(glob.pattern) }
            } else {
                try Self.search(glob.literalPrefix, for: glob, into: &matches)
            }
            for path in matches.sorted() where !excludes.contains(where: { $0.matches(path) }) {
                if seen.insert(URL(fileURLWithPath: path).resolvingSymlinksInPath().path).inserted {
                    found.append(path)
                }
            }
        }
        return found
    }

    private static func search(_ folder: String, for glob: Glob, into matches: inout [String]) throws {
        let fileManager = FileManager.default
        let listed = folder.isEmpty ? "/" : folder
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: listed, isDirectory: &isFolder), isFolder.boolValue else { return }
        guard let names = try? fileManager.contentsOfDirectory(atPath: listed) else {
            throw CommandFailure(.io, "\(listed): cannot list the folder")
        }
        for name in names.sorted() {
            let path = folder + "/" + name
            guard fileManager.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                if glob.mayMatch(inside: path), !isSymbolicLink(path) { try search(path, for: glob, into: &matches) }
            } else if glob.matches(path), FileProbe.regularFileSize(atPath: path) != nil {
                // Not a FIFO or a device a wildcard happens to match: reading it could wait forever.
                matches.append(path)
            }
        }
    }

    private static func isFile(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
    }
}
