import Foundation
internal import GRDB

/// Waiting for another process's lock, as SQLite's busy timeout waits, but
/// in short steps that look for a Ctrl-C between them: SQLite's interrupt
/// does not reach a connection asleep in its busy handler, so a user who
/// raised `--busy-timeout` could not stop a command waiting for the app.
/// Given up on, the wait fails as a timeout does (`SQLITE_BUSY`), and the
/// store reports it as the interrupt it was.
final class BusyWait: @unchecked Sendable {
    private let timeout: Double
    private let interruption: Interruption
    private let lock = NSLock()
    private var startedAt = 0.0

    /// The longest sleep between two tries, in seconds.
    static let step = 0.01

    init(timeout: Double, interruption: Interruption) {
        self.timeout = timeout
        self.interruption = interruption
    }

    /// GRDB's busy callback: true to try again after a sleep, false to give up.
    var mode: Database.BusyMode {
        .callback { [self] numberOfTries in shouldTryAgain(after: numberOfTries) }
    }

    func shouldTryAgain(after numberOfTries: Int) -> Bool {
        // A write that already waited its timeout waits no more, nor a step that may be skipped.
        if interruption.gaveUpWaitingAfter != nil || interruption.givesUpAtOnce { return false }
        let now = ProcessInfo.processInfo.systemUptime
        let waited = lock.withLock {
            // Each lock a statement waits for starts its count at 0.
            if numberOfTries == 0 { startedAt = now }
            return now - startedAt
        }
        guard !interruption.isPending else { return false }
        guard waited < timeout else {
            interruption.noteGaveUpWaiting(after: timeout)
            return false
        }
        let sleep = min(Self.step, timeout - waited)
        usleep(useconds_t(max(sleep, 0.000_1) * 1_000_000))
        return !interruption.isPending
    }
}
