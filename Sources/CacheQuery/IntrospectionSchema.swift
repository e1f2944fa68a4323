import CacheStore
import GraphQL

/// A schema given as an introspection result (the `schema.json` that
/// `apollo-ios-cli fetch-schema` and other tools download) turned into
/// the SDL that describes the same types, so it is read as a `.graphqls`
/// file is.
///
/// Both the whole response, `{"data": {"__schema": …}}`, and its
/// `{"__schema": …}` are taken. What a cache read needs is kept: types,
/// fields and their arguments, input fields with defaults, enum values,
/// interfaces, union members, `@oneOf` and the schema's own directives.
/// Descriptions and deprecations are left out. Introspection does not
/// carry directives applied to types, so `@typePolicy(keyFields:)` stays in
/// a `.graphqls` extension file read with it, as Apollo's codegen expects.
enum IntrospectionSchema {
    /// Whether `text` is JSON rather than SDL: SDL never starts with `{`.
    static func isJSON(_ text: String) -> Bool {
        let start = text.unicodeScalars.first { !($0 == "\u{FEFF}" || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r") }
        return start == "{"
    }

    /// The SDL for the introspection result `json`, read from `source`.
    static func sdl(fromJSON json: String, source: String) throws -> String {
        let root: FieldValue
        do {
            root = try FieldValue(jsonText: json)
        } catch let error as CacheStoreError {
            throw failure(source, error.description)
        }
        var schema = root
        if case .object(let members) = schema, case .object? = members["data"] { schema = members["data"]! }
        guard case .object(let members) = schema, case .object(let body)? = members["__schema"] else {
            throw failure(source, "a JSON schema must be an introspection result, with a __schema object; or give the schema as SDL (.graphqls)")
        }
        var writer = Writer(source: source)
        try writer.schemaDefinition(body)
        for type in try writer.list(body["types"], "__schema.types") { try writer.type(type) }
        for directive in try writer.list(body["directives"] ?? .list([]), "__schema.directives") { try writer.directive(directive) }
        return writer.text
    }

    static func failure(_ source: String, _ message: String) -> QueryError {
        .schema(source: source, line: 0, column: 0, message: message)
    }

    private static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]
    private static let builtInDirectives: Set<String> = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]

    private struct Writer {
        let source: String
        var text = ""

        mutating func schemaDefinition(_ body: [String: FieldValue]) throws {
            var roots: [(operation: String, type: String, usual: String)] = []
            for (member, operation, usual) in [
                ("queryType", "query", "Query"), ("mutationType", "mutation", "Mutation"), ("subscriptionType", "subscription", "Subscription"),
            ] {
                guard let value = body[member], value != .null else { continue }
                roots.append((operation, try name(of: value, "__schema.\(member)"), usual))
            }
            guard roots.first?.operation == "query" else { throw failure(source, "__schema has no queryType") }
            // Root types with the names GraphQL gives them by default need
            // no schema block, which leaves another file free to add one.
            if roots.contains(where: { $0.type != $0.usual }) {
                text += "schema {\n" + roots.map { "  \($0.operation): \($0.type)\n" }.joined() + "}\n\n"
            }
        }

        mutating func type(_ value: FieldValue) throws {
            let members = try object(value, "a member of __schema.types")
            let name = try self.name(of: value, "a member of __schema.types")
            let place = "type \(name)"
            guard !name.hasPrefix("__"), !IntrospectionSchema.builtInScalars.contains(name) else { return }
            guard case .string(let kind)? = members["kind"] else { throw failure(source, "\(place) has no kind") }
            switch kind {
            case "SCALAR":
                text += "scalar \(name)\n\n"
            case "OBJECT", "INTERFACE":
                let keyword = kind == "OBJECT" ? "type" : "interface"
                let interfaces = try list(members["interfaces"] ?? .list([]), "\(place) interfaces").map { try self.name(of: $0, "\(place) interfaces") }
                let implements = interfaces.isEmpty ? "" : " implements " + interfaces.joined(separator: " & ")
                text += "\(keyword) \(name)\(implements) {\n"
                for field in try list(members["fields"], "\(place) fields") {
                    let fieldName = try self.name(of: field, "a field of \(name)")
                    let fieldPlace = "\(name).\(fieldName)"
                    let fieldMembers = try object(field, fieldPlace)
                    let arguments = try inputValues(fieldMembers["args"] ?? .list([]), fieldPlace)
                    let type = try typeReference(fieldMembers["type"], fieldPlace)
                    text += "  \(fieldName)\(arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))"): \(type)\n"
                }
                text += "}\n\n"
            case "UNION":
                let members = try list(members["possibleTypes"], "\(place) possibleTypes").map { try self.name(of: $0, "\(place) possibleTypes") }
                text += "union \(name) = \(members.joined(separator: " | "))\n\n"
            case "ENUM":
                let values = try list(members["enumValues"], "\(place) enumValues").map { try self.name(of: $0, "\(place) enumValues") }
                text += "enum \(name) {\n" + values.map { "  \($0)\n" }.joined() + "}\n\n"
            case "INPUT_OBJECT":
                let oneOf = members["isOneOf"] == .bool(true) ? " @oneOf" : ""
                let fields = try inputValues(members["inputFields"], place, listName: "inputFields")
                text += "input \(name)\(oneOf) {\n" + fields.map { "  \($0)\n" }.joined() + "}\n\n"
            default:
                throw failure(source, "\(place) has kind '\(kind)', which is not a GraphQL type kind")
            }
        }

        mutating func directive(_ value: FieldValue) throws {
            let name = try self.name(of: value, "a member of __schema.directives")
            guard !IntrospectionSchema.builtInDirectives.contains(name) else { return }
            let members = try object(value, "directive @\(name)")
            let arguments = try inputValues(members["args"] ?? .list([]), "directive @\(name)")
            let locations = try list(members["locations"], "directive @\(name) locations").map { location in
                guard case .string(let text) = location, GraphQLName.isName(text) else {
                    throw failure(source, "directive @\(name) has a location that is not a name")
                }
                return text
            }
            guard !locations.isEmpty else { throw failure(source, "directive @\(name) has no locations") }
            let repeatable = members["isRepeatable"] == .bool(true) ? " repeatable" : ""
            text += "directive @\(name)\(arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))")\(repeatable) on "
                + locations.joined(separator: " | ") + "\n\n"
        }

        /// Arguments or input fields as `name: Type = default`.
        func inputValues(_ value: FieldValue?, _ place: String, listName: String = "args") throws -> [String] {
            try list(value, "\(place) \(listName)").map { input in
                let name = try self.name(of: input, "a member of \(place) \(listName)")
                let members = try object(input, "\(place)(\(name):)")
                var text = "\(name): \(try typeReference(members["type"], "\(place)(\(name):)"))"
                if case .string(let defaultValue)? = members["defaultValue"] {
                    // Too deep to parse (the parser recurses per level): refused as any schema that deep.
                    if NestingLimit.firstTooDeep(in: defaultValue) != nil {
                        throw failure(source, "\(place)(\(name):) has a default value with \(NestingLimit.message)")
                    }
                    guard Self.isValue(defaultValue) else {
                        throw failure(source, "\(place)(\(name):) has a default value that is not one GraphQL value")
                    }
                    text += " = \(defaultValue)"
                }
                return text
            }
        }

        /// `[Episode!]!` from nested `NON_NULL`, `LIST` and named references.
        func typeReference(_ value: FieldValue?, _ place: String) throws -> String {
            var suffix = ""
            var prefix = ""
            var current = value
            while true {
                guard let value = current, case .object(let members) = value, case .string(let kind)? = members["kind"] else {
                    throw failure(source, "\(place) has no type")
                }
                switch kind {
                case "NON_NULL":
                    suffix = "!" + suffix
                case "LIST":
                    prefix += "["
                    suffix = "]" + suffix
                default:
                    return prefix + (try name(of: value, place)) + suffix
                }
                current = members["ofType"]
            }
        }

        func name(of value: FieldValue, _ place: String) throws -> String {
            guard case .object(let members) = value, case .string(let name)? = members["name"] else {
                throw failure(source, "\(place) has no name")
            }
            // A GraphQL name alone, so nothing in the JSON can change the meaning of the SDL around it.
            guard GraphQLName.isName(name) else { throw failure(source, "\(place): '\(name)' is not a GraphQL name") }
            return name
        }

        func object(_ value: FieldValue, _ place: String) throws -> [String: FieldValue] {
            guard case .object(let members) = value else { throw failure(source, "\(place) is not an object") }
            return members
        }

        func list(_ value: FieldValue?, _ place: String) throws -> [FieldValue] {
            guard case .list(let elements)? = value else { throw failure(source, "\(place) is not a list") }
            return elements
        }

        /// Whether `text` is one GraphQL value, e.g. `10` or `{a: 1}`, as an
        /// introspection default is: parsed as the default of a lone input
        /// field, it must leave that one field and nothing else.
        static func isValue(_ text: String) -> Bool {
            guard let document = try? GraphQL.parse(source: Source(body: "input X { x: Int = \(text)\n}")),
                document.definitions.count == 1,
                let input = document.definitions[0] as? InputObjectTypeDefinition
            else { return false }
            return input.fields.count == 1 && input.fields[0].defaultValue != nil
        }

    }
}
