#!/usr/bin/env bash
# Regenerates completions/ and man/ from the command tree. Run after changing
# a command, an option or a help text; tests fail while they are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product gqlcache
bin="$(swift build --show-bin-path)/gqlcache"
version="$("$bin" --version)"
# The scripts 'gqlcache completions SHELL' prints: the parser's, with the
# additions that let bash and fish complete cache keys (CompletionScripts.swift).
"$bin" completions bash > completions/gqlcache.bash
"$bin" completions zsh > completions/_gqlcache
"$bin" completions fish > completions/gqlcache.fish
# The generator drops characters that are not ASCII ('→', '…'): gqlcache
# hands them over as placeholders, turned into roff escapes below.
GQLCACHE_MANUAL_PLACEHOLDERS=1 swift package --allow-writing-to-package-directory generate-manual --configuration debug --date 2026-11-22
# The generator ends the page with a generic EXIT STATUS; ours, with the
# environment, examples and see-also sections, replaces it.
page=.build/plugins/GenerateManual/outputs/gqlcache/gqlcache.1
{
    # An empty line is not mdoc (man warns); a paragraph break is what it means.
    # No hyphenation: paths and option names must copy as they are. The
    # synopsis says that every command takes the cache file first, and gives
    # the REPL's form, the cache file alone.
    # The footer names gqlcache and its version; an empty .Os makes man print
    # "BSD" there.
    # '…' is written '...': a page read without a UTF-8 locale has no glyph
    # for it, and troff would drop it with a warning.
    # The one-line description goes unquoted and without a full stop, as
    # mdoc has it: whatis and apropos read the quotes as part of it.
    # The parser's own help command says nothing of its argument.
    sed -e '/^\.Sh "EXIT STATUS"$/,$d' -e 's/^\.Nd "\(.*\)\."$/.Nd \1/' -e 's/^$/.Pp/' -e 's/GQLCACHEU2026X/.../g' -e 's/GQLCACHEU\([0-9A-F]\{4,6\}\)X/\\[u\1]/g' \
        -e "s/^\\.Os\$/.Os gqlcache $version/" -e 's/^\.Os gqlcache .*$/&\n.nr doc-hyphen-flags 0\n.nh/' -e 's/^\.Ar subcommand$/.Ar subcommand\n.Ar cache-file\n.Op Ar argument ...\n.Op Ar option .../' \
        -e 's/^\.Op Fl -help$/&\n.Nm\n.Ar cache-file/' \
        -e "s/^\\.It Ar subcommands\\.\\.\\.\$/&\\nThe command to show the help of, as in 'gqlcache help gc', which is 'gqlcache gc --help'./" "$page"
    cat Scripts/manual-sections.mdoc
} > man/gqlcache.1
echo "updated completions/ and man/"
