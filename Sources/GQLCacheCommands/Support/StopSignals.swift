import CSignals
import CacheStore
import Foundation

/// Ctrl-C, `kill` or a closed terminal while a command-line process writes.
///
/// Ended by the signal there and then, the process would leave a hot
/// `-journal` beside the file, and every command that only reads would
/// refuse the file until something that may write rolled it back. So while
/// a store it watches is writing, a signal interrupts the store instead: the
/// write rolls back, and the command ends with "interrupted; nothing was
/// changed" and status 130. At any other moment (a read, a prompt, printing)
/// the signal ends the process as it always did, and so does a second
/// signal during the same write, a second or more after the first (a write
/// waiting for the input it reads, as an import from a terminal, notices an
/// interrupt only at its next statement). Closer together, signals are one
/// request: `timeout` and a terminal's process group can deliver one twice.
/// A temporary file being written (``FileOutput``) is removed before the
/// signal ends the process, and a write that already committed is named
/// on standard error.
final class StopSignals: @unchecked Sendable {
    static let shared = StopSignals()

    private let lock = NSLock()
    private var stores: [CacheStore] = []
    private var temporaryFiles: [String] = []
    private var isCatching = false
    /// Each watched store's committed writes at the last command boundary.
    private var committedBefore: [ObjectIdentifier: Int] = [:]
    /// The interactive REPL's: SIGINT is left to it (Ctrl-C stops a command,
    /// not the session), and the terminal is given back before the process
    /// ends of a signal at its prompt.
    private var interactiveSession: InteractiveSession?
    private struct InteractiveSession { let restoreTerminal: () -> Void }
    /// A signal that interrupted a write, not yet taken: the session it
    /// came to (the REPL's) is to end once the command has said so.
    private var stopRequest: Int32?

    /// The interactive REPL starts: from now on SIGTERM, SIGHUP and SIGQUIT
    /// (not SIGINT, which is its own) roll a write back before the session
    /// ends, and end it at any other moment with `restoreTerminal` called
    /// first (readline holds the terminal in its own mode at the prompt).
    func catchForInteractiveSession(restoreTerminal: @escaping () -> Void) {
        register { interactiveSession = InteractiveSession(restoreTerminal: restoreTerminal) }
    }

    /// Whether SIGINT is left to the interactive REPL.
    var leavesInterruptAlone: Bool { lock.withLock { interactiveSession != nil } }

    /// The signal that interrupted a write since the last call, if any:
    /// the REPL ends then, as the command line does after such a write.
    func takeStopRequest() -> Int32? {
        lock.withLock {
            defer { stopRequest = nil }
            return stopRequest
        }
    }

    /// A command starts or ends: writes committed before now are no longer
    /// the running command's (the REPL runs many in one process).
    func markCommandBoundary() {
        lock.withLock { committedBefore = Dictionary(uniqueKeysWithValues: stores.map { (ObjectIdentifier($0), $0.committedWriteCount) }) }
    }

    /// Watches `store` from now on; the first store watched starts the catching.
    func watch(_ store: CacheStore) {
        register { if !stores.contains(where: { $0 === store }) { stores.append(store) } }
        // `gc --force | head -1`: SIGPIPE would end the process without a
        // word once the change committed and its report met a closed pipe.
        // Ignored, the write finds the reader gone (``readerLeft()``), says
        // that the change stands, and ends the process as SIGPIPE would.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Removes `path` when a signal ends the process, until ``forget(_:)``.
    func removeOnStop(_ path: String) {
        register { temporaryFiles.append(path) }
    }

    /// Runs `update` under the lock; the first registration of any kind starts the catching.
    private func register(_ update: () -> Void) {
        let startsCatching = lock.withLock {
            update()
            defer { isCatching = true }
            return !isCatching
        }
        if startsCatching { startCatching() }
    }

    /// `path` was moved into place or removed: a signal leaves it alone.
    func forget(_ path: String) {
        lock.withLock { temporaryFiles.removeAll { $0 == path } }
    }

    private func startCatching() {
        let signals = gqlcache_catch_stop_signals(lock.withLock { interactiveSession == nil } ? 1 : 0)
        guard signals >= 0 else { return }
        let thread = Thread { [self] in
            var signal: UInt8 = 0
            var interrupted: [CacheStore] = []
            var interruptedAt = 0.0
            while true {
                let count = read(signals, &signal, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                let now = ProcessInfo.processInfo.systemUptime
                let writing = lock.withLock { stores.filter(\.isWriting) }
                let stillWriting = writing.contains { store in interrupted.contains { $0 === store } }
                if stillWriting && now - interruptedAt < 1 { continue }
                guard !writing.isEmpty, !stillWriting else {
                    for path in lock.withLock({ temporaryFiles }) { unlink(path) }
                    sayWhatWasWritten()
                    lock.withLock { interactiveSession }?.restoreTerminal()
                    gqlcache_die_of(Int32(signal))
                    return
                }
                // Set first: the command may end (rolled back) as soon as it is interrupted.
                lock.withLock { stopRequest = Int32(signal) }
                for store in writing { store.interrupt() }
                interrupted = writing
                interruptedAt = now
            }
        }
        thread.name = "gqlcache stop signals"
        thread.start()
    }

    /// Standard output's reader went away (`| head`) although SIGPIPE is
    /// ignored (a parent process may ignore it for its children): the
    /// process ends as SIGPIPE would have ended it, unless a watched store
    /// is writing, whose change then goes on (its report is dropped). A
    /// change already committed is named, as for a signal.
    func readerLeft() {
        guard !lock.withLock({ stores.contains(where: \.isWriting) }) else { return }
        for path in lock.withLock({ temporaryFiles }) { unlink(path) }
        sayWhatWasWritten()
        gqlcache_die_of(SIGPIPE)
    }

    /// A signal after the running command's write committed (while its
    /// report is worked out or printed, or before a --vacuum) ends the
    /// process there: one line says the change stands, and that what was
    /// to follow was not done, so that no one takes status 130 for
    /// "nothing was changed", nor the file for vacuumed.
    private func sayWhatWasWritten() {
        let changed = lock.withLock {
            stores.filter { $0.committedWriteCount > committedBefore[ObjectIdentifier($0), default: 0] }.map(\.path)
        }
        guard !changed.isEmpty else { return }
        let names = changed.joined(separator: ", ")
        // On a terminal the line starts a line of its own, whatever was cut short.
        let line = (isatty(STDERR_FILENO) == 1 ? "\n" : "")
            + "gqlcache: \(names): stopped after the change was written; it stands, and whatever the command had left to do (such as the rest of its report, or a --vacuum) was not done\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
