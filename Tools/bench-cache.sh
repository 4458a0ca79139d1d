#!/usr/bin/env bash
# HTTP cache benchmarks, side by side in one run: fresh's CachingClient / CacheDatabase /
# CurlTransport against Foundation's URLSession + URLCache and python's hishel, over loopback.
# Each round runs the Swift suite and the hishel suite, in an order that alternates from round
# to round; hishel hits entries of the Swift suite's bytes (1 KB, 100 KB) and revalidates the
# same URL. Prints a markdown table and writes the section "HTTP cache (fresh vs URLSession vs
# hishel)" of docs/performance.md. Usage: Tools/bench-cache.sh   (or: make bench-cache);
# BENCH_ROUNDS=N sets the number of rounds (default 3).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PACKAGE="$ROOT/Tools/Benchmarks"
DOC="$ROOT/docs/performance.md"
SWIFT=${SWIFT:-swift}
PYTHON=${PYTHON:-python3}
HISHEL_VERSION=2.0.0
ROUNDS=${BENCH_ROUNDS:-3}
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "BENCH_ROUNDS must be a whole number of at least 1, not '$ROUNDS'" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fresh-bench-cache.XXXXXX")
SERVER_PIDS=()

cleanup() {
    for pid in "${SERVER_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${SERVER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

step() { printf '\n==> %s\n' "$*" >&2; }

# Starts a release fresh-mock on a free loopback port; sets STARTED_URL to its base URL.
start_mock() {
    local log="$WORK/mock-$#-$RANDOM.out"
    "$MOCK" --host 127.0.0.1 --port 0 "$@" >"$log" 2>&1 &
    SERVER_PIDS+=($!)
    for _ in $(seq 100); do
        STARTED_URL=$(head -n 1 "$log" 2>/dev/null || true)
        [[ $STARTED_URL == http://* ]] && return 0
        sleep 0.1
    done
    echo "fresh-mock did not start: $(cat "$log")" >&2
    exit 1
}

step "release build of the benchmark package (first build takes several minutes)"
(cd "$PACKAGE" && timeout 3600 "$SWIFT" build -c release --product HTTPCacheBenchmarks >&2 \
    && timeout 3600 "$SWIFT" build -c release --product fresh-mock >&2)
MOCK="$PACKAGE/.build/release/fresh-mock"

step "python packages (hishel $HISHEL_VERSION with httpx)"
if ! "$PYTHON" -c "import hishel.httpx, sys; from importlib.metadata import version; sys.exit(version('hishel') != '$HISHEL_VERSION')" 2>/dev/null; then
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "hishel[httpx]==$HISHEL_VERSION"
fi

step "fresh-mock on loopback"
start_mock --max-age 0
REVALIDATE_URL="$STARTED_URL/posts/1"
echo "revalidation / GET: $REVALIDATE_URL" >&2

swift_suite() { # swift_suite ROUND: the Swift suite's percentiles into $WORK/swift-ROUND
    step "round $1 of $ROUNDS: Swift suite (ordo-one/benchmark, wall clock per operation)"
    mkdir -p "$WORK/swift-$1"
    (cd "$PACKAGE" && FRESH_BENCH_REVALIDATE_URL="$REVALIDATE_URL" timeout 1200 "$SWIFT" package \
        --allow-writing-to-directory "$WORK/swift-$1" benchmark run --target HTTPCacheBenchmarks --no-progress \
        --format histogramPercentiles --path "$WORK/swift-$1" >&2)
}

hishel_suite() { # hishel_suite ROUND: hishel's figures into $WORK/hishel-ROUND.json
    step "round $1 of $ROUNDS: hishel suite (python, the same bytes and the same server)"
    timeout 600 "$PYTHON" "$PACKAGE/hishel_bench.py" --revalidate-url "$REVALIDATE_URL" >"$WORK/hishel-$1.json"
}

# Rounds, one after the other: a single run of a microsecond benchmark on a shared machine moves
# by tens of percent with the machine's state; the report takes the median over rounds of each
# figure, and compares fresh with a peer within each round. The suites take turns going first,
# so neither always meets the machine the other one left.
REPORT_INPUTS=()
for round in $(seq "$ROUNDS"); do
    if (( round % 2 == 1 )); then
        swift_suite "$round"; hishel_suite "$round"
    else
        hishel_suite "$round"; swift_suite "$round"
    fi
    REPORT_INPUTS+=(--swift-dir "$WORK/swift-$round" --hishel-json "$WORK/hishel-$round.json")
done

# The one-per-sample 100 KB rows once more with the whole suite on one core, so no sample can
# start on another core than the one before (what that costs is explained in the report).
if command -v taskset >/dev/null; then
    step "pinned pass: the one-per-sample 100 KB rows on one core (taskset -c 0)"
    mkdir -p "$WORK/pinned"
    (cd "$PACKAGE" && FRESH_BENCH_REVALIDATE_URL="$REVALIDATE_URL" timeout 1200 taskset -c 0 "$SWIFT" package \
        --allow-writing-to-directory "$WORK/pinned" benchmark run --target HTTPCacheBenchmarks --no-progress \
        --filter 'fresh\.sqliteHit\.100KB\.isolated' --filter 'urlsession\.returnCacheDataDontLoad\.100KB\.isolated' \
        --format histogramPercentiles --path "$WORK/pinned" >&2)
    REPORT_INPUTS+=(--pinned-dir "$WORK/pinned")
fi

step "report"
CPU=$(grep -m 1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || uname -m)
COMMANDS="make bench-cache        # runs Tools/bench-cache.sh, which does:
cd Tools/Benchmarks && swift build -c release --product HTTPCacheBenchmarks && swift build -c release --product fresh-mock
Tools/Benchmarks/.build/release/fresh-mock --host 127.0.0.1 --port 0 --max-age 0      # GET and 304 URL
cd Tools/Benchmarks && FRESH_BENCH_REVALIDATE_URL=\$URL/posts/1 swift package --allow-writing-to-directory DIR \\
    benchmark run --target HTTPCacheBenchmarks --no-progress --format histogramPercentiles --path DIR
python3 Tools/Benchmarks/hishel_bench.py --revalidate-url \$URL/posts/1
# the two commands above (benchmark run, hishel_bench.py) once per round, $ROUNDS rounds, the
# first of the two alternating (odd rounds: the Swift suite first; even rounds: hishel first), then
# the pinned rows: taskset -c 0 swift package … benchmark run --filter '…100KB\.isolated' …, and:
python3 Tools/Benchmarks/report.py ...   # this table, into docs/performance.md"
"$PYTHON" "$PACKAGE/report.py" "${REPORT_INPUTS[@]}" --doc "$DOC" \
    --date "$(date -u '+%Y-%m-%d %H:%M UTC')" \
    --machine "$(nproc) cores, $CPU, $(uname -sr), $("$SWIFT" --version 2>/dev/null | head -n 1 | sed 's/^.*Swift version/Swift/')" \
    --commands "$COMMANDS" --url "/posts/1"
echo "wrote the section \"HTTP cache (fresh vs URLSession vs hishel)\" of $DOC" >&2
