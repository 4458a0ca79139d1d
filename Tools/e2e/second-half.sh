#!/usr/bin/env bash
# The end-to-end test's second half (sections 6–10: the reader in tmux, sources and make install, PostgreSQL, what real APIs do, replay).
# Usage: Tools/e2e/second-half.sh BIN_DIR; Tools/e2e.sh runs both halves side by side.
source "$(dirname "$0")/../lib/e2e-prelude.sh"

# --- 6. fresh-reader in tmux: collections, search, live updates, prefetch ----------------------

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
deletion_looked_at_twice() { # pages named by number shift after a deletion: read again (304s) before the post is removed
    sync_json "$WORK/shift-db" "$BASE_URL/styles/page-404/posts?per_page=20" >/dev/null
    local before=$ITEMS pages=$PAGES
    curl -s -o /dev/null -X DELETE "$BASE_URL/posts/5"
    sync_json "$WORK/shift-db" "$BASE_URL/styles/page-404/posts?per_page=20" >/dev/null
    echo "      $before items, then $ITEMS; $REVISITED pages read again, $NOT_MODIFIED × 304"
    [ "$SYNC_STATUS" -eq 0 ] && [ "$ITEMS" -eq $((before - 1)) ] && [ "$REVISITED" -eq "$pages" ] && [ "$NOT_MODIFIED" -eq "$pages" ] \
        && [ "$("$BIN/fresh" items posts --db-dir "$WORK/shift-db" | grep -c '"id":5,')" -eq 0 ] || return 1
    curl -s -o /dev/null -X DELETE "$BASE_URL/posts/6"
    "$BIN/fresh" sync posts --db-dir "$WORK/shift-db" >"$WORK/shift.out" 2>>"$WORK/fresh.err"
    grep -q "(0 new, 0 changed, 1 removed).*; $pages pages read again to confirm what no page listed$" "$WORK/shift.out"
}
check "a deletion in a page-numbered listing: its pages read again (all 304s) before the post is removed, exit 0" deletion_looked_at_twice
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
check "a --db-dir that does not exist: exit 64, and nothing made there" \
    bash -c "'$BIN/fresh-reader' --db-dir '$WORK/no-such-db' 2>'$WORK/typo.err'; [ \$? -eq 64 ] && grep -q 'no such directory' '$WORK/typo.err' && [ ! -e '$WORK/no-such-db' ]"
check "fresh-reader --help lists the keys of the keymap" bash -c "'$BIN/fresh-reader' --help | grep -q 'Ctrl-D'"
# timeout without --foreground runs it in a process group of its own: no key could be read.
check "fresh-reader outside the terminal's foreground says so, exit 2 (it ended at the first key, status 0)" \
    bash -c "script -qec \"timeout 20 '$BIN/fresh-reader' --db-dir '$WORK/reader-db'; exit \\\$?\" /dev/null >'$WORK/background.out'; [ \$? -eq 2 ] && grep -q 'foreground' '$WORK/background.out'"

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
watch_outlives_a_half_saved_sources_file() { # --all --watch reads sources.toml each round: a broken one is said once, the watch goes on
    cp "$FRESH_CONFIG_DIR/sources.toml" "$WORK/sources.good"
    "$BIN/fresh" sync --all --watch 1s --db-dir "$SOURCES_DB" >"$WORK/watch-all.out" 2>"$WORK/watch-all.err" &
    local pid=$! said alive status
    # Without the token, each round says the source's error once: the first round is over.
    wait_for_line "$WORK/watch-all.err" "private:" && printf '[[source\nname = "half' >>"$FRESH_CONFIG_DIR/sources.toml" &&
        wait_for_line "$WORK/watch-all.err" "watching the sources as they last read"
    said=$?
    cp "$WORK/sources.good" "$FRESH_CONFIG_DIR/sources.toml"
    kill -0 "$pid" 2>/dev/null; alive=$?
    kill -INT "$pid" 2>/dev/null; wait "$pid"; status=$?
    sed 's/^/      /' "$WORK/watch-all.err" | cut -c1-150
    [ "$said" -eq 0 ] && [ "$alive" -eq 0 ] && [ "$status" -eq 130 ] && [ "$(grep -c 'as they last read' "$WORK/watch-all.err")" -eq 1 ]
}
check "fresh sync --all --watch: a sources.toml read half-saved is said once, and the watch goes on (Ctrl-C: 130)" \
    watch_outlives_a_half_saved_sources_file
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
second_source_takes_nothing() { # another source for the same listing leaves the first source's collection to it
    "$BIN/fresh" source add library2 "$BASE_URL/books?page=1&per_page=3" --db-dir "$WORK/books-db" >"$WORK/adopt2.out" 2>&1 || return 1
    local names; names=$("$BIN/fresh" collections --json --db-dir "$WORK/books-db" | python3 -c 'import json, sys; print(" ".join(c["name"] for c in json.load(sys.stdin)))')
    echo "      $(cat "$WORK/adopt2.out"); collections: $names"
    ! grep -q "takes over" "$WORK/adopt2.out" && [ "$names" = "library" ]
}
FRESH_CONFIG_DIR="$WORK/adopt-config" check "a second source for the same listing does not take the first source's collection" second_source_takes_nothing
stop_server

installed() { # make install into a scratch PREFIX (the debug build), used from there, then make uninstall
    # The programs are built (Tools/e2e.sh sets BUILT=yes: install does not build again); MAKEFLAGS
    # is emptied for an outer make's jobserver, whose descriptors are not ours.
    local prefix="$WORK/prefix"
    MAKEFLAGS= make -s -C "$TOOLS/.." install PREFIX="$prefix" INSTALL_CONFIGURATION="$(basename "$BIN")" >"$WORK/install.out" 2>&1 || {
        sed 's/^/      | /' "$WORK/install.out"; return 1; }
    grep -v '^note:' "$WORK/install.out" | tail -1 | sed 's/^/      /'
    # Long outputs are matched whole: `| grep -q` stops reading at a match, and the writer's
    # SIGPIPE then fails the pipe (pipefail).
    "$prefix/bin/fresh" --version | grep -q '^fresh ' && [[ $(readelf -S "$prefix/bin/fresh") != *.symtab* ]] &&
        [[ $(MANWIDTH=80 man -l "$prefix/share/man/man1/fresh-sync.1" 2>/dev/null) == *--allow-partial* ]] &&
        PATH="$prefix/bin:$PATH" bash -c "source '$prefix/share/bash-completion/completions/fresh'
            COMP_WORDS=(fresh items ''); COMP_CWORD=2; COMP_LINE='fresh items '; COMP_POINT=12; _fresh
            [[ \" \${COMPREPLY[*]} \" == *' private '* ]]" &&
        MAKEFLAGS= make -s -C "$TOOLS/.." uninstall PREFIX="$prefix" >/dev/null && [ -z "$(find "$prefix" -type f)" ]
}
check "make install PREFIX=…: fresh --version (stripped), man -l fresh-sync.1, completion of a source's name; make uninstall leaves no file" installed
sourced_cluster_script_returns() { # docs/scaling.md has users source it: a failure returns, never exits their shell
    local said; said=$(bash -c 'source "$1"; unset WORK; start_pg_cluster 2>/dev/null; echo "still here after status $?"' _ "$TOOLS/lib/pg-cluster.sh")
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
        [[ $(ldd "$BIN/fresh") != *libpq* && $(ldd "$BIN/fresh-postgresql") == *libpq* ]]   # whole: see installed()
}
check "fresh hands a PostgreSQL store to fresh-postgresql: without it, one line naming it, exit 6, before sync --all does anything" fresh_alone
stop_pg_cluster
check "the server stopped: a sync says so in one line, exit 6" \
    expect_failure 6 "$BIN/fresh" sync "http://127.0.0.1:9/posts" --store "$STORE" --db-dir "$WORK/machine-a"

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

python3 -c 'import json; print(json.dumps({"notes": [{"id": i, "text": "note %d" % i} for i in range(1, 10)]}))' >"$WORK/notes.json"
start_server --data "$WORK/notes.json" --max-age 0 --quiet
stopped_refresh() { # two notes added at the front, then every page after the first fails: nothing held is hidden
    local db="$WORK/stopped-db" url="$BASE_URL/notes?_sort=-id&_page=1&_limit=3" rc shown settled
    ids() { "$BIN/fresh" items notes --db-dir "$db" | python3 -c 'import sys, json; print(" ".join(str(json.loads(l)["id"]) for l in sys.stdin))'; }
    "$BIN/fresh" sync "$url" --name notes --db-dir "$db" >/dev/null 2>&1 || return 1
    for text in ten eleven; do
        curl -s -X POST "$BASE_URL/notes" -H 'Content-Type: application/json' -d "{\"text\": \"$text\"}" >/dev/null
    done
    curl -s -X PUT "$BASE_URL/_admin/faults" -H 'Content-Type: application/json' \
        -d '{"rules": [{"route": "/notes", "failure": "status", "status": 500, "after": 1}]}' >/dev/null
    # One request at a time: the one the server lets through is the first page's (before, 8 and 7 were hidden).
    "$BIN/fresh" sync "$url" --db-dir "$db" --retries 0 --parallel 1 >/dev/null 2>"$WORK/stopped.err"; rc=$?
    shown=$(ids)
    curl -s -X DELETE "$BASE_URL/_admin/faults" >/dev/null
    "$BIN/fresh" sync "$url" --db-dir "$db" >/dev/null 2>&1 || return 1
    settled=$(ids)
    echo "      exit $rc: $(tail -1 "$WORK/stopped.err")"
    echo "      shown after it: $shown; after a clean sync: $settled"
    [ "$rc" -eq 4 ] && [ "$shown" = "11 10 9 8 7 6 5 4 3 2 1" ] && [ "$settled" = "$shown" ] &&
        grep -q "the next sync starts the pass over" "$WORK/stopped.err"
}
check "a refresh that stops after its first page: every item held is still shown (exit 4), and the next sync starts over" stopped_refresh
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
input_file_stops() { # a URL that fails stops the list: which line, how many URLs were left, then the error
    printf '%s\n' "$ORIGIN/posts?limit=50" "# the next one fails" "$ORIGIN/no-such-listing" "$ORIGIN/users" >"$WORK/urls.txt"
    local status=0
    "$BIN/fresh" sync --input-file "$WORK/urls.txt" --db-dir "$WORK/input-db" -q 2>"$WORK/input.err" || status=$?
    echo "      exit $status: $(head -n 1 "$WORK/input.err")"
    [ "$status" -ne 0 ] && [ "$(wc -l <"$WORK/input.err")" -eq 2 ] && grep -q '^fresh: server answered 404 for .*/no-such-listing' "$WORK/input.err" \
        && [ "$(head -n 1 "$WORK/input.err")" = "fresh: --input-file stopped at line 3: 1 URL after it not synced" ] \
        && [ "$("$BIN/fresh" collections --db-dir "$WORK/input-db" --json | python3 -c 'import json, sys; print(sorted(c["name"] for c in json.load(sys.stdin)))')" = "['posts']" ]
}
check "fresh sync --input-file: a URL that fails stops the list, and says which line and how many URLs it left" input_file_stops
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

e2e_summary
