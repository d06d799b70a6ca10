#!/usr/bin/env bash
# make lint: shows scripts/api_platform_check.py, which the macOS workflow runs on the API dumped there, accepting a
# dump that is api/*.txt with api/apple/'s differences, naming a symbol that list lacks, and naming a listed one the
# dump lacks. No build: the committed files stand for the Mac's dump.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
modules=$(cd api && ls -- *.txt | sed 's/\.txt$//')
# A Mac's dump as api/apple/ says it is: the Linux lines, less the "- " ones, with the "+ " ones.
mkdir -p "$scratch/mac"
for module in $modules; do
  listed="api/apple/$module.txt"
  if [ -f "$listed" ]; then
    grep -vxF -f <(sed -n 's/^- //p' "$listed") "api/$module.txt" >"$scratch/mac/$module.txt" || true
    sed -n 's/^+ //p' "$listed" >>"$scratch/mac/$module.txt"
  else
    cp "api/$module.txt" "$scratch/mac/"
  fi
done
# shellcheck disable=SC2086
python3 scripts/api_platform_check.py api "$scratch/mac" api/apple $modules >/dev/null \
  || { echo "api-platform-selftest: a dump that is exactly api/ with api/apple/'s lines was refused" >&2; exit 1; }
cp -r "$scratch/mac" "$scratch/extra"
echo "func Tracer.onlyOnTheMac(): func onlyOnTheMac()" >>"$scratch/extra/CoordinatorTrace.txt"
# shellcheck disable=SC2086
if python3 scripts/api_platform_check.py api "$scratch/extra" api/apple $modules >"$scratch/out" 2>&1; then
  echo "api-platform-selftest: a symbol api/apple/ does not list passed" >&2
  exit 1
fi
grep -qF "+ CoordinatorTrace: func Tracer.onlyOnTheMac()" "$scratch/out" \
  || { echo "api-platform-selftest: the unlisted symbol is not named: $(cat "$scratch/out")" >&2; exit 1; }
cp api/CoordinatorTrace.txt "$scratch/mac/CoordinatorTrace.txt"
# shellcheck disable=SC2086
if python3 scripts/api_platform_check.py api "$scratch/mac" api/apple $modules >"$scratch/out" 2>&1; then
  echo "api-platform-selftest: a dump without coordinatorScreen passed" >&2
  exit 1
fi
grep -qF "coordinatorScreen" "$scratch/out" \
  || { echo "api-platform-selftest: the missing Apple symbol is not named: $(cat "$scratch/out")" >&2; exit 1; }
echo "api-platform-selftest: api/apple/'s differences pass; an unlisted symbol and a missing listed one are named"
