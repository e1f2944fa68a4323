import Foundation

/// `sh -c COMMAND` for a program the user named (`$PAGER`, `$EDITOR`),
/// started with posix_spawn in gqlcache's own process group: Foundation's
/// Process puts its child in a group of its own, the terminal's background,
/// where a program that reads the terminal stops (SIGTTIN). The program
/// gets the signal handling a program started from a shell gets.
enum ShellCommand {
    /// Starts `command` with `arguments` as its `$1`…, `input` (when given)
    /// as its standard input, and `closing` closed in it. Returns the
    /// process id, or throws the error number.
    static func spawn(
        _ command: String, arguments: [String] = [], environment: [String: String], input: Int32? = nil, closing: [Int32] = []
    ) throws -> pid_t {
        let words = ["/bin/sh", "-c", command, "sh"] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_adddup2(&actions, input, 0) }
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Ctrl-C, Ctrl-\, a closed pipe and the file-size limit act on it as
        // on any program, whatever gqlcache does with them.
        var defaults = sigset_t(), none = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGQUIT, SIGPIPE, SIGXFSZ] { sigaddset(&defaults, signal) }
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
        guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EIO) }
        return pid
    }
}
