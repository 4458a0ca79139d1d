// RawSQLite: the places that talk to SQLite's C API directly, beside GRDB (how Storage otherwise
// uses SQLite). A first reading can skip this folder: each file is a named speed-up on a hot path,
// where GRDB's layer cost more than SQLite's own work, and says what it saves. CacheConnection's
// lookups go through GRDB with `FRESH_SPEEDUPS=-raw-cache-lookups`.
