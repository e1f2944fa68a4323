import ArgumentParser
import CacheStore
import Foundation

/// The values shells complete by calling gqlcache back (`completion:
/// .custom(…)` on an argument): cache keys from the cache file named on the
/// command line, and operation and fragment names from the `--document`,
/// `--text` and `--apollo-config` named there. The file is opened read-only,
/// nothing is created, and any problem gives no candidates, silently.
/// A new command's key argument or option completes keys with:
///
/// ```swift
/// @Argument(help: "…", completion: .custom(ShellCompletion.keys))
/// var keys: [String] = []
/// ```
///
/// (the cache file is found as every command's first positional argument).
enum ShellCompletion {
    static let keyLimit = 200
    /// How long a completion waits while the app holds an exclusive lock:
    /// Tab must answer at once, with nothing when the file is busy.
    static let busyTimeout = 0.2

    /// Cache keys starting with the word being completed. A word that
    /// starts with '-' is an option unless a `--` came before it: a key
    /// `-x` offered there would be refused as an unknown option.
    @Sendable static func keys(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let prefix = valueTyped(typedPrefix(words, index, prefix))
        if unquoted(prefix).hasPrefix("-") && !words.prefix(min(index, words.count)).contains("--") { return [] }
        let line = CompletionWords(words, completing: index)
        guard let path = line.cacheFile, let store = try? CacheStore.open(at: path, access: .readOnly, busyTimeout: busyTimeout) else { return [] }
        return forShell(CompletionSources.keys(in: store, startingWith: unquoted(prefix), limit: keyLimit, offered: offeredToShells))
    }

    /// The value typed in `--key=Dro` (`Dro`): the shells hand over the
    /// whole word, and complete only what follows the `=`. Any other word
    /// is the value itself.
    static func valueTyped(_ word: String) -> String {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "="),
            word[word.index(word.startIndex, offsetBy: 2)..<equals].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
        else { return word }
        return String(word[word.index(after: equals)...])
    }

    /// The `__typename`s the cache file holds that start with the word
    /// being completed, for `--type`.
    @Sendable static func typenames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let line = CompletionWords(words, completing: index)
        guard let path = line.cacheFile, let store = try? CacheStore.open(at: path, access: .readOnly, busyTimeout: busyTimeout) else { return [] }
        let prefix = unquoted(valueTyped(typedPrefix(words, index, prefix)))
        return forShell(CompletionSources.typenames(in: store).filter { $0.hasPrefix(prefix) })
    }

    /// The field names the cache file's records hold that start with the
    /// word being completed, for `grep --field`.
    @Sendable static func fieldNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let line = CompletionWords(words, completing: index)
        guard let path = line.cacheFile, let store = try? CacheStore.open(at: path, access: .readOnly, busyTimeout: busyTimeout) else { return [] }
        return forShell(CompletionSources.fieldNames(in: store, startingWith: unquoted(valueTyped(typedPrefix(words, index, prefix)))))
    }

    /// The part of the word being completed before the cursor. The
    /// argument parser cuts `prefix` from the line's last word, not from
    /// `words[index]`: in zsh, which hands over the whole line, a key typed
    /// before `--dry-run` would be completed as `--dry-run`. Where the word
    /// is not the last, its start up to the cursor is taken (the whole
    /// word when the parser's cut does not say where the cursor is).
    static func typedPrefix(_ words: [String], _ index: Int, _ prefix: String) -> String {
        guard index >= 0, index < words.count - 1, let last = words.last else { return prefix }
        let cursor = prefix.count < last.count ? prefix.count : Int.max
        return String(words[index].prefix(cursor))
    }

    /// Names of the operations in the documents named on the command line;
    /// none once `--fragment` is given, which an operation may not go with.
    @Sendable static func operations(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let line = CompletionWords(words, completing: index)
        guard line.values(of: "--fragment").isEmpty else { return [] }
        return forShell(line.definitionNames().operations)
    }

    /// Names of the fragments in the documents named on the command line.
    @Sendable static func fragments(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        forShell(CompletionWords(words, completing: index).definitionNames().fragments)
    }

    /// Whether a candidate can be handed to a shell (see ``forShell(_:)``):
    /// one without control characters, and not one whose bytes were no
    /// UTF-8 (read as U+FFFD, which names another key). Nor one holding a
    /// character that moves the text around it (a right-to-left override)
    /// or shows nothing (a zero-width space), or beginning or ending with a
    /// space other than ASCII's (no-break, ideographic), which the shell
    /// leaves unescaped: it would insert it raw, unseen, where every
    /// listing shows the key quoted.
    static func offeredToShells(_ candidate: String) -> Bool {
        let scalars = candidate.unicodeScalars
        guard !scalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{FFFD}" }) else { return false }
        guard candidate.utf8.contains(where: { $0 >= 0x80 }) else { return true }
        let unseenAtAnEnd = [scalars.first, scalars.last].contains { $0.map { !$0.isASCII && $0.properties.isWhitespace } ?? false }
        return !unseenAtAnEnd && !candidate.containsScalar { $0.movesText || $1 }
    }

    /// zsh's `_describe`, which the generated script hands candidates to,
    /// takes `value:description`: a colon in a key is escaped so the key is
    /// not cut there. bash and fish take the lines as they are. Every shell
    /// reads one candidate a line, so a key holding a line break, which
    /// would come out as two wrong words, is not offered; nor is one
    /// holding a tab, where fish cuts a candidate from its description, a
    /// NUL, which bash drops with a warning into the prompt and zsh and
    /// fish cut the word at, or another control character (an escape
    /// sequence bash would insert raw, redrawing the prompt in colour).
    static func forShell(_ candidates: [String]) -> [String] {
        let candidates = candidates.filter(offeredToShells)
        guard CompletionShell.requesting == .zsh else { return candidates }
        return candidates.map { $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:") }
    }

    /// A word as the shell would pass it to a command: quotes and
    /// backslash escapes removed, an unclosed quote tolerated (bash, zsh
    /// and fish 4 hand words over as typed; fish 3's `commandline -o` has
    /// removed them already, and a second pass would take the quote in
    /// `Bob's` for one). With `environment`, `$NAME` and `${NAME}` outside
    /// single quotes and not escaped are replaced by the variable's value,
    /// as the shell will; one the environment lacks (a shell variable not
    /// exported) is left as typed.
    static func unquoted(_ word: String, expanding environment: [String: String]? = nil) -> String {
        if CompletionShell.requesting == .fish, let major = CompletionShell.requestingVersion?.split(separator: ".").first.flatMap({ Int($0) }),
            major <= 3
        {
            // Unescaped already: a '$' may have been typed as '\$'. Only a
            // word that names no file as it is is expanded.
            guard let environment, word.contains("$"), !FileManager.default.fileExists(atPath: word) else { return word }
            return reading(word, quotes: false, environment)
        }
        return reading(word, quotes: true, environment)
    }

    /// `word` with its variables expanded (with `environment`) and, when
    /// `quotes`, its quotes and backslashes read as a POSIX shell reads them.
    private static func reading(_ word: String, quotes: Bool, _ environment: [String: String]?) -> String {
        let characters = Array(word)
        var text = ""
        var quote: Character?
        var escaped = false
        var position = 0
        while position < characters.count {
            let character = characters[position]
            position += 1
            if escaped {
                // In double quotes a backslash escapes only $ ` " \ and a line break.
                if quote != nil && !"$`\"\\\n".contains(character) { text.append("\\") }
                text.append(character)
                escaped = false
            } else if quote == "'" {
                if character == "'" { quote = nil } else { text.append(character) }
            } else if quotes && character == "\\" {
                escaped = true
            } else if character == "$", let environment, let (value, end) = variable(in: characters, after: position, environment) {
                text += value
                position = end
            } else if let open = quote {
                if character == open { quote = nil } else { text.append(character) }
            } else if quotes && (character == "'" || character == "\"") {
                quote = character
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// The value of the variable named right after a `$` at `start`
    /// (`NAME` or `{NAME}`), and where its name ends.
    private static func variable(in characters: [Character], after start: Int, _ environment: [String: String]) -> (String, Int)? {
        func isNameCharacter(_ character: Character) -> Bool { character.isASCII && (character.isLetter || character.isNumber || character == "_") }
        var end = start
        let braced = end < characters.count && characters[end] == "{"
        if braced { end += 1 }
        let nameStart = end
        while end < characters.count && isNameCharacter(characters[end]) { end += 1 }
        let name = String(characters[nameStart..<end])
        guard !name.isEmpty, !name.first!.isNumber, let value = environment[name] else { return nil }
        if braced {
            guard end < characters.count && characters[end] == "}" else { return nil }
            end += 1
        }
        return (value, end)
    }
}

/// The words of the command line being completed, sorted into the
/// subcommand, its positional arguments and its options' values, with the
/// word being completed left out.
struct CompletionWords {
    private(set) var subcommand: String?
    private(set) var positionals: [String] = []
    private(set) var options: [(name: String, value: String)] = []

    /// `words[0]` is the program; `index` is the word being completed.
    init(_ words: [String], completing index: Int) {
        var position = 1
        var valueOptions: Set<String> = []
        while position < words.count {
            defer { position += 1 }
            guard position != index else { continue }
            let word = words[position]
            if subcommand == nil {
                if !word.hasPrefix("-") {
                    subcommand = word
                    valueOptions = Self.valueOptions[word] ?? []
                }
                continue
            }
            if word.hasPrefix("-") && word.count > 1 {
                if let equals = word.firstIndex(of: "=") {
                    options.append((String(word[..<equals]), String(word[word.index(after: equals)...])))
                } else if valueOptions.contains(word), position + 1 < words.count, position + 1 != index {
                    options.append((word, words[position + 1]))
                    position += 1
                }
                continue
            }
            positionals.append(word)
        }
    }

    /// The cache file: every command's first positional argument.
    var cacheFile: String? { positionals.first.map(Self.path) }

    func values(of option: String) -> [String] {
        options.filter { $0.name == option }.map { Self.path($0.value) }
    }

    func definitionNames() -> (operations: [String], fragments: [String]) {
        CompletionSources.definitionNames(
            documentFiles: values(of: "--document"),
            texts: options.filter { $0.name == "--text" }.map { ShellCompletion.unquoted($0.value) },
            apolloConfig: values(of: "--apollo-config").last, forUpdate: subcommand == "update")
    }

    /// A file name as typed: quotes removed, `~/` and exported variables
    /// (`$HOME/…`) expanded (the shells pass the words as typed).
    static func path(_ word: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        let word = ShellCompletion.unquoted(word, expanding: environment)
        if word.hasPrefix("~/"), let home = environment["HOME"] {
            return home + word.dropFirst()
        }
        return word
    }

    /// The options of each subcommand that take a value.
    static var valueOptions: [String: Set<String>] { OptionTable.commands.valueTaking }
}
