import Foundation

/// A Ctrl-C for one store, kept until a transaction has answered it, and
/// whether a write is under way (so that whoever catches a signal knows
/// whether to interrupt or let the process end).
///
/// SQLite's own interrupt stops only the statements running at that moment:
/// one that comes while the store works between statements (building a
/// graph, deciding what to remove) would be forgotten, and the write would
/// go on to commit. So the request is also kept here; every statement a
/// transaction starts afterwards is refused, and a write that gets to its
/// end with a request pending rolls back instead of committing.
///
/// A lock, not `Atomic`: the package builds for macOS 13, and `Atomic`
/// needs macOS 15. Statements are asked at most once each, so the lock is
/// never hot.
final class Interruption: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false
    private var writes = 0

    var isPending: Bool { lock.withLock { requested } }

    func request() { lock.withLock { requested = true } }

    /// Forgets the request; true when there was one.
    @discardableResult
    func take() -> Bool {
        lock.withLock {
            defer { requested = false }
            return requested
        }
    }

    var isWriting: Bool { lock.withLock { writes > 0 } }

    /// How long a write waited for a lock before giving up, once it has.
    /// SQLite asks for the lock again at each page it would write out of a
    /// full cache; a write that waited the busy timeout once gives up at
    /// once after that, and ends busy (see ``ReadTransaction/checkInterrupt()``),
    /// instead of waiting the timeout again at every page.
    private var gaveUpWaiting: Double?

    var gaveUpWaitingAfter: Double? { lock.withLock { gaveUpWaiting } }

    /// A wait for a lock timed out after `seconds`: kept while a write is under way.
    func noteGaveUpWaiting(after seconds: Double) {
        lock.withLock { if writes > 0 { gaveUpWaiting = seconds } }
    }

    private var waitsForNoOne = false

    /// Whether lock waits give up at once: while ``withoutWaiting(_:)`` runs.
    var givesUpAtOnce: Bool { lock.withLock { waitsForNoOne } }

    /// Runs `body` with every wait for a lock given up at once, whatever
    /// the busy timeout: for a step that may be skipped, which must not
    /// hold a lock the app needs while it waits for another.
    func withoutWaiting<T>(_ body: () throws -> T) rethrows -> T {
        lock.withLock { waitsForNoOne = true }
        defer { lock.withLock { waitsForNoOne = false } }
        return try body()
    }

    /// Runs `body` as a write under way.
    func writing<T>(_ body: () throws -> T) rethrows -> T {
        lock.withLock {
            writes += 1
            gaveUpWaiting = nil
        }
        defer {
            lock.withLock {
                writes -= 1
                if writes == 0 { gaveUpWaiting = nil }
            }
        }
        return try body()
    }
}
