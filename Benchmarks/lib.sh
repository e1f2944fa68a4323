# Helpers the benchmark scripts share; each script sources this file right
# after `set -euo pipefail`. Not a benchmark itself.

BENCH_SCRIPT="${BASH_SOURCE[1]}"

# usage: the script's leading comment block, without the '#'.
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$BENCH_SCRIPT"; }
die() { echo "$(basename "$BENCH_SCRIPT"): $*" >&2; exit 2; }
is_count() { [[ "$1" =~ ^[0-9]+$ ]]; }

# The release build measured, as Scripts/install.sh makes it: one fully
# static executable (Swift runtime, Foundation, SQLite, readline), which
# starts about 4 ms sooner than one that loads shared libraries.
RELEASE_FLAGS=(-c release --static-swift-stdlib -Xswiftc -static-executable)

# --- Timer -----------------------------------------------------------------
# stamp: sets NOW to microseconds since the epoch. bash 5's EPOCHREALTIME
# costs no process (no subshell either: stamp is called directly, never in
# $(...)); otherwise GNU date's %N, otherwise Python ($PYTHON or python3).
NOW=0
if [[ -n "${EPOCHREALTIME:-}" ]]; then
    stamp() { NOW="${EPOCHREALTIME/[.,]/}"; }
elif [[ "$(date +%N 2>/dev/null)" =~ ^[0-9]+$ ]]; then
    stamp() { NOW=$(( $(date +%s%N) / 1000 )); }
elif command -v "${PYTHON:-python3}" >/dev/null; then
    stamp() { NOW="$("${PYTHON:-python3}" -c 'import time; print(int(time.time() * 1e6))')"; }
else
    die "no precise clock: needs bash 5, GNU date or python3"
fi

# GNU time for peak memory; without it the memory figures are left out.
HAVE_TIME=0
if [[ -x /usr/bin/time ]] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then HAVE_TIME=1; fi

# median VALUES...: the middle value (the rounded mean of the middle two).
median() {
    printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
        if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# The settings every benchmark reads from the environment (the script sets
# REPO before sourcing this file); flags win over them. RUNS defaults to
# $1 when given, else 3.
common_settings() {
    BUILD="${BENCH_BUILD:-$REPO/.build}"
    RUNS="${RUNS:-${1:-3}}"
    KEEP="${BENCH_KEEP:-0}"
    NO_BUILD="${BENCH_NO_BUILD:-0}"
}

# parse_common_flags ARGS...: --runs N, --keep, --no-build and --help. A
# script with flags of its own defines script_flag, which is called with
# the remaining arguments at any other flag: it takes its flag and sets
# FLAG_WORDS to the words it used, or returns 1 for a flag it does not know.
FLAG_WORDS=1
parse_common_flags() {
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --runs) [[ $# -ge 2 ]] || die "--runs needs a number"; RUNS="$2"; shift 2 ;;
            --keep) KEEP=1; shift ;;
            --no-build) NO_BUILD=1; shift ;;
            -h|--help) usage; exit 0 ;;
            *)
                if declare -F script_flag >/dev/null && script_flag "$@"; then
                    shift "$FLAG_WORDS"
                else
                    die "unexpected argument '$1' (see --help)"
                fi
                ;;
        esac
    done
    is_count "$RUNS" && [[ "$RUNS" -ge 1 ]] || die "RUNS must be a whole number >= 1"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v r="$1" -v t="$2" 'BEGIN { print (r <= t ? "ok" : "MISSED") }'; }
