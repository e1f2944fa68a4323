import Foundation

/// The user's editor, run on a file until it exits.
enum Editor {
    static func open(_ path: String, context: CommandContext) throws {
        let environment = context.environment
        let chosen = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
        // vi, the fallback, needs a terminal; an editor the user named may not (a script).
        guard chosen != nil || (context.stdinIsTerminal && context.stdoutIsTerminal) else {
            throw CommandFailure(.usage, "editing needs a terminal, or an editor named in VISUAL or EDITOR; nothing written")
        }
        let editor = chosen ?? "vi"
        // In gqlcache's own process group (ShellCommand): a terminal editor
        // must be in the foreground. Through the shell, so EDITOR may carry
        // arguments ("code --wait"); the process's environment, with the
        // command's own (a test's, say) over it.
        // With output going to a file or a pipe, the editor draws on the
        // terminal through standard error, as the REPL's prompt then does:
        // its screen is not the command's output.
        let toTerminal = !context.stdoutIsTerminal && context.stderrIsTerminal ? " >&2" : ""
        // The character set the REPL took in the C locale (C.UTF-8, named in
        // the process's LC_ALL or LC_CTYPE) holds for the editor too, over
        // the C the command's environment was started with.
        let current = ProcessInfo.processInfo.environment
        var given = current.merging(environment) { $1 }
        for name in ["LC_ALL", "LC_CTYPE"] where current[name] == "C.UTF-8" { given[name] = "C.UTF-8" }
        let pid: pid_t
        do {
            pid = try ShellCommand.spawn(editor + " \"$1\"" + toTerminal, arguments: [path], environment: given)
        } catch {
            throw CommandFailure(.io, "cannot start the editor '\(editor)': \(String(cString: strerror((error as? POSIXError)?.code.rawValue ?? EIO))); nothing written")
        }
        // Ctrl-C in the editor is the editor's (vi cancels a command with
        // it): the terminal sends it to gqlcache too, which must not end
        // under the editor.
        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        signal(SIGINT, previousInterrupt)
        signal(SIGQUIT, previousQuit)
        // An editor that fails (vim's :cq) abandons the edit, as git takes it:
        // the user declined, which is status 1. (The shell reports an
        // editor ended by a signal as status 128 + the signal.)
        let signalled = status & 0x7F
        let exitStatus = (status >> 8) & 0xFF
        // Ended by Ctrl-C (or the shell around it was): the command is
        // interrupted, as Ctrl-C ends any (status 130).
        if signalled == SIGINT || (signalled == 0 && exitStatus == 128 + SIGINT) {
            throw CommandFailure(.interrupted, "the editor '\(editor)' was interrupted; nothing written")
        }
        guard signalled == 0 else {
            throw CommandFailure(.notFound, "the editor '\(editor)' was ended by signal \(signalled); nothing written")
        }
        guard exitStatus == 0 else {
            throw CommandFailure(.notFound, "the editor '\(editor)' exited with status \(exitStatus); nothing written")
        }
    }
}
