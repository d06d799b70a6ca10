#!/usr/bin/env bash
# .ci/run: make's output with the seconds since the start before each line, then how long each phase took: a phase
# starts at a command make prints (a build, a test run, a check), so a fresh clone's run says where its time went
# (issue 53: builds were 800 s of 1,700). Usage: make test 2>&1 | scripts/phase-clock.sh
start=$SECONDS
# Make's silent recipes (installs, the PostgreSQL server) print `phase: TARGET` first; what comes before any phase is
# its own row.
phases=("(before the first phase)")
starts=(0)
while IFS= read -r line; do
  elapsed=$((SECONDS - start))
  printf '[%5ds] %s\n' "$elapsed" "$line"
  case "$line" in
    # The second lane's logs (scripts/beside.sh): their builds ran beside the phases, so they start none.
    "beside | "* | "beside: "*) ;;
    "swift build"* | "swift test"* | "swift format"* | "swift package"* | "python3 scripts/"* | ". .build/"* | "for suite"* | \
      "cd Tests/Browser"* | "bash scripts/"* | *"swift build --build-tests"* | *" swift test --skip-build"* | "docs: "* | \
      *"/actionlint "* | "phase: "*)
      phases+=("${line:0:110}")
      starts+=("$elapsed")
      ;;
  esac
done
end=$((SECONDS - start))
echo "== phases (seconds, each until the next began; $end s in all)"
for index in "${!phases[@]}"; do
  next=$end
  if [ $((index + 1)) -lt ${#phases[@]} ]; then next=${starts[$((index + 1))]}; fi
  printf '%6d  %s\n' $((next - starts[index])) "${phases[$index]}"
done
