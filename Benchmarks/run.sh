#!/usr/bin/env bash
# gqlcache benchmark: times gqlcache against the sqlite3 CLI running the
# equivalent SQL, on the same generated cache, in the same run.
#
#   Benchmarks/run.sh [--users N] [--runs N] [--keep] [--no-build]
#
# Environment (flags win over variables):
#   RECORDS=N        about N records in the generated cache (default 1000000)
#   USERS=N          exact number of users instead (records = 5*N + 2)
#   RUNS=N           timed repetitions of each measurement (default 3); medians are reported
#   QUICK_RUNS=N     repetitions of the millisecond-long keys and show measurements
#                    (default: max(RUNS, 10), as one run says little at that scale)
#   BENCH_BUILD=DIR  SwiftPM scratch path (default: REPO/.build)
#   BENCH_KEEP=1     keep the temporary work directory (generated cache, logs)
#   BENCH_NO_BUILD=1 do not build; use the binaries already in the scratch path
#
# What is measured (wall time of the whole process, median of RUNS):
#   rm    gqlcache rm COPY --match 'Post:' --force
#         vs sqlite3 COPY "DELETE FROM records WHERE key LIKE '%Post:%' COLLATE NOCASE"
#         (Apollo iOS's removeObjects(matching:) statement), each on a fresh copy
#         of the generated file; the copy is not timed.
#   keys  gqlcache keys FILE --mode prefix 'User:' --count
#         vs sqlite3 FILE "SELECT count(*) FROM records WHERE key >= 'User:' AND key < 'User;'"
#   show  gqlcache show FILE User:4242 (absolute; target <= 30 ms), with
#         sqlite3 FILE "SELECT record FROM records WHERE key='User:4242'" for reference.
# Peak memory (max RSS) of the rm and keys runs is shown when GNU /usr/bin/time
# exists: the timed rm runs of both sides go through it (about a millisecond
# on runs of seconds); keys gets one extra untimed run each.
# Timing uses bash 5's EPOCHREALTIME (or date +%s%N, or python3); hyperfine is
# not needed. Other work on the machine shows in the times: the load average
# is printed, and so is every run.
#
# It is a report, not a test: it exits 0 when a target is missed, and
# non-zero only when a correctness check fails (different counts, a failing
# command) or the benchmark cannot run.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib.sh
source "$REPO/Benchmarks/lib.sh"
common_settings
QUICK_RUNS="${QUICK_RUNS:-}"
USERS="${USERS:-}"
RECORDS="${RECORDS:-1000000}"

RM_TARGET=1.2
KEYS_TARGET=1.2
SHOW_TARGET_MS=30

script_flag() {
    case "$1" in
        --users) [[ $# -ge 2 ]] || die "--users needs a number"; USERS="$2"; FLAG_WORDS=2 ;;
        *) return 1 ;;
    esac
}
parse_common_flags "$@"
is_count "$RECORDS" || die "RECORDS must be a whole number"
if [[ -z "$USERS" ]]; then
    # The generator writes 5 records a user (user, 2 posts, 2 comments) and 2 roots.
    USERS=$(( (RECORDS - 2 + 4) / 5 ))
fi
is_count "$USERS" && [[ "$USERS" -ge 1 ]] || die "the number of users must be a whole number >= 1"
if [[ -z "$QUICK_RUNS" ]]; then QUICK_RUNS=$(( RUNS > 10 ? RUNS : 10 )); fi
is_count "$QUICK_RUNS" && [[ "$QUICK_RUNS" -ge 1 ]] || die "QUICK_RUNS must be a whole number >= 1"
SHOW_USER=$(( USERS >= 4242 ? 4242 : USERS ))
SHOW_KEY="User:$SHOW_USER"

command -v sqlite3 >/dev/null || die "sqlite3 (the CLI) is needed for the baseline"
command -v swift >/dev/null || [[ "$NO_BUILD" == 1 ]] || die "swift is needed to build (or set BENCH_NO_BUILD=1)"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/gqlcache-bench.XXXXXX")"
cleanup() {
    if [[ "$KEEP" == 1 ]]; then
        echo "work directory kept: $WORK" >&2
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT

FAILED=0
fail_check() { echo "CORRECTNESS FAILURE: $*" >&2; FAILED=1; }

# run_timed LABEL RSS_FILE CMD...: runs CMD with output to /dev/null, sets
# ELAPSED_US and (with GNU time and an RSS_FILE) PEAK_KB. A failing command
# is reported, with its stderr, and ends the benchmark.
ELAPSED_US=0
PEAK_KB=""
run_timed() {
    local label="$1" rss_file="$2"; shift 2
    local err="$WORK/stderr.txt" start end status=0
    PEAK_KB=""
    if [[ "$HAVE_TIME" == 1 && -n "$rss_file" ]]; then
        stamp; start=$NOW
        /usr/bin/time -f %M -o "$rss_file" "$@" >/dev/null 2>"$err" || status=$?
        stamp; end=$NOW
        PEAK_KB="$(tail -n 1 "$rss_file")"
    else
        stamp; start=$NOW
        "$@" >/dev/null 2>"$err" || status=$?
        stamp; end=$NOW
    fi
    if [[ "$status" -ne 0 ]]; then
        echo "run.sh: $label failed (exit $status): $*" >&2
        sed 's/^/  | /' "$err" >&2
        exit 1
    fi
    ELAPSED_US=$(( end - start ))
}

# median NUMBERS...: the middle value (mean of the two middle ones for an even count).
seconds() { awk -v us="$1" 'BEGIN { printf "%.3f s", us / 1e6 }'; }
millis() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1e3 }'; }
mib() { [[ -n "$1" ]] && awk -v kb="$1" 'BEGIN { printf "%.0f MiB", kb / 1024 }' || true; }
count_records() { sqlite3 "$1" "SELECT count(*) FROM records"; }

# --- Build -------------------------------------------------------------------
if [[ "$NO_BUILD" != 1 ]]; then
    echo "== building release binaries (scratch path $BUILD)" >&2
    stamp; build_start=$NOW
    (cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --product gqlcache >&2)
    (cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --product gqlcache-example >&2)
    stamp; echo "   built in $(seconds $(( NOW - build_start )))" >&2
fi
BIN="$(cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --show-bin-path 2>/dev/null || echo "$BUILD/release")"
GQLCACHE="$BIN/gqlcache"
EXAMPLE="$BIN/gqlcache-example"
[[ -x "$GQLCACHE" && -x "$EXAMPLE" ]] || die "no release binaries in $BIN (build them, or drop BENCH_NO_BUILD)"

# --- Generate ----------------------------------------------------------------
GEN="$WORK/blog.sqlite"
echo "== generating $USERS users (~$(( 5 * USERS + 2 )) records) into $GEN" >&2
stamp; gen_start=$NOW
"$EXAMPLE" "$GEN" --users "$USERS" --posts-per-user 2 --comments-per-post 1 --no-avatars >&2
stamp; GEN_US=$(( NOW - gen_start ))
TOTAL="$(count_records "$GEN")"
[[ "$TOTAL" -eq $(( 5 * USERS + 2 )) ]] || fail_check "generated $TOTAL records, expected $(( 5 * USERS + 2 ))"
GEN_BYTES="$(wc -c < "$GEN" | tr -d ' ')"
echo "   $TOTAL records, $(( GEN_BYTES / 1048576 )) MiB, generated in $(seconds "$GEN_US")" >&2

COPY="$WORK/copy.sqlite"
fresh_copy() {
    rm -f "$COPY" "$COPY-journal" "$COPY-wal" "$COPY-shm"
    cp "$GEN" "$COPY"
    sync  # so that write-back of the copy does not land in the timed command
}

# --- a. rm --match 'Post:' ---------------------------------------------------
# The load average before timing anything: other work on the machine shows in the times.
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
RM_SQL="DELETE FROM records WHERE key LIKE '%Post:%' COLLATE NOCASE"
echo "== rm: $RUNS runs each, fresh copy per run" >&2
rm_g=(); rm_s=(); rm_g_kb=(); rm_s_kb=()
expected_left=""
for (( i = 1; i <= RUNS; i++ )); do
    # Alternate which side goes first, so drift does not favour one.
    for side in $( (( i % 2 )) && echo "g s" || echo "s g" ); do
        fresh_copy
        if [[ "$side" == g ]]; then
            run_timed "gqlcache rm" "$WORK/rss.txt" "$GQLCACHE" rm "$COPY" --match 'Post:' --force
            rm_g+=("$ELAPSED_US"); [[ -z "$PEAK_KB" ]] || rm_g_kb+=("$PEAK_KB")
            left_g="$(count_records "$COPY")"
        else
            run_timed "sqlite3 DELETE" "$WORK/rss.txt" sqlite3 "$COPY" "$RM_SQL"
            rm_s+=("$ELAPSED_US"); [[ -z "$PEAK_KB" ]] || rm_s_kb+=("$PEAK_KB")
            left_s="$(count_records "$COPY")"
        fi
    done
    if [[ "$left_g" != "$left_s" ]]; then
        fail_check "after rm, gqlcache left $left_g records and sqlite3 DELETE left $left_s"
    fi
    if [[ -n "$expected_left" && "$left_g" != "$expected_left" ]]; then
        fail_check "rm left $left_g records in run $i but $expected_left in run 1"
    fi
    expected_left="$left_g"
    echo "   run $i: gqlcache $(seconds "${rm_g[${#rm_g[@]}-1]}"), sqlite3 $(seconds "${rm_s[${#rm_s[@]}-1]}"), $left_g records left" >&2
done
rm -f "$COPY" "$COPY-journal"
sync  # let the write-back of the removed copies finish before the millisecond measurements

# --- b. keys --mode prefix --count -------------------------------------------
KEYS_SQL="SELECT count(*) FROM records WHERE key >= 'User:' AND key < 'User;'"
echo "== keys: $QUICK_RUNS runs each" >&2
keys_count_g="$("$GQLCACHE" keys "$GEN" --mode prefix 'User:' --count)" || fail_check "gqlcache keys --count failed"
keys_count_s="$(sqlite3 "$GEN" "$KEYS_SQL")"
if [[ "$keys_count_g" != "$keys_count_s" ]]; then
    fail_check "keys --count printed '$keys_count_g', sqlite3 counted '$keys_count_s'"
fi
# Peak memory in one untimed run each: at a few milliseconds a run, the
# /usr/bin/time process would weigh on the ratio.
keys_g_kb=(); keys_s_kb=()
run_timed "gqlcache keys" "$WORK/rss.txt" "$GQLCACHE" keys "$GEN" --mode prefix 'User:' --count
[[ -z "$PEAK_KB" ]] || keys_g_kb+=("$PEAK_KB")
run_timed "sqlite3 count" "$WORK/rss.txt" sqlite3 "$GEN" "$KEYS_SQL"
[[ -z "$PEAK_KB" ]] || keys_s_kb+=("$PEAK_KB")
keys_g=(); keys_s=()
for (( i = 1; i <= QUICK_RUNS; i++ )); do
    run_timed "gqlcache keys" "" "$GQLCACHE" keys "$GEN" --mode prefix 'User:' --count
    keys_g+=("$ELAPSED_US")
    run_timed "sqlite3 count" "" sqlite3 "$GEN" "$KEYS_SQL"
    keys_s+=("$ELAPSED_US")
done

# --- c. show -----------------------------------------------------------------
SHOW_SQL="SELECT record FROM records WHERE key='$SHOW_KEY'"
echo "== show $SHOW_KEY: $QUICK_RUNS runs each" >&2
"$GQLCACHE" show "$GEN" "$SHOW_KEY" > "$WORK/show.txt" || fail_check "gqlcache show $SHOW_KEY failed"
[[ -n "$(sqlite3 "$GEN" "$SHOW_SQL")" ]] || fail_check "sqlite3 found no record $SHOW_KEY"
grep -q "$SHOW_KEY" "$WORK/show.txt" || fail_check "gqlcache show did not print $SHOW_KEY"
show_g=(); show_s=()
for (( i = 1; i <= QUICK_RUNS; i++ )); do
    run_timed "gqlcache show" "" "$GQLCACHE" show "$GEN" "$SHOW_KEY"
    show_g+=("$ELAPSED_US")
    run_timed "sqlite3 select" "" sqlite3 "$GEN" "$SHOW_SQL"
    show_s+=("$ELAPSED_US")
done

# --- Report ------------------------------------------------------------------
rm_gm=$(median "${rm_g[@]}"); rm_sm=$(median "${rm_s[@]}")
keys_gm=$(median "${keys_g[@]}"); keys_sm=$(median "${keys_s[@]}")
show_gm=$(median "${show_g[@]}"); show_sm=$(median "${show_s[@]}")
rm_r=$(ratio "$rm_gm" "$rm_sm"); keys_r=$(ratio "$keys_gm" "$keys_sm")
show_ok=$(awk -v us="$show_gm" -v t="$SHOW_TARGET_MS" 'BEGIN { print (us <= t * 1000 ? "ok" : "MISSED") }')

max_of() { [[ $# -gt 0 ]] && printf '%s\n' "$@" | sort -n | tail -n 1 || true; }
duration() { [[ "$1" -ge 1000000 ]] && seconds "$1" || millis "$1"; }
memory() {  # peak RSS of gqlcache / sqlite3 (the largest over the runs), when measured
    [[ "$HAVE_TIME" == 1 && -n "$1" && -n "$2" ]] && echo "$(mib "$1") / $(mib "$2")" || echo "-"
}
row() {  # what, gqlcache time, baseline name, baseline time, ratio, target, verdict, memory
    printf '%-35s %10s   %-21s %10s   %5s   %-9s %-6s  %s\n' "$@"
}

echo
echo "gqlcache benchmark ($TOTAL records, $RUNS runs, median; keys and show: $QUICK_RUNS runs, median)"
echo "commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$REPO" diff --quiet HEAD -- Sources 2>/dev/null || echo ' (+ uncommitted Sources changes)'), sqlite3 $(sqlite3 --version | cut -d' ' -f1), $(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cpus${load:+, load $load}; generated in $(seconds "$GEN_US")"
row "" "gqlcache" "sqlite3 CLI baseline" "" "ratio" "target" "" "peak RSS gqlcache / sqlite3"
row "rm --match 'Post:' --force" "$(duration "$rm_gm")" "DELETE ... LIKE" "$(duration "$rm_sm")" \
    "$rm_r" "<= $RM_TARGET" "$(verdict "$rm_r" "$RM_TARGET")" \
    "$(memory "$(max_of ${rm_g_kb[@]+"${rm_g_kb[@]}"})" "$(max_of ${rm_s_kb[@]+"${rm_s_kb[@]}"})")"
row "keys --mode prefix 'User:' --count" "$(duration "$keys_gm")" "count(*) key range" "$(duration "$keys_sm")" \
    "$keys_r" "<= $KEYS_TARGET" "$(verdict "$keys_r" "$KEYS_TARGET")" \
    "$(memory "$(max_of ${keys_g_kb[@]+"${keys_g_kb[@]}"})" "$(max_of ${keys_s_kb[@]+"${keys_s_kb[@]}"})")"
row "show $SHOW_KEY" "$(duration "$show_gm")" "SELECT record" "$(duration "$show_sm")" \
    "" "<= $SHOW_TARGET_MS ms" "$show_ok" ""
echo "checks: $( [[ "$FAILED" == 0 ]] && echo ok || echo FAILED ): rm left $left_g records (sqlite3 DELETE left $left_s);" \
    "keys --count printed $keys_count_g (sqlite3 count(*): $keys_count_s)$( [[ "$HAVE_TIME" == 1 ]] || echo '; no GNU /usr/bin/time: peak memory not measured')"
as_ms() { awk 'BEGIN { for (i = 1; i < ARGC; i++) printf "%s%.1f", (i > 1 ? " " : ""), ARGV[i] / 1000 }' "$@"; }
echo "every run, ms (gqlcache | sqlite3): rm $(as_ms "${rm_g[@]}") | $(as_ms "${rm_s[@]}");" \
    "keys $(as_ms "${keys_g[@]}") | $(as_ms "${keys_s[@]}"); show $(as_ms "${show_g[@]}") | $(as_ms "${show_s[@]}")"

if [[ "$FAILED" != 0 ]]; then
    echo "correctness check FAILED (see above)" >&2
    exit 1
fi
exit 0
