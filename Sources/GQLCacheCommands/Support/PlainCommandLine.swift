import ArgumentParser

/// The words of a plain command line, read without the argument parser.
///
/// The parser builds a command's options by reflection at every start, and
/// each first lookup of a protocol conformance scans all of the
/// executable's conformance records: about 2.5 ms, as long as counting
/// 30,000 keys. A command that scripts run in loops (`keys`) reads its
/// plain lines here: each word is one of the names it declares, a value
/// right after an option (`--mode prefix`) or joined to it
/// (`--mode=prefix`), or a positional argument. Anything else (`--`, help,
/// short flags run together, an unknown word, a flag or a single-valued
/// option given twice, an option's missing value, a value that looks like
/// an option) makes the initializer fail, and the parser then reads the
/// line as it reads every other: with its messages for the mistakes.
struct PlainCommandLine {
    enum Kind {
        /// Takes no value.
        case flag
        /// Takes one value, which must not start with '-'; given at most once.
        case option
        /// As `option`, given any number of times.
        case repeatableOption
        /// Takes the next word as its value whatever it is (`parsing: .unconditional`).
        case unconditionalOption
    }

    /// The words that are not options or their values, in order.
    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// `names`: each spelling the command takes (`--quiet`, `-q`), with
    /// its kind and the name it is read by (`--quiet` for both).
    init?(_ words: ArraySlice<String>, names: [String: (kind: Kind, readAs: String)]) {
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            guard word.hasPrefix("-") else {
                positionals.append(word)
                continue
            }
            let joined = word.hasPrefix("--") ? word.firstIndex(of: "=") : nil
            let spelling = joined.map { String(word[..<$0]) } ?? word
            guard let (kind, name) = names[spelling] else { return nil }
            if kind == .flag {
                guard joined == nil, flags.insert(name).inserted else { return nil }
                continue
            }
            let value: String
            if let joined {
                value = String(word[word.index(after: joined)...])
            } else {
                guard index < words.endIndex else { return nil }
                value = words[index]
                index += 1
                if kind != .unconditionalOption && value.hasPrefix("-") { return nil }
            }
            if kind != .repeatableOption && values[name] != nil { return nil }
            values[name, default: []].append(value)
        }
    }

    /// Whether the flag read as `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The values of the option read as `name`, in order.
    func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of the option read as `name`, as the parser converts it;
    /// nil when it was not given. Throws when the value does not convert.
    func value<Value: ExpressibleByArgument>(_ name: String, as type: Value.Type) throws -> Value? {
        guard let text = values[name]?.last else { return nil }
        guard let value = Value(argument: text) else { throw NotPlain() }
        return value
    }

    /// A line the parser must read.
    struct NotPlain: Error {}
}
