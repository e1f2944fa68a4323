import CacheStore
import Foundation

/// One command typed at the prompt: the REPL's own commands, refusals of
/// what does not run there, and the CLI's commands handed on.
extension REPLSession {
    /// A shell's pipe and redirections, which the prompt does not run.
    static let shellOperators: Set = ["|", ">", ">>", "<", "2>", "&>", "2>&1"]

    /// Runs one line; nil means leave.
    func execute(_ line: String) -> ExitStatus? {
        linesRun += 1
        var line = line
        // psql-style backslash commands, before shell quoting would eat the
        // backslash: `\h rm` is `help rm`, and `\q now` is told what quit takes.
        let backslashNames = ["\\e": "edit", "\\q": "quit", "\\h": "help", "\\?": "help"]
        let first = line.drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " && $0 != "\t" }
        if first.hasPrefix("\\") {
            guard let name = backslashNames[String(first)] else {
                context.report(.usage, "unknown command '\(String(first).shortenedForMessage)' (the backslash commands are \\e, \\q, \\h and \\?; type 'help' for the others)")
                return .usage
            }
            line = name + line[first.endIndex...]
        }
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        // `help \e`: the command a backslash name stands for.
        let helpWords = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        if helpWords.count == 2, ["help", "?"].contains(helpWords[0]), let name = backslashNames[String(helpWords[1])] {
            return help([name])
        }
        let marked: [(word: String, bare: Bool)]
        do {
            marked = try ShellWords.splitMarkingBare(line)
        } catch {
            context.report(.usage, "\(error)")
            return .usage
        }
        let words = marked.map(\.word)
        guard let command = words.first else { return lastStatus }
        // `grep --regex "\bSolo\b"`: in double quotes `\b` is JSON's
        // backspace, as keys are shown, not a regular expression's word
        // boundary, which then matches nothing. Said, as it is rarely meant.
        for (control, letter, name) in [("\u{8}", "b", "backspace"), ("\u{c}", "f", "form feed")] {
            guard let word = words.first(where: { $0.contains(control) }) else { continue }
            let typed = word.replacingOccurrences(of: control, with: "\\" + letter)
            context.warn("\"\\\(letter)\" in double quotes is a \(name) (a JSON escape), not a regular expression's \\\(letter); "
                + "for that, quote it in single quotes: \(ShellWords.quote(typed, with: "'"))")
            break
        }
        // `keys | head -2`: a pipe or redirection, typed as a shell takes
        // it, not quoted as a key; said, rather than taken for an option or key.
        if let at = marked.indices.dropFirst().first(where: { marked[$0].bare && Self.shellOperators.contains(marked[$0].word) }) {
            let shell = marked[at].word
            var message = "the prompt runs no shell, so '\(shell)' \(shell == "|" ? "pipes" : "redirects") nothing"
            // The same from a shell, for a command of the CLI whose words say
            // all it works on: not show, refs, read, update or write, which at
            // the prompt take the record you are at or a query typed before.
            if GQLCache.configuration.subcommands.contains(where: { $0._commandName == command }),
                !["repl", "completions", "show", "refs", "read", "update", "write"].contains(command)
            {
                // The words as the prompt read them, written again as a shell reads them
                // (`hero(episode:NEWHOPE)` quoted): those after the operator as
                // typed when bare (`wc -l`), being the shell's own.
                var before = Array(words[1..<at])
                // `import < FILE`: a shell's import reads standard input when its input is `-`,
                // put before the redirection.
                if command == "import", shell == "<", !before.contains("-"), REPLCompleter.positionals([command] + before).isEmpty {
                    before.append("-")
                }
                let rest = before.map { " " + ShellQuoting.word($0) }.joined()
                    + marked[at...].map { " " + ($0.bare ? $0.word : ShellQuoting.word($0.word)) }.joined()
                message += "; from a shell: gqlcache \(command) \(ShellQuoting.file(cachePath))\(rest)"
            }
            context.report(.usage, message)
            return .usage
        }
        let arguments = Array(words.dropFirst())
        // 'keys --help' is 'help keys': the prompt's own form, not the shell's
        // usage with a cache file ('ls --help' is ls's, not show's).
        if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }), command != "help", command != "?" {
            return help([command])
        }
        if let extra = arguments.first, ["quit", "exit", "..", "back", "pwd", "status", "edit"].contains(command) {
            // Said, not dropped: 'exit 3' would otherwise end with another status than the one typed.
            let ending = ["quit", "exit"].contains(command) ? " (the REPL ends with the last command's status)" : ""
            context.report(.usage, "\(command) takes no arguments, not '\(extra)'\(ending)")
            return .usage
        }
        // Another program (the app, a second shell) may have removed the
        // record you are at since the last line: the move is said before
        // the command runs where it now is. Looked at briefly, as Tab
        // looks: a file the app holds locked does not hold up the line.
        if !["quit", "exit", "help", "?", "status", "open"].contains(command) {
            let moved = (try? dropRemovedRecordsFromTrail(from: completionStore())) ?? false
            // The move up was the one asked for.
            if moved && ["..", "back"].contains(command) { return .success }
        }
        switch command {
        case "quit", "exit":
            return nil
        case "help", "?":
            return help(arguments)
        case "cd":
            // `cd ~`, as a shell's home: the root, as `cd` alone (not a key
            // named as the home folder, which the words made of it).
            if marked.count == 2, marked[1].bare, let home = ProcessInfo.processInfo.environment["HOME"], [home, home + "/"].contains(marked[1].word),
               let typed = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first, ["~", "~/"].contains(typed) {
                return changeRecord([])
            }
            return changeRecord(arguments)
        case "..", "back":
            return goBack()
        case "pwd":
            context.print(trail.map(\.display).joined(separator: " → "))
            return .success
        case "ls":
            // As show: with no key named (ls --depth 2), the record you are at;
            // `ls FIELD` and `ls ..` name a record as cd names it.
            // Options may come before or after it (ls friends.0 --depth 1).
            if let place = Self.onlyPositional(in: arguments, of: "show"), let listed = listedRecord(arguments[place]) {
                switch listed {
                case .success(let key):
                    var options = arguments
                    options.remove(at: place)
                    return runCommand(["show"] + options + ["--", key.rawValue], typedAs: "ls")
                case .failure(let failure):
                    // A field that is no reference (a list, null), said as cd says it.
                    context.report(failure.status, failure.message)
                    return failure.status
                }
            }
            return runCommand(["show"] + (Self.namesNoKey(arguments) ? Self.naming(current, after: arguments) : arguments), typedAs: "ls")
        case "open":
            return open(arguments)
        case "edit":
            return editLastQuery()
        case "status":
            context.print(String(lastStatus.rawValue))
            return .success
        default:
            if let problem = Self.notRunnable(command) {
                context.report(.usage, problem)
                return .usage
            }
            // Every input given as '-' (import's, --response, --data, --variables-file); not export's -o -.
            if scriptIsStandardInput, arguments.indices.contains(where: { arguments[$0] == "-" && ($0 == 0 || !["-o", "--output"].contains(arguments[$0 - 1])) }) {
                context.report(
                    .usage,
                    "'-' would read the rest of this script, which comes from standard input; name a file instead, or give the commands with -c")
                return .usage
            }
            if scriptIsStandardInput, command == "update", arguments.contains("--edit") {
                context.report(.usage, Self.editorInScriptProblem)
                return .usage
            }
            if let problem = fileGivenOutOfHabit(command, arguments) {
                context.report(.usage, problem)
                return .usage
            }
            var arguments = arguments
            // `show` and `refs` with no key are about where you are.
            if command == "show" && Self.namesNoKey(arguments) || command == "refs" && Self.refsNamesNoKey(arguments) {
                arguments = Self.naming(current, after: arguments)
            }
            let status = runCommand([command] + arguments)
            // Missed, or (refs, which takes one key) more words than it takes.
            if status == .notFound || (status == .usage && command == "refs"), let hint = keyTypedWhole(in: line, command: command, words: words) {
                context.report(.notFound, hint)
            }
            return status
        }
    }

    /// `show Space Key:1` or `show QUERY_ROOT.hero(episode:"JEDI")`, which
    /// missed as the prompt reads words (two keys; the quotes gone), where
    /// the text after the command, whole and as typed, is a key of the file:
    /// how to type it, quoted as the prompt reads it.
    func keyTypedWhole(in line: String, command: String, words: [String]) -> String? {
        guard ["show", "refs", "rm"].contains(command) else { return nil }
        let whole = line.drop { $0.isWhitespace }.drop { !$0.isWhitespace }.trimmingCharacters(in: .whitespaces)
        // All of it (a key may hold ` #`), else up to a comment or the first
        // option after the key (`show Space Key:1 --depth 2 # note`).
        var candidates = [whole]
        if let end = whole.range(of: #"\s+(#|-)"#, options: .regularExpression) { candidates.append(String(whole[..<end.lowerBound])) }
        guard let typed = candidates.first(where: { typed in
            !typed.isEmpty && Array(words.dropFirst()) != [typed] && (try? completionStore().read { tx in try tx.contains(CacheKey(typed)) }) == true
        }) else { return nil }
        return "'\(typed)', typed after \(command), is a key of the file: quote it so, \(command) \(ShellWords.quote(typed))"
    }

    /// The file named first, as on the command line, when it is the open
    /// one: each command at the prompt works on it already, and would take
    /// its name for a key or a pattern. (`diff` and `import` name another
    /// file there: for them, only when a second file follows, as in
    /// `diff CACHE OTHER`.)
    func fileGivenOutOfHabit(_ command: String, _ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        if ["diff", "import"].contains(command) {
            guard (OptionTable.of(command: command)?.positionals(in: [command] + arguments).count ?? 0) >= 2 else { return nil }
        }
        func resolved(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        guard first == cachePath || FileManager.default.fileExists(atPath: first) && resolved(first) == resolved(cachePath) else { return nil }
        let meant = ([command] + arguments.dropFirst()).map { ShellWords.quote($0) }.joined(separator: " ")
        return "commands at this prompt work on \(cachePath), the file the REPL opened: leave its name out (\(meant))"
    }

    /// Why a CLI command does not run at the prompt, for those that do not.
    static func refusal(of command: String) -> String? {
        switch command {
        case "repl": return "already in the REPL; use 'open FILE' to switch files"
        case "completions": return "completions prints a shell's completion script: run 'gqlcache completions SHELL' from the shell"
        default: return nil
        }
    }

    /// Why a name that is not one of the REPL's own commands cannot run at
    /// the prompt (a refused or unknown command), or nil for a CLI command
    /// that can.
    static func notRunnable(_ name: String) -> String? {
        if let refusal = refusal(of: name) { return refusal }
        guard GQLCache.configuration.subcommands.contains(where: { $0._commandName == name }) else { return unknownCommand(name) }
        return nil
    }

    /// A name that is no command at the prompt, with the nearest that are.
    static func unknownCommand(_ name: String) -> String {
        // GraphQL after a ';' (`cd /; { hero { name } }`): it runs where a line begins.
        if GraphQLInput.begins(name) {
            return "GraphQL runs when it begins a line, not after a ';': type it on a line of its own, or give it with 'read --text'"
        }
        // KEYS, INFO and QUIT, as redis-cli takes them: commands are lower case.
        let lower = name.lowercased()
        let meant = REPLCompleter.commandNames.contains(lower) ? [lower] : OptionTable.nearest(to: name, among: REPLCompleter.commandNames)
        let suggestion = meant.isEmpty ? "" : ". Did you mean \(OptionTable.choices(meant))?"
        return "unknown command '\(name.shortenedForMessage)'\(suggestion) (type 'help' for the commands)"
    }

    /// Whether `show` arguments name no key (only options), parsed by the
    /// command itself so option values are not taken for keys.
    /// Where the one word of `arguments` that is not an option or an
    /// option's value stands, for `command`'s options; nil when there is
    /// none, more than one, or a `--` (after which words are keys as typed).
    static func onlyPositional(in arguments: [String], of command: String) -> Int? {
        let places = REPLCompleter.positionalPlaces([command] + arguments)
        guard places.count == 1, !arguments.contains("--") else { return nil }
        return places[0] - 1
    }

    /// Arguments the command refuses either way (`--depth 1001`) are
    /// judged by their words alone, so that the refusal is the option's,
    /// not a missing key's.
    /// `arguments` with `key` put before them; one that begins with `-`
    /// (`-h`, `--format=json`) after them, past a `--`, to be read as a
    /// key, not an option.
    static func naming(_ key: CacheKey, after arguments: [String]) -> [String] {
        guard key.rawValue.hasPrefix("-") else { return [key.rawValue] + arguments }
        return arguments + (arguments.contains("--") ? [] : ["--"]) + [key.rawValue]
    }

    static func namesNoKey(_ arguments: [String]) -> Bool {
        guard let parsed = try? GQLCache.Show.parseAsRoot(["FILE", "KEY"] + arguments) as? GQLCache.Show else {
            return REPLCompleter.positionalPlaces(["show"] + arguments).isEmpty
        }
        return parsed.keys == ["KEY"]
    }

    /// Whether `refs` arguments name no key: they parse with one put first,
    /// and not without (or, refused either way, hold no word but options).
    static func refsNamesNoKey(_ arguments: [String]) -> Bool {
        if (try? GQLCache.Refs.parseAsRoot(["FILE"] + arguments)) != nil { return false }
        if (try? GQLCache.Refs.parseAsRoot(["FILE", "KEY"] + arguments)) != nil { return true }
        return REPLCompleter.positionalPlaces(["refs"] + arguments).isEmpty
    }
}
