#!/usr/bin/env bash
# make lint: shows thread-lint.sh refusing a new thread pool and a new Thread {} in the server, naming their lines, in
# a throwaway copy of Sources, and passing that copy as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cp -r Sources "$scratch/Sources"
bash scripts/thread-lint.sh "$scratch" >/dev/null 2>&1 || { echo "thread-lint-selftest: today's Sources were refused" >&2; exit 1; }
cat >"$scratch/Sources/CoordinatorLensServer/Extra.swift" <<'SWIFT'
import NIOPosix
let extraPool = NIOThreadPool(numberOfThreads: 1)
let extraThread = Thread { }
SWIFT
if bash scripts/thread-lint.sh "$scratch" >"$scratch/out" 2>&1; then
  echo "thread-lint-selftest: a new pool and thread in the server passed" >&2
  exit 1
fi
for line in 2 3; do
  grep -q "Extra.swift:$line:" "$scratch/out" || { echo "thread-lint-selftest: line $line not named: $(cat "$scratch/out")" >&2; exit 1; }
done
echo "thread-lint-selftest: a new pool and a new thread in the server are refused"
