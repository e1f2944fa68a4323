import Foundation

/// A named pipe (FIFO) given as an input holds its reader until another
/// program opens it to write. At the REPL's prompt, where Ctrl-C is the
/// REPL's own and stops only the command, a wait in `open` would outlast
/// it (the handler restarts the call) and the command would run once a
/// writer came. There the pipe is opened without waiting, and the wait for
/// its first bytes (or its writer's end) is made in steps a Ctrl-C ends.
enum PipeWait {
    private static let interrupted = ManagedAtomicFlag()

    /// Ctrl-C at the prompt, while a command runs.
    static func interrupt() { interrupted.set() }
    /// Before a command: a Ctrl-C that came after the last one is not for it.
    static func forget() { interrupted.clear() }

    /// True when `path` names a FIFO (links followed).
    static func isPipe(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
    }

    /// A descriptor of the FIFO at `path`, open to read once a program has
    /// written to it or opened and closed it; -1 with `errno` set when it
    /// cannot be opened. Throws ``CommandFailure`` (status 130) for a
    /// Ctrl-C at the prompt meanwhile.
    static func openPipe(_ path: String, name: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&waiting, 1, 100) <= 0 {
            if interrupted.isSet {
                close(descriptor)
                throw CommandFailure(.interrupted, "\(name): interrupted while waiting for a program to write to the named pipe")
            }
        }
        // Read from now on as any pipe is: a read waits for what comes next.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }
}
