# Starting and stopping loopback servers for the e2e and demo scripts (sourced, not run).
# Needs BIN and WORK; sets BASE_URL and SERVER_PID.

start_server() { # start_server [fresh-mock flags...]: fresh-mock on a free port
    rm -f "$WORK/server.fifo"; mkfifo "$WORK/server.fifo"
    "$BIN/fresh-mock" --port 0 "$@" >"$WORK/server.fifo" 2>>"$WORK/server.log" &
    SERVER_PID=$!
    exec 3<"$WORK/server.fifo"
    if ! read -r -t 30 -u 3 BASE_URL; then
        echo "fresh-mock did not start; its log:" >&2; cat "$WORK/server.log" >&2
        exit 1
    fi
}

start_static_server() { # start_static_server DIR: python's http.server, an origin outside the project
    rm -f "$WORK/server.fifo"; mkfifo "$WORK/server.fifo"
    python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 >"$WORK/server.fifo" 2>>"$WORK/server.log" &
    SERVER_PID=$!
    exec 3<"$WORK/server.fifo"
    local line
    read -r -t 30 -u 3 line || { echo "http.server did not start" >&2; exit 1; }
    BASE_URL="http://127.0.0.1:$(sed -E 's/.* port ([0-9]+).*/\1/' <<<"$line")"
}

start_peer() { # start_peer SCRIPT [flags...]: an API of Tools/peers (drf_api.py, search_api.py…), ≤ 600 s
    local script=$1; shift
    rm -f "$WORK/server.fifo"; mkfifo "$WORK/server.fifo"
    python3 "$(dirname "${BASH_SOURCE[0]}")/../peers/$script" "$@" >"$WORK/server.fifo" 2>>"$WORK/server.log" &
    SERVER_PID=$!
    exec 3<"$WORK/server.fifo"
    read -r -t 60 -u 3 BASE_URL || { echo "$script did not start (run make setup); its log:" >&2; cat "$WORK/server.log" >&2; exit 1; }
}

start_raw_server() { # start_raw_server BYTES: answers every connection with BYTES, not HTTP (≤ 60 s)
    rm -f "$WORK/server.fifo"; mkfifo "$WORK/server.fifo"
    timeout 60 python3 -u -c '
import socket, sys
server = socket.create_server(("127.0.0.1", 0))
print(server.getsockname()[1])
while True:
    connection, _ = server.accept()
    connection.settimeout(5)
    connection.recv(65536)
    connection.sendall(sys.argv[1].encode())
    connection.shutdown(socket.SHUT_WR)
    try:
        while connection.recv(65536):
            pass
    except OSError:
        pass
    connection.close()
' "$1" >"$WORK/server.fifo" 2>>"$WORK/server.log" &
    SERVER_PID=$!
    exec 3<"$WORK/server.fifo"
    local port
    read -r -t 30 -u 3 port || { echo "the raw server did not start" >&2; exit 1; }
    BASE_URL="http://127.0.0.1:$port"
}

stop_server() {
    if [ -n "${SERVER_PID:-}" ]; then
        kill "$SERVER_PID" 2>/dev/null
        wait "$SERVER_PID" 2>/dev/null
        SERVER_PID=""
        exec 3<&-
    fi
}
