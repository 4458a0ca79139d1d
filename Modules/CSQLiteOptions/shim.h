// SQLite options that are set through sqlite3_config and sqlite3_db_config, variadic C
// functions Swift cannot call.
#include <sqlite3.h>

/// Closing `db` leaves its WAL as it is: no checkpoint, no fsync, no deletion of the -wal file.
/// Returns SQLITE_OK or an error code.
static inline int fresh_sqlite3_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// Stops SQLite from counting the memory it allocates (a global lock taken on every
/// allocation, which nothing here reads). Takes effect only before SQLite's first use in the
/// process; returns SQLITE_MISUSE after it, which changes nothing.
static inline int fresh_sqlite3_skip_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
