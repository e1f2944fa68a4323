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

    /// The GraphQL of a line `read { … }` or `read query Q { … }`: what
    /// follows `read` when it begins a document with a brace on this line
    /// (`read query` alone reads an operation named `query`).
    static func afterRead(_ line: String) -> String? {
        let trimmed = line.drop { $0.isWhitespace }
        guard trimmed.hasPrefix("read"), let space = trimmed.dropFirst(4).first, space == " " || space == "\t" else { return nil }
        let rest = String(trimmed.dropFirst(5).drop { $0.isWhitespace })
        return begins(rest) && rest.contains("{") ? rest : nil
    }

    /// Open braces minus closed ones, and whether any brace was seen.
    static func depth(_ text: String) -> (depth: Int, sawBrace: Bool) {
        var depth = 0
        var sawBrace = false
        var inString = false
        var inComment = false
        var escaped = false
        var previous: [Character] = []
        var blockString = false
        for character in text {
            defer {
                previous.append(character)
                if previous.count > 3 { previous.removeFirst() }
            }
            if inComment {
                if character == "\n" { inComment = false }
                continue
            }
            if blockString {
                if character == "\"" && previous.suffix(2) == ["\"", "\""] { blockString = false }
                continue
            }
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    // An empty string, `""`, followed by a third quote opens a block string (below).
                    inString = false
                }
                continue
            }
            switch character {
            case "#": inComment = true
            case "\"":
                if previous.suffix(2) == ["\"", "\""] {
                    blockString = true
                } else {
                    inString = true
                }
            case "{":
                depth += 1
                sawBrace = true
            case "}":
                depth -= 1
            default:
                break
            }
        }
        return (depth, sawBrace)
    }

    /// Whether the text typed so far is a whole document.
    static func isComplete(_ text: String) -> Bool {
        let (depth, sawBrace) = depth(text)
        return sawBrace && depth <= 0
    }
}
