import CacheQuery
import Foundation

/// The GraphQL typed at the prompt and the document files named in
/// earlier commands, which later commands read when they name none.
extension REPLSession {
    /// `read NAME` after an earlier `read … --document FILE`: the
    /// documents named earlier in the session, which Tab completes
    /// operation names from, are the ones a typed command that names
    /// none reads (`read`, `update` and `write`). GraphQL typed at the
    /// prompt is read instead (`read --var id=1000` after a query that
    /// needs `$id`, `update --fragment F --set name=X` after `fragment F …`)
    /// when it defines the operation or fragment named and no file does, or
    /// when the command names none and nothing was read from a file since
    /// the last query was typed. The two are never read together. A
    /// fragment typed at the prompt named as an operation (`read F`) is
    /// the fragment (`read --fragment F`).
    func withDocumentsNamedEarlier(_ words: [String]) -> [String] {
        guard let command = words.first, ["read", "update", "write"].contains(command), !namesADocument(words),
              !words.contains(where: { ["-h", "--help"].contains($0) }) else { return words }
        if let lastTyped {
            // The files are read once for the lookups below, and only if one is made.
            var filesRead: [(file: String, document: QueryDocument)]?
            func files() -> [(file: String, document: QueryDocument)] {
                if filesRead == nil { filesRead = documentFilesRead() }
                return filesRead ?? []
            }
            // The newest typed document that defines it, unless a file named since does.
            func typed(defining defines: @escaping (QueryDocument) -> Bool) -> String? {
                guard let text = typedDocuments.first(where: { typedDocument($0).map(defines) ?? false })
                else { return nil }
                let typedAt = givenAt["text:" + text] ?? 0
                let namedSince = files().contains { defines($0.document) && givenAt["file:" + $0.file] ?? 0 > typedAt }
                return namedSince ? nil : text
            }
            if let fragment = Self.value(of: "--fragment", in: words) {
                // `read --fragment F --key K` after `fragment F on … { … }` typed at the prompt.
                if let text = typed(defining: { $0.fragments[fragment] != nil }) { return words + ["--text", text] }
            } else if let named = REPLCompleter.positionals(words).first {
                if let text = typed(defining: { $0.operations.contains { $0.name == named } }) { return words + ["--text", text] }
                if let text = typed(defining: { $0.fragments[named] != nil && !$0.operations.contains { $0.name == named } }),
                   let at = REPLCompleter.positionalPlaces(words).first {
                    var words = words
                    words[at...at] = ["--fragment", named]
                    return words + ["--text", text]
                }
            } else if lastQueryIsNewest {
                // The query typed last (or one that does not parse, to say so
                // again), also when fragments were typed after it: they are
                // no operation to read. Typed before a file was named, the
                // file's operations are read instead, as if they were not typed.
                guard let query = lastQuery else { return words + ["--text", lastTyped] }
                let fileNamedSince = documentFiles.contains { givenAt["file:" + $0] ?? 0 > givenAt["text:" + query] ?? 0 }
                if !fileNamedSince { return words + ["--text", query] }
            }
            // A name nothing typed or named defines: the query typed last says which names it has.
            let namesOne = Self.value(of: "--fragment", in: words) != nil || !REPLCompleter.positionals(words).isEmpty
            if namesOne && documentFiles.isEmpty { return words + ["--text", lastTyped] }
        }
        return words + documentFiles.flatMap { ["--document", $0] }
    }

    /// The `--document` files named earlier that still read as GraphQL.
    private func documentFilesRead() -> [(file: String, document: QueryDocument)] {
        documentFiles.compactMap { file in
            guard let text = try? String(contentsOfFile: file, encoding: .utf8),
                  let document = try? QueryDocument.parse([(file, text)]) else { return nil }
            return (file, document)
        }
    }

    /// For GraphQL typed at the prompt that spreads fragments it does not
    /// define (`{ hero { ...HeroF } }`): the definitions of those fragments
    /// (and of those they spread) from the documents typed or named
    /// earlier, newest first, as one `--text`. Their fragments alone come:
    /// an operation of theirs could clash with the typed one's name.
    func fragmentsDefinedEarlier(spreadBy document: QueryDocument, typed text: String) -> [String] {
        var missing = document.undefinedSpreads.sorted()
        guard !missing.isEmpty else { return [] }
        let earlier = typedDocuments.filter { $0 != text }.compactMap(typedDocument)
            + documentFilesRead().map(\.document)
        var defined = Set(document.fragments.keys)
        var definitions: [String] = []
        while !missing.isEmpty {
            let name = missing.removeFirst()
            guard !defined.contains(name), let source = earlier.first(where: { $0.fragments[name] != nil }),
                  let definition = source.definitionText(ofFragment: name) else { continue }
            definitions.append(definition)
            defined.insert(name)
            missing += source.spreads(ofFragment: name).subtracting(defined).sorted()
        }
        return definitions.isEmpty ? [] : ["--text", definitions.joined(separator: "\n")]
    }

    /// The value of `option` in `words` (`--fragment F` or `--fragment=F`), the last one given.
    static func value(of option: String, in words: [String]) -> String? {
        var found: String?
        for (index, word) in words.enumerated() {
            if word == option, index + 1 < words.count { found = words[index + 1] }
            if word.hasPrefix(option + "=") { found = String(word.dropFirst(option.count + 1)) }
        }
        return found
    }

    /// The GraphQL of a command that names it with `--text` alone (no
    /// document file, no Apollo config): nil for any other.
    static func onlyText(of words: [String]) -> String? {
        let texts = words.filter { $0 == "--text" || $0.hasPrefix("--text=") }
        guard texts.count == 1, !gives(["--document", "--apollo-config"], in: words) else { return nil }
        return value(of: "--text", in: words)
    }

    func namesADocument(_ words: [String]) -> Bool { Self.gives(["--document", "--text", "--apollo-config"], in: words) }

    /// Whether `words` give one of `options`, as `--document F` or `--document=F`.
    static func gives(_ options: [String], in words: [String]) -> Bool {
        words.contains { word in options.contains(word) || options.contains { word.hasPrefix($0 + "=") } }
    }

    func rememberDocuments(in words: [String], onlyReadable: Bool) {
        // The files --document names, and those an Apollo codegen config finds
        // (`read --apollo-config apollo-codegen-config.json Feed`).
        var files: [String] = []
        for (option, value) in REPLCompleter.optionValues(in: words) {
            if option == "--document" { files.append(value) }
            if option == "--apollo-config" { files += REPLCompleter.operationFiles(ofConfig: value) }
        }
        for file in files {
            guard !documentFiles.contains(file) else {
                noteGiven("file:" + file)
                continue
            }
            if onlyReadable {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8), (try? QueryDocument.parse([(file, text)])) != nil else { continue }
            }
            documentFiles.append(file)
            noteGiven("file:" + file)
        }
    }
}
