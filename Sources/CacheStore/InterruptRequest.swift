import Synchronization

/// A Ctrl-C for one store, kept until a transaction has answered it.
///
/// SQLite's own interrupt stops only the statements running at that moment:
/// one that comes while the store works between statements (building a
/// graph, deciding what to remove) would be forgotten, and the write would
/// go on to commit. So the request is also kept here; every statement a
/// transaction starts afterwards is refused, and a write that gets to its
/// end with a request pending rolls back instead of committing.
final class InterruptRequest: Sendable {
    private let requested = Atomic<Bool>(false)

    var isPending: Bool { requested.load(ordering: .acquiring) }

    func request() { requested.store(true, ordering: .releasing) }

    /// Forgets the request; true when there was one.
    @discardableResult
    func take() -> Bool { requested.exchange(false, ordering: .acquiringAndReleasing) }
}
