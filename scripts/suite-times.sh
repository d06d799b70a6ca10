#!/usr/bin/env bash
# make test: runs a test command (its arguments), keeps its output in .build/test-times/<name>.log, and prints after it
# the ten slowest suites with their times, so where `make test`'s minutes go is on every run's last screen.
# Usage: scripts/suite-times.sh NAME COMMAND [ARGS...]; exits with the command's status.
set -uo pipefail
name="$1"
shift
mkdir -p .build/test-times
log=".build/test-times/$name.log"
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# swift-testing: "✔ Suite Name passed after 1.234 seconds" (or failed); XCTest suites are few here and not listed.
times=$(grep -aE '^. Suite [^ ]+ (passed|failed) after [0-9.]+ seconds' "$log" |
  sed -E 's/^. Suite ([^ ]+) (passed|failed) after ([0-9.]+) seconds.*/\3 \1 \2/' | sort -rn)
if [ -n "$times" ]; then
  echo "== $name: the slowest suites (seconds; suites run in parallel, so they overlap)"
  echo "$times" | head -n 10 | awk '{ printf "  %8.1f  %s%s\n", $1, $2, ($3 == "failed" ? "  (failed)" : "") }'
  echo "  $(echo "$times" | wc -l | tr -d ' ') suites; every time in $log"
fi
exit "$status"
