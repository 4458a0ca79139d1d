"""Replacing one `## ` section of a markdown report (docs/performance.md), shared by the benchmarks."""
import os


def replace_section(path, heading, section):
    """Puts `section` (which starts with `heading`) in place of the section with that heading, or
    appends it when the file has none."""
    text = open(path).read() if os.path.exists(path) else "# Performance\n"
    start = text.find(heading)
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start] + section + ("" if end < 0 else text[end:])
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(path, "w").write(text)
