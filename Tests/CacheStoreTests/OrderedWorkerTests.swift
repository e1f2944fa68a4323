import Foundation
import XCTest

@testable import CacheStore

/// The worker thread that the pattern removal's scan and the graph pass
/// hand their second half to.
final class OrderedWorkerTests: XCTestCase {
    /// What the worker's thread saw, handed to the test's thread.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func add(_ event: String) { lock.withLock { events.append(event) } }
        var all: [String] { lock.withLock { events } }
    }

    func testItemsAreHandledInTheOrderSentAndAfterLastComesLast() {
        let seen = Seen()
        let worker = OrderedWorker<Int>(
            name: "test worker", maximumQueued: 2, handle: { seen.add("item \($0)") }, afterLast: { seen.add("after last") })
        for item in 1...50 { worker.send(item) }
        worker.finish()
        XCTAssertEqual(seen.all, (1...50).map { "item \($0)" } + ["after last"])
    }

    func testAfterClosingTheWorkerRunsAfterLastWithoutBeingWaitedFor() {
        let seen = Seen()
        let afterLastRan = DispatchSemaphore(value: 0)
        let worker = OrderedWorker<Int>(
            name: "test worker", maximumQueued: 8, handle: { seen.add("item \($0)") },
            afterLast: {
                seen.add("after last")
                afterLastRan.signal()
            })
        worker.send(1)
        worker.send(2)
        worker.close()
        // Nobody waits in finish() yet: the worker must get there alone.
        XCTAssertEqual(afterLastRan.wait(timeout: .now() + 10), .success, "afterLast ran once the worker was closed")
        worker.finish()
        XCTAssertEqual(seen.all, ["item 1", "item 2", "after last"])
    }

    func testASenderWaitsWhileTheWorkerIsTheMostQueuedBehind() {
        let gate = DispatchSemaphore(value: 0)
        let seen = Seen()
        let worker = OrderedWorker<Int>(
            name: "test worker", maximumQueued: 1,
            handle: { item in
                if item == 1 { gate.wait() }
                seen.add("item \(item)")
            })
        let sent = Seen()
        let sender = Thread {
            for item in 1...3 {
                worker.send(item)
                sent.add("sent \(item)")
            }
        }
        sender.start()
        // Item 1 is being handled (held at the gate), item 2 fills the
        // queue: item 3 cannot be sent until the worker moves on.
        let deadline = Date().addingTimeInterval(10)
        while sent.all.count < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertEqual(sent.all, ["sent 1", "sent 2"])
        gate.signal()
        while sent.all.count < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        worker.finish()
        XCTAssertEqual(sent.all, ["sent 1", "sent 2", "sent 3"])
        XCTAssertEqual(seen.all, ["item 1", "item 2", "item 3"])
    }
}
