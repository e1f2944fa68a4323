/// GraphQL's rule that fields sharing a response name can be merged
/// ("OverlappingFieldsCanBeMerged"): within one selection set, fields of
/// one response name must be the same field with the same arguments,
/// unless they sit in fragments on two different object types, and must
/// have the same shape. Apollo's code generator refuses a document that
/// breaks it; a read or write of one would take the first field and
/// quietly drop the others. The GraphQL package leaves this rule out, so
/// it is checked here, with a schema or without one.
struct FieldMergeCheck {
    let document: QueryDocument
    let schema: CacheSchema?
    /// Pairs compared so far: a document that spreads fragments into each
    /// other many times over stops being checked, rather than taking
    /// minutes, past this many.
    private var budget = 100_000

    init(document: QueryDocument, schema: CacheSchema?) {
        self.document = document
        self.schema = schema
    }

    /// A field with the type its selection set is on: the type condition
    /// of the fragment it is in, or the selection set's own type (nil when
    /// unknown).
    private struct Placed {
        let field: FieldSelection
        let parentType: String?
    }

    /// Throws ``QueryError/validation(source:line:column:message:)`` for
    /// the first conflict in `selections` (on `type`, when known) or in any
    /// selection set below them.
    mutating func check(_ selections: [Selection], type: String?) throws {
        var checkedFragments: Set<String> = []
        try checkSets(selections, type: type, checkedFragments: &checkedFragments)
    }

    /// Checks each selection set once: `selections`, its fields' and inline
    /// fragments' sets, and the fragments spread (each once).
    private mutating func checkSets(_ selections: [Selection], type: String?, checkedFragments: inout Set<String>) throws {
        // Once the budget is spent nothing more is compared: nor walked.
        guard budget > 0 else { return }
        try checkWithin(selections, type: type)
        try checkNested(selections, type: type, checkedFragments: &checkedFragments)
    }

    /// The selection sets below `selections`: an inline fragment's fields
    /// were compared as part of the set it is in, the sets inside them are
    /// checked here.
    private mutating func checkNested(_ selections: [Selection], type: String?, checkedFragments: inout Set<String>) throws {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard let inner = field.selections else { continue }
                try checkSets(inner, type: fieldType(field, on: type), checkedFragments: &checkedFragments)
            case .inlineFragment(let typeCondition, _, let inner):
                try checkNested(inner, type: typeCondition ?? type, checkedFragments: &checkedFragments)
            case .deferred(_, let inner):
                try checkNested(inner, type: type, checkedFragments: &checkedFragments)
            case .fragmentSpread(let name, _):
                guard checkedFragments.insert(name).inserted, let fragment = document.fragments[name] else { continue }
                try checkSets(fragment.selections, type: fragment.typeCondition, checkedFragments: &checkedFragments)
            }
        }
    }

    /// Compares every two fields of one response name in one selection set.
    private mutating func checkWithin(_ selections: [Selection], type: String?) throws {
        for (responseKey, fields) in collect(selections, type: type) where fields.count > 1 {
            for i in fields.indices {
                for j in fields.indices where j > i {
                    // 20,000 fields of one name are 200 million pairs: the loops stop with the budget.
                    guard budget > 0 else { return }
                    try compare(fields[i], fields[j], path: [responseKey], parentsExclusive: false)
                }
            }
        }
    }

    /// The fields of `selections` by response name, in order, with those of
    /// their inline fragments and spread fragments, whatever `@include`
    /// and `@skip` say (as the rule has it: a document must be valid for
    /// any variables).
    private func collect(_ selections: [Selection], type: String?) -> [(String, [Placed])] {
        var order: [String] = []
        var fields: [String: [Placed]] = [:]
        var visited: Set<String> = []
        func visit(_ selections: [Selection], type: String?) {
            for selection in selections {
                switch selection {
                case .field(let field):
                    if fields[field.responseKey] == nil { order.append(field.responseKey) }
                    fields[field.responseKey, default: []].append(Placed(field: field, parentType: type))
                case .inlineFragment(let typeCondition, _, let inner):
                    visit(inner, type: typeCondition ?? type)
                case .deferred(_, let inner):
                    visit(inner, type: type)
                case .fragmentSpread(let name, _):
                    guard visited.insert(name).inserted, let fragment = document.fragments[name] else { continue }
                    visit(fragment.selections, type: fragment.typeCondition)
                }
            }
        }
        visit(selections, type: type)
        return order.map { ($0, fields[$0]!) }
    }

    private mutating func compare(_ a: Placed, _ b: Placed, path: [String], parentsExclusive: Bool) throws {
        guard budget > 0 else { return }
        budget -= 1
        // Fields in fragments on two different object types never meet in
        // one object: they may be different fields, but still need one shape.
        let exclusive = parentsExclusive || areExclusive(a.parentType, b.parentType)
        if !exclusive {
            if a.field.name != b.field.name {
                throw conflict(a, b, path, "'\(a.field.name)' and '\(b.field.name)' are different fields")
            }
            if !Self.sameArguments(a.field.arguments, b.field.arguments) {
                throw conflict(a, b, path, "they have different arguments")
            }
        }
        let typeA = a.parentType.flatMap { schema?.fieldType(on: $0, field: a.field.name) }
        let typeB = b.parentType.flatMap { schema?.fieldType(on: $0, field: b.field.name) }
        if let typeA, let typeB, Self.typesConflict(typeA, typeB) {
            throw conflict(a, b, path, "they return conflicting types \(typeA) and \(typeB)")
        }
        switch (a.field.selections, b.field.selections) {
        case (nil, nil):
            return
        case (let innerA?, let innerB?):
            let fieldsB = Dictionary(collect(innerB, type: typeB?.namedType.name), uniquingKeysWith: { first, _ in first })
            for (responseKey, fromA) in collect(innerA, type: typeA?.namedType.name) {
                guard let fromB = fieldsB[responseKey] else { continue }
                for x in fromA {
                    for y in fromB {
                        guard budget > 0 else { return }
                        try compare(x, y, path: path + [responseKey], parentsExclusive: exclusive)
                    }
                }
            }
        default:
            throw conflict(a, b, path, "one selects subfields and the other does not")
        }
    }

    /// Whether two parent types can never be the type of one object: two
    /// different object types. Without a schema, two different type
    /// conditions are taken to be such, so that no valid document is refused.
    private func areExclusive(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b, a != b else { return false }
        guard let schema else { return true }
        return schema.isObjectType(a) && schema.isObjectType(b)
    }

    private func fieldType(_ field: FieldSelection, on type: String?) -> String? {
        type.flatMap { schema?.fieldType(on: $0, field: field.name)?.namedType.name }
    }

    private func conflict(_ a: Placed, _ b: Placed, _ path: [String], _ reason: String) -> QueryError {
        var message = "fields '\(path.joined(separator: "."))' conflict: \(reason)"
        if let first = a.field.place, let at = lineAndColumn(first) {
            let source = first.source == b.field.place?.source ? "" : first.source + ":"
            message += " (the other is at \(source)\(at.line):\(at.column))"
        }
        message += "; give them different aliases to read both"
        let place = b.field.place.flatMap(lineAndColumn)
        return .validation(
            source: b.field.place?.source ?? "the document", line: place?.line ?? 0, column: place?.column ?? 0, message: message)
    }

    private func lineAndColumn(_ place: SelectionPlace) -> SourcePlace? {
        document.sources.first { $0.name == place.source }.map { SourcePlace(utf8Offset: place.utf8Offset, in: $0.text) }
    }

    /// Whether two fields' types differ in shape: a list and a non-list,
    /// nullable and non-null, or two different leaf types.
    static func typesConflict(_ a: OutputType, _ b: OutputType) -> Bool {
        switch (a, b) {
        case (.list(let innerA), .list(let innerB)), (.nonNull(let innerA), .nonNull(let innerB)):
            return typesConflict(innerA, innerB)
        case (.list, _), (_, .list), (.nonNull, _), (_, .nonNull):
            return true
        case (.named(let nameA, let kindA), .named(let nameB, let kindB)):
            let leafA = kindA != .composite, leafB = kindB != .composite
            if leafA || leafB { return nameA != nameB }
            return false
        }
    }

    /// The same arguments, by name in any order, with values written alike.
    static func sameArguments(_ a: [(name: String, value: ValueNode)], _ b: [(name: String, value: ValueNode)]) -> Bool {
        guard a.count == b.count else { return false }
        return a.allSatisfy { argument in
            b.contains { $0.name == argument.name && sameValue($0.value, argument.value) }
        }
    }

    static func sameValue(_ a: ValueNode, _ b: ValueNode) -> Bool {
        switch (a, b) {
        case (.variable(let x), .variable(let y)), (.int(let x), .int(let y)), (.float(let x), .float(let y)),
             (.string(let x), .string(let y)), (.enumValue(let x), .enumValue(let y)):
            return x == y
        case (.null, .null):
            return true
        case (.boolean(let x), .boolean(let y)):
            return x == y
        case (.list(let x), .list(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.name == $1.name && sameValue($0.value, $1.value) }
        default:
            return false
        }
    }
}
