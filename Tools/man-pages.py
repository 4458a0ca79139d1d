#!/usr/bin/env python3
"""Writes man pages for a program built with Swift ArgumentParser, from its own help.

    Tools/man-pages.py PROGRAM OUTPUT_DIR [--section 1]

PROGRAM is run with --experimental-dump-help (ArgumentParser's description of the whole command
tree, as JSON); each command gets a page: `fresh.1`, `fresh-sync.1`, `fresh-source-add.1`, …
with NAME, SYNOPSIS, DESCRIPTION (the discussion, its indented lines kept as they are), OPTIONS,
SUBCOMMANDS and SEE ALSO. So `man fresh-sync` says what `fresh sync --help` says, and the two
cannot drift: both come from the same declarations.
"""
import argparse
import json
import os
import subprocess
import sys


def escape(text):
    """Text safe in roff: backslashes doubled, a leading dot or quote kept literal."""
    text = text.replace("\\", "\\e")
    lines = []
    for line in text.split("\n"):
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def paragraphs(discussion):
    """The discussion as roff: flowing paragraphs, and runs of indented lines (tables,
    examples) kept as they are."""
    out = []
    for block in discussion.strip().split("\n\n"):
        out.append(".PP")
        run, literal = [], False
        for line in block.split("\n") + [None]:
            indented = line is not None and line.startswith(" ")
            if line is None or (run and indented != literal):
                out.append(".nf\n" + escape("\n".join(run)) + "\n.fi" if literal else escape(" ".join(run)))
                run = []
            if line is not None:
                run.append(line)
                literal = indented
    return "\n".join(out)


def option_label(argument):
    names = argument.get("names") or []
    flags = ", ".join(("-" if n["kind"] == "short" else "--") + n["name"] for n in names)
    value = argument.get("valueName")
    if argument["kind"] == "positional":
        return "<%s>" % value
    if argument["kind"] == "option" and value:
        return "%s <%s>" % (flags, value)
    return flags


def page(command, path, section):
    name = "-".join(path)
    lines = [
        '.TH "%s" "%s" "" "" "%s"' % (name.upper(), section, path[0]),
        ".SH NAME",
        "%s \\- %s" % (escape(name), escape(command.get("abstract", ""))),
        ".SH SYNOPSIS",
        ".B %s" % " ".join(path),
    ]
    shown = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)]
    lines.append(escape(" ".join("[%s]" % option_label(a) if a.get("isOptional") else option_label(a) for a in shown)))
    if command.get("discussion"):
        lines += [".SH DESCRIPTION", paragraphs(command["discussion"])]
    if shown:
        lines.append(".SH OPTIONS")
        for argument in shown:
            lines += [".TP", "\\fB%s\\fR" % escape(option_label(argument)), escape(argument.get("abstract", ""))]
    subcommands = [s for s in command.get("subcommands", []) if s.get("shouldDisplay", True) and s["commandName"] != "help"]
    if subcommands:
        lines.append(".SH SUBCOMMANDS")
        for sub in subcommands:
            lines += [".TP", "\\fB%s\\fR" % escape(sub["commandName"]), escape(sub.get("abstract", ""))]
    related = ["%s-%s(%s)" % (name, s["commandName"], section) for s in subcommands]
    if len(path) > 1:
        related.insert(0, "%s(%s)" % ("-".join(path[:-1]), section))
    if related:
        lines += [".SH SEE ALSO", ", ".join(related)]
    return "\n".join(lines) + "\n"


def write(command, path, directory, section, written):
    file = os.path.join(directory, "%s.%s" % ("-".join(path), section))
    with open(file, "w", encoding="utf-8") as handle:
        handle.write(page(command, path, section))
    written.append(file)
    for sub in command.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            write(sub, path + [sub["commandName"]], directory, section, written)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("program")
    parser.add_argument("directory")
    parser.add_argument("--section", default="1")
    options = parser.parse_args()
    dump = subprocess.run([options.program, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout
    root = json.loads(dump)["command"]
    os.makedirs(options.directory, exist_ok=True)
    written = []
    write(root, [root["commandName"]], options.directory, options.section, written)
    print("%d man pages for %s in %s" % (len(written), root["commandName"], options.directory))


if __name__ == "__main__":
    sys.exit(main())
