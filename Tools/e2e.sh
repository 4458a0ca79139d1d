#!/usr/bin/env bash
# End-to-end test: the three programs against each other over loopback, each check printed,
# `N passed, N failed` as the last line, non-zero exit on any failure.
# Usage: Tools/e2e.sh BIN_DIR   (BIN_DIR holds fresh, fresh-reader, fresh-mock)
set -uo pipefail

BIN=$(cd "${1:-.build/debug}" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fresh-e2e.XXXXXX")
TMUX_SESSION="fresh-e2e-$$"
SERVER_PID=""
PASSED=0
FAILED=0

source "$(dirname "$0")/lib/mock-server.sh"

cleanup() {
    stop_server
    tmux kill-session -t "$TMUX_SESSION" 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

check() { # check "description" command...
    local description=$1; shift
    if "$@"; then
        PASSED=$((PASSED + 1)); echo "PASS  $description"
    else
        FAILED=$((FAILED + 1)); echo "FAIL  $description"
    fi
}

# Fields of the summary line: "synced P pages (N items): R requests sent, A × 200, B × 304,
# C fresh hits, X body bytes received, Y bytes saved"
parse_summary() {
    read -r PAGES ITEMS REQUESTS OK NOT_MODIFIED HITS RECEIVED < <(
        sed -E 's/^synced ([0-9]+) pages \(([0-9]+) items\): ([0-9]+) requests sent, ([0-9]+) × 200, ([0-9]+) × 304, ([0-9]+) fresh hits, ([0-9]+) body bytes received.*/\1 \2 \3 \4 \5 \6 \7/' <<<"$1")
}

sync_posts() { # sync_posts DB_DIR → sets SUMMARY and the parsed fields
    SUMMARY=$("$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$1" 2>>"$WORK/fresh.err")
    echo "      $SUMMARY"
    parse_summary "$SUMMARY"
}

# --- 1. caching server (max-age 60): first sync downloads, second sends nothing -------------
start_server --max-age 60 --posts 95
sync_posts "$WORK/fresh-db"
check "first sync downloads every page (all 200)" \
    test "$PAGES" -gt 1 -a "$OK" -eq "$PAGES" -a "$NOT_MODIFIED" -eq 0 -a "$ITEMS" -eq 95
FIRST_PAGES=$PAGES
sync_posts "$WORK/fresh-db"
check "immediate second sync sends no request (all fresh hits)" \
    test "$REQUESTS" -eq 0 -a "$HITS" -eq "$FIRST_PAGES" -a "$RECEIVED" -eq 0
run_in_parallel() { # four syncs into one new database directory at once
    local pids=() failed=0
    for i in 1 2 3 4; do
        "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$WORK/shared-db" >"$WORK/parallel$i.out" 2>"$WORK/parallel$i.err" &
        pids+=($!)
    done
    for i in 1 2 3 4; do
        wait "${pids[$((i - 1))]}"
        local status=$?
        if [ "$status" -ne 0 ] || ! grep -q "(95 items)" "$WORK/parallel$i.out"; then
            failed=1
            echo "      process $i: exit $status: $(cat "$WORK/parallel$i.out" "$WORK/parallel$i.err" | head -2)"
        fi
    done
    [ "$failed" -eq 0 ]
}
check "four fresh processes share one new cache database (no 'database is locked')" run_in_parallel
stop_server

# --- 1b. Ctrl-C mid-sync: exit 130, whole pages kept, the next sync completes ----------------
start_server --fault route=/posts,latency=300 --posts 95
interrupt_sync() {
    "$BIN/fresh" sync "$BASE_URL/posts?limit=20" -v --db-dir "$WORK/interrupted-db" >/dev/null 2>"$WORK/interrupt.err" &
    local pid=$!
    for _ in $(seq 100); do grep -q "page 0:" "$WORK/interrupt.err" && break; sleep 0.1; done
    kill -INT "$pid"
    wait "$pid"
    local status=$?
    echo "      exit $status: $(tail -1 "$WORK/interrupt.err")"
    [ "$status" -eq 130 ] && grep -q "interrupted" "$WORK/interrupt.err"
}
check "Ctrl-C mid-sync exits 130 with one line" interrupt_sync
sync_posts "$WORK/interrupted-db"
check "… and the next sync completes on the kept pages" test "$ITEMS" -eq 95 -a "$PAGES" -eq 5
stop_server

# --- 2. revalidating server (max-age 0): 304s, then only the changed page -------------------
start_server --max-age 0 --posts 95
sync_posts "$WORK/stale-db" >/dev/null
sync_posts "$WORK/stale-db"
check "with max-age=0 a sync gets only 304s and 0 body bytes" \
    test "$NOT_MODIFIED" -eq "$PAGES" -a "$OK" -eq 0 -a "$RECEIVED" -eq 0
"$BIN/fresh" get -X POST -d '{"title":"새 글 e2e","body":"본문","author":"e2e"}' "$BASE_URL/posts" \
    --db-dir "$WORK/stale-db" >"$WORK/post.out" 2>>"$WORK/fresh.err"
check "POST /posts through fresh get creates a post" grep -q '"새 글 e2e"' "$WORK/post.out"
sync_posts "$WORK/stale-db"
check "after POST a sync downloads only the changed page" \
    test "$OK" -eq 1 -a "$NOT_MODIFIED" -eq $((PAGES - 1)) -a "$ITEMS" -eq 96
gzip_variant() { # fetches /exercises with and without Accept-Encoding: gzip, twice
    local db=$WORK/vary-db
    "$BIN/fresh" get "$BASE_URL/exercises" -H 'Accept-Encoding: gzip' --db-dir "$db" -o "$WORK/exercises.gz" &&
        "$BIN/fresh" get "$BASE_URL/exercises" --db-dir "$db" -o "$WORK/exercises.json" &&
        "$BIN/fresh" get "$BASE_URL/exercises" -H 'Accept-Encoding: gzip' --db-dir "$db" -v -o /dev/null 2>"$WORK/vary.err" &&
        gzip -dc "$WORK/exercises.gz" | cmp -s - "$WORK/exercises.json" &&
        grep -q 'revalidated (304)' "$WORK/vary.err" && grep -q -- '-gzip"' "$WORK/vary.err" &&
        [ "$("$BIN/fresh" cache ls --db-dir "$db" | grep -c '/exercises')" -eq 2 ]
}
check "gzip and identity /exercises are two cached variants, each revalidated by its own ETag" gzip_variant
check "… and fresh get -o /dev/null wrote into the device, not over it" test -c /dev/null
"$BIN/fresh" get "$BASE_URL/posts?limit=1" --db-dir "$WORK/scratch-db" >"$WORK/first.json" 2>>"$WORK/fresh.err"
FIRST_TITLE=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["title"][:6])' <"$WORK/first.json")
DEAD_URL=$BASE_URL
stop_server

# --- 3. server stopped: the cache and the reader keep working -------------------------------
"$BIN/fresh" get "$DEAD_URL/posts?limit=20" --db-dir "$WORK/stale-db" >"$WORK/offline.out" 2>"$WORK/offline.err"
STATUS=$?
check "with the server stopped, fresh get prints the cached body" \
    test "$STATUS" -eq 0 -a -s "$WORK/offline.out"
check "… with an offline notice on stderr" grep -qi "offline" "$WORK/offline.err"

tmux new-session -d -s "$TMUX_SESSION" -x 120 -y 30 \
    "LANG=C.UTF-8 '$BIN/fresh-reader' --db-dir '$WORK/stale-db'; echo \$? > '$WORK/reader.exit'"
wait_for_screen() { # wait_for_screen PATTERN: poll the pane until it shows PATTERN (≤ 15 s)
    for _ in $(seq 150); do
        tmux capture-pane -p -t "$TMUX_SESSION" 2>/dev/null >"$WORK/screen.txt"
        grep -qF -- "$1" "$WORK/screen.txt" && return 0
        sleep 0.1
    done
    echo "      screen was:"; sed 's/^/      | /' "$WORK/screen.txt"
    return 1
}
check "fresh-reader shows the first post's title offline" wait_for_screen "$FIRST_TITLE"
check "… and an offline status" wait_for_screen "offline"
tmux send-keys -t "$TMUX_SESSION" q
reader_exited_zero() { # poll for the exit status the tmux command writes (≤ 10 s)
    for _ in $(seq 100); do
        [ -s "$WORK/reader.exit" ] && { [ "$(cat "$WORK/reader.exit")" = 0 ]; return; }
        sleep 0.1
    done
    return 1
}
check "… and q exits 0" reader_exited_zero

# --- 4. bad input: one line on stderr, documented exit status --------------------------------
expect_failure() { # expect_failure EXIT_CODE command...
    local expected=$1; shift
    "$@" >/dev/null 2>"$WORK/error.txt"
    local status=$?
    local lines
    lines=$(wc -l <"$WORK/error.txt")
    echo "      exit $status: $(head -c 200 "$WORK/error.txt" | head -1)"
    [ "$status" -eq "$expected" ] && [ "$lines" -ge 1 ] && ! grep -q "Fatal error\|Stack dump\|Backtrace" "$WORK/error.txt"
}
check "unreachable server: exit 3" expect_failure 3 "$BIN/fresh" sync "$DEAD_URL/posts" --db-dir "$WORK/bad-db"
check "malformed URL: exit 64" expect_failure 64 "$BIN/fresh" get "not a url" --db-dir "$WORK/bad-db"
touch "$WORK/a-file"
check "unwritable data directory: exit 6" expect_failure 6 "$BIN/fresh" sync "$DEAD_URL/posts" --db-dir "$WORK/a-file/db"
mkdir -p "$WORK/static"
echo '{"data": [ this is not json' >"$WORK/static/posts"
start_static_server "$WORK/static"
check "a page that is not valid JSON: exit 5" expect_failure 5 "$BIN/fresh" sync "$BASE_URL/posts" --db-dir "$WORK/bad-db"
cache_is_disposable() { # a cache directory that cannot exist: the request still works, with a warning
    "$BIN/fresh" get "$BASE_URL/posts" --db-dir "$WORK/a-file/db" >"$WORK/memory-only.out" 2>"$WORK/memory-only.err" &&
        cmp -s "$WORK/memory-only.out" "$WORK/static/posts" && grep -q "caches in memory only" "$WORK/memory-only.err"
}
check "an unusable cache directory: fresh get still prints the body, with a warning" cache_is_disposable
stop_server
start_raw_server $'SSH-2.0-OpenSSH_9.2\r\n'
check "a server that does not answer in HTTP: exit 5" expect_failure 5 "$BIN/fresh" get "$BASE_URL/posts" --db-dir "$WORK/bad-db"
stop_server

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
