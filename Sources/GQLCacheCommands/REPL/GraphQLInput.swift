/// Recognizes GraphQL typed at the prompt and tells when it is complete:
/// a line that starts with `{`, `query`, `mutation`, `subscription` or
/// `fragment` begins a document, which ends when its braces balance
/// (braces in strings and comments do not count).
enum GraphQLInput {
    static func begins(_ line: String) -> Bool {
        let trimmed = line.drop { $0.isWhitespace }
        if trimmed.hasPrefix("{") { return true }
        let word = trimmed.prefix { $0.isLetter }
        return ["query", "mutation", "subscription", "fragment"].contains(String(word))
            && trimmed.dropFirst(word.count).first.map { !$0.isLetter && !$0.isNumber && $0 != "_" } ?? true
    }

    /// The GraphQL of a line `read { … }` or `read query Q($id: ID) { … }`:
    /// what follows `read` when a document begins there, its keyword, name
    /// and all on this line (`read query --var id=1` reads an operation
    /// named `query`). What came before it is blanked, not cut, so that a
    /// place in the GraphQL has the column it has on the line.
    ///
    /// Options may come between `read` and the GraphQL (`read --format json
    /// { … }`, `read --var id=1 query Q($id: ID) { … }`), and the name of
    /// the operation to run: they are given back, as typed, for the read to
    /// take. `valueTaking`: read's options that take a value, whose value
    /// is the word after them.
    static func afterRead(_ line: String, valueTaking: Set<String> = []) -> (graphQL: String, options: String)? {
        let indent = line.prefix { $0.isWhitespace }
        let trimmed = line.dropFirst(indent.count)
        guard trimmed.hasPrefix("read"), let space = trimmed.dropFirst(4).first, space == " " || space == "\t" else { return nil }
        var rest = trimmed.dropFirst(4).drop { $0.isWhitespace }
        let optionsStart = rest.startIndex
        var takesValue = false
        while !beginsDefinition(rest) || takesValue {
            guard let word = leadingWord(rest) else { return nil }
            if takesValue {
                takesValue = false
            } else {
                // A word that is no option names the operation to run (`read Q query Q { … }`).
                guard word != "--", word != "-" else { return nil }
                takesValue = word.hasPrefix("-") && !word.contains("=") && valueTaking.contains(String(word))
            }
            rest = rest.dropFirst(word.count).drop { $0.isWhitespace }
        }
        let options = String(line[optionsStart..<rest.startIndex]).trimmingCharacters(in: .whitespaces)
        return (String(repeating: " ", count: line.count - rest.count) + rest, options)
    }

    /// The first word of `text` as typed, quotes and escapes kept, up to
    /// a blank outside quotes; nil when `text` is empty or a quote is not closed.
    private static func leadingWord(_ text: Substring) -> Substring? {
        var quote: Character?
        var escaped = false
        var end = text.startIndex
        while end < text.endIndex {
            let character = text[end]
            if escaped {
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character.isWhitespace {
                break
            }
            end = text.index(after: end)
        }
        guard quote == nil, end > text.startIndex else { return nil }
        return text[..<end]
    }

    /// Whether `text` begins a definition past doubt: `{`, or a keyword and
    /// a name followed by what only a definition has (`(`, `@`, `{`, or a
    /// fragment's `on`).
    private static func beginsDefinition(_ text: Substring) -> Bool {
        if text.hasPrefix("{") { return true }
        let keyword = text.prefix { $0.isLetter }
        guard ["query", "mutation", "subscription", "fragment"].contains(String(keyword)) else { return false }
        var rest = text.dropFirst(keyword.count)
        guard rest.first.map({ $0.isWhitespace || "({@".contains($0) }) ?? false else { return false }
        rest = rest.drop { $0.isWhitespace }
        let name = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        rest = rest.dropFirst(name.count).drop { $0.isWhitespace }
        if keyword == "fragment" { return !name.isEmpty && rest.hasPrefix("on") }
        return rest.first.map { "({@".contains($0) } ?? false
    }

    /// Open braces minus closed ones, and whether any brace was seen,
    /// outside comments and strings: a string ends at a `"` no backslash
    /// escapes, a block string (`"""`) at the next `"""` that is not `\"""`.
    static func depth(_ text: String) -> (depth: Int, sawBrace: Bool) {
        let characters = Array(text)
        func triple(at index: Int) -> Bool {
            index + 2 < characters.count && characters[index] == "\"" && characters[index + 1] == "\"" && characters[index + 2] == "\""
        }
        var depth = 0
        var sawBrace = false
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case "#":
                while index < characters.count && characters[index] != "\n" { index += 1 }
            case "\"" where triple(at: index):
                index += 3
                while index < characters.count && !triple(at: index) {
                    // `\"""` is three quotes of the string's text.
                    index += characters[index] == "\\" && triple(at: index + 1) ? 4 : 1
                }
                index += 2
            case "\"":
                index += 1
                while index < characters.count && characters[index] != "\"" && characters[index] != "\n" {
                    // An escape takes the next character, but never the line's end.
                    index += characters[index] == "\\" && index + 1 < characters.count && characters[index + 1] != "\n" ? 2 : 1
                }
            case "{":
                depth += 1
                sawBrace = true
            case "}":
                depth -= 1
            default:
                break
            }
            index += 1
        }
        return (depth, sawBrace)
    }

    /// Options typed after a whole document (`read { … } --format jsonl`):
    /// the words after its last brace when they begin with `-`, which no
    /// GraphQL does; nil for any other text.
    static func optionsAfter(_ text: String) -> String? {
        guard let brace = text.lastIndex(of: "}") else { return nil }
        let tail = text[text.index(after: brace)...].trimmingCharacters(in: .whitespacesAndNewlines)
        return tail.hasPrefix("-") ? tail : nil
    }

    /// Whether the text typed so far is a whole document.
    static func isComplete(_ text: String) -> Bool {
        let (depth, sawBrace) = depth(text)
        return sawBrace && depth <= 0
    }
}
