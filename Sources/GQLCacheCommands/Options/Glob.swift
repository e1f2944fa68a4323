/// A path pattern as an Apollo codegen config's search paths write them,
/// matched against a path with `/` between its components.
///
/// ```swift
/// let glob = Glob("Sources/**/*.graphql")
/// glob.matches("Sources/Feature/Hero/HeroQuery.graphql")   // true
/// glob.matches("Sources/.build/checkouts/Other.graphql")   // false: Apollo never searches .build
/// ```
///
/// Apollo expands each `**` into the folders below it and hands the rest to
/// glob(3); these are the same rules:
/// - `*` matches any run of characters within one component, `?` one
///   character, `[abc]` or `[a-z]` one of a set; `\` takes the next character
///   literally.
/// - `{a,b}` stands for either alternative (Apollo calls glob(3) with
///   GLOB_BRACE).
/// - A component that is exactly `**` matches any number of folders, none
///   included, except the `.build`, `.swiftpm` and `.Pods` folders Apollo
///   skips; as the last component it matches every file below.
/// - A name that starts with `.` is matched only by a component that starts
///   with a literal `.`, as in glob(3).
///
/// A leading `!` (exclusion) belongs to the list of patterns, not to one
/// pattern: see ``SearchPaths``.
struct Glob: Sendable {
    let pattern: String
    /// The pattern with its braces expanded, each split into components.
    private let alternatives: [[Component]]

    /// The folders a `**` never enters, as in Apollo's codegen.
    static let skippedFolders: Set<Substring> = [".build", ".swiftpm", ".Pods"]

    init(_ pattern: String) {
        self.pattern = pattern
        alternatives = Self.expandingBraces(pattern).map { alternative in
            alternative.split(separator: "/", omittingEmptySubsequences: false).map(Component.init)
        }
    }

    /// Whether `path` (components separated by `/`) matches the pattern.
    func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return alternatives.contains { Self.match($0[...], parts[...]) }
    }

    /// Whether some path inside `folder` could match: false lets a search
    /// leave that folder unread.
    func mayMatch(inside folder: String) -> Bool {
        let parts = folder.split(separator: "/", omittingEmptySubsequences: false)
        return alternatives.contains { Self.matchPrefix($0[...], parts[...]) }
    }

    /// The leading components that hold no wildcard, joined: where a search
    /// starts ("Sources/GraphQL" for "Sources/GraphQL/**/*.graphql", "" for
    /// "**/*.graphql"). The whole pattern when it names one file.
    var literalPrefix: String {
        pattern.split(separator: "/", omittingEmptySubsequences: false)
            .prefix { !$0.contains(where: Self.specialCharacters.contains) }
            .joined(separator: "/")
    }

    /// Whether the pattern names one path, with no wildcard at all.
    var isLiteral: Bool { !pattern.contains(where: Self.specialCharacters.contains) }

    /// `path` with every character that has a meaning in a pattern escaped,
    /// so that it matches only itself.
    static func escaping(_ path: String) -> String {
        var escaped = ""
        for character in path {
            if specialCharacters.contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private static let specialCharacters: Set<Character> = ["*", "?", "[", "{", "\\"]

    // MARK: Matching

    private static func match(_ components: ArraySlice<Component>, _ parts: ArraySlice<Substring>) -> Bool {
        guard let component = components.first else { return parts.isEmpty }
        guard let part = parts.first else {
            return false
        }
        switch component {
        case .anyFolders:
            // As the last component, ** takes every folder and the file name.
            if components.count == 1 { return !parts.dropLast().contains(where: skippedFolders.contains) }
            if match(components.dropFirst(), parts) { return true }
            return parts.count > 1 && !skippedFolders.contains(part) && match(components, parts.dropFirst())
        case .name(let tokens):
            return matches(tokens, part) && match(components.dropFirst(), parts.dropFirst())
        }
    }

    /// Whether the components can match `parts` and at least one more part.
    private static func matchPrefix(_ components: ArraySlice<Component>, _ parts: ArraySlice<Substring>) -> Bool {
        guard let component = components.first else { return false }
        guard let part = parts.first else { return true }
        switch component {
        case .anyFolders:
            return matchPrefix(components.dropFirst(), parts)
                || (!skippedFolders.contains(part) && matchPrefix(components, parts.dropFirst()))
        case .name(let tokens):
            return matches(tokens, part) && matchPrefix(components.dropFirst(), parts.dropFirst())
        }
    }

    /// One component's tokens against one name: `*` backtracks to the last
    /// star, the usual linear wildcard match.
    private static func matches(_ tokens: [Token], _ name: Substring) -> Bool {
        let characters = Array(name)
        if characters.first == ".", tokens.first != .character(".") { return false }
        var token = 0, character = 0
        var lastStar: (token: Int, character: Int)?
        while character < characters.count {
            if token < tokens.count, tokens[token] == .anyRun {
                lastStar = (token, character)
                token += 1
            } else if token < tokens.count, tokens[token].matches(characters[character]) {
                token += 1
                character += 1
            } else if let star = lastStar {
                lastStar = (star.token, star.character + 1)
                token = star.token + 1
                character = star.character + 1
            } else {
                return false
            }
        }
        while token < tokens.count, tokens[token] == .anyRun { token += 1 }
        return token == tokens.count
    }

    // MARK: Parsing

    private enum Component: Sendable {
        case anyFolders
        case name([Token])

        init(_ text: Substring) {
            self = text == "**" ? .anyFolders : .name(Token.parse(text))
        }
    }

    private enum Token: Equatable, Sendable {
        case character(Character)
        case anyCharacter
        case anyRun
        case oneOf([ClosedRange<Character>])

        func matches(_ character: Character) -> Bool {
            switch self {
            case .character(let expected): return character == expected
            case .anyCharacter: return true
            case .anyRun: return false
            case .oneOf(let ranges): return ranges.contains { $0.contains(character) }
            }
        }

        static func parse(_ text: Substring) -> [Token] {
            var tokens: [Token] = []
            var rest = text[...]
            while let character = rest.popFirst() {
                switch character {
                case "\\":
                    tokens.append(.character(rest.popFirst() ?? "\\"))
                case "*":
                    if tokens.last != .anyRun { tokens.append(.anyRun) }
                case "?":
                    tokens.append(.anyCharacter)
                case "[":
                    if let (set, after) = parseSet(rest) {
                        tokens.append(.oneOf(set))
                        rest = after
                    } else {
                        tokens.append(.character("["))
                    }
                default:
                    tokens.append(.character(character))
                }
            }
            return tokens
        }

        /// The set after a `[`, up to its `]` (a `]` right after the `[` is a
        /// member); nil when it never closes, and the `[` is then literal.
        private static func parseSet(_ text: Substring) -> ([ClosedRange<Character>], Substring)? {
            var ranges: [ClosedRange<Character>] = []
            var rest = text
            var first = true
            while let character = rest.popFirst() {
                if character == "]" && !first { return (ranges, rest) }
                first = false
                if rest.first == "-", let upper = rest.dropFirst().first, upper != "]", character <= upper {
                    ranges.append(character...upper)
                    rest = rest.dropFirst(2)
                } else {
                    ranges.append(character...character)
                }
            }
            return nil
        }
    }

    /// Every pattern the braces stand for: "*.{graphql,gql}" is "*.graphql"
    /// and "*.gql". A `{` that never closes, and `{}`, are literal.
    static func expandingBraces(_ pattern: String) -> [String] {
        let characters = Array(pattern)
        var index = 0
        while index < characters.count {
            if characters[index] == "\\" {
                index += 2
                continue
            }
            if characters[index] == "{", let (close, commas) = closingBrace(in: characters, from: index), close > index + 1 {
                let before = String(characters[..<index])
                let after = String(characters[(close + 1)...])
                let bounds = [index] + commas + [close]
                return zip(bounds, bounds.dropFirst()).flatMap { start, end in
                    expandingBraces(before + String(characters[(start + 1)..<end]) + after)
                }
            }
            index += 1
        }
        return [pattern]
    }

    /// The `}` that closes the `{` at `open`, and the commas between them at
    /// its own depth.
    private static func closingBrace(in characters: [Character], from open: Int) -> (Int, [Int])? {
        var depth = 0
        var commas: [Int] = []
        var index = open
        while index < characters.count {
            switch characters[index] {
            case "\\": index += 1
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return (index, commas) }
            case "," where depth == 1: commas.append(index)
            default: break
            }
            index += 1
        }
        return nil
    }
}
