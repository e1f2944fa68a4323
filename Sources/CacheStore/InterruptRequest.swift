import Foundation

/// A Ctrl-C for one store, kept until a transaction has answered it.
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
final class InterruptRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var requested = false

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
}
