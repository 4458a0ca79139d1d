#!/usr/bin/env python3
"""fresh-reader on a pseudo-terminal (release builds): time to the first frame and resident memory
with 1,000 and 100,000 stored items, scrolling from the first to the last of 100,000, and `r` on
10,000 unchanged items beside `fresh sync` of the same pages in the same run.

    python3 Tools/bench/reader_bench.py --bin .build/release [--rounds 3] [--items 100000] [--write docs/performance.md]

(--items sets the large collection; the refreshed one holds a tenth of it.)

The reader runs under a pty of 40 × 120 cells (TERM=xterm-256color, LANG=C.UTF-8), as a user
would start it. Its output is read as it comes; a frame "is there" when the status line's position
(`1/100,000`) has been written. Times are wall clock from fork to that moment (process start,
database open, the first window read, ncurses start, the first draw). Memory is the process's
peak resident set (VmHWM from /proc) at that moment and after the scroll. The first-frame runs
are offline (server stopped): the refresh the reader starts at open fails at once, so no network
work overlaps the measurement. The refresh row and the `fresh sync` row are timed the same way, by one
clock and one end: from the harness's action (the `r` key written to the reader's terminal, or
`fresh sync` spawned) until `collection.lastSyncAt` in data.sqlite changes, which a sync writes as
it ends, polled every 2 ms (the reader's own open-time refresh has ended before `r`). So the sync
row includes the process's start, as a user running it pays it. Every page of both is a
conditional request answered 304 by fresh-mock (`--max-age 0`). The median over the rounds is judged.
"""
import argparse
import fcntl
import json
import os
import platform
import pty
import re
import select
import shutil
import signal
import sqlite3
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

from pg_cluster import Cluster
from performance_doc import replace_section

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--items", type=int, default=100_000, help="items of the large collection (the refreshed one has a tenth)")
parser.add_argument("--write", help="markdown file whose reader section is replaced")
parser.add_argument("--skip-postgresql", action="store_true", help="no first frame on a PostgreSQL mirror")
parser.add_argument("--sizes", default="1000000,10000000",
                    help="larger collections: first frame, memory, G, / and a screen's scroll at each (comma-separated; '' for none)")
args = parser.parse_args()

BIN = os.path.abspath(args.bin)
WORK = tempfile.mkdtemp(prefix="fresh-reader-bench-")
SECTION = "## fresh-reader (first frame, memory, scroll, refresh)"
ROWS, COLUMNS = 40, 120
PAGE_SIZE = 100
ESCAPES = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>78DEHM])")
servers = []


def log(text):
    print(text, file=sys.stderr, flush=True)


def start_mock(posts):
    process = subprocess.Popen([f"{BIN}/fresh-mock", "--port", "0", "--posts", str(posts), "--max-age", "0", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    servers.append(process)
    return process, process.stdout.readline().strip()


def stop(process):
    process.terminate()
    process.wait()
    servers.remove(process)


def sync(url, directory, store=None):
    """Syncs `url` into `directory` (setting up, untimed); returns the --json summary."""
    out = subprocess.run([f"{BIN}/fresh", "sync", url, "--db-dir", directory, "--json"] + (["--store", store] if store else []),
                         capture_output=True, check=True).stdout
    return json.loads(out)


class Reader:
    """fresh-reader on a pty, its output kept (escape sequences dropped) to wait for text in."""

    def __init__(self, *arguments):
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update(TERM="xterm-256color", LANG="C.UTF-8")
            os.execv(f"{BIN}/fresh-reader", [f"{BIN}/fresh-reader", *arguments])
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        self.text = b""
        self.raw = b""
        self.exited = False
        cleanups.append(self.stop)

    def stop(self):
        """Kills the reader if it is still running (a round that failed), and reaps it."""
        if self.exited:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        self.exited = True

    def wait_for(self, needle, after=0, timeout=600):
        """Seconds from the fork until `needle` appears in the output past offset `after`."""
        deadline = time.perf_counter() + timeout
        while needle.encode() not in self.text[after:]:
            if time.perf_counter() > deadline:
                raise SystemExit(f"fresh-reader never showed {needle!r}; screen text: {self.text[-600:]!r}")
            ready, _, _ = select.select([self.fd], [], [], 1)
            if ready:
                self.raw += os.read(self.fd, 1 << 16)
                self.text = ESCAPES.sub(b"", self.raw)
        return time.perf_counter() - self.started

    def peak_rss_mib(self):
        for line in open(f"/proc/{self.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024

    def send(self, keys):
        """Types `keys`, reading (and dropping) the reader's output meanwhile: a long burst (a
        Space per screen of a million items) written at once would fill the pty's buffers both
        ways, the reader blocked writing a frame and this process writing keys."""
        pending = keys.encode()
        while pending:
            readable, writable, _ = select.select([self.fd], [self.fd], [], 1)
            if readable:
                try:
                    os.read(self.fd, 1 << 16)
                except OSError:
                    return
            if writable:
                pending = pending[os.write(self.fd, pending[:1024]):]

    def wait_exit(self):
        """Seconds from the fork until the process exited, and its peak memory in MiB."""
        while True:
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.exited = True
                break
            ready, _, _ = select.select([self.fd], [], [], 0.01)
            if ready:
                try:
                    os.read(self.fd, 1 << 16)
                except OSError:
                    pass
        seconds = time.perf_counter() - self.started
        os.close(self.fd)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"fresh-reader exited {os.waitstatus_to_exitcode(status)}")
        return seconds, usage.ru_maxrss / 1024

    def quit(self):
        self.send("q")
        self.wait_exit()


def last_sync(database):
    """When a sync of the collection last ended (`collection.lastSyncAt`, written as it ends)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT lastSyncAt FROM collection WHERE name = 'posts'").fetchone()[0]


def wait_for_sync(database, after, timeout=600):
    """Waits until a sync of the collection ended after `after`; returns its end. The screen is no
    clock here: a refresh shorter than the reader's key poll never shows "refreshing…", and
    ncurses rewrites only the digits of "updated HH:MM:SS" that changed."""
    deadline = time.perf_counter() + timeout
    while (ended := last_sync(database)) == after:
        if time.perf_counter() > deadline:
            raise SystemExit("the sync never ended")
        time.sleep(0.002)
    return ended


def search_index_current(database):
    """Whether the collection's search index is up to date with its items (`itemTextState`)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT s.sequence = c.changeSequence FROM collection c JOIN itemTextState s "
                                  "ON s.collectionID = c.id WHERE c.name = 'posts'").fetchone() == (1,)


def wait_for_search_index(database, timeout=3600):
    """Waits until the reader's background indexing (a collection's first search) has brought
    the search index up to date."""
    deadline = time.perf_counter() + timeout
    while not search_index_current(database):
        if time.perf_counter() > deadline:
            raise SystemExit("the search index was never brought up to date")
        time.sleep(0.002)


def time_to_sync(database, action):
    """Seconds from `action()` until a sync of the collection has ended, and what `action` returned:
    the one clock and the one end both the reader's `r` and `fresh sync` are timed by."""
    before = last_sync(database)
    started = time.perf_counter()
    result = action()
    wait_for_sync(database, after=before)
    return time.perf_counter() - started, result


def grouped(count):
    return f"{count:,}"


def first_frame(directory, count, store=None):
    reader = Reader("--db-dir", directory, "--collection", "posts", *(["--store", store] if store else []))
    seconds = reader.wait_for(f"1/{grouped(count)}")
    memory = reader.peak_rss_mib()
    return reader, seconds, memory


SCROLLED_SCREENS = 300


# The largest size whose round searches: a first `/` has the collection's word index built in the
# background (about 25 s at 1,000,000 items, more than 10 minutes at 10,000,000), which the round
# waits for, and the targets for `/` are at 1,000,000.
SEARCHED_UP_TO = 1_000_000
# A word no item holds: a first search for it, before the index is built, reads every item.
ABSENT_WORD = "zqxjvw"


def at_size(directory, count):
    """One round at a larger size: the first frame and its memory, `G` to the end, `/` from there to
    the first match of the middle item's title (up to SEARCHED_UP_TO items), then SCROLLED_SCREENS
    screens down from the top; the peak memory at exit."""
    reader, frame, memory = first_frame(directory, count)
    mark, started = len(reader.text), time.perf_counter()
    reader.send("G")
    reader.wait_for(f"end of posts", after=mark)
    to_end = time.perf_counter() - started
    with sqlite3.connect(f"file:{directory}/data.sqlite?mode=ro", uri=True) as connection:
        title = connection.execute("SELECT json_extract(json, '$.title') FROM item ORDER BY pageIndex, position LIMIT 1 OFFSET ?",
                                   (count // 2,)).fetchone()[0]
    word = max(re.findall(r"\w{4,}", title), key=len)
    search = unmatched = None
    if count <= SEARCHED_UP_TO:
        database = os.path.join(directory, "data.sqlite")
        if not search_index_current(database):
            # A collection's first search does not wait for its index: the reader reads the items
            # from the selection while the index is built, and says so when it finds the match. A
            # word no item holds reads every item first. Then the index is waited for, so the rounds
            # after search through it and the scrolling below has no indexing beside it.
            mark, started = len(reader.text), time.perf_counter()
            reader.send("/" + ABSENT_WORD + "\r")
            reader.wait_for(f'no match for "{ABSENT_WORD}"', after=mark)
            unmatched = time.perf_counter() - started
            mark, started = len(reader.text), time.perf_counter()
            reader.send("/" + word + "\r")
            reader.wait_for("found without the search index", after=mark)
            search = time.perf_counter() - started
            wait_for_search_index(database)
        else:
            # The reader says nothing of a match found through the index; the unknown key after the
            # search says when it was handled (keys are handled in order).
            mark, started = len(reader.text), time.perf_counter()
            reader.send("/" + word + "\r")
            reader.send("x")
            reader.wait_for("unknown key x", after=mark)
            search = time.perf_counter() - started
    # ncurses rewrites only the cells that change: no text says the top is reached, so the jump
    # back (`g`) counts with the scroll, a screen's worth of work.
    started = time.perf_counter()
    reader.send("g" + " " * SCROLLED_SCREENS + "q")
    seconds, peak = reader.wait_exit()
    scroll = (seconds - (started - reader.started)) / SCROLLED_SCREENS
    return {"frame": frame, "memory": memory, "end": to_end, "search": search, "unmatched": unmatched, "screen": scroll, "peak": peak,
            "word": word}


def main():
    small, large, refreshed = 1_000, args.items, args.items // 10
    sizes = [int(size) for size in args.sizes.split(",") if size]
    scaled = {}
    for count in sizes:
        server, base = start_mock(count)
        directory = os.path.join(WORK, f"db-{count}")
        log(f"syncing {count} posts …")
        sync(f"{base}/posts?limit={PAGE_SIZE}", directory)
        stop(server)
        scaled[count] = []
        for round_number in range(args.rounds):
            scaled[count].append(at_size(directory, count))
            log(f"{count:,}: {scaled[count][-1]}")
        shutil.rmtree(directory, ignore_errors=True)
    directories = {}
    store = None
    if not args.skip_postgresql:
        cluster = Cluster()
        cluster.start()
        cleanups.append(cluster.stop)
        store = cluster.new_database("reader")
    for role, count in [("small", small), ("large", large), ("refreshed", refreshed)]:
        server, base = start_mock(count)
        directories[role] = os.path.join(WORK, f"db-{role}")
        log(f"syncing {count} posts …")
        sync(f"{base}/posts?limit={PAGE_SIZE}", directories[role])
        if role == "large" and store:
            log(f"… and into PostgreSQL")
            sync(f"{base}/posts?limit={PAGE_SIZE}", os.path.join(WORK, "db-postgresql"), store)
        if role != "refreshed":
            stop(server)
        else:
            refresh_url = f"{base}/posts?limit={PAGE_SIZE}"
    results = {role: {"frame": [], "memory": []} for role in ["small", "large", "postgresql"]}
    scroll, scroll_memory, refreshes, syncs = [], [], [], []
    pages = large // (ROWS - 1) + 1
    database = os.path.join(directories["refreshed"], "data.sqlite")
    for round_number in range(args.rounds):
        log(f"round {round_number + 1}")
        for role, count in [("small", small), ("large", large)]:
            reader, seconds, memory = first_frame(directories[role], count)
            results[role]["frame"].append(seconds)
            results[role]["memory"].append(memory)
            if role == "large":
                # Every Space is handled (a window read and a frame) before the `q` after them:
                # the process's exit marks the end of the scroll, and wait4 gives its peak memory.
                started = time.perf_counter()
                reader.send(" " * pages + "q")
                seconds, peak = reader.wait_exit()
                scroll.append(seconds - (started - reader.started))
                scroll_memory.append(peak)
                continue
            reader.quit()
        if store:
            reader, seconds, memory = first_frame(os.path.join(WORK, "db-postgresql"), large, store)
            results["postgresql"]["frame"].append(seconds)
            results["postgresql"]["memory"].append(memory)
            reader.quit()
        synced = last_sync(database)
        reader = Reader("--db-dir", directories["refreshed"], "--collection", "posts")
        wait_for_sync(database, after=synced)  # the refresh the reader starts at open …
        reader.wait_for("updated")  # … has ended for the reader too (an r before would join it)
        refreshes.append(time_to_sync(database, lambda: reader.send("r"))[0])
        reader.quit()
        command = [f"{BIN}/fresh", "sync", refresh_url, "--db-dir", directories["refreshed"], "--json"]
        seconds, process = time_to_sync(database, lambda: subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
        out, err = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"fresh sync exited {process.returncode}: {err.decode()[-800:]}")
        summary = json.loads(out)
        if summary["notModified"] != -(-refreshed // PAGE_SIZE):
            raise SystemExit(f"fresh sync did not revalidate every page with a 304: {summary}")
        syncs.append(seconds)
    report(results, scroll, scroll_memory, pages, refreshes, syncs, small, large, refreshed, scaled)


def report(results, scroll, scroll_memory, pages, refreshes, syncs, small, large, refreshed, scaled):
    median = statistics.median
    ms = lambda seconds: f"{seconds * 1000:.1f} ms"
    rounds = lambda values, unit: " ".join(unit(v) for v in values)
    mib = lambda value: f"{value:.1f} MiB"
    rows = []
    verdicts = []

    def judged(ok):
        verdicts.append(ok)
        return "yes" if ok else "**no**"

    for count, figures in [(small, results["small"]), (large, results["large"])]:
        frame, memory = median(figures["frame"]), median(figures["memory"])
        rows.append(f"| first frame, {grouped(count)} items stored | {ms(frame)} | ≤ 50 ms | {judged(frame <= 0.05)} | "
                    f"{rounds(figures['frame'], ms)} |")
        rows.append(f"| peak memory at the first frame, {grouped(count)} items | {mib(memory)} | ≤ 64 MiB | "
                    f"{judged(memory <= 64)} | {rounds(figures['memory'], mib)} |")
    if results["postgresql"]["frame"]:
        figures = results["postgresql"]
        frame = median(figures["frame"])
        rows.append(f"| first frame, {grouped(large)} items in PostgreSQL (`--store postgresql://…`, a throwaway cluster on a Unix "
                    f"socket) | {ms(frame)} | ≤ 100 ms | {judged(frame <= 0.1)} | {rounds(figures['frame'], ms)} |")
    rows.append(f"| scroll from the first to the last of {grouped(large)} ({pages:,} × Space) | {ms(median(scroll))} "
                f"({median(scroll) / pages * 1e6:.0f} µs a screen) | — | — | {rounds(scroll, ms)} |")
    rows.append(f"| peak memory after that scroll | {mib(median(scroll_memory))} | ≤ 64 MiB | "
                f"{judged(median(scroll_memory) <= 64)} | {rounds(scroll_memory, mib)} |")
    for count, runs in scaled.items():
        figure = lambda key: median(run[key] for run in runs)
        every = lambda key, unit: rounds([run[key] for run in runs], unit)
        us = lambda seconds: f"{seconds * 1e6:.0f} µs"
        rows.append(f"| first frame, {grouped(count)} items stored | {ms(figure('frame'))} | ≤ 50 ms | {judged(figure('frame') <= 0.05)} | "
                    f"{every('frame', ms)} |")
        rows.append(f"| peak memory at the first frame, {grouped(count)} items | {mib(figure('memory'))} | ≤ 64 MiB | "
                    f"{judged(figure('memory') <= 64)} | {every('memory', mib)} |")
        if count <= 1_000_000:
            rows.append(f"| `G` to the end of {grouped(count)} | {ms(figure('end'))} | ≤ 100 ms | {judged(figure('end') <= 0.1)} | {every('end', ms)} |")
            rows.append(f"| `/` to the first match ({runs[0]['word']!r}, the middle item's title) in {grouped(count)} (the first round's "
                        f"before the index is built) | {ms(figure('search'))} | ≤ 100 ms | {judged(figure('search') <= 0.1)} | {every('search', ms)} |")
            unmatched = [run["unmatched"] for run in runs if run["unmatched"] is not None]
            if unmatched:
                rows.append(f"| a first `/` for a word no item holds ({ABSENT_WORD!r}) in {grouped(count)}, before the index is built: "
                            f"every item read | {ms(statistics.median(unmatched))} | — | — | {rounds(unmatched, ms)} |")
        else:
            rows.append(f"| `G` to the end of {grouped(count)} | {ms(figure('end'))} | — | — | {every('end', ms)} |")
            if count <= SEARCHED_UP_TO:
                rows.append(f"| `/` to the first match in {grouped(count)} | {ms(figure('search'))} | — | — | {every('search', ms)} |")
        rows.append(f"| a screen of scrolling in {grouped(count)} ({SCROLLED_SCREENS} × Space from the top) | {us(figure('screen'))} | ≤ 2 ms | "
                    f"{judged(figure('screen') <= 0.002)} | {every('screen', us)} |")
        rows.append(f"| peak memory after all that, {grouped(count)} items | {mib(figure('peak'))} | ≤ 64 MiB | {judged(figure('peak') <= 64)} | "
                    f"{every('peak', mib)} |")
    ratios = [r / s for r, s in zip(refreshes, syncs)]
    page_count = -(-refreshed // PAGE_SIZE)
    rows.append(f"| `r` on {grouped(refreshed)} unchanged items ({page_count:,} pages, all 304): key to `lastSyncAt` | "
                f"{ms(median(refreshes))} | ≤ 1.2× fresh sync | {judged(median(ratios) <= 1.2)} ({median(ratios):.2f}×; rounds: "
                f"{', '.join(f'{r:.2f}' for r in ratios)}) | {rounds(refreshes, ms)} |")
    rows.append(f"| `fresh sync` of the same {page_count:,} pages: spawn to `lastSyncAt` | {ms(median(syncs))} | — | — | "
                f"{rounds(syncs, ms)} |")
    frame_ratio = median(results["large"]["frame"]) / median(results["small"]["frame"])
    items = ("" if args.items == 100_000 else f" --items {args.items}") + ("" if args.sizes == "1000000,10000000" else f" --sizes '{args.sizes}'")
    section = f"""{SECTION}

Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Machine: {os.cpu_count()} cores, Linux {platform.release()}. Release builds,
`python3 Tools/bench/reader_bench.py --bin .build/release --rounds {args.rounds}{items}` (`make bench-reader`). The reader runs on a
pseudo-terminal of {ROWS} × {COLUMNS} cells; a frame counts once its status line (the position, `1/{grouped(large)}`) has been
written. First frames are measured offline (the server stopped) so the open-time refresh does no work beside them.
The refresh rows compare `r` in the reader with `fresh sync` of the same URL right after it in the same round, on a
collection of {grouped(refreshed)} posts in pages of {PAGE_SIZE} against fresh-mock (`--max-age 0`, so every page is revalidated and
answered 304). Both are timed the same way: from the harness's action (the key written to the terminal, the process
spawned) until the sync's end is written (`collection.lastSyncAt` in data.sqlite changes, polled every 2 ms); `fresh
sync`'s time includes starting its process, as a user running it pays it. Medians over {args.rounds} rounds; the last
column lists every round.

**Targets met: {sum(verdicts)} of {len(verdicts)}.**

| measure | median | target | met | rounds |
|---|---:|---|---|---|
""" + "\n".join(rows) + f"""

A collection's first `/` does not wait for its word index: the reader reads the items from the selection while
the index is built in the background, and each later search asks the index. The first round at a size makes that
first search, then waits for the index before it scrolls. Rounds above {grouped(SEARCHED_UP_TO)} items do not search: the
index takes more than 10 minutes at 10,000,000 items (the `/` targets are at 1,000,000).

The first frame at {grouped(large)} items takes {frame_ratio:.2f}× the time at {grouped(small)}: the screen reads one window of rows
through the order index (keyset from a row on screen, or from the end), and takes the count the last sync's end
kept, so neither the first frame nor a step depends on the collection's size.
"""
    print(section)
    if args.write:
        replace_section(args.write, SECTION, section)


cleanups = []
try:
    main()
finally:
    for cleanup in cleanups:
        cleanup()
    for server in servers:
        server.terminate()
    shutil.rmtree(WORK, ignore_errors=True)
