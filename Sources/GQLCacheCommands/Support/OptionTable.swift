import ArgumentParser
import CacheQuery
import Foundation

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
    /// Each spelling of each command's options that take one value (not
    /// repeatable), with the option's preferred name: `-o` → `--output`.
    let singleValued: [String: [String: String]]

    /// Built once, on first use: the dump walks every command by reflection.
    static let commands = OptionTable(dump: GQLCache._dumpHelp())

    init(dump: String) {
        var names: [String: [String]] = [:]
        var values: [String: [String: [String]]] = [:]
        var valueTaking: [String: Set<String>] = [:]
        var singleValued: [String: [String: String]] = [:]
        if let data = dump.data(using: .utf8),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let tool = root["command"] as? [String: Any]
        {
            // The tree's commands, or one command dumped alone (whose
            // subcommand is the help command the parser gives it).
            for command in (tool["subcommands"] as? [[String: Any]] ?? []) + [tool] {
                guard let name = command["commandName"] as? String else { continue }
                var spellings: [String] = []
                for argument in command["arguments"] as? [[String: Any]] ?? [] {
                    let spelledNames = (argument["names"] as? [[String: Any]] ?? []).compactMap { flag -> String? in
                        guard let kind = flag["kind"] as? String, let text = flag["name"] as? String else { return nil }
                        return kind == "short" ? "-" + text : "--" + text
                    }
                    let preferred = spelledNames.first { $0.hasPrefix("--") } ?? spelledNames.first
                    for spelled in spelledNames {
                        spellings.append(spelled)
                        if argument["kind"] as? String == "option" {
                            valueTaking[name, default: []].insert(spelled)
                            if argument["isRepeating"] as? Bool != true { singleValued[name, default: [:]][spelled] = preferred }
                        }
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
        self.singleValued = singleValued
    }

    /// The table of one command: its dump alone costs a fraction of the
    /// whole tree's, which a command line need not pay for.
    static func of(command name: String) -> OptionTable? {
        guard let type = GQLCache.configuration.subcommands.first(where: { $0._commandName == name }) else { return nil }
        return OptionTable(dump: type._dumpHelp())
    }

    /// The first option of `arguments` (a command's name, then its words)
    /// that takes one value and is given two different ones (`rm --match
    /// Human --match Droid`), which the parser would take as the last
    /// alone, without a word: by its preferred name, with both values.
    func repeatedValue(in arguments: [String]) -> (option: String, first: String, second: String)? {
        guard let command = arguments.first, let singleValued = singleValued[command] else { return nil }
        var given: [String: String] = [:]
        return scanOptions(arguments) { _, name, value in
            guard let value, let option = singleValued[name] else { return nil }
            if let earlier = given.updateValue(value, forKey: option), earlier != value { return (option, earlier, value) }
            return nil
        }
    }

    /// The words of `arguments` (a command's name, then its words) that
    /// are neither options nor their values, before any `--`.
    func positionals(in arguments: [String]) -> [String] {
        var found: [String] = []
        _ = scanOptions(arguments, positional: { found.append($0) }) { _, _, _ -> Bool? in nil }
        return found
    }

    /// The first word of `arguments` (a command's name, then its words)
    /// that looks like an option the command does not have, or nil. Words
    /// after `--`, and the word after an option that takes a value, are
    /// values whatever they look like. ArgumentParser names an unknown
    /// option only once everything else parsed, so a missing argument or a
    /// failed check would otherwise be reported in its place.
    func unknownOption(in arguments: [String]) -> String? {
        guard let command = arguments.first, let known = names[command] else { return nil }
        return scanOptions(arguments) { word, name, _ in
            if known.contains(name) { return nil }
            // Short flags run together (`-fq`): each must be one of the command's.
            if !word.hasPrefix("--"), !word.contains("="), word.dropFirst().allSatisfy({ known.contains("-\($0)") }) { return nil }
            return word
        }
    }

    /// Walks the words after the command's name as the parser reads them,
    /// up to `--`: `visit` gets each word that looks like an option, its
    /// name (before any `=`) and, for one of the command's options that
    /// takes a value, that value (after `=`, or the next word, which is then
    /// no option itself). The first result `visit` gives ends the walk.
    /// `positional` gets each word that is neither (an argument, such as a
    /// file or a key), up to `--`.
    private func scanOptions<Result>(
        _ arguments: [String], positional: (String) -> Void = { _ in },
        _ visit: (_ word: String, _ name: String, _ value: String?) -> Result?
    ) -> Result? {
        guard let command = arguments.first, let known = names[command] else { return nil }
        let valueTaking = self.valueTaking[command] ?? []
        var index = 1
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" { return nil }
            guard word.hasPrefix("-"), word.count > 1 else {
                positional(word)
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            var value: String?
            if known.contains(name), valueTaking.contains(name) {
                if parts.count == 2 {
                    value = String(parts[1])
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
            }
            if let result = visit(word, name, value) { return result }
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
            ($0, NameSuggestions.editDistance(Array(typed.unicodeScalars), Array($0.unicodeScalars)))
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
