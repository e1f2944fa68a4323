import CacheStore
import Foundation

/// Words for a command line printed for a person to run (`doctor`'s
/// repairs, `import`'s hints), quoted so that a POSIX shell reads each as
/// the one word it is.
enum ShellQuoting {
    /// `word` as one shell word: as it is when nothing in it is special to
    /// a shell, else in single quotes, or, when it holds a control
    /// character (a line break, a tab), in ANSI-C quotes (`$'a\nb'`, as
    /// bash, zsh and ksh read them) so the command stays on one line.
    static func word(_ word: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/@%+=")
        if !word.isEmpty && word.allSatisfy(plain.contains) { return word }
        guard word.unicodeScalars.contains(where: \.isControl) else {
            return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
        }
        var inside = ""
        for scalar in word.unicodeScalars {
            switch scalar {
            case "\n": inside += #"\n"#
            case "\t": inside += #"\t"#
            case "\r": inside += #"\r"#
            case "\\": inside += #"\\"#
            case "'": inside += #"\'"#
            case _ where scalar.isControl && scalar.value < 0x80: inside += "\\x" + String(format: "%02X", scalar.value)
            case _ where scalar.isControl: inside += "\\u" + String(format: "%04X", scalar.value)
            default: inside.unicodeScalars.append(scalar)
            }
        }
        return "$'" + inside + "'"
    }

    /// A file named on a suggested command line: a shell word, and
    /// `./-name` for a relative name that would be read as an option.
    static func file(_ path: String) -> String {
        word(path.hasPrefix("-") ? "./" + path : path)
    }

    /// Keys as shell words for a command's arguments, after `--` when one
    /// starts with '-' (it would be read as an option).
    static func keys(_ keys: [CacheKey]) -> String {
        let endOfOptions = keys.contains { $0.rawValue.hasPrefix("-") } ? "-- " : ""
        return endOfOptions + keys.map { word($0.rawValue) }.joined(separator: " ")
    }

    /// The rm that removes `key` from the cache at `path`, for a person to run.
    static func removal(of key: CacheKey, in path: String) -> String {
        "gqlcache rm \(file(path)) \(keys([key]))"
    }
}
