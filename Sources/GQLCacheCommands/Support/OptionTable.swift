import Foundation
import ArgumentParser

/// Each subcommand's option names, from the command tree's own description
/// of itself (ArgumentParser's help dump): for completion at the prompt and
/// in the shells, and to name a mistyped option on a command line.
struct OptionTable {
    /// Long and short names (`--limit`, `-n`) of each command, sorted.
    let names: [String: [String]]
    /// The values of each command's options that take one of a few
    /// (`--mode`, `--format`, `--color`), by command and name.
    let values: [String: [String: [String]]]
    /// The names of each command's options that take a value.
    let valueTaking: [String: Set<String>]

    /// Built once, on first use: the dump walks every command by reflection.
    static let commands = OptionTable(dump: GQLCache._dumpHelp())

    init(dump: String) {
        var names: [String: [String]] = [:]
        var values: [String: [String: [String]]] = [:]
        var valueTaking: [String: Set<String>] = [:]
        if let data = dump.data(using: .utf8),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let tool = root["command"] as? [String: Any],
            let subcommands = tool["subcommands"] as? [[String: Any]]
        {
            for command in subcommands {
                guard let name = command["commandName"] as? String else { continue }
                var spellings: [String] = []
                for argument in command["arguments"] as? [[String: Any]] ?? [] {
                    for flag in argument["names"] as? [[String: Any]] ?? [] {
                        guard let kind = flag["kind"] as? String, let text = flag["name"] as? String else { continue }
                        let spelled = kind == "short" ? "-" + text : "--" + text
                        spellings.append(spelled)
                        if argument["kind"] as? String == "option" { valueTaking[name, default: []].insert(spelled) }
                        if let allValues = argument["allValues"] as? [String], !allValues.isEmpty {
                            values[name, default: [:]][spelled] = allValues
                        }
                    }
                }
                names[name] = spellings.sorted()
            }
        }
        self.names = names
        self.values = values
        self.valueTaking = valueTaking
    }

    /// The first word of `arguments` (a command's name, then its words)
    /// that looks like an option the command does not have, or nil. Words
    /// after `--`, and the word after an option that takes a value, are
    /// values whatever they look like. ArgumentParser names an unknown
    /// option only once everything else parsed, so a missing argument or a
    /// failed check would otherwise be reported in its place.
    func unknownOption(in arguments: [String]) -> String? {
        guard let command = arguments.first, let known = names[command] else { return nil }
        let valueTaking = self.valueTaking[command] ?? []
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" { return nil }
            guard word.hasPrefix("-"), word.count > 1 else { continue }
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if known.contains(name) {
                if name == word, valueTaking.contains(name) { index += 1 }
                continue
            }
            // Short flags run together (`-fq`): each must be one of the command's.
            if !word.hasPrefix("--"), !word.contains("="), word.dropFirst().allSatisfy({ known.contains("-\($0)") }) { continue }
            return word
        }
        return nil
    }

    /// The command's options nearest to a mistyped `word`, when any is
    /// near enough to be what was meant: `--dangle` → `--dangling`.
    func suggestions(for word: String, command: String) -> [String] {
        guard word.hasPrefix("--") else { return [] }
        let typed = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
        return Self.nearest(to: typed, among: (names[command] ?? []).filter { $0.hasPrefix("--") })
    }

    /// The candidates nearest to a mistyped word, when any is near enough
    /// to be what was meant: every one that extends it (`--for`: `--force`
    /// and `--format`), or else those a slip of a letter or two away, or
    /// begun right and ended wrong. Never one that shares nothing with it.
    static func nearest(to typed: String, among candidates: [String]) -> [String] {
        let extensions = candidates.filter { $0.hasPrefix(typed) }
        if !extensions.isEmpty { return extensions.sorted() }
        let near = candidates.map {
            ($0, KeySuggestions.editDistance(Array(typed.unicodeScalars), Array($0.unicodeScalars)))
        }.filter { candidate, distance in
            (distance <= max(2, typed.count / 4) && distance < typed.count)
                || zip(typed, candidate).prefix { $0 == $1 }.count >= max(5, typed.count - 2)
        }
        guard let best = near.map(\.1).min() else { return [] }
        return near.filter { $0.1 == best }.map(\.0).sorted()
    }

    /// `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`: choices for a "Did you mean",
    /// or the values a repeated option accepts.
    static func choices(_ words: [String]) -> String {
        let quoted = words.map { "'\($0)'" }
        return quoted.count <= 1 ? quoted.joined() : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }
}
