#!/usr/bin/env bash
# Builds gqlcache for release and installs it, its man page and its
# completion scripts where the shells and man look for them:
#
#   PREFIX/bin/gqlcache
#   PREFIX/share/man/man1/gqlcache.1
#   PREFIX/share/bash-completion/completions/gqlcache
#   PREFIX/share/zsh/site-functions/_gqlcache
#   PREFIX/share/fish/vendor_completions.d/gqlcache.fish
#
#   Scripts/install.sh [--prefix DIR] [--binary FILE]
#
# --prefix   where to install (default: $PREFIX, else /usr/local)
# --binary   install this already built executable instead of building one
#            (packagers, and the test that installs into a temporary prefix)
set -euo pipefail
cd "$(dirname "$0")/.."

prefix="${PREFIX:-/usr/local}"
binary=""
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --prefix) [[ $# -ge 2 ]] || { echo "install.sh: --prefix needs a folder" >&2; exit 2; }; prefix="$2"; shift 2 ;;
        --binary) [[ $# -ge 2 ]] || { echo "install.sh: --binary needs a file" >&2; exit 2; }; binary="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unexpected argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

if [[ -z "$binary" ]]; then
    # One fully static executable starts about 4 ms sooner (no shared
    # libraries to load and relocate); it needs the static libraries of
    # SQLite, readline and tinfo (Debian's -dev packages have them). Without
    # them, the usual build.
    static=(-c release --static-swift-stdlib -Xswiftc -static-executable)
    if swift build "${static[@]}" --product gqlcache; then
        binary="$(swift build "${static[@]}" --show-bin-path)/gqlcache"
    else
        echo "install.sh: the static build failed (static libraries missing?); building with shared libraries" >&2
        swift build -c release --product gqlcache
        binary="$(swift build -c release --show-bin-path)/gqlcache"
    fi
fi
[[ -x "$binary" ]] || { echo "install.sh: $binary is not an executable" >&2; exit 1; }

put() { # put MODE SOURCE DESTINATION
    mkdir -p "$(dirname "$3")"
    install -m "$1" "$2" "$3"
    echo "installed $3"
}
put 755 "$binary" "$prefix/bin/gqlcache"
put 644 man/gqlcache.1 "$prefix/share/man/man1/gqlcache.1"
put 644 completions/gqlcache.bash "$prefix/share/bash-completion/completions/gqlcache"
put 644 completions/_gqlcache "$prefix/share/zsh/site-functions/_gqlcache"
put 644 completions/gqlcache.fish "$prefix/share/fish/vendor_completions.d/gqlcache.fish"

# A shell that would not find its script where it went is told so, with
# what makes it: fish looks under PREFIX/share only when XDG_DATA_DIRS
# names it (or PREFIX is its own), zsh only where fpath says.
# fish is asked with its own folders in a scratch folder, so that asking
# makes none in the home folder (root's, under sudo); the one in
# XDG_DATA_HOME (~/.local/share) it looks in anyway.
looks_in() { # looks_in FOLDER: whether the fish on PATH completes from FOLDER
    [[ "$1" == "${XDG_DATA_HOME:-$HOME/.local/share}/fish/vendor_completions.d" ]] && return 0
    local scratch status=0
    scratch="$(mktemp -d)"
    XDG_CONFIG_HOME="$scratch" XDG_DATA_HOME="$scratch" fish -c 'contains -- $argv[1] $fish_complete_path' "$1" 2>/dev/null || status=1
    rm -rf "$scratch"
    return "$status"
}
fish_folder="$prefix/share/fish/vendor_completions.d"
if command -v fish >/dev/null 2>&1 && ! looks_in "$fish_folder"; then
    echo "note: fish does not look in $fish_folder (it does when XDG_DATA_DIRS names $prefix/share);" \
        "for fish to complete gqlcache: mkdir -p ~/.config/fish/completions && ln -s '$fish_folder/gqlcache.fish' ~/.config/fish/completions/"
fi
zsh_folder="$prefix/share/zsh/site-functions"
if command -v zsh >/dev/null 2>&1 && ! zsh -fc '(( ${fpath[(Ie)$1]} ))' zsh "$zsh_folder" 2>/dev/null; then
    echo "note: zsh does not look in $zsh_folder unless ~/.zshrc adds it:" \
        "fpath=('$zsh_folder' \$fpath) before compinit"
fi
