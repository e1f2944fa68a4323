#!/usr/bin/env bash
# gqlcache read benchmark: times a typed read of a query that lists users and
# their posts, as one whole process, against a short Python script doing the
# same walk (Benchmarks/read_walk.py, stdlib sqlite3 + json), on the same
# generated cache, in the same run; then the peak memory of the read on a
# small and a large cache.
#
#   Benchmarks/read.sh [--records N] [--runs N] [--no-large] [--keep] [--no-build]
#
# Environment (flags win over variables):
#   RECORDS=N        about N records in the timed cache (default 100000; at least
#                    enough for the 1000 users read)
#   RUNS=N           timed repetitions of each side (default 10); medians are reported
#   SMALL_RECORDS=N  about N records in the small cache of the memory check (default 10000)
#   LARGE_RECORDS=N  about N records in the large cache of the memory check (default 1000000)
#   LARGE=0          skip the large cache (generating 1,000,000 records takes about 20 s)
#   PYTHON=PATH      the Python 3 interpreter of the baseline (default: python3's sys.executable,
#                    so that a version manager's shim script is not timed with it)
#   BENCH_BUILD=DIR  SwiftPM scratch path (default: REPO/.build)
#   BENCH_KEEP=1     keep the temporary work directory (caches, query, outputs)
#   BENCH_NO_BUILD=1 do not build; use the binaries already in the scratch path
#
# The caches come from gqlcache-example with --posts-per-user 5
# --comments-per-post 0 --directory 1000: 7 records a user (the user, an
# avatar, 5 posts) and the two roots, with QUERY_ROOT's users(first:1000)
# listing User:1 to User:1000.
#
# What is measured (wall time of the whole process, median of RUNS, the two
# sides alternating which goes first):
#   gqlcache  gqlcache read FILE Directory --document Q.graphql --format json, where Q.graphql is
#             query Directory { users(first: 1000) { __typename id name posts(first: 5) { __typename title } } }
#   python3   python3 -S Benchmarks/read_walk.py FILE: QUERY_ROOT, then the 1000 users and then
#             the 5000 posts in batched IN (...) lookups of at most 500 keys; prints the same JSON.
#             -S (no site module) because the script needs only the standard library: the
#             baseline then does not pay for whatever .pth hooks the machine's site-packages run.
# Target: gqlcache <= 50 ms and faster than the Python script.
# Both outputs must parse to the same JSON value, with 1000 users and 5000
# posts; anything else is a correctness failure.
#
# Peak memory (max RSS, GNU /usr/bin/time -f %M) of one run of each side on
# the small, the timed and (unless skipped) the large cache; the read is
# "flat" when the large cache's peak is within 1.5x the small one's. Without
# GNU time the memory part is skipped (nothing is installed).
# Timing uses bash 5's EPOCHREALTIME (or date +%s%N, or python3); hyperfine is
# not needed. Other work on the machine shows in the times: the load average
# is printed, and so is every run.
#
# It is a report, not a test: it exits 0 when a target is missed, and
# non-zero only when a correctness check fails (different data, a failing
# command) or the benchmark cannot run.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib.sh
source "$REPO/Benchmarks/lib.sh"
common_settings 10
RECORDS="${RECORDS:-100000}"
SMALL_RECORDS="${SMALL_RECORDS:-10000}"
LARGE_RECORDS="${LARGE_RECORDS:-1000000}"
LARGE="${LARGE:-1}"

DIRECTORY=1000        # users read: users(first:1000)
POSTS_PER_USER=5      # posts read per user: posts(first:5)
PER_USER=7            # records a user: the user, an avatar, 5 posts (no comments)
TARGET_MS=50
FLAT_RATIO=1.5

script_flag() {
    case "$1" in
        --records) [[ $# -ge 2 ]] || die "--records needs a number"; RECORDS="$2"; FLAG_WORDS=2 ;;
        --no-large) LARGE=0; FLAG_WORDS=1 ;;
        *) return 1 ;;
    esac
}
parse_common_flags "$@"
for n in "$RECORDS" "$SMALL_RECORDS" "$LARGE_RECORDS"; do is_count "$n" || die "record counts must be whole numbers"; done
[[ "$LARGE" == 0 || "$LARGE" == 1 ]] || die "LARGE must be 0 or 1"

# users_for RECORDS: the users giving at least RECORDS records (7 a user and
# the two roots), and never fewer than the users read.
users_for() {
    local users=$(( ($1 - 2 + PER_USER - 1) / PER_USER ))
    echo $(( users > DIRECTORY ? users : DIRECTORY ))
}
records_for() { echo $(( PER_USER * $1 + 2 )); }

command -v "${PYTHON:-python3}" >/dev/null || die "python3 (or PYTHON) is needed for the baseline"
PYTHON="$("${PYTHON:-python3}" -c 'import sys; print(sys.executable)')" || die "cannot run ${PYTHON:-python3}"
command -v swift >/dev/null || [[ "$NO_BUILD" == 1 ]] || die "swift is needed to build (or set BENCH_NO_BUILD=1)"
WALK="$REPO/Benchmarks/read_walk.py"
[[ -f "$WALK" ]] || die "no $WALK"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/gqlcache-read-bench.XXXXXX")"
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

# run_timed LABEL OUT CMD...: runs CMD with its output to OUT, sets
# ELAPSED_US. A failing command is reported, with its stderr, and ends the
# benchmark.
ELAPSED_US=0
run_timed() {
    local label="$1" out="$2"; shift 2
    local err="$WORK/stderr.txt" start end status=0
    stamp; start=$NOW
    "$@" >"$out" 2>"$err" || status=$?
    stamp; end=$NOW
    if [[ "$status" -ne 0 ]]; then
        echo "read.sh: $label failed (exit $status): $*" >&2
        sed 's/^/  | /' "$err" >&2
        exit 1
    fi
    ELAPSED_US=$(( end - start ))
}

# peak_kb LABEL CMD...: prints the peak RSS in KiB of one run of CMD (output discarded).
peak_kb() {
    local label="$1"; shift
    local status=0
    /usr/bin/time -f %M -o "$WORK/rss.txt" "$@" >/dev/null 2>"$WORK/stderr.txt" || status=$?
    if [[ "$status" -ne 0 ]]; then
        echo "read.sh: $label failed (exit $status): $*" >&2
        sed 's/^/  | /' "$WORK/stderr.txt" >&2
        exit 1
    fi
    tail -n 1 "$WORK/rss.txt"
}

# median NUMBERS...: the middle value (mean of the two middle ones for an even count).
seconds() { awk -v us="$1" 'BEGIN { printf "%.3f s", us / 1e6 }'; }
millis() { awk -v us="$1" 'BEGIN { printf "%.1f ms", us / 1e3 }'; }
mib() { awk -v kb="$1" 'BEGIN { printf "%.1f MiB", kb / 1024 }'; }
grouped() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }

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

# --- Query and caches --------------------------------------------------------
QUERY="$WORK/directory.graphql"
cat > "$QUERY" <<EOF
query Directory {
  users(first: $DIRECTORY) {
    __typename
    id
    name
    posts(first: $POSTS_PER_USER) { __typename title }
  }
}
EOF

# generate FILE USERS: writes the cache and checks its record count; sets GEN_US.
GEN_US=0
generate() {
    local file="$1" users="$2" total
    echo "== generating $users users (~$(records_for "$users") records) into $file" >&2
    stamp; local start=$NOW
    "$EXAMPLE" "$file" --users "$users" --posts-per-user "$POSTS_PER_USER" --comments-per-post 0 \
        --directory "$DIRECTORY" >&2
    stamp; GEN_US=$(( NOW - start ))
    total="$("$PYTHON" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM records").fetchone()[0])' "$file")"
    [[ "$total" -eq "$(records_for "$users")" ]] || fail_check "$file has $total records, expected $(records_for "$users")"
    echo "   $total records, $(( $(wc -c < "$file") / 1048576 )) MiB, generated in $(seconds "$GEN_US")" >&2
}

gqlcache_read() { "$GQLCACHE" read "$1" Directory --document "$QUERY" --format json; }
python_walk() { "$PYTHON" -S "$WALK" "$1" --users "$DIRECTORY" --posts "$POSTS_PER_USER"; }

USERS="$(users_for "$RECORDS")"
CACHE="$WORK/read.sqlite"
generate "$CACHE" "$USERS"
CACHE_GEN_US=$GEN_US
TOTAL="$(records_for "$USERS")"
# Let the kernel write the new file back before the timed runs, so that they
# do not compete with that write-back.
sync

# --- Correctness: the same JSON value from both sides ------------------------
# same_data FILE: both sides on FILE must print equal JSON with every user and post.
same_data() {
    local file="$1" verdict
    run_timed "gqlcache read" "$WORK/gqlcache.json" gqlcache_read "$file"
    run_timed "read_walk.py" "$WORK/python.json" python_walk "$file"
    verdict="$("$PYTHON" - "$WORK/gqlcache.json" "$WORK/python.json" "$DIRECTORY" "$POSTS_PER_USER" <<'EOF'
import json, sys
a, b = (json.load(open(path, encoding="utf-8")) for path in sys.argv[1:3])
users, posts = int(sys.argv[3]), int(sys.argv[4])
if a != b:
    print("different data: gqlcache printed %d bytes, read_walk.py %d" % tuple(len(open(p, "rb").read()) for p in sys.argv[1:3]))
elif len(a.get("users", [])) != users or sum(len(u["posts"]) for u in a["users"]) != users * posts:
    print("both printed the same data, but not %d users with %d posts each" % (users, posts))
else:
    print("ok")
EOF
)"
    [[ "$verdict" == ok ]] || fail_check "on $file: $verdict"
}

# --- Timed reads ---------------------------------------------------------------
load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
echo "== read: $RUNS runs each (after one untimed run each, whose outputs are compared)" >&2
same_data "$CACHE"
read_g=(); read_p=()
for (( i = 1; i <= RUNS; i++ )); do
    # Alternate which side goes first, so drift does not favour one.
    for side in $( (( i % 2 )) && echo "g p" || echo "p g" ); do
        if [[ "$side" == g ]]; then
            run_timed "gqlcache read" /dev/null gqlcache_read "$CACHE"; read_g+=("$ELAPSED_US")
        else
            run_timed "read_walk.py" /dev/null python_walk "$CACHE"; read_p+=("$ELAPSED_US")
        fi
    done
done

# --- Peak memory on a small and a large cache ----------------------------------
# rss SIZE FILE: peak RSS of one run of each side, into RSS_G[SIZE] and RSS_P[SIZE].
declare -A RSS_G=() RSS_P=() RSS_RECORDS=()
# (GNU time runs programs, not shell functions: the commands are spelled out.)
rss() {
    RSS_G[$1]="$(peak_kb "gqlcache read" "$GQLCACHE" read "$2" Directory --document "$QUERY" --format json)"
    RSS_P[$1]="$(peak_kb "read_walk.py" "$PYTHON" -S "$WALK" "$2" --users "$DIRECTORY" --posts "$POSTS_PER_USER")"
}
LARGE_GEN_US=""
if [[ "$HAVE_TIME" == 1 ]]; then
    echo "== peak memory: one run each on the small, the timed and the large cache" >&2
    SMALL_USERS="$(users_for "$SMALL_RECORDS")"
    generate "$WORK/small.sqlite" "$SMALL_USERS"
    same_data "$WORK/small.sqlite"
    RSS_RECORDS[small]="$(records_for "$SMALL_USERS")"
    rss small "$WORK/small.sqlite"
    [[ "$KEEP" == 1 ]] || rm -f "$WORK/small.sqlite"
    RSS_RECORDS[timed]="$TOTAL"
    rss timed "$CACHE"
    if [[ "$LARGE" == 1 ]]; then
        LARGE_USERS="$(users_for "$LARGE_RECORDS")"
        generate "$WORK/large.sqlite" "$LARGE_USERS"
        LARGE_GEN_US=$GEN_US
        same_data "$WORK/large.sqlite"
        RSS_RECORDS[large]="$(records_for "$LARGE_USERS")"
        rss large "$WORK/large.sqlite"
        [[ "$KEEP" == 1 ]] || rm -f "$WORK/large.sqlite"
    fi
fi

# --- Report ------------------------------------------------------------------
gm=$(median "${read_g[@]}"); pm=$(median "${read_p[@]}")
r=$(ratio "$gm" "$pm")
met=$(awk -v g="$gm" -v p="$pm" -v t="$TARGET_MS" 'BEGIN { print (g <= t * 1000 && g < p ? "MET" : "MISSED") }')
row() { printf '%-34s %10s   %-24s %10s   %5s   %-34s %s\n' "$@"; }

echo
echo "gqlcache read benchmark ($(grouped "$TOTAL") records; $DIRECTORY users x $POSTS_PER_USER posts read; $RUNS runs, median)"
echo "commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$REPO" diff --quiet HEAD -- Sources 2>/dev/null || echo ' (+ uncommitted Sources changes)'), $("$PYTHON" --version 2>&1) (sqlite $("$PYTHON" -c 'import sqlite3; print(sqlite3.sqlite_version)')), $(uname -sm), $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?') cpus${load:+, load $load}; generated in $(seconds "$CACHE_GEN_US")"
row "" "gqlcache" "baseline" "" "ratio" "target" ""
row "read Directory --format json" "$(millis "$gm")" "python3 -S read_walk.py" "$(millis "$pm")" \
    "$r" "<= $TARGET_MS ms and faster than Python" "$met"
if [[ "$HAVE_TIME" == 1 ]]; then
    sizes=(small timed); [[ "$LARGE" == 1 ]] && sizes+=(large)
    echo "peak RSS of one read (gqlcache / python3):"
    for size in "${sizes[@]}"; do
        printf '  %13s records   %10s / %s\n' "$(grouped "${RSS_RECORDS[$size]}")" "$(mib "${RSS_G[$size]}")" "$(mib "${RSS_P[$size]}")"
    done
    if [[ "$LARGE" == 1 ]]; then
        grow=$(ratio "${RSS_G[large]}" "${RSS_G[small]}")
        flat=$(awk -v r="$grow" -v t="$FLAT_RATIO" 'BEGIN { print (r <= t ? "flat" : "NOT flat") }')
        echo "  gqlcache $(grouped "${RSS_RECORDS[large]}") / $(grouped "${RSS_RECORDS[small]}") records: ${grow}x, $flat (target <= ${FLAT_RATIO}x); large cache generated in $(seconds "$LARGE_GEN_US")"
    else
        echo "  large cache skipped (--no-large or LARGE=0): no flatness verdict"
    fi
else
    echo "peak RSS: skipped (no GNU /usr/bin/time)"
fi
echo "checks: $( [[ "$FAILED" == 0 ]] && echo ok || echo FAILED ): gqlcache and read_walk.py printed the same JSON value" \
    "($DIRECTORY users, $(( DIRECTORY * POSTS_PER_USER )) posts) on each cache"
as_ms() { awk 'BEGIN { for (i = 1; i < ARGC; i++) printf "%s%.1f", (i > 1 ? " " : ""), ARGV[i] / 1000 }' "$@"; }
echo "every run, ms (gqlcache | python3): $(as_ms "${read_g[@]}") | $(as_ms "${read_p[@]}")"

if [[ "$FAILED" != 0 ]]; then
    echo "correctness check FAILED (see above)" >&2
    exit 1
fi
exit 0
