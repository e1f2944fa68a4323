import ArgumentParser
import Foundation

/// A command line the parser refused, said on one line with where to
/// read more, and the mistakes it would name otherwise or not at all.
extension GQLCacheMain {
    /// `arguments`: the command line that failed to parse, when it did.
    static func reportParseError(_ error: Error, arguments: [String], context: CommandContext) -> ExitStatus {
        let full = GQLCache.fullMessage(for: error)
        // `rm FILE -dash` is -d -a -s -h run together to the parser, which
        // answers the -h with help: a word that is not the command's
        // options is an error first.
        // (The parser's own long options, such as --generate-completion-script,
        // are not in the table and stay the parser's.)
        if GQLCache.exitCode(for: error) == .success,
            OptionTable.commands.unknownOption(in: arguments).map({ !$0.hasPrefix("--") }) == true,
            let unknown = unknownOptionMessage(arguments)
        {
            let hint = "See 'gqlcache \(arguments[0]) --help'"
            context.report(.usage, oneLine(unknown, helpHintFrom: hint, atREPL: context.isREPLCommand, typedAs: context.typedAs))
            return .usage
        }
        if GQLCache.exitCode(for: error) == .success {
            // Help, version, completion scripts: the requested text, on standard output.
            var text = full
            if context.environment[manualDumpVariable] == "1" { text = placeholdingNonASCII(statingDefaults(text)) }
            if !text.isEmpty { context.stdout.write(text + "\n") }
            return .success
        }
        var message = GQLCache.message(for: error)
        // `gqlcache show Post:3`: the key was taken for the cache file, and
        // a key is said to be missing. The file is what is missing.
        if message.hasPrefix("Missing expected argument"), arguments.count >= 2, let command = arguments.first,
            !["completions", "help"].contains(command), !arguments[1].hasPrefix("-"), !context.isREPLCommand,
            !FileManager.default.fileExists(atPath: arguments[1])
        {
            context.report(.usage, "\(command) takes the cache file first: gqlcache \(command) CACHE_FILE …; '\(arguments[1])' is no file")
            return .usage
        }
        // Named by the option table even where the parser named it too: its
        // own "Did you mean" offers `--mode` for `--for`.
        if let unknown = unknownOptionMessage(arguments) {
            message = unknown
        } else if let word = arguments.first, word.hasPrefix("--"), message.hasPrefix("Unknown option") {
            // The root's own options: `gqlcache --verison`.
            let meant = OptionTable.nearest(to: word, among: rootOptions)
            if !meant.isEmpty { message = "unknown option '\(word)'. Did you mean \(OptionTable.choices(meant))?" }
        } else if let hint = dashValueHint(message, arguments) {
            message += hint
        }
        context.report(.usage, oneLine(message, helpHintFrom: full, atREPL: context.isREPLCommand, typedAs: context.typedAs))
        return .usage
    }

    /// What the commands that take more than the file take after it.
    private static let argumentsAfterTheFile = ["keys": "pattern", "show": "key", "rm": "key", "refs": "key", "grep": "value"]

    /// An option the command does not have, named as ArgumentParser names
    /// one: it would do so only once the rest parsed, and a missing
    /// argument or a failed check would hide the mistyped option.
    /// Commands whose second argument is a file too (`diff A B`, `import CACHE INPUT`).
    private static let takeTwoFiles: Set<String> = ["diff", "import"]

    private static func unknownOptionMessage(_ arguments: [String]) -> String? {
        guard let command = arguments.first, let word = OptionTable.commands.unknownOption(in: arguments) else { return nil }
        var message = "unknown option '\(word)'"
        let meant = OptionTable.commands.suggestions(for: word, command: command)
        if !meant.isEmpty {
            message += ". Did you mean \(OptionTable.choices(meant))?"
        } else if command == "grep", word == "--mode" || word.hasPrefix("--mode=") {
            // keys and rm take --mode; grep's one other way of matching is a flag.
            message += "; grep matches text, or a regular expression with --regex (-i ignores case)"
        } else if isRegularFile(word), let at = arguments.firstIndex(of: word),
                  OptionTable.commands.positionals(in: Array(arguments[..<at])).isEmpty || Self.takeTwoFiles.contains(command) {
            // Where a file goes; after the cache file, the same word is a key or pattern (below).
            message += "; a file whose name starts with '-' is given as ./\(word), or after '--' with every option before it"
        } else if !word.hasPrefix("--"), word.count > 2, let what = argumentsAfterTheFile[command] {
            // `show cache.sqlite -dash:1`: a key that looks like an option
            // (`-x` looks like a mistyped one).
            message += "; a \(what) that starts with '-' goes after '--', with every option before it"
        }
        return message
    }

    /// `--key -dash:1`: the parser takes `-dash:1` for an option and says
    /// `--key` has no value. The value goes after an `=`, which is said.
    /// A word after it that begins with `--` is most often the next option,
    /// the value left out (`--key --document q.graphql`): no hint then.
    private static func dashValueHint(_ message: String, _ arguments: [String]) -> String? {
        guard message.hasPrefix("Missing value for '") else { return nil }
        for (option, value) in zip(arguments, arguments.dropFirst())
        where option.hasPrefix("--") && !option.contains("=") && message.hasPrefix("Missing value for '\(option) ") && value.hasPrefix("-") && !value.hasPrefix("--") && value.count > 1 {
            return "; a value that starts with '-' is given as \(option)=\(value)"
        }
        return nil
    }

    /// The options `gqlcache` itself takes, before any command.
    private static let rootOptions = ["--help", "--version"]

    /// The parser's message as one line, with where to read more: at the
    /// REPL, its `help NAME` rather than the shell's `gqlcache NAME --help`.
    static func oneLine(_ message: String, helpHintFrom full: String, atREPL: Bool = false, typedAs: String? = nil) -> String {
        var line = message.split(separator: "\n").first.map(String.init) ?? "invalid command line"
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        if let first = line.first, first.isUppercase, line.dropFirst().first?.isLowercase == true {
            line = first.lowercased() + line.dropFirst()
        }
        if let start = full.range(of: "See '"), let end = full[start.upperBound...].firstIndex(of: "'") {
            var hint = String(full[start.upperBound..<end])
            let words = hint.split(separator: " ")
            if atREPL, words.count == 3, words[0] == "gqlcache", words[2] == "--help" {
                hint = "help \(words[1])"
                if let typedAs, typedAs != words[1] {
                    line += " (\(typedAs) takes the options of \(words[1]): see '\(hint)')"
                    return line
                }
            }
            line += " (see '\(hint)')"
        }
        return line
    }
}
