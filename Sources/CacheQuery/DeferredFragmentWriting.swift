/// What Apollo writes of the fragments `@defer` defers.
public enum DeferredFragmentWriting: Sendable {
    /// None: a server's response lacks them, and Apollo's normalizer
    /// leaves them to the incremental payloads that deliver them, also
    /// when the data holds their fields.
    case notWritten
    /// Those the data holds a field of, as Apollo writes a model's
    /// fulfilled fragments; one it holds none of is pending. The data is a
    /// model's in all: with a schema, a number in a String or ID field is
    /// written as its text, as the model holds it.
    case whereGiven
}
