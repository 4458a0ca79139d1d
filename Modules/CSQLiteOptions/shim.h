// SQLite connection options that are set through sqlite3_db_config, a variadic C function
// Swift cannot call.
#include <sqlite3.h>

/// Closing `db` leaves its WAL as it is: no checkpoint, no fsync, no deletion of the -wal file.
/// Returns SQLITE_OK or an error code.
static inline int fresh_sqlite3_keep_wal_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
