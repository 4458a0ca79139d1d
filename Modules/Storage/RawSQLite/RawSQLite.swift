// RawSQLite: the places that talk to SQLite's C API directly, beside GRDB.
//
// GRDB is how Storage uses SQLite: its queues and pools, migrations, records and typed
// statements. A first reading can skip this folder; each file here is a named speed-up on a hot
// path, where GRDB's layer cost more than SQLite's own work:
//
// CacheConnection (the cache's lookups and bookkeeping; `FRESH_SPEEDUPS=-raw-cache-lookups`
// reads through GRDB instead), RawStatement, BlobReader and ItemUpsert: each file says what it
// saves. GRDB's queue still opens for every store and for maintenance.
