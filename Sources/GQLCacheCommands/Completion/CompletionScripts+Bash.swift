/// bash: additions to the generated script.
extension CompletionScripts {
    static func backupCopies(bash generated: String) -> String {
        generated.replacingOccurrences(of: "-fX '!*.@(sqlite|sqlite3|db)'", with: "-fX '!@(*.@(sqlite|sqlite3|db)|\(backupGlobBash))'")
    }

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
