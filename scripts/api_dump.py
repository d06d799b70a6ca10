#!/usr/bin/env python3
"""The public API of each module users import, as the compiler sees it: reads the symbol graphs that
`swift package dump-symbol-graph --minimum-access-level public` writes and prints one line per public symbol
(owner-qualified path, kind, full declaration with labels) and per conformance, sorted, with no bodies.

    api_dump.py SYMBOLGRAPH_DIR OUT_DIR MODULE...

writes OUT_DIR/MODULE.txt for each module. `make api` copies them to api/, `make api-check` compares."""
import json
import os
import sys


def spelled(fragments):
    return "".join(fragment["spelling"] for fragment in fragments).replace("\n", " ")


def lines_for(module, graph_dir):
    files = [f for f in os.listdir(graph_dir) if f == f"{module}.symbols.json" or f.startswith(f"{module}@")]
    lines = set()
    for name in sorted(files):
        with open(os.path.join(graph_dir, name)) as handle:
            graph = json.load(handle)
        extended = "" if "@" not in name else f" (extends {name.split('@')[1].split('.symbols')[0]})"
        paths = {}
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            path = ".".join(symbol["pathComponents"])
            paths[symbol["identifier"]["precise"]] = path
            kind = symbol["kind"]["identifier"].replace("swift.", "")
            declaration = spelled(symbol.get("declarationFragments", []))
            lines.add(f"{kind} {path}{extended}: {declaration}")
        for relation in graph.get("relationships", []):
            source = paths.get(relation["source"])
            if source is None:
                continue
            target = paths.get(relation["target"]) or relation.get("targetFallback") or relation["target"]
            if relation["kind"] == "conformsTo":
                lines.add(f"conformance {source}: {target}")
            elif relation["kind"] == "inheritsFrom":
                lines.add(f"inherits {source}: {target}")
            elif relation["kind"] in ("requirementOf", "optionalRequirementOf"):
                lines.add(f"requirement {source} of {target}")
    return sorted(lines)


def main():
    graph_dir, out_dir, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    for module in modules:
        found = lines_for(module, graph_dir)
        if not found:
            sys.exit(f"api_dump: no public symbols for {module} in {graph_dir}")
        with open(os.path.join(out_dir, f"{module}.txt"), "w") as out:
            out.write("\n".join(found) + "\n")


if __name__ == "__main__":
    main()
