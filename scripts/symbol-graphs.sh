#!/usr/bin/env bash
# make api-dump: the public symbol graphs of the modules named, read from the debug build's compiled modules with
# `swift symbolgraph-extract` (well under a second). `swift package dump-symbol-graph` built the package again with
# flags of its own, and the next `swift build` then recompiled every module of it: 200 s and 113 s of a fresh clone's
# `make test`. On macOS, where the SDK must be named too, the Makefile keeps dump-symbol-graph.
# Usage: scripts/symbol-graphs.sh OUT_DIR MODULE...   (after `swift build --build-tests`); SYMBOL_GRAPH_FLAGS adds
# symbolgraph-extract flags (scripts/docs.sh asks for extension blocks).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$1"
shift
swift="${SWIFT:-swift}"
bin="$("$swift" build --show-bin-path)"
triple="$(basename "$(dirname "$bin")")"
includes=(-I "$bin/Modules")
for c in Sources/C*/; do includes+=(-I "${c%/}"); done
for flag in $(pkg-config --cflags-only-I libgvc sqlite3 zlib 2>/dev/null); do includes+=(-Xcc "$flag"); done
rm -rf "$out"
mkdir -p "$out"
for module in "$@"; do
  if [ ! -f "$bin/Modules/$module.swiftmodule" ]; then
    echo "api: $bin/Modules/$module.swiftmodule is not built (swift build --build-tests first)" >&2
    exit 1
  fi
  "$swift" symbolgraph-extract -module-name "$module" "${includes[@]}" -target "$triple" -minimum-access-level public ${SYMBOL_GRAPH_FLAGS:-} -output-dir "$out"
done
