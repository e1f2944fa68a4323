import Foundation
@testable import GQLCacheCommands
import XCTest

/// completions/ and man/ are generated from the command tree and committed;
/// these tests fail when a change to the tree leaves them stale. Fix with
/// Scripts/update-generated.sh.
final class GeneratedFilesTests: XCTestCase {
    func testCommittedCompletionScriptsMatchTheCommandTree() throws {
        for (shell, file) in [("bash", "gqlcache.bash"), ("zsh", "_gqlcache"), ("fish", "gqlcache.fish")] {
            let generated = gqlcache("completions", shell)
            XCTAssertEqual(generated.status, .success)
            let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("completions/\(file)"), encoding: .utf8)
            XCTAssertEqual(committed, generated.stdout, "completions/\(file) is stale: run Scripts/update-generated.sh")
        }
    }

    func testCommittedManPageNamesEverySubcommandAndOption() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("man/gqlcache.1"), encoding: .utf8)
        let itemLines = page.split(separator: "\n").filter { $0.hasPrefix(".It ") }
        let dump = gqlcache("--experimental-dump-help")
        XCTAssertEqual(dump.status, .success)
        let tool = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let command = try XCTUnwrap(tool["command"] as? [String: Any])
        let subcommands = command["subcommands"] as? [[String: Any]] ?? []
        XCTAssertGreaterThan(subcommands.count, 10, "the help dump lists the subcommands")
        for subcommand in subcommands {
            let name = try XCTUnwrap(subcommand["commandName"] as? String)
            guard name != "help" else { continue }
            XCTAssertTrue(page.contains(".It Em \(name)"), "man/gqlcache.1 lacks \(name): run Scripts/update-generated.sh")
            for argument in subcommand["arguments"] as? [[String: Any]] ?? [] {
                guard let names = argument["names"] as? [[String: Any]],
                    let long = names.first(where: { $0["kind"] as? String == "long" })?["name"] as? String
                else { continue }
                XCTAssertTrue(itemLines.contains { $0.contains("Fl -\(long)") || $0.contains(", -\(long)") }, "man/gqlcache.1 lacks --\(long) of \(name): run Scripts/update-generated.sh")
            }
        }
    }

    func testCompletionsCommandPrintsTheParsersScriptWithTheKeyAdditions() throws {
        let bash = gqlcache("completions", "bash")
        XCTAssertEqual(bash.status, .success)
        XCTAssertTrue(bash.stdout.contains("complete -o filenames -F _gqlcache_whole_words gqlcache"))
        XCTAssertFalse(bash.stdout.contains("complete -o filenames -F _gqlcache gqlcache"), "the generated function is registered only through the wrapper")
        // Everything else is the parser's own script, but for the candidates
        // gqlcache prints, which compgen -W would expand: offered as they are.
        let parsers = GQLCache.completionScript(for: .bash)
        let expanding = #"__gqlcache_add_completions -W "$(__gqlcache_custom_complete "#
        XCTAssertTrue(parsers.contains(expanding))
        XCTAssertFalse(bash.stdout.contains(expanding))
        let parsersBody = String(parsers.prefix(upTo: parsers.range(of: "complete -o filenames")!.lowerBound))
            .replacingOccurrences(of: expanding, with: #"__gqlcache_add_literal_completions "$(__gqlcache_custom_complete "#)
            .replacingOccurrences(of: CompletionScripts.bashSavingAll, with: CompletionScripts.bashSavingOwn)
        XCTAssertTrue(parsers.contains(CompletionScripts.bashSavingAll), "the parser still saves every option")
        XCTAssertTrue(bash.stdout.hasPrefix(CompletionScripts.backupCopies(bash: CompletionScripts.helpOfCommand(bash: parsersBody))))
        XCTAssertEqual(
            gqlcache("completions", "zsh").stdout,
            CompletionScripts.backupCopies(zsh: CompletionScripts.zsh(
                CompletionScripts.cacheFirst(
                    zsh: CompletionScripts.valuesAfterEquals(zsh: CompletionScripts.helpOfCommand(zsh: GQLCache.completionScript(for: .zsh)))))) + "\n")
        // A cache file's backups are offered where a cache file goes.
        XCTAssertTrue(bash.stdout.contains("-fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'"))
        XCTAssertFalse(bash.stdout.contains("-fX '!*.@(sqlite|sqlite3|db)'"))
        XCTAssertTrue(gqlcache("completions", "zsh").stdout.contains("_files -g '\\''*.sqlite *.sqlite3 *.db *.backup-<->-<->(|-<->)'\\''"))
        XCTAssertTrue(gqlcache("completions", "zsh").stdout.contains("__gqlcache_complete() {\n    setopt localoptions banghist"))
        XCTAssertTrue(gqlcache("completions", "zsh").stdout.contains("'--format=[Output format"))
        XCTAssertTrue(gqlcache("completions", "zsh").stdout.contains("'(-o --output)'{-o,--output=}'["))
        XCTAssertFalse(gqlcache("completions", "zsh").stdout.contains("'--count=["), "a flag takes no value")
        // The parser's own option, which packagers call, prints the same scripts.
        for shell in ["bash", "zsh", "fish"] {
            XCTAssertEqual(gqlcache("--generate-completion-script", shell).stdout, gqlcache("completions", shell).stdout, shell)
            XCTAssertEqual(gqlcache("--generate-completion-script=\(shell)").stdout, gqlcache("completions", shell).stdout, shell)
        }
        XCTAssertEqual(gqlcache("--generate-completion-script", "tcsh").status, .usage)
        XCTAssertTrue(gqlcache("completions", "fish").stdout.contains("function __gqlcache_cursor_index_in_token"))
        // The parse that each fish condition ran is found, and run once per line.
        let fish = GQLCache.completionScript(for: .fish)
        XCTAssertNotEqual(CompletionScripts.parsedOnce(fish: fish), fish)
        XCTAssertTrue(gqlcache("completions", "fish").stdout.contains("function __gqlcache_parse_line -S\n"))
        XCTAssertFalse(gqlcache("completions", "fish").stdout.contains("set non_repeating_flags_or_options_absent 1\n                break"))
        let wrong = gqlcache("completions", "tcsh")
        XCTAssertEqual(wrong.status, .usage)
        XCTAssertTrue(wrong.stderr.contains("tcsh"), wrong.stderr)
    }

    func testManPageDocumentsEveryExitStatusAndHasExamplesAndEnvironment() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("man/gqlcache.1"), encoding: .utf8)
        let sections = page.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map(String.init)
        XCTAssertEqual(
            sections, [".Sh NAME", ".Sh SYNOPSIS", ".Sh DESCRIPTION", ".Sh ENVIRONMENT", ".Sh EXIT STATUS", ".Sh EXAMPLES", ".Sh SEE ALSO"])
        let exitStatus = page[page.range(of: ".Sh EXIT STATUS")!.upperBound..<page.range(of: ".Sh EXAMPLES")!.lowerBound]
        let documented = exitStatus.split(separator: "\n").filter { $0.hasPrefix(".It ") }.map { $0.dropFirst(4) }.map(String.init)
        // And 141, which the shell shows for the process SIGPIPE ends: no status the program returns.
        XCTAssertEqual(documented, ExitStatus.allCases.map { String($0.rawValue) } + ["141"])
        for variable in ["NO_COLOR", "PAGER", "GQLCACHE_HISTORY"] {
            XCTAssertTrue(page.contains(".It Ev \(variable)"), "ENVIRONMENT lacks \(variable)")
        }
    }

    func testManPageStatesOptionDefaultsAsHelpDoes() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("man/gqlcache.1"), encoding: .utf8)
        XCTAssertTrue(page.contains("holds the database lock. (default: 5.0)\n"), "run Scripts/update-generated.sh")
        XCTAssertTrue(page.contains("How many of the largest records to list. (default: 5)\n"))
        // A text that names its default already is left as it is.
        let dump = #"{"command":{"arguments":[{"kind":"option","defaultValue":"auto","abstract":"auto (default), jsonl"},"#
            + #"{"kind":"option","defaultValue":"3","abstract":"How many."},{"kind":"flag","defaultValue":"false","abstract":"On."}]}}"#
        let stated = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(GQLCacheMain.statingDefaults(dump).utf8)) as? [String: Any])
        let arguments = try XCTUnwrap((stated["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        XCTAssertEqual(arguments.map { $0["abstract"] as? String }, ["auto (default), jsonl", "How many. (default: 3)", "On."])
    }

    func testManPageKeepsTheHelpsCharactersThatAreNotASCII() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("man/gqlcache.1"), encoding: .utf8)
        // The show command's help: "References are drawn as '→ KEY'".
        XCTAssertTrue(page.contains("References are drawn as '\\[u2192] KEY'"), "run Scripts/update-generated.sh")
        XCTAssertFalse(page.contains("References are drawn as ' KEY'"))
        XCTAssertFalse(page.contains("GQLCACHEU"), "a placeholder was left")
        XCTAssertEqual(GQLCacheMain.placeholdingNonASCII("a → b … é 😀"), "a GQLCACHEU2192X b GQLCACHEU2026X GQLCACHEU00E9X GQLCACHEU1F600X")
    }

    /// An item with nothing under it renders as a bare name: each
    /// argument and option says what it is.
    func testEveryArgumentAndOptionInTheManPageHasADescription() throws {
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("man/gqlcache.1"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertGreaterThan(lines.filter { $0.hasPrefix(".It Fl ") }.count, 50, "the page lists the options as .It Fl items")
        for (index, line) in lines.enumerated() where line.hasPrefix(".It Ar ") || line.hasPrefix(".It Fl ") {
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            XCTAssertFalse(next.hasPrefix(".It ") || next.hasPrefix(".El"), "man/gqlcache.1: '\(line)' has no description")
        }
    }

    func testManPageRendersWithMan() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else { throw XCTSkip("man is not installed") }
        let man = try runProgram(
            "/usr/bin/man", ["-l", repositoryRoot.appendingPathComponent("man/gqlcache.1").path],
            environment: ["MANPAGER": "cat", "MANWIDTH": "100", "PATH": "/usr/bin:/bin"])
        let text = man.stdout
        XCTAssertEqual(man.status, 0)
        for heading in ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            XCTAssertTrue(text.contains("\n\(heading)\n"), "man -l shows no \(heading) section")
        }
        XCTAssertTrue(text.contains("gqlcache rm cache.sqlite --match 'Post:' --dry-run"), text)
        // Both forms: a command on the file, and the REPL on it.
        let synopsis = text[text.range(of: "\nSYNOPSIS\n")!.upperBound..<text.range(of: "\nDESCRIPTION\n")!.lowerBound]
        XCTAssertEqual(
            synopsis.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) },
            ["gqlcache subcommand cache-file [argument ...] [option ...] [--version] [--help]", "gqlcache cache-file"])
        // The footer names the program and its version, where an empty .Os
        // gives "BSD". (groff 1.22 still titles every mdoc page "BSD General
        // Commands Manual"; that is the formatter's, not the page's.)
        let lines = text.split(separator: "\n")
        XCTAssertTrue(lines.last?.hasPrefix("gqlcache \(GQLCacheVersion.current)") ?? false, "run Scripts/update-generated.sh")
    }
}
