#!/usr/bin/env python3
"""docs/performance.md, one section per benchmark: each benchmark replaces its own section, which
it writes whole, its figures and every sentence that quotes them, from what it measured in that
run. Text outside the sections holds no figures.

From python: `replace_section(path, "## Heading", text)`. From a shell script:

    printf '%s\\n' "$SECTION" | python3 Tools/bench/performance_doc.py docs/performance.md "## Heading"
"""
import os
import sys

INTRO = "# Performance\n\nBenchmarks of Fresh, each run side by side with a peer on the same machine in the same run.\n"


def replace_section(path, heading, section):
    """Replaces the section of `path` whose heading line is `heading`, up to the next `## ` line,
    by `section`; appends it when there is none (and creates the file when it is missing)."""
    text = open(path, encoding="utf-8").read() if os.path.exists(path) else INTRO
    lines = text.splitlines(keepends=True)
    section = section.strip("\n") + "\n"
    starts = [index for index, line in enumerate(lines) if line.rstrip("\n") == heading]
    if starts:
        start = starts[0]
        end = next((index for index in range(start + 1, len(lines)) if lines[index].startswith("## ")), len(lines))
        after = "".join(lines[end:])
        text = "".join(lines[:start]) + section + ("\n" + after if after else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: performance_doc.py FILE '## Heading' < section")
    replace_section(sys.argv[1], sys.argv[2], sys.stdin.read())
