#!/usr/bin/env python3
"""`fresh-mock --mirror` (the replay of a mirror) side by side with nginx serving the same page
bytes as static files, under wrk, in one run; then the replay's memory over a longer run, and how
soon after it starts it answers the first page of a 1,000,000-item mirror.

    python3 Tools/bench/replay_bench.py --bin .build/release [--write docs/performance.md]

bench-mock's method: both servers answer the same requests (wrk cycles through every page of a
100,000-post mirror, cursor by cursor), both without a request log (fresh-mock --quiet, nginx
`access_log off`), each after an unmeasured warm-up, the median of the rounds compared. nginx
finds a page's file by its cursor. Targets (issue 34): the replay at ≥ 0.5 × nginx's requests/s,
RSS flat over the memory run (growth ≤ 1 MiB, allocator noise), and the first page of a
1,000,000-item mirror answered ≤ 50 ms after the replay is started (median of 5 starts).
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from performance_doc import replace_section  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--posts", type=int, default=100_000)
parser.add_argument("--page-size", type=int, default=100)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--duration", type=int, default=10)
parser.add_argument("--memory-duration", type=int, default=60)
parser.add_argument("--large", type=int, default=1_000_000)
parser.add_argument("--starts", type=int, default=5)
parser.add_argument("--write", default="")
args = parser.parse_args()

BIN = os.path.abspath(args.bin)
WORK = tempfile.mkdtemp(prefix="fresh-replay-bench-")
SECTION = "## fresh-mock --mirror vs nginx (wrk)"
processes = []


def log(text):
    print(f"bench-replay: {text}", file=sys.stderr, flush=True)


def start(command):
    """Starts a server whose first stdout line is its URL; returns (process, URL)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    processes.append(process)
    return process, process.stdout.readline().strip()


def stop(process):
    process.terminate()
    process.wait(timeout=30)


def sync(origin, directory):
    subprocess.run([f"{BIN}/fresh", "sync", f"{origin}/posts?limit={args.page_size}", "--db-dir", directory, "-q"], check=True)


def record(posts, directory):
    """A mirror of `posts` seeded posts in `directory`."""
    origin, url = start([f"{BIN}/fresh-mock", "--port", "0", "--posts", str(posts), "--quiet"])
    sync(url, directory)
    stop(origin)


def pages_of(replay):
    """Every page path of the replay's posts, with its body, following next_cursor."""
    pages, cursor = [], None
    while True:
        path = f"/posts?limit={args.page_size}" + (f"&cursor={cursor}" if cursor else "")
        body = urllib.request.urlopen(replay + path).read()
        pages.append((path, cursor, body))
        cursor = json.loads(body)["next_cursor"]
        if cursor == "0":
            return pages


def nginx(pages):
    """nginx serving each page's bytes at its path, found by the cursor (the first: `first`)."""
    root = os.path.join(WORK, "nginx")
    os.makedirs(os.path.join(root, "www", "pages"))
    os.makedirs(os.path.join(root, "tmp"))
    for _, cursor, body in pages:
        with open(os.path.join(root, "www", "pages", f"{cursor or 'first'}.json"), "wb") as handle:
            handle.write(body)
    for directory, _, files in os.walk(root):
        os.chmod(directory, 0o755)
        for name in files:
            os.chmod(os.path.join(directory, name), 0o644)
    os.chmod(WORK, 0o755)
    port_probe = __import__("socket").socket()
    port_probe.bind(("127.0.0.1", 0))
    port = port_probe.getsockname()[1]
    port_probe.close()
    with open(os.path.join(root, "nginx.conf"), "w") as handle:
        handle.write(f"""
worker_processes auto;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
daemon off;
events {{ worker_connections 1024; }}
http {{
    sendfile on;
    tcp_nopush on;
    etag on;
    keepalive_requests 10000000;
    keepalive_timeout 65;
    client_body_temp_path {root}/tmp;
    map $arg_cursor $page {{ "" first; default $arg_cursor; }}
    server {{
        listen 127.0.0.1:{port};
        access_log off;
        root {root}/www;
        default_type application/json;
        location = /posts {{ try_files /pages/$page.json =404; }}
    }}
}}
""")
    process = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-p", root, "-e", f"{root}/error.log", "-c", f"{root}/nginx.conf"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes.append(process)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + pages[0][0]).read()
            return process, url
        except OSError:
            time.sleep(0.05)
    sys.exit("bench-replay: nginx did not start")


def wrk(url, paths, seconds):
    """Requests/s and errors of wrk cycling through `paths` for `seconds`."""
    script = os.path.join(WORK, "pages.lua")
    with open(script, "w") as handle:
        handle.write("paths = {" + ",".join(json.dumps(path) for path in paths) + "}\n"
                     "counter = 0\n"
                     "request = function()\n  counter = counter % #paths + 1\n  return wrk.format('GET', paths[counter])\nend\n")
    output = subprocess.run(["wrk", "-t2", "-c32", f"-d{seconds}s", "-s", script, url], capture_output=True, text=True, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rps, int(errors.group(1)) if errors else 0


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as handle:
        return int(next(line for line in handle if line.startswith("VmRSS")).split()[1])


def first_page_after_start(directory):
    """Seconds from starting the replay of `directory` to the end of its first page's answer."""
    began = time.monotonic()
    process, url = start([f"{BIN}/fresh-mock", "--mirror", "--db-dir", directory, "--port", "0", "--quiet"])
    body = urllib.request.urlopen(f"{url}/posts?limit={args.page_size}").read()
    elapsed = time.monotonic() - began
    assert json.loads(body)["data"], body[:200]
    stop(process)
    return elapsed


def main():
    mirror = os.path.join(WORK, "mirror")
    log(f"recording {args.posts} posts")
    record(args.posts, mirror)
    replay, replay_url = start([f"{BIN}/fresh-mock", "--mirror", "--db-dir", mirror, "--port", "0", "--quiet"])
    pages = pages_of(replay_url)
    paths = [path for path, _, _ in pages]
    _, nginx_url = nginx(pages)
    for path, _, body in pages[:3] + pages[-1:]:
        assert urllib.request.urlopen(nginx_url + path).read() == body, path
    log(f"{len(pages)} pages; {args.rounds} rounds of {args.duration} s each")
    results = {"replay": [], "nginx": []}
    errors = 0
    for round_number in range(args.rounds):
        for name, url in [("replay", replay_url), ("nginx", nginx_url)]:
            wrk(url, paths, 2)
            rps, failed = wrk(url, paths, args.duration)
            results[name].append(rps)
            errors += failed
        log(f"round {round_number + 1}: replay {results['replay'][-1]:.0f} req/s, nginx {results['nginx'][-1]:.0f} req/s")
    replay_rps, nginx_rps = statistics.median(results["replay"]), statistics.median(results["nginx"])
    ratio = replay_rps / nginx_rps

    log(f"memory: {args.memory_duration} s")
    before = rss_kib(replay.pid)
    samples = [before]
    wrk_run = subprocess.Popen(["wrk", "-t2", "-c32", f"-d{args.memory_duration}s", "-s", os.path.join(WORK, "pages.lua"), replay_url],
                               stdout=subprocess.DEVNULL)
    while wrk_run.poll() is None:
        time.sleep(5)
        samples.append(rss_kib(replay.pid))
    after = rss_kib(replay.pid)
    stop(replay)
    growth = after - before

    large = os.path.join(WORK, "large")
    log(f"recording {args.large} posts")
    record(args.large, large)
    starts = [first_page_after_start(large) for _ in range(args.starts)]
    first_page = statistics.median(starts)

    met_rps, met_memory, met_start = ratio >= 0.5 and errors == 0, growth <= 1024, first_page <= 0.050
    yes = lambda met: "yes" if met else "**no**"
    section = f"""{SECTION}

Written by `make bench-replay` (Tools/bench/replay_bench.py) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: `fresh-mock --mirror --quiet`
(release) serving a mirror of {args.posts:,} posts that `fresh sync` stored in {len(pages):,} pages of {args.page_size}, against
nginx (as bench-mock configures it: a worker a core, sendfile, unlimited keep-alive) serving the same bytes as static files (`access_log off`), both under wrk (2 threads, 32 connections) cycling through
every page by its cursor, {args.duration} s a run after 2 s of warm-up, {args.rounds} rounds, medians.

| measure | replay | nginx | target | met |
|---|---|---|---|---|
| requests/s, every page in turn | {replay_rps:,.0f} | {nginx_rps:,.0f} | ≥ 0.5 × nginx | {yes(met_rps)} ({ratio:.2f} ×; {errors} errors) |
| RSS over a {args.memory_duration} s run | {before / 1024:.1f} → {after / 1024:.1f} MiB (peak sample {max(samples) / 1024:.1f}) | | flat (≤ 1 MiB growth) | {yes(met_memory)} |
| first page after start, {args.large:,}-item mirror | {first_page * 1000:.1f} ms (median of {args.starts}; {', '.join(f'{s * 1000:.1f}' for s in starts)}) | | ≤ 50 ms | {yes(met_start)} |

Per round, requests/s: replay {', '.join(f'{r:,.0f}' for r in results['replay'])}; nginx {', '.join(f'{r:,.0f}' for r in results['nginx'])}.
"""
    print(section)
    if args.write:
        replace_section(args.write, SECTION, section)
    return 0 if met_rps and met_memory and met_start else 1


try:
    status = main()
finally:
    # SIGTERM first: a SIGKILLed nginx master leaves its workers running.
    for process in processes:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    shutil.rmtree(WORK, ignore_errors=True)
sys.exit(status)
