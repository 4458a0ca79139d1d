#!/usr/bin/env python3
"""Turns the rounds of one bench-cache run into a markdown table and writes it into docs/performance.md.

Reads, for every round, the percentile files of the Swift suite (ordo-one/benchmark, --format
histogramPercentiles, wall clock in nanoseconds) and the JSON of hishel_bench.py. Each row shows the
median of the rounds' medians and every round's median; ratios between fresh and a peer are taken
within each round and their median judged. Prints the section to stdout and replaces the section
"HTTP cache (fresh vs URLSession vs hishel)" of the document (other sections are left as they are;
the file is created if missing).
"""

import argparse
import glob
import json
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))
from performance_doc import replace_section  # noqa: E402

SECTION = "## HTTP cache (fresh vs URLSession vs hishel)"

# id -> description, in table order
SWIFT_ROWS = [
    ("fresh.memoryHit.1KB", "fresh: fresh hit, memory tier (TieredCacheStorage, warm), 1 KB"),
    ("fresh.sqliteHit.1KB", "fresh: fresh hit, SQLite (CacheDatabase, no memory tier), 1 KB"),
    ("fresh.sqliteHit.100KB", "fresh: fresh hit, SQLite (CacheDatabase, no memory tier), 100 KB"),
    ("fresh.memoryHit.1KB.isolated", "fresh: the memory-tier hit, 1 KB, one hit per sample"),
    ("fresh.sqliteHit.1KB.isolated", "fresh: the SQLite hit, 1 KB, one hit per sample"),
    ("fresh.sqliteHit.100KB.isolated", "fresh: the SQLite hit, 100 KB, one hit per sample"),
    ("fresh.store.100KB", "fresh: CacheDatabase.store, 100 KB"),
    ("fresh.revalidate304", "fresh: 304 revalidation (CachingClient + CurlTransport + tiered SQLite), loopback keep-alive"),
    ("fresh.plainGET", "fresh: plain GET of the same URL (CurlTransport, no cache)"),
    ("urlsession.uncachedGET", "URLSession: GET of the same URL, no cache"),
    ("urlsession.returnCacheDataDontLoad.1KB", "URLSession: `.returnCacheDataDontLoad` answered by a hand-stored URLCache entry, 1 KB"),
    ("urlsession.returnCacheDataDontLoad.100KB", "URLSession: `.returnCacheDataDontLoad` answered by a hand-stored URLCache entry, 100 KB"),
    ("urlsession.returnCacheDataDontLoad.1KB.isolated", "URLSession: the same, 1 KB, one request per sample"),
    ("urlsession.returnCacheDataDontLoad.100KB.isolated", "URLSession: the same, 100 KB, one request per sample"),
    ("urlsession.returnCacheDataDontLoad.disk.1KB", "URLSession: the same, URLCache without a memory tier (entry read from its disk store), 1 KB"),
    ("urlsession.returnCacheDataDontLoad.disk.100KB", "URLSession: the same, URLCache without a memory tier (entry read from its disk store), 100 KB"),
    ("urlcache.cachedResponse.memory.1KB", "URLCache.cachedResponse(for:), hand-stored entry in memory, 1 KB"),
    ("urlcache.cachedResponse.disk.1KB", "URLCache.cachedResponse(for:), hand-stored entry on disk, 1 KB"),
]
# id -> description of the rows measured once more, after the rounds, with the suite on one core.
PINNED_ROWS = [
    ("fresh.sqliteHit.100KB.isolated", "fresh: the SQLite hit, 100 KB, one hit per sample, suite pinned to one core"),
    ("urlsession.returnCacheDataDontLoad.100KB.isolated", "URLSession: the same 100 KB entry, one request per sample, suite pinned to one core"),
]
# hishel_bench.py's rows -> the fresh row each is compared with within each round, and its name.
HISHEL_ROWS = {
    "hishel: fresh hit, SqliteStorage in :memory:, 1 KB": ("fresh.sqliteHit.1KB", "fresh's SQLite hit, 1 KB"),
    "hishel: fresh hit, SqliteStorage on disk, 1 KB": ("fresh.sqliteHit.1KB", "fresh's SQLite hit, 1 KB"),
    "hishel: fresh hit, SqliteStorage on disk, 100 KB": ("fresh.sqliteHit.100KB", "fresh's SQLite hit, 100 KB"),
    "hishel: 304 revalidation, SqliteStorage on disk": ("fresh.revalidate304", "fresh's 304"),
    "httpx: plain GET (no cache)": (None, None),
}


# Rows measured as a custom metric of another benchmark (in ns), by the file name's ending:
# the 304 and the plain GET are timed in the same samples of fresh.revalidationPair.
PAIRED_ROWS = {
    "fresh.revalidate304": ".fresh.revalidationPair.revalidate304.histogram",
    "fresh.plainGET": ".fresh.revalidationPair.plainGET.histogram",
}

# How many µs one exported unit is, by the unit in the header: wall clock is exported in ns,
# custom metrics (ns) scaled to thousands (K) or millions (M).
UNITS_IN_US = {"(ns)": 0.001, "(K)": 1.0, "(M)": 1000.0}


def read_swift(directory):
    results = {}
    for path in glob.glob(os.path.join(directory, "*.histogram.percentiles.tsv")):
        name = os.path.basename(path)
        for benchmark_id, _ in SWIFT_ROWS:
            paired = PAIRED_ROWS.get(benchmark_id)
            if paired and paired in name or (not paired and (
                    f".{benchmark_id}.Time_(wall_clock)" in name or f".{benchmark_id}.wallClock" in name)):
                rows = {}
                with open(path) as handle:
                    header = handle.readline()
                    unit = next((us for marker, us in UNITS_IN_US.items() if marker in header), None)
                    if unit is None:
                        sys.exit(f"report.py: unknown unit in {path}: {header.strip()}")
                    for line in handle:
                        percentile, value = line.split("\t")
                        rows[int(percentile)] = float(value) * unit
                results[benchmark_id] = {"median_us": rows[50], "p99_us": rows[99]}
    return results


def combine(rounds):
    """{key: {"median_us", "p99_us", "rounds"}}: the median over the rounds of each figure, and
    every round's median, for the keys measured in at least one round."""
    combined = {}
    for key in {key for round_ in rounds for key in round_}:
        measured = [round_[key] for round_ in rounds if key in round_]
        combined[key] = {
            "median_us": statistics.median(row["median_us"] for row in measured),
            "p99_us": statistics.median(row["p99_us"] for row in measured),
            "rounds": [round_[key]["median_us"] if key in round_ else None for round_ in rounds],
        }
    return combined


def benchmark_version():
    """The ordo-one/benchmark version Package.swift pins."""
    text = open(os.path.join(HERE, "Package.swift")).read()
    match = re.search(r'ordo-one/benchmark", exact: "([^"]+)"', text)
    return match.group(1) if match else "(version not found in Package.swift)"


def fmt(us):
    if us is None:
        return "n/a"
    if us < 10:
        return f"{us:.2f} µs"
    if us < 1000:
        return f"{us:.1f} µs"
    return f"{us / 1000:.2f} ms"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--swift-dir", required=True, action="append", help="one per round, in order")
    parser.add_argument("--hishel-json", required=True, action="append", help="one per round, in order")
    parser.add_argument("--pinned-dir", help="the pinned pass (taskset -c 0), if it ran")
    parser.add_argument("--doc", required=True)
    parser.add_argument("--machine", required=True)
    parser.add_argument("--commands", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--url", required=True)
    args = parser.parse_args()

    swift_rounds = [read_swift(directory) for directory in args.swift_dir]
    hishel_rounds = []
    for path in args.hishel_json:
        with open(path) as handle:
            hishel_rounds.append(json.load(handle))
    versions = [round_.pop("_versions", {}) for round_ in hishel_rounds][0]
    body_bytes = [round_.pop("_bytes", {}) for round_ in hishel_rounds][0]
    swift, hishel = combine(swift_rounds), combine(hishel_rounds)
    # Both suites of a round, side by side: the rounds alternate which of the two runs first.
    rounds = [{**swift_round, **hishel_round} for swift_round, hishel_round in zip(swift_rounds, hishel_rounds)]
    round_count = len(swift_rounds)

    def byte_count(name):
        """The size hishel_bench.py measured for `name` ("1 KB", "100 KB", "revalidated")."""
        return f"{body_bytes[name]:,}" if name in body_bytes else "?"

    def per_round(row):
        return " ".join(fmt(value) for value in row["rounds"]) if row else "n/a"

    def median(key):
        row = swift.get(key) or hishel.get(key)
        return row["median_us"] if row else None

    urlcache_lookup = median("urlcache.cachedResponse.memory.1KB")
    plain_get = median("fresh.plainGET")
    verdicts = []

    def round_ratios(numerator, denominator):
        """numerator ÷ denominator within each round that measured both: figures taken minutes
        apart on a shared machine are compared with each other, not across rounds."""
        return [round_[numerator]["median_us"] / round_[denominator]["median_us"]
                for round_ in rounds if numerator in round_ and denominator in round_]

    def ratio_text(ratios, digits, suffix):
        """The median of the per-round ratios, then each round's when there are several."""
        text = f"{statistics.median(ratios):.{digits}f}{suffix}"
        if len(ratios) > 1:
            text += f" (rounds: {', '.join(f'{ratio:.{digits}f}' for ratio in ratios)})"
        return text

    def size_of(key):
        return "100KB" if ".100KB" in key else "1KB"

    def isolated_ratio(key):
        """The ratio of a one-hit-per-sample row to URLSession's path timed the same way, not judged."""
        speedups = round_ratios(f"urlsession.returnCacheDataDontLoad.{size_of(key)}.isolated", key)
        return f"URLSession cache path, one request per sample ÷ this = {ratio_text(speedups, 1, '×')} (not judged)" \
            if speedups else ""

    def hit_check(key, limit):
        """(target text, met text, ratio text) of a fresh hit."""
        value = median(key)
        parts, met = [], []
        if limit is not None:
            parts.append(f"≤ {fmt(limit)}")
            met.append(value is not None and value <= limit)
        size = size_of(key)
        parts.append(f"≥ 10× faster than URLSession's hand-stored {size.replace('KB', ' KB')} entry")
        speedups = round_ratios(f"urlsession.returnCacheDataDontLoad.{size}", key)
        speedup = statistics.median(speedups) if speedups else None
        met.append(speedup is not None and speedup >= 10)
        ratio = f"URLSession cache path ÷ this = {ratio_text(speedups, 1, '×')}" if speedups else "n/a"
        disk_speedups = round_ratios(f"urlsession.returnCacheDataDontLoad.disk.{size}", key)
        if "sqliteHit" in key and disk_speedups:
            ratio += f"; URLSession with a disk-only URLCache ÷ this = {ratio_text(disk_speedups, 1, '×')} (not judged)"
        if urlcache_lookup and value:
            ratio += f"; bare URLCache lookup ÷ this = {urlcache_lookup / value:.1f}×"
        ok = all(met)
        verdicts.append((key, ok))
        words = ["yes" if m else "**no (missed)**" for m in met]
        return " and ".join(parts), "; ".join(words), ratio

    table = ["| operation | median | p99 | target | met | ratio | median per round |",
             "|---|---:|---:|---|---|---|---|"]
    for key, description in SWIFT_ROWS:
        row = swift.get(key)
        median_us, p99 = (row["median_us"], row["p99_us"]) if row else (None, None)
        target, met, ratio = "—", "—", ""
        if key == "fresh.memoryHit.1KB":
            target, met, ratio = hit_check(key, 5)
        elif key == "fresh.sqliteHit.1KB":
            target, met, ratio = hit_check(key, 50)
        elif key == "fresh.sqliteHit.100KB":
            target, met, ratio = hit_check(key, None)
        elif key == "fresh.store.100KB":
            target = "≤ 0.5 ms"
            ok = median_us is not None and median_us <= 500
            verdicts.append((key, ok))
            met = "yes" if ok else "**no (missed)**"
        elif key == "fresh.revalidate304":
            target = "≤ 1.3× plain GET"
            factors = round_ratios(key, "fresh.plainGET")
            ok = bool(factors) and statistics.median(factors) <= 1.3
            verdicts.append((key, ok))
            met = "yes" if ok else "**no (missed)**"
            ratio = ratio_text(factors, 2, "× plain GET") if factors else "n/a"
        elif key.startswith("fresh.") and key.endswith(".isolated"):
            ratio = isolated_ratio(key)
        elif key == "urlsession.uncachedGET" and median_us and plain_get:
            ratio = f"{median_us / plain_get:.2f}× fresh's plain GET"
        if row is None:
            met = "**not measured**" if met != "—" else met
        table.append(f"| {description} | {fmt(median_us)} | {fmt(p99)} | {target} | {met} | {ratio} | {per_round(row)} |")
    pinned = read_swift(args.pinned_dir) if args.pinned_dir else {}
    for key, description in PINNED_ROWS:
        row = pinned.get(key)
        if row is None:
            continue
        ratio = ""
        peer = pinned.get(PINNED_ROWS[1][0])
        if key.startswith("fresh.") and peer:
            ratio = f"URLSession, pinned ÷ this = {peer['median_us'] / row['median_us']:.1f}× (not judged)"
        table.append(f"| {description} | {fmt(row['median_us'])} | {fmt(row['p99_us'])} | — | — | {ratio} | one pass |")
    for key, (fresh_key, fresh_name) in HISHEL_ROWS.items():
        row = hishel.get(key)
        ratios = []
        if key.startswith("hishel: 304"):
            ratios.append(("× httpx plain GET", round_ratios(key, "httpx: plain GET (no cache)")))
        if fresh_key:
            ratios.append((f"× {fresh_name}", round_ratios(key, fresh_key)))
        ratio = "; ".join(ratio_text(values, 1, suffix) for suffix, values in ratios if values)
        table.append(f"| {key} | {fmt(row['median_us']) if row else 'n/a'} | {fmt(row['p99_us']) if row else 'n/a'} | — | — | "
                     f"{ratio} | {per_round(row)} |")

    met_count = sum(1 for _, ok in verdicts if ok)
    missed = [key for key, ok in verdicts if not ok]
    summary = f"Targets met: {met_count} of {len(verdicts)}" + (f"; missed: {', '.join(missed)}." if missed else ".") \
        + " Hits are judged on batches of 1000 per sample; the one-per-sample ratios are shown but not judged (see below)."

    section = f"""{SECTION}

Run on {args.date}. Machine: {args.machine}. hishel {versions.get('hishel', '?')} on httpx {versions.get('httpx', '?')},
python {versions.get('python', '?')}. Network cases use fresh-mock (release build) on loopback, port chosen by the OS,
`--max-age 0`, for the GET / 304 URL `{args.url}` (a {byte_count('revalidated')}-byte post), the same for fresh, URLSession
and hishel; the server is stopped at the end. Hits, fresh's and hishel's, are of the same bytes: bodies of
{byte_count('1 KB')} and {byte_count('100 KB')} bytes with the same headers (fresh's stored by hand, hishel's from a loopback server
of its own process that no hit reaches). {round_count} round{'' if round_count == 1 else 's'}, one after the other, each running the whole Swift suite
and the whole hishel suite, the one that goes first alternating from round to round (odd rounds: Swift first).
A row's median and p99 are the medians over the rounds and the last column shows every round's median. Ratios
between two rows of the Swift suite, and between hishel and fresh, compare figures of the same round: each
round's ratio is listed, and their median is shown (and judged, for the targets). The ratios to the bare URLCache
lookup and to fresh's plain GET divide the medians over the rounds.

{chr(10).join(table)}

{summary}

What each row measures:
- Swift rows come from ordo-one/benchmark {benchmark_version()} (wall clock, measured between `startMeasurement()` and
  `stopMeasurement()`; p99 is the 99th percentile of the samples). Hits go through `CachingClient.send` with the
  default policy, so they include key building, Vary matching, freshness arithmetic and the `CacheDecision`; the
  transport behind them fails if touched.
- Hits, and URLSession's cache path they are judged against, are timed in samples of 1000 back-to-back requests
  and shown per request (their p99 is that of the samples' means). ordo-one starts each sample of an async
  benchmark in a new Task from a global dispatch queue while its own thread waits on a semaphore, so on a
  two-core machine one sample often runs on the other core than the one before, and a lone hit of a few
  microseconds starts with that core's caches cold. The "one hit per sample" and "one request per sample" rows
  keep that timing, cold caches included, and show their ratio without judging it. The two "pinned" rows run the
  100 KB ones once more after the rounds with the whole suite on one core (`taskset -c 0`), where no sample can
  change core: compare them with the batched row for what the change of core costs. Pinned, URLSession's path
  gets several times faster too, for another reason: each request hands work between URLSession's own threads,
  which costs far more across two virtual CPUs than on one; fresh's hit runs on the caller's thread. The targets
  are judged unpinned, the way both run on this machine. The two
  `URLCache.cachedResponse(for:)` rows are synchronous, which ordo-one runs on its own thread with no hand-off,
  so they stay one per sample. Every other row is one operation per sample.
- "SQLite, no memory tier" uses `CacheDatabase` itself as the storage, so every hit reads the row and rebuilds the
  `StoredResponse`.
- The store rotates over 64 keys and 65 bodies of 100 KB to 104 KB, so each store replaces an existing entry with a
  body of another size that differs in every byte (one transaction each).
- The 304 row stores the refreshed headers in both tiers, as `fresh get` does (the SQLite write is batched, see
  docs/http-caching.md); the plain GET is the same URL through `CurlTransport` alone, with kept-alive connections.
  The two are timed in the same samples (benchmark `fresh.revalidationPair`): each sample sends one 304 and one
  plain GET back to back, in an order that alternates from sample to sample, and records both times, so both rows
  come from the same seconds, traffic and noise. Their times are custom metrics, exported at 1 µs resolution.
- URLSession on Linux never writes URLCache itself, so its entry is stored by hand with
  `URLCache.storeCachedResponse`. "URLSession cache path" is `session.data(for:)` with
  `.returnCacheDataDontLoad` — the path a URLSession user takes; the two `cachedResponse(for:)` rows are the bare
  lookup below it. The ≥ 10× target is judged against the URLSession path with an entry of the same size kept in
  URLCache's memory, the fastest way URLSession answers, even for fresh's SQLite rows, which read storage with no
  memory tier. The like-for-like peer of those rows, a URLCache without a memory tier reading its disk store, is
  measured and its ratio shown, but not judged. The ratio to the bare in-memory lookup is shown too.
- hishel rows are python (`time.perf_counter_ns` per request, one request per sample, `hishel.httpx.CacheClient` with
  `rfc=CacheOptions(shared=False)`), each request checked to be a hit or a revalidation through its `caching`
  extension, and each hit to carry the whole body. Each is compared with the fresh row of the same storage and size
  (fresh's SQLite hit, without a memory tier, for hishel's SQLite in memory too), and the 304 with fresh's 304.

Commands (from the repository root):

```
{args.commands}
```
"""
    print(section)
    replace_section(args.doc, SECTION, section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
