# A throwaway PostgreSQL cluster for the e2e and bench scripts (sourced, not run): initdb in a
# temporary directory, the server on a Unix socket there only (no TCP port), stopped by its PID.
# initdb refuses to run as root, so as root the cluster runs as Debian's `postgres` user.
# Needs WORK; sets PG_DIR, PG_PID and PG_URL (postgresql://fresh@<socket dir>/postgres).
# Sourced into an interactive shell too (docs/scaling.md): a failure returns non-zero and says
# why; nothing here ever exits the shell that sourced it.

pg_bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

as_cluster_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

start_pg_cluster() {
    local bin; bin=$(pg_bin_dir)
    [ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (run make setup)" >&2; return 1; }
    # In /tmp itself: the server's user must reach it, and a socket path has at most 107 bytes.
    [ -n "${WORK:-}" ] && [ -d "$WORK" ] || { echo "start_pg_cluster: set WORK to a directory for its logs first" >&2; return 1; }
    PG_DIR=$(mktemp -d /tmp/fresh-pg.XXXXXX) || return 1
    [ "$(id -u)" = 0 ] && chown postgres "$PG_DIR"
    chmod 700 "$PG_DIR"
    as_cluster_owner "$bin/initdb" -D "$PG_DIR/data" -A trust -U fresh --no-sync -E UTF8 >"$WORK/pg-initdb.log" 2>&1 \
        || { echo "initdb failed:" >&2; cat "$WORK/pg-initdb.log" >&2; rm -rf "$PG_DIR"; return 1; }
    # pg_ctl -w returns once the server accepts connections; the PID is postmaster.pid's first line.
    as_cluster_owner "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-k $PG_DIR -c listen_addresses= -c fsync=off -c full_page_writes=off" start >/dev/null \
        || { echo "the PostgreSQL server did not start:" >&2; cat "$PG_DIR/server.log" >&2; rm -rf "$PG_DIR"; return 1; }
    PG_PID=$(head -1 "$PG_DIR/data/postmaster.pid")
    PG_URL="postgresql://fresh@$(printf %s "$PG_DIR" | sed 's|/|%2F|g')/postgres"
}

pg_sql() { # pg_sql DATABASE SQL: one statement through psql, as the cluster's superuser
    "$(pg_bin_dir)/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR" -U fresh -d "$1" -Atc "$2"
}

stop_pg_cluster() {
    [ -n "${PG_PID:-}" ] || return 0
    kill -INT "$PG_PID" 2>/dev/null || true   # fast shutdown
    while kill -0 "$PG_PID" 2>/dev/null; do sleep 0.05; done
    rm -rf "$PG_DIR"
    PG_PID=
}
