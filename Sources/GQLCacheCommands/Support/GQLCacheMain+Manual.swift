import Foundation

/// The help dump the manual is generated from (Scripts/update-generated.sh).
extension GQLCacheMain {
    /// Set by Scripts/update-generated.sh while the manual is generated:
    /// the generator keeps only ASCII characters of the help it reads, so
    /// '→ KEY' would reach the page as ' KEY'. Each other character then
    /// comes as a placeholder (`GQLCACHEU2192X`) that the script turns into
    /// the roff escape (`\[u2192]`).
    static let manualDumpVariable = "GQLCACHE_MANUAL_PLACEHOLDERS"

    /// The help dump with each option's default at the end of its text,
    /// as `--help` shows it (the manual's generator leaves defaults out),
    /// unless the text already says what the default is. Anything else
    /// comes back unchanged.
    static func statingDefaults(_ dump: String) -> String {
        func adding(_ command: [String: Any]) -> [String: Any] {
            var command = command
            if let arguments = command["arguments"] as? [[String: Any]] {
                command["arguments"] = arguments.map { argument in
                    var argument = argument
                    if argument["kind"] as? String == "option", let value = argument["defaultValue"] as? String, !value.isEmpty,
                        let abstract = argument["abstract"] as? String, !abstract.contains("default") {
                        argument["abstract"] = abstract + " (default: \(value))"
                    }
                    return argument
                }
            }
            if let subcommands = command["subcommands"] as? [[String: Any]] { command["subcommands"] = subcommands.map(adding) }
            return command
        }
        guard var tool = (try? JSONSerialization.jsonObject(with: Data(dump.utf8))) as? [String: Any],
            let command = tool["command"] as? [String: Any]
        else { return dump }
        tool["command"] = adding(command)
        guard let data = try? JSONSerialization.data(withJSONObject: tool, options: [.sortedKeys]) else { return dump }
        return String(decoding: data, as: UTF8.self)
    }

    static func placeholdingNonASCII(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "GQLCACHEU" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "X"
            }
        }
        return result
    }
}
