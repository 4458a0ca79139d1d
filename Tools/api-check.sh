#!/usr/bin/env bash
# Checks that fresh-mock's /openapi.json and the running server agree:
#   1. the document validates as OpenAPI 3.1 (openapi-spec-validator), and
#   2. schemathesis (property-based: generated valid and invalid requests, response schemas,
#      status codes, headers, stateful sequences) finds nothing against a live server,
# once for the seeded data and once for --data docs/examples/db.json.
# Both tools are installed from PyPI into a virtualenv under .build/ (pinned versions).
#
# Usage: Tools/api-check.sh [BIN_DIR]      (or: make api-check; BIN_DIR defaults to .build/debug)
# Environment (optional):
#   API_CHECK_EXAMPLES=50   test cases per operation and phase (schemathesis --max-examples)
#   API_CHECK_SEED=1        seed of the generated requests, so a run repeats
# PUT /_admin/faults injects the failures (5xx, cut bodies) it exists for, so it is checked on a
# server of its own, alone (the admin routes themselves are never faulted).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(cd "${1:-$ROOT/.build/debug}" && pwd)
EXAMPLES=${API_CHECK_EXAMPLES:-50}
SEED=${API_CHECK_SEED:-1}
PYTHON=${PYTHON:-python3}
VENV=$ROOT/.build/api-check-venv
SCHEMATHESIS_VERSION=4.32.5
VALIDATOR_VERSION=0.9.0
[[ $EXAMPLES =~ ^[1-9][0-9]*$ && $SEED =~ ^[0-9]+$ ]] \
    || { echo "api-check: API_CHECK_EXAMPLES and API_CHECK_SEED must be whole numbers" >&2; exit 64; }
[ -x "$BIN/fresh-mock" ] || { echo "api-check: $BIN/fresh-mock is missing (swift build first)" >&2; exit 1; }

# --- tools ------------------------------------------------------------------------------------
if ! "$VENV/bin/python" - "$SCHEMATHESIS_VERSION" "$VALIDATOR_VERSION" 2>/dev/null <<'PY'
import sys
from importlib.metadata import version
sys.exit(version("schemathesis") != sys.argv[1] or version("openapi-spec-validator") != sys.argv[2])
PY
then
    echo "api-check: installing schemathesis $SCHEMATHESIS_VERSION and openapi-spec-validator $VALIDATOR_VERSION into $VENV" >&2
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
        "schemathesis==$SCHEMATHESIS_VERSION" "openapi-spec-validator==$VALIDATOR_VERSION"
fi

# --- servers ----------------------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fresh-api-check.XXXXXX")
SERVER_PID=""
source "$ROOT/Tools/lib/mock-server.sh"
trap 'stop_server || true; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

FAILED=0
check() { # check NAME OPERATIONS [fresh-mock flags...]   (OPERATIONS: --include-… or --exclude-… of schemathesis)
    local name=$1 operations=$2 started; shift 2
    started=$(date +%s)
    start_server --quiet "$@"
    echo "==> $name: $BIN/fresh-mock --port 0 --quiet $* ($BASE_URL)"
    curl -sS --max-time 10 -o "$WORK/openapi.json" "$BASE_URL/openapi.json"
    if "$VENV/bin/openapi-spec-validator" --schema 3.1 "$WORK/openapi.json"; then
        echo "    /openapi.json is valid OpenAPI 3.1"
    else
        FAILED=1
    fi
    # From the work directory, so the example database schemathesis keeps stays out of the tree.
    if (cd "$WORK" && timeout 1800 "$VENV/bin/st" run "$BASE_URL/openapi.json" --url "$BASE_URL" \
            --checks all --max-examples "$EXAMPLES" --seed "$SEED" --generation-database none \
            $operations --workers 1 --no-color >"$WORK/st-$name.txt" 2>&1); then
        grep -E "^(API Operations|  Selected|  Tested|Test cases|  [0-9]+ generated|=+ No issues)" "$WORK/st-$name.txt" | sed 's/^/    /'
    else
        FAILED=1
        cat "$WORK/st-$name.txt"
    fi
    stop_server
    echo "    $name: $(( $(date +%s) - started )) s"
}

check seeded "--exclude-operation-id put__admin_faults"
check data "--exclude-operation-id put__admin_faults --exclude-operation-id get_books --exclude-operation-id get_tags" --data "$ROOT/docs/examples/db.json"
# GET /NAME of a --data collection takes its style's parameters or json-server's, not both at once,
# which OpenAPI cannot state: a request with both is refused (400, naming one), so every check
# runs there but the one that wants each schema-valid request accepted.
check data-collections "--include-operation-id get_books --include-operation-id get_tags --exclude-checks positive_data_acceptance" \
    --data "$ROOT/docs/examples/db.json"
check faults "--include-operation-id put__admin_faults"

if [ "$FAILED" = 0 ]; then echo "api-check: passed (document valid; schemathesis found nothing)"; else echo "api-check: FAILED" >&2; fi
exit "$FAILED"
