// DedicatedThreads: threads of Fresh's own, which exist for speed. A first reading can skip
// this module: without it, work would run on Swift's cooperative pool and transfers on a dispatch
// queue's thread, and the programs would do the same things, slower. (One use is not for speed:
// each PostgreSQL connection is a ``JobThread``'s, as libpq's calls block and the pool must not.)
//
// Swift's pool has one thread per core and must never block. Each thread here got its own once a
// measurement showed the pool paying for it (`make bench-sync`: a cold sync of 1,000 pages of 100
// items from fresh-mock on loopback, 2 cores shared with the server; docs/performance.md):
//
// - ``TransferLoop``: the chain of page requests of a sync. Two thread switches a page (20–60 µs
//   each) to hand each request to a transfer thread and back: making the transfers on the chain's
//   thread took the cold sync from 0.70 s to 0.58–0.62 s. Reading a page there while the next
//   request is on the wire: 0.439 s to 0.401 s (on a second thread, 3 %: it took the server's core).
// - ``BackgroundThread`` at a lowered priority: the mirror's writer. `perf sched` showed the
//   thread receiving the next page waiting 1.5–3 ms for a core while the writer held one mid-batch;
//   below the process's priority (and yielding between pages): 0.57 s to 0.49–0.50 s.
// - ``BackgroundThread`` at the same lowered priority: the mirror's background checkpoints, which
//   copy megabytes and wait for the disk twice. (At `SCHED_IDLE`, which takes only a core nobody
//   else wants, they hardly ran during a sync, and the writer's own checkpoints waited instead.)
