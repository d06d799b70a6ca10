#!/usr/bin/env bash
# make lint: tests wait on events, not on the clock (CONTRIBUTING.md, "Before you push"). A sleep or fixed delay under
# Tests/ fails the lint, naming the line, unless it is in one of the shared wait helpers listed here, or a comment
# starting `clock:` on its line or the line before says why the time itself is what the test is about.
set -euo pipefail
cd "$(dirname "$0")/.."

# file : why it may sleep
allowed=(
  "Tests/TestSupport/WaitUntil.swift"   # waitUntil(seconds:): the Swift tests' one wait on a condition with a deadline
  "Tests/Browser/wait_until.py"         # wait_until(): the browser tests' one wait on a condition with a deadline
)

pattern='sleep\(|usleep|Thread\.sleep|Task\.sleep|asyncio\.sleep|time\.sleep|wait_for_timeout'
status=0
while IFS= read -r file; do
  skip=0
  for entry in "${allowed[@]}"; do [ "$file" = "$entry" ] && skip=1; done
  [ "$skip" = 1 ] && continue
  # A hit on a comment line is prose; a `clock:` comment on the hit's line or the one before excuses it.
  while IFS= read -r hit; do
    echo "$hit: a fixed delay in a test (wait on the event with waitUntil/wait_until, or say why the clock is tested with a clock: comment)" >&2
    status=1
  done < <(awk -v pattern="$pattern" -v file="$file" '
    $0 ~ pattern && $0 !~ /^[[:space:]]*(\/\/|#)/ && $0 !~ /(\/\/|#)[[:space:]]*clock:/ && previous !~ /(\/\/|#)[[:space:]]*clock:/ {
      print file ":" FNR ":" $0
    }
    { previous = $0 }' "$file")
done < <(grep -rlE "$pattern" Tests --include='*.swift' --include='*.py' | sort)
exit "$status"
