#!/usr/bin/env bash
# Regenerates completions/ and man/ from the command tree. Run after changing
# a command, an option or a help text; tests fail while they are stale.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product gqlcache
bin="$(swift build --show-bin-path)/gqlcache"
"$bin" --generate-completion-script bash > completions/gqlcache.bash
"$bin" --generate-completion-script zsh > completions/_gqlcache
"$bin" --generate-completion-script fish > completions/gqlcache.fish
swift package --allow-writing-to-package-directory generate-manual --configuration debug --date 2026-11-22
cp .build/plugins/GenerateManual/outputs/gqlcache/gqlcache.1 man/gqlcache.1
echo "updated completions/ and man/"
