#!/usr/bin/env python3
"""Runs the examples of the documentation and checks the output they show.

    Tools/docs-check.py --bin DIR [--timeout SECONDS] [--show] [FILES...]

DIR holds the programs (fresh, fresh-mock, fresh-reader: `.build/debug` after `make build`).
FILES default to README.md and docs/*.md of the repository (this script's parent's parent).

What runs
---------
A fenced block whose info string is exactly `sh` is run; `sh no-run`, any other language and a
block without one are only shown. Mark `no-run` what cannot run here: other hosts
(api.example.com), interactive programs (fresh-reader on a terminal, `make demo`), long
benchmarks (`make bench…`), and `make build` / `make test` themselves.

Each document runs top to bottom in one bash session of its own, as a reader following along
would: variables and functions carry from block to block. The session starts in the
repository root, with setsid (a session and process group of its own), HOME, TMPDIR and XDG_*
in a new temporary directory, FRESH_HOME unset, no terminal (stdin is /dev/null, the output a
file), TERM=dumb, NO_COLOR=1, LC_ALL=C.UTF-8, and DIR first in PATH: a DEBUG trap (with
`set -T`) puts DIR back in front before every command, so a document's own
`export PATH="$PWD/.build/debug:$PATH"` cannot make it test other programs. The document's last
step must stop what it started (a server: `coproc MOCK { exec fresh-mock …; }`, later
`kill $MOCK_PID`; without `exec`, the kill stops only the coproc's subshell); a process of the
session still running 5 s after it fails that step. Then the whole process group is killed
and the directory removed.

Steps and expected output
-------------------------
Inside a block, consecutive command lines form a step: comments, blank lines, `for` loops and
`\\` continuations included. A step ends where a run of expected-output lines begins, or where
the block ends. Expected output follows the step as comment lines `#> TEXT` (a bare `#>` is an
empty line):

    fresh sync "$URL/posts?limit=20"
    #> synced posts: 5 pages, 100 items (100 new, …); 5 requests: …
    fresh items nope
    #> fresh: no collection is called 'nope' (see 'fresh collections')
    #> [exit 64]

A step's stdout and stderr are captured together (`2>&1`, in the order written). When the step
shows output, the output must match it; when it shows none, only its exit status is checked.
The status must be 0, unless the last shown line is `#> [exit N]`: then it must be N. A step
has --timeout seconds (default 60); one that takes longer fails, and the document stops there
(its remaining steps count as failed).

Matching
--------
Both sides are normalised, line by line, before they are compared:

  - `127.0.0.1:<digits>` becomes `127.0.0.1:PORT`;
  - dates and times become `DATE` and `TIME`: ISO 8601 stamps (`2026-11-23T20:55:56.376Z`),
    `2026-11-23 22:46`, HTTP dates (`Mon, 01 Jan 2024 20:55:26 GMT`), `HH:MM:SS`;
  - sizes and byte counts become `SIZE`: `9622 bytes`, `840 B`, `40.4 KiB`, `(58423 decoded)`;
  - durations become `DURATION`: `0.41 s`, `12 ms`, `0.75ms`, `6.50 µs`;
  - runs of spaces become one space; trailing white space (the CR of HTTP header lines
    included) and trailing empty lines are dropped.

In the expected output, `…` matches any text within its line (nothing included). A mismatch
prints the document, the line, the command and a unified diff of what was expected and what
came (both normalised). The last line says `docs-check: N steps in M documents, P passed,
F failed`; the exit status is 1 when a step failed, 64 for invalid arguments. `--show` also
prints every step's output, raw, as `#>` lines: what to paste under a new example once it has
been read and found right.
"""
import argparse
import difflib
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FENCE = re.compile(r"^( *)(`{3,})(.*)$")
EXIT_LINE = re.compile(r"^\[exit (\d+)\]$")

# (pattern, replacement), applied in order to each line of both sides.
NORMALISATIONS = [
    (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:PORT"),
    (re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?"), "DATE"),
    (re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) "
                r"\d{4} \d\d:\d\d:\d\d GMT\b"), "DATE"),
    (re.compile(r"\b\d{4}-\d\d-\d\d\b"), "DATE"),
    (re.compile(r"\b\d\d?:\d\d(?::\d\d)?\b"), "TIME"),
    (re.compile(r"\b\d+(?:\.\d+)? ?(?:bytes|B|KiB|MiB|GiB|kB|KB|MB|GB)\b"), "SIZE"),
    (re.compile(r"\(\d+ decoded\)"), "(SIZE decoded)"),
    (re.compile(r"\b\d+(?:\.\d+)? ?(?:s|ms|µs|us)(?![\w])"), "DURATION"),
    (re.compile(r" {2,}"), " "),
]


def normalise(text):
    """The lines of `text` with the rules above applied, trailing white space and empty lines dropped."""
    lines = []
    for line in text.split("\n"):
        for pattern, replacement in NORMALISATIONS:
            line = pattern.sub(replacement, line)
        lines.append(line.rstrip(" \t\r"))
    while lines and lines[-1] == "":
        lines.pop()
    return lines


def line_matches(expected, actual):
    """`expected` (normalised, `…` matching any text) against `actual` (normalised)."""
    if "…" not in expected:
        return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("…"))
    return re.fullmatch(pattern, actual) is not None


def output_matches(expected_lines, actual_lines):
    return len(expected_lines) == len(actual_lines) and all(
        line_matches(e, a) for e, a in zip(expected_lines, actual_lines))


class Step:
    def __init__(self, document, line, code):
        self.document = document
        self.line = line          # first line of the step in the document (1-based)
        self.code = code          # the command lines
        self.expected = []        # the shown output lines, without the `#> ` prefix
        self.status = 0           # the exit status required

    def has_command(self):
        return any(l.strip() and not l.lstrip().startswith("#") for l in self.code)


class DocumentError(Exception):
    pass


def steps_of(path, display):
    """The steps of the runnable blocks of a Markdown file, in order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    steps = []
    i = 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        indent, ticks, info = len(fence.group(1)), fence.group(2), fence.group(3).strip()
        start = i
        i += 1
        body = []
        while i < len(lines):
            closing = FENCE.match(lines[i])
            if closing and closing.group(2).startswith(ticks) and not closing.group(3).strip():
                break
            body.append((i + 1, lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i].lstrip()))
            i += 1
        else:
            raise DocumentError(f"{display}:{start + 1}: the block is not closed")
        i += 1
        if info != "sh":
            continue
        step = None
        in_output = False
        for number, text in body:
            if text.startswith("#>"):
                if step is None or not step.has_command():
                    raise DocumentError(f"{display}:{number}: expected output with no command before it")
                step.expected.append(text[3:] if text.startswith("#> ") else text[2:])
                in_output = True
            else:
                if step is None or in_output:
                    if step is not None and step.has_command():
                        steps.append(step)
                    step = Step(display, number, [])
                    in_output = False
                step.code.append(text)
        if step is not None and step.has_command():
            steps.append(step)
    for step in steps:
        if step.expected and EXIT_LINE.match(step.expected[-1].strip()):
            step.status = int(EXIT_LINE.match(step.expected[-1].strip()).group(1))
            step.expected.pop()
        while step.code and not step.code[-1].strip():
            step.code.pop()
    return steps


class Session:
    """One bash process running a document's steps one after the other."""

    def __init__(self, bin_dir):
        self.scratch = tempfile.mkdtemp(prefix="docs-check.")
        home = os.path.join(self.scratch, "home")
        tmp = os.path.join(self.scratch, "tmp")
        for d in (home, tmp, os.path.join(self.scratch, "steps")):
            os.makedirs(d)
        env = {
            "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "TMPDIR": tmp,
            "XDG_CACHE_HOME": os.path.join(home, ".cache"),
            "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
            "XDG_CONFIG_HOME": os.path.join(home, ".config"),
            "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
            "XDG_RUNTIME_DIR": os.path.join(self.scratch, "run"),
            "TERM": "dumb",
            "NO_COLOR": "1",
            "LC_ALL": "C.UTF-8",
            "LANG": "C.UTF-8",
            "DOCS_CHECK_BIN": bin_dir,
        }
        for name in ("USER", "LOGNAME", "SHELL", "BUILT"):  # BUILT: `make install` in a doc need not build
            if name in os.environ:
                env[name] = os.environ[name]
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
        self.status_read, status_write = os.pipe()
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc", "-s"], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # setsid(2): the session's processes form one group
            pass_fds=(status_write,), close_fds=True)
        os.close(status_write)
        self.status_fd = status_write
        self.process.stdin.write(
            b"set -T; trap 'case $PATH in \"$DOCS_CHECK_BIN\":*) ;; *) PATH=\"$DOCS_CHECK_BIN:$PATH\" ;; esac' DEBUG\n")
        self.count = 0
        self.pending = b""

    def run(self, step, timeout):
        """(exit status, output text), or (None, output so far) after the timeout."""
        self.count += 1
        code_path = os.path.join(self.scratch, "steps", f"{self.count}.sh")
        out_path = os.path.join(self.scratch, "steps", f"{self.count}.out")
        with open(code_path, "w", encoding="utf-8") as f:
            f.write("\n".join(step.code) + "\n")
        command = (f". '{code_path}' > '{out_path}' 2>&1 < /dev/null; "
                   f"echo \"{self.count} $?\" >&{self.status_fd}\n")
        try:
            self.process.stdin.write(command.encode())
            self.process.stdin.flush()
        except BrokenPipeError:
            return None, "(the shell has exited)"
        status = self.wait_for(self.count, time.monotonic() + timeout)
        try:
            with open(out_path, encoding="utf-8", errors="replace") as f:
                return status, f.read()
        except FileNotFoundError:
            return status, ""

    def wait_for(self, number, deadline):
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                got, status = line.decode().split()
                if int(got) == number:
                    return int(status)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.status_read], [], [], min(remaining, 0.2))
            if ready:
                chunk = os.read(self.status_read, 4096)
                if not chunk:
                    return None
                self.pending += chunk
            elif self.process.poll() is not None:  # the shell exited (`exit` in a step)
                return None

    def leftovers(self, wait):
        """The processes of the session's group other than the shell itself (what a document
        started and did not stop), after waiting up to `wait` seconds for them to end."""
        deadline = time.monotonic() + wait
        while True:
            found = []
            for entry in os.listdir("/proc"):
                if not entry.isdigit() or int(entry) == self.process.pid:
                    continue
                try:
                    with open(f"/proc/{entry}/stat") as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    if int(fields[2]) != self.process.pid or fields[0] == "Z":
                        continue
                    with open(f"/proc/{entry}/cmdline", "rb") as f:
                        found.append(f"{entry} " + f.read().replace(b"\0", b" ").decode(errors="replace").strip())
                except (OSError, IndexError, ValueError):
                    continue
            if not found or time.monotonic() >= deadline:
                return found
            time.sleep(0.1)

    def close(self):
        """Kills the session's process group, waits for it to go, removes the directory."""
        try:
            self.process.stdin.close()
        except OSError:
            pass
        pgid = self.process.pid
        for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 3.0)):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                self.process.poll()
                try:
                    os.killpg(pgid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.05)
            else:
                continue
            break
        self.process.wait()
        os.close(self.status_read)
        shutil.rmtree(self.scratch, ignore_errors=True)


def report_failure(step, why, expected, actual):
    print(f"FAIL {step.document}:{step.line}: {why}")
    print("  $ " + "\n    ".join(l for l in step.code))
    if expected is not None:
        diff = difflib.unified_diff(expected, actual, "expected", "actual", lineterm="", n=3)
        for line in diff:
            print("  " + line)
    elif actual:
        print("  output:")
        for line in actual[-40:]:
            print("  | " + line)
    print()


def show(step, status, output):
    print(f"{step.document}:{step.line}")
    for line in step.code:
        print(line)
    lines = output.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        print(("#> " + line).rstrip() if line else "#>")
    if status:
        print(f"#> [exit {status}]")
    print()


def check_document(path, display, bin_dir, timeout, show_output=False):
    """(steps, passed) of one document; prints each failure."""
    try:
        steps = steps_of(path, display)
    except (DocumentError, OSError, UnicodeDecodeError) as error:
        print(f"FAIL {error}\n")
        return 1, 0
    if not steps:
        print(f"{display}: no runnable examples")
        return 0, 0
    passed = 0
    session = Session(bin_dir)
    try:
        for index, step in enumerate(steps):
            status, output = session.run(step, timeout)
            actual = normalise(output)
            if show_output:
                show(step, status, output)
            if status is None:
                left = len(steps) - index - 1
                why = ("the shell exited" if session.process.poll() is not None
                       else f"no exit status after {timeout:g} s (hung)")
                why = (why
                       + (f"; the document's {left} remaining steps are not run" if left else ""))
                report_failure(step, why, None, actual)
                break
            expected = normalise("\n".join(step.expected)) if step.expected else None
            problems = []
            if status != step.status:
                problems.append(f"exit status {status}, expected {step.status}")
            if expected is not None and not output_matches(expected, actual):
                problems.append("the output differs")
            if index == len(steps) - 1 and not problems:
                left = session.leftovers(wait=5)
                if left:
                    problems.append("processes the document started are still running after its last step: "
                                    + "; ".join(left))
            if problems:
                report_failure(step, "; ".join(problems), expected, actual)
            else:
                passed += 1
    finally:
        session.close()
    print(f"{display}: {len(steps)} steps, {passed} passed, {len(steps) - passed} failed")
    return len(steps), passed


def main():
    parser = argparse.ArgumentParser(
        description="Run the documentation's `sh` examples and compare the output they show.")
    parser.add_argument("--bin", required=True, help="directory of fresh, fresh-mock and fresh-reader")
    parser.add_argument("--timeout", type=float, default=60, help="seconds a step may take (default 60)")
    parser.add_argument("--show", action="store_true", help="print every step's output as #> lines")
    parser.add_argument("files", nargs="*", help="Markdown files (default: README.md docs/*.md)")
    try:
        args = parser.parse_args()
    except SystemExit as exit:
        sys.exit(64 if exit.code else 0)
    bin_dir = os.path.abspath(args.bin)
    if not os.path.isdir(bin_dir):
        print(f"docs-check: --bin {args.bin} is not a directory", file=sys.stderr)
        sys.exit(64)
    if args.files:
        files = [os.path.abspath(f) for f in args.files]
    else:
        docs = os.path.join(ROOT, "docs")
        files = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    total = passed = 0
    for path in files:
        display = os.path.relpath(path, ROOT) if path.startswith(ROOT + os.sep) else path
        steps, ok = check_document(path, display, bin_dir, args.timeout, args.show)
        total += steps
        passed += ok
        sys.stdout.flush()
    failed = total - passed
    print(f"docs-check: {total} steps in {len(files)} documents, {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
