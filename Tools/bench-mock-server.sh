#!/usr/bin/env bash
# Benchmark: fresh-mock (release build) against nginx serving the same page bytes as a static
# file, side by side in one run under wrk, for a 200 and a 304 (If-None-Match with each server's
# own ETag); then fresh-mock's memory over a longer mixed run. Both servers are measured as they
# ship, each logging every request to a file (fresh-mock's request log on stderr, nginx's
# default access_log), and again with logging off (fresh-mock --quiet, access_log off). A third
# server, hummingbird-floor (Tools/Benchmarks/Peers), answers with the same bytes through the
# same HummingbirdCore server and nothing else: the floor fresh-mock's framework sets. Prints a
# markdown table and writes the section "fresh-mock vs nginx (wrk)" of docs/performance.md
# (replacing only that section).
#
# Usage: Tools/bench-mock-server.sh
# Environment (all optional):
#   BENCH_DURATION=10          seconds of each measured wrk run (200 and 304, per server)
#   BENCH_ROUNDS=3             rounds of the four runs; the table shows each figure's median
#   BENCH_MEMORY_DURATION=60   seconds of the memory run against fresh-mock
#   BENCH_WARMUP=2             seconds of an unmeasured wrk run before each measured one
#   BENCH_THREADS=2            wrk threads (-t)
#   BENCH_CONNECTIONS=32       wrk connections (-c)
#   BENCH_QUIET_IDLE=90        before each run, wait until the CPUs were this % idle for a second …
#   BENCH_QUIET_WAIT=120       … but at most this many seconds (the idle % measured is reported)
#   BENCH_SKIP_BUILD=1         use the existing release build of hummingbird-floor
#   BENCH_DOC=docs/performance.md   where the results go ("" = print only)
# Targets (from the issue): fresh-mock ≥ 50 % of nginx's requests/s, p99 ≤ 2 × nginx's,
# zero errors, and no memory growth over the memory run; judged for both pairs (logging, silent),
# on the unrounded ratios of the medians. The report holds only what this run measured.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

DURATION=${BENCH_DURATION:-10}
ROUNDS=${BENCH_ROUNDS:-3}
MEMORY_DURATION=${BENCH_MEMORY_DURATION:-60}
WARMUP=${BENCH_WARMUP:-2}
THREADS=${BENCH_THREADS:-2}
QUIET_IDLE=${BENCH_QUIET_IDLE:-90}
QUIET_WAIT=${BENCH_QUIET_WAIT:-120}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
DOC=${BENCH_DOC-docs/performance.md}
PAGE_PATH='/posts?limit=20'
SECTION_TITLE='fresh-mock vs nginx (wrk)'
# The targets: the least share of its nginx's req/s, the most multiple of its nginx's p99, and the
# memory growth tolerated as allocator noise before "no growth" counts as missed.
MIN_RPS_RATIO=0.5
MAX_P99_RATIO=2
MEMORY_TOLERANCE_KB=1024

for value in "$DURATION" "$ROUNDS" "$MEMORY_DURATION" "$WARMUP" "$THREADS" "$CONNECTIONS" "$QUIET_IDLE" "$QUIET_WAIT"; do
    [[ $value =~ ^[0-9]+$ ]] || { echo "bench: '$value' is not a whole number (see the BENCH_* variables)" >&2; exit 64; }
done
[ "$DURATION" -gt 0 ] && [ "$ROUNDS" -gt 0 ] && [ "$MEMORY_DURATION" -gt 0 ] && [ "$THREADS" -gt 0 ] && [ "$CONNECTIONS" -ge "$THREADS" ] \
    || { echo "bench: durations and threads must be > 0, connections ≥ threads" >&2; exit 64; }

# --- tools ----------------------------------------------------------------------------------
# `make bench-mock` installs them first (its setup and bench-tools prerequisites).
for tool in wrk curl; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (make bench-tools installs it)" >&2; exit 1; }
done
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "bench: nginx is missing (make bench-tools installs it)" >&2; exit 1; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# --- build ----------------------------------------------------------------------------------
# fresh-mock is built as it ships by `make bench-mock` (make build CONFIGURATION=release); a plain
# `swift build -c release` here would build it with other flags, and all of .build/release again.
if [ "${BENCH_SKIP_BUILD:-}" != 1 ]; then
    echo "bench: swift build -c release --product hummingbird-floor (in Tools/Benchmarks)" >&2
    (cd "$ROOT/Tools/Benchmarks" && timeout 3600 swift build -c release --product hummingbird-floor >&2)
fi
BIN=$ROOT/.build/release
FLOOR_BIN=$ROOT/Tools/Benchmarks/.build/release/hummingbird-floor
[ -x "$BIN/fresh-mock" ] || { echo "bench: $BIN/fresh-mock is missing (make bench-mock builds it)" >&2; exit 1; }
[ -x "$FLOOR_BIN" ] || { echo "bench: $FLOOR_BIN is missing" >&2; exit 1; }

# --- processes and cleanup ------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fresh-bench.XXXXXX")
SERVER_PID=""
QUIET_PID=""
NGINX_PID=""
FLOOR_PID=""
WRK_PID=""
source "$ROOT/Tools/lib/mock-server.sh"

cleanup() {
    if [ -n "$WRK_PID" ]; then kill "$WRK_PID" 2>/dev/null || true; wait "$WRK_PID" 2>/dev/null || true; fi
    stop_server || true
    if [ -n "$QUIET_PID" ]; then kill "$QUIET_PID" 2>/dev/null || true; wait "$QUIET_PID" 2>/dev/null || true; fi
    if [ -n "$FLOOR_PID" ]; then kill "$FLOOR_PID" 2>/dev/null || true; wait "$FLOOR_PID" 2>/dev/null || true; fi
    if [ -n "$NGINX_PID" ]; then
        kill -QUIT "$NGINX_PID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$NGINX_PID" 2>/dev/null || true
        wait "$NGINX_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'
}

header_value() { # header_value FILE NAME → the value of the last NAME header in a curl -D dump
    grep -i "^$2:" "$1" | tail -1 | cut -d: -f2- | sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//'
}

status_of() { # status_of URL [curl args...] → the HTTP status code
    local url=$1; shift
    curl -sS --max-time 10 -o /dev/null -w '%{http_code}' "$@" "$url"
}

rss_kb() { # rss_kb PID → VmRSS in kB
    awk '/^VmRSS:/ {print $2}' "/proc/$1/status"
}

wait_for_url() { # wait_for_url PID OUTFILE ERRFILE NAME → the first line of OUTFILE once it is a URL
    local url=""
    for _ in $(seq 100); do
        url=$(head -n 1 "$2" 2>/dev/null || true)
        [[ $url == http://* ]] && { echo "$url"; return; }
        kill -0 "$1" 2>/dev/null || { echo "bench: $4 did not start:" >&2; cat "$3" >&2; exit 1; }
        sleep 0.1
    done
    echo "bench: $4 printed no URL" >&2; exit 1
}

# --- fresh-mock: as it ships (request log on stderr, to a file), and --quiet ------------------
start_server   # stderr → $WORK/server.log
MOCK_URL=$BASE_URL
MOCK_PID=$SERVER_PID
"$BIN/fresh-mock" --port 0 --quiet >"$WORK/quiet.out" 2>"$WORK/quiet.err" &
QUIET_PID=$!
QUIET_URL=$(wait_for_url "$QUIET_PID" "$WORK/quiet.out" "$WORK/quiet.err" "fresh-mock --quiet")
curl -sS --max-time 10 -D "$WORK/mock.headers" -o "$WORK/page.json" "$MOCK_URL$PAGE_PATH"
MOCK_ETAG=$(header_value "$WORK/mock.headers" etag)
[ -n "$MOCK_ETAG" ] || { echo "bench: fresh-mock sent no ETag for $PAGE_PATH" >&2; exit 1; }
PAGE_BYTES=$(wc -c <"$WORK/page.json")

# --- nginx with the same bytes: one server block with its default access log, one without ------
NGINX_PORT=$(free_port)
NGINX_OFF_PORT=$(free_port)
mkdir -p "$WORK/nginx/www" "$WORK/nginx/tmp"
cp "$WORK/page.json" "$WORK/nginx/www/posts"     # served at /posts; nginx ignores ?limit=20
chmod 755 "$WORK" "$WORK/nginx" "$WORK/nginx/www"  # workers may run as another user
chmod 644 "$WORK/nginx/www/posts"
cat >"$WORK/nginx/nginx.conf" <<EOF
daemon off;
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    sendfile on;
    tcp_nopush on;
    etag on;
    keepalive_requests 10000000;
    keepalive_timeout 65;
    client_body_temp_path $WORK/nginx/tmp;
    types { }
    default_type "application/json; charset=utf-8";
    server {
        listen 127.0.0.1:$NGINX_PORT;
        access_log $WORK/nginx/access.log combined;
        root $WORK/nginx/www;
        location / { }
    }
    server {
        listen 127.0.0.1:$NGINX_OFF_PORT;
        access_log off;
        root $WORK/nginx/www;
        location / { }
    }
}
EOF
"$NGINX" -p "$WORK/nginx" -e "$WORK/nginx/error.log" -c "$WORK/nginx/nginx.conf" &
NGINX_PID=$!
NGINX_URL="http://127.0.0.1:$NGINX_PORT"
NGINX_OFF_URL="http://127.0.0.1:$NGINX_OFF_PORT"
for _ in $(seq 100); do
    curl -s --max-time 1 -o /dev/null "$NGINX_URL/posts" && break
    kill -0 "$NGINX_PID" 2>/dev/null || { echo "bench: nginx did not start:" >&2; cat "$WORK/nginx/error.log" >&2; exit 1; }
    sleep 0.1
done
curl -sS --max-time 10 -D "$WORK/nginx.headers" -o "$WORK/nginx-page.json" "$NGINX_URL$PAGE_PATH"
cmp -s "$WORK/page.json" "$WORK/nginx-page.json" || { echo "bench: nginx does not serve the same bytes" >&2; exit 1; }
NGINX_ETAG=$(header_value "$WORK/nginx.headers" etag)
[ -n "$NGINX_ETAG" ] || { echo "bench: nginx sent no ETag" >&2; exit 1; }

# --- hummingbird-floor with the same bytes -----------------------------------------------------
"$FLOOR_BIN" "$WORK/page.json" >"$WORK/floor.out" 2>"$WORK/floor.err" &
FLOOR_PID=$!
FLOOR_URL=$(wait_for_url "$FLOOR_PID" "$WORK/floor.out" "$WORK/floor.err" hummingbird-floor)
curl -sS --max-time 10 -o "$WORK/floor-page.json" "$FLOOR_URL$PAGE_PATH"
cmp -s "$WORK/page.json" "$WORK/floor-page.json" || { echo "bench: hummingbird-floor does not serve the same bytes" >&2; exit 1; }
FLOOR_ETAG='"floor"'

# Each must answer the conditional request with a 304, or the 304 case measures something else.
for pair in "$MOCK_URL|$MOCK_ETAG" "$QUIET_URL|$MOCK_ETAG" "$NGINX_URL|$NGINX_ETAG" "$NGINX_OFF_URL|$NGINX_ETAG" \
    "$FLOOR_URL|$FLOOR_ETAG"; do
    code=$(status_of "${pair%%|*}$PAGE_PATH" -H "If-None-Match: ${pair#*|}")
    [ "$code" = 304 ] || { echo "bench: ${pair%%|*} answered If-None-Match with $code, not 304" >&2; exit 1; }
done

# --- wrk ------------------------------------------------------------------------------------
WRK_ARGS=(-t"$THREADS" -c"$CONNECTIONS" --latency)

run_wrk() { # run_wrk OUTFILE SECONDS [wrk args...] (bounded; killed 30 s after its duration)
    local out=$1 seconds=$2; shift 2
    timeout -k 5 $((seconds + 30)) wrk "${WRK_ARGS[@]}" -d"${seconds}s" "$@" >"$out" 2>&1 &
    WRK_PID=$!
    wait "$WRK_PID" || { echo "bench: wrk failed:" >&2; cat "$out" >&2; WRK_PID=""; exit 1; }
    WRK_PID=""
}

to_ms() { # to_ms "1.23ms" → 1.230
    awk -v v="$1" 'BEGIN {
        n = v + 0
        if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /m$/) n *= 60000; else if (v ~ /s$/) n *= 1000
        printf "%.3f", n }'
}

to_bytes() { # to_bytes "12.34MB" → bytes
    awk -v v="$1" 'BEGIN {
        n = v + 0
        if (v ~ /GB$/) n *= 1073741824; else if (v ~ /MB$/) n *= 1048576; else if (v ~ /KB$/) n *= 1024
        printf "%.0f", n }'
}

# parse_wrk FILE → "RPS P99_MS ERRORS REQUESTS BYTES_PER_RESPONSE"
parse_wrk() {
    local file=$1 rps p99 requests read_bytes socket non2xx
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$file")
    p99=$(to_ms "$(awk '$1 == "99%" {print $2}' "$file")")
    requests=$(awk '/requests in/ {print $1}' "$file")
    read_bytes=$(to_bytes "$(awk '/requests in/ {print $5}' "$file")")
    socket=$(awk '/Socket errors:/ { gsub(",", ""); print $4 + $6 + $8 + $10 }' "$file")
    non2xx=$(awk '/Non-2xx or 3xx responses:/ {print $5}' "$file")
    [ -n "$rps" ] && [ -n "$requests" ] || { echo "bench: cannot parse wrk output:" >&2; cat "$file" >&2; exit 1; }
    echo "$rps $p99 $((${socket:-0} + ${non2xx:-0})) $requests $((read_bytes / (requests > 0 ? requests : 1)))"
}

cpu_idle_percent() { # → % of CPU time idle over the next second, all CPUs (from /proc/stat)
    local a b
    read -r -a a < /proc/stat; sleep 1; read -r -a b < /proc/stat
    awk -v a="${a[*]:1:8}" -v b="${b[*]:1:8}" 'BEGIN {
        split(a, x, " "); split(b, y, " ")
        for (i = 1; i <= 8; i++) { total += y[i] - x[i]; if (i == 4 || i == 5) idle += y[i] - x[i] }
        printf "%d", (total > 0 ? 100 * idle / total : 100) }'
}

wait_for_quiet() { # → the idle % of the last second checked; waits while other processes load the CPUs
    local waited=0 idle
    idle=$(cpu_idle_percent)
    while [ "$idle" -lt "$QUIET_IDLE" ] && [ "$waited" -lt "$QUIET_WAIT" ]; do
        if [ "$waited" = 0 ]; then echo "bench: CPUs only ${idle}% idle; waiting up to ${QUIET_WAIT}s for ${QUIET_IDLE}%" >&2; fi
        idle=$(cpu_idle_percent); waited=$((waited + 1))
    done
    echo "$idle"
}

# Per "server,case": space-separated figures of every round, errors summed over the rounds.
declare -A RPS P99 ERRORS BYTES IDLE
measure() { # measure ROUND SERVER CASE URL [wrk args...]
    local round=$1 server=$2 case=$3 url=$4 line rps p99 errors bytes idle; shift 4
    local out="$WORK/wrk-$server-$case-$round.txt" key="$server,$case"
    idle=$(wait_for_quiet)
    IDLE[$key]+="$idle "
    echo "bench: round $round/$ROUNDS: $server $case (CPUs ${idle}% idle; ${WARMUP}s warm-up, ${DURATION}s measured)" >&2
    if [ "$WARMUP" -gt 0 ]; then run_wrk "$WORK/warmup.txt" "$WARMUP" "$@" "$url"; fi
    run_wrk "$out" "$DURATION" "$@" "$url"
    line=$(parse_wrk "$out")
    read -r rps p99 errors _ bytes <<<"$line"
    RPS[$key]+="$rps "
    P99[$key]+="$p99 "
    ERRORS[$key]=$(( ${ERRORS[$key]:-0} + errors ))
    BYTES[$key]=$bytes
}

median() { # median "1 3 2" → 2
    tr ' ' '\n' <<<"$1" | grep . | sort -g \
        | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
# Interleaved, round after round, so that both servers meet the same machine state.
for round in $(seq "$ROUNDS"); do
    for case in 200 304; do
        mock_h=() nginx_h=() floor_h=()
        if [ "$case" = 304 ]; then
            mock_h=(-H "If-None-Match: $MOCK_ETAG") nginx_h=(-H "If-None-Match: $NGINX_ETAG") floor_h=(-H "If-None-Match: $FLOOR_ETAG")
        fi
        measure "$round" fresh-mock "$case" "$MOCK_URL$PAGE_PATH" "${mock_h[@]}"
        measure "$round" nginx "$case" "$NGINX_URL$PAGE_PATH" "${nginx_h[@]}"
        measure "$round" fresh-mock-quiet "$case" "$QUIET_URL$PAGE_PATH" "${mock_h[@]}"
        measure "$round" nginx-log-off "$case" "$NGINX_OFF_URL$PAGE_PATH" "${nginx_h[@]}"
        measure "$round" hummingbird-floor "$case" "$FLOOR_URL$PAGE_PATH" "${floor_h[@]}"
    done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# --- memory: a mixed 200/304 run against fresh-mock, RSS sampled throughout -----------------
cat >"$WORK/mixed.lua" <<EOF
-- Every other request revalidates with fresh-mock's ETag (a 304), the rest are plain GETs (200s).
local count = 0
local plain, conditional
init = function(args)
    plain = wrk.format("GET")
    conditional = wrk.format("GET", nil, { ["If-None-Match"] = '$MOCK_ETAG' })
end
request = function()
    count = count + 1
    if count % 2 == 0 then return conditional end
    return plain
end
EOF
echo "bench: fresh-mock memory (${MEMORY_DURATION}s mixed 200/304)" >&2
MEMORY_START_KB=$(rss_kb "$MOCK_PID")
MEMORY_SAMPLES=()
timeout -k 5 $((MEMORY_DURATION + 30)) wrk "${WRK_ARGS[@]}" -d"${MEMORY_DURATION}s" -s "$WORK/mixed.lua" \
    "$MOCK_URL$PAGE_PATH" >"$WORK/wrk-memory.txt" 2>&1 &
WRK_PID=$!
SAMPLE_EVERY=$(( MEMORY_DURATION >= 12 ? MEMORY_DURATION / 6 : 2 ))
MEMORY_PEAK_KB=$MEMORY_START_KB
elapsed=0
while kill -0 "$WRK_PID" 2>/dev/null && [ "$elapsed" -lt "$MEMORY_DURATION" ]; do
    sleep 1; elapsed=$((elapsed + 1))
    now=$(rss_kb "$MOCK_PID")
    if [ "$now" -gt "$MEMORY_PEAK_KB" ]; then MEMORY_PEAK_KB=$now; fi
    if (( elapsed % SAMPLE_EVERY == 0 )); then MEMORY_SAMPLES+=("${elapsed}s: $((now / 1024)) MiB"); fi
done
MEMORY_END_KB=$(rss_kb "$MOCK_PID")   # sampled while wrk's last second is still running
wait "$WRK_PID" || { echo "bench: wrk (memory run) failed:" >&2; cat "$WORK/wrk-memory.txt" >&2; WRK_PID=""; exit 1; }
WRK_PID=""
line=$(parse_wrk "$WORK/wrk-memory.txt")
read -r MEMORY_RPS _ MEMORY_ERRORS MEMORY_REQUESTS _ <<<"$line"
MEMORY_GROWTH_KB=$((MEMORY_END_KB - MEMORY_START_KB))
MEMORY_MET=$([ "$MEMORY_GROWTH_KB" -le "$MEMORY_TOLERANCE_KB" ] && [ "$MEMORY_ERRORS" -eq 0 ] && echo yes || echo no)

# --- report ---------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }  # shown, never judged

rounded() { # rounded "1.5 2.25" → "2 2"
    local out="" value
    for value in $1; do out+="$(printf '%.0f' "$value") "; done
    echo "${out% }"
}

TABLE="| server | case | req/s | p99 (ms) | errors | bytes/response | req/s vs its nginx | p99 vs its nginx | target met | req/s per round | p99 per round (ms) | CPU idle before (%) |
|---|---|---:|---:|---:|---:|---:|---:|---|---|---|---|"
ALL_MET=yes
row() { # row SERVER CASE VS_NGINX TARGET_NOTE → one table line
    local server=$1 case=$2 baseline=$3 note=$4 rps p99
    rps=$(median "${RPS[$server,$case]}"); p99=$(median "${P99[$server,$case]}")
    TABLE+=$'\n'"| $server | $case | $(printf '%.0f' "$rps") | $p99 | ${ERRORS[$server,$case]} | ${BYTES[$server,$case]} | $(ratio "$rps" "$(median "${RPS[$baseline,$case]}")") | $(ratio "$p99" "$(median "${P99[$baseline,$case]}")") | $note | $(rounded "${RPS[$server,$case]}") | ${P99[$server,$case]% } | ${IDLE[$server,$case]% } |"
}
judge() { # judge MOCK NGINX CASE → yes / no: req/s ≥ MIN_RPS_RATIO ×, p99 ≤ MAX_P99_RATIO ×, no errors
    # The ratios are computed here from the medians, unrounded (0.4951 is not ≥ 0.5).
    awk -v mock_rps="$(median "${RPS[$1,$3]}")" -v nginx_rps="$(median "${RPS[$2,$3]}")" \
        -v mock_p99="$(median "${P99[$1,$3]}")" -v nginx_p99="$(median "${P99[$2,$3]}")" -v errors="${ERRORS[$1,$3]}" \
        -v min_rps="$MIN_RPS_RATIO" -v max_p99="$MAX_P99_RATIO" \
        'BEGIN { print (nginx_rps > 0 && nginx_p99 > 0 && mock_rps / nginx_rps >= min_rps && mock_p99 / nginx_p99 <= max_p99 \
                        && errors == 0) ? "yes" : "no" }'
}
for case in 200 304; do
    for pair in "fresh-mock nginx" "fresh-mock-quiet nginx-log-off"; do
        read -r mock nginx <<<"$pair"
        met=$(judge "$mock" "$nginx" "$case")
        [ "$met" = yes ] || ALL_MET=no
        row "$mock" "$case" "$nginx" "$met"
        row "$nginx" "$case" "$nginx" "(baseline)"
    done
    frps=$(median "${RPS[hummingbird-floor,$case]}")
    row hummingbird-floor "$case" nginx-log-off "(peer; fresh-mock --quiet = $(ratio "$(median "${RPS[fresh-mock-quiet,$case]}")" "$frps") × its req/s)"
done
[ "$MEMORY_MET" = yes ] || ALL_MET=no

CPU_MODEL=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
WRK_VERSION=$(wrk -v 2>&1 | head -1 | awk '{print $1, $2}' || true)
NGINX_VERSION=$("$NGINX" -v 2>&1 | sed 's/^nginx version: //')
MOCK_COMMAND="fresh-mock --port 0 2>>server.log   # defaults: 100 posts, max-age 60, request log on stderr"
WRK_200="wrk ${WRK_ARGS[*]} -d${DURATION}s URL/posts?limit=20"
WRK_304="wrk ${WRK_ARGS[*]} -d${DURATION}s -H 'If-None-Match: <the server's own ETag>' URL/posts?limit=20"
WRK_MEMORY="wrk ${WRK_ARGS[*]} -d${MEMORY_DURATION}s -s mixed.lua MOCK_URL/posts?limit=20   # every other request If-None-Match"

SECTION=$(cat <<EOF
## $SECTION_TITLE

Written by \`Tools/bench-mock-server.sh\` (\`make bench-mock\`); rerun it to refresh this section.

**Targets** (fresh-mock against nginx serving the same page bytes as a static file, same run):
≥ ${MIN_RPS_RATIO} × nginx's requests/s, p99 latency ≤ ${MAX_P99_RATIO} × nginx's, zero errors, and no memory growth over
a ${MEMORY_DURATION} s run; judged twice: both servers as they ship, each writing a line per
request to a file (fresh-mock's request log, nginx's default \`access_log\`), and both silent
(\`fresh-mock --quiet\`, \`access_log off\`). **All met: $ALL_MET.**

- Date: $(date -u '+%Y-%m-%d %H:%M UTC')
- Machine: $(nproc) CPUs, ${CPU_MODEL:-unknown CPU}, $(uname -sr); wrk and both servers share these CPUs
  (load average before the runs: $LOAD_BEFORE, after: $LOAD_AFTER)
- Tools: ${WRK_VERSION:-wrk}, $NGINX_VERSION, fresh-mock release build as it ships (\`make build CONFIGURATION=release\`)
- hummingbird-floor (\`Tools/Benchmarks/Peers/HummingbirdFloor\`, release): the same page bytes through the same
  HummingbirdCore server and a custom \`HTTPResponder\`, like fresh-mock, but nothing else (no routing, query,
  faults, statistics or journal): a 200 with the bytes, or a 304 when \`If-None-Match\` is \`"floor"\`. What
  fresh-mock costs beyond it is the mock's own work; what it costs beyond nginx is the framework's.
- Page: \`GET /posts?limit=20\`, $PAGE_BYTES body bytes; fresh-mock ETag \`$MOCK_ETAG\`, nginx ETag \`$NGINX_ETAG\`
- fresh-mock: \`$MOCK_COMMAND\`; fresh-mock-quiet: the same with \`--quiet\`
- nginx: \`worker_processes auto; sendfile on; etag on; keepalive_requests 10000000;\` and
  \`access_log FILE combined\` (nginx's default, one unbuffered write per request); nginx-log-off: the
  same server with \`access_log off\`. The page bytes are the file \`/posts\` (the query string is ignored)
- $ROUNDS rounds; in each the servers are measured alternately (fresh-mock, nginx, fresh-mock-quiet,
  nginx-log-off, hummingbird-floor for the 200, then the same for the 304), each measured run after a
  ${WARMUP} s warm-up. The table shows the median over the rounds (errors: the sum), then every round's figure:
  - 200: \`$WRK_200\`
  - 304: \`$WRK_304\`

$TABLE

errors = socket errors (connect, read, write, timeout) + non-2xx/3xx responses.
target met = req/s ≥ ${MIN_RPS_RATIO} × its nginx's, p99 ≤ ${MAX_P99_RATIO} × its nginx's, and no errors (fresh-mock against nginx, fresh-mock-quiet against nginx-log-off),
judged on the unrounded ratios of the medians (the table shows them rounded).
bytes/response = bytes wrk read per response (headers included), which shows the 304 runs got 304s.
CPU idle before = how idle the machine was in the second before each run (both servers idle then);
below ${QUIET_IDLE} % other work was competing for the CPUs and that round's figures are less reliable.
hummingbird-floor is the framework's own ceiling for this page: where fresh-mock-quiet is near 1.0 × the
floor, the mock's own work (routing, validators, statistics, journal) costs next to nothing and what is left
against nginx is the per-request cost of HummingbirdCore and NIO; fresh-mock against fresh-mock-quiet is the
cost of the request log.

What keeps fresh-mock's answers cheap (\`Apps/MockServer\`): each representation's encoded body,
ETag, \`Last-Modified\` and its own headers are built once and kept by \`MockStore\` until a write
changes the dataset, so a 200 or a 304 does no JSON encoding, hashing or date formatting; an
\`If-None-Match\` equal to the current tag is matched without parsing; \`Cache-Control\` is formatted
once per server; the query is decoded without Foundation unless it holds \`%\` or \`+\`; the journal is
a fixed ring; Hummingbird caches the \`Date\` header per second; a request hands its log line's fields
to the request log's own thread, which formats and writes them in batches (one \`write\` for many lines
under load).
Tried and dropped: making NIO's event loops Swift Concurrency's global executor
(\`NIOSingletons.unsafeTryInstall…GlobalExecutor\`) removed the thread hops, but on CPUs shared with
wrk it cost req/s and raised p99; so did one event-loop thread instead of two.

**Memory** (fresh-mock RSS from \`/proc/PID/status\` VmRSS, after the runs above):
\`$WRK_MEMORY\`

| start | end | growth | peak | samples | requests | req/s | errors | no growth (≤ $((MEMORY_TOLERANCE_KB / 1024)) MiB) |
|---:|---:|---:|---:|---|---:|---:|---:|---|
| $((MEMORY_START_KB / 1024)) MiB | $((MEMORY_END_KB / 1024)) MiB | ${MEMORY_GROWTH_KB} kB | $((MEMORY_PEAK_KB / 1024)) MiB | ${MEMORY_SAMPLES[*]:-} | $MEMORY_REQUESTS | $(printf '%.0f' "$MEMORY_RPS") | $MEMORY_ERRORS | $MEMORY_MET |
EOF
)

echo
echo "$SECTION"

if [ -n "$DOC" ]; then
    # Replace only this section (up to the next "## " heading), or append it; create the file if needed.
    printf '%s\n' "$SECTION" | python3 "$ROOT/Tools/bench/performance_doc.py" "$DOC" "## $SECTION_TITLE"
    echo >&2
    echo "bench: wrote the section \"$SECTION_TITLE\" of $DOC" >&2
fi
