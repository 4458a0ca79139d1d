#!/usr/bin/env python3
"""`fresh sync` side by side with curl (the wire) and dlt's rest_api source (a peer that mirrors
APIs), against one fresh-mock serving 100,000 posts in 1,000 pages of 100 (release builds).

    python3 Tools/bench/sync_bench.py --bin .build/release [--rounds 5] [--write docs/performance.md]

Measured per round, one after the other on the same server:
  curl cold   one curl process fetching the page URLs over one kept-alive connection, once asking
              for the identity bodies, then as `curl --compressed` (the request fresh sends: gzip
              offered, decoded), which keeps the ETag it got for each page
  fresh cold  `fresh sync` into an empty directory (every page a 200, stored in both databases)
  curl warm   `curl --compressed` again, each request with the ETag of curl's own previous answer
              for that page (If-None-Match), as a caching client sends it: every answer a 304
  fresh warm  `fresh sync` again (every page revalidated, every answer a 304, nothing rewritten)
  edit        one post changed through the API (the server's pages encoded again before timing),
              then curl and `fresh sync` again, each with its own ETags (one 200, the rest 304s)
PostgreSQL (a throwaway cluster of Debian's server on a Unix socket, a database a round):
  pg cold     `fresh sync --store postgresql://…` into an empty data directory (every page a 200)
  pg floor    the server's own floor for that write: the item rows it stored, copied out, then
              timed going back in with COPY into a table of the same shape (judged: pg cold ≤ 1.3×)
  pg warm     again (every answer a 304, nothing rewritten)
  pg second   a second machine's first sync: a new data directory (an empty HTTP cache of its
              own), the same database: the validators kept with the mirror make every answer a 304
  pg four     four `fresh sync` processes at once, each mirroring a server of its own (a quarter
              of the posts each) into the same database: every item of every collection stored
Speed-ups (`FRESH_SPEEDUPS`, see docs/architecture.md): fresh cold then warm again with each
speed-up off alone, and with all off (the plain path), into docs/architecture.md's generated
"### With and without each speed-up" section (--write-speedups).
Every timed run is checked: curl's status for each page (`--write-out`), fresh's --json summary,
and fresh-mock's own count of its answers (`/_admin/stats`); a run that got other answers than
the row says stops the benchmark. Peak resident memory comes from wait4 for each process; a
second server with a tenth of the posts shows whether it depends on the collection's size. dlt
runs its rest_api source (cursor paginator, duckdb destination) cold, then again on the unchanged
data, and so does fresh in a new directory: bytes and answers of those four runs are what
fresh-mock counted for each run alone. Times are wall-clock seconds of whole processes. Each
judged row is divided by its peer's run of the same round, timed beside it (curl's passes
just before fresh's; PostgreSQL's floor right after its cold sync; curl's conditional pass is
run again just before the PostgreSQL warm and second-machine rows), and the median of those ratios is
judged: on a shared machine a round's load slows both alike, and curl's own runs swing by 2×
between rounds minutes apart.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter

from pg_cluster import Cluster
from performance_doc import replace_section

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--rounds", type=int, default=5)
parser.add_argument("--posts", type=int, default=100_000)
parser.add_argument("--page-size", type=int, default=100)
parser.add_argument("--write", help="markdown file whose sync section is replaced")
parser.add_argument("--write-speedups", help="markdown file whose speed-ups section is replaced (docs/architecture.md)")
parser.add_argument("--skip-speedups", action="store_true")
parser.add_argument("--skip-dlt", action="store_true")
parser.add_argument("--skip-postgresql", action="store_true")
args = parser.parse_args()

BIN = os.path.abspath(args.bin)
WORK = tempfile.mkdtemp(prefix="fresh-sync-bench-")
SECTION = "## fresh sync vs curl vs dlt"
SPEEDUPS_SECTION = "### With and without each speed-up"
# (FRESH_SPEEDUPS, what the row is): every speed-up, each one off alone, none (the plain path).
SPEEDUP_RUNS = [("all", "every speed-up (as shipped)")] + [
    (f"-{name}", f"without {name}") for name in ["read-ahead", "chain-lookahead", "write-behind", "transfer-loop", "raw-cache-lookups", "libdeflate",
                                                 "record-read-ahead"]
] + [("none", "the plain path")]
PAGES_ROUTE = "GET /posts"  # how fresh-mock's statistics name the route of every page
servers = []


def log(text):
    print(text, file=sys.stderr, flush=True)


def run(command, **kwargs):
    """Runs a command; returns (seconds, peak RSS in MiB, stdout)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command[0]} failed: {err.decode()[-800:]}")
    return seconds, usage.ru_maxrss / 1024, out


def start_mock(posts):
    process = subprocess.Popen([f"{BIN}/fresh-mock", "--port", "0", "--posts", str(posts), "--max-age", "0", "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    servers.append(process)
    return process.stdout.readline().strip()


def get(url, headers=None, method="GET", body=None):
    request = urllib.request.Request(url, headers=headers or {}, method=method, data=body)
    with urllib.request.urlopen(request) as response:
        return response.read(), response.headers


# MARK: - What the server saw

def served(base, action, expect=None):
    """Runs `action()`; returns (its result, the body bytes fresh-mock sent meanwhile, its answers to
    the page route by status, e.g. {"304": 1000}), from `/_admin/stats` read before and after. The
    first reading's own reply is counted by the second, so its length is taken off. With `expect`,
    any other answers stop the benchmark."""
    reading, _ = get(f"{base}/_admin/stats")
    before = json.loads(reading)
    result = action()
    after = json.loads(get(f"{base}/_admin/stats")[0])

    def answers(stats):
        return Counter(stats["by_route"].get(PAGES_ROUTE, {}).get("by_status", {}))

    statuses = dict(answers(after) - answers(before))
    if expect is not None and statuses != expect:
        raise SystemExit(f"fresh-mock answered {statuses}, not {expect}")
    return result, after["body_bytes_sent"] - before["body_bytes_sent"] - len(reading), statuses


def described(statuses):
    """{"200": 1, "304": 999} → "1 × 200, 999 × 304"."""
    return ", ".join(f"{count:,} × {status}" for status, count in sorted(statuses.items()))


# MARK: - The pages and curl

def walk(base):
    """Every page URL, and the index of the page holding each post (the server has every page
    encoded afterwards)."""
    pages, page_of_post = [], {}
    url = f"{base}/posts?limit={args.page_size}"
    while True:
        body, _ = get(url)
        page = json.loads(body)
        for post in page["data"]:
            page_of_post[post["id"]] = len(pages)
        pages.append(url)
        if page["next_cursor"] == "0":
            return pages, page_of_post
        url = f"{base}/posts?limit={args.page_size}&cursor={page['next_cursor']}"


def quoted(value):
    """`value` as a quoted string of a curl config file."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def curl_pass(pages, compressed, tags=None):
    """One curl process fetching every page in order over one kept-alive connection; with `tags`,
    each request carries If-None-Match with its page's tag. Returns (seconds, peak RSS in MiB,
    [(status, ETag)] in page order)."""
    path = os.path.join(WORK, "curl.cfg")
    with open(path, "w") as config:
        for index, url in enumerate(pages):
            if index:
                config.write("next\n")
            config.write(f'url = {quoted(url)}\noutput = "/dev/null"\nsilent\nwrite-out = "%{{http_code}} %header{{etag}}\\n"\n')
            if compressed:
                config.write("compressed\n")
            if tags:
                config.write(f"header = {quoted('If-None-Match: ' + tags[index])}\n")
    seconds, rss, out = run(["curl", "--config", path])
    answers = [tuple(line.split(" ", 1)) for line in out.decode().splitlines()]
    if len(answers) != len(pages):
        raise SystemExit(f"curl answered {len(answers)} of {len(pages)} pages")
    return seconds, rss, answers


class CurlClient:
    """`curl --compressed` as a caching client uses it: every pass after the first sends, for each
    page, the ETag of its own last 200 for that page. Each pass checks curl's status for every page:
    200 for the pages it was told changed (all, unconditionally), 304 for the rest."""

    def __init__(self, pages):
        self.pages = pages
        self.tags = None

    def fetch(self, changed):
        seconds, _, answers = curl_pass(self.pages, compressed=True, tags=self.tags)
        statuses = [status for status, _ in answers]
        expected = [("200" if self.tags is None or index in changed else "304") for index in range(len(self.pages))]
        if statuses != expected:
            wrong = [f"page {index}: {got}, not {want}" for index, (got, want) in enumerate(zip(statuses, expected)) if got != want]
            raise SystemExit(f"curl's answers were not what this row measures ({len(wrong)} pages): {'; '.join(wrong[:5])}")
        self.tags = [tag if status == "200" else self.tags[index] for index, (status, tag) in enumerate(answers)]
        if not all(self.tags):
            raise SystemExit("fresh-mock sent a 200 without an ETag")
        return seconds


def fresh_sync(base, directory, store=None, speedups="all"):
    seconds, rss, out = run([f"{BIN}/fresh", "sync", f"{base}/posts", "--limit", str(args.page_size),
                             "--db-dir", directory, "--json"] + (["--store", store] if store else []),
                            env=dict(os.environ, FRESH_SPEEDUPS=speedups))
    return seconds, rss, json.loads(out)


def copy_floor(cluster, database, rows_file):
    """PostgreSQL's own floor for what a cold sync writes: the item rows the sync just stored,
    copied out to a file, then timed going back in with COPY (psql's `\\copy`, from its spawn to
    its exit) into a new table of the same shape (`LIKE … INCLUDING ALL`: columns, jsonb,
    constraints and indexes), one transaction, on the same server with the same settings."""
    cluster.sql(database, f"\\copy (SELECT * FROM fresh.item) TO '{rows_file}'")
    cluster.sql(database, "CREATE TABLE public.floor (LIKE fresh.item INCLUDING ALL)")
    started = time.perf_counter()
    cluster.sql(database, f"\\copy public.floor FROM '{rows_file}'")
    seconds = time.perf_counter() - started
    cluster.sql(database, "DROP TABLE public.floor")
    os.remove(rows_file)
    return seconds


def four_at_once(bases, store):
    """Four `fresh sync` processes started together, one collection each, into one database;
    returns the seconds until the last ends and each collection's item count as the database has it."""
    started = time.perf_counter()
    processes = [subprocess.Popen([f"{BIN}/fresh", "sync", f"{base}/posts", "--limit", str(args.page_size), "--name", f"four-{index}",
                                   "--db-dir", os.path.join(WORK, f"four-{index}"), "--store", store, "-q"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for index, base in enumerate(bases)]
    for process in processes:
        _, err = process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"a concurrent fresh sync exited {process.returncode}: {err.decode()[-800:]}")
    return time.perf_counter() - started


# MARK: - dlt

DLT_SCRIPT = r'''
import sys, dlt
from dlt.sources.rest_api import rest_api_source
from dlt.sources.helpers.rest_client.paginators import JSONResponseCursorPaginator

class ZeroEndsCursor(JSONResponseCursorPaginator):
    """dlt's cursor paginator, told that /posts ends at the cursor "0" (it knows null and empty)."""
    def update_state(self, response, data=None):
        super().update_state(response, data)
        if self._next_reference == "0":
            self._next_reference = None

base, directory = sys.argv[1], sys.argv[2]
source = rest_api_source({
    "client": {"base_url": base + "/"},
    "resources": [{"name": "posts", "endpoint": {
        "path": "posts", "params": {"limit": int(sys.argv[3])}, "data_selector": "data",
        "paginator": ZeroEndsCursor(cursor_path="next_cursor", cursor_param="cursor")},
        "primary_key": "id", "write_disposition": "merge"}],
})
pipeline = dlt.pipeline(pipeline_name="bench", destination=dlt.destinations.duckdb(directory + "/bench.duckdb"),
                        pipelines_dir=directory + "/pipelines", dataset_name="mock")
pipeline.run(source)
'''


def dlt_run(base, directory):
    script = os.path.join(WORK, "dlt_bench.py")
    with open(script, "w") as handle:
        handle.write(DLT_SCRIPT)
    env = dict(os.environ, RUNTIME__LOG_LEVEL="WARNING", DLT_TELEMETRY_DISABLED="1", RUNTIME__DLTHUB_TELEMETRY="false")
    return run([sys.executable, script, base, directory, str(args.page_size)], env=env)


def twice(name, peer, base):
    """Runs `peer(base, directory)` on a new directory, then again on the unchanged data; returns one
    (name, seconds, peak MiB, body bytes, answers) a run, bytes and answers as fresh-mock counted them."""
    directory = os.path.join(WORK, name.replace(" ", "-"))
    os.makedirs(directory)
    rows = []
    for when in ["first run", "again on unchanged data"]:
        (seconds, rss, _), sent, statuses = served(base, lambda: peer(base, directory))
        rows.append((f"{name}, {when}", seconds, rss, sent, statuses))
    return rows


# MARK: - Rounds

def main():
    log(f"fresh-mock with {args.posts} posts")
    base = start_mock(args.posts)
    pages, page_of_post = walk(base)
    everything = {"200": len(pages)}
    log(f"{len(pages)} pages; {args.rounds} rounds")
    names = ["curl cold", "curl cold compressed", "fresh cold", "curl warm", "fresh warm", "curl edit", "fresh edit"]
    if not args.skip_postgresql:
        names += ["pg floor", "pg cold", "curl warm beside pg", "pg warm", "pg second", "pg four"]
        cluster = Cluster()
        cluster.start()
        cleanups.append(cluster.stop)
        quarter = args.posts // 4
        four_bases = [start_mock(quarter) for _ in range(4)]
        for four_base in four_bases:
            walk(four_base)
        four_lost = []
    rows = {name: [] for name in names}
    speedup_rows = {(setting, when): [] for setting, _ in SPEEDUP_RUNS for when in ["cold", "warm"]}
    memory = []
    for round_number in range(args.rounds):
        directory = os.path.join(WORK, f"fresh-{round_number}")
        curl = CurlClient(pages)
        identity_pass, _, _ = served(base, lambda: curl_pass(pages, compressed=False), everything)
        rows["curl cold"].append(identity_pass[0])
        rows["curl cold compressed"].append(served(base, lambda: curl.fetch(changed=set()), everything)[0])

        (seconds, rss, summary), _, _ = served(base, lambda: fresh_sync(base, directory), everything)
        assert summary["fullResponses"] == len(pages) and summary["totalItems"] == args.posts, summary
        rows["fresh cold"].append(seconds)
        memory.append(rss)

        unchanged = {"304": len(pages)}
        rows["curl warm"].append(served(base, lambda: curl.fetch(changed=set()), unchanged)[0])
        (seconds, rss, summary), _, _ = served(base, lambda: fresh_sync(base, directory), unchanged)
        assert summary["notModified"] == len(pages) and summary["unchangedPages"] == len(pages), summary
        rows["fresh warm"].append(seconds)
        memory.append(rss)

        edited = 1 + (round_number * 37_813) % args.posts
        get(f"{base}/posts/{edited}", {"Content-Type": "application/json"}, "PATCH",
            json.dumps({"title": f"edited in round {round_number}"}).encode())
        # The mock drops its encoded pages on a write; encode them again before timing the clients.
        curl_pass(pages, compressed=False)
        curl_pass(pages, compressed=True)
        one_changed = {"200": 1, "304": len(pages) - 1}
        rows["curl edit"].append(served(base, lambda: curl.fetch(changed={page_of_post[edited]}), one_changed)[0])
        (seconds, rss, summary), _, _ = served(base, lambda: fresh_sync(base, directory), one_changed)
        assert summary["fullResponses"] == 1 and summary["notModified"] == len(pages) - 1 and summary["changed"] == 1, summary
        rows["fresh edit"].append(seconds)
        memory.append(rss)
        if not args.skip_speedups:
            # Each round starts at another row, so no setting always runs first (or right after another).
            shift = round_number % len(SPEEDUP_RUNS)
            for setting, _ in SPEEDUP_RUNS[shift:] + SPEEDUP_RUNS[:shift]:
                speedup_directory = os.path.join(WORK, f"speedups{setting}-{round_number}")
                (seconds, _, summary), _, _ = served(base, lambda: fresh_sync(base, speedup_directory, speedups=setting), everything)
                assert summary["fullResponses"] == len(pages) and summary["totalItems"] == args.posts, summary
                speedup_rows[(setting, "cold")].append(seconds)
                (seconds, _, summary), _, _ = served(base, lambda: fresh_sync(base, speedup_directory, speedups=setting), unchanged)
                assert summary["notModified"] == len(pages) and summary["unchangedPages"] == len(pages), summary
                speedup_rows[(setting, "warm")].append(seconds)
                shutil.rmtree(speedup_directory)
        if not args.skip_postgresql:
            store = cluster.new_database(f"round_{round_number}")
            (seconds, _, summary), _, _ = served(base, lambda: fresh_sync(base, os.path.join(WORK, f"pg-a-{round_number}"), store), everything)
            assert summary["fullResponses"] == len(pages) and summary["totalItems"] == args.posts, summary
            rows["pg cold"].append(seconds)
            rows["pg floor"].append(copy_floor(cluster, f"round_{round_number}", os.path.join(WORK, f"pg-rows-{round_number}.copy")))
            # curl's conditional pass again, timed beside the PostgreSQL rows it is their peer for.
            rows["curl warm beside pg"].append(served(base, lambda: curl.fetch(changed=set()), unchanged)[0])
            (seconds, _, summary), _, _ = served(base, lambda: fresh_sync(base, os.path.join(WORK, f"pg-a-{round_number}"), store), unchanged)
            assert summary["notModified"] == len(pages) and summary["unchangedPages"] == len(pages), summary
            rows["pg warm"].append(seconds)
            (seconds, _, summary), sent, _ = served(base, lambda: fresh_sync(base, os.path.join(WORK, f"pg-b-{round_number}"), store), unchanged)
            assert summary["notModified"] == len(pages) and summary["bytesReceived"] == 0 and sent == 0, summary
            rows["pg second"].append(seconds)
            rows["pg four"].append(four_at_once(four_bases, store))
            counts = cluster.sql(f"round_{round_number}", "SELECT string_agg((SELECT count(*) FROM fresh.item i WHERE i.collection_id = c.id "
                                 "AND i.page_index >= 0)::text, ' ' ORDER BY c.name) FROM fresh.collection c WHERE c.name LIKE 'four-%'")
            four_lost.append(sum(quarter - int(count) for count in counts.split()) + 4 - len(counts.split()))
        log(f"round {round_number + 1}: " + ", ".join(f"{name} {values[-1]:.3f} s" for name, values in rows.items()))
        shutil.rmtree(directory)

    small = start_mock(args.posts // 10)
    walk(small)
    _, small_rss, _ = fresh_sync(small, os.path.join(WORK, "small"))

    peers = None
    if not args.skip_dlt:
        peers = twice("dlt", dlt_run, base) + twice("fresh sync", fresh_sync, base)

    postgresql = None if args.skip_postgresql else {"lost": four_lost, "quarter": quarter}
    report = render(rows, memory, small_rss, peers, len(pages), postgresql)
    print(report)
    if args.write:
        replace_section(args.write, SECTION, report)
    if not args.skip_speedups:
        speedups = render_speedups(speedup_rows, len(pages))
        print(speedups)
        if args.write_speedups:
            replace_section(args.write_speedups, SPEEDUPS_SECTION, speedups)


# MARK: - Report

def render(rows, memory, small_rss, peers, page_count, postgresql):
    median = {name: statistics.median(values) for name, values in rows.items()}

    def per_round(name):
        return " ".join(f"{value:.3f}" for value in rows[name])

    peak = max(memory)
    targets = [
        # (row, its peer timed beside it in each round, the most it may take as a multiple of the peer)
        ("fresh cold", "curl cold compressed", 1.5),
        ("fresh warm", "curl warm", 1.5),
        ("fresh edit", "fresh warm", 1.2),
    ]
    if postgresql:
        targets += [("pg cold", "pg floor", 1.3), ("pg warm", "curl warm beside pg", 1.5), ("pg second", "curl warm beside pg", 1.5)]
    # A row is judged against the peer run of its own round, a few seconds apart, not against the
    # peer's median over rounds minutes apart: this machine's load moves both alike.
    ratios = {row: [mine / theirs for mine, theirs in zip(rows[row], rows[peer])] for row, peer, _ in targets}
    verdicts = {row: (statistics.median(ratios[row]), statistics.median(ratios[row]) <= most) for row, _, most in targets}
    memory_met = {"peak": peak <= 64, "size": abs(peak - small_rss) <= 8}
    met = [ok for _, ok in verdicts.values()] + list(memory_met.values()) + ([max(postgresql["lost"]) == 0] if postgresql else [])

    def judged(row, extra=""):
        factor, ok = verdicts[row]
        each = " ".join(f"{ratio:.2f}" for ratio in ratios[row])
        return f"{'yes' if ok else '**no**'} ({factor:.2f}×{extra}; rounds: {each})"

    uname = os.uname()
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.split("\n")[0] or "Swift unknown"
    cold_identity = statistics.median(mine / theirs for mine, theirs in zip(rows["fresh cold"], rows["curl cold"]))
    lines = [
        SECTION,
        "",
        f"Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `make bench-sync` (Tools/bench/sync_bench.py). Machine: "
        f"{os.cpu_count()} cores, {uname.sysname} {uname.release}, {swift}. fresh-mock (release) serves {args.posts:,} posts "
        f"with `--max-age 0`, {page_count:,} pages of {args.page_size}; curl {curl_version()} fetches the same URLs in one process over "
        f"one kept-alive connection. Whole processes, wall-clock seconds, {args.rounds} rounds one after the other. A row "
        "is judged by its ratio to its peer in the same round, timed beside it (curl just before fresh; PostgreSQL's floor "
        "right after its cold sync; curl's conditional pass again just before the PostgreSQL warm and second-machine rows); "
        "the median of the rounds' ratios is judged, and each round's is listed. "
        "fresh asks for compression (as a sync does against any API) and gets gzip, which it decodes: it is judged "
        "against `curl --compressed`, which sends the same request and decodes the same bytes; curl asking for the identity "
        "bodies is shown too. curl's conditional runs send, for each page, the ETag of curl's own last 200 for it, as a "
        "caching client would. Every run's answers are checked against its row: curl's status for each page, fresh's "
        "summary, and fresh-mock's own count of its answers.",
        "",
        f"**Targets met: {sum(met)} of {len(met)}.**",
        "",
        "| run | median | target | met | per round |",
        "|---|---:|---|---|---|",
        f"| curl --compressed: {page_count:,} pages, every answer a 200 (gzip) | {median['curl cold compressed']:.3f} s | — | — | "
        f"{per_round('curl cold compressed')} |",
        f"| curl, identity bodies: the same pages uncompressed | {median['curl cold']:.3f} s | — | — | {per_round('curl cold')} |",
        f"| fresh sync, cold (empty directory; every page a 200, stored) | {median['fresh cold']:.3f} s | ≤ 1.5× curl --compressed | "
        f"{judged('fresh cold', f'; {cold_identity:.2f}× identity curl')} | {per_round('fresh cold')} |",
        f"| curl --compressed again, with If-None-Match: every answer a 304 | {median['curl warm']:.3f} s | — | — | {per_round('curl warm')} |",
        f"| fresh sync, warm (every page a 304, nothing rewritten) | {median['fresh warm']:.3f} s | ≤ 1.5× curl | "
        f"{judged('fresh warm')} | {per_round('fresh warm')} |",
        f"| curl after one post was edited (one 200, {page_count - 1:,} 304s) | {median['curl edit']:.3f} s | — | — | {per_round('curl edit')} |",
        f"| fresh sync after one post was edited (one 200, {page_count - 1:,} 304s) | {median['fresh edit']:.3f} s | ≤ 1.2× fresh warm | "
        f"{judged('fresh edit')} | {per_round('fresh edit')} |",
        f"| fresh sync, peak resident memory, {args.posts:,} items | {peak:.1f} MiB | ≤ 64 MiB | {'yes' if memory_met['peak'] else '**no**'} | "
        f"{' '.join(f'{value:.1f}' for value in memory)} |",
        f"| fresh sync, peak resident memory, {args.posts // 10:,} items | {small_rss:.1f} MiB | within 8 MiB of the above | "
        f"{'yes' if memory_met['size'] else '**no**'} | one run |",
    ]
    if postgresql:
        lost = postgresql["lost"]
        pg_against_curl = f"; {median['pg cold'] / median['curl cold compressed']:.2f}× curl --compressed's median"
        lines += [
            f"| **PostgreSQL** (Debian's server on a Unix socket, fsync on): its own floor, the same {args.posts:,} item rows "
            f"copied into a table of the same shape (`\\copy` of the rows the cold sync stored, into `LIKE fresh.item INCLUDING ALL`; "
            f"psql from spawn to exit) | {median['pg floor']:.3f} s | — | — | {per_round('pg floor')} |",
            f"| PostgreSQL (`--store postgresql://…`): cold sync | {median['pg cold']:.3f} s | "
            f"≤ 1.3× its floor | {judged('pg cold', pg_against_curl)} | "
            f"{per_round('pg cold')} |",
            f"| curl --compressed's conditional pass again, beside the PostgreSQL rows (their peer) | {median['curl warm beside pg']:.3f} s | "
            f"— | — | {per_round('curl warm beside pg')} |",
            f"| PostgreSQL: warm sync (every page a 304, nothing rewritten) | {median['pg warm']:.3f} s | ≤ 1.5× curl | "
            f"{judged('pg warm')} | {per_round('pg warm')} |",
            f"| PostgreSQL: a second machine's first sync (a new data directory, so an empty HTTP cache; every page a 304, "
            f"0 bytes received) | {median['pg second']:.3f} s | all 304s, ≤ 1.5× curl | {judged('pg second')} | {per_round('pg second')} |",
            f"| PostgreSQL: four syncs of four collections ({postgresql['quarter']:,} items each) from four processes at once | "
            f"{median['pg four']:.3f} s | no item lost | {'yes' if max(lost) == 0 else '**no**'} ({sum(lost)} lost in {len(lost)} rounds) | "
            f"{per_round('pg four')} |",
        ]
    if peers:
        lines += [
            "",
            "dlt's `rest_api` source (cursor paginator, duckdb destination, `merge` on `id`) on the same server and data, "
            "then fresh on a new directory, each run twice. Body bytes and answers are what fresh-mock counted for each run "
            "alone (`/_admin/stats` before and after it), for both peers the same way:",
            "",
            "| run | seconds | body bytes sent | answers | peak memory |",
            "|---|---:|---:|---|---:|",
        ]
        lines += [f"| {name} | {seconds:.2f} | {sent:,} | {described(statuses)} | {rss:.0f} MiB |"
                  for name, seconds, rss, sent, statuses in peers]
    return "\n".join(lines) + "\n"


def render_speedups(speedup_rows, page_count):
    """docs/architecture.md's speed table: each speed-up's figure with and without it."""
    median = {key: statistics.median(values) for key, values in speedup_rows.items()}
    lines = [
        SPEEDUPS_SECTION,
        "",
        f"Written by `make bench-sync` (Tools/bench/sync_bench.py) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"`fresh sync` of {args.posts:,} posts in {page_count:,} pages from fresh-mock (release), cold (an empty directory, every "
        f"page a 200) then warm (every page a 304), with `FRESH_SPEEDUPS` set as the row says; median seconds of {args.rounds} "
        "rounds, whole processes. A speed-up's worth is its row against the first; the last row is the plain path.",
        "",
        "| speed-ups | cold | × all | warm | × all |",
        "|---|---:|---:|---:|---:|",
    ]
    for setting, meaning in SPEEDUP_RUNS:
        cold, warm = median[(setting, "cold")], median[(setting, "warm")]
        lines.append(f"| `{setting}`: {meaning} | {cold:.3f} s | {cold / median[('all', 'cold')]:.2f}× | "
                     f"{warm:.3f} s | {warm / median[('all', 'warm')]:.2f}× |")
    return "\n".join(lines) + "\n"


def curl_version():
    return subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]


cleanups = []
try:
    main()
finally:
    for cleanup in cleanups:
        cleanup()
    for server in servers:
        server.kill()
        server.wait()
    shutil.rmtree(WORK, ignore_errors=True)
