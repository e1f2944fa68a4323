import Foundation

/// A thread of its own that handles items in the order they are sent,
/// from a short queue: the sending thread waits while it is
/// `maximumQueued` items ahead, so memory stays bounded. The pattern
/// removal's scan and the graph pass each hand their second half to one.
///
///     let worker = OrderedWorker<Chunk>(name: "…", maximumQueued: 8, handle: { … }, afterLast: { … })
///     worker.send(chunk)
///     worker.close()    // optional: no more items; `afterLast` may start now
///     worker.finish()   // every item handled, then `afterLast`
final class OrderedWorker<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queued: [Item] = []
    private var isClosed = false
    private var isDone = false
    private let maximumQueued: Int
    // Dropped once the thread is done, so an owner they capture is freed.
    private var handle: ((Item) -> Void)?
    private var afterLast: (() -> Void)?

    /// `handle` runs on the worker's thread for each item; `afterLast`
    /// there too, once the last item is handled.
    init(name: String, maximumQueued: Int, handle: @escaping (Item) -> Void, afterLast: @escaping () -> Void = {}) {
        self.maximumQueued = maximumQueued
        self.handle = handle
        self.afterLast = afterLast
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Queues an item; waits while the worker is `maximumQueued` behind.
    func send(_ item: Item) {
        condition.lock()
        while queued.count >= maximumQueued { condition.wait() }
        queued.append(item)
        condition.broadcast()
        condition.unlock()
    }

    /// How many items wait for the worker (not counting the one it is handling).
    var queuedCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return queued.count
    }

    /// Says no item follows, without waiting: the worker handles what is
    /// queued and runs `afterLast` while the sender goes on. Nothing may be
    /// sent after it.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every item sent is handled and `afterLast` has run,
    /// closing first if ``close()`` was not called. Call it exactly once.
    func finish() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        while !isDone { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while queued.isEmpty && !isClosed { condition.wait() }
            if queued.isEmpty {
                condition.unlock()
                break
            }
            let next = queued.removeFirst()
            condition.broadcast()
            condition.unlock()
            handle?(next)
        }
        afterLast?()
        handle = nil
        afterLast = nil
        condition.lock()
        isDone = true
        condition.broadcast()
        condition.unlock()
    }
}
