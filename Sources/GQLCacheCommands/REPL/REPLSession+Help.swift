import CSignals
import Foundation

/// `help`: the commands that run at the prompt, and a command's help as
/// the prompt takes it.
extension REPLSession {
    /// A CLI command's help as the REPL takes the command: without the
    /// cache file, which is the open one, and without what the prompt
    /// has no use for (--no-pager: it never pages; --version); `show` and
    /// `refs` without a key are of the record you are at.
    static func helpAtThePrompt(_ help: String, command: String) -> String {
        var lines: [Substring] = []
        var inDroppedEntry = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if ["  <cache-file>", "  --no-pager ", "  --version "].contains(where: { line.hasPrefix($0) }) {
                inDroppedEntry = true
                continue
            }
            // The entry's wrapped lines are indented past its name.
            if inDroppedEntry && line.hasPrefix("      ") { continue }
            inDroppedEntry = false
            // `USAGE: gqlcache rm [<options>] <cache-file> [<key> ...]` when the usage is long.
            if line.hasPrefix("USAGE: gqlcache \(command) "), line.contains(" <cache-file>") {
                var usage = line.replacingOccurrences(of: " <cache-file>", with: "").replacingOccurrences(of: " [--no-pager]", with: "")
                if command == "show" { usage = usage.replacingOccurrences(of: "show <key> ...", with: "show [<key> ...]") }
                if command == "refs" { usage = usage.replacingOccurrences(of: "refs <key>", with: "refs [<key>]") }
                lines.append("USAGE: " + usage.dropFirst("USAGE: gqlcache ".count))
                continue
            }
            lines.append(line)
        }
        if ["show", "refs"].contains(command), let entry = lines.firstIndex(where: { $0.hasPrefix("  <key>") }) {
            let end = lines[(entry + 1)...].firstIndex { !$0.hasPrefix("      ") } ?? lines.endIndex
            lines.insert(String(repeating: " ", count: 26) + "Without one, the record you are at.", at: end)
        }
        return lines.joined(separator: "\n")
    }

    /// The width help is wrapped to: at a terminal its own, as the
    /// commands' help is; elsewhere none, a line for each entry.
    private var helpColumns: Int { context.stdoutIsTerminal ? Int(gqlcache_terminal_columns(1)) : 0 }

    func help(_ arguments: [String]) -> ExitStatus {
        if let typed = arguments.first {
            // The REPL's other names for its own commands.
            let name = ["exit": "quit", "..": "back", "?": "help"][typed] ?? typed
            if let own = Self.ownCommands.first(where: { $0.name == name }) {
                context.print(own.help.wrapped(width: helpColumns, start: 0, indent: 2))
                return .success
            }
            // Only what works at the prompt: the shell's list and 'gqlcache --help' would name repl and completions.
            if let problem = Self.notRunnable(name) {
                context.report(.usage, problem)
                return .usage
            }
            let captured = StringSink()
            let helpContext = CommandContext(
                stdout: captured, stderr: context.stderr, stdin: context.stdin, stdinIsTerminal: false, stdoutIsTerminal: false,
                environment: context.environment)
            let status = GQLCacheMain.run(arguments: ["help", name], context: helpContext)
            context.stdout.write(Self.helpAtThePrompt(captured.text, command: name))
            return status
        }

        // repl and completions are for the shell: the REPL refuses them.
        let commands = GQLCache.configuration.subcommands.filter { !["repl", "completions"].contains($0._commandName) }
        let width = commands.map { $0._commandName.count }.max() ?? 0
        let columns = helpColumns
        context.print("Commands of the CLI, without the cache file (e.g. 'keys Droid:%', 'show QUERY_ROOT', 'rm Human:1000'):"
            .wrapped(width: columns, start: 0, indent: 0))
        for command in commands {
            let abstract = command.configuration.abstract.wrapped(width: columns, start: width + 4, indent: width + 4)
            context.print("  \(command._commandName.padding(toLength: width, withPad: " ", startingAt: 0))  \(abstract)")
        }
        context.print("REPL commands:")
        for own in Self.ownCommands { context.print("  " + own.help.wrapped(width: columns, start: 2, indent: 4)) }
        context.print("GraphQL typed at the prompt ('{ hero { name } }', 'query … { … }', over several lines; alone or after read) runs with read."
            .wrapped(width: columns, start: 0, indent: 0))
        context.print(("';' separates commands on a line, '#' begins a comment and a '\\' that ends a line continues the command on the next, "
            + "as in a shell, which the prompt does not run "
            + "(no pipes or redirections). Tab completes commands, options, keys and fields; Ctrl-R searches the history, "
            + "kept in ~/.gqlcache_history or the file GQLCACHE_HISTORY names.")
            .wrapped(width: columns, start: 0, indent: 0))
        return .success
    }
}
