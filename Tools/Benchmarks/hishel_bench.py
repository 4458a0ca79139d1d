#!/usr/bin/env python3
"""hishel (python's RFC 9111 cache for httpx) measured against the same fresh-mock servers as
the Swift benchmarks. Prints one JSON object: {name: {"median_us", "p99_us", "samples"}}.

Usage: hishel_bench.py --hit-url URL --revalidate-url URL [--seconds S]
  --hit-url         a resource served with max-age large enough to stay fresh (cache hits)
  --revalidate-url  a resource served with max-age=0 and an ETag (every reuse is a 304)
"""

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from importlib.metadata import version

import hishel
import httpx
from hishel.httpx import CacheClient


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


def checked(client, url, expect_from_cache, expect_revalidated):
    """One request through a hishel client, failing loudly if the cache did something else."""

    def operation():
        response = client.get(url)
        body = response.read()
        status = response.extensions.get("caching", {})
        if status.get("from_cache") != expect_from_cache or status.get("revalidated") != expect_revalidated:
            raise SystemExit(f"hishel did not do what was measured for {url}: {status}")
        return body

    return operation


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hit-url", required=True)
    parser.add_argument("--revalidate-url", required=True)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()

    results = {}
    with tempfile.TemporaryDirectory() as directory:
        file_storage = hishel.SqliteStorage(database_path=f"{directory}/hishel.db")
        memory_storage = hishel.SqliteStorage(connection=sqlite3.connect(":memory:", check_same_thread=False))
        options = hishel.CacheOptions(shared=False)
        with CacheClient(storage=file_storage, rfc=options) as file_client, \
                CacheClient(storage=memory_storage, rfc=options) as memory_client, \
                httpx.Client() as plain:
            for client in (file_client, memory_client):
                client.get(args.hit_url).read()          # stores it
                client.get(args.revalidate_url).read()   # stores it (max-age=0, ETag)
            results["hishel: fresh hit, SqliteStorage in :memory:"] = measure(
                checked(memory_client, args.hit_url, True, False), args.seconds)
            results["hishel: fresh hit, SqliteStorage on disk"] = measure(
                checked(file_client, args.hit_url, True, False), args.seconds)
            results["hishel: 304 revalidation, SqliteStorage on disk"] = measure(
                checked(file_client, args.revalidate_url, True, True), args.seconds)
            results["httpx: plain GET (no cache)"] = measure(
                lambda: plain.get(args.revalidate_url).read(), args.seconds)
    results["_versions"] = {"hishel": version("hishel"), "httpx": version("httpx"), "python": sys.version.split()[0]}
    json.dump(results, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
