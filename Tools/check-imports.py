#!/usr/bin/env python3
"""Checks that every Swift target of Package.swift declares exactly what its files import, that
the module graph in docs/architecture.md is the manifest's, and that every dependency goes down
the layers docs/architecture.md names.

A module a file imports must be a declared dependency of its target (a target, or a product of a
package), not something reached through another target's dependencies; a declared dependency
must be imported by at least one file. Modules that ship with the toolchain (Foundation,
Dispatch, Glibc, Synchronization, Testing, ...) need no declaration. The Mermaid graph's arrows
(`A --> B`, a node written `id["label"]` standing for the target named label) must be exactly
the dependencies between the package's own non-test targets (support libraries under Tests/ are
test code too). The graph is the Mermaid block after the heading `## Appendix: the full module
graph`. The layers are the table after `### The layers` (`| N | name | `A`, `B` |`, 0 the lowest):
every non-test target is in exactly one, and imports only from layers below its own.

Reads the manifest with `swift package describe --type json`. Prints one line per problem and a
count; exits 1 when there is any.

    Tools/check-imports.py [PACKAGE_DIR]
"""
import json
import os
import re
import subprocess
import sys

TOOLCHAIN = {"Foundation", "FoundationNetworking", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Synchronization",
             "Testing", "XCTest", "Darwin", "_Concurrency", "Observation", "RegexBuilder"}
IMPORT = re.compile(r"^(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def imports(text: str) -> list:
    """The modules a Swift file imports: the import lines of its head (imports, comments and
    `#if` lines, before the first declaration)."""
    modules = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("//") or stripped.startswith("#"):
            continue
        match = IMPORT.match(stripped)
        if not match:
            break
        modules.append(match.group(1))
    return modules


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
    described = subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=root, capture_output=True, text=True)
    if described.returncode != 0:
        print(described.stderr.strip() or "swift package describe failed", file=sys.stderr)
        return 2
    package = json.loads(described.stdout)
    problems = []
    checked = 0
    executables = {target["name"] for target in package["targets"] if target["type"] == "executable"}
    for target in package["targets"]:
        if target.get("module_type") != "SwiftTarget":
            continue
        checked += 1
        # An executable a test target declares is one it runs (built beside it), not one it imports.
        declared = set(target.get("target_dependencies", [])) - (executables if target["type"] == "test" else set())
        declared |= set(target.get("product_dependencies", []))
        imported = {}
        for source in target.get("sources", []):
            path = os.path.join(root, target["path"], source)
            with open(path, encoding="utf-8") as file:
                for module in imports(file.read()):
                    imported.setdefault(module, os.path.relpath(path, root))
        for module, path in sorted(imported.items()):
            if module not in declared and module not in TOOLCHAIN and module != target["name"]:
                problems.append(f"{target['name']}: {path} imports {module}, which the target does not declare")
        for module in sorted(declared - set(imported)):
            problems.append(f"{target['name']}: declares {module}, which none of its files imports")
    problems += graph_problems(root, package)
    problems += layer_problems(root, package)
    for problem in problems:
        print(problem)
    print(f"import check: {checked} targets, {len(problems)} problem{'s' if len(problems) != 1 else ''}")
    return 1 if problems else 0


GRAPH_HEADING = "## Appendix: the full module graph"
LAYERS_HEADING = "### The layers"
LAYER_ROW = re.compile(r"^\|\s*(\d+)\s*\|[^|]*\|([^|]*)\|")


def own_dependencies(package: dict) -> dict:
    """Each non-test target of the package (support libraries under Tests/ are test code) and the
    package's own targets it depends on."""
    return {target["name"]: set(target.get("target_dependencies", [])) for target in package["targets"]
            if target["type"] != "test" and not target["path"].startswith("Tests/")}


def layer_problems(root: str, package: dict) -> list:
    """Targets missing from docs/architecture.md's layer table, and dependencies that do not go down."""
    with open(os.path.join(root, "docs", "architecture.md"), encoding="utf-8") as file:
        text = file.read()
    start = text.find(LAYERS_HEADING)
    if start < 0:
        return [f"docs/architecture.md: no '{LAYERS_HEADING}' table"]
    layer = {}
    for line in text[start:].splitlines()[1:]:
        if line.startswith("#"):
            break
        row = LAYER_ROW.match(line)
        if row:
            for name in re.findall(r"`([A-Za-z0-9_-]+)`", row.group(2)):
                layer[name] = int(row.group(1))
    dependencies = own_dependencies(package)
    problems = [f"docs/architecture.md: the layers do not place {name}" for name in sorted(set(dependencies) - set(layer))]
    problems += [f"docs/architecture.md: the layers place {name}, which is no target" for name in sorted(set(layer) - set(dependencies))]
    for name, uses in sorted(dependencies.items()):
        for used in sorted(uses):
            if name in layer and used in layer and layer[used] >= layer[name]:
                problems.append(f"{name} (layer {layer[name]}) depends on {used} (layer {layer[used]}): a module uses only layers below its own")
    return problems


NODE = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)(?:\["([^"]+)"\])?')


def graph_problems(root: str, package: dict) -> list:
    """The differences between docs/architecture.md's Mermaid graph and the manifest."""
    path = os.path.join(root, "docs", "architecture.md")
    with open(path, encoding="utf-8") as file:
        text = file.read()
    start = text.find("```mermaid", max(text.find(GRAPH_HEADING), 0))
    if GRAPH_HEADING not in text or start < 0:
        return [f"{os.path.relpath(path, root)}: no Mermaid graph after '{GRAPH_HEADING}'"]
    graph = text[start:text.find("```", start + 3)]
    labels, edges = {}, set()
    for line in graph.splitlines():
        if "-->" not in line:
            continue
        ends = []
        for side in line.split("-->"):
            node = NODE.search(side.strip())
            if node.group(2):
                labels[node.group(1)] = node.group(2)
            ends.append(node.group(1))
        edges.add((ends[0], ends[1]))
    drawn = {(labels.get(a, a), labels.get(b, b)) for a, b in edges}
    # Test targets, and the support libraries beside them under Tests/, are not modules of the graph.
    declared = {(name, dependency) for name, uses in own_dependencies(package).items() for dependency in uses}
    problems = [f"docs/architecture.md: the graph lacks {a} --> {b}" for a, b in sorted(declared - drawn)]
    problems += [f"docs/architecture.md: the graph shows {a} --> {b}, which Package.swift does not declare" for a, b in sorted(drawn - declared)]
    return problems


if __name__ == "__main__":
    sys.exit(main())
