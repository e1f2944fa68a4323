import ArgumentParser
import CacheQuery
import CacheStore
import Foundation

/// The documents, schema and variables of a command, loaded and checked.
struct LoadedDocuments {
    let document: QueryDocument
    let schema: CacheSchema?
    let variables: [String: InputValue]
}

extension DocumentOptions {
    /// Loads everything the options name; a document that does not
    /// validate against the schema stops the command with every problem
    /// on standard error.
    func load(_ context: CommandContext) throws -> LoadedDocuments {
        let loaded: LoadedDocuments
        do {
            let document = try loadDocument(typedAtPrompt: context.readsQueryTypedAtPrompt)
            let schema = try loadSchema()
            if schema == nil { try document.checkDirectivePlacesWithoutSchema() }
            loaded = LoadedDocuments(
                document: document, schema: schema, variables: try loadVariables(declaredIn: document, schema: schema, context: context))
        } catch let error as QueryError {
            throw CommandFailure(error.status, error.description)
        }
        if let problems = loaded.schema?.validate(loaded.document), let last = problems.last {
            // In the order of the text: the last is the one the failure says.
            for problem in problems.dropLast() { context.report(.usage, problem.description) }
            throw CommandFailure(.usage, last.description)
        }
        return loaded
    }
}

/// How written objects get identity keys, as the app's `cacheKeyInfo`
/// does: before the schema's `@typePolicy`, which keys what these leave.
struct KeyFieldOptions: ParsableArguments {
    @Option(
        name: .customLong("key-field"),
        help: ArgumentHelp(
            "Objects of TYPE are keyed TYPE:value by these fields (separated by commas or, as in @typePolicy, spaces), like the app's cache key configuration (values are not escaped, as CacheKeyInfo(jsonValue:) does not escape them; the schema's @typePolicy escapes \\ and +, and keys an object whose data lacks these fields, as Apollo falls back to it); with --schema TYPE may be an interface or union, for all its types, each keyed by its own name unless --key-group gives a group; TYPE * means every type that has them (repeatable).",
            valueName: "type=field[,field]"))
    var assignments: [String] = []

    @Option(
        name: .customLong("key-group"),
        help: ArgumentHelp(
            "Objects the --key-field entry for TYPE keys are keyed GROUP:value, as the app's CacheKeyInfo(id:uniqueKeyGroup:) keys them; GROUP is TYPE when left out: with --key-field Character=id, --key-group Character keys a Droid Character:2001 (repeatable).",
            valueName: "type[=group]"))
    var groupAssignments: [String] = []

    func validate() throws {
        var types: Set<Substring> = []
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, Self.fields(in: parts[1]) != nil else {
                throw ValidationError("--key-field takes TYPE=field[,field], e.g. Human=id or Book=isbn,lang (or 'Book=isbn lang'); got '\(assignment)'")
            }
            // One would silently win: a type keyed by several fields names them together.
            guard types.insert(parts[0]).inserted else {
                throw ValidationError("--key-field names \(parts[0]) twice; give its fields together, e.g. \(parts[0])=id,name")
            }
        }
        var grouped: Set<Substring> = []
        for assignment in groupAssignments {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else {
                throw ValidationError("--key-group takes TYPE or TYPE=GROUP, e.g. Character or '*=Node'; got '\(assignment)'")
            }
            guard parts[0] != "*" || parts.count == 2 else {
                throw ValidationError("--key-group *: name the group, e.g. '*=Node'")
            }
            guard types.contains(parts[0]) else {
                throw ValidationError("--key-group \(assignment): no --key-field names \(parts[0]), whose key fields the group keys by; "
                    + "give one too, e.g. --key-field \(parts[0])=id")
            }
            guard grouped.insert(parts[0]).inserted else {
                throw ValidationError("--key-group names \(parts[0]) twice")
            }
        }
    }

    /// With a schema, refuses a key field it says cannot key anything: a
    /// type it does not have, or a field that type does not have.
    func check(against schema: CacheSchema?) throws {
        guard let schema else { return }
        let names = schema.typeNames
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
            let type = parts[0]
            guard type != "*" else { continue }
            guard names.contains(type) else {
                let close = KeySuggestions.nearest(to: CacheKey(type), among: names.map { CacheKey($0) }).map(\.rawValue)
                throw CommandFailure(.usage, "--key-field \(assignment): the schema has no type '\(type)'"
                    + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: " or "))?)"))
            }
            for field in Self.fields(in: Substring(parts[1])) ?? [] {
                if schema.hasField(field, on: type) == false {
                    throw CommandFailure(.usage, "--key-field \(assignment): \(type) has no field '\(field)' in the schema")
                }
                if let problem = schema.keyFieldProblem(field, on: type) {
                    throw CommandFailure(.usage, "--key-field \(assignment): \(problem)")
                }
            }
        }
    }

    /// A type named with --key-field that no written object had keyed
    /// nothing: most often a misspelled type name. Says so, with the types
    /// that were written (an interface or union counts as written when one
    /// of its types was, with the schema to say so).
    func warnOfTypesNotWritten(_ written: Set<String>, schema: CacheSchema?, context: CommandContext) {
        let types = written.sorted()
        let keyingNothing = policy.typesKeyingNothing(written: written, schema: schema)
        func hint(for type: String) -> String {
            let close = NameSuggestions.withinTwoEdits(of: type, among: types)
            if !close.isEmpty { return "; did you mean \(close.joined(separator: " or "))?" }
            return schema == nil && !types.isEmpty ? "; for an interface or union, give --schema to say which types are its" : ""
        }
        for assignment in assignments {
            let type = String(assignment.prefix { $0 != "=" })
            guard keyingNothing.contains(type) else { continue }
            context.warn("--key-field \(assignment): no object of type \(type) was written, so it keyed nothing"
                + (types.isEmpty ? " (no object written had a __typename)" : " (types written: \(types.joined(separator: ", ")))")
                + hint(for: type))
        }
    }

    var policy: KeyPolicy {
        var keyFields: [String: [String]] = [:]
        for assignment in assignments {
            let parts = assignment.split(separator: "=", maxSplits: 1)
            keyFields[String(parts[0])] = Self.fields(in: parts[1]) ?? []
        }
        var groups: [String: String] = [:]
        for assignment in groupAssignments {
            let parts = assignment.split(separator: "=", maxSplits: 1)
            groups[String(parts[0])] = String(parts.last!)
        }
        return KeyPolicy(keyFields: keyFields, groups: groups)
    }

    /// The field names of `id,name`, or of `id name` as `@typePolicy(keyFields:)`
    /// spells them (or both mixed); nil when one is empty (`id,,name`).
    static func fields(in text: Substring) -> [String]? {
        var fields: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let names = part.split(whereSeparator: \.isWhitespace)
            if names.isEmpty { return nil }
            fields += names.map(String.init)
        }
        return fields
    }
}

/// A JSON text from a file named on the command line, or from standard
/// input for `-`.
enum JSONInput {
    /// How messages name an input given as `path`: `-` is standard input.
    static func name(of path: String) -> String { path == "-" ? "standard input" : path }

    /// The JSON of a file, or of standard input for `-`; not of a terminal,
    /// where a Ctrl-C would end the typing and leave a write to go on
    /// (as `import -` refuses one too).
    static func read(_ path: String, what: String, context: CommandContext) throws -> FieldValue {
        let text: String
        if path == "-" && context.stdinIsTerminal {
            // At the prompt, that terminal is the prompt's: no pipe can come in.
            throw CommandFailure(.usage, context.isREPLCommand
                ? "standard input is the terminal the prompt reads; name a file in place of '-'"
                : "standard input is a terminal; pipe the \(what) in (… | gqlcache …), or name its file")
        }
        if path == "-", context.stdin is StandardInputLines {
            // Its bytes, as a named file's are read: endless input, or a
            // binary file, stops at its first NUL; UTF-16 is named.
            text = try TextFile.read(FileHandle.standardInput, what: what, name: "standard input")
        } else if path == "-" {
            var lines: [String] = []
            while let line = try context.stdin.readTextLine(named: "standard input", number: lines.count + 1) {
                lines.append(line)
            }
            text = lines.joined(separator: "\n")
        } else {
            text = try TextFile.read(path, what: what)
        }
        return try parse(text, name: name(of: path), what: what)
    }

    /// `text` as JSON, or a usage failure placing what is wrong by line and
    /// column (where an editor finds it, as GraphQL errors say it):
    /// `NAME:LINE:COLUMN: the WHAT is not JSON: …`.
    static func parse(_ text: String, name: String, what: String) throws -> FieldValue {
        do {
            return try FieldValue(documentText: text)
        } catch CacheStoreError.invalidJSON(let offset, let message) {
            let place = SourcePlace(utf8Offset: offset, in: text)
            throw CommandFailure(.usage, "\(name):\(place.line):\(place.column): the \(what) is not JSON: \(message)")
        } catch let error as CacheStoreError {
            if case .repeatedMember(let offset, _) = error {
                let place = SourcePlace(utf8Offset: offset, in: text)
                throw CommandFailure(.usage, "\(name):\(place.line):\(place.column): in the \(what), \(error)")
            }
            throw CommandFailure(.usage, "\(name): the \(what) is not JSON: \(error)")
        }
    }

    /// One part of a later payload of a deferred response: an element of
    /// its `incremental` list.
    struct IncrementalPart {
        let data: FieldValue?
        let path: [PathComponent]
        let label: String
        let errors: [String]
    }

    /// A step of a response path (an error's or a deferred part's `path`):
    /// a field name, or a list index; nil for anything else.
    static func pathComponent(_ step: FieldValue) -> PathComponent? {
        switch step {
        case .string(let name): return .field(name)
        case .int(let index) where index >= 0: return .index(Int(index))
        default: return nil
        }
    }

    /// The parts of a later payload of a deferred (`@defer`) response
    /// (`{"incremental": [{"data", "path", "label"}, …], "hasNext": …}`),
    /// or nil when `value` is not one. Each part needs its path and label,
    /// as Apollo's parser does, to find the fragment it delivers.
    static func incrementalParts(_ value: FieldValue, from path: String) throws -> [IncrementalPart]? {
        guard case .object(let members) = value, let incremental = members["incremental"],
            Set(members.keys).isSubset(of: ["incremental", "hasNext", "errors", "extensions", "completed", "pending"])
        else { return nil }
        func refuse(_ message: String) -> CommandFailure {
            CommandFailure(.usage, "\(name(of: path)): \(message); nothing written")
        }
        guard case .list(let items) = incremental else { throw refuse("'incremental' must be a list of parts") }
        return try items.enumerated().map { index, item in
            guard case .object(let part) = item else { throw refuse("incremental part \(index) is not an object") }
            if part["items"] != nil {
                throw refuse("incremental part \(index) holds 'items', a part of a @stream list, which Apollo iOS does not support")
            }
            guard case .list(let steps)? = part["path"] else {
                throw refuse("incremental part \(index) has no 'path' list; Apollo needs it to find the deferred fragment")
            }
            let pathComponents = try steps.map { step -> PathComponent in
                guard let component = pathComponent(step) else {
                    throw refuse("incremental part \(index): 'path' holds \(JSONWriter.string(for: step, asStored: false)), not a field name or a list index")
                }
                return component
            }
            guard case .string(let label)? = part["label"] else {
                throw refuse("incremental part \(index) has no 'label'; Apollo needs it to find the deferred fragment (label each @defer)")
            }
            var errors: [String] = []
            if case .list(let list)? = part["errors"] {
                for case .object(let error) in list {
                    if case .string(let message)? = error["message"] { errors.append(message) }
                }
            }
            let data = part["data"].flatMap { $0 == .null ? nil : $0 }
            return IncrementalPart(data: data, path: pathComponents, label: label, errors: errors)
        }
    }

    /// The `data` of a GraphQL response (`{"data": …, "errors": …}`), or
    /// the object itself when it is the data alone. A response with errors
    /// and no data (or null data) is refused, naming `path` and the errors'
    /// messages: there is nothing to write.
    /// The first payload of a deferred response (`hasNext` beside `data`)
    /// is a response too; a later one (`incremental`) holds only parts.
    /// Whether `value` is data whose members are all among `rootNames`
    /// where these hold a name a response or a later payload has too
    /// (`incremental`): an operation selecting such a field is answered by
    /// data that looks like them.
    static func isData(_ value: FieldValue, rootNames: Set<String>) -> Bool {
        guard case .object(let members) = value, !members.isEmpty else { return false }
        return rootNames.contains("incremental") && Set(members.keys).isSubset(of: rootNames)
    }

    /// `rootNames`: the response names the data may hold at its top level.
    /// Where they include `data`, `{"data": X}` is the data alone unless X
    /// could be the data too: it holds a `data` and only such names.
    static func responseData(
        _ value: FieldValue, from path: String, rootNames: Set<String> = [], context: CommandContext
    ) throws -> FieldValue {
        if rootNames.contains("data"), case .object(let members) = value, Set(members.keys).isSubset(of: rootNames) {
            guard case .object(let inner)? = members["data"], inner["data"] != nil, Set(inner.keys).isSubset(of: rootNames) else {
                return value
            }
        }
        if case .object(let members) = value, members["incremental"] != nil, !isData(value, rootNames: rootNames),
            Set(members.keys).isSubset(of: ["incremental", "hasNext", "errors", "extensions", "completed", "pending"])
        {
            throw CommandFailure(
                .usage, "\(name(of: path)): a later payload of a deferred (@defer) response, which holds only the deferred parts; "
                    + "give the data whole, with each part's fields added at its path; nothing written")
        }
        guard case .object(let members) = value, members["data"] != nil || members["errors"] != nil,
            Set(members.keys).isSubset(of: ["data", "errors", "extensions", "hasNext", "pending"])
        else { return value }
        var messages: [String] = []
        if case .list(let items)? = members["errors"] {
            for case .object(let error) in items {
                if case .string(let message)? = error["message"] { messages.append(message) }
            }
        }
        let listed = messages.isEmpty ? "" : " (\(messages.joined(separator: "; ")))"
        if let data = members["data"], data != .null {
            // Partial data: Apollo writes it as it is, with null where a field failed.
            if case .list(let items)? = members["errors"], !items.isEmpty {
                context.warn("\(name(of: path)): the response holds \(plural(items.count, "error"))\(listed); its data is written as Apollo writes it, "
                    + "null where a field failed")
            }
            return data
        }
        guard members["errors"] != nil else { return members["data"] ?? value }
        throw CommandFailure(.usage, "\(name(of: path)): the response holds errors and no data\(listed); nothing written")
    }

    /// Why the data holds no usable value at `place` (a response path, as
    /// a refused write names it) when one of the response's `errors` is
    /// there or below it: GraphQL gives a field that fails as null, and a
    /// null in a non-null field as null at the nearest nullable field
    /// above it. Empty when no error names the place.
    static func errorHint(at place: [PathComponent], in response: FieldValue) -> String {
        guard case .object(let members) = response, case .list(let errors)? = members["errors"] else { return "" }
        for case .object(let error) in errors {
            guard case .list(let steps)? = error["path"] else { continue }
            let path = steps.compactMap(pathComponent)
            guard path.count == steps.count, path.starts(with: place) else { continue }
            let message: String
            if case .string(let text)? = error["message"] { message = " (\(text))" } else { message = "" }
            return "; the response's error at \(path.map(\.description).joined(separator: "."))\(message) failed it, and a server gives a failed field as null "
                + "(or nulls the nearest nullable field above it)"
        }
        return ""
    }
}
