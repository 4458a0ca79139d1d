#!/usr/bin/env bash
# End-to-end test: the three programs against each other over loopback, each check printed,
# `N passed, N failed` as the last line, non-zero exit on any failure.
# Usage: Tools/e2e.sh BIN_DIR   (BIN_DIR holds fresh, fresh-postgresql, fresh-reader, fresh-mock)
#
# Its two halves run side by side (Tools/e2e/first-half.sh and second-half.sh), each in a scratch
# directory and with servers, a PostgreSQL cluster and a tmux socket of its own: most of their
# time is spent waiting for the processes they start (one after the other they took 118 s). The
# first half prints as it goes; the second's output follows once both are done.
set -uo pipefail

HALVES=$(dirname "$0")/e2e
BIN=${1:-.build/debug}
OUTPUT=$(mktemp -d "${TMPDIR:-/tmp}/fresh-e2e-output.XXXXXX")
trap 'rm -rf "$OUTPUT"' EXIT

# Each half runs in a session of its own (setsid), so that stopping it reaches every process it
# started: on Ctrl-C or TERM, each half's group is told to stop (a half stops its servers and
# removes its directory on the way out), and is waited for.
setsid "$HALVES/first-half.sh" "$BIN" >"$OUTPUT/first" 2>&1 &
FIRST=$!
setsid "$HALVES/second-half.sh" "$BIN" >"$OUTPUT/second" 2>&1 &
SECOND=$!
tail -n +1 -f --pid="$FIRST" "$OUTPUT/first" | sed -u '$d' &   # as it goes; its count is summed below
SHOWN=$!
stop_halves() { kill -TERM -- -"$FIRST" -"$SECOND" 2>/dev/null; wait; exit 130; }
trap stop_halves INT TERM
wait "$FIRST" "$SECOND" "$SHOWN"
sed '$d' "$OUTPUT/second"

# Each half's last line is its count; a half that ended without one failed as a whole.
passed=0 failed=0
for half in first second; do
    if [[ $(tail -n 1 "$OUTPUT/$half") =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
    else
        tail -n 1 "$OUTPUT/$half"
        echo "FAIL  the $half half ended without its count"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
