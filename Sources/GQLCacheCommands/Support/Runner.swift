import Foundation
import ArgumentParser
import CacheStore

/// Parses arguments, runs the command and turns every outcome into text on
/// the context's streams and an exit status. The executable and the tests
/// both come through here.
public enum GQLCacheMain {
    /// The arguments as the process got them, bytes: one that is not UTF-8
    /// is refused (status 2). Read as a String its bad bytes would become
    /// U+FFFD, and `rm 'Human:1002\xff'` would remove `Human:1002�`.
    public static func run(rawArguments: [[UInt8]], context: CommandContext) -> ExitStatus {
        var arguments: [String] = []
        for (index, bytes) in rawArguments.enumerated() {
            guard let argument = String(validating: bytes, as: UTF8.self) else {
                context.report(.usage, "argument \(index + 1) is not UTF-8 text: \(shownWithBadBytes(bytes)); gqlcache reads keys, patterns "
                    + "and file names as UTF-8, and read so it would name something else")
                context.stderr.flush()
                return .usage
            }
            arguments.append(argument)
        }
        return run(arguments: arguments, context: context)
    }

    /// `"Human:1002\xFF"`: quoted, the UTF-8 parts escaped as JSON escapes
    /// them, each byte that is not part of any as `\xHH`.
    static func shownWithBadBytes(_ bytes: [UInt8]) -> String {
        var shown = ""
        var rest = bytes[...]
        while !rest.isEmpty {
            // The longest prefix that is whole UTF-8, else one bad byte.
            var length = rest.count
            while length > 0, String(validating: rest.prefix(length), as: UTF8.self) == nil { length -= 1 }
            if length > 0 {
                shown += String(decoding: rest.prefix(length), as: UTF8.self).quotedForLine.insideQuotes
                rest = rest.dropFirst(length)
            } else {
                let hex = String(rest.first!, radix: 16, uppercase: true)
                shown += "\\x" + (hex.count == 1 ? "0" : "") + hex
                rest = rest.dropFirst()
            }
        }
        return "\"" + shown + "\""
    }

    public static func run(arguments: [String], context: CommandContext) -> ExitStatus {
        StopSignals.shared.markCommandBoundary()
        defer { StopSignals.shared.markCommandBoundary() }
        let status = runCommand(arguments: arguments, context: context)
        let changed = context.filesChanged
        context.closeStoresOpenedForWriting()
        defer { context.stderr.flush() }
        context.stdout.flush()
        // A full disk or a closed descriptor: the output is cut short, and
        // `export > backup.jsonl` must not look as if it worked. (A reader
        // that went away, as `| head` or a pager quit early, is no failure.)
        // A change already committed stays made: the message says so, lest
        // the user run the command again.
        let failure = (context.stdout as? FileDescriptorSink)?.takeWriteError()
        // The reader went away while a write was under way, which went on:
        // now that it is done, say that it stands and end as SIGPIPE would.
        if failure == EPIPE, !changed.isEmpty { (context.stdout as? FileDescriptorSink)?.onReaderGone?() }
        if let failure, failure != EPIPE {
            let made = changed.isEmpty ? "" : "; the change to \(changed.joined(separator: " and ")) was made all the same"
            context.report(.io, "cannot write to standard output (\(String(cString: strerror(failure))))\(made)")
            return .io
        }
        return status
    }

    /// The shell `--generate-completion-script [SHELL]` asks for (before any
    /// `--`), as the parser reads it: the next argument, `=SHELL`, or the
    /// login shell when none is given. Nil for a shell it does not know,
    /// which the parser then refuses.
    static func completionScriptRequest(_ arguments: [String]) -> CompletionShell? {
        let option = "--generate-completion-script"
        let options = arguments.prefix { $0 != "--" }
        guard let index = options.firstIndex(where: { $0 == option || $0.hasPrefix(option + "=") }) else { return nil }
        let name: String?
        if options[index].hasPrefix(option + "=") {
            name = String(options[index].dropFirst(option.count + 1))
        } else if index + 1 < options.endIndex, !options[index + 1].hasPrefix("-") {
            name = options[index + 1]
        } else {
            name = nil
        }
        guard let name else { return CompletionShell.autodetected() }
        return CompletionShell(rawValue: name)
    }

    private static func runCommand(arguments: [String], context: CommandContext) -> ExitStatus {
        // The parser's own --generate-completion-script, which packagers call,
        // prints the scripts 'completions' prints: the parser's bash script
        // would expand $(…) in the cache's keys when Tab lists them.
        if let shell = completionScriptRequest(arguments) {
            let script = CompletionScripts.script(for: shell)
            context.stdout.write(script.hasSuffix("\n") ? script : script + "\n")
            return .success
        }
        // `gqlcache -- -dash.sqlite`: the REPL on a file named like an option,
        // as `gqlcache FILE` opens it.
        if arguments.count == 2, arguments[0] == "--", isRegularFile(arguments[1]) {
            return runCommand(arguments: ["repl", "--", arguments[1]], context: context)
        }
        // `gqlcache -dash.sqlite`: a file, not flags run together, one of
        // them h, which the parser would answer with help and status 0.
        if let first = arguments.first, first.hasPrefix("-"), !first.hasPrefix("--"), first.count > 2, isRegularFile(first) {
            context.report(.usage, "unknown option '\(first)'; a file whose name starts with '-' is given as ./\(first), or after '--' with every option before it (see 'gqlcache --help')")
            return .usage
        }
        // `rm --match Human --match Droid`: the parser would keep the last
        // alone, and remove only what it matches (also on a line of many keys,
        // which is parsed plainly).
        // Help asked for is given whatever else the line holds.
        let asksForHelp = arguments.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
        if !asksForHelp, arguments.dropFirst().filter({ $0.hasPrefix("-") }).count >= 2,
           let repeated = OptionTable.of(command: arguments[0])?.repeatedValue(in: arguments) {
            let message = "\(repeated.option) is given twice, as '\(repeated.first)' and '\(repeated.second)'; "
                + "it takes one value"
            context.report(.usage, oneLine(message, helpHintFrom: "See 'gqlcache \(arguments[0]) --help'", atREPL: context.isREPLCommand,
                                           typedAs: context.typedAs))
            return .usage
        }
        if let command = parsePlainly(arguments) { return run(command, arguments: arguments, context: context) }
        // `gqlcache FILE info`: the command was meant to come first.
        if arguments.count >= 2, let first = arguments.first, !GQLCache.commandNames.contains(first), isRegularFile(first),
            GQLCache.commandNames.contains(arguments[1])
        {
            context.report(.usage, "the command comes first, then the cache file: gqlcache \(arguments[1]) \(first) …")
            return .usage
        }
        // `gqlcache repl FILE keys`: a command for the REPL to run, which -c gives.
        if arguments.count >= 3, arguments[0] == "repl", isRegularFile(arguments[1]), GQLCache.commandNames.contains(arguments[2]) {
            let line = arguments.dropFirst(2).map { ShellWords.quote($0) }.joined(separator: " ")
            context.report(.usage, "the REPL runs a command given with -c: gqlcache repl \(ShellWords.quote(arguments[1])) -c \(ShellWords.quote(line)) "
                + "(or, without the REPL: gqlcache \(arguments[2]) \(ShellWords.quote(arguments[1])) …)")
            return .usage
        }
        // `gqlcache FILE`, as `sqlite3 FILE`: the REPL on that file.
        if let first = arguments.first, !first.hasPrefix("-"), !GQLCache.commandNames.contains(first), isRegularFile(first) {
            return runCommand(arguments: ["repl"] + arguments, context: context)
        }
        // `help NAME`: the parser would answer an unknown NAME with the root's help and status 0.
        let named = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        if let name = named, !name.hasPrefix("-"), !GQLCache.commandNames.contains(name) {
            // `gqlcache FILE` opens the REPL; a FILE that is not there was
            // meant as one, not as a command.
            if arguments.first == name, looksLikePath(name) {
                var isFolder: ObjCBool = false
                let what = FileManager.default.fileExists(atPath: name, isDirectory: &isFolder)
                    ? (isFolder.boolValue ? "a folder, not a cache file" : "not a regular file") : FileProbe.whyUnreachable(name) ?? "no such file"
                context.report(.io, "\(name): \(what) ('gqlcache CACHE' opens a cache in the REPL; see 'gqlcache --help')")
                return .io
            }
            var message = "unknown command '\(name)'"
            let meant = OptionTable.nearest(to: name, among: GQLCache.commandNames)
            if !meant.isEmpty { message += ". Did you mean \(OptionTable.choices(meant))?" }
            context.report(.usage, message + " (commands: \(GQLCache.commandNames.joined(separator: ", ")); see 'gqlcache --help')")
            return .usage
        }
        let command: ParsableCommand
        if let parsed = parseSubcommandAlone(arguments) {
            command = parsed
        } else {
            do {
                command = try GQLCache.parseAsRoot(arguments)
            } catch {
                return reportParseError(error, arguments: arguments, context: context)
            }
        }
        return run(command, arguments: arguments, context: context)
    }

    /// Runs a parsed command. `arguments`: its command line.
    private static func run(_ command: ParsableCommand, arguments: [String], context: CommandContext) -> ExitStatus {
        let contextCommand = command as? ContextCommand
        let standardOutput = context.stdout
        let pager = Conventions.apply(contextCommand?.conventionOptions ?? Conventions.options(of: command), context: context)
        defer {
            if let pager {
                pager.finish()
                context.stdout = standardOutput
            }
        }
        do {
            if let command = contextCommand {
                try command.run(in: context)
            } else {
                var command = command
                try command.run()
            }
            return context.status
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty { context.report(failure.status, failure.message) }
            return failure.status
        } catch let error as CacheStoreError {
            let status = ExitStatus(for: error)
            if case .busy(let path, let waited) = error, !Conventions.takesBusyTimeout(command) {
                context.report(status, CacheStoreError.busyMessage(path: path, waited: waited, suggestingBusyTimeout: false))
            } else if case .fileNotFound(let path) = error, !context.isREPLCommand, let reordered = cacheFileFirst(arguments, missing: path) {
                // `gqlcache show Human:1000 cache.sqlite`: the key was taken for the file.
                context.report(status, error.description + "; the cache file comes first: " + reordered)
            } else if case .invalidPattern = error {
                // A usage error, ending as the parser's do with the help to read.
                let name = type(of: command).configuration.commandName ?? "gqlcache"
                let help = context.isREPLCommand ? "help \(name)" : "gqlcache \(name) --help"
                context.report(status, error.description + " (see '\(help)')")
            } else {
                context.report(status, error.description)
            }
            return status
        } catch {
            // The parser's own exits (help asked for through a run of short flags) end up here.
            return reportParseError(error, arguments: arguments, context: context)
        }
    }

    /// `gqlcache NAME ARGS…` parsed by NAME's command alone. The root's parse
    /// builds and walks the argument definitions of every subcommand, by
    /// reflection, which costs as much as counting 30,000 keys; the root's
    /// only option of its own is `--version`, which a subcommand alone
    /// refuses, so a command line that the subcommand accepts means the
    /// same either way. Anything else (help, which the parser answers with
    /// a help command of its own, `--version`, completion requests,
    /// mistakes) gets nil, and the root's parse then gives the text with
    /// the full command path.
    static func parseSubcommandAlone(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first,
              let type = GQLCache.configuration.subcommands.first(where: { $0._commandName == name }),
              let command = try? type.parseAsRoot(Array(arguments.dropFirst())),
              Swift.type(of: command) == type
        else { return nil }
        return command
    }

    /// The command lines that scripts run in loops, when plain enough to
    /// be read without the parser (see ``PlainCommandLine``); nil for any
    /// other.
    static func parsePlainly(_ arguments: [String]) -> ParsableCommand? {
        switch arguments.first {
        case "keys": GQLCache.Keys.parsePlainly(arguments.dropFirst())
        case "show", "rm": ManyKeysCommandLine.parse(arguments)
        default: nil
        }
    }

    /// The command line with the cache file first, when the word taken
    /// for it (`missing`), right after the command, names no file and
    /// looks like none, and a later word names an SQLite database; nil
    /// otherwise.
    static func cacheFileFirst(_ arguments: [String], missing: String) -> String? {
        guard arguments.count >= 3, arguments[1] == missing, !looksLikePath(missing),
            let index = arguments.indices.dropFirst(2).first(where: { !arguments[$0].hasPrefix("-") && FileProbe.isSQLiteFile(atPath: arguments[$0]) })
        else { return nil }
        var words = arguments
        let cache = words.remove(at: index)
        words.insert(cache, at: 1)
        return "gqlcache " + words.map(ShellQuoting.word).joined(separator: " ")
    }

    static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// A word that names a file rather than a command: a path, or a name
    /// with a cache file's extension.
    static func looksLikePath(_ word: String) -> Bool {
        word.contains("/") || [".sqlite", ".sqlite3", ".db"].contains { word.lowercased().hasSuffix($0) }
    }
}
