#!/usr/bin/env bash
# The end-to-end test's first half (sections 1–5: sync, cache, crashes and damage, the server stopped, bad input, fresh get).
# Usage: Tools/e2e/first-half.sh BIN_DIR; Tools/e2e.sh runs both halves side by side.
source "$(dirname "$0")/../lib/e2e-prelude.sh"

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
    echo "      exit $SYNC_STATUS, resumed at page $RESUMED, $REVISITED pages revalidated from the first"
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
listed_over_damage() { # one page of items scribbled over: fresh collections lists the collections, '?' for what it cannot count
    local db=$WORK/item-damage-db
    "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$db" -q || return 1
    python3 - "$db/data.sqlite" <<'PY' || return 1
import random, sqlite3, sys
path = sys.argv[1]
with sqlite3.connect(path) as db:
    size = db.execute("PRAGMA page_size").fetchone()[0]
    leaves = [number for (number,) in db.execute("SELECT pageno FROM dbstat WHERE name = 'item' AND pagetype = 'leaf' ORDER BY pageno")]
with open(path, "r+b") as file:
    file.seek((leaves[len(leaves) // 2] - 1) * size)
    file.write(random.Random(29).randbytes(size))
PY
    "$BIN/fresh" collections --db-dir "$db" >"$WORK/listed.out" 2>"$WORK/listed.err"
    local status=$?
    echo "      exit $status: $(head -c 120 "$WORK/listed.err")"
    sed 's/^/      /' "$WORK/listed.out"
    [ "$status" -eq 6 ] && [ "$(wc -l <"$WORK/listed.err")" -eq 1 ] && grep -q "is damaged" "$WORK/listed.err" \
        && grep -Eq '^posts +\? +\? ' "$WORK/listed.out"
}
check "a page of items scribbled over: fresh collections still lists the collection ('?' for its counts), then one line, exit 6" \
    listed_over_damage
marked_read() { # a file an earlier run marked damaged, in pages reading does not touch: items and collections show all, then say so
    local db=$WORK/marked-db
    "$BIN/fresh" sync "$BASE_URL/posts?limit=20" --db-dir "$db" -q || return 1
    echo "2026-01-01T00:00:00Z quick_check: page 9: btreeInitPage() returns error code 11" >"$db/data.sqlite.damaged"
    "$BIN/fresh" items posts --db-dir "$db" --format jsonl >"$WORK/marked.out" 2>"$WORK/marked.err"
    local status=$? items
    items=$(wc -l <"$WORK/marked.out")
    echo "      items: exit $status, $items items, $(head -c 100 "$WORK/marked.err")"
    [ "$status" -eq 6 ] && [ "$items" -gt 0 ] && [ "$(wc -l <"$WORK/marked.err")" -eq 1 ] \
        && grep -q "found damaged before" "$WORK/marked.err" || return 1
    "$BIN/fresh" collections --db-dir "$db" >"$WORK/marked.out" 2>"$WORK/marked.err"
    status=$?
    echo "      collections: exit $status"
    [ "$status" -eq 6 ] && grep -Eq "^posts +$items " "$WORK/marked.out" && [ "$(wc -l <"$WORK/marked.err")" -eq 1 ]
}
check "a file marked damaged: fresh items and collections show what they read, then one line, exit 6" marked_read
miscount_found() { # a sound file whose kept item count was changed behind the mirror's back
    local db=$WORK/miscounted-db
    "$BIN/fresh" sync "$BASE_URL/posts?limit=50" --db-dir "$db" -q || return 1
    python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("UPDATE itemCount SET count = count + 5"); c.commit()' \
        "$db/data.sqlite" || return 1
    "$BIN/fresh" check --db-dir "$db" >"$WORK/miscount.out" 2>"$WORK/miscount.err"
    local status=$?
    echo "      fresh check: exit $status: $(cat "$WORK/miscount.err")"
    [ "$status" -eq 6 ] && one_line "$WORK/miscount.err" && [ ! -s "$WORK/miscount.out" ] &&
        grep -q "its item count kept at the last pass's end is 405, but 400 items are stored" "$WORK/miscount.err" || return 1
    "$BIN/fresh" check --recover --db-dir "$db" >/dev/null 2>"$WORK/miscount-recover.err"   # the problem, then why nothing was saved
    [ $? -eq 6 ] && grep -q "is not damaged: --recover saves a damaged file, and saved nothing" "$WORK/miscount-recover.err" || return 1
    # The count is taken again at the end of the first sync that changes the collection.
    curl -sf -X PATCH "$BASE_URL/posts/3" -H 'Content-Type: application/json' -d '{"title": "counted again"}' >/dev/null &&
        "$BIN/fresh" sync "$BASE_URL/posts?limit=50" --db-dir "$db" -q && "$BIN/fresh" check --db-dir "$db" | grep -q 'no damage found'
}
check "a kept item count that is not the items stored: fresh check exits 6 naming it (no --recover hint: the file is sound); a sync that changes the collection counts again" \
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
check "the stopped server's port is held: nothing answers there while it stands for a server that is down" hold_port "$DEAD_URL"

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

tmux_session "LANG=C.UTF-8 '$BIN/fresh-reader' --db-dir '$WORK/stale-db'"
check "fresh-reader shows the first post's title offline" wait_for_screen "$FIRST_TITLE"
check "… and an offline status" wait_for_screen "offline"
tmux send-keys -t "$TMUX_SESSION" q
check "… and q exits 0" reader_exited_zero

# --- 4. bad input: one line on stderr, documented exit status --------------------------------
check "unreachable server (no retries: each wait is a line of its own): exit 3" \
    expect_failure 3 "$BIN/fresh" sync "$DEAD_URL/posts" --retries 0 --db-dir "$WORK/bad-db"
check "malformed URL: exit 64" expect_failure 64 "$BIN/fresh" get "not a url" --db-dir "$WORK/bad-db"
check "a --data @file that cannot be read: exit 6, before any request" \
    expect_failure 6 "$BIN/fresh" get -d @"$WORK/no-such-body.json" "$DEAD_URL/posts" --db-dir "$WORK/bad-db"
touch "$WORK/a-file"
check "unwritable data directory: exit 6" expect_failure 6 "$BIN/fresh" sync "$DEAD_URL/posts" --db-dir "$WORK/a-file/db"
release_port   # the last use of DEAD_URL
mkdir -p "$WORK/static"
echo '{"data": [ this is not json' >"$WORK/static/posts"
start_static_server "$WORK/static"
reading_creates_nothing() { # reading commands on a --db-dir that holds no mirror (a typo): an empty answer, no file made
    local typo=$WORK/no-such-dir/db
    "$BIN/fresh" collections --db-dir "$typo" 2>"$WORK/typo.err" && grep -q "no collections yet" "$WORK/typo.err" || return 1
    [ "$("$BIN/fresh" collections --json --db-dir "$typo")" = "[]" ] || return 1
    expect_failure 64 "$BIN/fresh" items posts --db-dir "$typo" || return 1
    [ ! -e "$WORK/no-such-dir" ] || { echo "      $WORK/no-such-dir was created"; return 1; }
}
check "reading a --db-dir that holds no mirror: collections says none, items exits 64, and nothing is created" reading_creates_nothing
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
        "$BIN/fresh" get -L "$url" --db-dir "$WORK/redirect-db" | python3 -c 'import json,sys; sys.exit(len(json.load(sys.stdin)["results"]) != 1)' || return 1
    # -i -L shows every response's head, the redirect's first, as curl -i -L does.
    # (Their codes: a head answered from storage is said in the cache's HTTP/1.1.)
    "$BIN/fresh" get -iL "$url" --db-dir "$WORK/redirect-db" | tr -d '\r' | awk '/^HTTP\//{print $2}' >"$WORK/redirect-heads.out"
    echo "      -i -L: $(tr '\n' ' ' <"$WORK/redirect-heads.out")"
    diff "$WORK/redirect-heads.out" <(curl -siL "$url" | tr -d '\r' | awk '/^HTTP\//{print $2}')
}
check "without -L the 301 is the answer, with the server's own status line; with -L it is followed; -i -L shows each head, as curl" \
    redirects_need_location
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
fail_with_body_writes_it() { # --fail-with-body on a 4xx: the API's error body is written, exit 4
    "$BIN/fresh" get --fail-with-body -o "$WORK/error.json" "$BASE_URL/api/private/posts/" --db-dir "$WORK/fail-db" 2>"$WORK/fail.err"
    local status=$?
    echo "      exit $status: $(cat "$WORK/fail.err"); body: $(head -c 80 "$WORK/error.json")"
    [ "$status" -eq 4 ] && grep -q "{" "$WORK/error.json" && grep -q -- "--fail-with-body" "$WORK/fail.err"
}
check "--fail-with-body on a 4xx writes the body and exits 4, as curl" fail_with_body_writes_it
check "a URL refused on the command line shows its password as *** (exit 64)" bash -c '
    err=$("$0" get "http://me:pwSECRET@127.0.0.1:99999/x" 2>&1 >/dev/null); status=$?; echo "      exit $status: $err"
    [ "$status" -eq 64 ] && printf "%s" "$err" | grep -q "me:\*\*\*@" && ! printf "%s" "$err" | grep -q pwSECRET' "$BIN/fresh"
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
full_stdout() { # a stdout that cannot be written (a full disk): one line and exit 6 from each command that prints, no crash
    local args
    for args in "get $BASE_URL/posts/1" "get -i $BASE_URL/posts/1" "explain $BASE_URL/posts/1" "cache ls" "collections --json"; do
        # shellcheck disable=SC2086 # each entry is a command line
        "$BIN/fresh" $args --db-dir "$WORK/full-db" >/dev/full 2>"$WORK/full.err"
        local status=$?
        [ $status -eq 6 ] && one_line "$WORK/full.err" && grep -q "^fresh: cannot write to standard output: " "$WORK/full.err" ||
            { echo "      fresh $args: exit $status: $(head -c 300 "$WORK/full.err")"; return 1; }
    done
}
check "stdout on a full disk (/dev/full): one line and exit 6 for get, get -i, explain, cache ls, collections --json" full_stdout
check "Cache-Control: only-if-cached with nothing stored: one line and exit 7, as --offline" \
    expect_failure 7 "$BIN/fresh" get -H 'Cache-Control: only-if-cached' "$BASE_URL/posts/98" --db-dir "$WORK/only-if-cached-db"
check "-d twice: refused with one line (exit 64), where a second body would be lost" \
    expect_failure 64 "$BIN/fresh" get -d a=1 -d b=2 "$BASE_URL/posts" --db-dir "$WORK/only-if-cached-db"
raw_body_reads_no_file() { # --data-raw sends '@name' as it is (curl's); --data @file reads the file
    echo '{"title":"from a file","body":"b","author":"a"}' >"$WORK/body.json"
    "$BIN/fresh" get -X POST --data-raw '{"title":"@body.json","body":"b","author":"a"}' "$BASE_URL/posts" --db-dir "$WORK/raw-db" |
        grep -q '"title":"@body.json"' &&
        "$BIN/fresh" get --data "@$WORK/body.json" "$BASE_URL/posts" --db-dir "$WORK/raw-db" | grep -q '"title":"from a file"'
}
check "--data-raw sends its text as it is, @ included; --data @file sends the file" raw_body_reads_no_file
check "an unknown short option is named as such (exit 64), not taken for the URL" \
    expect_failure 64 "$BIN/fresh" get -w '%{http_code}' "$BASE_URL/posts" --db-dir "$WORK/raw-db"
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
    # `help` of a command there is not, as git says it: one line and 64, not the whole help and 0.
    "$BIN/fresh" help itmes >/dev/null 2>"$WORK/help.err"
    [ $? -eq 64 ] && [ "$(cat "$WORK/help.err")" = "fresh: 'itmes' is not a command (did you mean 'items'?) (see 'fresh --help')" ] || { cat "$WORK/help.err"; return 1; }
    "$BIN/fresh" help items | grep -q "^USAGE: fresh items"
}
check "fresh, fresh-reader and fresh-mock: --version, and one line 'NAME: …' for a bad flag or 'help' of no command (exit 64)" one_line_errors

e2e_summary
