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

    /// Runs `body` as a write under way.
    func writing<T>(_ body: () throws -> T) rethrows -> T {
        lock.withLock { writes += 1 }
        defer { lock.withLock { writes -= 1 } }
        return try body()
    }
}
