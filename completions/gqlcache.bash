#!/bin/bash

__gqlcache_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__gqlcache_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__gqlcache_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__gqlcache_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_gqlcache() {
    local state
    state="$(shopt -p extglob;shopt -po history posix)"
    trap "${state//$'\n'/;};trap - RETURN" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __gqlcache_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    info|keys|show|read|write|update|rm|clear|grep|diff|export|import|doctor|gc|stats|refs|repl|completions|help)
        # Offer subcommand argument completions
        "_gqlcache_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'info keys show read write update rm clear grep diff export import doctor gc stats refs repl completions help' -- "${cur}"))
        ;;
    esac
}

_gqlcache_info() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--format --busy-timeout --color --top)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--top')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_keys() {
    repeating_flags=()
    non_repeating_flags=(--count -z -Z --null --quiet -q --no-pager --version -h --help)
    repeating_options=(--type)
    non_repeating_options=(--mode --limit --format --busy-timeout --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--mode')
        __gqlcache_add_completions -W 'apollo'$'\n''literal'$'\n''prefix'$'\n''glob'$'\n''regex'
        return
        ;;
    '--type')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion keys -- --type "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--limit')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_show() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--depth --format --busy-timeout --color)
    __gqlcache_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--depth')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    *)
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion show -- positional@1 "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gqlcache_read() {
    repeating_flags=()
    non_repeating_flags=(--apple-floats --partial --quiet -q --no-pager --version -h --help)
    repeating_options=(--document --text --schema --var)
    non_repeating_options=(--apollo-config --variables --variables-file --fragment --key --format --busy-timeout --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--document')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(graphql|gql)'
        return
        ;;
    '--text')
        return
        ;;
    '--schema')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(graphqls|graphql|sdl|json)'
        return
        ;;
    '--apollo-config')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--variables')
        return
        ;;
    '--variables-file')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--var')
        return
        ;;
    '--fragment')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion read -- --fragment "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--key')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion read -- --key "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    2)
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion read -- positional@1 "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gqlcache_write() {
    repeating_flags=()
    non_repeating_flags=(--apple-floats --create --dry-run --backup --quiet -q --version -h --help)
    repeating_options=(--document --text --schema --var --key-field --key-group)
    non_repeating_options=(--apollo-config --variables --variables-file --response --fragment --key --busy-timeout --format --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--document')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(graphql|gql)'
        return
        ;;
    '--text')
        return
        ;;
    '--schema')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(graphqls|graphql|sdl|json)'
        return
        ;;
    '--apollo-config')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--variables')
        return
        ;;
    '--variables-file')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--var')
        return
        ;;
    '--response')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--fragment')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion write -- --fragment "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--key')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion write -- --key "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--key-field')
        return
        ;;
    '--key-group')
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    2)
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion write -- positional@1 "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gqlcache_update() {
    repeating_flags=()
    non_repeating_flags=(--apple-floats --edit --dry-run --backup --quiet -q --version -h --help)
    repeating_options=(--document --text --schema --var --set --key-field --key-group)
    non_repeating_options=(--apollo-config --variables --variables-file --fragment --key --data --busy-timeout --format --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--document')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(graphql|gql)'
        return
        ;;
    '--text')
        return
        ;;
    '--schema')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(graphqls|graphql|sdl|json)'
        return
        ;;
    '--apollo-config')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--variables')
        return
        ;;
    '--variables-file')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--var')
        return
        ;;
    '--fragment')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion update -- --fragment "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--key')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion update -- --key "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--set')
        return
        ;;
    '--data')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--key-field')
        return
        ;;
    '--key-group')
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    2)
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion update -- positional@1 "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gqlcache_rm() {
    repeating_flags=()
    non_repeating_flags=(--cascade --clean-references --dry-run --force -f --backup --quiet -q --version -h --help)
    repeating_options=(--type)
    non_repeating_options=(--match --mode --busy-timeout --format --color)
    __gqlcache_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--match')
        return
        ;;
    '--mode')
        __gqlcache_add_completions -W 'apollo'$'\n''literal'$'\n''prefix'$'\n''glob'$'\n''regex'
        return
        ;;
    '--type')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion rm -- --type "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    *)
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion rm -- positional@1 "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gqlcache_clear() {
    repeating_flags=()
    non_repeating_flags=(--force -f --vacuum --dry-run --backup --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--busy-timeout --format --color)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--busy-timeout')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_grep() {
    repeating_flags=()
    non_repeating_flags=(--regex -i --ignore-case --keys-only -Z -z --null --quiet -q --no-pager --version -h --help)
    repeating_options=(--field)
    non_repeating_options=(--format --busy-timeout --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--field')
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion grep -- --field "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_diff() {
    repeating_flags=()
    non_repeating_flags=(--keys-only --summary --quiet -q --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--format --busy-timeout --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    2)
        __gqlcache_add_completions -f
        return
        ;;
    esac
}

_gqlcache_export() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--busy-timeout --color --format -o --output)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'jsonl'$'\n''apollo-client'
        return
        ;;
    '-o'|'--output')
        __gqlcache_add_completions -o plusdirs -fX '!*.@(jsonl|json)'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_import() {
    repeating_flags=()
    non_repeating_flags=(--create --dry-run --backup --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--input-format --busy-timeout --format --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--input-format')
        __gqlcache_add_completions -W 'auto'$'\n''jsonl'$'\n''apollo-client'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    2)
        __gqlcache_add_completions -o plusdirs -fX '!*.@(jsonl|json)'
        return
        ;;
    esac
}

_gqlcache_doctor() {
    repeating_flags=()
    non_repeating_flags=(--full --quiet -q --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--format --busy-timeout --color)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_gc() {
    repeating_flags=()
    non_repeating_flags=(--unreachable --dangling --stray-rows --all --vacuum --dry-run --force -f --backup --quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--busy-timeout --format --color)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--busy-timeout')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_stats() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--top --format --busy-timeout --color)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--top')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_refs() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --no-pager --version -h --help)
    repeating_options=()
    non_repeating_options=(--depth --format --busy-timeout --color)
    __gqlcache_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--depth')
        return
        ;;
    '--format')
        __gqlcache_add_completions -W 'text'$'\n''json'$'\n''jsonl'
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    2)
        __gqlcache_add_literal_completions "$(__gqlcache_custom_complete ---completion refs -- positional@1 "${COMP_CWORD}" "$(__gqlcache_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_gqlcache_repl() {
    repeating_flags=()
    non_repeating_flags=(--bail --quiet -q --version -h --help)
    repeating_options=(-c)
    non_repeating_options=(--busy-timeout --color)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '-c')
        return
        ;;
    '--busy-timeout')
        return
        ;;
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))'
        return
        ;;
    esac
}

_gqlcache_completions() {
    repeating_flags=()
    non_repeating_flags=(--quiet -q --version -h --help)
    repeating_options=()
    non_repeating_options=(--color)
    __gqlcache_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--color')
        __gqlcache_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __gqlcache_add_completions -W 'bash'$'\n''zsh'$'\n''fish'
        return
        ;;
    esac
}

_gqlcache_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __gqlcache_offer_flags_options -1
    # Added (see CompletionScripts.swift): the command to explain.
    if [[ "${positional_number}" -eq 1 ]]; then
        COMPREPLY+=($(compgen -W 'info keys show read write update rm clear grep diff export import doctor gc stats refs repl completions help' -- "${cur}"))
    fi
}

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
    if [[ "${#words[@]}" -ge 3 && "${words[1]}" != -* && " info keys show read write update rm clear grep diff export import doctor gc stats refs repl completions help " != *" $(__gqlcache_dequote "${words[1]}") "* ]]; then
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
            done < <(shopt -s extglob; compgen -o plusdirs -fX '!@(*.@(sqlite|sqlite3|db)|*.backup-+([0-9])-+([0-9])?(-+([0-9])))' -- "$(__gqlcache_dequote "${word}")")
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

complete -o filenames -F _gqlcache_whole_words gqlcache
