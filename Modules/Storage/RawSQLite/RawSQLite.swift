// RawSQLite: the places that talk to SQLite's C API directly, beside GRDB.
//
// GRDB is how Storage uses SQLite: its queues and pools, migrations, records and typed
// statements. A first reading can skip this folder; each file here is a named speed-up on a hot
// path, where GRDB's layer cost more than SQLite's own work:
//
// - CacheConnection: the HTTP cache's lookup (every `fresh get` hit, every page of a sync) and
//   its batched bookkeeping writes, on a connection of their own. Through GRDB, opening the file
//   (the queue's set-up, the migrator's check) and a lookup through the serialized queue cost
//   more than the rest of a hit: a cached `fresh get` went from 6.04 ms to 5.33 ms without them
//   (curl's GET of the same URL: 6.65 ms; docs/performance.md, "fresh get start-up").
//   GRDB's queue still opens for every store and for maintenance.
// - RawStatement: the prepared statements of that connection (the same SQL also runs inside a
//   GRDB transaction, on `Database.sqliteConnection`).
// - BlobReader: a large cached body read straight from SQLite's pages into one buffer, instead
//   of two allocations and two copies of the whole body per hit.
// - ItemUpsert: a mirror page's items, upserted by one prepared statement stepped a hundred
//   times, binding each item's JSON bytes where the parser sliced them (no copy, no
//   `DatabaseValue` per value).
