#!/usr/bin/env bash
# make lint: every commit since the rule's own (the one that added scripts/commit-msg) has a subject of at most 72
# characters and a blank line before its body; older history is left as it was. Names each commit that breaks it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "commit-lint: not a git checkout: no history to check" >&2
  exit 0
fi
rule="$(git log --diff-filter=A --format=%H -- scripts/commit-msg | tail -n 1)"
if [ -z "$rule" ]; then
  echo "commit-lint: scripts/commit-msg is not committed yet: nothing to check" >&2
  exit 0
fi
status=0
while IFS= read -r commit; do
  subject="$(git log -1 --format=%s "$commit")"
  second="$(git log -1 --format=%B "$commit" | sed -n 2p)"
  if [ "${#subject}" -gt 72 ]; then
    echo "commit-lint: $(git rev-parse --short "$commit"): subject of ${#subject} characters (at most 72): $subject" >&2
    status=1
  fi
  if [ -n "$second" ]; then
    echo "commit-lint: $(git rev-parse --short "$commit"): no blank line after the subject" >&2
    status=1
  fi
done < <(git rev-list "$rule~1..HEAD")
[ "$status" = 0 ] && echo "commit-lint: every commit since the rule's keeps it"
exit "$status"
