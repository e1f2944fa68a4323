/// A place text goes: standard output, standard error, or a string in tests.
public protocol TextSink: AnyObject {
    func write(_ text: String)
    func flush()
}

/// Collects text in memory.
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) { self.text += text }
    public func flush() {}
}
