#!/usr/bin/env bash
# make docs on Linux: each target's DocC site from its catalog and the symbol graph of the debug build's module
# (scripts/symbol-graphs.sh, with extension blocks as swift-docc-plugin asks for them), with warnings as errors.
# Usage: scripts/docs.sh OUT_DIR TARGET...   (after `swift build --build-tests`)
set -euo pipefail
cd "$(dirname "$0")/.."
out="$1"
shift
docc="$(dirname "$(readlink -f "$(command -v "${SWIFT:-swift}")")")/docc"
[ -x "$docc" ] || docc="$(command -v docc)" || { echo "docs: no docc beside ${SWIFT:-swift} nor on PATH (it ships with the toolchain)" >&2; exit 1; }
mkdir -p "$out"
for target in "$@"; do
  echo "docs: $target"
  graphs=".build/docs-symbol-graphs/$target"
  SYMBOL_GRAPH_FLAGS=-emit-extension-block-symbols scripts/symbol-graphs.sh "$graphs" "$target"
  rm -rf "${out:?}/$target"
  "$docc" convert "Sources/$target/$target.docc" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$target" --fallback-bundle-identifier "$target" \
    --output-path "$out/$target" --transform-for-static-hosting --hosting-base-path "$target" --warnings-as-errors
done
