import Foundation
internal import GRDB

/// Ctrl-C: stopping a store's statement, and a store's open.
extension CacheStore {
    /// Stops the statement running on this store, from any thread (a
    /// Ctrl-C handler): it throws ``CacheStoreError/interrupted(path:)``, and
    /// a write transaction rolls back.
    public func interrupt() {
        interruption.request()
        queue.interrupt()
    }

    /// True while ``write(progress:_:)`` or ``vacuum()`` runs: the file
    /// may then be half-changed, and a process ended now would leave a
    /// journal behind for the next writer to roll back. Whoever catches
    /// Ctrl-C asks this to decide between ``interrupt()`` and ending.
    public var isWriting: Bool { interruption.isWriting }

    /// Forgets an ``interrupt()`` that no transaction has answered yet (one
    /// that came while none was running), before new work starts: the REPL
    /// calls it as each command begins.
    public func forgetInterrupt() {
        interruption.take()
    }

    /// Runs one transaction, with SQLite's errors named for the file. An
    /// interrupt that came while it ran is answered by it: the transaction
    /// failed with ``CacheStoreError/interrupted(path:)`` (or had already
    /// committed), and the next one starts afresh.
    func answeringInterrupts<T>(_ body: () throws -> T) throws -> T {
        defer { interruption.take() }
        return try Self.reportingInterrupt(interruption, path: path) { try StoreErrors.mapping(path: path, waited: busyTimeout, body) }
    }
}

/// A Ctrl-C for a store that is still being opened: whoever catches it
/// holds this before the store exists (see ``CacheStore/open(at:access:busyTimeout:interrupt:)``).
public final class OpeningInterrupt: @unchecked Sendable {
    let interruption = Interruption()

    public init() {}

    /// Stops the open's wait for a lock, from any thread.
    public func interrupt() { interruption.request() }
}
