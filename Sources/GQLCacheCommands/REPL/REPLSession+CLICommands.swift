import CacheQuery
import CacheStore
import CSignals

/// The CLI's commands run on the open file, with the words the prompt
/// leaves out added: the file, the session's wait, the GraphQL typed or
/// named earlier.
extension REPLSession {
    /// A CLI command on the open file: `keys Hero:%` runs `keys FILE Hero:%`.
    /// `typedQuery`: GraphQL typed at the prompt (or saved from `edit`).
    func runCommand(_ words: [String], typedQuery: Bool = false, typedAs: String? = nil) -> ExitStatus {
        guard let command = words.first else { return .success }
        let typed = words
        var namesDocumentFiles = false
        if !typedQuery && ["read", "update", "write"].contains(command) && namesADocument(words) {
            // `read --text '{ … }'` is a query typed at the prompt too: `read`
            // alone runs it again, and `edit` opens it.
            if command == "read", let text = Self.onlyText(of: words) {
                noteTyped(text)
            } else {
                namesDocumentFiles = true
            }
        }
        let given = words
        var words = withDocumentsNamedEarlier(words)
        // A fragment typed at the prompt, with only those it spreads, is the one read.
        if let text = Self.onlyText(of: words), typedQuery || typedDocuments.contains(text),
           let document = typedDocument(text) {
            if typedQuery, words.count == 3, document.operations.isEmpty, document.fragmentsSpreadByNoOther.count == 1,
               let fragment = document.fragmentsSpreadByNoOther.first {
                // At a root, a fragment on another type is being defined, to be
                // spread or read later: reading it there would only miss.
                if current.isRoot, let type = document.fragments[fragment]?.typeCondition, !CacheSchema.isRootType(type, in: nil) {
                    context.note("fragment \(fragment) on \(type) is defined; cd to a \(type) record to read it, or give 'read --fragment \(fragment) --key KEY'")
                    return .success
                }
                words += ["--fragment", fragment]
            }
            // The fragments it spreads that earlier documents define.
            let earlier = fragmentsDefinedEarlier(spreadBy: document, typed: text)
            // An operation typed alone that needs variables is defined, to be
            // read with them (`read --var id=1`): no failure, so a script
            // under --bail goes on to that read. (Spreads no document defines
            // are said as the read says them.)
            let whole = earlier.isEmpty ? document : (try? QueryDocument.parse([("typed", text), ("earlier", earlier[1])])) ?? document
            if typedQuery, words.count == 3, document.operations.count == 1, whole.undefinedSpreads.isEmpty,
               let operation = document.operations.first, (try? whole.checkVariablesAreDefined(in: operation)) != nil,
               case let required = operation.variables.filter(\.isRequired), !required.isEmpty {
                let what = operation.kind.rawValue + (operation.name.map { " " + $0 } ?? "")
                context.note("\(what) is defined; it needs \(required.map { "$" + $0.name }.joined(separator: ", ")): "
                    + "read it with 'read \(required.map { "--var \($0.name)=VALUE" }.joined(separator: " "))'")
                return .success
            }
            words += earlier
        }
        // A fragment is read from, or written to, the record you are at unless --key names another.
        if ["read", "update", "write"].contains(command), Self.value(of: "--fragment", in: words) != nil,
           Self.value(of: "--key", in: words) == nil, !words.contains(where: { ["-h", "--help"].contains($0) }) {
            // Joined with `=`: a key may begin with `-`.
            words += ["--key=" + current.rawValue]
        }
        // GraphQL typed earlier, read again: messages place it as typed (`input:1:9`).
        let readsTyped = typedQuery || (!namesADocument(given) && namesADocument(words) && words.contains("--text"))
        let commandContext = CommandContext(
            stdout: context.stdout, stderr: context.stderr, stdin: answers ?? context.stdin,
            stdinIsTerminal: context.stdinIsTerminal, stdoutIsTerminal: context.stdoutIsTerminal, environment: context.environment)
        commandContext.openStores = stores
        commandContext.confirmsEveryRemoval = interactive
        commandContext.isREPLCommand = true
        commandContext.typedAs = typedAs
        commandContext.readsQueryTypedAtPrompt = readsTyped
        commandContext.scriptLine = context.scriptLine
        // GraphQL typed on an earlier line of the script is placed there.
        if readsTyped, let at = words.firstIndex(of: "--text"), at + 1 < words.count { commandContext.typedScriptLine = typedOnLine[words[at + 1]] }
        if let typedAheadReader { commandContext.keepTypedAhead = { typedAheadReader.keep(typedAhead: $0) } }
        // A script's commands write as the command line's do; at the
        // prompt Ctrl-C is the REPL's, and the other stop signals are
        // caught once the session leaves SIGINT alone (see Repl).
        commandContext.catchesStopSignals = context.catchesStopSignals && (!interactive || StopSignals.shared.leavesInterruptAlone)
        // The REPL's own --color and --quiet hold for its commands; its
        // commands never page.
        commandContext.colorChoice = context.colorChoice
        commandContext.isQuiet = context.isQuiet
        commandContext.stderrIsTerminal = context.stderrIsTerminal
        commandContext.progressDelay = context.progressDelay
        commandContext.clock = context.clock
        // `diff BACKUP FILE` names both files, as on the command line (the
        // backup first shows what a command changed); `diff OTHER` compares
        // the open file with it.
        let namesBoth = command == "diff" && REPLCompleter.positionals(words).count == 2
        let arguments = words.count > 1 && words[1].hasPrefix("-") && ["--help", "-h"].contains(words[1])
            ? words : [command] + (namesBoth ? [] : [Self.fileArgument(cachePath)]) + sessionWait(for: words) + words.dropFirst()
        var status = GQLCacheMain.run(arguments: arguments, context: commandContext)
        // A question given up with Ctrl-C changed nothing, as "no", and stopped the command, as Ctrl-C does.
        if let answers = answers as? InterruptibleLineSource, answers.takeInterruption(), status == .notFound { status = .interrupted }
        // Documents a command could not read (missing, not GraphQL, the
        // cache file itself) are not offered to the next ones; those that
        // read well are, also when the command failed for another reason
        // (`read --document ops.graphql` that names no operation of several).
        rememberDocuments(in: typed, onlyReadable: [.usage, .io, .notACache].contains(status))
        // Named since, a document is read in place of the query typed last;
        // not one that could not be read (a mistyped file name), which is
        // not remembered either.
        if namesDocumentFiles {
            let files = REPLCompleter.optionValues(in: typed).filter { $0.option == "--document" }.map(\.value)
            let noneRead = !files.isEmpty && !files.contains(where: documentFiles.contains) && !Self.gives(["--text", "--apollo-config"], in: typed)
            if !noneRead { lastQueryIsNewest = false }
        }
        if ["rm", "clear", "gc"].contains(command) { _ = try? dropRemovedRecordsFromTrail() }
        return status
    }

    /// `--busy-timeout S` when the session was started with a wait of its
    /// own and the command gives none (every command the prompt runs takes it).
    func sessionWait(for words: [String]) -> [String] {
        guard busyTimeout != BusyTimeout.standard else { return [] }
        let options = words.prefix { $0 != "--" }
        if options.contains(where: { $0 == "--busy-timeout" || $0.hasPrefix("--busy-timeout=") }) { return [] }
        return ["--busy-timeout", String(busyTimeout)]
    }
}
