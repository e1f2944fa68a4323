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
        help: ArgumentHelp(
            "The schema, as SDL or an introspection result (schema.json): validates documents, resolves interfaces and unions, coerces variables; repeat it for a schema in several files (extensions). With --apollo-config, used instead of the config's schema.",
            valueName: "file"),
        completion: .file(extensions: ["graphqls", "graphql", "sdl", "json"]))
    var schema: [String] = []

    @Option(
        name: .customLong("apollo-config"),
        help: ArgumentHelp(
            "An Apollo iOS codegen config (apollo-codegen-config.json): the schema and every operation and fragment its input search paths find, relative to its folder; --document and --text add to them.",
            valueName: "file"),
        completion: .file(extensions: ["json"]))
    var apolloConfig: String?

    @Option(help: ArgumentHelp("Variables as a JSON object; its members win over those of --variables-file.", valueName: "json"))
    var variables: String?

    @Option(
        name: .customLong("variables-file"),
        help: ArgumentHelp("Variables from a file holding a JSON object; - reads piped standard input.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    var variablesFile: String?

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp(
            "One variable as name=value (or $name=value); the value is JSON when it parses as JSON, else a string; a number or boolean typed for a variable declared String or ID (or a list of them) stays that text (repeatable; wins over --variables and --variables-file).",
            valueName: "name=value"))
    var variableAssignments: [String] = []

    @Flag(
        name: .customLong("apple-floats"),
        help: "Write a Float inside a list or an input object in field cache keys as Apollo on Apple platforms does (2 and 0.3, where Apollo's Linux builds write 2.0 and 0.30000000000000004): for a cache from a device or simulator.")
    var appleFloats = false

    /// How field keys write a Float nested in their arguments.
    var numberForm: NumberForm { appleFloats ? .apple : .linux }

    /// `id=1000` for `$id=1000`, as the document writes the name: no GraphQL
    /// name holds a `$`. Only before a name: `$=1` is left to be refused as typed.
    static func withoutDollarSign(_ assignment: String) -> String {
        guard assignment.hasPrefix("$"), let next = assignment.dropFirst().unicodeScalars.first,
              next == "_" || (next.isASCII && next.properties.isAlphabetic) else { return assignment }
        return String(assignment.dropFirst())
    }

    func validate() throws {
        if documentFiles.contains("-") {
            throw ValidationError("--document takes a file, not standard input; " + CommandContext.graphQLFromStandardInput)
        }
        // Not "-: no such file": name the option, as for --document.
        if schema.contains("-") { throw ValidationError("--schema takes a file, not standard input") }
        if apolloConfig == "-" { throw ValidationError("--apollo-config takes a file, not standard input") }
        for assignment in variableAssignments {
            let named = Self.withoutDollarSign(assignment)
            if !named.contains("=") || named.hasPrefix("=") || named.hasPrefix("$") {
                throw ValidationError("--var takes name=value, got '\(assignment)'")
            }
        }
        // Two values for one variable: only the last would be used.
        try Self.refuseTwoValues(in: variableAssignments.map(Self.withoutDollarSign), of: "--var")
    }

    /// Refuses GraphQL given where an operation's name goes
    /// (`read cache '{ hero { name } }'`), then a command without documents.
    /// Called first by each command's `validate()`, which ArgumentParser
    /// runs after this group's.
    func requireDocuments(operation: String?) throws {
        if let operation, operation.contains("{") {
            let shown = operation.count > 40 ? operation.prefix(39) + "…" : Substring(operation)
            throw ValidationError("'\(shown)' is GraphQL, not an operation's name: give the document with --text GRAPHQL")
        }
        guard !documentFiles.isEmpty || !documentTexts.isEmpty || apolloConfig != nil else {
            throw ValidationError("give the operation's document with --document FILE, --text GRAPHQL or --apollo-config FILE")
        }
    }

    /// Refuses `name=value` assignments of `option` that give one name two
    /// different values: only the last would count, and the other be
    /// dropped without a word.
    static func refuseTwoValues(in assignments: [String], of option: String) throws {
        var values: [Substring: Substring] = [:]
        for assignment in assignments {
            let name = assignment.prefix { $0 != "=" }, value = assignment.drop { $0 != "=" }.dropFirst()
            if let earlier = values.updateValue(value, forKey: name), earlier != value {
                throw ValidationError("\(option) \(name) is given twice, as '\(earlier)' and '\(value)'; give one value")
            }
        }
    }

    /// Every document, parsed together so fragments may live in any of them:
    /// the Apollo config's operation files first, then --document, then --text.
    /// `typedAtPrompt`: the text is GraphQL typed at the REPL's prompt, which
    /// messages call `input` (`input:1:9: syntax error`), not an option the user never gave.
    func loadDocument(typedAtPrompt: Bool = false) throws -> QueryDocument {
        var sources: [(name: String, text: String)] = []
        if let apolloConfig {
            let required = documentFiles.isEmpty && documentTexts.isEmpty
            sources += try ApolloConfig.load(apolloConfig).operationSources(required: required)
        }
        for path in documentFiles {
            sources.append((path, try TextFile.read(path, what: "document")))
        }
        for (index, text) in documentTexts.enumerated() {
            // At the prompt the first is what was typed; any other, fragments typed earlier that it spreads.
            let name = typedAtPrompt ? (index == 0 ? "input" : "earlier input") : documentTexts.count == 1 ? "--text" : "--text \(index + 1)"
            sources.append((name, text))
        }
        return try QueryDocument.parse(sources)
    }

    /// The schema the --schema files make, else the Apollo config's, if any.
    func loadSchema() throws -> CacheSchema? {
        if !schema.isEmpty {
            // One schema of them all, as the codegen config's several files are.
            return try CacheSchema.parse(try schema.map { (name: $0, text: try TextFile.read($0, what: "schema")) })
        }
        guard let apolloConfig else { return nil }
        return try CacheSchema.parse(try ApolloConfig.load(apolloConfig).schemaSources())
    }

    /// The variables: the file, then --variables, then each --var, later ones
    /// winning. A --var value is JSON when it reads as JSON, else text; but
    /// for a variable the documents declare as a String or an ID, a number
    /// or boolean stays the text typed (`--var id=1e3` is the ID "1e3", not
    /// the number 1000.0), as the app's typed value would be; so too for a
    /// fragment's variable that the schema says is used as a String or ID.
    func loadVariables(declaredIn document: QueryDocument, schema: CacheSchema?, context: CommandContext) throws -> [String: InputValue] {
        var values: [String: InputValue] = [:]
        func merge(_ value: FieldValue, from origin: String) throws {
            guard case .object(let members) = value else {
                throw CommandFailure(.usage, "\(origin): variables must be a JSON object")
            }
            for (name, member) in members { values[name] = InputValue(json: member) }
        }
        if let variablesFile {
            // `-` reads standard input, as --response and --data do.
            let value = try JSONInput.read(variablesFile, what: "variables file", context: context)
            try merge(value, from: JSONInput.name(of: variablesFile))
        }
        if let variables {
            try merge(try JSONInput.parse(variables, name: "--variables", what: "variables text"), from: "--variables")
        }
        for assignment in variableAssignments.map(Self.withoutDollarSign) {
            let name = String(assignment.prefix { $0 != "=" })
            let text = String(assignment.dropFirst(name.count + 1))
            let parsed = (try? FieldValue(jsonText: text)).map(InputValue.init(json:)) ?? .string(text)
            switch parsed {
            case .int, .float, .boolean:
                values[name] = Self.isDeclaredAsText(name, in: document, schema: schema) ? .string(text) : parsed
            default:
                values[name] = parsed
            }
        }
        return values
    }

    /// True when every operation that declares `$name` declares it a String
    /// or an ID, or a list of them; when none does, when every fragment that uses it does so
    /// where the schema says a String or an ID goes (fragments declare no
    /// variables).
    private static func isDeclaredAsText(_ name: String, in document: QueryDocument, schema: CacheSchema?) -> Bool {
        var types = document.operations.flatMap(\.variables).filter { $0.name == name }.map(\.type)
        if types.isEmpty, let schema {
            types = document.fragments.values.compactMap { document.variableTypes(in: $0, schema: schema)[name] }
        }
        func isText(_ type: TypeReference) -> Bool {
            switch type {
            case .nonNull(let inner): return isText(inner)
            case .named(let named): return named == "String" || named == "ID"
            // One value given for a list is a list of one (GraphQL's input coercion).
            case .list(let element): return isText(element)
            }
        }
        return !types.isEmpty && types.allSatisfy(isText)
    }
}
