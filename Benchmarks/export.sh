#!/usr/bin/env bash
# gqlcache export benchmark: times a whole-cache export against the sqlite3
# CLI dumping the same table, on the same generated cache, in the same run,
# and shows that export's peak memory stays flat from 100,000 to 1,000,000
# records.
#
#   Benchmarks/export.sh [--runs N] [--keep] [--no-build]
#
# Environment (flags win over variables):
#   RECORDS=N        about N records in the large cache (default 1000000)
#   SMALL_RECORDS=N  about N records in the small cache of the memory check (default 100000)
#   RUNS=N           timed repetitions of each measurement (default 3); medians are reported
#   BENCH_BUILD=DIR  SwiftPM scratch path (default: REPO/.build)
#   BENCH_KEEP=1     keep the temporary work directory (caches, exports)
#   BENCH_NO_BUILD=1 do not build; use the binaries already in the scratch path
#
# The caches come from gqlcache-example, as in Benchmarks/run.sh: 5 records
# a user (the user, 2 posts, 2 comments) and the two roots.
#
# What is measured on the large cache (wall time of the whole process, output
# to /dev/null, median of RUNS, the sides alternating which goes first):
#   export jsonl          gqlcache export FILE
#   export apollo-client  gqlcache export FILE --format apollo-client
#   sqlite3 -json         sqlite3 -json FILE "SELECT key, record FROM records ORDER BY key"
#                         (the same rows in the same order, each record as an escaped JSON string)
#   full scan             sqlite3 FILE "SELECT count(*), sum(length(record)) FROM records"
#                         (reading every record once, writing nothing: the floor)
# and, once each, import of the JSON Lines export into a new file and diff of
# the cache with that file (which must report the same records).
# Peak memory (max RSS, GNU /usr/bin/time -f %M) of one export of each form on
# the small and the large cache: "flat" when the large one is within 1.5x the
# small one. Without GNU time the memory part is skipped.
# Checks: the JSON Lines export has one line per record, the apollo-client
# export one per record plus its braces, and the import gives a file diff
# calls identical.
#
# It is a report, not a test: it exits non-zero only when a check fails or the
# benchmark cannot run.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib.sh
source "$REPO/Benchmarks/lib.sh"
common_settings
RECORDS="${RECORDS:-1000000}"
SMALL_RECORDS="${SMALL_RECORDS:-100000}"
FLAT_RATIO=1.5

parse_common_flags "$@"
is_count "$RECORDS" && [[ "$RECORDS" -ge 7 ]] || die "RECORDS must be a whole number >= 7"
is_count "$SMALL_RECORDS" && [[ "$SMALL_RECORDS" -ge 7 ]] || die "SMALL_RECORDS must be a whole number >= 7"
command -v sqlite3 >/dev/null || die "sqlite3 (the CLI) is needed for the baseline"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/gqlcache-export-bench.XXXXXX")"
cleanup() { if [[ "$KEEP" == 1 ]]; then echo "work directory kept: $WORK" >&2; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
FAILED=0
fail_check() { echo "CHECK FAILED: $*" >&2; FAILED=1; }

# run_timed LABEL CMD...: runs CMD with standard output to /dev/null; sets ELAPSED_US.
ELAPSED_US=0
run_timed() {
    local label="$1" start status=0; shift
    stamp; start=$NOW
    "$@" >/dev/null 2>"$WORK/stderr.txt" || status=$?
    stamp
    if [[ "$status" -ne 0 ]]; then
        echo "export.sh: $label failed (exit $status): $*" >&2; sed 's/^/  | /' "$WORK/stderr.txt" >&2; exit 1
    fi
    ELAPSED_US=$(( NOW - start ))
}
# peak_kb CMD...: the peak RSS in KiB of one run of CMD, output to /dev/null.
peak_kb() {
    /usr/bin/time -f %M -o "$WORK/rss.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" || { sed 's/^/  | /' "$WORK/stderr.txt" >&2; exit 1; }
    tail -n 1 "$WORK/rss.txt"
}
seconds() { awk -v us="$1" 'BEGIN { printf "%.2f s", us / 1e6 }'; }
mib() { awk -v kb="$1" 'BEGIN { printf "%.1f MiB", kb / 1024 }'; }
count_records() { sqlite3 "$1" "SELECT count(*) FROM records"; }

if [[ "$NO_BUILD" != 1 ]]; then
    echo "== building release binaries (scratch path $BUILD)" >&2
    (cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --product gqlcache >&2)
    (cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --product gqlcache-example >&2)
fi
BIN="$(cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --show-bin-path 2>/dev/null || echo "$BUILD/release")"
GQLCACHE="$BIN/gqlcache"
EXAMPLE="$BIN/gqlcache-example"
[[ -x "$GQLCACHE" && -x "$EXAMPLE" ]] || die "no release binaries in $BIN (build them, or drop BENCH_NO_BUILD)"

generate() {  # generate FILE RECORDS
    local users=$(( ($2 - 2 + 4) / 5 ))
    echo "== generating $users users (~$(( 5 * users + 2 )) records) into $1" >&2
    "$EXAMPLE" "$1" --users "$users" --posts-per-user 2 --comments-per-post 1 --no-avatars >&2
}
SMALL="$WORK/small.sqlite"
LARGE="$WORK/large.sqlite"
generate "$SMALL" "$SMALL_RECORDS"
generate "$LARGE" "$RECORDS"
TOTAL="$(count_records "$LARGE")"
SMALL_TOTAL="$(count_records "$SMALL")"

# --- Checks ------------------------------------------------------------------
"$GQLCACHE" export "$LARGE" --output "$WORK/large.jsonl" >/dev/null
lines="$(wc -l < "$WORK/large.jsonl" | tr -d ' ')"
[[ "$lines" -eq "$TOTAL" ]] || fail_check "the JSON Lines export has $lines lines for $TOTAL records"
ac_lines="$("$GQLCACHE" export "$LARGE" --format apollo-client | wc -l | tr -d ' ')"
[[ "$ac_lines" -eq $(( TOTAL + 2 )) ]] || fail_check "the apollo-client export has $ac_lines lines for $TOTAL records"

# --- Times -------------------------------------------------------------------
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
DUMP_SQL="SELECT key, record FROM records ORDER BY key"
SCAN_SQL="SELECT count(*), sum(length(record)) FROM records"
echo "== timing: $RUNS runs each" >&2
jsonl=(); client=(); dump=(); scan=()
for (( i = 1; i <= RUNS; i++ )); do
    for side in $( (( i % 2 )) && echo "j c d s" || echo "s d c j" ); do
        case "$side" in
            j) run_timed "export jsonl" "$GQLCACHE" export "$LARGE"; jsonl+=("$ELAPSED_US") ;;
            c) run_timed "export apollo-client" "$GQLCACHE" export "$LARGE" --format apollo-client; client+=("$ELAPSED_US") ;;
            d) run_timed "sqlite3 -json" sqlite3 -json "$LARGE" "$DUMP_SQL"; dump+=("$ELAPSED_US") ;;
            s) run_timed "sqlite3 scan" sqlite3 "$LARGE" "$SCAN_SQL"; scan+=("$ELAPSED_US") ;;
        esac
    done
    echo "   run $i: jsonl $(seconds "${jsonl[-1]}"), apollo-client $(seconds "${client[-1]}"), sqlite3 -json $(seconds "${dump[-1]}"), scan $(seconds "${scan[-1]}")" >&2
done
run_timed "import" "$GQLCACHE" import "$WORK/imported.sqlite" "$WORK/large.jsonl" --create; import_us=$ELAPSED_US
stamp; diff_start=$NOW
diff_status=0; "$GQLCACHE" diff "$LARGE" "$WORK/imported.sqlite" --summary > "$WORK/diff.txt" 2>&1 || diff_status=$?
stamp; diff_us=$(( NOW - diff_start ))
[[ "$diff_status" -eq 0 ]] || fail_check "diff of the cache and its import exited $diff_status: $(cat "$WORK/diff.txt")"

# --- Memory ------------------------------------------------------------------
if [[ "$HAVE_TIME" == 1 ]]; then
    echo "== peak memory" >&2
    small_j=$(peak_kb "$GQLCACHE" export "$SMALL"); large_j=$(peak_kb "$GQLCACHE" export "$LARGE")
    small_c=$(peak_kb "$GQLCACHE" export "$SMALL" --format apollo-client); large_c=$(peak_kb "$GQLCACHE" export "$LARGE" --format apollo-client)
    large_d=$(peak_kb sqlite3 -json "$LARGE" "$DUMP_SQL")
fi

# --- Report ------------------------------------------------------------------
jm=$(median "${jsonl[@]}"); cm=$(median "${client[@]}"); dm=$(median "${dump[@]}"); sm=$(median "${scan[@]}")
echo
echo "gqlcache export benchmark ($TOTAL records, $(( $(wc -c < "$LARGE") / 1048576 )) MiB; median of $RUNS runs)"
echo "commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$REPO" diff --quiet HEAD -- Sources 2>/dev/null || echo ' (+ uncommitted Sources changes)'), sqlite3 $(sqlite3 --version | cut -d' ' -f1), $(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cpus${load:+, load $load}"
printf '%-34s %10s   %s\n' "" "time" "vs sqlite3 -json / vs full scan"
printf '%-34s %10s   %s / %s\n' "gqlcache export (jsonl)" "$(seconds "$jm")" "$(ratio "$jm" "$dm")" "$(ratio "$jm" "$sm")"
printf '%-34s %10s   %s / %s\n' "gqlcache export (apollo-client)" "$(seconds "$cm")" "$(ratio "$cm" "$dm")" "$(ratio "$cm" "$sm")"
printf '%-34s %10s\n' "sqlite3 -json (key, record)" "$(seconds "$dm")"
printf '%-34s %10s\n' "sqlite3 full scan (count, sum)" "$(seconds "$sm")"
printf '%-34s %10s   (one run)\n' "gqlcache import (jsonl, new file)" "$(seconds "$import_us")"
printf '%-34s %10s   (one run; %s)\n' "gqlcache diff (cache vs import)" "$(seconds "$diff_us")" "$(tr -d '\n' < "$WORK/diff.txt")"
if [[ "$HAVE_TIME" == 1 ]]; then
    flat() { awk -v a="$1" -v b="$2" -v t="$FLAT_RATIO" 'BEGIN { r = (b > 0 ? a / b : 0); printf "%.2fx, %s", r, (r <= t ? "flat" : "GROWS") }'; }
    echo "peak RSS, $SMALL_TOTAL -> $TOTAL records:"
    echo "  export jsonl          $(mib "$small_j") -> $(mib "$large_j") ($(flat "$large_j" "$small_j"))"
    echo "  export apollo-client  $(mib "$small_c") -> $(mib "$large_c") ($(flat "$large_c" "$small_c"))"
    echo "  sqlite3 -json         $(mib "$large_d") at $TOTAL records"
else
    echo "peak RSS: not measured (no GNU /usr/bin/time)"
fi
echo "checks: $( [[ "$FAILED" == 0 ]] && echo ok || echo FAILED ): $lines JSON Lines for $TOTAL records; import then diff: $(tr -d '\n' < "$WORK/diff.txt")"
[[ "$FAILED" == 0 ]] || exit 1
