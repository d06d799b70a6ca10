#!/usr/bin/env bash
# Shows `make api-check` catching what a line-grepping check missed: Tracer.added gains a defaulted parameter on the
# second line of its signature, and a public enum (RetainerPath.Kind) gains a case. Edits the two files, runs the
# check (which must fail and name both), then puts the files back and checks again (which must pass).
set -euo pipefail
cd "$(dirname "$0")/.."
tracer=Sources/CoordinatorTrace/API/Tracer.swift
path=Sources/CoordinatorTrace/Retainers/RetainerPath.swift
backup="$(mktemp -d)"
cp "$tracer" "$path" "$backup/"
restore() { cp "$backup/Tracer.swift" "$tracer"; cp "$backup/RetainerPath.swift" "$path"; rm -rf "$backup"; }
trap restore EXIT

python3 - "$tracer" "$path" <<'PY'
import sys
tracer, path = sys.argv[1], sys.argv[2]
s = open(tracer).read()
old = "    public func added(\n        _ child: AnyObject, to parent: AnyObject?,\n"
assert old in s, "Tracer.added's signature moved; update this script"
open(tracer, "w").write(s.replace(old, "    public func added(\n        _ child: AnyObject, to parent: AnyObject?, quietly: Bool = false,\n", 1))
s = open(path).read()
old = "        case capturedVar = \"captured-var\"\n"
assert old in s, "RetainerPath.Kind moved; update this script"
open(path, "w").write(s.replace(old, old + "        case global\n", 1))
PY

status=0
output="$(make --no-print-directory api-check 2>&1)" || status=$?
echo "$output" | grep -E '^[-+][a-z]' || true
if [ "$status" = 0 ]; then echo "api-check-selftest: FAILED: the changed API passed the check" >&2; exit 1; fi
echo "$output" | grep -q 'added(_:to:quietly:file:line:function:filePath:)' || { echo "api-check-selftest: FAILED: the new parameter is not named" >&2; exit 1; }
echo "$output" | grep -q 'enum.case RetainerPath.Kind.global' || { echo "api-check-selftest: FAILED: the new case is not named" >&2; exit 1; }

restore
trap - EXIT
make --no-print-directory api-check >/dev/null
echo "api-check-selftest: the check failed on both changes, naming them, and passes on the real sources"
