/// How text output is coloured: a value handed to the renderers, which stay
/// pure (values in, String out). `.plain` leaves text as it is.
public struct TextStyle: Equatable, Sendable {
    public let isColored: Bool

    public static let plain = TextStyle(isColored: false)
    public static let colored = TextStyle(isColored: true)

    /// The style `--color` asks for: `auto` colours only a terminal, and not
    /// when `NO_COLOR` is set to anything but the empty string, nor for
    /// `TERM=dumb`.
    static func resolve(_ choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> TextStyle {
        switch choice {
        case .always: return .colored
        case .never: return .plain
        case .auto:
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            let dumb = environment["TERM"] == "dumb"
            return isTerminal && !noColor && !dumb ? .colored : .plain
        }
    }

    private func sgr(_ code: String, _ text: String) -> String {
        isColored && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// A record's own key, heading its tree.
    func key(_ text: String) -> String { sgr("1", text) }
    /// The key a reference points at.
    func reference(_ text: String) -> String { sgr("36", text) }
    /// A marker of something wrong: (missing), (damaged …), a dangling reference.
    func problem(_ text: String) -> String { sgr("31", text) }
    /// Secondary text: type names, (cycle), tree lines.
    func dim(_ text: String) -> String { sgr("2", text) }
    /// What a change adds or the value after it.
    func added(_ text: String) -> String { sgr("32", text) }
    /// The value a change replaces.
    func removed(_ text: String) -> String { sgr("31", text) }
    /// The text a search matched, bold red as grep marks it.
    func match(_ text: String) -> String { sgr("1;31", text) }
}
