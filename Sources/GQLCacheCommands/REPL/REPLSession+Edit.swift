import Foundation

/// `edit`: the last query in the user's editor, run when saved.
extension REPLSession {
    /// An editor started from a script read from standard input would
    /// take the script's next lines as its keys.
    static let editorInScriptProblem = "the editor would read the rest of this script, which comes from standard input, as its keys; "
        + "give the commands with -c, or run the REPL at a terminal"

    func editLastQuery() -> ExitStatus {
        if scriptIsStandardInput {
            context.report(.usage, Self.editorInScriptProblem)
            return .usage
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gqlcache-query-\(ProcessInfo.processInfo.processIdentifier).graphql").path
        // The query `read` reads again, as the help says; fragments alone, when no query was typed.
        let initial = (lastQuery ?? lastTyped ?? "{\n  \n}") + "\n"
        guard FileManager.default.createFile(atPath: file, contents: Data(initial.utf8)) else {
            context.report(.io, "\(file): cannot create the file to edit")
            return .io
        }
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            try Editor.open(file, context: context)
        } catch let failure as CommandFailure {
            context.report(failure.status, failure.message.replacingOccurrences(of: "nothing written", with: "nothing run"))
            return failure.status
        } catch {
            return .io
        }
        let text: String
        do {
            // Saved in another encoding (Latin-1): refused as a document file is, not taken for empty.
            text = try TextFile.read(file, what: "query", name: "edit")
        } catch let failure as CommandFailure {
            context.report(failure.status, failure.message + "; nothing run")
            return failure.status
        } catch {
            return .io
        }
        // Nothing typed: the file emptied, or the starting braces left as they were.
        guard !["", "{}"].contains(text.filter { !$0.isWhitespace }) else {
            context.print("empty query; nothing run")
            return .success
        }
        let query = text.trimmingCharacters(in: .newlines)
        noteTyped(query)
        // Up brings back what ran, not only 'edit'.
        history?.addToHistory(query)
        return runCommand(["read", "--text", query], typedQuery: true)
    }
}
