#!/usr/bin/env python3
"""The public API of the tree against the last release's (api/releases/<version>/), module by module: what the tree
adds and what it breaks (a line of the release's dump that the tree no longer has: a symbol removed or its declaration
changed). Additions are fine in any release; a break needs the next major version (for 0.x: the next minor), so it
fails while PackageVersion.current is still compatible with that release.

    api_release_check.py RELEASES_DIR CURRENT_DIR PACKAGE_VERSION_SWIFT

Prints nothing to fix when there is no release yet."""
import os
import re
import sys


def version_key(name):
    return tuple(int(part) for part in name.split("."))


def main():
    releases, current, version_file = sys.argv[1:4]
    names = sorted((d for d in os.listdir(releases) if re.fullmatch(r"\d+\.\d+\.\d+", d)), key=version_key) if os.path.isdir(releases) else []
    if not names:
        print("api-check: no release in api/releases yet: nothing to compare with")
        return 0
    release = names[-1]
    with open(version_file) as handle:
        found = re.search(r'current = "(\d+)\.(\d+)\.(\d+)"', handle.read())
    if not found:
        print(f"api-check: no PackageVersion.current in {version_file}", file=sys.stderr)
        return 1
    now = tuple(int(part) for part in found.groups())
    then = version_key(release)
    # Semantic versioning: a break needs a new major; before 1.0 a new minor.
    breaks_allowed = now[0] > then[0] if then[0] > 0 else (now[0] > 0 or now[1] > then[1])
    additions, breaks = [], []
    for module in sorted(f for f in os.listdir(os.path.join(releases, release)) if f.endswith(".txt")):
        with open(os.path.join(releases, release, module)) as handle:
            old = set(line.rstrip("\n") for line in handle if line.strip())
        path = os.path.join(current, module)
        new = set()
        if os.path.exists(path):
            with open(path) as handle:
                new = set(line.rstrip("\n") for line in handle if line.strip())
        name = module[: -len(".txt")]
        additions += [f"  + {name}: {line}" for line in sorted(new - old)]
        breaks += [f"  - {name}: {line}" for line in sorted(old - new)]
    version = ".".join(map(str, now))
    print(f"api-check: {version} against release {release}: {len(additions)} addition(s), {len(breaks)} break(s)")
    for line in additions + breaks:
        print(line)
    if breaks and not breaks_allowed:
        print(
            f"api-check: {len(breaks)} break(s) of release {release}'s API while the version is {version}: keep the API, or "
            "raise PackageVersion.current to the next major (0.x: minor) version and say so in CHANGELOG.md",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
