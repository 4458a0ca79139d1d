#!/usr/bin/env python3
"""`fresh sync` side by side with curl (the wire) and dlt's rest_api source (a peer that mirrors
APIs), against one fresh-mock serving 100,000 posts in 1,000 pages of 100 (release builds).

    python3 Tools/bench/sync_bench.py --bin .build/release [--rounds 3] [--write docs/performance.md]

Measured per round, one after the other on the same server:
  curl cold   one curl process fetching the 1,000 page URLs over one kept-alive connection,
              once as `curl --compressed` (the request fresh sends: gzip offered, decoded) and
              once asking for the identity bodies (53 MB on the wire instead of 4.7 MB)
  fresh cold  `fresh sync` into an empty directory (every page a 200, stored in both databases)
  curl warm   the same 1,000 URLs, each with the If-None-Match of its page (every answer a 304)
  fresh warm  `fresh sync` again (every page revalidated, every answer a 304, nothing rewritten)
  fresh edit  one post changed through the API (the server's pages encoded again by curl
              before timing), then `fresh sync` (one 200, 999 304s)
Peak resident memory comes from wait4 for each process; a second server with 10,000 posts shows
whether it depends on the collection's size. dlt runs its rest_api source (cursor paginator,
duckdb destination) cold, then again on the unchanged data; bytes come from fresh-mock's stats.
Times are wall-clock seconds of whole processes; the median over the rounds is judged.
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

from performance_doc import replace_section

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--posts", type=int, default=100_000)
parser.add_argument("--page-size", type=int, default=100)
parser.add_argument("--write", help="markdown file whose sync section is replaced")
parser.add_argument("--skip-dlt", action="store_true")
args = parser.parse_args()

BIN = os.path.abspath(args.bin)
WORK = tempfile.mkdtemp(prefix="fresh-sync-bench-")
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
    help_text = subprocess.run([f"{BIN}/fresh-mock", "--help"], capture_output=True, text=True).stdout
    quiet = ["--quiet"] if "--quiet" in help_text else []
    process = subprocess.Popen([f"{BIN}/fresh-mock", "--port", "0", "--posts", str(posts), "--max-age", "0", *quiet],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    servers.append(process)
    return process.stdout.readline().strip()


def get(url, headers=None, method="GET", body=None):
    request = urllib.request.Request(url, headers=headers or {}, method=method, data=body)
    with urllib.request.urlopen(request) as response:
        return response.read(), response.headers


def walk(base):
    """Every page URL with its ETag (and the server has every page encoded afterwards)."""
    pages = []
    url = f"{base}/posts?limit={args.page_size}"
    while True:
        body, headers = get(url)
        pages.append((url, headers["ETag"]))
        cursor = json.loads(body)["next_cursor"]
        if cursor == "0":
            return pages
        url = f"{base}/posts?limit={args.page_size}&cursor={cursor}"


def curl_config(pages, conditional, compressed=False):
    path = os.path.join(WORK, f"{'warm' if conditional else 'cold'}{'-compressed' if compressed else ''}.cfg")
    with open(path, "w") as config:
        for index, (url, tag) in enumerate(pages):
            if index:
                config.write("next\n")
            config.write(f'url = "{url}"\noutput = "/dev/null"\nsilent\n')
            if compressed:
                config.write("compressed\n")
            if conditional:
                config.write(f"header = \"If-None-Match: {tag}\"\n")
    return path


def fresh_sync(base, directory):
    seconds, rss, out = run([f"{BIN}/fresh", "sync", f"{base}/posts", "--limit", str(args.page_size),
                             "--db-dir", directory, "--json"])
    return seconds, rss, json.loads(out)


def stats(base):
    body, _ = get(f"{base}/_admin/stats")
    return json.loads(body)


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
    before = stats(base)["body_bytes_sent"]
    env = dict(os.environ, RUNTIME__LOG_LEVEL="WARNING", DLT_TELEMETRY_DISABLED="1", RUNTIME__DLTHUB_TELEMETRY="false")
    seconds, rss, _ = run([sys.executable, script, base, directory, str(args.page_size)], env=env)
    return seconds, rss, stats(base)["body_bytes_sent"] - before


def main():
    log(f"fresh-mock with {args.posts} posts")
    base = start_mock(args.posts)
    pages = walk(base)
    log(f"{len(pages)} pages; {args.rounds} rounds")
    cold_cfg, warm_cfg = curl_config(pages, False), curl_config(pages, True)
    compressed_cfg = curl_config(pages, False, compressed=True)
    rows = {name: [] for name in ["curl cold", "curl cold compressed", "fresh cold", "curl warm", "fresh warm", "fresh edit"]}
    memory = []
    summaries = {}
    for round_number in range(args.rounds):
        directory = os.path.join(WORK, f"fresh-{round_number}")
        rows["curl cold"].append(run(["curl", "--config", cold_cfg])[0])
        rows["curl cold compressed"].append(run(["curl", "--config", compressed_cfg])[0])
        seconds, rss, summary = fresh_sync(base, directory)
        assert summary["fullResponses"] == len(pages) and summary["totalItems"] == args.posts, summary
        rows["fresh cold"].append(seconds)
        memory.append(rss)
        rows["curl warm"].append(run(["curl", "--config", warm_cfg])[0])
        seconds, rss, summary = fresh_sync(base, directory)
        assert summary["notModified"] == len(pages) and summary["unchangedPages"] == len(pages), summary
        rows["fresh warm"].append(seconds)
        memory.append(rss)
        edited = 1 + (round_number * 37_813) % args.posts
        get(f"{base}/posts/{edited}", {"Content-Type": "application/json"}, "PATCH",
            json.dumps({"title": f"edited in round {round_number}"}).encode())
        # The mock drops its encoded pages on a write; encode them again before timing the client.
        run(["curl", "--config", cold_cfg])
        seconds, rss, summary = fresh_sync(base, directory)
        assert summary["fullResponses"] == 1 and summary["notModified"] == len(pages) - 1 and summary["changed"] == 1, summary
        rows["fresh edit"].append(seconds)
        memory.append(rss)
        summaries = summary
        log(f"round {round_number + 1}: " + ", ".join(f"{name} {values[-1]:.3f} s" for name, values in rows.items()))
        shutil.rmtree(directory)

    small = start_mock(args.posts // 10)
    walk(small)
    _, small_rss, _ = fresh_sync(small, os.path.join(WORK, "small"))

    dlt = None
    if not args.skip_dlt:
        dlt_directory = os.path.join(WORK, "dlt")
        os.makedirs(dlt_directory)
        cold = dlt_run(base, dlt_directory)
        again = dlt_run(base, dlt_directory)
        fresh_before = stats(base)["body_bytes_sent"]
        fresh_dir = os.path.join(WORK, "fresh-dlt")
        fresh_cold = fresh_sync(base, fresh_dir)
        fresh_again = fresh_sync(base, fresh_dir)
        fresh_again_bytes = stats(base)["body_bytes_sent"] - fresh_before - fresh_cold[2]["bytesReceived"]
        dlt = (cold, again, fresh_cold, fresh_again, fresh_again_bytes)

    median = {name: statistics.median(values) for name, values in rows.items()}
    report = render(median, rows, memory, small_rss, dlt, len(pages))
    print(report)
    if args.write:
        replace_section(args.write, "## fresh sync vs curl vs dlt", report)


def render(median, rows, memory, small_rss, dlt, page_count):
    def ratio(a, b):
        return median[a] / median[b]

    def per_round(name):
        return " ".join(f"{value:.3f}" for value in rows[name])

    cold, warm, edit = ratio("fresh cold", "curl cold compressed"), ratio("fresh warm", "curl warm"), ratio("fresh edit", "fresh warm")
    cold_identity = ratio("fresh cold", "curl cold")
    peak = max(memory)
    uname = os.uname()
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    lines = [
        "## fresh sync vs curl vs dlt",
        "",
        f"Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by `make bench-sync` (Tools/bench/sync_bench.py). Machine: "
        f"{os.cpu_count()} cores, {uname.sysname} {uname.release}, {swift}. fresh-mock (release) serves {args.posts:,} posts "
        f"with `--max-age 0`, {page_count:,} pages of {args.page_size}; curl {curl_version()} fetches the same URLs in one process over "
        f"one kept-alive connection. Whole processes, wall-clock seconds, {args.rounds} rounds one after the other; the median is judged. "
        "fresh asks for compression (as a sync does against any API) and gets gzip, which it decodes: the cold target is judged "
        "against `curl --compressed`, which sends the same request and decodes the same bytes; curl asking for the identity "
        "bodies is shown too (on loopback, decoding costs more than the bytes it saves).",
        "",
        "| run | median | target | met | per round |",
        "|---|---:|---|---|---|",
        f"| curl --compressed: {page_count:,} pages, every answer a 200 (gzip) | {median['curl cold compressed']:.3f} s | — | — | "
        f"{per_round('curl cold compressed')} |",
        f"| curl, identity bodies: the same pages uncompressed | {median['curl cold']:.3f} s | — | — | {per_round('curl cold')} |",
        f"| fresh sync, cold (empty directory; every page a 200, stored) | {median['fresh cold']:.3f} s | ≤ 2× curl --compressed | "
        f"{'yes' if cold <= 2 else 'no'} ({cold:.2f}×; {cold_identity:.2f}× identity curl) | {per_round('fresh cold')} |",
        f"| curl: the same URLs with If-None-Match, every answer a 304 | {median['curl warm']:.3f} s | — | — | {per_round('curl warm')} |",
        f"| fresh sync, warm (every page a 304, nothing rewritten) | {median['fresh warm']:.3f} s | ≤ 1.5× curl | "
        f"{'yes' if warm <= 1.5 else 'no'} ({warm:.2f}×) | {per_round('fresh warm')} |",
        f"| fresh sync after one post was edited (one 200, {page_count - 1} 304s) | {median['fresh edit']:.3f} s | ≤ 1.2× warm | "
        f"{'yes' if edit <= 1.2 else 'no'} ({edit:.2f}×) | {per_round('fresh edit')} |",
        f"| fresh sync, peak resident memory, {args.posts:,} items | {peak:.1f} MiB | ≤ 64 MiB | {'yes' if peak <= 64 else 'no'} | "
        f"{' '.join(f'{value:.1f}' for value in memory)} |",
        f"| fresh sync, peak resident memory, {args.posts // 10:,} items | {small_rss:.1f} MiB | independent of size | "
        f"{'yes' if abs(peak - small_rss) <= 8 else 'no'} | one run |",
    ]
    if dlt:
        (cold_s, cold_rss, cold_bytes), (again_s, again_rss, again_bytes), fresh_cold, fresh_again, fresh_again_bytes = dlt
        lines += [
            "",
            "dlt's `rest_api` source (cursor paginator, duckdb destination, `merge` on `id`) on the same server and data, "
            "then fresh on a new directory, each run twice; bytes are the body bytes fresh-mock sent:",
            "",
            "| run | seconds | body bytes sent | peak memory |",
            "|---|---:|---:|---:|",
            f"| dlt, first run | {cold_s:.2f} | {cold_bytes:,} | {cold_rss:.0f} MiB |",
            f"| dlt, again on unchanged data | {again_s:.2f} | {again_bytes:,} | {again_rss:.0f} MiB |",
            f"| fresh sync, first run | {fresh_cold[0]:.2f} | {fresh_cold[2]['bytesReceived']:,} | {fresh_cold[1]:.0f} MiB |",
            f"| fresh sync, again on unchanged data | {fresh_again[0]:.2f} | {fresh_again_bytes:,} | {fresh_again[1]:.0f} MiB |",
        ]
    return "\n".join(lines) + "\n"


def curl_version():
    return subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]


try:
    main()
finally:
    for server in servers:
        server.kill()
        server.wait()
    shutil.rmtree(WORK, ignore_errors=True)
