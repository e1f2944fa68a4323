#!/usr/bin/env bash
# gqlcache refs/show benchmark: times `refs` and `show --depth 1` of a root
# that holds one long list of references, at two list lengths (N and 4N),
# against the sqlite3 CLI joining the same list to the records it names, in
# the same run. The time must grow with the list, not with its square.
#
#   Benchmarks/refs.sh [--runs N] [--keep] [--no-build]
#
# Environment (flags win over variables):
#   LIST=N           references in the shorter list (default 50000; the longer has 4N)
#   RUNS=N           timed repetitions of each measurement (default 3); medians are reported
#   BENCH_BUILD=DIR  SwiftPM scratch path (default: REPO/.build)
#   BENCH_KEEP=1     keep the temporary work directory
#   BENCH_NO_BUILD=1 do not build; use the binary already in the scratch path
#
# The caches (python3's sqlite3 module writes them): QUERY_ROOT.users lists N
# keys User:0 … User:N-1; each user references its avatar, a record keyed
# by path (User:7.avatar(size:64)), and five posts, which exist.
#
# What is measured on each cache (wall time of the whole process, output to
# /dev/null, median of RUNS, the sides alternating which goes first):
#   refs        gqlcache refs FILE QUERY_ROOT
#   show        gqlcache show FILE QUERY_ROOT --depth 1 --format jsonl
#   baseline    sqlite3 FILE: the list's elements joined to their records,
#               and the references those records hold checked for a record
#               (what refs reads and looks up)
#   incoming    gqlcache refs FILE User:0, whom one record (Pins:1, which no
#               root reaches) references N times in one list, besides its posts
#   arguments   gqlcache show FILE User:0 … User:K-1 --format jsonl, K = N/5
#               keys as arguments, as $(cat keys.txt) gives them (the argument
#               parser once took 9 s over 20,000 keys before the command began)
# Printed: each time and its ratio to the baseline, and how much each grew
# from N to 4N. Targets: each ratio <= 6, and growth <= 6 (a list 4 times as
# long; a cost in the square of the list would grow 16 times: placing N
# references into one record's list once took 15 minutes at 2,000,000).
#
# Memory (GNU /usr/bin/time -f %M; skipped without it): the peak RSS of
#   gqlcache show FILE QUERY_ROOT --depth 2 --format jsonl
# on both caches, which reaches every record. Printed: what each record
# more costs from N to 4N, in bytes. The json forms are written as they are
# read, holding the keys seen, not the records. Target: <= 200 bytes a
# record (holding the decoded records took over 1,300).
#
# It is a report, not a test: it exits 0 when a target is missed, and
# non-zero only when a command fails or the benchmark cannot run.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=lib.sh
source "$REPO/Benchmarks/lib.sh"
common_settings
LIST="${LIST:-50000}"

RATIO_TARGET=6
GROWTH_TARGET=6
BYTES_PER_RECORD_TARGET=200

parse_common_flags "$@"
is_count "$LIST" && [[ "$LIST" -ge 5 ]] || die "LIST must be a whole number >= 5"
command -v sqlite3 >/dev/null || die "sqlite3 (the CLI) is needed for the baseline"
command -v python3 >/dev/null || die "python3 is needed to generate the caches"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/gqlcache-refs.XXXXXX")"
cleanup() { if [[ "$KEEP" == 1 ]]; then echo "work directory kept: $WORK" >&2; else rm -rf "$WORK"; fi; }
trap cleanup EXIT

if [[ "$NO_BUILD" != 1 ]]; then
    echo "== building the release binary (scratch path $BUILD)" >&2
    (cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --product gqlcache >&2)
fi
BIN="$(cd "$REPO" && swift build "${RELEASE_FLAGS[@]}" --scratch-path "$BUILD" --show-bin-path 2>/dev/null || echo "$BUILD/release")"
GQLCACHE="$BIN/gqlcache"
[[ -x "$GQLCACHE" ]] || die "no release binary in $BIN (build it, or drop BENCH_NO_BUILD)"

generate() {
    python3 - "$1" "$2" <<'PY'
import json, sqlite3, sys
path, n = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(path)
db.execute("CREATE TABLE records(_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, record TEXT)")
ref = lambda key: {"$reference": key}
def rows():
    yield "QUERY_ROOT", json.dumps({"users": [ref(f"User:{i}") for i in range(n)]})
    for i in range(n):
        avatar = f"User:{i}.avatar(size:64)"
        posts = [f"Post:{i * 5 + j}" for j in range(5)]
        yield f"User:{i}", json.dumps({"__typename": "User", "id": str(i), "avatar(size:64)": ref(avatar),
                                       "posts(first:5)": [ref(p) for p in posts]})
        yield avatar, json.dumps({"__typename": "Image", "url": f"https://example.com/{i}.png"})
        for p in posts:
            yield p, json.dumps({"__typename": "Post", "author": ref(f"User:{i}")})
    yield "Pins:1", json.dumps({"__typename": "Pins", "pinned": [ref("User:0")] * n})
db.executemany("INSERT INTO records(key, record) VALUES (?, ?)", rows())
db.commit()
PY
}

BASELINE_SQL="SELECT count(*), count(t.key) FROM records q, json_each(q.record, '\$.users') e
  JOIN records u ON u.key = json_extract(e.value, '\$.\$reference')
  JOIN json_tree(u.record) r ON r.key = '\$reference'
  LEFT JOIN records t ON t.key = r.value
  WHERE q.key = 'QUERY_ROOT'"

time_of() {  # time_of CMD...: sets ELAPSED_US; a failing command ends the benchmark
    local start status=0
    stamp; start=$NOW
    "$@" >/dev/null 2>"$WORK/stderr.txt" || status=$?
    stamp
    if [[ "$status" -ne 0 ]]; then
        echo "refs.sh: failed (exit $status): $*" >&2
        sed 's/^/  | /' "$WORK/stderr.txt" >&2
        exit 1
    fi
    ELAPSED_US=$(( NOW - start ))
}

declare -A MEDIAN
measure() {  # measure SIZE FILE
    local size="$1" file="$2" i side
    local -a refs=() show=() base=() incoming=() arguments=() keys=()
    mapfile -t keys < <(seq 0 $(( size / 5 - 1 )) | sed 's/^/User:/')
    for (( i = 1; i <= RUNS; i++ )); do
        for side in $( (( i % 2 )) && echo "g s" || echo "s g" ); do
            if [[ "$side" == g ]]; then
                time_of "$GQLCACHE" refs "$file" QUERY_ROOT; refs+=("$ELAPSED_US")
                time_of "$GQLCACHE" show "$file" QUERY_ROOT --depth 1 --format jsonl; show+=("$ELAPSED_US")
                time_of "$GQLCACHE" refs "$file" User:0; incoming+=("$ELAPSED_US")
                time_of "$GQLCACHE" show "$file" "${keys[@]}" --format jsonl; arguments+=("$ELAPSED_US")
            else
                time_of sqlite3 "$file" "$BASELINE_SQL"; base+=("$ELAPSED_US")
            fi
        done
    done
    MEDIAN[refs.$size]="$(median "${refs[@]}")"
    MEDIAN[show.$size]="$(median "${show[@]}")"
    MEDIAN[base.$size]="$(median "${base[@]}")"
    MEDIAN[incoming.$size]="$(median "${incoming[@]}")"
    MEDIAN[arguments.$size]="$(median "${arguments[@]}")"
}

load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
for size in "$LIST" $(( 4 * LIST )); do
    file="$WORK/list-$size.sqlite"
    echo "== generating a list of $size references ($(( 7 * size + 2 )) records)" >&2
    generate "$file" "$size"
    echo "== timing: $RUNS runs each" >&2
    measure "$size" "$file"
    if [[ "$HAVE_TIME" == 1 ]]; then
        echo "== peak memory of show --depth 2" >&2
        /usr/bin/time -f %M -o "$WORK/rss.txt" "$GQLCACHE" show "$file" QUERY_ROOT --depth 2 --format jsonl >/dev/null 2>"$WORK/stderr.txt" \
            || { sed 's/^/  | /' "$WORK/stderr.txt" >&2; exit 1; }
        MEDIAN[rss.$size]="$(tail -n 1 "$WORK/rss.txt")"
    fi
done

secs() { awk -v us="$1" 'BEGIN { printf "%.3f s", us / 1e6 }'; }
echo
echo "gqlcache refs/show of a root with one long list (load average before: ${load:-unknown})"
printf '%-10s %-12s %-12s %-12s %-14s %-14s\n' "list" "refs" "show" "sqlite3" "refs/sqlite3" "show/sqlite3"
for size in "$LIST" $(( 4 * LIST )); do
    r="$(ratio "${MEDIAN[refs.$size]}" "${MEDIAN[base.$size]}")"
    s="$(ratio "${MEDIAN[show.$size]}" "${MEDIAN[base.$size]}")"
    printf '%-10s %-12s %-12s %-12s %-14s %-14s\n' "$size" "$(secs "${MEDIAN[refs.$size]}")" "$(secs "${MEDIAN[show.$size]}")" \
        "$(secs "${MEDIAN[base.$size]}")" "$r $(verdict "$r" "$RATIO_TARGET")" "$s $(verdict "$s" "$RATIO_TARGET")"
done
big=$(( 4 * LIST ))
echo "refs User:0 (N references from one list): $(secs "${MEDIAN[incoming.$LIST]}") at $LIST, $(secs "${MEDIAN[incoming.$big]}") at $big"
echo "show of N/5 keys given as arguments: $(secs "${MEDIAN[arguments.$LIST]}") at $LIST, $(secs "${MEDIAN[arguments.$big]}") at $big"
for command in refs show incoming arguments base; do
    growth="$(ratio "${MEDIAN[$command.$big]}" "${MEDIAN[$command.$LIST]}")"
    name="$command"; [[ "$command" == base ]] && name="sqlite3"
    if [[ "$command" == base ]]; then
        echo "growth from $LIST to $big: $name $growth"
    else
        echo "growth from $LIST to $big: $name $growth (target <= $GROWTH_TARGET) $(verdict "$growth" "$GROWTH_TARGET")"
    fi
done
if [[ "$HAVE_TIME" == 1 ]]; then
    # Each user brings 7 records: itself, its avatar and five posts.
    per_record="$(awk -v a="${MEDIAN[rss.$LIST]}" -v b="${MEDIAN[rss.$big]}" -v n="$(( 7 * (big - LIST) ))" \
        'BEGIN { printf "%.0f", (b - a) * 1024 / n }')"
    echo "peak RSS of show --depth 2 --format jsonl: ${MEDIAN[rss.$LIST]} KiB at $LIST, ${MEDIAN[rss.$big]} KiB at $big;" \
        "$per_record bytes a record more (target <= $BYTES_PER_RECORD_TARGET) $(verdict "$per_record" "$BYTES_PER_RECORD_TARGET")"
else
    echo "peak RSS: not measured (no GNU /usr/bin/time)"
fi
