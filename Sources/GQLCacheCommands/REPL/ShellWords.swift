import CacheStore
import Foundation

/// Splits a REPL line into words as a POSIX shell would for simple
/// commands: whitespace separates words, single quotes keep everything, a
/// backslash escapes the next character. In double quotes a backslash
/// starts a JSON escape (`\n`, `\t`, `\u00e9`, `\"`, `\\`), so that a key
/// shown quoted (`"New\nline:1"`, a key with a line break) is typed back as
/// shown; `\"`, `\\` and `\/` are the character itself, and before any
/// other character the backslash stays, as a shell keeps it there
/// (`"^Post:\d+$"`, a regular expression). A word
/// that begins with an unquoted `~/` (or is `~`) begins in the home
/// folder, and one that begins with an unquoted `#` begins a comment, to
/// the end of the line. Keys such as `hero(episode:JEDI)` need no quoting.
enum ShellWords {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case unterminatedQuote(Character)
        var description: String {
            switch self {
            case .unterminatedQuote(let quote): return "unterminated \(quote == "'" ? "single" : "double") quote"
            }
        }
    }

    static func split(_ line: String) throws -> [String] { try splitMarkingBare(line).map(\.word) }

    /// Whether `line` ends in a backslash outside quotes and comments,
    /// which continues the command on the next line, as in a shell
    /// (`rm Human:1000 \`, then `Human:1002`).
    static func continuesOnNextLine(_ line: String) -> Bool {
        (try? scan(line))?.endsEscaped ?? false
    }

    /// The words, each with whether it was typed bare: without a quote or
    /// a backslash anywhere in it (`|` bare is a shell's pipe; `'|'` a word).
    static func splitMarkingBare(_ line: String) throws -> [(word: String, bare: Bool)] { try scan(line).words }

    /// ``splitMarkingBare(_:)``, and whether the line ended in a backslash
    /// that escapes nothing (kept as the last word's last character).
    private static func scan(_ line: String) throws -> (words: [(word: String, bare: Bool)], endsEscaped: Bool) {
        var words: [(word: String, bare: Bool)] = []
        var current = ""
        var inWord = false
        var bare = true
        var quote: Unicode.Scalar?
        var escaped = false
        // Read by scalar, not by character: a combining mark after a quote or
        // an escape's last digit (`"\u200b́"`) would otherwise join it into
        // one character that is neither.
        let characters = Array(line.unicodeScalars)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            if escaped {
                escaped = false
                if quote == "\"", let (text, length) = jsonEscape(character, followedBy: characters[index...]) {
                    current += text
                    index += length
                } else if quote == "\"" && !["\"", "\\", "/"].contains(character) {
                    // No escape (`"^Post:\d+$"`, a regular expression): the
                    // backslash stays, as a shell keeps it in double quotes.
                    current.append("\\")
                    current.unicodeScalars.append(character)
                } else {
                    current.unicodeScalars.append(character)
                }
                continue
            }
            switch (quote, character) {
            case (nil, "\\"), ("\"", "\\"):
                escaped = true
                inWord = true
                bare = false
            case (nil, "'"), (nil, "\""):
                quote = character
                inWord = true
                bare = false
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case (nil, _) where character.properties.isWhitespace:
                if inWord { words.append((current, bare)) }
                current = ""
                inWord = false
                bare = true
            case (nil, "#") where !inWord:
                // A comment, as in a shell: `keys Human # the people`.
                index = characters.count
            case (nil, "~") where !inWord && (index == characters.count || characters[index] == "/" || characters[index].properties.isWhitespace):
                // `~/cache.sqlite`, as a shell reads it: the home folder.
                current += ProcessInfo.processInfo.environment["HOME"] ?? "~"
                inWord = true
            default:
                current.unicodeScalars.append(character)
                inWord = true
            }
        }
        if let quote { throw Problem.unterminatedQuote(Character(quote)) }
        if escaped { current.append("\\") }
        if inWord { words.append((current, bare)) }
        return (words, escaped)
    }

    /// The text of the JSON escape whose letter is `letter` (after a
    /// backslash), and how many of the characters after the letter it
    /// takes (`\u00e9` takes four, a surrogate pair `\ud83d\ude00` ten);
    /// nil for a letter that starts none.
    private static func jsonEscape(_ letter: Unicode.Scalar, followedBy rest: ArraySlice<Unicode.Scalar>) -> (String, Int)? {
        switch letter {
        case "n": return ("\n", 0)
        case "t": return ("\t", 0)
        case "r": return ("\r", 0)
        case "b": return ("\u{8}", 0)
        case "f": return ("\u{c}", 0)
        case "u":
            func hex(_ from: Int) -> UInt32? {
                let digits = rest.dropFirst(from).prefix(4)
                guard digits.count == 4 else { return nil }
                return UInt32(String(String.UnicodeScalarView(digits)), radix: 16)
            }
            guard let high = hex(0) else { return nil }
            if (0xD800..<0xDC00).contains(high), Array(rest.dropFirst(4).prefix(2)) == ["\\", "u"], let low = hex(6),
                (0xDC00..<0xE000).contains(low), let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            {
                return (String(scalar), 10)
            }
            guard let scalar = Unicode.Scalar(high) else { return nil }
            return (String(scalar), 4)
        default: return nil
        }
    }

    /// Splits `-c` text into commands at `;` and line breaks outside
    /// quotes, so that a script's lines given with -c run as its lines. A
    /// `#` that begins a word begins a comment, as in a shell script (and
    /// a GraphQL comment so written): to the end of its line, quotes and
    /// `;` in it are text (`# note; see ticket` in a query), kept for the
    /// line it is on.
    static func commands(_ text: String) -> [String] {
        // Kept as typed, indentation too: a GraphQL line's columns count from its start.
        pieces(text).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// The text of the command being typed at the end of `line`, as
    /// ``commands(_:)`` would split it: after the last `;` outside quotes
    /// (`show Hu` of `pwd; show Hu`), empty right after one.
    static func lastCommand(_ line: String) -> String { pieces(line).last ?? "" }

    /// ``commands(_:)`` with the empty ones, and the last, kept.
    private static func pieces(_ text: String) -> [String] {
        var commands: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        var inComment = false
        // After unquoted, unescaped whitespace, a ';' or a line break, or at the start.
        var atWordStart = true
        for character in text {
            if inComment {
                if character == "\n" {
                    inComment = false
                    atWordStart = true
                    commands.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
                continue
            }
            if escaped {
                escaped = false
                // A backslash that ends a line outside quotes joins it to the
                // next (`rm A \` then `B`), as at the prompt: both go.
                if (character == "\n" || character == "\r\n") && quote == nil {
                    current.removeLast()
                    continue
                }
                current.append(character)
                atWordStart = false
                continue
            }
            if character == "\\" && quote != "'" {
                escaped = true
                current.append(character)
                continue
            }
            defer { atWordStart = quote == nil && (character.isWhitespace || character == ";") }
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" && atWordStart {
                inComment = true
            } else if character == ";" || character == "\n" {
                commands.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        commands.append(current)
        return commands
    }

    /// Quotes a word so that ``split(_:)`` gives it back: in `quote` when
    /// given, else in single quotes when it needs any. Within single quotes
    /// a `'` is written `'\''`; within double quotes `"` and `\` take a
    /// backslash. Unless `closed`, the quote is left open, for Tab to
    /// complete more of the word.
    static func quote(_ word: String, with quote: Character? = nil, closed: Bool = true) -> String {
        // A leading ~/ would be read as the home folder.
        // A ';' would end the command, and a bare `|` or `>` is refused as a shell's.
        let bare = word.allSatisfy { !$0.isWhitespace && !"'\"\\;".contains($0) } && !(word.isEmpty && closed)
            && !(word == "~" || word.hasPrefix("~/")) && !word.hasPrefix("#") && !REPLSession.shellOperators.contains(word)
        // A line break or another control character can be typed only as a
        // JSON escape, in double quotes: written as it is, it would end the
        // line. So are those that would reorder the line or show nothing
        // (U+202E, U+200B), as keys are shown.
        let hasControl = word.containsScalar { scalar, showsNothing in scalar.isControl || scalar.movesText || showsNothing }
        // In a single quote the user opened, an empty '' closes it first, so
        // that the text still begins with that quote (readline replaces from it).
        if hasControl && quote == "'" { return "''" + Self.quote(word, with: "\"", closed: closed) }
        guard let mark = hasControl ? "\"" : quote ?? (bare ? nil : "'") else { return word }
        let inside: String
        if mark == "'" {
            inside = word.replacingOccurrences(of: "'", with: #"'\''"#)
        } else {
            // A JSON string's inside, as output shows keys: what split reads back in double quotes.
            inside = word.quotedForLine.insideQuotes
        }
        return String(mark) + inside + (closed ? String(mark) : "")
    }

    /// The word a line ends in, as far as it is typed, for completion.
    struct PartialWord: Equatable {
        /// Where it starts in the line, in UTF-8 bytes.
        var start: Int
        /// What it says, its quoting taken away.
        var value = ""
        /// The quote still open at the end of the line, if any...
        var openQuote: Character?
        /// ...where that quote is, in UTF-8 bytes...
        var openQuoteOffset = 0
        /// ...and what the word says before it.
        var valueBeforeOpenQuote = ""
        /// Whether the line ends in a backslash that escapes what comes next.
        var escapesNext = false

        /// Whether what comes next on the line is taken literally, not as a
        /// word break.
        var quotesNext: Bool { openQuote != nil || escapesNext }
    }

    /// Reads `line` as ``split(_:)`` does, but for a line cut short where
    /// the cursor is: its last word, even in an unclosed quote.
    static func partialWord(_ line: String) -> PartialWord {
        var word = PartialWord(start: 0)
        var offset = 0
        // By scalar, as split reads it.
        let characters = Array(line.unicodeScalars)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            index += 1
            defer { offset += UTF8.width(character) }
            if word.escapesNext {
                word.escapesNext = false
                if word.openQuote == "\"", let (text, length) = jsonEscape(character, followedBy: characters[index...]) {
                    word.value += text
                    offset += characters[index..<(index + length)].reduce(0) { $0 + UTF8.width($1) }
                    index += length
                } else {
                    word.value.unicodeScalars.append(character)
                }
                continue
            }
            switch (word.openQuote, character) {
            case (nil, "\\"), ("\"", "\\"):
                word.escapesNext = true
            case (nil, "'"), (nil, "\""):
                word.openQuote = Character(character)
                word.openQuoteOffset = offset
                word.valueBeforeOpenQuote = word.value
            case ("'", "'"), ("\"", "\""):
                word.openQuote = nil
            case (nil, _) where character.properties.isWhitespace || character == ";":
                // A `;` ends a command, and so the word (`pwd;sh`), as commands(_:) splits it.
                word = PartialWord(start: offset + UTF8.width(character))
            default:
                word.value.unicodeScalars.append(character)
            }
        }
        return word
    }
}
