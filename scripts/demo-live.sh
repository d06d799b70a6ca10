#!/usr/bin/env bash
# make demo-live: `coordlens listen` with its live page stays up, and the sample apps stream into it one after another,
# again and again, until Ctrl-C. Open the printed address and watch the trees grow, leaks turn red and runs pile up.
set -euo pipefail
requested_port="${1:-0}"
pause="${2:-3}"
bin="$(swift build --show-bin-path)"
log="$(mktemp -t coordlens-demo-live.XXXXXX)"
samples=(DeliverooTraditionalSample XCoordinatorRouterSample BrowserTabsSample)

"$bin/coordlens" listen --port "$requested_port" --http-port 0 >"$log" 2>&1 &
listener=$!
trap 'kill $listener 2>/dev/null || true; rm -f "$log"; echo; echo "demo-live: stopped"' EXIT
trap 'exit 0' INT TERM
port=""
page=""
for _ in $(seq 1 100); do
  port="$(sed -n 's/^coordlens listening on .*:\([0-9][0-9]*\)$/\1/p' "$log")"
  page="$(sed -n 's/^Inspector: \(http:[^ ]*\).*$/\1/p' "$log" | head -n 1)"
  [ -n "$port" ] && [ -n "$page" ] && break
  sleep 0.1
done
[ -n "$port" ] && [ -n "$page" ] || { echo "coordlens listen did not start:" >&2; cat "$log" >&2; exit 1; }

echo "== the live page: $page"
echo "== hooks stream to 127.0.0.1:$port; replaying ${samples[*]} every ${pause} s until Ctrl-C"
round=0
while kill -0 "$listener" 2>/dev/null; do
  round=$((round + 1))
  for sample in "${samples[@]}"; do
    echo "   round $round: $sample"
    "$bin/$sample" --tcp "127.0.0.1:$port" >/dev/null
    sleep "$pause"
  done
done
echo "coordlens listen stopped:" >&2
cat "$log" >&2
exit 1
