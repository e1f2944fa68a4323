import Foundation

extension CacheSchema {
    /// Where `Unknown type "X".` (which the schema builder says without a
    /// place) first names X: as a whole word after the first `:` or `|` or
    /// `implements`/`&` that precedes it, else anywhere outside a comment.
    static func placeOfUnknownType(in message: String, text: String) -> (line: Int, column: Int)? {
        guard message.hasPrefix("Unknown type \""), let end = message.dropFirst(14).firstIndex(of: "\"") else { return nil }
        let name = String(message[message.index(message.startIndex, offsetBy: 14)..<end])
        guard !name.isEmpty,
            let expression = try? NSRegularExpression(pattern: "^[^#\"]*?[^A-Za-z0-9_#\"]" + NSRegularExpression.escapedPattern(for: name) + "(?![A-Za-z0-9_])",
                                                      options: [.anchorsMatchLines])
        else { return nil }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = expression.firstMatch(in: text, range: range), let found = Range(match.range, in: text) else { return nil }
        // The match ends with the name: its first byte is where the name starts.
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: found.upperBound.samePosition(in: text.utf8)!) - name.utf8.count
        let place = SourcePlace(utf8Offset: offset, in: text)
        return (place.line, place.column)
    }

    /// Where the second definition of a type is, for the schema builder's
    /// "There can be only one type named" (two files that both define a
    /// scalar), which has no place of its own.
    static func placeOfDuplicateType(in message: String, text: String) -> (line: Int, column: Int)? {
        guard let name = quotedName(after: "There can be only one type named \"", in: message) else { return nil }
        return placeOfLine(startingWith: "(?:type|scalar|interface|union|enum|input)", name: name, occurrence: 1, in: text)
    }

    /// Where `extend type X` is, for the schema builder's "Cannot extend
    /// type "X" because it is not defined.", which has no place of its own.
    static func placeOfUndefinedExtension(in message: String, text: String) -> (line: Int, column: Int)? {
        guard let name = quotedName(after: "Cannot extend type \"", in: message) else { return nil }
        return placeOfLine(startingWith: "extend[ \\t]+(?:type|scalar|interface|union|enum|input)", name: name, occurrence: 0, in: text)
    }

    /// The name in quotes that follows `prefix` at the start of `message`.
    private static func quotedName(after prefix: String, in message: String) -> String? {
        guard message.hasPrefix(prefix), let end = message.dropFirst(prefix.count).firstIndex(of: "\"") else { return nil }
        let name = String(message[message.index(message.startIndex, offsetBy: prefix.count)..<end])
        return name.isEmpty ? nil : name
    }

    /// Where the `occurrence`th line (from 0) that begins with the words
    /// `keywords` (a pattern) and then `name` starts, past its indentation.
    private static func placeOfLine(startingWith keywords: String, name: String, occurrence: Int, in text: String) -> (line: Int, column: Int)? {
        guard let expression = try? NSRegularExpression(
                pattern: "^[ \\t]*" + keywords + "[ \\t]+" + NSRegularExpression.escapedPattern(for: name) + "(?![A-Za-z0-9_])",
                options: [.anchorsMatchLines])
        else { return nil }
        let matches = expression.matches(in: text, range: NSRange(text.startIndex..., in: text))
        guard matches.count > occurrence, let found = Range(matches[occurrence].range, in: text) else { return nil }
        let start = text[found].firstIndex { $0 != " " && $0 != "\t" } ?? found.lowerBound
        let place = SourcePlace(utf8Offset: text.utf8.distance(from: text.utf8.startIndex, to: start.samePosition(in: text.utf8)!), in: text)
        return (place.line, place.column)
    }
}
