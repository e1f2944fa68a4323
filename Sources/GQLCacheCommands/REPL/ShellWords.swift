import Foundation

/// Splits a REPL line into words as a POSIX shell would for simple
/// commands: whitespace separates words, single quotes keep everything,
/// double quotes keep everything but `\"` and `\\`, a backslash escapes the
/// next character. Keys such as `hero(episode:JEDI)` need no quoting.
enum ShellWords {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case unterminatedQuote(Character)
        var description: String {
            switch self {
            case .unterminatedQuote(let quote): return "unterminated \(quote == "'" ? "single" : "double") quote"
            }
        }
    }

    static func split(_ line: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case (nil, "\\"), ("\"", "\\"):
                escaped = true
                inWord = true
            case (nil, "'"), (nil, "\""):
                quote = character
                inWord = true
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case (nil, _) where character.isWhitespace:
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        if let quote { throw Problem.unterminatedQuote(quote) }
        if escaped { current.append("\\") }
        if inWord { words.append(current) }
        return words
    }

    /// Splits `-c` text into commands at `;` outside quotes.
    static func commands(_ text: String) -> [String] {
        var commands: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" && quote != "'" {
                escaped = true
                current.append(character)
                continue
            }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == ";" {
                commands.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        commands.append(current)
        return commands.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Quotes a word so that ``split(_:)`` gives it back.
    static func quote(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { !$0.isWhitespace && !"'\"\\".contains($0) }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
