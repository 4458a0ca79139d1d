// DedicatedThreads: why this module exists.
//
// Threads of Fresh's own, which exist only for speed. A first reading can skip this module:
// with none of it, every piece of work would run on Swift's cooperative pool and every
// transfer on a dispatch queue's thread, and the programs would do the same things, slower.
//
// Swift's pool has one thread per core and must never block. Three kinds of work here block
// or compete for a core, and each got a thread of its own once a measurement showed the pool
// paying for it (times from `make bench-sync`: a cold sync of 1,000 pages of 100 items from
// fresh-mock on loopback, 2 cores shared with the server; docs/performance.md):
//
// - ``TransferLoop``: the chain of page requests of a sync. Handing each request to a
//   transfer thread and back cost two thread switches a page, 20–60 µs each on a busy
//   machine: a thread that runs the chain and makes its transfers itself took the cold sync
//   from 0.70 s to 0.58–0.62 s. Reading a page while the next one's request is on the wire,
//   on that same thread, took it from 0.439 s to 0.401 s; reading it on a second thread
//   instead gained 3 %, because on two cores it took the core the server needed.
// - ``BackgroundThread`` at a lowered priority: the mirror's writer. `perf sched` showed the
//   thread receiving the next page waiting 1.5–3 ms for a core while the writer held one in
//   the middle of a batch; below the process's priority (and yielding between pages), the
//   writer gives the core back: 0.57 s to 0.49–0.50 s.
// - ``BackgroundThread`` at `SCHED_IDLE`: the mirror's background checkpoints, which copy
//   megabytes and wait for the disk twice; they take only a core nobody else wants.
//
// ``JobThread`` is the thread all three are built on.
