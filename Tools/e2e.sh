#!/usr/bin/env bash
# End-to-end test: the three programs against each other over loopback, each check printed,
# `N passed, N failed` as the last line, non-zero exit on any failure.
# Usage: Tools/e2e.sh BIN_DIR   (BIN_DIR holds fresh, fresh-postgresql, fresh-reader, fresh-mock)
#
# Its two halves run side by side (Tools/e2e/first-half.sh and second-half.sh), each in a scratch
# directory and with servers and a tmux socket of its own (the second also starts a PostgreSQL
# cluster): most of their time is spent waiting for the processes they start (one after the
# other they took 118 s). The first half prints as it goes; the second's output follows once
# both are done.
set -uo pipefail

HALVES=$(dirname "$0")/e2e
BIN=${1:-.build/debug}
OUTPUT=$(mktemp -d "${TMPDIR:-/tmp}/fresh-e2e-output.XXXXXX")
: >"$OUTPUT/first"   # there before `tail -f` follows it
trap 'rm -rf "$OUTPUT"' EXIT
# BIN_DIR holds the programs built: `make install` inside the test installs them as they are
# (another `swift build` there would relink them while the other half runs them).
export BUILT=yes

# Each half runs in a session of its own (setsid), so that stopping it reaches every process it
# started: on Ctrl-C or TERM, each half's group is told to stop (a half stops its servers and
# removes its directory on the way out), and is waited for.
FIRST="" SECOND=""
stop_halves() { # stop_halves STATUS
    for half in $FIRST $SECOND; do kill -TERM -- -"$half" 2>/dev/null; done
    wait
    exit "$1"
}
trap 'stop_halves 130' INT
trap 'stop_halves 143' TERM
setsid "$HALVES/first-half.sh" "$BIN" >"$OUTPUT/first" 2>&1 &
FIRST=$!
setsid "$HALVES/second-half.sh" "$BIN" >"$OUTPUT/second" 2>&1 &
SECOND=$!
tail -n +1 -f --pid="$FIRST" "$OUTPUT/first" | sed -u '$d' &   # as it goes; its count is summed below
SHOWN=$!
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
