"""docs/performance.md, one section per benchmark: each benchmark replaces its own section."""
import os


def replace_section(path, heading, section):
    """Replaces the section of `path` that starts with `heading` by `section` (appended when absent)."""
    text = open(path).read() if os.path.exists(path) else "# Performance\n"
    start = text.find(heading)
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start] + section + ("" if end < 0 else text[end:])
    else:
        text = text.rstrip("\n") + "\n\n" + section
    open(path, "w").write(text)
