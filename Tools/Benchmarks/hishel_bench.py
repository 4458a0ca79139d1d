#!/usr/bin/env python3
"""hishel (python's RFC 9111 cache for httpx), measured on the same bytes as the Swift benchmarks
(Benchmarks/HTTPCacheBenchmarks). Prints one JSON object: {name: {"median_us", "p99_us",
"samples"}}, and under "_versions" and "_bytes" what it ran with.

Usage: hishel_bench.py --revalidate-url URL [--seconds S]
  --revalidate-url  fresh-mock's resource served with max-age=0 and an ETag (every reuse is a
                    304): the URL of the Swift suite's 304 and plain GET rows

The hits are of the entries fresh's hits read: a body of 1 KB and one of 100 KB, the letters
`Fixture.body(size:)` makes, with the headers of `Fixture.entry` (fresh for an hour, with an
ETag and a Last-Modified). The Swift suite stores them in fresh's cache by hand; hishel stores
them from a loopback server of this process that answers with those bytes, and no hit reaches it.
"""

import argparse
import http.server
import json
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from email.utils import formatdate
from importlib.metadata import version

import hishel
import httpx
from hishel.httpx import CacheClient

# The sizes of the Swift suite's entries (Fixture.smallBodySize, Fixture.largeBodySize), and
# where this process's server answers with each.
SIZES = {"1 KB": 1024, "100 KB": 100 * 1024}
PATHS = {"1 KB": "/1KB", "100 KB": "/100KB"}


def fixture_body(size):
    """`Fixture.body(size:)`: `size` letters of the alphabet, from "a"."""
    return bytes(ord("a") + index % 26 for index in range(size))


class FixtureHandler(http.server.BaseHTTPRequestHandler):
    """Answers GET /1KB and /100KB with the Swift suite's body and its entry's headers."""

    protocol_version = "HTTP/1.1"
    requests = 0  # answered so far: only the stores, never a hit

    def do_GET(self):
        FixtureHandler.requests += 1
        size = next((SIZES[label] for label, path in PATHS.items() if path == self.path), None)
        if size is None:
            self.send_error(404)
            return
        body = fixture_body(size)
        now = time.time()
        self.send_response_only(200)
        for name, value in [("Content-Type", "application/json"), ("Content-Length", str(len(body))),
                            ("Cache-Control", "max-age=3600"), ("ETag", f'"{len(body)}-bench"'),
                            ("Last-Modified", formatdate(now - 86_400, usegmt=True)), ("Date", formatdate(now, usegmt=True))]:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


def measure(operation, seconds, max_samples=50_000, warmup=100):
    for _ in range(warmup):
        operation()
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline and len(samples) < max_samples:
        start = time.perf_counter_ns()
        operation()
        samples.append(time.perf_counter_ns() - start)
    samples.sort()
    return {
        "median_us": statistics.median(samples) / 1000,
        "p99_us": samples[min(len(samples) - 1, int(len(samples) * 0.99))] / 1000,
        "samples": len(samples),
    }


def checked(client, url, expect_from_cache, expect_revalidated, size=None):
    """One request through a hishel client, failing loudly if the cache did something else."""

    def operation():
        response = client.get(url)
        body = response.read()
        status = response.extensions.get("caching", {})
        if status.get("from_cache") != expect_from_cache or status.get("revalidated") != expect_revalidated:
            raise SystemExit(f"hishel did not do what was measured for {url}: {status}")
        if size is not None and len(body) != size:
            raise SystemExit(f"hishel answered {url} with {len(body)} bytes, not {size}")
        return body

    return operation


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--revalidate-url", required=True)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FixtureHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    hit_url = {label: f"http://127.0.0.1:{server.server_address[1]}{path}" for label, path in PATHS.items()}

    results = {}
    with tempfile.TemporaryDirectory() as directory:
        file_storage = hishel.SqliteStorage(database_path=f"{directory}/hishel.db")
        memory_storage = hishel.SqliteStorage(connection=sqlite3.connect(":memory:", check_same_thread=False))
        options = hishel.CacheOptions(shared=False)
        with CacheClient(storage=file_storage, rfc=options) as file_client, \
                CacheClient(storage=memory_storage, rfc=options) as memory_client, \
                httpx.Client() as plain:
            for client in (file_client, memory_client):
                for label, size in SIZES.items():  # stores them
                    if client.get(hit_url[label]).read() != fixture_body(size):
                        raise SystemExit(f"{hit_url[label]} did not answer with the fixture's bytes")
                client.get(args.revalidate_url).read()  # stores it (max-age=0, ETag)
            results["hishel: fresh hit, SqliteStorage in :memory:, 1 KB"] = measure(
                checked(memory_client, hit_url["1 KB"], True, False, SIZES["1 KB"]), args.seconds)
            for label, size in SIZES.items():
                results[f"hishel: fresh hit, SqliteStorage on disk, {label}"] = measure(
                    checked(file_client, hit_url[label], True, False, size), args.seconds)
            results["hishel: 304 revalidation, SqliteStorage on disk"] = measure(
                checked(file_client, args.revalidate_url, True, True), args.seconds)
            results["httpx: plain GET (no cache)"] = measure(
                lambda: plain.get(args.revalidate_url).read(), args.seconds)
            revalidated_bytes = len(plain.get(args.revalidate_url).read())
    server.shutdown()
    if FixtureHandler.requests != 2 * len(SIZES):
        raise SystemExit(f"the hits reached the server: {FixtureHandler.requests} requests, {2 * len(SIZES)} stores")
    results["_versions"] = {"hishel": version("hishel"), "httpx": version("httpx"), "python": sys.version.split()[0]}
    results["_bytes"] = {**SIZES, "revalidated": revalidated_bytes}
    json.dump(results, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
