import CacheStore
import Foundation

/// Where an Apollo iOS codegen config (`apollo-codegen-config.json`) finds
/// the schema and the operations: `input.schemaSearchPaths` and
/// `input.operationSearchPaths`, relative to the config's folder as Apollo's
/// CLI takes them. Every other key (`schemaNamespace`, `output`, `options`, …)
/// is ignored.
///
/// ```swift
/// let config = try ApolloConfig.load("ios/apollo-codegen-config.json")
/// let schema = try CacheSchema.parse(try config.schemaSources())
/// ```
struct ApolloConfig {
    /// The config file as named on the command line.
    let file: String
    /// The folder relative search paths start from, absolute.
    let folder: String
    let schemaSearchPaths: SearchPaths
    let operationSearchPaths: SearchPaths

    /// What Apollo's `FileInput` takes when a search-path list is left out.
    static let defaultSchemaSearchPaths = ["**/*.graphqls"]
    static let defaultOperationSearchPaths = ["**/*.graphql"]

    /// Reads the config named on the command line.
    static func load(_ file: String) throws -> ApolloConfig {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
        return try ApolloConfig(jsonText: try TextFile.read(file, what: "Apollo config"), file: file, folder: folder)
    }

    /// Decodes the config's text; every problem is a usage failure naming
    /// `file` and the key.
    init(jsonText: String, file: String, folder: String) throws {
        self.file = file
        self.folder = folder
        let json = try JSONInput.parse(jsonText, name: file, what: "config")
        let example = #""input": {"schemaSearchPaths": ["**/*.graphqls"], "operationSearchPaths": ["**/*.graphql"]}"#
        guard case .object(let members) = json else {
            throw CommandFailure(.usage, "\(file): not an Apollo codegen config: the top level is not a JSON object")
        }
        guard let input = members["input"] else {
            throw CommandFailure(.usage, "\(file): not an Apollo codegen config: it has no \"input\", which looks like \(example)")
        }
        guard case .object(let inputMembers) = input else {
            throw CommandFailure(.usage, "\(file): \"input\" must be an object, like \(example)")
        }
        func searchPaths(_ key: String, default defaults: [String]) throws -> SearchPaths {
            let origin = "\(file): input.\(key)"
            guard let value = inputMembers[key] else { return try SearchPaths(defaults, origin: origin) }
            guard case .list(let elements) = value else {
                let example = defaults.map { "\"\($0)\"" }.joined(separator: ", ")
                throw CommandFailure(.usage, "\(origin) must be a list of path patterns, like [\(example)]")
            }
            let patterns = try elements.map { element -> String in
                guard case .string(let pattern) = element else {
                    throw CommandFailure(.usage, "\(origin) must hold only strings (path patterns), not \(element)")
                }
                return pattern
            }
            return try SearchPaths(patterns, origin: origin)
        }
        schemaSearchPaths = try searchPaths("schemaSearchPaths", default: Self.defaultSchemaSearchPaths)
        operationSearchPaths = try searchPaths("operationSearchPaths", default: Self.defaultOperationSearchPaths)
    }

    /// Every schema file the config finds, named as a path from where the
    /// command runs; a config that finds none fails.
    func schemaSources() throws -> [(name: String, text: String)] {
        let paths = try schemaSearchPaths.files(inFolder: folder)
        guard !paths.isEmpty else {
            throw CommandFailure(.usage, "\(file): no schema file matches input.schemaSearchPaths \(listing(schemaSearchPaths)) in \(folder)")
        }
        return try paths.map { path in
            let name = displayName(path)
            return (name, try TextFile.read(path, what: "schema", name: name))
        }
    }

    /// Every operation file the config finds. With `required`, finding none
    /// fails (other documents may come from --document or --text otherwise).
    /// A file both lists find (a schema named `schema.graphql` under
    /// `**/*.graphql`) is the schema, not an operation file.
    func operationSources(required: Bool) throws -> [(name: String, text: String)] {
        let paths = try operationFiles()
        if paths.isEmpty && required {
            throw CommandFailure(.usage, "\(file): no operation file matches input.operationSearchPaths \(listing(operationSearchPaths)) in \(folder); "
                + "give documents with --document or --text")
        }
        return try paths.map { path in
            let name = displayName(path)
            return (name, try TextFile.read(path, what: "document", name: name))
        }
    }

    /// The paths of the operation files the config finds (see ``operationSources(required:)``).
    func operationFiles() throws -> [String] {
        let schemaFiles = Set((try? schemaSearchPaths.files(inFolder: folder)) ?? [])
        return try operationSearchPaths.files(inFolder: folder).filter { !schemaFiles.contains($0) }
    }

    /// A found file as a path from where the command runs: the config's
    /// folder as the command line named it, then the path inside it.
    func displayName(_ path: String) -> String {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        guard path.hasPrefix(base) else { return path }
        let typedFolder = file.lastIndex(of: "/").map { file[...$0] } ?? ""
        return String(typedFolder + path.dropFirst(base.count))
    }

    private func listing(_ paths: SearchPaths) -> String {
        paths.patterns.isEmpty ? "(an empty list)" : paths.patterns.map { "'\($0)'" }.joined(separator: ", ")
    }
}
