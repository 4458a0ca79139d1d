#!/usr/bin/env python3
"""fresh get (a fresh cache hit) and fresh --help vs curl's plain GET of the same loopback URL,
timed as whole processes, interleaved in one run, so both see the same machine.

    python3 Tools/bench/get_bench.py --bin .build/release [--runs 200] [--write docs/performance.md]
                                     [--dynamic-bin DIR]   # also time a dynamically linked fresh

Each round starts every command once, in a shuffled order (seeded), and times it from spawn to
exit; the table gives the median and the 10th / 90th percentiles over the rounds. The origin is
fresh-mock (--max-age 3600, --quiet); fresh's cache is warmed first, so every `fresh get` is a
fresh hit that sends nothing. Start-up facts (dynamic libraries, binary size) are printed too.

`fresh` is timed as `make install` leaves it (Tools/install.sh into a temporary prefix: a stripped
copy), dropped from the page cache first, as after a restart. How a file was written decides how
the page cache holds it until then, and so the page faults of every start: the same program
written by `cp` started a fifth faster than as the linker or `strip` wrote it (924 against 985
faults, `perf stat`), and as read back from the disk it is the slowest of the three. The bench
takes that last state: it is the one a program is in for most of its life.
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from performance_doc import replace_section  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--runs", type=int, default=200)
parser.add_argument("--write", help="markdown file whose get section is replaced")
parser.add_argument("--dynamic-bin", help="directory of a `swift build -c release` fresh (without --static-swift-stdlib)")
args = parser.parse_args()
BIN = os.path.abspath(args.bin)
WORK = tempfile.mkdtemp(prefix="fresh-get-bench-")
SECTION = "## fresh get vs curl (whole processes)"
CURL_GET = "curl -s -o /dev/null URL (plain GET)"
FRESH_HIT = "fresh get -o /dev/null URL (fresh hit)"


def timed(command):
    """(wall-clock ms from spawn to exit, CPU ms: user + system) of one run."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{command} exited {os.waitstatus_to_exitcode(status)}")
    return elapsed * 1000, (usage.ru_utime + usage.ru_stime) * 1000


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def installed_fresh():
    """The path of `fresh` as `make install` puts it, under WORK."""
    prefix = os.path.join(WORK, "prefix")
    subprocess.run(["Tools/install.sh", "install", prefix, BIN], check=True, stdout=subprocess.DEVNULL)
    program = os.path.join(prefix, "bin", "fresh")
    # Out of the page cache, as after a restart: the first run reads it back as the kernel reads
    # any program, whatever wrote the file.
    os.sync()
    with open(program, "rb") as file:
        os.posix_fadvise(file.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
    return program


def main():
    fresh = installed_fresh()
    server = subprocess.Popen([f"{BIN}/fresh-mock", "--port", "0", "--max-age", "3600", "--quiet"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        base = server.stdout.readline().strip()
        url = f"{base}/posts?limit=20"
        db = os.path.join(WORK, "db")
        commands = {
            CURL_GET: ["curl", "-s", "-o", "/dev/null", url],
            FRESH_HIT: [fresh, "get", "-o", "/dev/null", url, "--db-dir", db],
            "fresh --help": [fresh, "--help"],
            "fresh --version": [fresh, "--version"],
            "curl --version (curl's start-up alone)": ["curl", "--version"],
        }
        if args.dynamic_bin:
            dynamic = os.path.join(os.path.abspath(args.dynamic_bin), "fresh")
            commands["fresh get, dynamically linked (fresh hit)"] = [dynamic, "get", "-o", "/dev/null", url, "--db-dir", db]
            commands["fresh --help, dynamically linked"] = [dynamic, "--help"]
        subprocess.run(commands[FRESH_HIT], check=True)
        explained = subprocess.run([fresh, "explain", url, "--db-dir", db], capture_output=True, text=True).stdout
        if "would answer from storage" not in explained:
            raise SystemExit(f"the cache is not warm: {explained}")
        samples = {name: [] for name in commands}
        cpu = {name: [] for name in commands}
        rng = random.Random(42)
        names = list(commands)
        for name in names:  # warm the page cache
            timed(commands[name])
        for _ in range(args.runs):
            rng.shuffle(names)
            for name in names:
                wall, used = timed(commands[name])
                samples[name].append(wall)
                cpu[name].append(used)
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(WORK, ignore_errors=True)
    report = render(samples, cpu)
    print(report)
    if args.write:
        replace_section(args.write, SECTION, report)


def render(samples, cpu):
    curl = statistics.median(samples[CURL_GET])
    hit = statistics.median(samples[FRESH_HIT])
    lines = [
        SECTION, "",
        f"Run on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: "
        f"`python3 Tools/bench/get_bench.py --bin .build/release --runs {args.runs}"
        f"{' --dynamic-bin DIR' if args.dynamic_bin else ''}` (release build as `make install` installs it, loopback "
        f"fresh-mock, {os.cpu_count()} cores shared with other work, curl {curl_version()}); every command "
        "started once per round in a shuffled order, times from spawn to exit.", "",
        f"Target: a fresh hit through the `fresh get` process takes at most the time of curl's plain GET of the same URL "
        f"(medians). **Met: {'yes' if hit <= curl else 'no'}** ({hit / curl:.2f}×: {hit:.1f} ms against {curl:.1f} ms).", "",
        "| command | median ms | p10 | p90 | × curl GET | CPU ms (user + sys, median) |",
        "|---|---|---|---|---|---|",
    ]
    for name, values in samples.items():
        median = statistics.median(values)
        lines.append(f"| `{name}` | {median:.1f} | {percentile(values, 0.1):.1f} | {percentile(values, 0.9):.1f} "
                     f"| {median / curl:.2f} | {statistics.median(cpu[name]):.0f} |")
    lines.append("")
    builds = [("fresh", BIN)] + ([("fresh, dynamically linked", os.path.abspath(args.dynamic_bin))] if args.dynamic_bin else [])
    for label, directory in builds:
        libraries = subprocess.run(["ldd", f"{directory}/fresh"], capture_output=True, text=True).stdout.splitlines()
        size = os.path.getsize(f"{directory}/fresh") / 1024 / 1024
        lines.append(f"- {label}: {size:.1f} MiB, {len(libraries)} shared objects (`ldd`)")
    curl_libraries = subprocess.run(["ldd", "/lib/x86_64-linux-gnu/libcurl.so.4"], capture_output=True, text=True).stdout.splitlines()
    lines.append(f"- libcurl is not among them: fresh opens it (and the {len(curl_libraries)} shared objects it needs, `ldd` of "
                 "libcurl.so.4) with dlopen on the first request, so a fresh hit, `--help` and `--version` never load it; "
                 "curl loads them all before its main.")
    lines.append("")
    return "\n".join(lines)


def curl_version():
    return subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.split()[1]


main()
