#!/usr/bin/env bash
# make lint: shows scripts/api_release_check.py naming an added symbol as an addition and a removed one as a break
# against a fake release made from the committed dumps, failing while the version is the release's and passing once
# it is the next minor (0.x). No build: the committed api/*.txt stand for the tree's dump.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/releases/0.1.0" "$scratch/now"
cp api/*.txt "$scratch/now/"
cp api/*.txt "$scratch/releases/0.1.0/"
# The release had a symbol the tree no longer has, and the tree has one the release did not.
echo "func Tracer.removedSinceTheRelease(): func removedSinceTheRelease()" >>"$scratch/releases/0.1.0/CoordinatorTrace.txt"
echo "func Tracer.addedSinceTheRelease(): func addedSinceTheRelease()" >>"$scratch/now/CoordinatorTrace.txt"
echo 'public static let current = "0.1.0"' >"$scratch/same.swift"
echo 'public static let current = "0.2.0"' >"$scratch/next.swift"
if python3 scripts/api_release_check.py "$scratch/releases" "$scratch/now" "$scratch/same.swift" >"$scratch/out" 2>&1; then
  echo "api-release-selftest: a break passed at the release's own version" >&2
  exit 1
fi
grep -q "1 addition(s), 1 break(s)" "$scratch/out" || { echo "api-release-selftest: unexpected: $(cat "$scratch/out")" >&2; exit 1; }
grep -q "+ CoordinatorTrace: func Tracer.addedSinceTheRelease()" "$scratch/out" || { echo "api-release-selftest: the addition is not named" >&2; exit 1; }
grep -q -- "- CoordinatorTrace: func Tracer.removedSinceTheRelease()" "$scratch/out" || { echo "api-release-selftest: the break is not named" >&2; exit 1; }
python3 scripts/api_release_check.py "$scratch/releases" "$scratch/now" "$scratch/next.swift" >/dev/null \
  || { echo "api-release-selftest: a break was refused at the next minor version" >&2; exit 1; }
echo "api-release-selftest: an addition and a break are named apart; the break fails at 0.1.0 and passes at 0.2.0"
