/// fish: additions to the generated script.
extension CompletionScripts {
    /// fish: each command, with its description, as after `gqlcache`.
    static func helpOfCommand(fish generated: String) -> String {
        let topLevel = #"complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa '"#
        let topics = generated.split(separator: "\n").filter { $0.hasPrefix(topLevel) }.map {
            $0.replacingOccurrences(of: #""gqlcache" -eq 1"#, with: #""gqlcache help" -eq 1"#)
        }
        guard !topics.isEmpty else { return generated }
        return generated + (generated.hasSuffix("\n") ? "" : "\n") + "# Added (see CompletionScripts.swift): the command to explain.\n" + topics.joined(separator: "\n") + "\n"
    }

    static func cacheFirst(fish generated: String) -> String {
        let names = GQLCache.commandNames.map { "'\($0)'" }.joined(separator: " ")
        // After 'gqlcache CACHE ' the words are those of 'gqlcache repl
        // CACHE ': the REPL's options, not command names, which would each
        // be refused there.
        let tokens = "function __gqlcache_tokens\n"
        var generated = generated
        if let found = generated.range(of: tokens) {
            generated.replaceSubrange(found, with: """
                # Added (see CompletionScripts.swift): 'gqlcache CACHE …' is 'gqlcache repl CACHE …'.
                function __gqlcache_tokens
                    # The words before the cursor (-pc), or those and the one at it (-p).
                    if not contains -- "$argv" -p -pc
                        __gqlcache_tokens_as_typed $argv
                        return
                    end
                    set -l tokens (__gqlcache_tokens_as_typed $argv)
                    # Decided from the words before the cursor: the first is a
                    # file once a word follows it.
                    set -l before (__gqlcache_tokens_as_typed -pc)
                    if test (count $before) -ge 2; and not string match -q -- '-*' $before[2]; and not contains -- $before[2] \(names)
                        set tokens $tokens[1] repl $tokens[2..]
                    end
                    printf '%s\\n' $tokens
                end

                function __gqlcache_tokens_as_typed

                """)
        }
        return generated + (generated.hasSuffix("\n") ? "" : "\n") + """
            # Added (see CompletionScripts.swift): 'gqlcache CACHE' opens the REPL, so a
            # first word that no command name starts completes as a cache file name.
            function __gqlcache_no_command_starts_with_token
                set -l token (__gqlcache_tokens -t)
                not contains -- "$token" (string sub -l (string length -- "$token") -- \(names))
            end
            complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1; and __gqlcache_no_command_starts_with_token' -f -a '(__gqlcache_complete_files sqlite sqlite3 db)'

            """
    }

    /// fish 3 refuses `commandline -C` (the cursor) where no command line is
    /// being edited, as in `complete -C "gqlcache rm cache.sqlite Droid:"`,
    /// which the generated script asks for the cursor's place in the word.
    /// There the cursor is at the end of the word, so its length is used.
    ///
    /// fish completes `./.build/release/gqlcache` with gqlcache's script,
    /// but the generated parse of the line expects the first word to be
    /// `gqlcache` itself, and offered nothing: the word is taken by its
    /// last part. (The binary called back for keys is still the one typed.)
    static func fish(_ generated: String) -> String {
        let call = "(__gqlcache_tokens -tC)"
        let parse = "    set -l unparsed_tokens (__gqlcache_tokens -pc)\n"
        guard generated.contains(call), generated.contains(parse) else { return generated }
        let generated = filesByExtension(fish: generated).replacingOccurrences(of: parse, with: parse + """
                # Added (see CompletionScripts.swift): gqlcache run by its path is gqlcache.
                set unparsed_tokens[1] (string replace -r -- '.*/' '' $unparsed_tokens[1])

            """)
        let function = """
            # Added to the generated script (see CompletionScripts.swift): the cursor's
            # place in the word being completed, also where commandline -C is refused.
            function __gqlcache_cursor_index_in_token
                if set -l index (__gqlcache_tokens -tC 2>/dev/null)
                    printf '%s\\n' $index
                else
                    set -l token (__gqlcache_tokens -t)
                    string length -- "$token"
                end
            end


            """
        let body = generated.replacingOccurrences(of: call, with: "(__gqlcache_cursor_index_in_token)")
        guard let firstRegistration = body.range(of: "complete -c 'gqlcache'") else { return generated }
        return body.replacingCharacters(in: firstRegistration.lowerBound..<firstRegistration.lowerBound, with: function)
    }

    /// fish runs the condition of every registration for each Tab, and
    /// each condition of the generated script parsed the whole line again:
    /// some 200 parses, a third of a second, more with each word. The line
    /// is now parsed once, and what the conditions ask (the commands, the
    /// number of positional words, the options given) kept for as long as
    /// the line before the cursor stays the same. Each condition still
    /// checks its own options that may be given once.
    static func parsedOnce(fish generated: String) -> String {
        let parse = "function __gqlcache_parse_tokens -S\n"
        let check = """
                    for non_repeating_flag_or_option in $non_repeating_flags_or_options
                        if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                            set non_repeating_flags_or_options_absent 1
                            break
                        end
                    end

            """
        guard generated.contains(parse), generated.contains(check) else { return generated }
        return generated
            .replacingOccurrences(of: check, with: "        set -a options_given (set -ln | string match -- '_flag_*')\n")
            .replacingOccurrences(of: parse, with: #"""
                # Added (see CompletionScripts.swift): the line is parsed once, not
                # once for each registration's condition, and the outcome kept for
                # the same line before the cursor.
                function __gqlcache_parse_tokens -S
                    set -l line (commandline -cp | string collect)
                    if not set -q __gqlcache_parsed_line; or test "$__gqlcache_parsed_line" != "$line"
                        set -l options_given
                        __gqlcache_parse_line
                        set -g __gqlcache_parsed_commands $commands
                        set -g __gqlcache_parsed_positional_index $positional_index
                        set -g __gqlcache_parsed_options $options_given
                        set -g __gqlcache_parsed_line $line
                    end
                    set commands $__gqlcache_parsed_commands
                    set positional_index $__gqlcache_parsed_positional_index
                    for option in $non_repeating_flags_or_options
                        if contains -- "_flag_$(string replace -a - _ -- $option)" $__gqlcache_parsed_options
                            set non_repeating_flags_or_options_absent 1
                            break
                        end
                    end
                end

                function __gqlcache_parse_line -S

                """#)
    }

    /// The generated fish script globs the word being completed as it is
    /// typed: in `dir\ with\ space/` or `~/` the backslashes and the `~`
    /// are taken literally, and nothing was offered. Files with the
    /// extensions, and folders, now come from fish's own file completion,
    /// which reads the word as the shell will.
    static func filesByExtension(fish generated: String) -> String {
        let globStart = #"(set -l exts "#
        let globEnd = #";for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;"#
            + #"__fish_complete_directories (commandline -t) \'\')"#
        guard generated.contains(globStart + #"\'sqlite\'"#), generated.contains(globEnd),
            let firstRegistration = generated.range(of: "complete -c 'gqlcache'")
        else { return generated }
        let function = #"""
            # Added to the generated script (see CompletionScripts.swift): the files
            # with these extensions, and folders, as fish's own file completion
            # finds them for the word as typed (escapes, quotes, ~).
            function __gqlcache_complete_files
                set -l extensions (string escape --style=regex -- $argv)
                # A cache file's --backup copies (FILE.backup-20261122-120000) are cache files too.
                # Empty text, not an empty list: fish joins a list into the words
                # around it once per element, and an empty one leaves no pattern.
                set -l backups ''
                contains -- sqlite $argv; and set backups '|\.backup-[0-9]{8}-[0-9]{6}(?:-[0-9]+)?'
                set -l files (complete -C "__gqlcache_no_such_command "(commandline -ct) | string replace -r -- '\t.*' '')
                string match -r -- '^.*(?:\.(?:'(string join '|' -- $extensions)')'$backups'|/)$' $files
            end


            """#
        return generated
            .replacingOccurrences(of: globStart, with: "(__gqlcache_complete_files ")
            .replacingOccurrences(of: globEnd, with: ")")
            .replacingCharacters(in: firstRegistration.lowerBound..<firstRegistration.lowerBound, with: function)
    }
}
