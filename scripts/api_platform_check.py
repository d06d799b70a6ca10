#!/usr/bin/env python3
"""The public API a platform adds to (or lacks from) the committed Linux dump. api/*.txt is made on Linux, so the
symbols behind `#if canImport(SwiftUI)` and the like are not in it; api/apple/<Module>.txt lists them, one per line,
`+ ` for a symbol only that platform has and `- ` for one only Linux has (`#` starts a comment). On a Mac,
`make api-apple-check` dumps the API there and fails when its difference from api/*.txt is not exactly that list.

    api_platform_check.py COMMITTED_DIR DUMP_DIR PLATFORM_DIR [--write] MODULE...

--write rewrites PLATFORM_DIR's files from the dump (`make api-apple`), for a commit that says why."""
import os
import sys


def lines_of(path):
    if not os.path.exists(path):
        return []
    with open(path) as handle:
        return [line.rstrip("\n") for line in handle if line.strip() and not line.startswith("#")]


def difference(committed_dir, dump_dir, module):
    committed = set(lines_of(os.path.join(committed_dir, f"{module}.txt")))
    dumped = set(lines_of(os.path.join(dump_dir, f"{module}.txt")))
    return {f"+ {line}" for line in dumped - committed} | {f"- {line}" for line in committed - dumped}


def main():
    args = sys.argv[1:]
    write = "--write" in args
    args = [arg for arg in args if arg != "--write"]
    committed_dir, dump_dir, platform_dir, modules = args[0], args[1], args[2], args[3:]
    unexpected = []
    for module in modules:
        found = difference(committed_dir, dump_dir, module)
        path = os.path.join(platform_dir, f"{module}.txt")
        if write:
            if found:
                os.makedirs(platform_dir, exist_ok=True)
                with open(path, "w") as out:
                    out.write(f"# {module}: public symbols only this platform has (+) or only Linux has (-).\n")
                    out.write("\n".join(sorted(found)) + "\n")
            elif os.path.exists(path):
                os.remove(path)
            continue
        expected = set(lines_of(path))
        unexpected += [f"{line[0]} {module}: {line[2:]}  (not in {path})" for line in sorted(found - expected)]
        unexpected += [f"{line[0]} {module}: {line[2:]}  (in {path}, not in this dump)" for line in sorted(expected - found)]
    if write:
        print(f"api-platform: wrote {platform_dir}")
        return
    if unexpected:
        print("api-platform: this platform's public API differs from api/*.txt other than as listed:", file=sys.stderr)
        print("\n".join(unexpected), file=sys.stderr)
        print("if meant, run `make api-apple` on this platform and commit the files it writes", file=sys.stderr)
        sys.exit(1)
    print(f"api-platform: this platform's public API is api/*.txt with {platform_dir}'s differences")


if __name__ == "__main__":
    main()
