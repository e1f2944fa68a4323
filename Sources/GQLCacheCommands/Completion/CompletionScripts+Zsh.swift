/// zsh: additions to the generated script.
extension CompletionScripts {
    static func backupCopies(zsh generated: String) -> String {
        generated.replacingOccurrences(
            of: "_files -g '\\''*.sqlite *.sqlite3 *.db'\\''", with: "_files -g '\\''*.sqlite *.sqlite3 *.db *.backup-<->-<->(|-<->)'\\''")
    }

    static func helpOfCommand(zsh generated: String) -> String {
        let body = "_gqlcache_help() {\n"
        let empty = "        '*:subcommands:'\n"
        guard let start = generated.range(of: body), let end = generated.range(of: empty, range: start.upperBound..<generated.endIndex)
        else { return generated }
        return generated.replacingCharacters(in: end, with: "        ':subcommand:(\(helpTopics))'\n")
    }

    /// `gqlcache CACHE` opens the REPL on the file, but the generated
    /// scripts offer only command names for the first word. A word that
    /// no command name starts completes as a file name.
    static func cacheFirst(zsh generated: String) -> String {
        let commands = "        _describe -V subcommand subcommands && ret=0\n"
        guard let found = generated.range(of: commands) else { return generated }
        var generated = generated.replacingCharacters(
            in: found,
            with: commands + """
                        # Added (see CompletionScripts.swift): 'gqlcache CACHE' opens the REPL.
                        [[ "${ret}" -ne 0 && "${PREFIX}" != -* ]] && _files -g '*.sqlite *.sqlite3 *.db *.backup-<->-<->(|-<->)' && ret=0

                """)
        // After 'gqlcache CACHE ' the words are those of 'gqlcache repl CACHE '.
        let names = GQLCache.commandNames.joined(separator: "|")
        let dispatch = "            \"_gqlcache_${words[1]}\" && ret=0\n            ;;\n"
        guard let cases = generated.range(of: "        \(names))\n"),
              let end = generated.range(of: dispatch, range: cases.upperBound..<generated.endIndex) else { return generated }
        generated.replaceSubrange(end, with: dispatch + """
                    # Added (see CompletionScripts.swift): 'gqlcache CACHE …' is 'gqlcache repl CACHE …'.
                    -*)
                        ;;
                    *)
                        words=(repl "${words[@]}")
                        (( CURRENT++ ))
                        _gqlcache_repl && ret=0
                        ;;

            """)
        return generated
    }

    /// zsh's `_arguments` takes an option's value from the next word only,
    /// unless its spec says `--name=`: after `--format=json` it completed
    /// nothing more, and after `--format=` it offered no values. Each long
    /// option that takes a value (its spec goes on past the description)
    /// is given the `=`, which lets the value come either way.
    static func valuesAfterEquals(zsh generated: String) -> String {
        generated.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let spec = line.drop(while: { $0 == " " })
            guard spec.hasPrefix("'"), !spec.hasSuffix("]'"), let open = line.firstIndex(of: "[") else { return String(line) }
            var name = line[..<open]
            if name.hasSuffix("}'") { name = name.dropLast(2) }
            guard let dashes = name.range(of: "--", options: .backwards),
                name[dashes.upperBound...].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" })
            else { return String(line) }
            return String(line[..<name.endIndex]) + "=" + String(line[name.endIndex...])
        }.joined(separator: "\n")
    }

    /// The generated zsh function turns BANG_HIST off for itself, and zsh
    /// quotes a candidate for the line as the options then in force say:
    /// a key with `!` (a review's text) went in unescaped, and at Enter zsh
    /// took it for a history event. Candidates are added with BANG_HIST as
    /// zsh has it by default, so `!` is inserted as `\!`.
    static func zsh(_ generated: String) -> String {
        let adder = "__gqlcache_complete() {\n"
        guard let start = generated.range(of: adder) else { return generated }
        return cursorIndex(zsh: generated.replacingCharacters(
            in: start, with: adder + "    setopt localoptions banghist  # added (see CompletionScripts.swift): `!` is escaped\n"))
    }

    /// The generated zsh script measured the cursor's place in the word as
    /// the length of LBUFFER's last word; in a completion widget zsh takes
    /// a word's opening quote out of LBUFFER, so in `'height(` the place
    /// came one short (`'height`, read as `height`), and in `'Zz:has s` the
    /// space split it (1). It is measured in the word as typed, which the
    /// parser cuts: its length less what follows the cursor.
    static func cursorIndex(zsh generated: String) -> String {
        let measure = #"        printf %s "${#${(z)LBUFFER}[-1]}""#
        guard generated.contains(measure) else { return generated }
        return generated.replacingOccurrences(
            of: measure,
            with: """
                        # Changed (see CompletionScripts.swift): measured in the word as typed.
                        printf %s "$(( ${#words[CURRENT]} - ${#SUFFIX} ))"
                """)
    }
}
