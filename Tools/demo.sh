#!/usr/bin/env bash
# The demo: fresh-mock on a free port, a sync into a demo database, a second sync that costs
# nothing, then fresh-reader (q quits). Everything stops when the reader exits.
# Usage: Tools/demo.sh BIN_DIR
set -euo pipefail

BIN=$(cd "${1:-.build/debug}" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fresh-demo.XXXXXX")
DATA=${FRESH_DEMO_DIR:-$WORK/data}
source "$(dirname "$0")/lib/mock-server.sh"
trap 'stop_server; rm -rf "$WORK"' EXIT

start_server --max-age 30 --posts 120
echo "fresh-mock is serving $BASE_URL (seeded posts in Korean and English)"
echo
echo "\$ fresh sync $BASE_URL/posts --limit 20 -v"
"$BIN/fresh" sync "$BASE_URL/posts" --limit 20 -v --db-dir "$DATA"
echo
echo "\$ fresh sync $BASE_URL/posts --limit 20     # again: every page is still fresh"
"$BIN/fresh" sync "$BASE_URL/posts" --limit 20 --db-dir "$DATA"
echo
echo "\$ fresh explain $BASE_URL/posts?limit=20"
"$BIN/fresh" explain "$BASE_URL/posts?limit=20" --db-dir "$DATA"
echo
if [ -t 0 ] && [ -t 1 ]; then
    echo "Starting fresh-reader: j/k or arrows move, Enter opens, r refreshes, q quits."
    read -r -t 3 -p "(press Enter, or wait 3 s) " _ || true
    "$BIN/fresh-reader" --db-dir "$DATA" --url "$BASE_URL/posts?limit=20"
else
    echo "(no terminal: skipping fresh-reader; run 'make demo' in a terminal to browse)"
fi
