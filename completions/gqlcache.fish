function __gqlcache_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __gqlcache_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __gqlcache_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __gqlcache_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

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
    set -l unparsed_tokens (__gqlcache_tokens -pc)
    # Added (see CompletionScripts.swift): gqlcache run by its path is gqlcache.
    set unparsed_tokens[1] (string replace -r -- '.*/' '' $unparsed_tokens[1])
    switch $unparsed_tokens[1]
    case 'gqlcache'
        __gqlcache_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'info'
            __gqlcache_parse_subcommand 1 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'top=' 'version' 'h/help'
        case 'keys'
            __gqlcache_parse_subcommand 2 'mode=' 'type=+' 'limit=' 'count' 'z/null' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'show'
            __gqlcache_parse_subcommand -r 2 'depth=' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'read'
            __gqlcache_parse_subcommand 2 'document=+' 'text=+' 'schema=+' 'apollo-config=' 'variables=' 'variables-file=' 'var=+' 'apple-floats' 'fragment=' 'key=' 'partial' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'write'
            __gqlcache_parse_subcommand 2 'document=+' 'text=+' 'schema=+' 'apollo-config=' 'variables=' 'variables-file=' 'var=+' 'apple-floats' 'response=' 'fragment=' 'key=' 'key-field=+' 'key-group=+' 'create' 'dry-run' 'busy-timeout=' 'backup' 'format=' 'color=' 'q/quiet' 'version' 'h/help'
        case 'update'
            __gqlcache_parse_subcommand 2 'document=+' 'text=+' 'schema=+' 'apollo-config=' 'variables=' 'variables-file=' 'var=+' 'apple-floats' 'fragment=' 'key=' 'set=+' 'data=' 'edit' 'key-field=+' 'key-group=+' 'dry-run' 'busy-timeout=' 'backup' 'format=' 'color=' 'q/quiet' 'version' 'h/help'
        case 'rm'
            __gqlcache_parse_subcommand -r 2 'match=' 'mode=' 'type=+' 'cascade' 'clean-references' 'dry-run' 'f/force' 'busy-timeout=' 'backup' 'format=' 'color=' 'q/quiet' 'version' 'h/help'
        case 'clear'
            __gqlcache_parse_subcommand 1 'f/force' 'vacuum' 'dry-run' 'busy-timeout=' 'backup' 'format=' 'color=' 'q/quiet' 'version' 'h/help'
        case 'grep'
            __gqlcache_parse_subcommand 2 'regex' 'i/ignore-case' 'field=+' 'keys-only' 'Z/null' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'diff'
            __gqlcache_parse_subcommand 2 'keys-only' 'summary' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'export'
            __gqlcache_parse_subcommand 1 'busy-timeout=' 'color=' 'q/quiet' 'format=' 'o/output=' 'version' 'h/help'
        case 'import'
            __gqlcache_parse_subcommand 2 'input-format=' 'create' 'dry-run' 'busy-timeout=' 'backup' 'format=' 'color=' 'q/quiet' 'version' 'h/help'
        case 'doctor'
            __gqlcache_parse_subcommand 1 'full' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'gc'
            __gqlcache_parse_subcommand 1 'unreachable' 'dangling' 'stray-rows' 'all' 'vacuum' 'dry-run' 'f/force' 'busy-timeout=' 'backup' 'format=' 'color=' 'q/quiet' 'version' 'h/help'
        case 'stats'
            __gqlcache_parse_subcommand 1 'top=' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'refs'
            __gqlcache_parse_subcommand 2 'depth=' 'format=' 'busy-timeout=' 'color=' 'q/quiet' 'no-pager' 'version' 'h/help'
        case 'repl'
            __gqlcache_parse_subcommand 1 'c=+' 'bail' 'busy-timeout=' 'color=' 'q/quiet' 'version' 'h/help'
        case 'completions'
            __gqlcache_parse_subcommand 1 'color=' 'q/quiet' 'version' 'h/help'
        case 'help'
            __gqlcache_parse_subcommand -r 1 'version'
        end
    end
end

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
    if test (count $before) -ge 2; and not string match -q -- '-*' $before[2]; and not contains -- $before[2] 'info' 'keys' 'show' 'read' 'write' 'update' 'rm' 'clear' 'grep' 'diff' 'export' 'import' 'doctor' 'gc' 'stats' 'refs' 'repl' 'completions' 'help'
        set tokens $tokens[1] repl $tokens[2..]
    end
    printf '%s\n' $tokens
end

function __gqlcache_tokens_as_typed
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __gqlcache_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        set -a options_given (set -ln | string match -- '_flag_*')
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __gqlcache_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __gqlcache_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__gqlcache_tokens -p)
    if test -z "$(__gqlcache_tokens -t)"
        set -l index (count (__gqlcache_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

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

# Added to the generated script (see CompletionScripts.swift): the cursor's
# place in the word being completed, also where commandline -C is refused.
function __gqlcache_cursor_index_in_token
    if set -l index (__gqlcache_tokens -tC 2>/dev/null)
        printf '%s\n' $index
    else
        set -l token (__gqlcache_tokens -t)
        string length -- "$token"
    end
end

complete -c 'gqlcache' -f
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'info' -d 'Show the format, journal mode, size, roots, record counts per type and the largest records.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'keys' -d 'List record keys, optionally filtered by a pattern and a __typename.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'show' -d 'Show records as trees, with references as links to their keys.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'read' -d 'Read a query, a mutation\'s stored result or a fragment exactly as Apollo iOS would.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'write' -d 'Normalize a network response for an operation into the cache, as Apollo iOS stores it.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'update' -d 'Change cached data through a local cache mutation, as Apollo iOS\'s update does.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'rm' -d 'Remove records by key (removeObject(for:)), by pattern (removeObjects(matching:)) or by type.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'clear' -d 'Remove every record (Apollo\'s clearCache()); --vacuum also shrinks the file.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'grep' -d 'Find the records whose field values contain a string or match a regular expression.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'diff' -d 'Show the records added, removed and changed between two cache files, field by field.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'export' -d 'Write the whole cache as JSON Lines or as Apollo Client\'s cache.extract() object.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'import' -d 'Merge the records of an export (JSON Lines or Apollo Client\'s extract()) into a cache file.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'doctor' -d 'Check a cache for damaged records, dangling references, unreachable records and other problems.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'gc' -d 'Remove unreachable records, dangling references and stray rows, then optionally VACUUM.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'stats' -d 'Count records and bytes per __typename, root field and key prefix; list the largest records.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'refs' -d 'Show a record\'s references (field → key) and the records that reference it.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'repl' -d 'Explore a cache at a prompt: every command without the file, cd through references, GraphQL typed in.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'completions' -d 'Print the completion script for bash, zsh or fish.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache info" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" top' -l 'top' -d 'How many of the largest records to list.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache info" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache keys" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" mode' -l 'mode' -d 'How PATTERN matches: apollo (default), literal, prefix, glob or regex.' -rfka 'apollo literal prefix glob regex'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys"' -l 'type' -d 'Only records whose __typename is this; repeat for several.' -rfka '(__gqlcache_custom_completion ---completion keys -- --type (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" limit' -l 'limit' -d 'List at most this many keys.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" count' -l 'count' -d 'Print only how many keys match.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" Z null z' -s 'z' -s 'Z' -l 'null' -d 'End each key with a NUL, not a newline, and never quote it: for xargs -0 (as git\'s -z, find\'s -print0).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache keys" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache show" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache show" -ge 2' -fka '(__gqlcache_custom_completion ---completion show -- positional@1 (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" depth' -l 'depth' -d 'Expand referenced records this many levels deep (at most 1000).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache show" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache read" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache read" -eq 2' -fka '(__gqlcache_custom_completion ---completion read -- positional@1 (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read"' -l 'document' -d 'A GraphQL document with operations and fragments (repeatable).' -rfa '(__gqlcache_complete_files \'graphql\' \'gql\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read"' -l 'text' -d 'GraphQL text given inline, e.g. \'{ hero { name } }\' (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read"' -l 'schema' -d 'The schema, as SDL or an introspection result (schema.json): validates documents, resolves interfaces and unions, coerces variables; repeat it for a schema in several files (extensions). With --apollo-config, used instead of the config\'s schema.' -rfa '(__gqlcache_complete_files \'graphqls\' \'graphql\' \'sdl\' \'json\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" apollo-config' -l 'apollo-config' -d 'An Apollo iOS codegen config (apollo-codegen-config.json): the schema and every operation and fragment its input search paths find, relative to its folder; --document and --text add to them.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" variables' -l 'variables' -d 'Variables as a JSON object; its members win over those of --variables-file.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" variables-file' -l 'variables-file' -d 'Variables from a file holding a JSON object; - reads piped standard input.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read"' -l 'var' -d 'One variable as name=value (or $name=value); the value is JSON when it parses as JSON, else a string; a number or boolean typed for a variable declared String or ID (or a list of them) stays that text (repeatable; wins over --variables and --variables-file).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" apple-floats' -l 'apple-floats' -d 'Write a Float inside a list or an input object in field cache keys as Apollo on Apple platforms does (2 and 0.3, where Apollo\'s Linux builds write 2.0 and 0.30000000000000004): for a cache from a device or simulator.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" fragment' -l 'fragment' -d 'Read this fragment instead of an operation (needs --key).' -rfka '(__gqlcache_custom_completion ---completion read -- --fragment (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" key' -l 'key' -d 'The record a fragment is read from, e.g. \'Droid:2001\'.' -rfka '(__gqlcache_custom_completion ---completion read -- --key (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" partial' -l 'partial' -d 'Print what was found, with every miss in "errors" and null in its place (also in a non-null field: no null propagates up, so nothing found is hidden), instead of stopping at the first miss.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache read" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache write" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache write" -eq 2' -fka '(__gqlcache_custom_completion ---completion write -- positional@1 (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write"' -l 'document' -d 'A GraphQL document with operations and fragments (repeatable).' -rfa '(__gqlcache_complete_files \'graphql\' \'gql\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write"' -l 'text' -d 'GraphQL text given inline, e.g. \'{ hero { name } }\' (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write"' -l 'schema' -d 'The schema, as SDL or an introspection result (schema.json): validates documents, resolves interfaces and unions, coerces variables; repeat it for a schema in several files (extensions). With --apollo-config, used instead of the config\'s schema.' -rfa '(__gqlcache_complete_files \'graphqls\' \'graphql\' \'sdl\' \'json\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" apollo-config' -l 'apollo-config' -d 'An Apollo iOS codegen config (apollo-codegen-config.json): the schema and every operation and fragment its input search paths find, relative to its folder; --document and --text add to them.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" variables' -l 'variables' -d 'Variables as a JSON object; its members win over those of --variables-file.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" variables-file' -l 'variables-file' -d 'Variables from a file holding a JSON object; - reads piped standard input.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write"' -l 'var' -d 'One variable as name=value (or $name=value); the value is JSON when it parses as JSON, else a string; a number or boolean typed for a variable declared String or ID (or a list of them) stays that text (repeatable; wins over --variables and --variables-file).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" apple-floats' -l 'apple-floats' -d 'Write a Float inside a list or an input object in field cache keys as Apollo on Apple platforms does (2 and 0.3, where Apollo\'s Linux builds write 2.0 and 0.30000000000000004): for a cache from a device or simulator.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" response' -l 'response' -d 'The response as JSON: {"data": …}, the data object itself, or a later payload of a deferred response ({"incremental": …}); - reads piped standard input.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" fragment' -l 'fragment' -d 'Write the data as this fragment instead of an operation (needs --key).' -rfka '(__gqlcache_custom_completion ---completion write -- --fragment (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" key' -l 'key' -d 'The record a fragment\'s data is written to, e.g. \'Droid:2001\'.' -rfka '(__gqlcache_custom_completion ---completion write -- --key (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write"' -l 'key-field' -d 'Objects of TYPE are keyed TYPE:value by these fields (separated by commas or, as in @typePolicy, spaces), like the app\'s cache key configuration (values are not escaped, as CacheKeyInfo(jsonValue:) does not escape them; the schema\'s @typePolicy escapes \\ and +, and keys an object whose data lacks these fields, as Apollo falls back to it); with --schema TYPE may be an interface or union, for all its types, each keyed by its own name unless --key-group gives a group; TYPE * means every type that has them (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write"' -l 'key-group' -d 'Objects the --key-field entry for TYPE keys are keyed GROUP:value, as the app\'s CacheKeyInfo(id:uniqueKeyGroup:) keys them; GROUP is TYPE when left out: with --key-field Character=id, --key-group Character keys a Droid Character:2001 (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" create' -l 'create' -d 'Create the cache file (Apollo\'s current layout) when it does not exist or is empty (0 bytes); not beside a -journal or -wal file an earlier database left.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" dry-run' -l 'dry-run' -d 'Print what would change without writing.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" backup' -l 'backup' -d 'Before changing the file, copy it beside itself (through a symbolic link, beside the file it names) as FILE.backup-YYYYMMDD-HHMMSS (SQLite\'s online backup: consistent while the app has it open; an existing file is never overwritten: -2, -3, … follow a name taken) and print the copy\'s path on standard error (with --format json, also as the document\'s "backup" member; with jsonl, the summary line\'s, for rm, gc, clear and import, which print one).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache write" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache update" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache update" -eq 2' -fka '(__gqlcache_custom_completion ---completion update -- positional@1 (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update"' -l 'document' -d 'A GraphQL document with operations and fragments (repeatable).' -rfa '(__gqlcache_complete_files \'graphql\' \'gql\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update"' -l 'text' -d 'GraphQL text given inline, e.g. \'{ hero { name } }\' (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update"' -l 'schema' -d 'The schema, as SDL or an introspection result (schema.json): validates documents, resolves interfaces and unions, coerces variables; repeat it for a schema in several files (extensions). With --apollo-config, used instead of the config\'s schema.' -rfa '(__gqlcache_complete_files \'graphqls\' \'graphql\' \'sdl\' \'json\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" apollo-config' -l 'apollo-config' -d 'An Apollo iOS codegen config (apollo-codegen-config.json): the schema and every operation and fragment its input search paths find, relative to its folder; --document and --text add to them.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" variables' -l 'variables' -d 'Variables as a JSON object; its members win over those of --variables-file.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" variables-file' -l 'variables-file' -d 'Variables from a file holding a JSON object; - reads piped standard input.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update"' -l 'var' -d 'One variable as name=value (or $name=value); the value is JSON when it parses as JSON, else a string; a number or boolean typed for a variable declared String or ID (or a list of them) stays that text (repeatable; wins over --variables and --variables-file).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" apple-floats' -l 'apple-floats' -d 'Write a Float inside a list or an input object in field cache keys as Apollo on Apple platforms does (2 and 0.3, where Apollo\'s Linux builds write 2.0 and 0.30000000000000004): for a cache from a device or simulator.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" fragment' -l 'fragment' -d 'Update through this fragment instead of an operation (needs --key).' -rfka '(__gqlcache_custom_completion ---completion update -- --fragment (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" key' -l 'key' -d 'The record the fragment is read from and written to, e.g. \'Droid:2001\'.' -rfka '(__gqlcache_custom_completion ---completion update -- --key (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update"' -l 'set' -d 'Set the value at a path of response names and list indexes, e.g. hero.friends.0.name=Luke; the value is JSON when it parses as JSON, else a string, and a number or true/false where the data holds a string stays text (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" data' -l 'data' -d 'The whole new data of the selection, as JSON; - reads piped standard input.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" edit' -l 'edit' -d 'Edit the current data in $VISUAL or $EDITOR and write it back when saved.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update"' -l 'key-field' -d 'Objects of TYPE are keyed TYPE:value by these fields (separated by commas or, as in @typePolicy, spaces), like the app\'s cache key configuration (values are not escaped, as CacheKeyInfo(jsonValue:) does not escape them; the schema\'s @typePolicy escapes \\ and +, and keys an object whose data lacks these fields, as Apollo falls back to it); with --schema TYPE may be an interface or union, for all its types, each keyed by its own name unless --key-group gives a group; TYPE * means every type that has them (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update"' -l 'key-group' -d 'Objects the --key-field entry for TYPE keys are keyed GROUP:value, as the app\'s CacheKeyInfo(id:uniqueKeyGroup:) keys them; GROUP is TYPE when left out: with --key-field Character=id, --key-group Character keys a Droid Character:2001 (repeatable).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" dry-run' -l 'dry-run' -d 'Print what would change without writing.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" backup' -l 'backup' -d 'Before changing the file, copy it beside itself (through a symbolic link, beside the file it names) as FILE.backup-YYYYMMDD-HHMMSS (SQLite\'s online backup: consistent while the app has it open; an existing file is never overwritten: -2, -3, … follow a name taken) and print the copy\'s path on standard error (with --format json, also as the document\'s "backup" member; with jsonl, the summary line\'s, for rm, gc, clear and import, which print one).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache update" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache rm" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache rm" -ge 2' -fka '(__gqlcache_custom_completion ---completion rm -- positional@1 (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" match' -l 'match' -d 'Remove every record whose key matches this pattern.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" mode' -l 'mode' -d 'How --match matches: apollo (default), literal, prefix, glob or regex.' -rfka 'apollo literal prefix glob regex'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm"' -l 'type' -d 'Remove every record whose __typename is this type; repeat for several.' -rfka '(__gqlcache_custom_completion ---completion rm -- --type (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" cascade' -l 'cascade' -d 'Also remove every record reachable only through the given keys (never one a root or another record still reaches).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" clean-references' -l 'clean-references' -d 'Drop the references to the removed records (the field, or the list element) instead of leaving them dangling.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" dry-run' -l 'dry-run' -d 'List what would be removed, and the references that would dangle, without removing.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" f force' -l 'force' -s 'f' -d 'Remove without asking (removal by pattern, type or cascade asks on a terminal, and so does every removal at the REPL\'s prompt).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" backup' -l 'backup' -d 'Before changing the file, copy it beside itself (through a symbolic link, beside the file it names) as FILE.backup-YYYYMMDD-HHMMSS (SQLite\'s online backup: consistent while the app has it open; an existing file is never overwritten: -2, -3, … follow a name taken) and print the copy\'s path on standard error (with --format json, also as the document\'s "backup" member; with jsonl, the summary line\'s, for rm, gc, clear and import, which print one).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache rm" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache clear" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" f force' -l 'force' -s 'f' -d 'Clear without asking.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" vacuum' -l 'vacuum' -d 'Rebuild the file afterwards so it gives the freed space back.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" dry-run' -l 'dry-run' -d 'Say how many records would be removed, without removing them.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" backup' -l 'backup' -d 'Before changing the file, copy it beside itself (through a symbolic link, beside the file it names) as FILE.backup-YYYYMMDD-HHMMSS (SQLite\'s online backup: consistent while the app has it open; an existing file is never overwritten: -2, -3, … follow a name taken) and print the copy\'s path on standard error (with --format json, also as the document\'s "backup" member; with jsonl, the summary line\'s, for rm, gc, clear and import, which print one).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache clear" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache grep" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" regex' -l 'regex' -d 'VALUE is an ICU regular expression, found anywhere in the value.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" i ignore-case' -s 'i' -l 'ignore-case' -d 'Match regardless of case.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep"' -l 'field' -d 'Search only this field, with or without arguments: \'height\' searches height(unit:FOOT) (repeatable).' -rfka '(__gqlcache_custom_completion ---completion grep -- --field (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" keys-only' -l 'keys-only' -d 'Print each matching record\'s key once, not its matches.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" Z null z' -s 'Z' -s 'z' -l 'null' -d 'With --keys-only, end each key with a NUL, not a newline, and never quote it: for xargs -0 (as grep -lZ, git grep -z).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" q quiet' -l 'quiet' -s 'q' -d 'Print nothing but errors, and stop at the first match: the status says whether anything matched.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache grep" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache diff" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache diff" -eq 2' -F
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" keys-only' -l 'keys-only' -d 'List only the keys of the records that differ, not their fields.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" summary' -l 'summary' -d 'Print only the counts.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache diff" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache export" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache export" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache export" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache export" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache export" format' -l 'format' -d 'The form: jsonl (one record per line) or apollo-client (Apollo Client\'s cache.extract() object).' -rfka 'jsonl apollo-client'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache export" o output' -s 'o' -l 'output' -d 'Write to this file (replaced when the export is complete; never an SQLite database, nor one\'s -wal, -shm or -journal) instead of standard output; - is standard output.' -rfa '(__gqlcache_complete_files \'jsonl\' \'json\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache export" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache import" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache import" -eq 2' -fa '(__gqlcache_complete_files \'jsonl\' \'json\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" input-format' -l 'input-format' -d 'The input\'s form: auto (default), jsonl, or apollo-client.' -rfka 'auto jsonl apollo-client'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" create' -l 'create' -d 'Create the cache file (Apollo\'s current layout) when it does not exist or is empty (0 bytes); not beside a -journal or -wal file an earlier database left.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" dry-run' -l 'dry-run' -d 'List what would change without writing.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" backup' -l 'backup' -d 'Before changing the file, copy it beside itself (through a symbolic link, beside the file it names) as FILE.backup-YYYYMMDD-HHMMSS (SQLite\'s online backup: consistent while the app has it open; an existing file is never overwritten: -2, -3, … follow a name taken) and print the copy\'s path on standard error (with --format json, also as the document\'s "backup" member; with jsonl, the summary line\'s, for rm, gc, clear and import, which print one).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache doctor" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" full' -l 'full' -d 'Run SQLite\'s PRAGMA integrity_check, which also compares every index with its table, instead of quick_check (doctor runs it anyway when committed changes wait in the -wal file).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache doctor" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache gc" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" unreachable' -l 'unreachable' -d 'Remove records that no root reaches.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" dangling' -l 'dangling' -d 'Drop references to keys that have no record (the field, or the list element).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" stray-rows' -l 'stray-rows' -d 'Delete the rows Apollo never finds: without a key, or with a key that is a BLOB or not UTF-8 (doctor lists them by _id).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" all' -l 'all' -d '--unreachable, --dangling and --stray-rows.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" vacuum' -l 'vacuum' -d 'Afterwards, rebuild the file with VACUUM to give free pages back to the file system.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" dry-run' -l 'dry-run' -d 'List what would change, without changing anything.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" f force' -l 'force' -s 'f' -d 'Collect without asking (gc asks on a terminal, and needs --force otherwise, as rm --match does).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" backup' -l 'backup' -d 'Before changing the file, copy it beside itself (through a symbolic link, beside the file it names) as FILE.backup-YYYYMMDD-HHMMSS (SQLite\'s online backup: consistent while the app has it open; an existing file is never overwritten: -2, -3, … follow a name taken) and print the copy\'s path on standard error (with --format json, also as the document\'s "backup" member; with jsonl, the summary line\'s, for rm, gc, clear and import, which print one).'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache gc" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache stats" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" top' -l 'top' -d 'How many rows of each list to show (0: the summary alone).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache stats" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache refs" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache refs" -eq 2' -fka '(__gqlcache_custom_completion ---completion refs -- positional@1 (count (__gqlcache_tokens -pc)) (__gqlcache_cursor_index_in_token))'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" depth' -l 'depth' -d 'How many levels of references to draw, from 1 to 1000.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" format' -l 'format' -d 'Output format: text for people; json (one document) or jsonl (one JSON value per line) for scripts.' -rfka 'text json jsonl'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" no-pager' -l 'no-pager' -d 'Do not page long text output through $PAGER (default \'less -FRX\') on a terminal.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache refs" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache repl" -eq 1' -fa '(__gqlcache_complete_files \'sqlite\' \'sqlite3\' \'db\')'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache repl"' -s 'c' -d 'Run these commands (separated by \';\' or line breaks) instead of reading standard input; repeated, each -c in turn, as psql runs them (a GraphQL document ends within its -c).' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache repl" bail' -l 'bail' -d 'Stop at the first command that fails, and exit with its status.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache repl" busy-timeout' -l 'busy-timeout' -d 'Seconds to wait while another process (the app) holds the database lock.' -rfka ''
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache repl" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache repl" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache repl" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache repl" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache completions" -eq 1' -fka 'bash zsh fish'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache completions" color' -l 'color' -d 'Colour text output: auto (only on a terminal, not with NO_COLOR set or TERM=dumb), always or never.' -rfka 'auto always never'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache completions" q quiet' -l 'quiet' -s 'q' -d 'Print only the data asked for and errors: no summaries such as \'removed 3 records\'.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache completions" version' -l 'version' -d 'Show the version.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache completions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_flags_or_options "gqlcache help" version' -l 'version' -d 'Show the version.'
# Added (see CompletionScripts.swift): the command to explain.
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'info' -d 'Show the format, journal mode, size, roots, record counts per type and the largest records.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'keys' -d 'List record keys, optionally filtered by a pattern and a __typename.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'show' -d 'Show records as trees, with references as links to their keys.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'read' -d 'Read a query, a mutation\'s stored result or a fragment exactly as Apollo iOS would.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'write' -d 'Normalize a network response for an operation into the cache, as Apollo iOS stores it.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'update' -d 'Change cached data through a local cache mutation, as Apollo iOS\'s update does.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'rm' -d 'Remove records by key (removeObject(for:)), by pattern (removeObjects(matching:)) or by type.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'clear' -d 'Remove every record (Apollo\'s clearCache()); --vacuum also shrinks the file.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'grep' -d 'Find the records whose field values contain a string or match a regular expression.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'diff' -d 'Show the records added, removed and changed between two cache files, field by field.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'export' -d 'Write the whole cache as JSON Lines or as Apollo Client\'s cache.extract() object.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'import' -d 'Merge the records of an export (JSON Lines or Apollo Client\'s extract()) into a cache file.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'doctor' -d 'Check a cache for damaged records, dangling references, unreachable records and other problems.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'gc' -d 'Remove unreachable records, dangling references and stray rows, then optionally VACUUM.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'stats' -d 'Count records and bytes per __typename, root field and key prefix; list the largest records.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'refs' -d 'Show a record\'s references (field → key) and the records that reference it.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'repl' -d 'Explore a cache at a prompt: every command without the file, cd through references, GraphQL typed in.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'completions' -d 'Print the completion script for bash, zsh or fish.'
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache help" -eq 1' -fa 'help' -d 'Show subcommand help information.'
# Added (see CompletionScripts.swift): 'gqlcache CACHE' opens the REPL, so a
# first word that no command name starts completes as a cache file name.
function __gqlcache_no_command_starts_with_token
    set -l token (__gqlcache_tokens -t)
    not contains -- "$token" (string sub -l (string length -- "$token") -- 'info' 'keys' 'show' 'read' 'write' 'update' 'rm' 'clear' 'grep' 'diff' 'export' 'import' 'doctor' 'gc' 'stats' 'refs' 'repl' 'completions' 'help')
end
complete -c 'gqlcache' -n '__gqlcache_should_offer_completions_for_positional "gqlcache" -eq 1; and __gqlcache_no_command_starts_with_token' -f -a '(__gqlcache_complete_files sqlite sqlite3 db)'
