import ArgumentParser
import CacheQuery
import CacheStore
import Foundation

/// Where GraphQL documents and variables come from.
struct DocumentOptions: ParsableArguments {
    @Option(
        name: .customLong("document"),
        help: ArgumentHelp("A GraphQL document with operations and fragments (repeatable).", valueName: "file"),
        completion: .file(extensions: ["graphql", "gql"]))
    var documentFiles: [String] = []

    @Option(
        name: .customLong("text"),
        help: ArgumentHelp("GraphQL text given inline, e.g. '{ hero { name } }' (repeatable).", valueName: "graphql"))
    var documentTexts: [String] = []

    @Option(
        help: ArgumentHelp("The schema as SDL: validates documents, resolves interfaces and unions, coerces variables.", valueName: "file"),
        completion: .file(extensions: ["graphqls", "graphql", "sdl"]))
    var schema: String?

    @Option(help: ArgumentHelp("Variables as a JSON object.", valueName: "json"))
    var variables: String?

    @Option(
        name: .customLong("variables-file"),
        help: ArgumentHelp("Variables from a file holding a JSON object.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var variablesFile: String?

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp("One variable as name=value; the value is JSON when it parses as JSON, else a string (repeatable).", valueName: "name=value"))
    var variableAssignments: [String] = []

    func validate() throws {
        guard !documentFiles.isEmpty || !documentTexts.isEmpty else {
            throw ValidationError("give the operation's document with --document FILE or --text GRAPHQL")
        }
        for assignment in variableAssignments where !assignment.contains("=") {
            throw ValidationError("--var takes name=value, got '\(assignment)'")
        }
    }

    /// Every document, parsed together so fragments may live in any of them.
    func loadDocument() throws -> QueryDocument {
        var sources: [(name: String, text: String)] = []
        for path in documentFiles {
            sources.append((path, try readText(path, what: "document")))
        }
        for (index, text) in documentTexts.enumerated() {
            sources.append((documentTexts.count == 1 ? "--text" : "--text \(index + 1)", text))
        }
        return try QueryDocument.parse(sources)
    }

    /// The schema named by --schema, if any.
    func loadSchema() throws -> CacheSchema? {
        guard let schema else { return nil }
        return try CacheSchema.parse(sdl: try readText(schema, what: "schema"), source: schema)
    }

    /// The variables: the file, then --variables, then each --var, later ones winning.
    func loadVariables() throws -> [String: InputValue] {
        var values: [String: InputValue] = [:]
        func merge(_ json: String, from origin: String) throws {
            let value: FieldValue
            do {
                value = try FieldValue(jsonText: json)
            } catch let error as CacheStoreError {
                throw CommandFailure(.usage, "\(origin): \(error)")
            }
            guard case .object(let members) = value else {
                throw CommandFailure(.usage, "\(origin): variables must be a JSON object")
            }
            for (name, member) in members { values[name] = InputValue(json: member) }
        }
        if let variablesFile {
            try merge(try readText(variablesFile, what: "variables file"), from: variablesFile)
        }
        if let variables { try merge(variables, from: "--variables") }
        for assignment in variableAssignments {
            let name = String(assignment.prefix { $0 != "=" })
            let text = String(assignment.dropFirst(name.count + 1))
            values[name] = (try? FieldValue(jsonText: text)).map(InputValue.init(json:)) ?? .string(text)
        }
        return values
    }

    /// A UTF-8 text file named on the command line, or an I/O failure that
    /// says whether it is missing or unreadable.
    private func readText(_ path: String, what: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CommandFailure(.io, FileManager.default.fileExists(atPath: path) ? "\(path): cannot read the \(what)" : "\(path): no such file")
        }
        return text
    }
}
