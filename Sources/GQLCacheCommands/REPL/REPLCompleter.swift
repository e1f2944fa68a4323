import CacheQuery
import CacheStore
import Foundation

/// Tab completion at the REPL's prompt: command names, a command's flags,
/// cache keys (a prefix lookup through the key index, so it stays instant on
/// a million records), field names of the current record for `cd`, and
/// operation and fragment names from the documents named so far. Pure
/// logic: the readline reader asks it and shows what it returns.
public final class REPLCompleter {
    /// What to complete: candidates to offer, or the file names readline
    /// completes itself.
    public enum Completion: Equatable {
        case candidates([String])
        case fileNames
    }

    let session: REPLSession
    /// Options of each CLI command that take a file name.
    static let fileOptions: Set<String> = [
        "--document", "--schema", "--variables-file", "--response", "--data", "--apollo-config", "--output", "-o",
    ]
    /// Options of each CLI command that take a cache key (or a key pattern).
    static let keyOptions: Set<String> = ["--key", "--match"]
    /// The commands whose arguments are keys (or a key pattern, or, for
    /// grep, text that is often a key a reference names): the others take
    /// none, or a name or text Tab cannot guess.
    static let keyTakingCommands: Set<String> = ["keys", "show", "refs", "rm", "cd", "ls", "grep"]
    static let keyLimit = 200

    init(session: REPLSession) {
        self.session = session
    }

    /// Completions for `word`, the word that ends at the cursor, with
    /// `before` the text of the line before it.
    public func complete(word: String, before line: String) -> Completion {
        // What Tab opened is closed before the prompt waits again.
        defer { session.stores.closeAll() }
        // `pwd; show Hu`: the command after the last `;` is the one completed.
        let before = ShellWords.lastCommand(line)
        keysCut = false
        continuesWord = false
        let previousWords = (try? ShellWords.split(before)) ?? before.split(separator: " ").map(String.init)
        guard let command = previousWords.first else {
            return .candidates(Self.matching(word, in: Self.commandNames))
        }
        // `--type=Hu`: the value, completed as after `--type `, kept joined
        // to its option (a file name so joined is left to the shell's form).
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "="), !previousWords.dropFirst().contains("--") {
            let option = String(word[..<equals])
            guard case .candidates(let values) = complete(word: String(word[word.index(after: equals)...]), before: before + option + " ") else {
                return .candidates([])
            }
            return .candidates(values.map { option + "=" + $0 })
        }
        if let previous = previousWords.last, previousWords.count > 1, Self.fileOptions.contains(previous) { return .fileNames }
        if command == "open" { return .fileNames }
        if command == "help" || command == "?" {
            return .candidates(previousWords.count == 1 ? Self.matching(word, in: Self.commandNames) : [])
        }
        // ls takes show's options.
        let optionsOf = command == "ls" ? "show" : command
        // cd and ls go to, or show, one record: once it is named, nothing more.
        let recordNamed = (command == "cd" || command == "ls") && !Self.positionals([optionsOf] + previousWords.dropFirst()).isEmpty
        // After `--` every word is an argument, so a key such as `-x`, never a flag.
        if previousWords.dropFirst().contains("--") {
            if ["diff", "import"].contains(command) { return .fileNames }
            if recordNamed { return .candidates([]) }
            return .candidates(Self.keyTakingCommands.contains(command) ? keys(startingWith: word) : [])
        }
        // diff's other cache (or its two, `diff BACKUP FILE`) and import's input are files, not keys.
        // (Not an option's value: `diff --format ` takes text, json or jsonl.)
        let takesValue = previousWords.count > 1 && OptionTable.commands.valueTaking[command]?.contains(previousWords.last!) == true
        if ["diff", "import"].contains(command) && !word.hasPrefix("-") && !takesValue
            && Self.positionals(previousWords).count < (command == "diff" ? 2 : 1) { return .fileNames }
        if let previous = previousWords.last, previousWords.count > 1, let values = Self.optionValues[optionsOf]?[previous] {
            return .candidates(Self.matching(word, in: values))
        }
        if word.hasPrefix("-") {
            // The prompt never pages, and --version is the program's, not a command's.
            let offered = (Self.flags[optionsOf] ?? []).filter { !Self.notAtThePrompt.contains($0) }
            return .candidates(Self.matching(word, in: offered))
        }
        if previousWords.last == "--type", previousWords.count > 1 { return .candidates(typenames(startingWith: word)) }
        if command == "grep", previousWords.last == "--field", previousWords.count > 1 { return .candidates(fieldNames(startingWith: word)) }
        // --key names a record, whatever operations the documents hold.
        if let previous = previousWords.last, previousWords.count > 1, Self.keyOptions.contains(previous) {
            return .candidates(keys(startingWith: word))
        }
        // Documents named on this line count too, before the line has run,
        // and those an Apollo codegen config on it finds.
        let given = Self.optionValues(in: previousWords)
        let documents = given.filter { $0.option == "--document" }.map(\.value)
            + given.filter { $0.option == "--apollo-config" }.flatMap { Self.operationFiles(ofConfig: $0.value) }
        let texts = given.filter { $0.option == "--text" }.map(\.value)
        if previousWords.last == "--fragment" {
            return .candidates(Self.matching(word, in: definitionNames(adding: documents, texts: texts, forUpdate: command == "update").fragments))
        }
        // `read --var ` offers the variables the operation read declares, as `name=`.
        if ["read", "update", "write"].contains(command), previousWords.count > 1, previousWords.last == "--var" {
            let names = variableAssignments(for: Array(previousWords.dropLast()))
            continuesWord = true
            // `$i` completes to `$id=`, as the document writes the name.
            return .candidates(Self.matching(word, in: word.hasPrefix("$") ? names.map { "$" + $0 } : names))
        }
        // The value of any other option: a number (--limit), text (--text, --set), a name.
        if let previous = previousWords.last, previousWords.count > 1, !previous.contains("="),
            OptionTable.commands.valueTaking[optionsOf]?.contains(previous) == true {
            return .candidates([])
        }
        // An operation and --fragment do not go together: once one is given, no operation is offered.
        if ["read", "update", "write"].contains(command) && Self.positionals(previousWords).isEmpty
            && REPLSession.value(of: "--fragment", in: previousWords) == nil {
            let operations = definitionNames(adding: documents, texts: texts, forUpdate: command == "update").operations
            if !operations.isEmpty { return .candidates(Self.matching(word, in: operations)) }
        }
        if command == "cd" || command == "ls" {
            if recordNamed { return .candidates([]) }
            return .candidates(Self.matching(word, in: fieldsHere(word)) + keys(startingWith: word))
        }
        return .candidates(Self.keyTakingCommands.contains(command) ? keys(startingWith: word) : [])
    }

    /// What Tab writes for `candidates` of `word`, the word the line ends
    /// in, from UTF-8 offset `from` of the line: the one candidate whole,
    /// or what all of them share. Quoted so that the REPL's word splitting
    /// gives the candidate back (a key may hold spaces and quotes): in the
    /// quote the word has open, whose opening quote the text begins with
    /// and replaces, else in single quotes when needed. A whole candidate
    /// closes its quote; a shared beginning leaves it open for the next Tab.
    static func insertion(for candidates: [String], completing word: ShellWords.PartialWord) -> (from: Int, text: String)? {
        // An open quote stays where it is, and what the word says before it too.
        let kept = word.openQuote == nil ? "" : word.valueBeforeOpenQuote
        // Compared by Unicode scalars, not as Swift's String compares: `café`
        // composed and decomposed are two keys, and neither may stand for both.
        let rests = candidates.filter { $0.unicodeScalars.starts(with: kept.unicodeScalars) }
            .map { String(String.UnicodeScalarView($0.unicodeScalars.dropFirst(kept.unicodeScalars.count))) }
        guard let first = rests.first else { return nil }
        let from = word.openQuote == nil ? word.start : word.openQuoteOffset
        guard rests.count > 1 else { return (from, ShellWords.quote(first, with: word.openQuote, closed: true)) }
        // A backslash typed last escapes what comes next, not yet typed: the
        // beginning the candidates share would drop it (`Back\` to `Back`).
        if word.escapesNext { return nil }
        let shared = rests.dropFirst().reduce(first) { shared, rest in
            let length = zip(shared.unicodeScalars, rest.unicodeScalars).prefix { $0 == $1 }.count
            return String(String.UnicodeScalarView(shared.unicodeScalars.prefix(length)))
        }
        return (from, ShellWords.quote(shared, with: word.openQuote, closed: false))
    }

    static var commandNames: [String] {
        (GQLCache.configuration.subcommands.map { $0._commandName }.filter { $0 != "repl" && $0 != "completions" } + REPLSession.ownCommands.map(\.name) + ["exit"])
            .sorted()
    }

    /// The positional arguments of a command line (its words after the
    /// command's name that are neither options nor their values).
    static func positionals(_ words: [String]) -> [String] {
        positionalPlaces(words).map { words[$0] }
    }

    /// Where in `words` the positional arguments stand (see ``positionals(_:)``).
    static func positionalPlaces(_ words: [String]) -> [Int] {
        guard let command = words.first else { return [] }
        var result: [Int] = []
        var index = 1
        while index < words.count {
            let word = words[index]
            if word == "--" {
                result += (index + 1)..<words.count
                break
            }
            if word.hasPrefix("-") {
                // --name=value carries its value; --name value takes the next word.
                if !word.contains("="), OptionTable.commands.valueTaking[command]?.contains(word) == true { index += 1 }
            } else {
                result.append(index)
            }
            index += 1
        }
        return result
    }

    /// Options every command takes that mean nothing at the prompt.
    static let notAtThePrompt: Set<String> = ["--no-pager", "--version"]

    static func matching(_ prefix: String, in names: [String]) -> [String] {
        names.filter { $0.hasPrefix(prefix) }
    }

    /// Long and short flags of each command, from the command tree's own
    /// description of itself.
    static var flags: [String: [String]] { OptionTable.commands.names }

    /// The values of each command's options that take one of a few
    /// (`--mode`, `--format`, `--color`), by command and flag.
    static var optionValues: [String: [String: [String]]] { OptionTable.commands.values }

    /// Keys that start with `prefix`, in key order, through the key index.
    func keys(startingWith prefix: String) -> [String] {
        guard let store = try? session.completionStore() else { return [] }
        let found = CompletionSources.keysAndWhetherCut(in: store, startingWith: prefix, limit: Self.keyLimit)
        if found.cut { keysCut = true }
        return found.keys
    }

    /// Set when the last completion offered only some of the keys that
    /// match (``keyLimit``): Tab-Tab's list says so under it.
    private(set) var keysCut = false

    /// Set when the last completion's candidates are the start of a word
    /// (`id=`, whose value comes next): no space goes after one.
    private(set) var continuesWord = false

    /// For `--var`: `name=` for each variable the operation the command
    /// would read declares (the one named on the line, or the only one or
    /// the query typed last, as the command finds it), or the fragment
    /// `--fragment` names uses, less those given.
    func variableAssignments(for words: [String]) -> [String] {
        let line = session.withDocumentsNamedEarlier(words)
        var sources: [(name: String, text: String)] = []
        for (option, value) in Self.optionValues(in: line) {
            if option == "--text" { sources.append(("--text", value)) }
            // Never the cache file a store has open: closing a descriptor of it would release its locks.
            let files = option == "--document" ? [value] : option == "--apollo-config" ? Self.operationFiles(ofConfig: value) : []
            for file in files where CompletionSources.isSmallRegularFile(file) && !FileProbe.isHeldByAnOpenStore(file) {
                if let text = try? String(contentsOfFile: file, encoding: .utf8) { sources.append((file, text)) }
            }
        }
        guard !sources.isEmpty, let document = try? QueryDocument.parse(sources) else { return [] }
        // A fragment read on its own takes the variables it uses; an operation declares its own.
        let names: [String]
        if let fragment = REPLSession.value(of: "--fragment", in: line) {
            guard let definition = try? document.fragment(named: fragment) else { return [] }
            names = document.variables(usedBy: definition)
        } else {
            guard let operation = try? document.operation(named: Self.positionals(line).first) else { return [] }
            names = operation.variables.map(\.name)
        }
        let given = Set(Self.optionValues(in: words).filter { $0.option == "--var" }.map {
            String(DocumentOptions.withoutDollarSign($0.value).prefix { $0 != "=" })
        })
        return names.filter { !given.contains($0) }.map { $0 + "=" }
    }

    /// The operation files an Apollo codegen config finds; none when it
    /// cannot be read (a Tab never says why).
    static func operationFiles(ofConfig config: String) -> [String] {
        guard CompletionSources.isSmallRegularFile(config), let found = try? ApolloConfig.load(config).operationFiles() else { return [] }
        return found
    }

    /// Each option of the command line `words` (its command first) given a
    /// value, as `--name value` or `--name=value`, sorted out as the shells'
    /// completion sorts them (a flag takes no value: `--dry-run --document F`).
    static func optionValues(in words: [String]) -> [(option: String, value: String)] {
        CompletionWords(["gqlcache"] + words, completing: -1).options.map { (option: $0.name, value: $0.value) }
    }

    /// The `__typename`s the file holds, and the field names its records
    /// hold: each a scan of every record, so read once and kept until the
    /// next command runs.
    private var typenameCache = KeptUntilNextCommand<[String]>()
    private var fieldNameCache = KeptUntilNextCommand<Set<String>>()

    /// `__typename`s that start with `prefix`, for `--type`.
    func typenames(startingWith prefix: String) -> [String] {
        let names = typenameCache.value(in: session) { (try? session.completionStore()).flatMap(CompletionSources.readTypenames(in:)) }
        return Self.matching(prefix, in: names ?? [])
    }

    /// Field names that start with `prefix`, for `grep --field`.
    func fieldNames(startingWith prefix: String) -> [String] {
        let names = fieldNameCache.value(in: session) { (try? session.completionStore()).flatMap(CompletionSources.fieldNames(in:)) }
        return CompletionSources.fieldNames(names ?? [], startingWith: prefix)
    }

    /// Where `cd` can go from the current record: its fields that hold a
    /// reference, and the elements of those that hold a list of them (so
    /// Tab on `friends` stops at `friends.`, not at a list `cd` refuses).
    /// For `word` in a path such as `../fr` or `../../`, the same from the
    /// record that path goes back to, each after the path's own `../`.
    func fieldsHere(_ word: String = "") -> [String] {
        var path = "", from = session.current, ups = 0
        if let slash = word.lastIndex(of: "/") {
            path = String(word[...slash])
            guard let relative = REPLSession.relativePath(path), relative.rest.isEmpty else { return [] }
            ups = relative.ups
            from = session.trail(back: ups).last ?? .queryRoot
        }
        guard let store = try? session.completionStore(),
            let record = try? store.read({ tx in try tx.record(for: from) })
        else { return [] }
        // `..` leads somewhere only from a record cd went through, not from the root.
        let back = session.trail(back: ups).count > 1 ? [".."] : []
        return (REPLSession.referencePaths(of: record) + back).map { path + $0 }
    }

    /// The names the documents named so far define, those typed at the
    /// prompt, and those named (`documents`) or given (`texts`) on the line.
    func definitionNames(adding documents: [String] = [], texts: [String] = [], forUpdate: Bool = false) -> (operations: [String], fragments: [String]) {
        CompletionSources.definitionNames(
            documentFiles: session.documentFiles + documents.filter { !session.documentFiles.contains($0) },
            texts: session.typedTexts + texts, forUpdate: forUpdate)
    }
}

/// A value Tab worked out from the file, kept for that file until the next
/// command runs (which may change it). A read that failed (the app holding
/// the file) is not kept: the next Tab tries again.
private struct KeptUntilNextCommand<Value> {
    private var kept: (path: String, linesRun: Int, value: Value)?

    mutating func value(in session: REPLSession, read: () -> Value?) -> Value? {
        if let kept, kept.path == session.cachePath, kept.linesRun == session.linesRun { return kept.value }
        guard let value = read() else { return nil }
        kept = (session.cachePath, session.linesRun, value)
        return value
    }
}
