# Sourced by each half of the end-to-end test (Tools/e2e.sh runs both side by side): the
# programs in BIN_DIR (its first argument), a scratch directory, the servers it starts stopped and
# the directory removed at exit, and the helpers both halves use. Each half has its own.
set -uo pipefail

BIN=$(cd "${1:-.build/debug}" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fresh-e2e.XXXXXX")
TMUX_SESSION="fresh-e2e-$$"
SERVER_PID=""
REPLAY_PID=""
PASSED=0
FAILED=0

TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$TOOLS/lib/mock-server.sh"
source "$TOOLS/lib/pg-cluster.sh"

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
    release_port
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

# A stopped server's address stays dead while it is held: its port bound and never listened on,
# so a connection is refused, and no server another test starts meanwhile (port 0) is given it.
HELD_PORT_PID=""
hold_port() { # hold_port URL: holds URL's port until release_port
    local port=${1##*:}
    rm -f "$WORK/held-port"
    python3 -c 'import signal, socket, sys
held = socket.socket()
held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past the TIME_WAIT connections of the stopped server
held.bind(("127.0.0.1", int(sys.argv[1])))
open(sys.argv[2], "w").write("held")
signal.pause()' "${port%%/*}" "$WORK/held-port" &
    HELD_PORT_PID=$!
    wait_until test -s "$WORK/held-port"
}
release_port() { [ -n "$HELD_PORT_PID" ] && kill "$HELD_PORT_PID" 2>/dev/null && wait "$HELD_PORT_PID" 2>/dev/null; HELD_PORT_PID=""; }

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

# The mock server's fault rules and the answers it counted.
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

# fresh-reader in tmux.
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
reader_exited_zero() { # poll for the exit status the tmux command writes (≤ 10 s)
    for _ in $(seq 100); do
        [ -s "$WORK/reader.exit" ] && { [ "$(cat "$WORK/reader.exit")" = 0 ]; return; }
        sleep 0.1
    done
    return 1
}
reader_still_running() { [ ! -e "$WORK/reader.exit" ] && tmux has-session -t "$TMUX_SESSION" 2>/dev/null; }
reader_in_tmux() { tmux_session "LANG=C.UTF-8 '$BIN/fresh-reader' $*"; } # reader_in_tmux ARGS...: a fresh reader
keys() { tmux send-keys -t "$TMUX_SESSION" "$@"; }

e2e_summary() { # the last line: the half's counts; its exit status: 0 when nothing failed
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ]
}
