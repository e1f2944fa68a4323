#!/usr/bin/env bash
# gqlcache health benchmark: times doctor, stats and gc against a sqlite3 CLI
# full scan of the same table, on the same generated cache, in the same run,
# and compares their peak memory on a 100,000- and a 1,000,000-record cache.
#
#   Benchmarks/health.sh [--runs N] [--keep] [--no-build]
#
# Environment (flags win over variables):
#   RECORDS=N        about N records in the large cache (default 1000000)
#   SMALL=N          about N records in the small cache (default 100000)
#   RUNS=N           timed repetitions of each measurement (default 3); medians are reported
#   BENCH_BUILD=DIR  SwiftPM scratch path (default: REPO/.build)
#   BENCH_KEEP=1     keep the temporary work directory
#   BENCH_NO_BUILD=1 do not build; use the binaries already in the scratch path
#
# The caches are generated exactly as Benchmarks/run.sh generates its own
# (gqlcache-example, 2 posts and 1 comment per post a user, no avatars): in
# them about a fifth of the records are reachable from no root, which gives
# gc real work.
#
# What is measured (wall time of the whole process, median of RUNS):
#   doctor              gqlcache doctor FILE (exit 7: it finds the unreachable records)
#   stats               gqlcache stats FILE
#   gc --all --dry-run  gqlcache gc FILE --all --dry-run
#   gc --all            gqlcache gc FILE --all --force, on a fresh copy each run (the copy is not timed)
#   baseline            sqlite3 FILE "SELECT sum(length(record)) FROM records",
#                       which reads every record's text once
#   sqlite3 DELETE      the sqlite3 CLI running the DELETEs gc --all runs (the
#                       same rows, by row id in ascending order, 500 a
#                       statement, one transaction, the same 32 MB page cache)
#                       on a fresh copy: the part of gc's time that is SQLite's
# Peak RSS (max resident set) comes from GNU /usr/bin/time, or else from
# VmHWM in /proc; both caches are measured, to show that memory follows the
# number of keys and references, not the bytes of the records.
#
# A report, not a test: it exits 0 when a target is missed and non-zero only
# when a check fails (doctor and gc disagree, gc leaves problems, a command
# fails) or the benchmark cannot run.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib.sh
source "$REPO/Benchmarks/lib.sh"
common_settings
RECORDS="${RECORDS:-1000000}"
SMALL="${SMALL:-100000}"
TARGET=3

parse_common_flags "$@"
is_count "$RECORDS" && is_count "$SMALL" || die "RECORDS and SMALL must be whole numbers"
command -v sqlite3 >/dev/null || die "sqlite3 (the CLI) is needed for the baseline"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/gqlcache-health.XXXXXX")"
cleanup() { if [[ "$KEEP" == 1 ]]; then echo "work directory kept: $WORK" >&2; else rm -rf "$WORK"; fi; }
trap cleanup EXIT
FAILED=0
fail_check() { echo "CHECK FAILED: $*" >&2; FAILED=1; }

# run_timed LABEL OK_STATUSES CMD...: runs CMD with output to $WORK/out.txt,
# sets ELAPSED_US and PEAK_KB. A status outside OK_STATUSES ends the benchmark.
ELAPSED_US=0
PEAK_KB=""
run_timed() {
    local label="$1" ok="$2"; shift 2
    local start end status=0
    stamp; start=$NOW
    if [[ "$HAVE_TIME" == 1 ]]; then
        /usr/bin/time -f %M -o "$WORK/rss.txt" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || status=$?
    else
        "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" & local pid=$!
        PEAK_KB=0
        while kill -0 "$pid" 2>/dev/null; do
            local hwm; hwm="$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)"
            [[ -n "$hwm" && "$hwm" -gt "$PEAK_KB" ]] && PEAK_KB="$hwm"
            sleep 0.02
        done
        wait "$pid" || status=$?
    fi
    stamp; end=$NOW
    [[ "$HAVE_TIME" == 1 ]] && PEAK_KB="$(tail -n 1 "$WORK/rss.txt")"
    if [[ " $ok " != *" $status "* ]]; then
        echo "health.sh: $label exited $status: $*" >&2
        sed 's/^/  | /' "$WORK/err.txt" >&2
        exit 1
    fi
    ELAPSED_US=$(( end - start ))
}

seconds() { awk -v us="$1" 'BEGIN { printf "%.2f s", us / 1e6 }'; }
mib() { awk -v kb="$1" 'BEGIN { printf "%.0f MiB", kb / 1024 }'; }
max_of() { printf '%s\n' "$@" | sort -n | tail -n 1; }

# --- Build ---------------------------------------------------------------
if [[ "$NO_BUILD" != 1 ]]; then
    echo "== building release binaries" >&2
    (cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --product gqlcache >&2)
    (cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --product gqlcache-example >&2)
fi
BIN="$(cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --show-bin-path 2>/dev/null || echo "$BUILD/release")"
GQLCACHE="$BIN/gqlcache"
EXAMPLE="$BIN/gqlcache-example"
[[ -x "$GQLCACHE" && -x "$EXAMPLE" ]] || die "no release binaries in $BIN (build them, or drop BENCH_NO_BUILD)"

# generate FILE RECORDS: the cache Benchmarks/run.sh generates for that many records.
generate() {
    local users=$(( ($2 - 2 + 4) / 5 ))
    echo "== generating $users users (~$(( 5 * users + 2 )) records) into $1" >&2
    "$EXAMPLE" "$1" --users "$users" --posts-per-user 2 --comments-per-post 1 --no-avatars >&2
}

# measure FILE PREFIX: median times and peak RSS of every command on FILE,
# into variables named PREFIX_doctor, PREFIX_doctor_kb, …
measure() {
    local file="$1" prefix="$2" copy="$WORK/copy.sqlite" i
    local doctor=() stats=() dry=() gc=() scan=() del=() doctor_kb=() stats_kb=() dry_kb=() gc_kb=() scan_kb=() del_kb=()
    # The row ids of the records gc --all removes (this cache has no dangling
    # references or stray rows), as the DELETEs gc runs, for the sqlite3 CLI.
    "$GQLCACHE" gc "$file" --all --dry-run --format jsonl \
        | sed -n 's/^{"type":"remove","key":"\(.*\)"}$/\1/p' >"$WORK/keys.txt"
    sqlite3 "$file" "CREATE TEMP TABLE gone(key TEXT)" ".import $WORK/keys.txt gone" \
        "SELECT _id FROM records WHERE key IN (SELECT key FROM temp.gone) ORDER BY _id" \
        | awk 'BEGIN { print "PRAGMA cache_size = -32768;"; print "BEGIN;" }
            { ids = ids (n++ % 500 ? "," : "") $1 }
            n % 500 == 0 && ids != "" { print "DELETE FROM records WHERE _id IN (" ids ");"; ids = "" }
            END { if (ids != "") print "DELETE FROM records WHERE _id IN (" ids ");"; print "COMMIT;" }' \
        >"$WORK/delete.sql"
    for (( i = 1; i <= RUNS; i++ )); do
        run_timed "sqlite3 scan" 0 sqlite3 "$file" "SELECT sum(length(record)) FROM records"
        scan+=("$ELAPSED_US"); scan_kb+=("$PEAK_KB")
        run_timed "doctor" "0 7" "$GQLCACHE" doctor "$file"
        doctor+=("$ELAPSED_US"); doctor_kb+=("$PEAK_KB")
        run_timed "stats" 0 "$GQLCACHE" stats "$file"
        stats+=("$ELAPSED_US"); stats_kb+=("$PEAK_KB")
        run_timed "gc --dry-run" 0 "$GQLCACHE" gc "$file" --all --dry-run --format jsonl
        dry+=("$ELAPSED_US"); dry_kb+=("$PEAK_KB")
        rm -f "$copy" "$copy-journal"; cp "$file" "$copy"; sync
        run_timed "gc" 0 "$GQLCACHE" gc "$copy" --all --force --format jsonl
        gc+=("$ELAPSED_US"); gc_kb+=("$PEAK_KB")
        # What gc wrote goes to disk now, untimed: otherwise the kernel writes
        # it back during the next run's commands, on one of the two cores.
        rm -f "$WORK/copy2.sqlite" "$WORK/copy2.sqlite-journal"; cp "$file" "$WORK/copy2.sqlite"; sync
        run_timed "sqlite3 DELETE" 0 sqlite3 "$WORK/copy2.sqlite" ".read $WORK/delete.sql"
        del+=("$ELAPSED_US"); del_kb+=("$PEAK_KB")
        [[ "$(sqlite3 "$WORK/copy2.sqlite" "SELECT count(*) FROM records")" == "$(sqlite3 "$copy" "SELECT count(*) FROM records")" ]] \
            || fail_check "the sqlite3 DELETEs left another number of records than gc --all"
        sync
        echo "   run $i: scan $(seconds "${scan[-1]}"), doctor $(seconds "${doctor[-1]}"), stats $(seconds "${stats[-1]}")," \
            "gc --dry-run $(seconds "${dry[-1]}"), gc $(seconds "${gc[-1]}"), sqlite3 DELETE $(seconds "${del[-1]}")" >&2
    done
    local name
    for name in doctor stats dry gc scan del; do
        local -n times="$name" peaks="${name}_kb"
        printf -v "${prefix}_${name}" '%s' "$(median "${times[@]}")"
        printf -v "${prefix}_${name}_kb" '%s' "$(max_of "${peaks[@]}")"
    done
    # Checks: gc removes what doctor calls unreachable, and leaves a healthy cache.
    local unreachable removed
    unreachable="$("$GQLCACHE" doctor "$file" --format jsonl | grep -c '"kind":"unreachable"' || true)"
    removed="$("$GQLCACHE" gc "$file" --all --dry-run --format jsonl | grep -c '"type":"remove"' || true)"
    [[ "$unreachable" == "$removed" ]] || fail_check "doctor found $unreachable unreachable records, gc --dry-run would remove $removed"
    "$GQLCACHE" doctor "$copy" >/dev/null || fail_check "doctor still finds problems after gc --all"
    printf -v "${prefix}_unreachable" '%s' "$unreachable"
    printf -v "${prefix}_records" '%s' "$(sqlite3 "$file" "SELECT count(*) FROM records")"
    printf -v "${prefix}_mib" '%s' "$(( $(wc -c < "$file") / 1048576 ))"
}

SMALL_FILE="$WORK/small.sqlite"
LARGE_FILE="$WORK/large.sqlite"
generate "$SMALL_FILE" "$SMALL"
generate "$LARGE_FILE" "$RECORDS"
# The new files' pages reach the disk before anything is timed.
sync
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
echo "== small cache: $RUNS runs" >&2
measure "$SMALL_FILE" small
echo "== large cache: $RUNS runs" >&2
measure "$LARGE_FILE" large

row() { printf '%-22s %10s %10s   %6s  %-6s   %9s %9s\n' "$@"; }
echo
echo "gqlcache health benchmark: ${large_records} records (${large_mib} MiB, ${large_unreachable} unreachable) and ${small_records} records; median of $RUNS runs"
echo "commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?'), sqlite3 $(sqlite3 --version | cut -d' ' -f1), $(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cpus${load:+, load $load}"
row "" "${large_records}" "sqlite3" "ratio" "≤ ${TARGET}×" "peak RSS" "peak RSS"
row "" "records" "scan" "" "" "${small_records}" "${large_records}"
for name in doctor stats dry gc; do
    case "$name" in dry) label="gc --all --dry-run" ;; gc) label="gc --all (fresh copy)" ;; *) label="$name" ;; esac
    t="large_$name"; kb_small="small_${name}_kb"; kb_large="large_${name}_kb"
    r="$(ratio "${!t}" "$large_scan")"
    row "$label" "$(seconds "${!t}")" "$(seconds "$large_scan")" "$r" "$(verdict "$r" "$TARGET")" "$(mib "${!kb_small}")" "$(mib "${!kb_large}")"
done
row "sqlite3 scan" "$(seconds "$large_scan")" "" "" "" "$(mib "$small_scan_kb")" "$(mib "$large_scan_kb")"
row "sqlite3 DELETE" "$(seconds "$large_del")" "$(seconds "$large_scan")" "$(ratio "$large_del" "$large_scan")" "" "$(mib "$small_del_kb")" "$(mib "$large_del_kb")"
own=$(( large_gc > large_del ? large_gc - large_del : 0 ))
r="$(ratio "$own" "$large_scan")"
row "gc --all minus DELETE" "$(seconds "$own")" "$(seconds "$large_scan")" "$r" "$(verdict "$r" "$TARGET")" "" ""
echo "baseline: sqlite3 FILE \"SELECT sum(length(record)) FROM records\"; sqlite3 DELETE: the DELETEs gc --all runs, by the sqlite3 CLI on a fresh copy"
echo "small cache: doctor $(seconds "$small_doctor"), stats $(seconds "$small_stats"), scan $(seconds "$small_scan")"
echo "checks: $( [[ "$FAILED" == 0 ]] && echo ok || echo FAILED ) (gc --dry-run removes what doctor calls unreachable; doctor is clean after gc --all)"
[[ "$FAILED" == 0 ]] || exit 1
