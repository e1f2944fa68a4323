import Foundation

/// Runs `first` on a thread of its own while `second` runs on the calling
/// thread, and gives both results. For the work after the graph pass that
/// splits in two independent parts: on two cores it then takes the time of
/// the longer part, not of both.
func bothAtOnce<A, B>(_ first: @escaping @Sendable () -> A, _ second: () -> B) -> (A, B) {
    let box = ResultBox<A>()
    let thread = Thread {
        box.value = first()
        box.done.signal()
    }
    thread.name = "gqlcache analysis"
    thread.start()
    let other = second()
    box.done.wait()
    return (box.value!, other)
}

private final class ResultBox<Value>: @unchecked Sendable {
    // Written by the thread before it signals, read after the wait.
    var value: Value?
    let done = DispatchSemaphore(value: 0)
}
