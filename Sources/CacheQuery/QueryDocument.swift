import GraphQL

/// The operations and fragments of one or more GraphQL documents.
///
/// ```swift
/// let document = try QueryDocument.parse([("hero.graphql", text)])
/// let operation = try document.operation(named: "HeroQuery")
/// ```
public struct QueryDocument: Sendable {
    public internal(set) var operations: [Operation] = []
    public internal(set) var fragments: [String: FragmentDefinition] = [:]
    /// The texts parsed, by source name, for validation against a schema.
    public private(set) var sources: [(name: String, text: String)] = []
    /// The first directive out of its declared places (see ``checkDirectivePlacesWithoutSchema()``).
    private var misplacedDirective: QueryError?
    /// Where each fragment is first spread: the source and the spread's
    /// UTF-8 offset in it, made a line and column only for a message (found
    /// for every spread, a document of thousands took quadratic time).
    private var spreadOffsets: [String: (source: String, offset: Int)] = [:]

    /// The same for the spreads in each fragment, by the fragment's name.
    private var spreadOffsetsInFragments: [String: [String: (source: String, offset: Int)]] = [:]

    /// The place of the first spread of `name` (in the fragment `holder`,
    /// when given and it has one), for a message.
    private func spreadPlace(of name: String, in holder: String? = nil) -> (source: String, line: Int, column: Int)? {
        guard let spread = holder.flatMap({ spreadOffsetsInFragments[$0]?[name] }) ?? spreadOffsets[name], let text = sources.first(where: { $0.name == spread.source })?.text else { return nil }
        let place = SourcePlace(utf8Offset: spread.offset, in: text)
        return (spread.source, place.line, place.column)
    }

    /// The fragments that no other fragment of the document spreads: the
    /// ones a reader would name, sorted.
    public var fragmentsSpreadByNoOther: [String] {
        let spread = Set(spreadOffsetsInFragments.flatMap { holder, spreads in spreads.keys.filter { $0 != holder } })
        return fragments.keys.filter { !spread.contains($0) }.sorted()
    }

    /// Where each fragment is defined: its source and the UTF-8 range of its definition.
    private var fragmentSpans: [String: (source: String, start: Int, end: Int)] = [:]

    /// The text of a fragment's definition, as written (directives and
    /// all), to give it with another document; nil for no such fragment.
    public func definitionText(ofFragment name: String) -> String? {
        guard let span = fragmentSpans[name], let text = sources.first(where: { $0.name == span.source })?.text else { return nil }
        let bytes = Array(text.utf8)
        guard 0 <= span.start, span.start <= span.end, span.end <= bytes.count else { return nil }
        return String(decoding: bytes[span.start..<span.end], as: UTF8.self)
    }

    /// The fragments that fragment `name` spreads itself.
    public func spreads(ofFragment name: String) -> Set<String> {
        Set((spreadOffsetsInFragments[name] ?? [:]).keys)
    }

    /// The fragments the document spreads but does not define: another
    /// document given with it must.
    public var undefinedSpreads: Set<String> {
        Set(spreadOffsets.keys).union(spreadOffsetsInFragments.values.flatMap(\.keys)).subtracting(fragments.keys)
    }

    public init() {}

    /// Parses each `(source name, text)`; a syntax error names the source,
    /// line and column.
    public static func parse(_ sources: [(name: String, text: String)]) throws -> QueryDocument {
        var document = QueryDocument()
        // The same text given twice (a file named by --document that the
        // Apollo config also finds) is read once.
        var seen: Set<String> = []
        let sources = sources.filter { seen.insert($0.text).inserted }
        document.sources = sources
        var sourceOfOperation: [String: String] = [:]
        var sourceOfFragment: [String: String] = [:]
        for (name, text) in sources {
            let ast = try NestingLimit.parse(text, name: name) { QueryError.syntax(source: name, line: $0, column: $1, message: $2) }
            // A schema file given as a document: its types would be skipped,
            // and the error would only say that no operation has the name.
            if let first = ast.definitions.first,
                !ast.definitions.contains(where: { $0 is OperationDefinition || $0 is GraphQL.FragmentDefinition })
            {
                let place = first.loc?.place ?? SourcePlace(utf8Offset: 0, in: text)
                throw QueryError.syntax(
                    source: name, line: place.line, column: place.column,
                    message: "this is a type definition (a schema), not an operation or fragment; give a schema with --schema")
            }
            // GraphQL's rule, a document at a time: an ad-hoc `{ … }` (a
            // --text) may stand beside a project's named operations, not among them.
            let operationsHere = ast.definitions.compactMap { $0 as? OperationDefinition }
            if operationsHere.count > 1, let anonymous = operationsHere.first(where: { $0.name == nil }) {
                let place = anonymous.loc?.place ?? SourcePlace(utf8Offset: 0, in: text)
                throw QueryError.validation(
                    source: name, line: place.line, column: place.column, message: "This anonymous operation must be the only defined operation.")
            }
            for (index, definition) in ast.definitions.enumerated() {
                if let operation = definition as? OperationDefinition {
                    document.noteSpreadPlaces(in: operation.selectionSet, source: name)
                    let converted = ASTConversion.operation(operation, source: name)
                    // Which one a name picks must not depend on the order of the files.
                    if let operationName = converted.name {
                        if let first = sourceOfOperation[operationName] {
                            throw QueryError.duplicateOperation(operationName, sources: [first, name])
                        }
                        sourceOfOperation[operationName] = name
                    }
                    document.operations.append(converted)
                } else if let fragment = definition as? GraphQL.FragmentDefinition {
                    document.noteSpreadPlaces(in: fragment.selectionSet, source: name, holder: fragment.name.value)
                    let converted = ASTConversion.fragment(fragment, source: name)
                    // Which one a spread reads must not depend on the order of the files.
                    if let first = sourceOfFragment[converted.name] {
                        throw QueryError.duplicateFragment(converted.name, sources: [first, name])
                    }
                    sourceOfFragment[converted.name] = name
                    document.fragments[converted.name] = converted
                    // It runs to the next definition (the parser's own end of a node is that of its first token).
                    if let start = fragment.loc?.start {
                        let next = index + 1 < ast.definitions.count ? ast.definitions[index + 1].loc?.start : nil
                        document.fragmentSpans[converted.name] = (name, start, next ?? text.utf8.count)
                    }
                }
                try ConditionCheck.check(definition, source: name)
                try SchemalessCheck.check(definition, source: name, misplaced: &document.misplacedDirective)
            }
        }
        try document.checkSpreadDepth()
        return document
    }

    /// Throws the first directive out of the places GraphQL and Apollo
    /// declare it for (`query Q @skip(if: true)`), which a read without a
    /// schema would otherwise pass over; with a schema, its validation
    /// says where its directives go.
    public func checkDirectivePlacesWithoutSchema() throws {
        if let misplacedDirective { throw misplacedDirective }
    }

    /// Refuses fragments that spread each other deeper than
    /// ``NestingLimit/maximumDepth`` levels: each spread is a level of
    /// every walk over the selections, as a brace is, but the text's own
    /// nesting does not show it (a chain of 30,000 fragments each spreading
    /// the next overflowed the stack). Worked out without recursion over
    /// the chain; a cycle is left for ``checkFragmentSpreads(in:)`` to name.
    private func checkSpreadDepth() throws {
        // Each fragment's own depth, and the fragments it spreads with the level of each spread.
        var own: [String: Int] = [:]
        var spreads: [String: [(name: String, level: Int)]] = [:]
        func walk(_ selections: [Selection], level: Int, into name: String) {
            own[name] = max(own[name] ?? 0, level)
            for selection in selections {
                switch selection {
                case .field(let field):
                    if let inner = field.selections { walk(inner, level: level + 1, into: name) }
                case .inlineFragment(_, _, let inner), .deferred(_, let inner):
                    walk(inner, level: level + 1, into: name)
                case .fragmentSpread(let spread, _):
                    if fragments[spread] != nil { spreads[name, default: []].append((spread, level + 1)) }
                }
            }
        }
        for (name, fragment) in fragments { walk(fragment.selections, level: 0, into: name) }
        // Deepest first from the fragments that spread none (Kahn's order).
        var waitingOn: [String: Int] = [:]
        var spreadBy: [String: [String]] = [:]
        for name in fragments.keys {
            let targets = Set((spreads[name] ?? []).map(\.name))
            waitingOn[name] = targets.count
            for target in targets { spreadBy[target, default: []].append(name) }
        }
        var ready = fragments.keys.filter { waitingOn[$0] == 0 }.sorted()
        var depth: [String: Int] = [:]
        while let name = ready.popLast() {
            var deepest = own[name] ?? 0
            var through: String?
            for (target, level) in spreads[name] ?? [] where level + depth[target]! > deepest {
                deepest = level + depth[target]!
                through = target
            }
            if deepest > NestingLimit.maximumDepth, let through {
                let place = spreadPlace(of: through, in: name) ?? (sources.first?.name ?? "", 0, 0)
                throw QueryError.syntax(
                    source: place.source, line: place.line, column: place.column,
                    message: "fragment '\(name)' spreads '\(through)', and the spreads from there nest more than "
                        + "\(NestingLimit.maximumDepth) levels deep; no real operation is that deep")
            }
            depth[name] = deepest
            for holder in spreadBy[name] ?? [] {
                waitingOn[holder]! -= 1
                if waitingOn[holder] == 0 { ready.append(holder) }
            }
        }
    }

    private mutating func noteSpreadPlaces(in set: SelectionSet, source: String, holder: String? = nil) {
        for selection in set.selections {
            if let field = selection as? Field, let inner = field.selectionSet {
                noteSpreadPlaces(in: inner, source: source, holder: holder)
            } else if let inline = selection as? InlineFragment {
                noteSpreadPlaces(in: inline.selectionSet, source: source, holder: holder)
            } else if let spread = selection as? FragmentSpread, let location = spread.loc {
                if spreadOffsets[spread.name.value] == nil { spreadOffsets[spread.name.value] = (source, location.start) }
                if let holder, spreadOffsetsInFragments[holder]?[spread.name.value] == nil {
                    spreadOffsetsInFragments[holder, default: [:]][spread.name.value] = (source, location.start)
                }
            }
        }
    }

    /// Throws ``QueryError/unknownSpread(_:source:line:column:available:)``
    /// for the first fragment spread in `selections` (or in the fragments
    /// they spread) that names no fragment of the documents, and
    /// ``QueryError/fragmentCycle(_:)`` for a fragment that spreads itself.
    /// A schema's validation says so too; without a schema a read would
    /// quietly read nothing there.
    func checkFragmentSpreads(in selections: [Selection]) throws {
        var finished: [String: Int] = [:]
        var path: [String] = []
        // The first fragment that, its spreads written out, is larger than
        // any real operation; else the largest spread.
        var tooLarge: (name: String, holder: String?)?
        var largest: (name: String, holder: String?, size: Int)?
        // Sizes stop one past the limit: adding two never overflows.
        func capped(_ size: Int) -> Int { min(size, Self.maximumWrittenOutSize + 1) }
        /// The selections' size with every spread written out.
        func visit(_ selections: [Selection]) throws -> Int {
            var size = 0
            for selection in selections {
                switch selection {
                case .field(let field):
                    size = capped(size + 1 + (try visit(field.selections ?? [])))
                case .inlineFragment(_, _, let inner), .deferred(_, let inner):
                    size = capped(size + 1 + (try visit(inner)))
                case .fragmentSpread(let name, _):
                    if let start = path.firstIndex(of: name) { throw QueryError.fragmentCycle(Array(path[start...]) + [name]) }
                    if let known = finished[name] {
                        size = capped(size + 1 + known)
                        continue
                    }
                    guard let fragment = fragments[name] else {
                        let place = spreadPlace(of: name) ?? (sources.map(\.name).joined(separator: ", "), 0, 0)
                        throw QueryError.unknownSpread(
                            name, source: place.source, line: place.line, column: place.column, available: fragments.keys.sorted())
                    }
                    let holder = path.last
                    path.append(name)
                    let own = try visit(fragment.selections)
                    path.removeLast()
                    if own > Self.maximumWrittenOutSize && tooLarge == nil { tooLarge = (name, holder) }
                    if own > largest?.size ?? -1 { largest = (name, holder, own) }
                    finished[name] = own
                    size = capped(size + 1 + own)
                }
            }
            return size
        }
        let size = try visit(selections)
        guard size > Self.maximumWrittenOutSize else { return }
        let limit = Self.maximumWrittenOutSize
        let culprit = tooLarge ?? largest.map { ($0.name, $0.holder) }
        let place = culprit.flatMap { spreadPlace(of: $0.name, in: $0.holder) } ?? (sources.first?.name ?? "", 0, 0)
        let message: String
        if let tooLarge {
            message = "fragment '\(tooLarge.name)' comes to more than \(limit) selections with the fragments it spreads written out"
        } else if let largest {
            message = "the selections read come to more than \(limit) with the fragments they spread written out "
                + "('\(largest.name)' alone to \(largest.size))"
        } else {
            message = "the selections read come to more than \(limit)"
        }
        throw QueryError.validation(
            source: place.source, line: place.line, column: place.column,
            message: message + ", each spread counted where it is spread (a fragment spread twice counts twice); no real operation is that large")
    }

    /// Selections an operation may come to with its fragment spreads
    /// written out: far more than any real one, while a read of that many
    /// through records that lead back to themselves still fits in memory.
    static let maximumWrittenOutSize = 250_000
}

