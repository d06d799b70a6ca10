#!/usr/bin/env bash
# make lint: shows commit-lint.sh catching a long subject and a missing blank line, in a throwaway clone of this
# checkout, and passing again once they are gone.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
git clone -q . "$scratch/clone"
cd "$scratch/clone"
git -c user.name=lint -c user.email=lint@example.invalid commit -q --allow-empty -m "A fine subject" -m "A body."
bash scripts/commit-lint.sh >/dev/null 2>&1 || { echo "commit-lint-selftest: a good commit was refused" >&2; exit 1; }
git -c user.name=lint -c user.email=lint@example.invalid commit -q --allow-empty \
  -m "A subject that goes on and on well past the seventy-two characters a subject may have"
if bash scripts/commit-lint.sh >"$scratch/out" 2>&1; then
  echo "commit-lint-selftest: a subject over 72 characters passed" >&2
  exit 1
fi
grep -q "subject of 85 characters" "$scratch/out" || { echo "commit-lint-selftest: unexpected output: $(cat "$scratch/out")" >&2; exit 1; }
printf 'Subject\nno blank line\n' >"$scratch/message"
if bash scripts/commit-msg "$scratch/message" 2>/dev/null; then
  echo "commit-lint-selftest: the hook took a body with no blank line" >&2
  exit 1
fi
echo "commit-lint-selftest: a long subject and a missing blank line are refused"
