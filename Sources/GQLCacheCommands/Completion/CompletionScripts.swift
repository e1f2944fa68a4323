import ArgumentParser

/// The completion scripts, as `gqlcache completions SHELL` prints them and
/// completions/ holds them: swift-argument-parser's, generated from the
/// command tree, with the additions below.
enum CompletionScripts {
    static func script(for shell: CompletionShell) -> String {
        let generated = GQLCache.completionScript(for: shell)
        switch shell {
        case .bash: return backupCopies(bash: bash(helpOfCommand(bash: generated)))
        case .fish: return fish(parsedOnce(fish: cacheFirst(fish: helpOfCommand(fish: generated))))
        case .zsh: return backupCopies(zsh: zsh(cacheFirst(zsh: valuesAfterEquals(zsh: helpOfCommand(zsh: generated)))))
        default: return generated
        }
    }

    /// A cache file's `--backup` copies (`cache.sqlite.backup-20261122-120000`,
    /// `…-2`) are cache files too, given to `diff`, `info` or `doctor`: they
    /// are offered where a cache file goes, beside the `.sqlite` files (in
    /// fish, by ``filesByExtension(fish:)``).
    /// The copy's name, and no `.partial` one a copy cut short left (extglob).
    static let backupGlobBash = "*.backup-+([0-9])-+([0-9])?(-+([0-9]))"

    static func backupCopies(bash generated: String) -> String {
        generated.replacingOccurrences(of: "-fX '!*.@(sqlite|sqlite3|db)'", with: "-fX '!@(*.@(sqlite|sqlite3|db)|\(backupGlobBash))'")
    }

    static func backupCopies(zsh generated: String) -> String {
        generated.replacingOccurrences(
            of: "_files -g '\\''*.sqlite *.sqlite3 *.db'\\''", with: "_files -g '\\''*.sqlite *.sqlite3 *.db *.backup-<->-<->(|-<->)'\\''")
    }

    /// The commands `gqlcache help` explains, offered for its argument: the
    /// generated scripts offer nothing after `help`.
    static let helpTopics = GQLCache.commandNames.joined(separator: " ")

    static func helpOfCommand(bash generated: String) -> String {
        let body = "_gqlcache_help() {\n"
        let offer = "    __gqlcache_offer_flags_options -1\n"
        guard let start = generated.range(of: body), let end = generated.range(of: offer, range: start.upperBound..<generated.endIndex)
        else { return generated }
        return generated.replacingCharacters(
            in: end,
            with: offer + """
                    # Added (see CompletionScripts.swift): the command to explain.
                    if [[ "${positional_number}" -eq 1 ]]; then
                        COMPREPLY+=($(compgen -W '\(helpTopics)' -- "${cur}"))
                    fi

                """)
    }

    static func helpOfCommand(zsh generated: String) -> String {
        let body = "_gqlcache_help() {\n"
        let empty = "        '*:subcommands:'\n"
        guard let start = generated.range(of: body), let end = generated.range(of: empty, range: start.upperBound..<generated.endIndex)
        else { return generated }
        return generated.replacingCharacters(in: end, with: "        ':subcommand:(\(helpTopics))'\n")
    }

    /// fish: each command, with its description, as after `gqlcache`.
    static func helpOfCommand(fish generated: String) -> String {
        let topLevel = #"complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa '"#
        let topics = generated.split(separator: "\n").filter { $0.hasPrefix(topLevel) }.map {
            $0.replacingOccurrences(of: #""gqlcache" -eq 1"#, with: #""gqlcache help" -eq 1"#)
        }
        guard !topics.isEmpty else { return generated }
        return generated + (generated.hasSuffix("\n") ? "" : "\n") + "# Added (see CompletionScripts.swift): the command to explain.\n" + topics.joined(separator: "\n") + "\n"
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

    /// bash splits the words it completes at the characters of
    /// `COMP_WORDBREAKS`, which hold ':' and '(' as every cache key does, so
    /// `rm cache.sqlite Droid:<Tab>` would complete a word "" after the
    /// colon. The generated function is registered through a wrapper that
    /// runs it on the words as split at unquoted blanks only, with the word
    /// being completed unquoted, then trims each candidate to the part bash
    /// replaces: what follows the last unquoted break character of the word
    /// (or its opening quote). The user's COMP_WORDBREAKS is left alone.
    /// A word `--option=value` is completed as the option's value.
    ///
    /// The generated script also hands the candidates gqlcache prints (cache
    /// keys, definition names) to `compgen -W`, which expands `$(…)`, `$VAR`,
    /// quotes and backslashes in them: a key such as `Evil:$(touch x)` in a
    /// cache pulled from a device would run at a Tab. They are offered as
    /// printed instead, kept when they begin with the word typed.
    ///
    /// It also saves every shell option (`shopt -p; shopt -po`) into a
    /// RETURN trap it never removes: after the first Tab, each later
    /// `source` put all options back as they were at that Tab, replaced the
    /// user's own RETURN trap, and restoring the compat options set
    /// BASH_COMPAT. Only the options it changes are saved, and the trap
    /// removes itself.
    static func bash(_ generated: String) -> String {
        let registration = "complete -o filenames -F _gqlcache gqlcache"
        let expanding = #"__gqlcache_add_completions -W "$(__gqlcache_custom_complete "#
        guard generated.contains(registration), generated.contains(expanding), generated.contains(bashSavingAll) else { return generated }
        return generated
            .replacingOccurrences(of: bashSavingAll, with: bashSavingOwn)
            .replacingOccurrences(of: expanding, with: #"__gqlcache_add_literal_completions "$(__gqlcache_custom_complete "#)
            .replacingOccurrences(of: registration, with: bashWrapper + "\ncomplete -o filenames -F _gqlcache_whole_words gqlcache")
    }

    /// The parser's saving of every option, and what replaces it.
    static let bashSavingAll = #"""
            state="$(shopt -p;shopt -po)"
            trap "${state//$'\n'/;}" RETURN
        """#
    static let bashSavingOwn = #"""
            state="$(shopt -p extglob;shopt -po history posix)"
            trap "${state//$'\n'/;};trap - RETURN" RETURN
        """#

    static let bashWrapper = #"""
        # Added to the generated script (see CompletionScripts.swift): cache keys
        # hold ':' and '(', at which bash splits words (COMP_WORDBREAKS). This runs
        # _gqlcache on the words split at unquoted blanks only, then gives bash
        # each candidate from where its own word begins.
        # Splits ${1} at unquoted blanks, as the shell will split it: each
        # whole word is added to the caller's words, and what follows the
        # last blank, unfinished or empty, is left in the caller's word.
        __gqlcache_split_words() {
            local -r text="${1}"
            local quote='' c
            local -i i
            word=''
            for ((i = 0; i < ${#text}; i++)); do
                c="${text:${i}:1}"
                if [[ "${quote}" == '"' && "${c}" == '\' ]]; then
                    # In double quotes a backslash escapes the next character (\").
                    word+="${c}${text:$((i + 1)):1}"
                    i+=1
                elif [[ -n "${quote}" ]]; then
                    [[ "${c}" == "${quote}" ]] && quote=''
                    word+="${c}"
                elif [[ "${c}" == '\' ]]; then
                    word+="${c}${text:$((i + 1)):1}"
                    i+=1
                elif [[ "${c}" == "'" || "${c}" == '"' ]]; then
                    quote="${c}"
                    word+="${c}"
                elif [[ "${c}" == [[:space:]] ]]; then
                    [[ -n "${word}" ]] && words+=("${word}")
                    word=''
                else
                    word+="${c}"
                fi
            done
        }

        _gqlcache_whole_words() {
            local -a words=()
            local word='' quote='' c
            local -i i
            __gqlcache_split_words "${COMP_LINE:0:${COMP_POINT}}"
            # A value typed after '=' (--format=j) is completed as the word
            # after its option: bash's own word also begins after the '='.
            if [[ "${word}" =~ ^(--[[:alnum:]-]+)=(.*)$ ]]; then
                words+=("${BASH_REMATCH[1]}")
                word="${BASH_REMATCH[2]}"
            fi
            words+=("${word}")

            # Where bash's own word starts in the last one: after the last
            # unquoted break character, or after an opening quote.
            local -i start=0
            quote=''
            for ((i = 0; i < ${#word}; i++)); do
                c="${word:${i}:1}"
                if [[ "${quote}" == '"' && "${c}" == '\' ]]; then
                    i+=1
                elif [[ -n "${quote}" ]]; then
                    [[ "${c}" == "${quote}" ]] && quote=''
                elif [[ "${c}" == '\' ]]; then
                    i+=1
                elif [[ "${c}" == "'" || "${c}" == '"' ]]; then
                    quote="${c}"
                    start=$((i + 1))
                elif [[ "${COMP_WORDBREAKS}" == *"${c}"* ]]; then
                    # '@' breaks words while bash completes host names (hostcomplete,
                    # on by default), and readline keeps it in the word it begins.
                    [[ "${c}" == '@' ]] && start=${i} || start=$((i + 1))
                fi
            done

            # 'gqlcache CACHE …' is 'gqlcache repl CACHE …': after the file come
            # the REPL's options, not command names, which would be refused there.
            if [[ "${#words[@]}" -ge 3 && "${words[1]}" != -* && " \#(helpTopics) " != *" $(__gqlcache_dequote "${words[1]}") "* ]]; then
                words=("${words[0]}" repl "${words[@]:1}")
            fi
            local -ir cword="$((${#words[@]} - 1))"
            local prev=''
            [[ "${cword}" -gt 0 ]] && prev="${words[$((cword - 1))]}"
            # The words after the cursor too (what is left of the word at it
            # aside): a --document there names the operations to offer.
            local rest="${COMP_LINE:${COMP_POINT}}"
            rest="${rest#"${rest%%[[:space:]]*}"}"
            local -a before=("${words[@]}")
            words=()
            __gqlcache_split_words "${rest}"
            [[ -n "${word}" ]] && words+=("${word}")
            local -a after=("${words[@]}")
            words=("${before[@]}")
            word="${words[${cword}]}"
            local -a COMP_WORDS=("${words[@]}" "${after[@]}")
            local COMP_CWORD="${cword}"
            local __gqlcache_literal=0
            _gqlcache "${1}" "$(__gqlcache_dequote "${word}")" "${prev}"
            # A command, flag or option typed whole: the generated function
            # takes it for one already given and offers nothing, and bash
            # would not end it with a space. Asked for it less its last
            # character, it offers the word itself, which is kept.
            if [[ "${#COMPREPLY[@]}" -eq 0 && "${#word}" -gt 1 && ("${cword}" -eq 1 || "${word}" == -*) ]]; then
                local whole
                whole="$(__gqlcache_dequote "${word}")"
                COMP_WORDS[${cword}]="${word%?}"
                _gqlcache "${1}" "${whole%?}" "${prev}"
                COMP_WORDS[${cword}]="${word}"
                local -a typed=()
                for i in "${!COMPREPLY[@]}"; do
                    [[ "${COMPREPLY[${i}]}" == "${whole}" ]] && typed=("${whole}")
                done
                COMPREPLY=("${typed[@]}")
            fi
            # The first word is a command: with -o filenames, bash would take
            # 'completions' for the folder of that name and append a slash.
            # A word no command starts is a cache file ('gqlcache CACHE' opens
            # the REPL on it), or a folder on the way to one.
            if [[ "${cword}" -eq 1 ]]; then
                if [[ "${#COMPREPLY[@]}" -eq 0 && "${word}" != -* ]]; then
                    local file
                    while IFS='' read -r file; do
                        [[ -n "${file}" ]] && COMPREPLY+=("${file}")
                    done < <(shopt -s extglob; compgen -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|\#(backupGlobBash))' -- "$(__gqlcache_dequote "${word}")")
                else
                    compopt +o filenames 2>/dev/null
                fi
            fi

            local -r head="$(__gqlcache_dequote "${word:0:${start}}")"
            if [[ -n "${head}" ]]; then
                for i in "${!COMPREPLY[@]}"; do
                    COMPREPLY[${i}]="${COMPREPLY[${i}]#"${head}"}"
                done
            fi

            # bash's file name quoting leaves '$' and '`' as they are, for the
            # user's variables; in a key gqlcache printed they are text. And
            # it ends a candidate that names a folder here with '/' (a key
            # 'QUERY_ROOT' beside a folder of that name, or '~root' or
            # 'Tilde:~root', which it reads as a home folder and the shell
            # would expand unquoted). Such candidates are
            # quoted here, outside an open quote, so that the line names the key.
            # In an open quote they are escaped as that quote needs, and
            # bash closes the quote after them, without a '/'.
            local folder=0
            if [[ "${__gqlcache_literal}" == 1 ]]; then
                for i in "${!COMPREPLY[@]}"; do
                    [[ -d "${COMPREPLY[${i}]}" || "${COMPREPLY[${i}]}" == "~"* ]] && folder=1
                done
            fi
            if [[ "${folder}" == 1 && -n "${quote}" ]]; then
                compopt +o filenames 2>/dev/null
                local escaped
                for i in "${!COMPREPLY[@]}"; do
                    escaped="${COMPREPLY[${i}]}"
                    if [[ "${quote}" == "'" ]]; then
                        escaped="${escaped//\'/\'\\\'\'}"
                    else
                        escaped="${escaped//\\/\\\\}"
                        escaped="${escaped//\"/\\\"}"
                        escaped="${escaped//\$/\\\$}"
                        escaped="${escaped//\`/\\\`}"
                    fi
                    COMPREPLY[${i}]="${escaped}"
                done
            fi
            if [[ "${__gqlcache_literal}" == 1 && -z "${quote}" && ( "${folder}" == 1 || "${COMPREPLY[*]}" == *[\$\`]* ) ]]; then
                compopt +o filenames 2>/dev/null
                local quoted
                for i in "${!COMPREPLY[@]}"; do
                    printf -v quoted '%q' "${COMPREPLY[${i}]}"
                    COMPREPLY[${i}]="${quoted}"
                done
            fi
        }

        # Candidates gqlcache printed, one a line, that begin with the word being
        # completed, as they are: compgen -W would expand $(…), $VAR and quotes
        # in them, and a cache key may hold anything.
        __gqlcache_add_literal_completions() {
            local candidate
            __gqlcache_literal=1
            while IFS='' read -r candidate; do
                [[ -n "${candidate}" && "${candidate}" == "${cur}"* ]] && COMPREPLY+=("${candidate}")
            done <<< "${1}"
        }

        # A word as the shell would pass it: quotes and backslashes removed.
        __gqlcache_dequote() {
            local -r word="${1}"
            local text='' quote='' c
            local -i i
            for ((i = 0; i < ${#word}; i++)); do
                c="${word:${i}:1}"
                if [[ "${quote}" == "'" ]]; then
                    [[ "${c}" == "'" ]] && quote='' || text+="${c}"
                elif [[ "${c}" == '\' ]]; then
                    # In double quotes a backslash escapes only $ ` " \ (and a line break).
                    [[ -n "${quote}" && "${word:$((i + 1)):1}" != [\$\`\"\\] ]] && text+="${c}"
                    i+=1
                    text+="${word:${i}:1}"
                elif [[ -n "${quote}" ]]; then
                    [[ "${c}" == "${quote}" ]] && quote='' || text+="${c}"
                elif [[ "${c}" == "'" || "${c}" == '"' ]]; then
                    quote="${c}"
                else
                    text+="${c}"
                fi
            done
            printf '%s' "${text}"
        }

        """#
}
