#!/usr/bin/env bash
# End-to-end test: the three programs against each other over loopback, each check printed,
# `N passed, N failed` as the last line, non-zero exit on any failure.
# Usage: Tools/e2e.sh BIN_DIR   (BIN_DIR holds fresh, fresh-postgresql, fresh-reader, fresh-mock)
set -uo pipefail

BIN=$(cd "${1:-.build/debug}" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fresh-e2e.XXXXXX")
TMUX_SESSION="fresh-e2e-$$"
SERVER_PID=""
REPLAY_PID=""
PASSED=0
FAILED=0

source "$(dirname "$0")/lib/mock-server.sh"
source "$(dirname "$0")/lib/pg-cluster.sh"

stop_replay() { [ -n "$REPLAY_PID" ] && kill "$REPLAY_PID" 2>/dev/null && wait "$REPLAY_PID" 2>/dev/null; REPLAY_PID=""; }
start_replay() { # start_replay FLAGS...: fresh-mock --mirror FLAGS beside the origin; sets REPLAY_URL and REPLAY_PID
    stop_replay
    rm -f "$WORK/replay.fifo"; mkfifo "$WORK/replay.fifo"
    "$BIN/fresh-mock" --mirror --port 0 "$@" >"$WORK/replay.fifo" 2>>"$WORK/replay.log" &
    REPLAY_PID=$!
    exec 4<"$WORK/replay.fifo"
    read -r -t 30 -u 4 REPLAY_URL || { echo "fresh-mock --mirror did not start:" >&2; cat "$WORK/replay.log" >&2; exit 1; }
}
shape() { # shape DB_DIR: each collection's name, items, pages and detected style
    "$BIN/fresh" collections --json --db-dir "$1" | python3 -c 'import json, sys
for c in json.load(sys.stdin): print(c["name"], c["items"], c["pages"], c["style"], c["itemsPath"])'
}
cleanup() {
    stop_replay
    stop_server
    stop_pg_cluster
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

one_line() { # one_line FILE: FILE holds exactly one line, not blank, ended by a newline
    [ "$(wc -l <"$1")" -eq 1 ] && [ -z "$(tail -c 1 "$1")" ] && grep -q '[^[:space:]]' "$1"
}

expect_failure() { # expect_failure EXIT_CODE command...: exits EXIT_CODE with exactly one line on stderr
    local expected=$1; shift
    "$@" >/dev/null 2>"$WORK/error.txt"
    local status=$?
    echo "      exit $status: $(head -c 200 "$WORK/error.txt" | head -1)"
    [ "$status" -eq "$expected" ] && one_line "$WORK/error.txt" && ! grep -q "Fatal error\|Stack dump\|Backtrace" "$WORK/error.txt"
}

wait_until() { # wait_until COMMAND...: run COMMAND every 0.1 s until it succeeds (≤ 10 s)
    for _ in $(seq 100); do "$@" && return 0; sleep 0.1; done
    echo "      still not true after 10 s: $*"
    return 1
}
wait_for_line() { wait_until grep -q -- "$2" "$1"; } # wait_for_line FILE PATTERN

# Fields of `fresh sync --json`: pages, items in the collection, requests, 200s, 304s, fresh hits,
# body bytes received, the page a resumed pass resumed at (-1: none), pages read before the stop
# that the resumed pass revalidated.
parse_summary() {
    read -r PAGES ITEMS REQUESTS OK NOT_MODIFIED HITS RECEIVED RESUMED REVISITED < <(python3 -c '
import json, sys
try:
    s = json.load(sys.stdin)
    print(s["pages"], s["totalItems"], s["requests"], s["fullResponses"], s["notModified"], s["freshHits"], s["bytesReceived"],
          s.get("resumedAtPage", -1), s.get("revisitedPages", 0))
except Exception:
    print("-1 -1 -1 -1 -1 -1 -1 -1 -1")' <<<"$1")
}

sync_json() { # sync_json DB_DIR URL [flags...] → sets SUMMARY, SYNC_STATUS (fresh's exit status) and the parsed fields
    local db=$1 url=$2; shift 2
    SUMMARY=$("$BIN/fresh" sync "$url" --db-dir "$db" --json "$@" 2>>"$WORK/fresh.err")
    SYNC_STATUS=$?
    echo "      $SUMMARY" | cut -c1-160
    parse_summary "$SUMMARY"
}

sync_posts() { # sync_posts DB_DIR → sets SUMMARY and the parsed fields
    sync_json "$1" "$BASE_URL/posts?limit=20"
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
libcurl_only_for_requests() { # a fresh hit never loads libcurl; a request without it is one line, exit 1
    mkdir -p "$WORK/broken-libcurl" && : >"$WORK/broken-libcurl/libcurl.so.4"
    "$BIN/fresh" get -o /dev/null "$BASE_URL/posts?limit=3" --db-dir "$WORK/fresh-db" || return 1
    LD_LIBRARY_PATH="$WORK/broken-libcurl" "$BIN/fresh" get "$BASE_URL/posts?limit=3" --db-dir "$WORK/fresh-db" \
        >"$WORK/hit.out" 2>"$WORK/hit.err" && [ -s "$WORK/hit.out" ] && [ ! -s "$WORK/hit.err" ] || return 1
    LD_LIBRARY_PATH="$WORK/broken-libcurl" "$BIN/fresh" get "$BASE_URL/posts?limit=4" --db-dir "$WORK/fresh-db" \
        >"$WORK/miss.out" 2>"$WORK/miss.err"
    [ $? -eq 1 ] && [ ! -s "$WORK/miss.out" ] && one_line "$WORK/miss.err" &&
        grep -q "^fresh: cannot send requests: libcurl: .*libcurl.so.4" "$WORK/miss.err"
}
check "a fresh hit is answered without loading libcurl; without libcurl a request fails in one line (exit 1)" \
    libcurl_only_for_requests
# A hit's bookkeeping (use time, hit count) is often left in the WAL for the next run: it still counts.
hits_are_counted() {
    local db="$WORK/hits-db"
    for _ in 1 2 3; do "$BIN/fresh" get -o /dev/null "$BASE_URL/posts?limit=2" --db-dir "$db" || return 1; done
    local stats && stats=$("$BIN/fresh" cache stats --db-dir "$db") && grep -qx "hit: 2" <<<"$stats" && grep -qx "miss: 1" <<<"$stats"
}
check "three fresh get of one URL: 1 miss then 2 hits, counted across processes" hits_are_counted
run_in_parallel() { # four syncs into one new database directory at once
    local pids=() failed=0
    for i in 1 2 3 4; do
        "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$WORK/shared-db" >"$WORK/parallel$i.out" 2>"$WORK/parallel$i.err" &
        pids+=($!)
    done
    for i in 1 2 3 4; do
        wait "${pids[$((i - 1))]}"
        local status=$?
        if [ "$status" -ne 0 ] || ! grep -q ": 5 pages, 95 items" "$WORK/parallel$i.out"; then
            failed=1
            echo "      process $i: exit $status: $(cat "$WORK/parallel$i.out" "$WORK/parallel$i.err" | head -2)"
        fi
    done
    [ "$failed" -eq 0 ]
}
check "four fresh processes share one new cache database (no 'database is locked')" run_in_parallel
check "… and the collection they all synced holds every item once" \
    test "$("$BIN/fresh" items posts --db-dir "$WORK/shared-db" | wc -l)" -eq 95
stop_server

# --- 1a. any API shape: several styles, two servers, concurrent syncs, kill -9, rate limits ---
start_server --max-age 0 --posts 95 --articles 45 --feed-items 33 --exercises 40
MOCK_URL=$BASE_URL
sync_json "$WORK/styles-db" "$MOCK_URL/articles?per_page=10"
check "Link-header pages (bare arrays) are mirrored: 5 pages, 45 items" test "$PAGES" -eq 5 -a "$ITEMS" -eq 45
sync_json "$WORK/styles-db" "$MOCK_URL/feed" --limit 10
check "offset pages ending at their total are mirrored: 4 pages, 33 items" test "$PAGES" -eq 4 -a "$ITEMS" -eq 33
sync_json "$WORK/styles-db" "$MOCK_URL/exercises"
check "a single document is a one-page collection of 40 items" test "$PAGES" -eq 1 -a "$ITEMS" -eq 40
styles_listed() {
    "$BIN/fresh" collections --db-dir "$WORK/styles-db" --json >"$WORK/collections.json" &&
        python3 -c 'import json,sys; c = {x["name"]: (x["style"], x["items"]) for x in json.load(sys.stdin)}; sys.exit(c != {"articles": ("link", 45), "feed": ("offset", 33), "exercises": ("single", 40)})' <"$WORK/collections.json"
}
check "fresh collections lists the three with their styles and counts" styles_listed
removed_then_synced_once_a_page() { # fresh rm forgets the pages too: the next sync asks for each page once
    sync_json "$WORK/rm-db" "$MOCK_URL/articles?per_page=10" && local pages=$PAGES &&
        [ "$("$BIN/fresh" rm articles --db-dir "$WORK/rm-db")" = "removed 'articles' (45 items)" ] &&
        sync_json "$WORK/rm-db" "$MOCK_URL/articles?per_page=10" &&
        [ "$pages" -eq 5 ] && [ "$REQUESTS" -eq 5 ] && [ "$OK" -eq 5 ] && [ "$ITEMS" -eq 45 ]
}
check "fresh rm, then the same sync: 45 items again with one request a page (no 304 first)" removed_then_synced_once_a_page
cache_wal_bounded() { # every exit leaves the cache's WAL under 512 KiB (kept for the next run) or empties it
    local name size
    for name in a b c d e f; do
        "$BIN/fresh" sync "$MOCK_URL/posts?limit=10" --name "$name" -q --db-dir "$WORK/wal-db" || return 1
        size=$(stat -c %s "$WORK/wal-db/cache.sqlite-wal")
        echo "      after sync $name: cache.sqlite-wal $size bytes"
        [ "$size" -lt 524288 ] || return 1
    done
}
check "six syncs in a row: the cache WAL stays under 512 KiB after each (emptied into the file when it passes)" cache_wal_bounded

concurrent_syncs() { # four processes sync one collection at once against a revalidating server
    "$BIN/fresh" sync "$MOCK_URL/posts?limit=10" --db-dir "$WORK/concurrent-db" -q || return 1
    local pids=()
    for i in 1 2 3 4; do
        "$BIN/fresh" sync "$MOCK_URL/posts?limit=10" --db-dir "$WORK/concurrent-db" --restart -q 2>"$WORK/concurrent$i.err" &
        pids+=($!)
    done
    local failed=0
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
    local count
    count=$("$BIN/fresh" items posts --db-dir "$WORK/concurrent-db" | wc -l)
    echo "      $count items after four concurrent syncs"
    [ "$failed" -eq 0 ] && [ "$count" -eq 95 ]
}
check "four concurrent syncs of one collection end with every item (95)" concurrent_syncs
stop_server

start_server --max-age 0 --seed 7 --posts 30
OTHER_URL=$BASE_URL
sync_json "$WORK/styles-db" "$OTHER_URL/posts"
sync_json "$WORK/styles-db" "$MOCK_URL/posts" >/dev/null 2>&1   # the first server is gone: it fails, nothing is lost
two_apis_apart() { # (a name in another letter case finds the collection: Articles is articles)
    [ "$("$BIN/fresh" items posts --db-dir "$WORK/styles-db" | wc -l)" -eq 30 ] &&
        [ "$("$BIN/fresh" items Articles --db-dir "$WORK/styles-db" | wc -l)" -eq 45 ]
}
check "a second API's /posts is a collection of its own; the others stay intact" two_apis_apart
stop_server

start_server --max-age 0 --posts 1005
table_says_where_it_stops() { # a table shows the first 1,000 items and says so; --limit shows more
    "$BIN/fresh" sync "$BASE_URL/posts?limit=100" --db-dir "$WORK/table-db" --quiet &&
        [ "$("$BIN/fresh" items posts --db-dir "$WORK/table-db" --format table 2>"$WORK/table.err" | grep -c '^ *[0-9]')" -eq 1000 ] &&
        grep -q "the first 1000 items are shown" "$WORK/table.err" &&
        [ "$("$BIN/fresh" items posts --db-dir "$WORK/table-db" --format table --limit 1005 2>"$WORK/table.err" | grep -c '^ *[0-9]')" -eq 1005 ] &&
        [ ! -s "$WORK/table.err" ]
}
check "fresh items --format table: the first 1,000 of 1,005 items, a note on stderr; --limit 1005 shows all" table_says_where_it_stops
stop_server

start_server --max-age 0 --posts 95 --fault route=/posts,latency=300
kill_and_resume() { # kill -9 in the middle of a sync, then sync again
    "$BIN/fresh" sync "$BASE_URL/posts?limit=10" -v --db-dir "$WORK/killed-db" >/dev/null 2>"$WORK/killed.err" &
    local pid=$!
    wait_for_line "$WORK/killed.err" "^fresh: page 3:"
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
    sync_json "$WORK/killed-db" "$BASE_URL/posts?limit=10"
    [ "$RESUMED" -ge 4 ] && [ "$ITEMS" -eq 95 ] && [ "$OK" -le 7 ] && resumed_pages_revalidated
}
resumed_pages_revalidated() { # the last sync revalidated each page read before its stop: 304s, nothing changed
    [ "$REVISITED" -eq $((RESUMED - 1)) ] && [ "$NOT_MODIFIED" -eq "$REVISITED" ]
}
check "kill -9 mid-sync: the next sync resumes at the page it reached, revalidates the pages before it (304s) and completes (95 items)" \
    kill_and_resume
stop_server

start_server --max-age 0 --posts 60 --rate-limit 3/2s --rate-limit-fields retry-after
mock_rate_limited() { # fresh-mock's own limiter, stated nowhere: 3 requests per 2 s, 429 with the exact Retry-After
    "$BIN/fresh" sync "$BASE_URL/posts?limit=6" --db-dir "$WORK/limited-db" --json >"$WORK/limited.json" 2>"$WORK/limited.err" || return 1
    grep -m1 "429" "$WORK/limited.err" | sed 's/^/      /'
    python3 -c 'import json,sys; s = json.load(sys.stdin); sys.exit(not (s["totalItems"] == 60 and s["retries"] >= 2))' <"$WORK/limited.json"
}
check "a server that allows 3 requests per 2 s is mirrored to the end by waiting for each Retry-After" mock_rate_limited
full_disk() { # a file-size limit stops SQLite mid-sync: one line, exit 6, whole pages kept, then the rest
    (ulimit -f 800; trap '' XFSZ; "$BIN/fresh" sync "$BASE_URL/posts?limit=6" --db-dir "$WORK/full-db" -q 2>"$WORK/full.err")
    local status=$?
    echo "      exit $status: $(head -c 160 "$WORK/full.err")"
    [ "$status" -eq 6 ] && one_line "$WORK/full.err" &&
        "$BIN/fresh" check --db-dir "$WORK/full-db" >/dev/null &&
        "$BIN/fresh" sync "$BASE_URL/posts?limit=6" --db-dir "$WORK/full-db" -q &&
        [ "$("$BIN/fresh" items posts --db-dir "$WORK/full-db" | wc -l)" -eq 60 ]
}
check "a full disk mid-sync: exit 6 with one line, the file undamaged, the next sync completes (60 items)" full_disk
stop_server

start_peer drf_api.py --items 120 --throttle 4/s
throttled_to_completion() { # Django REST framework's throttle answers 429 with Retry-After
    "$BIN/fresh" sync "$BASE_URL/api/limited/posts/?page_size=10" --db-dir "$WORK/throttled-db" --json \
        >"$WORK/throttled.json" 2>"$WORK/throttled.err" || return 1
    grep -m1 "429" "$WORK/throttled.err" | sed 's/^/      /'
    python3 -c 'import json,sys; s = json.load(sys.stdin); sys.exit(not (s["totalItems"] == 120 and s["retries"] >= 1))' <"$WORK/throttled.json"
}
check "a rate-limited API (Django REST framework, 4 requests/s) is mirrored by waiting out each 429" throttled_to_completion
sync_json "$WORK/drf-db" "$BASE_URL/api/cursor/posts/?page_size=25"
check "Django REST framework's cursor pages (next URLs in the body): 5 pages, 120 items" test "$PAGES" -eq 5 -a "$ITEMS" -eq 120
stop_server

# --- 1b. Ctrl-C mid-sync: exit 130, whole pages kept, the next sync completes ----------------
start_server --fault route=/posts,latency=300 --posts 95
interrupt_sync() {
    "$BIN/fresh" sync "$BASE_URL/posts?limit=20" -v --db-dir "$WORK/interrupted-db" >/dev/null 2>"$WORK/interrupt.err" &
    local pid=$!
    wait_for_line "$WORK/interrupt.err" "^fresh: page 1:"
    kill -INT "$pid"
    wait "$pid"
    local status=$?
    # Besides the lines -v asks for (the new collection, its pagination, one per page): one line.
    grep -vE "^fresh: (new collection '|pages: |page [0-9]+: )" "$WORK/interrupt.err" >"$WORK/interrupt.lines"
    echo "      exit $status: $(cat "$WORK/interrupt.lines")"
    [ "$status" -eq 130 ] && one_line "$WORK/interrupt.lines" && grep -q "^fresh: interrupted; " "$WORK/interrupt.lines"
}
check "Ctrl-C mid-sync exits 130 with one line" interrupt_sync
sync_posts "$WORK/interrupted-db"
resumed_after_the_kept_pages() { [ "$ITEMS" -eq 95 ] && [ "$OK" -lt 5 ] && [ "$RESUMED" -ge 2 ] && resumed_pages_revalidated; }
check "… and the next sync resumes after the kept pages, revalidates them (304s) and completes" resumed_after_the_kept_pages
stop_server

# --- 1c. kill -9 while the server's data changes: the resumed pass is the server's copy -------
# Each round, into one database: a sync slowed to 400 ms a request. Once it wrote page 2, items
# on pages 1 and 2 change (and ten ticks edit, create and delete), and every later request gets
# a 503 asking to wait an hour: once the server has sent one, the sync cannot end, whatever the
# machine's speed. Then kill -9, the faults off, more changes, and the sync again. It must
# resume, revalidate the pages read before the stop and end with exactly the server's items.
start_server --max-age 0 --posts 95 --quiet
PAGED_POSTS="/posts?limit=5"   # about 20 pages
set_faults() { # set_faults RULE...: fault rules of /posts as JSON members, e.g. '"latency_ms": 400' (none: no rules)
    local rules=() rule
    for rule; do rules+=("{\"route\": \"/posts\", $rule}"); done
    curl -sf -X PUT "$BASE_URL/_admin/faults" -H 'Content-Type: application/json' \
        -d "{\"rules\": [$(IFS=,; echo "${rules[*]}")]}" >/dev/null
}
answered() { # answered STATUS: how many answers with STATUS the server has sent
    curl -sf "$BASE_URL/_admin/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["by_status"].get(sys.argv[1], 0))' "$1"
}
answered_more_than() { [ "$(answered "$1")" -gt "$2" ]; } # answered_more_than STATUS COUNT
change_read_pages() { # change_read_pages TAG: a new title on page 1, an item of page 2 deleted, 10 ticks
    local edited deleted
    # The same posts on a route the page faults do not slow or refuse.
    read -r edited deleted < <(curl -sf "$BASE_URL/styles/cursor-zero/posts?limit=10" |
        python3 -c 'import json,sys; d = json.load(sys.stdin)["data"]; print(d[1]["id"], d[7]["id"])')
    curl -sf -X PATCH "$BASE_URL/posts/$edited" -H 'Content-Type: application/json' -d "{\"title\": \"changed $1\"}" >/dev/null &&
        curl -sf -X DELETE "$BASE_URL/posts/$deleted" >/dev/null &&
        curl -sf -X POST "$BASE_URL/_admin/tick?n=10" >/dev/null
}
mirror_is_the_server() { # mirror_is_the_server DB_DIR: its posts and their page count are those of a walk of the server
    "$BIN/fresh" collections --db-dir "$1" --json >"$WORK/mirror-collections.json" &&
        "$BIN/fresh" items posts --db-dir "$1" >"$WORK/mirror-items.jsonl" || return 1
    python3 - "$BASE_URL$PAGED_POSTS" "$WORK/mirror-items.jsonl" "$WORK/mirror-collections.json" <<'PY'
import json, sys, urllib.request
first, items_file, collections_file = sys.argv[1:]
server, pages, url = {}, 0, first
while url:
    page = json.load(urllib.request.urlopen(url))
    pages += 1
    server.update((item["id"], item) for item in page["data"])
    url = page["next_cursor"] != "0" and first + "&cursor=" + page["next_cursor"]
mirror = {item["id"]: item for item in map(json.loads, open(items_file))}
mirror_pages = {c["name"]: c["pages"] for c in json.load(open(collections_file))}["posts"]
kept = sorted(mirror.keys() - server.keys())
missing = sorted(server.keys() - mirror.keys())
old = sorted(key for key in mirror.keys() & server.keys() if mirror[key] != server[key])
print(f"      server: {len(server)} items in {pages} pages; mirror: {len(mirror)} items in {mirror_pages} pages;"
      f" deleted but kept: {kept}, missing: {missing}, old versions: {old}")
sys.exit(bool(kept or missing or old) or mirror_pages != pages)
PY
}
killed_while_changing() { # killed_while_changing ROUND
    local db=$WORK/changing-db err=$WORK/changing.err
    set_faults '"latency_ms": 400' || return 1
    "$BIN/fresh" sync "$BASE_URL$PAGED_POSTS" -v --max-wait 3600 --db-dir "$db" >/dev/null 2>"$err" &
    local pid=$! refused
    # Once two pages are written, every later page request is refused for an hour (the requests
    # already on their way still get their pages), then the pages read are changed.
    refused=$(answered 503) && wait_for_line "$err" "^fresh: page 2:" &&
        set_faults '"failure": "status", "status": 503, "retry_after": 3600' && change_read_pages "in round $1, during the sync" &&
        wait_until answered_more_than 503 "$refused"
    local staged=$?
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    local status=$?
    [ "$staged" -eq 0 ] && [ "$status" -eq 137 ] || { echo "      the sync was not stopped mid-pass as staged (exit $status)"; return 1; }
    set_faults && change_read_pages "in round $1, after the kill" || return 1
    sync_json "$db" "$BASE_URL$PAGED_POSTS"
    echo "      exit $SYNC_STATUS, resumed at page $RESUMED, $REVISITED pages read before the stop revalidated"
    mirror_is_the_server "$db" && [ "$SYNC_STATUS" -eq 0 ] && [ "$RESUMED" -ge 3 ] && [ "$REVISITED" -ge 2 ]
}
for round in 1 2 3 4 5; do
    check "kill -9 while the data changes, round $round: the next sync resumes, revalidates the pages read before the stop, and holds exactly the server's posts" \
        killed_while_changing "$round"
done
stop_server

# --- 1d. scribbled data.sqlite: a sync refuses it (exit 6, one line) and changes no byte -------
start_server --max-age 0 --posts 400 --quiet
scribble() { # scribble FILE middle|last: garbage over b-tree pages 3…N/2, or over the last page; the header stays
    python3 - "$1" "$2" <<'PY'
import os, random, sys
path, where = sys.argv[1:]
with open(path, "r+b") as file:
    size = int.from_bytes(file.read(18)[16:18], "big")   # the page size; 1 stands for 65536
    size = 65536 if size == 1 else size
    count = os.path.getsize(path) // size
    numbers = range(3, count // 2 + 1) if where == "middle" else [count]
    garbage = random.Random(27)
    for number in numbers:
        file.seek((number - 1) * size)
        file.write(garbage.randbytes(size))
print(f"      scribbled over {len(numbers)} of {count} pages of {size} bytes")
PY
}
file_sums() { # file_sums FILE...: a checksum of each FILE's bytes, 'absent' for a missing one
    local file
    for file; do if [ -e "$file" ]; then sha256sum <"$file"; else echo absent; fi; done
}
damage_refused() { # damage_refused middle|last: synced, scribbled in place, an item changed; then a sync and fresh check
    local db=$WORK/scribbled-$1-db
    "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$db" -q && scribble "$db/data.sqlite" "$1" || return 1
    # A change on the server: something the next sync would have to write.
    curl -sf -X PATCH "$BASE_URL/posts/7" -H 'Content-Type: application/json' -d "{\"title\": \"after the $1 damage\"}" >/dev/null || return 1
    local before
    before=$(file_sums "$db/data.sqlite" "$db/data.sqlite-wal")
    expect_failure 6 "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$db" || return 1
    [ "$(file_sums "$db/data.sqlite" "$db/data.sqlite-wal")" = "$before" ] || { echo "      the sync changed data.sqlite or its WAL"; return 1; }
    "$BIN/fresh" check --db-dir "$db" >"$WORK/check.out" 2>&1
    local status=$?
    echo "      fresh check: exit $status: $(tail -1 "$WORK/check.out")"
    [ "$status" -eq 6 ] && grep -q "damaged" "$WORK/check.out"
}
check "middle b-tree pages of data.sqlite scribbled over: a sync exits 6 with one line, no byte changed; fresh check says damaged" \
    damage_refused middle
check "the last page of data.sqlite scribbled over: a sync exits 6 with one line, no byte changed; fresh check says damaged" \
    damage_refused last
miscount_found() { # a sound file whose kept item count was changed behind the mirror's back
    local db=$WORK/miscounted-db
    "$BIN/fresh" sync "$BASE_URL/posts?limit=50" --db-dir "$db" -q || return 1
    python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE itemCount SET count = count + 5"); c.commit()' \
        "$db/data.sqlite" || return 1
    "$BIN/fresh" check --db-dir "$db" >"$WORK/miscount.out" 2>"$WORK/miscount.err"
    local status=$?
    echo "      fresh check: exit $status: $(cat "$WORK/miscount.err")"
    [ "$status" -eq 6 ] && one_line "$WORK/miscount.err" && [ ! -s "$WORK/miscount.out" ] &&
        grep -q "its item count kept at the last pass's end is 405, but 400 items are stored" "$WORK/miscount.err" &&
        "$BIN/fresh" sync "$BASE_URL/posts?limit=50" --db-dir "$db" -q && "$BIN/fresh" check --db-dir "$db" | grep -q 'no damage found'
}
check "a kept item count that is not the items stored: fresh check exits 6 naming it (no --recover hint: the file is sound); the next sync counts again" \
    miscount_found
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
output_into_a_fifo() { # -o opens the path and writes into it, as curl: a FIFO (or /dev/null) is written to, not replaced
    local fifo=$WORK/output.fifo
    mkfifo "$fifo" || return 1
    timeout 10 cat "$fifo" >"$WORK/from-fifo.json" &   # the reader; bounded, should -o not open the FIFO at all
    local reader=$!
    "$BIN/fresh" get "$BASE_URL/exercises" --db-dir "$WORK/vary-db" -o "$fifo"
    local status=$?
    wait "$reader"
    [ "$status" -eq 0 ] && [ -p "$fifo" ] && cmp -s "$WORK/from-fifo.json" "$WORK/exercises.json"
}
check "… and fresh get -o writes into a FIFO, not over it: it stays a FIFO, its reader gets the body (as into /dev/null)" \
    output_into_a_fifo
short_outputs() { # -o - is stdout and -o with a one-letter name is that file, as in curl
    local dir=$WORK/short-output
    mkdir -p "$dir" &&
        "$BIN/fresh" get "$BASE_URL/exercises" --db-dir "$WORK/vary-db" -o - >"$dir/stdout.json" &&
        (cd "$dir" && "$BIN/fresh" get "$BASE_URL/exercises" --db-dir "$WORK/vary-db" -o a) &&
        (cd "$dir" && "$BIN/fresh" get "$BASE_URL/exercises" --db-dir n/db -o /dev/null) && [ -f "$dir/n/db/cache.sqlite" ] &&
        cmp -s "$dir/stdout.json" "$WORK/exercises.json" && cmp -s "$dir/a" "$WORK/exercises.json" && [ ! -e "$dir/-" ]
}
check "fresh get -o - writes the body to stdout, -o a the file a; --db-dir n/db under a missing n is created" short_outputs
# The sync keeps its pages' validators in the cache, not their bodies (the mirror has them):
# fresh get caches a page of its own to be served offline below.
"$BIN/fresh" get "$BASE_URL/posts?limit=20" --db-dir "$WORK/stale-db" >/dev/null 2>>"$WORK/fresh.err"
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
failed_sync_json() { # --json still prints the summary when the sync fails, with the error
    "$BIN/fresh" sync "$DEAD_URL/posts?limit=20" --db-dir "$WORK/failed-db" --json --retries 0 >"$WORK/failed.json" 2>/dev/null
    [ $? -eq 3 ] && python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(not (s["complete"] is False and "cannot reach the server" in s["error"]))' <"$WORK/failed.json"
}
check "fresh sync --json against a stopped server: exit 3 and a JSON summary with the error" failed_sync_json

# Every tmux call goes to the server of the current session; each session gets a server of its
# own, so a new one never meets the last one's server while that is still exiting.
TMUX_SERVERS=0
tmux() { command tmux -S "$WORK/tmux-$TMUX_SERVERS" "$@"; }
tmux_session() { # tmux_session COMMAND: COMMAND alone in a new tmux session (the last one killed); its
                 # exit status goes to reader.exit
    tmux kill-session -t "$TMUX_SESSION" 2>/dev/null
    rm -f "$WORK/reader.exit"
    TMUX_SERVERS=$((TMUX_SERVERS + 1))
    tmux new-session -d -s "$TMUX_SESSION" -x 120 -y 30 "$1; echo \$? > '$WORK/reader.exit'"
}
tmux_session "LANG=C.UTF-8 '$BIN/fresh-reader' --db-dir '$WORK/stale-db'"
wait_for_screen() { # wait_for_screen PATTERN: poll the pane until it shows PATTERN (≤ 15 s); an empty one fails
    [ -n "$1" ] || { echo "      nothing to wait for: the pattern is empty"; return 1; }
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
reader_still_running() { [ ! -e "$WORK/reader.exit" ] && tmux has-session -t "$TMUX_SESSION" 2>/dev/null; }

# --- 4. bad input: one line on stderr, documented exit status --------------------------------
check "unreachable server (no retries: each wait is a line of its own): exit 3" \
    expect_failure 3 "$BIN/fresh" sync "$DEAD_URL/posts" --retries 0 --db-dir "$WORK/bad-db"
check "malformed URL: exit 64" expect_failure 64 "$BIN/fresh" get "not a url" --db-dir "$WORK/bad-db"
check "a --data @file that cannot be read: exit 6, before any request" \
    expect_failure 6 "$BIN/fresh" get -d @"$WORK/no-such-body.json" "$DEAD_URL/posts" --db-dir "$WORK/bad-db"
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

# --- 5. fresh get looks like curl, so it behaves like curl -----------------------------------
# `fresh get …` is parsed without the rest of the command tree (for start-up time); what it
# prints must be what the whole tree prints.
get_reads_as_through_the_tree() {
    "$BIN/fresh" get >/dev/null 2>"$WORK/get-missing.err"
    [ $? -eq 64 ] && [ "$(cat "$WORK/get-missing.err")" = "fresh: Missing expected argument '<url>' (see 'fresh get --help')" ] &&
        local help && help=$("$BIN/fresh" get --help) &&
        grep -qF "USAGE: fresh get [<options>] <url>" <<<"$help" && grep -q -- "--version" <<<"$help" &&
        [ "$("$BIN/fresh" get --version)" = "$("$BIN/fresh" --version)" ] &&
        [ "$("$BIN/fresh" get http://127.0.0.1:1/ --bogus 2>&1 >/dev/null)" = "fresh: unknown option '--bogus' (see 'fresh get --help')" ]
}
check "fresh get: a missing URL, --help, --version and an unknown option read as through the whole command tree" \
    get_reads_as_through_the_tree
start_peer drf_api.py --items 300 --gzip
DRF_PAGE="$BASE_URL/api/pages/posts/?page_size=100"
gzip_from_django() { # Django's GZipMiddleware: decoded, stored, revalidated; own Accept-Encoding keeps the bytes
    "$BIN/fresh" get -v "$DRF_PAGE" --db-dir "$WORK/drf-gzip-db" -o "$WORK/drf.json" 2>"$WORK/drf-gzip.err" &&
        curl -s "$DRF_PAGE" | cmp -s - "$WORK/drf.json" &&
        grep 'on the wire' "$WORK/drf-gzip.err" | sed 's/^/      /' &&
        "$BIN/fresh" get -v "$DRF_PAGE" --db-dir "$WORK/drf-gzip-db" -o "$WORK/drf-again.json" 2>"$WORK/drf-gzip2.err" &&
        grep -q 'revalidated (304)' "$WORK/drf-gzip2.err" && cmp -s "$WORK/drf.json" "$WORK/drf-again.json" &&
        "$BIN/fresh" get -H 'Accept-Encoding: gzip' "$DRF_PAGE" --db-dir "$WORK/drf-gzip-db" -o "$WORK/drf.gz" &&
        gzip -dc "$WORK/drf.gz" | cmp -s - "$WORK/drf.json"
}
check "a gzip-enabled server (Django): decoded body equals the identity one, revalidated with 304, own Accept-Encoding keeps gzip bytes" gzip_from_django
redirects_need_location() { # Django's APPEND_SLASH answers 301 for the URL without its slash
    local url="$BASE_URL/api/pages/posts?page_size=1"
    "$BIN/fresh" get -i "$url" --db-dir "$WORK/redirect-db" >"$WORK/redirect.out" || return 1
    local status_line
    status_line=$(head -1 "$WORK/redirect.out" | tr -d '\r')
    echo "      $status_line"
    [ "$status_line" = "HTTP/1.0 301 Moved Permanently" ] &&
        "$BIN/fresh" get -L "$url" --db-dir "$WORK/redirect-db" | python3 -c 'import json,sys; sys.exit(len(json.load(sys.stdin)["results"]) != 1)'
}
check "without -L the 301 is the answer, with the server's own status line; with -L it is followed" redirects_need_location
check "-L --max-redirs 0 stops at the first redirect: exit 5" \
    expect_failure 5 "$BIN/fresh" get -L --max-redirs 0 "$BASE_URL/api/pages/posts?page_size=1" --db-dir "$WORK/redirect-db"
fail_writes_nothing() { # --fail on a 4xx: the old file stays, exit 4
    echo "old content" >"$WORK/kept.json"
    "$BIN/fresh" get --fail -o "$WORK/kept.json" "$BASE_URL/api/private/posts/" --db-dir "$WORK/fail-db" 2>"$WORK/fail.err"
    local status=$?
    echo "      exit $status: $(cat "$WORK/fail.err")"
    [ "$status" -eq 4 ] && [ "$(cat "$WORK/kept.json")" = "old content" ]
}
check "--fail on a 4xx writes nothing (-o keeps its old content) and exits 4" fail_writes_nothing
check "--fail -i on a 4xx prints the status line and headers, no body, as curl" bash -c '
    out=$("$0" get --fail -i "$1/api/private/posts/" --db-dir "$2" 2>/dev/null); [ $? -eq 4 ] &&
    printf "%s" "$out" | head -1 | grep -q "^HTTP/[0-9.]* 4" && printf "%s" "$out" | grep -qi "^content-type:" &&
    ! printf "%s" "$out" | grep -q "{"' \
    "$BIN/fresh" "$BASE_URL" "$WORK/fail-db"
check "-s silences the error line, -s -S shows it" bash -c '
    [ -z "$("$0" get -s --fail "$1/api/private/posts/" --db-dir "$2" 2>&1 >/dev/null)" ] &&
    [ "$("$0" get -s -S --fail "$1/api/private/posts/" --db-dir "$2" 2>&1 >/dev/null | wc -l)" -eq 1 ]' \
    "$BIN/fresh" "$BASE_URL" "$WORK/fail-db"
stop_server

start_server --max-age 0 --posts 30
scheme_less_head_and_verbose() {
    local hostport=${BASE_URL#http://}
    "$BIN/fresh" get -I "$hostport/posts?limit=2" --db-dir "$WORK/curlish-db" >"$WORK/head.out" &&
        head -1 "$WORK/head.out" | grep -q '^HTTP/1.1 200 OK' && ! grep -q '"data"' "$WORK/head.out" &&
        "$BIN/fresh" get -v "$hostport/posts?limit=2" --db-dir "$WORK/curlish-db" >"$WORK/verbose.out" 2>&1 &&
        head -1 "$WORK/verbose.out" | grep -q '^fresh: HTTP/1.1 200 OK' && [ "$(tail -c 1 "$WORK/verbose.out")" = "}" ]
}
check "a URL without a scheme is http; -I prints the head only; -v comes before the body, never on its line" scheme_less_head_and_verbose
terminal_json() { # on a terminal (script gives one) JSON is re-indented and coloured; NO_COLOR and pipes get none
    script -qec "'$BIN/fresh' get '$BASE_URL/posts/1' --db-dir '$WORK/tty-db'" /dev/null >"$WORK/tty.out" &&
        grep -q $'\e\\[34;1m"id"' "$WORK/tty.out" && grep -q '^  ' "$WORK/tty.out" &&
        NO_COLOR=1 script -qec "'$BIN/fresh' get '$BASE_URL/posts/1' --db-dir '$WORK/tty-db'" /dev/null >"$WORK/tty-plain.out" &&
        ! grep -q $'\e\\[' "$WORK/tty-plain.out" && grep -q '^  "id": 1' "$WORK/tty-plain.out" &&
        "$BIN/fresh" get "$BASE_URL/posts/1" --db-dir "$WORK/tty-db" | cmp -s - <(curl -s "$BASE_URL/posts/1")
}
check "JSON on a terminal is re-indented and coloured, plain with NO_COLOR, exact bytes in a pipe" terminal_json
stop_server

start_server --max-age 0 --posts 30 --rate-limit 2/2s
retry_waits_for_retry_after() { # 2 requests per 2 s: the third is a 429 with Retry-After, --retry waits it out
    "$BIN/fresh" get "$BASE_URL/posts?limit=3" --db-dir "$WORK/retry-db" -o /dev/null &&
        "$BIN/fresh" get "$BASE_URL/posts?limit=3" --db-dir "$WORK/retry-db" -o /dev/null &&
        "$BIN/fresh" get --retry 2 --fail "$BASE_URL/posts?limit=3" --db-dir "$WORK/retry-db" -o "$WORK/retried.json" 2>"$WORK/retry.err" &&
        sed 's/^/      /' "$WORK/retry.err" && grep -q 'Retry-After' "$WORK/retry.err" && grep -q '"data"' "$WORK/retried.json"
}
check "--retry waits as a 429's Retry-After asks, then succeeds" retry_waits_for_retry_after
stop_server

start_server --max-age 0 --posts 5 --fault route=/posts,status=503
check "--fail on a 5xx: exit 8" expect_failure 8 "$BIN/fresh" get --fail "$BASE_URL/posts" --db-dir "$WORK/fail-db"
stop_server
start_server --max-age 0 --posts 5 --fault route=/posts/{id},latency=1500
slow_is_not_offline() { # a stale entry, then a server slower than --max-time
    "$BIN/fresh" get "$BASE_URL/posts/1" --db-dir "$WORK/slow-db" -o /dev/null &&
        "$BIN/fresh" get --max-time 0.5 "$BASE_URL/posts/1" --db-dir "$WORK/slow-db" -o /dev/null 2>"$WORK/slow.err" &&
        sed 's/^/      /' "$WORK/slow.err" && grep -q 'did not answer in time (timed out after 0.5 s)' "$WORK/slow.err" &&
        ! grep -qi offline "$WORK/slow.err"
}
check "a slow server is reported as slow (with the time really waited), not offline" slow_is_not_offline
stop_server

one_line_errors() { # every program: --version, and an argument error is one line NAME: …
    local program
    for program in fresh fresh-reader fresh-mock; do
        "$BIN/$program" --version | grep -q "^$program [0-9]" || return 1
        "$BIN/$program" --no-such-flag >/dev/null 2>"$WORK/flag.err"
        [ $? -eq 64 ] && one_line "$WORK/flag.err" && grep -q "^$program: " "$WORK/flag.err" || { cat "$WORK/flag.err"; return 1; }
    done
}
check "fresh, fresh-reader and fresh-mock: --version, and one line 'NAME: …' for a bad flag (exit 64)" one_line_errors

# --- 6. fresh-reader in tmux: collections, search, live updates, prefetch ----------------------
reader_in_tmux() { tmux_session "LANG=C.UTF-8 '$BIN/fresh-reader' $*"; } # reader_in_tmux ARGS...: a fresh reader
keys() { tmux send-keys -t "$TMUX_SESSION" "$@"; }

start_server --max-age 0 --posts 95 --users 30 --quiet
sync_json "$WORK/reader-db" "$BASE_URL/posts?limit=20" >/dev/null
sync_json "$WORK/reader-db" "$BASE_URL/users" >/dev/null
reader_in_tmux --db-dir "'$WORK/reader-db'"
check "two collections: the reader opens on the collection list" wait_for_screen "NAME"
check "… which lists posts with its 95 items" wait_for_screen "posts     95"
keys Enter
check "… Enter opens posts, position 1/95" wait_for_screen "1/95 · ? help"
keys x
check "an unknown key says so" wait_for_screen "unknown key x"
keys '?'
check "? shows the help from the keymap" wait_for_screen "Ctrl-D"
keys q G
check "G goes to the last item and the end row" wait_for_screen "end of posts · 95 items"

# A post only this test wrote: its title and body words are unique. A concurrent `fresh sync`
# brings it in while the reader is open.
curl -s -X POST "$BASE_URL/posts" -H 'Content-Type: application/json' \
    -d '{"title": "Zebrafish migration notes", "author": "Eve", "body": "a quokkagnu in the cache"}' >/dev/null
keys g
"$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$WORK/reader-db" -q 2>>"$WORK/fresh.err" &
wait $!
check "a concurrent fresh sync appears without a restart (96 items)" wait_for_screen "1/96 · ? help"
keys / q u o k k a G Enter
check "/ searches bodies (the first search reads the items while the index is built): quokkaG is item 96" wait_for_screen "96/96 · ? help"
check "… and the letters typed (q, G) ran no command" reader_still_running
keys g / z e b r a f Enter
check "… a prefix of a title word finds it too" wait_for_screen "96/96 · ? help"
curl -s -X POST "$BASE_URL/posts" -H 'Content-Type: application/json' \
    -d '{"title": "One more", "author": "Eve", "body": "for the refresh"}' >/dev/null
keys r
check "r says what the refresh changed (the last page: 200, the other four: 304)" \
    wait_for_screen "1 new, 0 updated, 0 removed · 4 × 304"
check "… and the selection stays on the same item" wait_for_screen "96/97 · ? help"
keys q q
check "q goes back to the collection list, q again quits with 0" reader_exited_zero
stop_server

# Infinite scroll: an empty collection opened with --url, every page 300 ms slow. The reader
# loads pages as G comes near the end; the journal must list each page once, asked once.
start_server --max-age 0 --posts 95 --quiet --fault 'route=/posts,latency=300'
reader_in_tmux --db-dir "'$WORK/prefetch-db'" --url "'$BASE_URL/posts?limit=10'"
scroll_to_the_end() {
    for _ in $(seq 100); do
        keys G
        sleep 0.2
        tmux capture-pane -p -t "$TMUX_SESSION" >"$WORK/screen.txt"
        grep -qF "end of posts · 95 items" "$WORK/screen.txt" && return 0
    done
    sed 's/^/      | /' "$WORK/screen.txt"
    return 1
}
check "scrolling to the end of a paged collection loads every page" scroll_to_the_end
each_page_once() {
    curl -s "$BASE_URL/_admin/journal?limit=200" | python3 -c '
import collections, json, sys
entries = sorted((e for e in json.load(sys.stdin) if e["url"].startswith("/posts")), key=lambda e: e["sequence"])
seen, again = set(), []
for e in entries:
    (again.append(e) if e["url"] in seen else seen.add(e["url"]))
downloads = collections.Counter(e["url"] for e in entries if e["status"] == 200)
twice = {u: n for u, n in downloads.items() if n > 1}
not_304 = [(e["url"], e["status"]) for e in again if e["status"] != 304]
print("      %d pages, %d downloads, downloaded twice: %s; asked again: %d, not 304: %s"
      % (len(seen), sum(downloads.values()), twice or "none", len(again), not_304 or "none"))
print("      requests: " + " ".join("%s:%d" % (e["url"].split("cursor=")[-1][:6], e["status"]) for e in entries))
sys.exit(len(seen) != 10 or sum(downloads.values()) != 10 or bool(twice) or bool(again))'
}
check "… with each page asked exactly once (10 requests)" each_page_once
keys q
check "… and q exits 0" reader_exited_zero
stop_server

printf 'SQLite format 3\0garbage garbage garbage' >"$WORK/damaged.sqlite"
mkdir -p "$WORK/damaged-db" && head -c 65536 /dev/urandom >>"$WORK/damaged.sqlite" && cp "$WORK/damaged.sqlite" "$WORK/damaged-db/data.sqlite"
check "a damaged data.sqlite: one line, exit 6" expect_failure 6 "$BIN/fresh-reader" --db-dir "$WORK/damaged-db"
check "an unknown --collection: exit 64" expect_failure 64 "$BIN/fresh-reader" --db-dir "$WORK/reader-db" --collection nope
check "fresh-reader --help lists the keys of the keymap" bash -c "'$BIN/fresh-reader' --help | grep -q 'Ctrl-D'"

# --- 7. a source with a token, by name and --all, the reader refreshing it; CSV; make install -----
# Tools/peers/search_api.py: /private/items needs "Authorization: Bearer letmein" (401 without).
start_peer search_api.py --items 95 --quiet
export FRESH_CONFIG_DIR="$WORK/config"
SOURCES_DB="$WORK/sources-db"
source_synced_by_name() {
    E2E_TOKEN=letmein "$BIN/fresh" source add private "$BASE_URL/private/items?limit=20" --paginate after:param=after \
        -H 'Authorization: Bearer ${E2E_TOKEN}' >/dev/null || return 1
    E2E_TOKEN=letmein sync_json "$SOURCES_DB" private
    echo "      sources.toml: mode $(stat -c %a "$FRESH_CONFIG_DIR/sources.toml"), $(grep Authorization "$FRESH_CONFIG_DIR/sources.toml")"
    [ "$SYNC_STATUS" -eq 0 ] && [ "$ITEMS" -eq 95 ] && [ "$PAGES" -eq 5 ] && [ "$(stat -c %a "$FRESH_CONFIG_DIR/sources.toml")" = 600 ]
}
check "a source whose token is read from the environment syncs by name: 95 items, sources.toml 0600" source_synced_by_name
check "… the token itself is in no file: not the sources file, the cache or the mirror" \
    bash -c "! grep -rqa letmein '$FRESH_CONFIG_DIR' '$SOURCES_DB'"
check "… with the variable unset: one line naming it, exit 64" expect_failure 64 "$BIN/fresh" sync private --db-dir "$SOURCES_DB"
check "a bare word that names nothing: exit 64 at once, no DNS lookup" expect_failure 64 "$BIN/fresh" sync repos --db-dir "$SOURCES_DB"
sync_all() {
    sync_json "$SOURCES_DB" "$BASE_URL/search?size=10" >/dev/null
    E2E_TOKEN=letmein "$BIN/fresh" sync --all --db-dir "$SOURCES_DB" >"$WORK/all.out" 2>"$WORK/all.err"
    local status=$?
    sed 's/^/      /' "$WORK/all.out" | cut -c1-150
    [ "$status" -eq 0 ] && [ "$(grep -c '^synced ' "$WORK/all.out")" -eq 2 ] && grep -q '^synced private: 5 pages, 95 items' "$WORK/all.out" \
        && grep -q '^synced search: 10 pages, 95 items' "$WORK/all.out"
}
check "fresh sync --all: the source and the other collection, a line each, exit 0" sync_all
check "… without the token: the source's line on stderr, the other synced, exit 64" \
    bash -c "'$BIN/fresh' sync --all --db-dir '$SOURCES_DB' >'$WORK/all.out' 2>'$WORK/all.err'; [ \$? -eq 64 ] && grep -q '^synced search' '$WORK/all.out' && [ \$(wc -l <'$WORK/all.err') -eq 1 ]"
reader_with_token() { # reader_with_token TOKEN: the reader on the source's collection, TOKEN in its environment
    tmux_session "LANG=C.UTF-8 E2E_TOKEN=$1 FRESH_CONFIG_DIR='$FRESH_CONFIG_DIR' '$BIN/fresh-reader' --db-dir '$SOURCES_DB' --collection private"
}
reader_with_token wrong
check "the reader refreshing a source with a wrong token says it was refused, not offline" wait_for_screen "refused the request (401"
keys q
reader_with_token letmein
check "… with the token it refreshes on open, every page a 304 (the source's header sent)" wait_for_screen "0 new, 0 updated, 0 removed · 5 × 304"
keys q
csv_counted() { # CSV read back by Python's csv module: a header row and one row per item
    "$BIN/fresh" items private --format csv --fields id,title --db-dir "$SOURCES_DB" >"$WORK/items.csv" || return 1
    python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
print("      %d rows, header %s, last %s" % (len(rows), rows[0], rows[-1]))
sys.exit(rows[0] != ["id", "title"] or len(rows) != 96 or rows[-1][1] != "Document 95")' "$WORK/items.csv"
}
check "fresh items --format csv is read back by a CSV parser: a header and 95 rows" csv_counted
stop_server

# Repositories as an API lists them: later items have members the first one lacks.
cat >"$WORK/repos.json" <<'JSON'
{"books": [{"id": 1, "name": "fresh"}, {"id": 2, "name": "grdb", "license": "MIT"}, {"id": 3, "name": "nio", "topics": ["net", "async"]},
           {"id": 4, "name": "curl", "license": "curl", "year": 1998}]}
JSON
start_server --data "$WORK/repos.json" --style page-404 --quiet
csv_of_every_member() { # items with different members: the columns are all of them, in the order they first appear
    "$BIN/fresh" sync "$BASE_URL/books?page=1&per_page=2" --db-dir "$WORK/books-db" -q || return 1
    "$BIN/fresh" items books --format csv --db-dir "$WORK/books-db" >"$WORK/books.csv" || return 1
    "$BIN/fresh" items books --format tsv --fields year,name --db-dir "$WORK/books-db" >"$WORK/books.tsv" || return 1
    python3 -c '
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
members = []
for item in json.load(open(sys.argv[2]))["books"]:
    members += [name for name in item if name not in members]
print("      CSV header:", rows[0], "; every member of the file:", sorted(members))
tsv = open(sys.argv[3], encoding="utf-8").read().splitlines()
sys.exit(rows[0] != ["id", "name", "license", "topics", "year"] or sorted(rows[0]) != sorted(members) or tsv[0] != "year\tname")' "$WORK/books.csv" "$WORK/repos.json" "$WORK/books.tsv"
}
check "fresh items --format csv: a column for every member of every item; --fields chooses and orders them" csv_of_every_member
adopting_source() { # a source for a URL a collection already mirrors takes it over, with its items
    "$BIN/fresh" source add library "$BASE_URL/books?page=1&per_page=2" --db-dir "$WORK/books-db" >"$WORK/adopt.out" 2>&1 || return 1
    FRESH_CONFIG_DIR="$WORK/adopt-config" "$BIN/fresh" collections --db-dir "$WORK/books-db" --json >/dev/null
    local names; names=$("$BIN/fresh" collections --json --db-dir "$WORK/books-db" | python3 -c 'import json, sys; print(" ".join(c["name"] for c in json.load(sys.stdin)))')
    echo "      $(cat "$WORK/adopt.out"); collections: $names"
    grep -q "takes over the collection 'books' with its" "$WORK/adopt.out" && [ "$names" = "library" ] &&
        "$BIN/fresh" sync --all --db-dir "$WORK/books-db" >"$WORK/adopt-all.out" 2>&1 && [ "$(grep -c '^synced library' "$WORK/adopt-all.out")" -eq 1 ] &&
        [ "$(wc -l <"$WORK/adopt-all.out")" -eq 1 ]
}
FRESH_CONFIG_DIR="$WORK/adopt-config" check "fresh source add for a URL already mirrored adopts that collection; --all syncs it once" adopting_source
stop_server

installed() { # make install into a scratch PREFIX (the debug build), used from there, then make uninstall
    # Under `make test` the programs are built (BUILT=yes in the environment: install does not build
    # again); MAKEFLAGS is emptied for the outer make's jobserver, whose descriptors are not ours.
    local prefix="$WORK/prefix"
    MAKEFLAGS= make -s -C "$(dirname "$0")/.." install PREFIX="$prefix" INSTALL_CONFIGURATION="$(basename "$BIN")" >"$WORK/install.out" 2>&1 || {
        sed 's/^/      | /' "$WORK/install.out"; return 1; }
    grep -v '^note:' "$WORK/install.out" | tail -1 | sed 's/^/      /'
    "$prefix/bin/fresh" --version | grep -q '^fresh ' && ! readelf -S "$prefix/bin/fresh" | grep -q '\.symtab' &&
        MANWIDTH=80 man -l "$prefix/share/man/man1/fresh-sync.1" 2>/dev/null | grep -q -- '--allow-partial' &&
        PATH="$prefix/bin:$PATH" bash -c "source '$prefix/share/bash-completion/completions/fresh'
            COMP_WORDS=(fresh items ''); COMP_CWORD=2; COMP_LINE='fresh items '; COMP_POINT=12; _fresh
            [[ \" \${COMPREPLY[*]} \" == *' private '* ]]" &&
        MAKEFLAGS= make -s -C "$(dirname "$0")/.." uninstall PREFIX="$prefix" >/dev/null && [ -z "$(find "$prefix" -type f)" ]
}
check "make install PREFIX=…: fresh --version (stripped), man -l fresh-sync.1, completion of a source's name; make uninstall leaves no file" installed
sourced_cluster_script_returns() { # docs/scaling.md has users source it: a failure returns, never exits their shell
    local said; said=$(bash -c 'source "$1"; unset WORK; start_pg_cluster 2>/dev/null; echo "still here after status $?"' _ "$(dirname "$0")/lib/pg-cluster.sh")
    echo "      $said"
    [ "$said" = "still here after status 1" ]
}
check "Tools/lib/pg-cluster.sh, sourced: a failing start returns 1 and the shell goes on" sourced_cluster_script_returns

# --- 8. the mirror in PostgreSQL: a throwaway cluster, two "machines", a concurrent pair, the reader ---
# Each "machine" is a data directory of its own (its own HTTP cache); the mirror is shared.
unset FRESH_CONFIG_DIR
start_pg_cluster || exit 1
pg_sql postgres "CREATE DATABASE team" >/dev/null
STORE="${PG_URL%/postgres}/team"
start_server --max-age 0 --posts 95 --users 30 --quiet
pg_first_sync() { # also: creating the schema says nothing on stderr (the server's notices are not shown)
    local said_before; said_before=$(wc -l < "$WORK/fresh.err")
    sync_json "$WORK/machine-a" "$BASE_URL/posts?limit=20" --store "$STORE"
    [ "$SYNC_STATUS" -eq 0 ] && [ "$PAGES" -eq 5 ] && [ "$ITEMS" -eq 95 ] && [ "$OK" -eq 5 ] &&
        [ "$(tail -n +$((said_before + 1)) "$WORK/fresh.err")" = "fresh: new collection 'posts'" ] &&
        [ "$(pg_sql team 'SELECT count(*) FROM fresh.item')" = 95 ] &&
        [ "$(pg_sql team "SELECT jsonb_typeof(json) FROM fresh.item LIMIT 1")" = object ]
}
check "fresh sync --store postgresql://…: 5 pages, 95 items, stored as JSONB in the fresh schema" pg_first_sync
server_answers() { # server_answers: fresh-mock's own count of its GET /posts answers, as "200s 304s body-bytes"
    curl -s "$BASE_URL/_admin/stats" | python3 -c 'import json, sys
s = json.load(sys.stdin); route = s["by_route"].get("GET /posts", {"by_status": {}})["by_status"]
print(route.get("200", 0), route.get("304", 0), s["body_bytes_sent"])'
}
pg_second_machine() { # judged by the server's count, not by fresh's own summary
    local before after
    before=$(server_answers)
    sync_json "$WORK/machine-b" "$BASE_URL/posts?limit=20" --store "$STORE"
    after=$(server_answers)
    read -r ok_before nm_before bytes_before <<<"$before"
    read -r ok_after nm_after bytes_after <<<"$after"
    echo "      the server answered $((ok_after - ok_before)) × 200 and $((nm_after - nm_before)) × 304, $((bytes_after - bytes_before)) body bytes (the stats request's own included)"
    [ "$SYNC_STATUS" -eq 0 ] && [ "$ITEMS" -eq 95 ] && [ $((ok_after - ok_before)) -eq 0 ] && [ $((nm_after - nm_before)) -eq 5 ]
}
check "a second machine's first sync (an empty cache of its own): every page a 304, 0 bytes received" pg_second_machine
pg_concurrent_pair() { # two machines sync two collections at once, twice over, then one collection at once
    FRESH_STORE="$STORE" "$BIN/fresh" sync "$BASE_URL/users?limit=5" --db-dir "$WORK/machine-a" -q 2>>"$WORK/fresh.err" & local a=$!
    FRESH_STORE="$STORE" "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$WORK/machine-b" -q 2>>"$WORK/fresh.err" & local b=$!
    wait $a && wait $b || return 1
    curl -s -X POST "$BASE_URL/posts" -H 'Content-Type: application/json' -d '{"title": "From machine A", "author": "Eve", "body": "x"}' >/dev/null
    FRESH_STORE="$STORE" "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$WORK/machine-a" -v 2>"$WORK/pair-a.err" >/dev/null & a=$!
    FRESH_STORE="$STORE" "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$WORK/machine-b" -v 2>"$WORK/pair-b.err" >/dev/null & b=$!
    wait $a && wait $b || return 1
    # The -v lines of the pair: the new post was written by exactly one of the two.
    local written; written=$(cat "$WORK/pair-a.err" "$WORK/pair-b.err" | grep -o '([0-9]* new' | tr -dc '0-9\n' | awk '{ sum += $1 } END { print sum + 0 }')
    echo "      new items written by the pair, from their -v lines: $written"
    [ "$written" = 1 ] || return 1
    echo "      $(pg_sql team "SELECT string_agg(name || ' ' || (SELECT count(*) FROM fresh.item i WHERE i.collection_id = c.id AND i.page_index >= 0), ', ' ORDER BY name) FROM fresh.collection c")"
    [ "$(pg_sql team "SELECT count(*) FROM fresh.item i JOIN fresh.collection c ON c.id = i.collection_id WHERE c.name = 'posts' AND i.page_index >= 0")" = 96 ] &&
        [ "$(pg_sql team "SELECT count(*) FROM fresh.item i JOIN fresh.collection c ON c.id = i.collection_id WHERE c.name = 'users'")" = 30 ] &&
        [ "$(pg_sql team 'SELECT count(*) FROM fresh.collection')" = 2 ]
}
check "a concurrent pair from two machines (two collections, then one): no item lost, one collection each" pg_concurrent_pair
check "… the read-outs read the shared mirror: collections, items --where, check" bash -c "
    export FRESH_STORE='$STORE'
    '$BIN/fresh' collections --db-dir '$WORK/machine-b' | grep -q '^posts *96 ' &&
    [ \$('$BIN/fresh' items posts --where 'title=From machine A' --db-dir '$WORK/machine-b' | wc -l) -eq 1 ] &&
    '$BIN/fresh' check --db-dir '$WORK/machine-b' | grep -q 'no damage found'"
pg_replay() { # fresh-mock --mirror --store: the shared mirror served back, synced into a SQLite directory
    start_replay posts --store "$STORE" --max-age 0 || return 1
    "$BIN/fresh" sync "$REPLAY_URL/posts?limit=20" --db-dir "$WORK/from-pg-replay" -q 2>>"$WORK/fresh.err" || return 1
    stop_replay
    cmp -s <(FRESH_STORE="$STORE" "$BIN/fresh" items posts --format jsonl --db-dir "$WORK/machine-b") \
           <("$BIN/fresh" items posts --format jsonl --db-dir "$WORK/from-pg-replay") &&
        [ "$(shape "$WORK/from-pg-replay")" = "posts 96 5 cursor data" ]
}
check "fresh-mock --mirror --store postgresql://…: its pages synced into SQLite give the same 96 items in 5 pages" pg_replay
pg_kill_and_resume() { # kill -9 mid-sync: the server keeps whole pages, the next sync resumes and completes
    stop_server
    start_server --max-age 0 --posts 95 --quiet --fault route=/posts,latency=300
    "$BIN/fresh" sync "$BASE_URL/posts?limit=10" --name slow --store "$STORE" -v --db-dir "$WORK/machine-c" >/dev/null 2>"$WORK/pg-killed.err" &
    local pid=$!
    wait_for_line "$WORK/pg-killed.err" "^fresh: page 3:"
    kill -9 "$pid"; wait "$pid" 2>/dev/null
    local kept; kept=$(pg_sql team "SELECT count(*) FROM fresh.item i JOIN fresh.collection c ON c.id = i.collection_id WHERE c.name = 'slow'")
    sync_json "$WORK/machine-c" "$BASE_URL/posts?limit=10" --store "$STORE" --name slow
    echo "      $kept items kept at the kill (whole pages of 10)"
    [ $((kept % 10)) -eq 0 ] && [ "$RESUMED" -ge 3 ] && [ "$ITEMS" -eq 95 ]
}
check "kill -9 mid-sync into PostgreSQL: whole pages kept, the next sync resumes and completes (95 items)" pg_kill_and_resume
pg_server_stops_answering() { # the server's processes stopped mid-sync: Ctrl-C waits for them, a second stops at once
    "$BIN/fresh" sync "$BASE_URL/posts?limit=10" --name hung --store "$STORE" -v --db-dir "$WORK/machine-d" >/dev/null 2>"$WORK/pg-hung.err" &
    local pid=$!
    wait_for_line "$WORK/pg-hung.err" "^fresh: page 2:"
    local server="$PG_PID $(pgrep -P "$PG_PID" | tr '\n' ' ')"
    kill -STOP $server
    kill -INT "$pid"
    wait_for_line "$WORK/pg-hung.err" "Ctrl-C again stops at once"
    kill -INT "$pid"
    wait_until bash -c "! kill -0 $pid 2>/dev/null"
    kill -9 "$pid" 2>/dev/null; wait "$pid"; local status=$?
    kill -CONT $server
    grep -vE "^fresh: (new collection '|pages: |page [0-9]+: )" "$WORK/pg-hung.err" >"$WORK/pg-hung.lines"
    echo "      exit $status: $(tr '\n' ' ' <"$WORK/pg-hung.lines")"
    [ "$status" -eq 130 ] && [ "$(wc -l <"$WORK/pg-hung.lines")" -eq 2 ] &&
        grep -q "^fresh: stopping: waiting for the work under way" "$WORK/pg-hung.lines" &&
        grep -q "^fresh: interrupted again: " "$WORK/pg-hung.lines" || return 1
    local kept; kept=$(pg_sql team "SELECT count(*) FROM fresh.item i JOIN fresh.collection c ON c.id = i.collection_id WHERE c.name = 'hung'")
    sync_json "$WORK/machine-d" "$BASE_URL/posts?limit=10" --store "$STORE" --name hung
    echo "      $kept items kept (whole pages of 10); the next sync: $ITEMS items"
    [ $((kept % 10)) -eq 0 ] && [ "$ITEMS" -eq 95 ]
}
check "a server that stops answering mid-sync: Ctrl-C says it waits, a second stops at once (exit 130); whole pages kept, the next sync completes" pg_server_stops_answering
pg_interrupted_all() { # sync --all over sources in two mirrors: Ctrl-C during the first mirror's syncs starts no other's
    local config="$WORK/two-mirrors"; mkdir -p "$config"
    FRESH_CONFIG_DIR="$config" "$BIN/fresh" source add local-first "$BASE_URL/posts?limit=10" >/dev/null &&
        FRESH_CONFIG_DIR="$config" "$BIN/fresh" source add shared-next "$BASE_URL/posts?limit=10" --store "$STORE" >/dev/null || return 1
    FRESH_CONFIG_DIR="$config" "$BIN/fresh" sync --all --db-dir "$WORK/machine-e" >/dev/null 2>"$WORK/all.err" &
    local pid=$!
    wait_until bash -c "'$BIN/fresh' collections --db-dir '$WORK/machine-e' 2>/dev/null | grep -q '^local-first '"
    kill -INT "$pid"
    wait_until bash -c "! kill -0 $pid 2>/dev/null"
    kill -9 "$pid" 2>/dev/null; wait "$pid"; local status=$?
    local started; started=$(pg_sql team "SELECT count(*) FROM fresh.collection WHERE name = 'shared-next'")
    echo "      exit $status; the second mirror's source started: $started"
    [ "$status" -eq 130 ] && [ "$started" = 0 ]
}
check "sync --all over two mirrors: Ctrl-C during the first mirror's syncs exits 130 and starts no other's" pg_interrupted_all
pg_source_rm() { # handed to fresh-postgresql before the source is removed, so the source is still there to remove
    local config="$WORK/two-mirrors"
    FRESH_CONFIG_DIR="$config" "$BIN/fresh" source add to-remove "$BASE_URL/posts?limit=10" --store "$STORE" >/dev/null || return 1
    FRESH_CONFIG_DIR="$config" "$BIN/fresh" source rm to-remove --store "$STORE" --db-dir "$WORK/machine-e" >"$WORK/rm.out" 2>&1
    local status=$?; echo "      exit $status: $(head -1 "$WORK/rm.out")"
    [ "$status" -eq 0 ] && grep -q "^removed source 'to-remove'" "$WORK/rm.out" &&
        ! FRESH_CONFIG_DIR="$config" "$BIN/fresh" source list | grep -q to-remove
}
check "fresh source rm with a PostgreSQL store: removed once, exit 0" pg_source_rm
pg_source_read_outs() { # items and rm given a source's name look in the source's own store
    local config="$WORK/two-mirrors"
    FRESH_CONFIG_DIR="$config" "$BIN/fresh" sync shared-next --db-dir "$WORK/machine-e" -q || return 1
    local listed; listed=$(FRESH_CONFIG_DIR="$config" "$BIN/fresh" items shared-next --db-dir "$WORK/machine-e" | wc -l)
    FRESH_CONFIG_DIR="$config" "$BIN/fresh" rm shared-next --db-dir "$WORK/machine-e" >/dev/null || return 1
    local left; left=$(pg_sql team "SELECT count(*) FROM fresh.collection WHERE name = 'shared-next'")
    echo "      fresh items shared-next: $listed lines; collections of that name left in PostgreSQL after fresh rm: $left"
    [ "$listed" -eq 95 ] && [ "$left" = 0 ]
}
check "fresh items and fresh rm given a source kept in PostgreSQL find its collection there" pg_source_read_outs
stop_server

start_server --max-age 0 --posts 95 --quiet
sync_json "$WORK/machine-a" "$BASE_URL/posts?limit=20" --store "$STORE" --name live >/dev/null
reader_in_tmux --store "'$STORE'" --db-dir "'$WORK/machine-a'" --collection live
check "fresh-reader --store postgresql://… shows the shared collection" wait_for_screen "1/95 · ? help"
curl -s -X POST "$BASE_URL/posts" -H 'Content-Type: application/json' -d '{"title": "Pushed by NOTIFY", "author": "Eve", "body": "x"}' >/dev/null
"$BIN/fresh" sync "$BASE_URL/posts?limit=20" --name live --store "$STORE" --db-dir "$WORK/machine-b" -q 2>>"$WORK/fresh.err"
check "… another machine's sync appears on its own, by LISTEN/NOTIFY (96 items)" wait_for_screen "1/96 · ? help"
keys q q
check "… and q exits 0" reader_exited_zero
stop_server

check "a database that does not exist: one line, exit 6" \
    expect_failure 6 "$BIN/fresh" collections --store "${PG_URL%/postgres}/nowhere" --db-dir "$WORK/machine-a"
pg_password_hidden() {
    expect_failure 6 "$BIN/fresh" collections --store "postgresql://fresh:hunter2@127.0.0.1:1/team" --db-dir "$WORK/machine-a" &&
        ! grep -q hunter2 "$WORK/error.txt" && grep -q 'fresh:\*\*\*@' "$WORK/error.txt"
}
check "a server that does not answer: one line, exit 6, the password shown as ***" pg_password_hidden
fresh_alone() { # fresh without fresh-postgresql beside it: says which program it lacks, and carries no PostgreSQL client itself
    mkdir -p "$WORK/alone" && cp "$BIN/fresh" "$WORK/alone/fresh" &&
        expect_failure 6 "$WORK/alone/fresh" collections --store "$STORE" --db-dir "$WORK/machine-a" &&
        grep -q "opened by fresh-postgresql, and $WORK/alone/fresh-postgresql cannot be run" "$WORK/error.txt" &&
        expect_failure 6 env FRESH_CONFIG_DIR="$WORK/two-mirrors" "$WORK/alone/fresh" sync --all --db-dir "$WORK/alone/db" &&
        [ ! -e "$WORK/alone/db" ] &&
        ! ldd "$BIN/fresh" | grep -q libpq && ldd "$BIN/fresh-postgresql" | grep -q libpq
}
check "fresh hands a PostgreSQL store to fresh-postgresql: without it, one line naming it, exit 6, before sync --all does anything" fresh_alone
stop_pg_cluster
check "the server stopped: a sync says so in one line, exit 6" \
    expect_failure 6 "$BIN/fresh" sync "$DEAD_URL/posts" --store "$STORE" --db-dir "$WORK/machine-a"

# --- 9. what real APIs do: listings that move, stated limits, 403s, private CAs, hostile text ----
unset FRESH_CONFIG_DIR
no_raw_controls() { # no_raw_controls FILE: no ESC, no C1 control, no bidi override or isolate in FILE
    python3 -c '
import sys, re
text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
found = re.findall("[\x1b\x07\x7f\u0080-\u009f\u202a-\u202e\u2066-\u2069]", text)
print("      raw controls on the terminal:", len(found))
sys.exit(1 if found else 0)' "$1"
}
on_terminal() { # on_terminal OUTPUT COMMAND...: COMMAND's stdout and stderr as an 80-column terminal shows them
    local out=$1; shift
    script -qec "stty cols 80 rows 50; $*" /dev/null >"$out" 2>&1
}

start_server --news 50 --news-arrivals 2/request,max=6 --quiet
moving_feed() { # newest first by page number, 2 entries added before each of the first 3 requests
    local db="$WORK/moving-db"
    "$BIN/fresh" sync "$BASE_URL/news?per_page=10" --db-dir "$db" >"$WORK/moving.out" 2>"$WORK/moving.err" || return 1
    local ids duplicates
    ids=$("$BIN/fresh" items news --db-dir "$db" | python3 -c 'import sys, json; print(" ".join(str(json.loads(l)["id"]) for l in sys.stdin))')
    duplicates=$(tr ' ' '\n' <<<"$ids" | sort | uniq -d | wc -l)
    echo "      $(cat "$WORK/moving.err")"
    echo "      $(wc -w <<<"$ids") items, $duplicates duplicated; the server lists $(curl -s "$BASE_URL/news?per_page=1" -D - -o /dev/null | grep -i x-total-count | tr -d '\r')"
    grep -q "the listing moved while it was read: 4 items seen twice" "$WORK/moving.err" &&
        [ "$ids" = "$(seq 56 -1 1 | tr '\n' ' ' | sed 's/ $//')" ] && [ "$duplicates" -eq 0 ]
}
check "a newest-first listing that moves while it is read: exit 0, 56 of 56 items, none twice, said once" moving_feed
stop_server

start_server --posts 45 --rate-limit 4/1s --rate-limit-fields x-ratelimit,ietf --quiet
stated_budget() { # 9 pages at 4 requests a second: fresh waits for the resets, the server refuses nothing
    "$BIN/fresh" sync "$BASE_URL/posts?limit=5" --db-dir "$WORK/budget-db" --json >"$WORK/budget.json" 2>"$WORK/budget.err" || return 1
    local stats; stats=$(curl -s "$BASE_URL/_admin/stats")
    echo "      $(head -1 "$WORK/budget.err")"
    echo "      server: $(python3 -c 'import json, sys; s = json.load(sys.stdin); print(s["by_status"], "max in flight", s["max_in_flight"])' <<<"$stats")"
    python3 -c 'import json, sys; s = json.load(sys.stdin); sys.exit(0 if "429" not in s["by_status"] and s["max_in_flight"] == 1 else 1)' <<<"$stats" &&
        python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); sys.exit(0 if s["totalItems"] == 45 and s["secondsWaitedFor"].get("rate limit", 0) > 0 else 1)' "$WORK/budget.json" &&
        grep -q "the stated rate limit is spent until it resets: waiting" "$WORK/budget.err"
}
check "a stated budget (X-RateLimit-*, RateLimit): waited for before it is spent, one request at a time, no 429" stated_budget
stop_server

start_server --posts 30 --rate-limit 3/1s --rate-limit-status 403 --rate-limit-fields retry-after --quiet
forbidden_retry_after() { # GitHub's way: 403 with Retry-After, for sync and for get --retry
    "$BIN/fresh" sync "$BASE_URL/posts?limit=5" --db-dir "$WORK/forbidden-db" >"$WORK/forbidden.out" 2>"$WORK/forbidden.err" || return 1
    for _ in 1 2 3 4; do curl -s -o /dev/null "$BASE_URL/posts/1"; done
    "$BIN/fresh" get --retry 3 -o /dev/null "$BASE_URL/posts/2" --db-dir "$WORK/forbidden-db" 2>"$WORK/forbidden-get.err" || return 1
    echo "      $(cat "$WORK/forbidden.out")"
    echo "      get: $(head -1 "$WORK/forbidden-get.err")"
    grep -q "30 items" "$WORK/forbidden.out" && grep -q "status 403, Retry-After" "$WORK/forbidden-get.err"
}
check "a 403 with Retry-After is waited out like a 429: sync completes, get --retry 3 gets its answer" forbidden_retry_after
stop_server

start_server --posts 12 --tls-dir "$WORK/tls" --quiet
private_ca() {
    expect_failure 10 "$BIN/fresh" get "$BASE_URL/posts" --db-dir "$WORK/tls-db" || return 1
    expect_failure 10 "$BIN/fresh" sync "$BASE_URL/posts?limit=5" --db-dir "$WORK/tls-db" || return 1
    "$BIN/fresh" get -o /dev/null "$BASE_URL/posts" --cacert "$WORK/tls/ca.pem" --db-dir "$WORK/tls-db" 2>"$WORK/tls.err" &&
        [ ! -s "$WORK/tls.err" ] &&
        CURL_CA_BUNDLE="$WORK/tls/ca.pem" "$BIN/fresh" sync "$BASE_URL/posts?limit=5" --db-dir "$WORK/tls-db" -q &&
        "$BIN/fresh" get -k -o /dev/null "$BASE_URL/posts/1" --db-dir "$WORK/tls-db" 2>"$WORK/insecure.err" &&
        grep -q "warning: certificates are not checked (--insecure)" "$WORK/insecure.err"
}
check "TLS with a private CA: exit 10 for an untrusted certificate (get and sync); --cacert, CURL_CA_BUNDLE and -k (with a warning) work" private_ca
stop_server

start_server --posts 30 --hostile-text --quiet
"$BIN/fresh" sync "$BASE_URL/posts?limit=5" --db-dir "$WORK/hostile-db" -q 2>>"$WORK/fresh.err"
hostile_on_terminals() { # every format on a terminal: nothing raw; in a pipe: the exact bytes
    local format failed=0
    for format in csv tsv json jsonl table; do
        on_terminal "$WORK/hostile-$format.out" "'$BIN/fresh' items posts --format $format --db-dir '$WORK/hostile-db'"
        no_raw_controls "$WORK/hostile-$format.out" || { echo "      --format $format"; failed=1; }
    done
    on_terminal "$WORK/hostile-collections.out" "'$BIN/fresh' collections --db-dir '$WORK/hostile-db'; '$BIN/fresh' collections --json --db-dir '$WORK/hostile-db'"
    no_raw_controls "$WORK/hostile-collections.out" || failed=1
    on_terminal "$WORK/hostile-get.out" "NO_COLOR=1 '$BIN/fresh' get -i '$BASE_URL/posts/999' --db-dir '$WORK/hostile-db'; NO_COLOR=1 '$BIN/fresh' get --json '$BASE_URL/posts?limit=3' --db-dir '$WORK/hostile-db'"
    no_raw_controls "$WORK/hostile-get.out" || failed=1
    "$BIN/fresh" items posts --format csv --db-dir "$WORK/hostile-db" >"$WORK/hostile-pipe.csv"
    grep -q $'\x1b]0;pwned' "$WORK/hostile-pipe.csv" && grep -q $'\xc2\x9b31m' "$WORK/hostile-pipe.csv" ||
        { echo "      a pipe lost the exact bytes"; failed=1; }
    [ "$failed" -eq 0 ]
}
check "hostile titles, errors and a header field: csv, tsv, json, jsonl, table, collections and get on a terminal show no raw control" hostile_on_terminals
stop_server

start_server --posts 30 --max-age 0 --quiet
incremental() { # --since: the first sync is whole, the next one asks for what changed and removes nothing
    "$BIN/fresh" sync "$BASE_URL/posts?limit=10" --since since=updated_at --db-dir "$WORK/since-db" -q || return 1
    curl -s -X POST "$BASE_URL/_admin/tick?n=8" >/dev/null
    "$BIN/fresh" sync posts --db-dir "$WORK/since-db" >"$WORK/since.out" 2>>"$WORK/fresh.err" || return 1
    on_terminal "$WORK/since-collections.out" "'$BIN/fresh' collections --db-dir '$WORK/since-db'"
    echo "      $(cat "$WORK/since.out")"
    grep -q "synced posts incrementally (since=" "$WORK/since.out" && grep -q "nothing removed" "$WORK/since.out" &&
        grep -q "complete, incremental" "$WORK/since-collections.out" &&
        python3 -c 'import sys, unicodedata
w = lambda line: sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
sys.exit(0 if all(w(l.rstrip("\r\n")) <= 80 for l in open(sys.argv[1], encoding="utf-8")) else 1)' "$WORK/since-collections.out"
}
check "--since since=updated_at: a sync by name merges what changed (nothing removed); collections says so, within 80 columns" incremental
watch_lines_as_they_happen() { # --watch into a file: the first line is there while fresh still runs
    "$BIN/fresh" sync posts --watch 1s --db-dir "$WORK/since-db" >"$WORK/watch.out" 2>>"$WORK/fresh.err" &
    local pid=$!
    curl -s -X POST "$BASE_URL/_admin/tick?n=3" >/dev/null
    wait_for_line "$WORK/watch.out" "synced posts"
    local seen=$?
    kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
    echo "      $(head -1 "$WORK/watch.out" | cut -c1-120)"
    [ "$seen" -eq 0 ]
}
check "--watch lines reach a file as they happen, not when fresh exits" watch_lines_as_they_happen
stop_server

# --- 10. record once, develop offline: fresh-mock --mirror replays what fresh sync stored ---------
start_server --posts 120 --users 30 --quiet
ORIGIN=$BASE_URL
for first in "posts?limit=20" "articles?per_page=10" "styles/has-more/users?limit=7" "feed?limit=40"; do
    "$BIN/fresh" sync "$ORIGIN/$first" --db-dir "$WORK/recorded-db" -q 2>>"$WORK/fresh.err"
done
start_replay --db-dir "$WORK/recorded-db" --max-age 0
replayed_as_recorded() { # a sync from the replay: the same items byte for byte, the same pages and style
    for first in "posts?limit=20" "articles?per_page=10" "styles/has-more/users?limit=7" "feed?limit=40"; do
        "$BIN/fresh" sync "$REPLAY_URL/$first" --db-dir "$WORK/replayed-db" -q 2>>"$WORK/fresh.err" || return 1
    done
    echo "      $(shape "$WORK/replayed-db" | tr '\n' ';')"
    [ "$(shape "$WORK/recorded-db")" = "$(shape "$WORK/replayed-db")" ] || return 1
    for name in posts articles users feed; do
        cmp -s <("$BIN/fresh" items "$name" --format jsonl --db-dir "$WORK/recorded-db") \
               <("$BIN/fresh" items "$name" --format jsonl --db-dir "$WORK/replayed-db") || { echo "      $name differs"; return 1; }
    done
}
check "replay: a sync from fresh-mock --mirror gives the recorded items byte for byte, with the same pages and styles (cursor, link, has-more, offset)" replayed_as_recorded
replay_revalidated() { # again: every page answers 304 (the origin's ETags, or the replay's own), no body byte
    sync_json "$WORK/replayed-db" "$REPLAY_URL/posts?limit=20" >/dev/null
    echo "      $PAGES pages: $NOT_MODIFIED × 304, $OK × 200, $RECEIVED bytes received"
    [ "$NOT_MODIFIED" -eq "$PAGES" ] && [ "$OK" -eq 0 ] && [ "$RECEIVED" -eq 0 ]
}
check "… a second sync against the replay is all 304s" replay_revalidated
reader_in_tmux --db-dir "'$WORK/replayed-db'" --collection posts
check "… fresh-reader reads the replayed collection" wait_for_screen "1/120 · ? help"
tmux send-keys -t "$TMUX_SESSION" q
miss_filled() { # a request the recording lacks: 404 naming the nearest URL, listed, then fetched by one sync
    curl -s "$REPLAY_URL/styles/page-404/users?per_page=9" >"$WORK/miss.json"
    echo "      $(head -c 160 "$WORK/miss.json")"
    grep -q '"not_recorded"' "$WORK/miss.json" && grep -q '"nearest"' "$WORK/miss.json" || return 1
    curl -s "$REPLAY_URL/_admin/misses" >"$WORK/misses.txt"
    [ "$(cat "$WORK/misses.txt")" = "$ORIGIN/styles/page-404/users?per_page=9" ] || { echo "      misses: $(cat "$WORK/misses.txt")"; return 1; }
    "$BIN/fresh" sync --input-file "$WORK/misses.txt" --db-dir "$WORK/recorded-db" -q 2>>"$WORK/fresh.err" || return 1
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$REPLAY_URL/styles/page-404/users?per_page=9")" = 200 ]
}
check "… a miss is a 404 naming the nearest recorded URL, listed at /_admin/misses; fresh sync --input-file fills it" miss_filled
stop_replay
check "… the request log marked the miss" grep -q 'GET /styles/page-404/users?per_page=9 404 .* miss$' "$WORK/replay.log"
check "fresh-mock --mirror NAME the mirror lacks: one line, exit 64" expect_failure 64 "$BIN/fresh-mock" --mirror nosuch --db-dir "$WORK/recorded-db" --port 0
check "fresh-mock --mirror of a directory without a mirror: one line, exit 66" expect_failure 66 "$BIN/fresh-mock" --mirror --db-dir "$WORK/no-mirror" --port 0
dlt_rows() { # dlt_rows BASE: the articles dlt's rest_api source loads from BASE, following Link, as JSON lines
    local directory="$WORK/dlt-$RANDOM"
    DLT_TELEMETRY_DISABLED=1 RUNTIME__LOG_LEVEL=WARNING RUNTIME__DLTHUB_TELEMETRY=false python3 - "$1" "$directory" <<'PY'
import json, sys, dlt, duckdb
from dlt.sources.rest_api import rest_api_source
base, directory = sys.argv[1], sys.argv[2]
source = rest_api_source({"client": {"base_url": base + "/"}, "resources": [{"name": "articles", "endpoint": {
    "path": "articles", "params": {"per_page": 10}, "paginator": "header_link"}, "primary_key": "id"}]})
pipeline = dlt.pipeline(pipeline_name="replay", destination=dlt.destinations.duckdb(directory + "/replay.duckdb"),
                        pipelines_dir=directory + "/pipelines", dataset_name="mock")
pipeline.run(source)
with duckdb.connect(directory + "/replay.duckdb") as db:
    for row in db.execute("SELECT id, title, summary FROM mock.articles ORDER BY id").fetchall():
        print(json.dumps(row, ensure_ascii=False))
PY
}
dlt_same_rows() { # dlt walking the Link-style replay loads what it loads from the origin
    start_replay --db-dir "$WORK/recorded-db"
    dlt_rows "$ORIGIN" >"$WORK/dlt-origin.jsonl" 2>>"$WORK/dlt.err" && dlt_rows "$REPLAY_URL" >"$WORK/dlt-replay.jsonl" 2>>"$WORK/dlt.err" ||
        { tail -3 "$WORK/dlt.err"; return 1; }
    echo "      $(wc -l <"$WORK/dlt-origin.jsonl") rows from the origin, $(wc -l <"$WORK/dlt-replay.jsonl") from the replay"
    [ -s "$WORK/dlt-origin.jsonl" ] && cmp -s "$WORK/dlt-origin.jsonl" "$WORK/dlt-replay.jsonl"
}
check "dlt's rest_api source walking the Link-style replay loads the same rows as from the origin" dlt_same_rows
stop_replay
stop_server

start_server --posts 10000000 --quiet
ten_million_posts_made_when_asked() { # two cursor pages of 10,000,000 posts, the server far under the 9 GB they would take
    local cursor second peak
    cursor=$("$BIN/fresh" get "$BASE_URL/posts?limit=100" --db-dir "$WORK/millions-db" |
        python3 -c 'import json, sys; page = json.load(sys.stdin); assert [p["id"] for p in page["data"]] == list(range(1, 101)); print(page["next_cursor"])') &&
    second=$("$BIN/fresh" get "$BASE_URL/posts?limit=100&cursor=$cursor" --db-dir "$WORK/millions-db" |
        python3 -c 'import json, sys; print(",".join(str(p["id"]) for p in json.load(sys.stdin)["data"][::99]))') || return 1
    peak=$(awk '/VmHWM/ {print $2}' "/proc/$SERVER_PID/status")
    echo "      second page: ids $second; fresh-mock peak $((peak / 1024)) MiB"
    [ "$second" = "101,200" ] && [ "$peak" -lt $((512 * 1024)) ]
}
check "--posts 10000000: posts are made when a page asks (pages 1 and 2 right; the server stays under 512 MiB)" ten_million_posts_made_when_asked
stop_server
check "a mistyped command gets the name meant: exit 64" expect_failure 64 "$BIN/fresh" itmes
grep -q "did you mean 'items'?" "$WORK/error.txt" || { FAILED=$((FAILED + 1)); echo "FAIL  … and the line names items"; }
check "a mistyped option gets the name meant: exit 64" expect_failure 64 "$BIN/fresh" get --hedaer 'X: y' http://127.0.0.1:9/
grep -q "did you mean '--header'?" "$WORK/error.txt" || { FAILED=$((FAILED + 1)); echo "FAIL  … and the line names --header"; }
check "an unset \${VAR} in a plain URL's -H is refused (exit 64), never sent" \
    expect_failure 64 env -u FRESH_E2E_UNSET "$BIN/fresh" get -H 'Authorization: Bearer ${FRESH_E2E_UNSET}' http://127.0.0.1:9/

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
