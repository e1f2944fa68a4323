import ArgumentParser

/// A command whose keys are its trailing arguments (`rm FILE KEY…`).
protocol TakesManyKeys: ParsableCommand {
    var keys: [String] { get set }
}

extension GQLCache.Show: TakesManyKeys {}
extension GQLCache.Remove: TakesManyKeys {}

/// Long lines of keys, as `$(cat keys.txt)` or xargs give them.
///
/// ArgumentParser stores a repeated argument's words one at a time, and
/// each copies the set of places read so far: 20,000 keys took 9 s, and
/// 100,000 several minutes, before the command began. A long line whose
/// words are all the command's own options, their values, and positional
/// words is parsed with the cache file and its first key alone, and the
/// command is then given every key and checked again. Any other line
/// (help, a mistake, short flags run together) is left to the parser.
enum ManyKeysCommandLine {
    /// Lines shorter than this are parsed whole: the parser is quick there.
    static let threshold = 64

    static func parse(_ arguments: [String]) -> ParsableCommand? {
        guard arguments.count > threshold, let name = arguments.first,
              let type = GQLCache.configuration.subcommands.first(where: { $0._commandName == name }),
              type is TakesManyKeys.Type,
              let known = OptionTable.commands.names[name]
        else { return nil }
        let valueTaking = OptionTable.commands.valueTaking[name] ?? []
        var options: [String] = []
        var positionals: [String] = []
        var index = 1
        var afterSeparator = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if afterSeparator || !word.hasPrefix("-") || word == "-" {
                positionals.append(word)
                continue
            }
            if word == "--" {
                afterSeparator = true
                continue
            }
            let spelling = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            guard known.contains(spelling), !["-h", "--help"].contains(spelling) else { return nil }
            options.append(word)
            if spelling == word, valueTaking.contains(word) {
                guard index < arguments.count else { return nil }
                options.append(arguments[index])
                index += 1
            }
        }
        guard positionals.count > 2 else { return nil }
        let shortened = options + ["--"] + positionals.prefix(2)
        guard var command = (try? type.parseAsRoot(shortened)) as? TakesManyKeys else { return nil }
        command.keys = Array(positionals.dropFirst())
        do { try command.validate() } catch { return nil }
        return command
    }
}
