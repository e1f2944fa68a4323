import CacheStore
import Foundation
import GraphQL

/// A schema (SDL) that makes reads schema-aware: abstract type conditions
/// resolve through possible types, Float inputs render as Apollo renders
/// them, and documents are validated with line and column.
///
/// Apollo's client directives (`@typePolicy`, `@fieldPolicy`,
/// `@apollo_client_ios_localCacheMutation`, `@import`, `@defer`) are declared for the
/// user when the SDL does not declare them; `extend type` works.
public struct CacheSchema: @unchecked Sendable {
    let schema: GraphQLSchema
    /// The output fields of every object and interface type, by type name,
    /// worked out once: the GraphQL package rebuilds them on each access.
    let fieldTypes: [String: [String: OutputType]]
    /// `@typePolicy(keyFields:)` of each object type, its own or its
    /// interfaces'.
    let typePolicies: [String: [String]]
    /// Names of the object types (concrete, so a `__typename` of their own).
    let objectTypes: Set<String>

    init(schema: GraphQLSchema) {
        self.schema = schema
        var fieldTypes: [String: [String: OutputType]] = [:]
        var objectTypes: Set<String> = []
        var ownPolicies: [String: [String]] = [:]
        var interfacesOf: [String: [String]] = [:]
        for (name, type) in schema.typeMap where !name.hasPrefix("__") {
            var fields: GraphQLFieldMap?
            if let object = type as? GraphQLObjectType {
                objectTypes.insert(name)
                fields = try? object.fields()
                interfacesOf[name] = ((try? object.interfaces()) ?? []).map(\.name)
            } else if let interface = type as? GraphQLInterfaceType {
                fields = try? interface.fields()
            }
            guard let fields else { continue }
            var types: [String: OutputType] = ["__typename": .nonNull(.named("String", .scalar))]
            for (fieldName, field) in fields { types[fieldName] = OutputType(field.type) }
            fieldTypes[name] = types
            if let keyFields = Self.ownTypePolicy(of: type) { ownPolicies[name] = Self.keyFieldNames(keyFields) }
        }
        // Its own, or else its interfaces' (which checkTypePolicies found to agree).
        var typePolicies: [String: [String]] = [:]
        for name in objectTypes {
            if let own = ownPolicies[name] {
                typePolicies[name] = own
            } else if let inherited = interfacesOf[name]?.lazy.compactMap({ ownPolicies[$0] }).first {
                typePolicies[name] = inherited
            }
        }
        self.fieldTypes = fieldTypes
        self.typePolicies = typePolicies
        self.objectTypes = objectTypes
    }

    /// The `@typePolicy` a type carries itself, as Apollo's codegen takes
    /// it: one on an `extend` of the type first, then the definition's.
    static func ownTypePolicy(of type: GraphQLNamedType) -> StringValue? {
        ownTypePolicyAndPlace(of: type)?.keyFields
    }

    /// ``ownTypePolicy(of:)``, and whether it is on an `extend` of the type:
    /// codegen takes that one without looking at the interfaces.
    static func ownTypePolicyAndPlace(of type: GraphQLNamedType) -> (keyFields: StringValue, onExtension: Bool)? {
        let (definition, extensions): ([Directive], [Directive])
        if let object = type as? GraphQLObjectType {
            (definition, extensions) = (object.astNode?.directives ?? [], object.extensionASTNodes.flatMap(\.definition.directives))
        } else if let interface = type as? GraphQLInterfaceType {
            (definition, extensions) = (interface.astNode?.directives ?? [], interface.extensionASTNodes.flatMap(\.definition.directives))
        } else {
            return nil
        }
        func keyFields(_ directives: [Directive]) -> StringValue? {
            directives.first { $0.name.value == "typePolicy" }?.arguments.first { $0.name.value == "keyFields" }?.value as? StringValue
        }
        if let onExtension = keyFields(extensions) { return (onExtension, true) }
        return keyFields(definition).map { ($0, false) }
    }

    /// The key fields of `keyFields` as Apollo's codegen reads them: names
    /// separated by single spaces.
    static func keyFieldNames(_ keyFields: StringValue) -> [String] {
        keyFields.value.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    }

    /// Apollo's codegen refuses a schema whose `@typePolicy` names no
    /// field, or a field the type lacks, or one that is nullable or not a
    /// scalar (the key would come from a value a response may not hold),
    /// or whose policies conflict: a type's own with its interface's, or
    /// two interfaces' it inherits. So does this check, in the same cases.
    static func checkTypePolicies(of schema: GraphQLSchema) throws {
        for (name, type) in schema.typeMap.sorted(by: { $0.key < $1.key }) where !name.hasPrefix("__") {
            let fields: GraphQLFieldMap
            var interfaces: [GraphQLInterfaceType] = []
            if let object = type as? GraphQLObjectType {
                fields = try object.fields()
                interfaces = try object.interfaces()
            } else if let interface = type as? GraphQLInterfaceType {
                fields = try interface.fields()
                interfaces = try interface.interfaces()
            } else {
                continue
            }
            let ownAndPlace = ownTypePolicyAndPlace(of: type)
            let own = ownAndPlace?.keyFields
            if let own {
                for keyField in keyFieldNames(own) {
                    guard !keyField.isEmpty else {
                        throw GraphQLError(message: "@typePolicy on \(name): keyFields must be field names separated by single spaces", nodes: [own])
                    }
                    guard let field = fields[keyField] else {
                        let names = fields.keys.sorted()
                        let listed = names.prefix(10).joined(separator: ", ") + (names.count > 10 ? ", …" : "")
                        throw GraphQLError(
                            message: "@typePolicy on \(name) names key field '\(keyField)', which \(name) does not have (its fields: \(listed))",
                            nodes: [own])
                    }
                    guard let nonNull = field.type as? GraphQLNonNull else {
                        throw GraphQLError(
                            message: "@typePolicy on \(name) names key field '\(keyField)', which is nullable (\(field.type)); a key field must be non-null",
                            nodes: [own])
                    }
                    guard nonNull.ofType is GraphQLScalarType else {
                        throw GraphQLError(
                            message: "@typePolicy on \(name) names key field '\(keyField)', of type \(field.type); a key field must be a scalar",
                            nodes: [own])
                    }
                }
            }
            // A policy on an extension is taken as it is, whatever the interfaces say.
            if ownAndPlace?.onExtension == true { continue }
            // What it inherits: each interface's own, in the order it names them.
            let inherited = interfaces.compactMap { interface in ownTypePolicy(of: interface).map { (interface.name, $0) } }
            if let own, let other = inherited.first(where: { $0.1.value != own.value }) {
                throw GraphQLError(message: "@typePolicy on \(name) conflicts with the one on its interface \(other.0)", nodes: [own])
            }
            if own == nil, let first = inherited.first, let other = inherited.first(where: { $0.1.value != first.1.value }) {
                throw GraphQLError(
                    message: "\(name) inherits conflicting @typePolicy directives from its interfaces \(first.0) and \(other.0)",
                    nodes: [first.1])
            }
        }
    }

    static let clientDirectives: [(name: String, declaration: String)] = [
        ("typePolicy", "directive @typePolicy(keyFields: String!) on OBJECT | INTERFACE"),
        ("fieldPolicy", "directive @fieldPolicy(forField: String!, keyArgs: String!) repeatable on OBJECT | INTERFACE"),
        ("apollo_client_ios_localCacheMutation",
         "directive @apollo_client_ios_localCacheMutation on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
        ("import", "directive @import(module: String!) repeatable on QUERY | MUTATION | SUBSCRIPTION | FRAGMENT_DEFINITION"),
        // Apollo iOS codegen adds @defer to the schema it is given; a
        // deferred fragment is read from the cache as any other is.
        ("defer", "directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT"),
    ]

    /// Builds the schema from SDL text named `source` (a file name).
    public static func parse(sdl: String, source: String) throws -> CacheSchema {
        try parse([(source, sdl)])
    }

    /// Builds one schema from several SDL files read as one, so a file may
    /// `extend` a type another defines, in any order. An error names the file,
    /// and the line and column in it. A file may also be an introspection
    /// result (JSON), read as the SDL of its types.
    ///
    /// ```swift
    /// let schema = try CacheSchema.parse([("schema.graphqls", base), ("search.graphqls", "extend type Query { … }")])
    /// ```
    public static func parse(_ sources: [(name: String, text: String)]) throws -> CacheSchema {
        // An introspection result (schema.json) is read as the SDL it describes.
        let sources = try sources.map { name, text in
            (name: name, text: IntrospectionSchema.isJSON(text) ? try IntrospectionSchema.sdl(fromJSON: text, source: name) : text)
        }
        // The directives the files declare, by name: a client directive
        // they do not declare (Apollo's codegen knows them) is declared after them.
        var declared: Set<String> = []
        for (name, text) in sources {
            if let place = NestingLimit.firstTooDeep(in: text) {
                throw QueryError.schema(source: name, line: place.line, column: place.column, message: NestingLimit.message)
            }
            // Each file parsed alone first: joined, a brace left open at the
            // end of one file would be reported in the next, or in the
            // directives declared after them all.
            let document: Document
            do {
                document = try GraphQL.parse(source: Source(body: text, name: name))
            } catch let error as GraphQLError {
                let place = error.firstPlace
                throw QueryError.schema(source: name, line: place.line, column: place.column, message: error.oneLineMessage)
            }
            // An operations file given as the schema: the schema builder
            // would only say that a type such as Int is unknown.
            if let executable = document.definitions.first(where: { $0 is OperationDefinition || $0 is GraphQL.FragmentDefinition }) {
                let place = executable.loc?.place ?? SourcePlace(utf8Offset: 0, in: text)
                let what = executable is OperationDefinition ? "an operation" : "a fragment"
                throw QueryError.schema(
                    source: name, line: place.line, column: place.column,
                    message: "this is \(what), not a type definition: a schema file holds types (SDL) or an introspection result; "
                        + "give operations with --document")
            }
            declared.formUnion(document.definitions.compactMap { ($0 as? DirectiveDefinition)?.name.value })
        }
        let combined = CombinedSource(sources)
        let missing = clientDirectives.filter { !declared.contains($0.name) }
        let prelude = missing.map(\.declaration).joined(separator: "\n")
        do {
            let schema = try buildSchema(source: Source(body: combined.text + prelude, name: combined.names))
            // What a server would refuse to start with: no Query type, a
            // type without fields, an interface wrongly implemented.
            if let problem = validateSchema(schema: schema).first { throw problem }
            try checkTypePolicies(of: schema)
            return CacheSchema(schema: schema)
        } catch let error as GraphQLError {
            var place = error.firstPlace
            if place.line == 0, let found = Self.placeOfUnknownType(in: error.message, text: combined.text)
                ?? Self.placeOfDuplicateType(in: error.message, text: combined.text)
                ?? Self.placeOfUndefinedExtension(in: error.message, text: combined.text)
            {
                place = found
            }
            let location = combined.location(ofLine: place.line)
            throw QueryError.schema(source: location.name, line: location.line, column: place.column, message: error.oneLineMessage)
        }
    }

    /// Where `Unknown type "X".` (which the schema builder says without a
    /// place) first names X: as a whole word after the first `:` or `|` or
    /// `implements`/`&` that precedes it, else anywhere outside a comment.
    static func placeOfUnknownType(in message: String, text: String) -> (line: Int, column: Int)? {
        guard message.hasPrefix("Unknown type \""), let end = message.dropFirst(14).firstIndex(of: "\"") else { return nil }
        let name = String(message[message.index(message.startIndex, offsetBy: 14)..<end])
        guard !name.isEmpty,
            let expression = try? NSRegularExpression(pattern: "^[^#\"]*?[^A-Za-z0-9_#\"]" + NSRegularExpression.escapedPattern(for: name) + "(?![A-Za-z0-9_])",
                                                      options: [.anchorsMatchLines])
        else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = expression.firstMatch(in: text, range: range), let found = Range(match.range, in: text) else { return nil }
        // The match ends with the name: its first byte is where the name starts.
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: found.upperBound.samePosition(in: text.utf8)!) - name.utf8.count
        let place = SourcePlace(utf8Offset: offset, in: text)
        return (place.line, place.column)
    }

    /// Where the second definition of a type is, for the schema builder's
    /// "There can be only one type named" (two files that both define a
    /// scalar), which has no place of its own.
    static func placeOfDuplicateType(in message: String, text: String) -> (line: Int, column: Int)? {
        guard let name = quotedName(after: "There can be only one type named \"", in: message) else { return nil }
        return placeOfLine(startingWith: "(?:type|scalar|interface|union|enum|input)", name: name, occurrence: 1, in: text)
    }

    /// Where `extend type X` is, for the schema builder's "Cannot extend
    /// type "X" because it is not defined.", which has no place of its own.
    static func placeOfUndefinedExtension(in message: String, text: String) -> (line: Int, column: Int)? {
        guard let name = quotedName(after: "Cannot extend type \"", in: message) else { return nil }
        return placeOfLine(startingWith: "extend[ \\t]+(?:type|scalar|interface|union|enum|input)", name: name, occurrence: 0, in: text)
    }

    /// The name in quotes that follows `prefix` at the start of `message`.
    private static func quotedName(after prefix: String, in message: String) -> String? {
        guard message.hasPrefix(prefix), let end = message.dropFirst(prefix.count).firstIndex(of: "\"") else { return nil }
        let name = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<end])
        return name.isEmpty ? nil : name
    }

    /// Where the `occurrence`th line (from 0) that begins with the words
    /// `keywords` (a pattern) and then `name` starts, past its indentation.
    private static func placeOfLine(startingWith keywords: String, name: String, occurrence: Int, in text: String) -> (line: Int, column: Int)? {
        guard let expression = try? NSRegularExpression(
                pattern: "^[ \\t]*" + keywords + "[ \\t]+" + NSRegularExpression.escapedPattern(for: name) + "(?![A-Za-z0-9_])",
                options: [.anchorsMatchLines])
        else { return nil }
        let matches = expression.matches(in: text, range: NSRange(text.startIndex..., in: text))
        guard matches.count > occurrence, let found = Range(matches[occurrence].range, in: text) else { return nil }
        let start = text[found].firstIndex { $0 != " " && $0 != "\t" } ?? found.lowerBound
        let place = SourcePlace(utf8Offset: text.utf8.distance(from: text.utf8.startIndex, to: start.samePosition(in: text.utf8)!), in: text)
        return (place.line, place.column)
    }

    /// Whether a record of `typename` takes a fragment on `typeCondition`:
    /// the same type, or an interface or union that has it as a possible type.
    func matches(typeCondition: String, typename: String?) -> Bool {
        guard let typename else { return false }
        if typeCondition == typename { return true }
        guard let abstract = schema.getType(name: typeCondition) as? GraphQLAbstractType,
            let concrete = schema.getType(name: typename)
        else { return false }
        return schema.isSubType(abstractType: abstract, maybeSubType: concrete)
    }

    static func reference(_ type: GraphQLType) -> TypeReference {
        if let nonNull = type as? GraphQLNonNull { return .nonNull(reference(nonNull.ofType)) }
        if let list = type as? GraphQLList { return .list(reference(list.ofType)) }
        return .named((type as? GraphQLNamedType)?.name ?? "")
    }

    /// Validation errors of the documents, each with its source, line and
    /// column. Fragments may be unused: Apollo projects keep them apart. An
    /// anonymous operation must be alone in its own source (one --text), not
    /// in all of them together: ``QueryDocument/parse(_:)`` sees to that,
    /// source by source, with or without a schema.
    public func validate(_ document: QueryDocument) -> [QueryError] {
        let combined = CombinedSource(document.sources)
        guard let ast = try? GraphQL.parse(source: Source(body: combined.text, name: "documents")) else { return [] }
        let skipped: Set = [Self.noUnusedFragmentsRuleIndex, Self.loneAnonymousOperationRuleIndex]
        let rules = specifiedRules.enumerated().filter { !skipped.contains($0.offset) }
            .map { $0.offset == Self.knownArgumentNamesRuleIndex ? Self.knownArgumentNamesRule : $0.element } + [Self.int32LiteralRule]
        var found: [(place: (line: Int, column: Int), message: String)] = GraphQL.validate(schema: schema, ast: ast, rules: rules)
            .filter { !Self.isIntegerCalledNonInteger($0.message) }
            .map { ($0.firstPlace, $0.message) }
        // GraphQL's rules check no operation against a root type the schema
        // lacks: a subscription would only miss its root record.
        for case let operation as OperationDefinition in ast.definitions {
            let kind = operation.operation
            let root: GraphQLObjectType? =
                switch kind {
                case .query: schema.queryType
                case .mutation: schema.mutationType
                case .subscription: schema.subscriptionType
                }
            guard root == nil else { continue }
            let place = operation.loc?.place ?? SourcePlace(utf8Offset: 0, in: combined.text)
            found.append((
                (place.line, place.column),
                "the schema has no \(kind.rawValue) type, so a \(kind.rawValue) cannot be checked or read with it"))
        }
        // In the order of the text, as the rules find them rule by rule.
        return found.enumerated()
            .sorted { ($0.element.place.line, $0.element.place.column, $0.offset) < ($1.element.place.line, $1.element.place.column, $1.offset) }
            .map { problem in
                let location = combined.location(ofLine: problem.element.place.line)
                return QueryError.validation(
                    source: location.name, line: location.line, column: problem.element.place.column, message: problem.element.message)
            }
    }

    /// graphql-js, whose validation Apollo's codegen runs, takes an Int
    /// literal only within 32 bits, as the GraphQL spec's Int is; GraphQL
    /// 4.3.0 takes any that a Swift Int holds (a key `f(i:3000000000)` for
    /// an operation the app could not have), and calls a longer one a
    /// "non-integer value". This rule says it as graphql-js does.
    static let int32LiteralRule: @Sendable (ValidationContext) -> Visitor = { context in
        Visitor(enter: { node, _, _, _, _ in
            guard let literal = node as? IntValue, getNamedType(type: context.inputType)?.name == "Int" else { return .continue }
            if Int32(literal.value) != nil { return .continue }
            context.report(error: GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(literal.value)", nodes: [literal]))
            return .continue
        })
    }

    /// GraphQL 4.3.0's message for an Int literal beyond a Swift Int, which
    /// ``int32LiteralRule`` reports in its own words.
    static func isIntegerCalledNonInteger(_ message: String) -> Bool {
        let prefix = "Int cannot represent non-integer value: "
        guard message.hasPrefix(prefix) else { return false }
        let literal = message.dropFirst(prefix.count).drop { $0 == "-" }
        return !literal.isEmpty && literal.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Places in `specifiedRules` (GraphQL 4.3.0, whose rules are internal
    /// and so can only be told apart by place; tests pin them).
    static let loneAnonymousOperationRuleIndex = 2
    static let noUnusedFragmentsRuleIndex = 10
    static let knownArgumentNamesRuleIndex = 18
}

/// A field's type as the schema declares it, reduced to what checking a
/// cached value needs.
indirect enum OutputType: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case scalar
        case enumeration(Set<String>)
        case composite
    }

    case nonNull(OutputType)
    case list(OutputType)
    case named(String, Kind)

    init(_ type: GraphQLType) {
        if let nonNull = type as? GraphQLNonNull {
            self = .nonNull(OutputType(nonNull.ofType))
        } else if let list = type as? GraphQLList {
            self = .list(OutputType(list.ofType))
        } else if let enumeration = type as? GraphQLEnumType {
            self = .named(enumeration.name, .enumeration(Set(enumeration.values.map(\.name))))
        } else if let scalar = type as? GraphQLScalarType {
            self = .named(scalar.name, .scalar)
        } else {
            self = .named((type as? GraphQLNamedType)?.name ?? "", .composite)
        }
    }

    var description: String {
        switch self {
        case .nonNull(let inner): return "\(inner)!"
        case .list(let inner): return "[\(inner)]"
        case .named(let name, _): return name
        }
    }

    /// Whether null is not a value of the type (`String!`).
    var isNonNull: Bool {
        if case .nonNull = self { return true }
        return false
    }

    /// The type without its outer `!`.
    var nullable: OutputType {
        if case .nonNull(let inner) = self { return inner }
        return self
    }

    /// The named type at the bottom of the lists.
    var namedType: (name: String, kind: Kind) {
        switch self {
        case .nonNull(let inner), .list(let inner): return inner.namedType
        case .named(let name, let kind): return (name, kind)
        }
    }
}

extension CacheSchema {
    /// The declared type of `field` on the object or interface `typeName`.
    func fieldType(on typeName: String, field: String) -> OutputType? {
        fieldTypes[typeName]?[field]
    }

    /// The declared type of `argument` of `field` on the object or interface `typeName`.
    func argumentType(on typeName: String, field: String, argument: String) -> TypeReference? {
        let fields: GraphQLFieldMap?
        switch schema.getType(name: typeName) {
        case let object as GraphQLObjectType: fields = try? object.fields()
        case let interface as GraphQLInterfaceType: fields = try? interface.fields()
        default: fields = nil
        }
        guard let definition = fields?.first(where: { $0.key == field })?.value,
            let type = definition.args.first(where: { $0.key == argument })?.value.type
        else { return nil }
        return CacheSchema.reference(type)
    }

    /// The declared type of `field` of the input object type `typeName`.
    func inputFieldType(of typeName: String, field: String) -> TypeReference? {
        guard let object = schema.getType(name: typeName) as? GraphQLInputObjectType,
            let type = (try? object.fields())?[field]?.type
        else { return nil }
        return CacheSchema.reference(type)
    }

    /// Whether `type` is a root operation type: the schema's, or without
    /// one GraphQL's default names. Apollo's code generator gives the
    /// models of these no `__typename`.
    public static func isRootType(_ type: String, in schema: CacheSchema?) -> Bool {
        let kinds: [Operation.Kind] = [.query, .mutation, .subscription]
        if let schema { return kinds.contains { schema.rootTypeName($0) == type } }
        return ["Query", "Mutation", "Subscription"].contains(type)
    }

    /// The name of the root type for operations of this kind.
    func rootTypeName(_ kind: Operation.Kind) -> String? {
        switch kind {
        case .query: return schema.queryType?.name
        case .mutation: return schema.mutationType?.name
        case .subscription: return schema.subscriptionType?.name
        }
    }

    /// Whether `name` is an object type (not an interface or union).
    func isObjectType(_ name: String) -> Bool { objectTypes.contains(name) }

    /// The names of the schema's types, its own (not `__Type` and the like).
    public var typeNames: [String] { schema.typeMap.keys.filter { !$0.hasPrefix("__") }.sorted() }

    /// Whether an object or interface type `type` has `field`; nil for a
    /// type without fields of its own (a union, a scalar) or none at all.
    public func hasField(_ field: String, on type: String) -> Bool? {
        fieldTypes[type].map { $0[field] != nil }
    }

    /// Why `field` of `type` cannot be a key field, or nil when it can: a
    /// key is made of single values (a string, a number, a boolean), and a
    /// list or an object has none.
    public func keyFieldProblem(_ field: String, on type: String) -> String? {
        guard let declared = fieldTypes[type]?[field] else { return nil }
        switch declared.nullable {
        case .list: return "\(type)'s field '\(field)' is a list (\(declared)); a key field holds one value"
        case .named(let name, .composite): return "\(type)'s field '\(field)' is an object (\(name)); a key field holds one value"
        default: return nil
        }
    }

    /// The `@typePolicy(keyFields:)` key fields of an object type.
    func keyFields(of typename: String) -> [String]? { typePolicies[typename] }

    /// The value as Apollo's generated model reads it from the cache: a
    /// String or ID field decodes a number as its text (`5` → `"5"`,
    /// `1.5` → `"1.5"`, a whole `5.0` → `"5"`, as Swift's NSNumber casts
    /// it), also inside lists, and an Int field a number with a fraction
    /// as its whole part (`5.0` and `5.5` as 5: NSNumber's intValue, which
    /// Apollo's `Int` decodes with). Any other value is as stored.
    func readByApollo(_ value: FieldValue, type: OutputType) -> FieldValue {
        switch (type, value) {
        case (.nonNull(let inner), _): return readByApollo(value, type: inner)
        case (.list(let inner), .list(let elements)): return .list(elements.map { readByApollo($0, type: inner) })
        case (.named("String", _), .int(let number)), (.named("ID", _), .int(let number)): return .string(String(number))
        case (.named("String", _), .double(let number)), (.named("ID", _), .double(let number)):
            if let whole = Int64(exactly: number) { return .string(String(whole)) }
            return .string(String(number))
        // leafProblem lets through only one whose whole part is within Int64.
        case (.named("Int", _), .double(let number)): return Int64(exactly: number.rounded(.towardZero)).map(FieldValue.int) ?? value
        default: return value
        }
    }

    /// Why a leaf value does not fit its declared type: where in its lists
    /// (`[0, 1]` for `[[1, null]]`) and what is wrong.
    struct LeafProblem: Equatable {
        var indexes: [Int]
        let message: String
    }

    /// Why a leaf value does not fit its declared type, or nil when it does.
    /// Custom scalars take any JSON value; String and ID take a string or
    /// a number (Apollo's String decodes an Int or a Double as its text);
    /// Float takes any number, Int an integral one, or when `reading` any
    /// whose whole part is within Int64, as Apollo's `Int` reads it (a
    /// value written is checked as a GraphQL server gives it).
    func leafProblem(_ value: FieldValue, type: OutputType, reading: Bool = false) -> LeafProblem? {
        switch (type, value) {
        case (.nonNull, .null):
            return LeafProblem(indexes: [], message: "null in a non-null field of type \(type)")
        case (.nonNull(let inner), _):
            return leafProblem(value, type: inner, reading: reading)
        case (_, .null):
            return nil
        case (.list(let inner), .list(let elements)):
            for (index, element) in elements.enumerated() {
                if var problem = leafProblem(element, type: inner, reading: reading) {
                    problem.indexes.insert(index, at: 0)
                    return problem
                }
            }
            return nil
        case (.list, _):
            return LeafProblem(indexes: [], message: "expected a list of type \(type), found \(JSONWriter.string(for: value, asStored: false))")
        case (.named(let name, let kind), _):
            let fits: Bool
            switch (kind, name, value) {
            // A value the enum lacks is read all the same: Apollo's
            // GraphQLEnum holds it as .unknown (see unknownEnumValue).
            case (.enumeration, _, .string): fits = true
            case (.enumeration, _, _): fits = false
            case (_, "Int", .int), (_, "Float", .int), (_, "Float", .double): fits = true
            case (_, "Int", .double(let number)): fits = Int64(exactly: reading ? number.rounded(.towardZero) : number) != nil
            case (_, "Float", .number): fits = true  // one too large to store is refused as such
            case (_, "Int", _), (_, "Float", _): fits = false
            case (_, "String", .string), (_, "ID", .string), (_, "Boolean", .bool): fits = true
            case (_, "String", .int), (_, "ID", .int), (_, "String", .double), (_, "ID", .double): fits = true
            case (_, "String", _), (_, "ID", _), (_, "Boolean", _): fits = false
            case (.composite, _, _): fits = false
            default: fits = true
            }
            if fits { return nil }
            return LeafProblem(indexes: [], message: "expected \(name), found \(JSONWriter.string(for: value, asStored: false))")
        }
    }

    /// The first string in `value` (or its lists) that the enum `type`
    /// declares no value for, and the enum's name: a server newer than the
    /// schema sends such values, and Apollo's generated models read them as
    /// `GraphQLEnum.unknown(raw)`, so they are no type error.
    func unknownEnumValue(_ value: FieldValue, type: OutputType) -> (raw: String, enumName: String)? {
        switch (type, value) {
        case (.nonNull(let inner), _):
            return unknownEnumValue(value, type: inner)
        case (.list(let inner), .list(let elements)):
            for element in elements {
                if let found = unknownEnumValue(element, type: inner) { return found }
            }
            return nil
        case (.named(let name, .enumeration(let values)), .string(let raw)):
            return values.contains(raw) ? nil : (raw, name)
        default:
            return nil
        }
    }
}

/// Why a variable's value does not fit its declared type; `path` is where in
/// the value (`.text`, `[2]`), empty for the value itself.
struct VariableProblem: Error {
    var path = ""
    let message: String

    init(_ message: String) { self.message = message }

    func at(_ step: String) -> VariableProblem {
        var problem = self
        problem.path = step + problem.path
        return problem
    }
}

extension InputValue {
    /// The value as a message shows it: a string quoted, so that "10" and 10
    /// read apart; a list or an object by what it is.
    var shown: String {
        switch self {
        case .string(let text): return "\"\(text.shortenedForMessage)\""
        case .list: return "a list"
        case .object: return "an object"
        default: return FieldKey.scalar(self)
        }
    }
}
