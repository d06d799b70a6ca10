#!/usr/bin/env bash
# make demo: a sample app with a leaking flow streams to `coordlens listen` over TCP; the picture and the check report
# land in the folder this script names at the end.
set -euo pipefail
out="${1:-demo-output}"
# Port 0 (the default) lets the system pick a free port, so a running inspector or another demo cannot collide with
# this one; `make demo DEMO_PORT=7420` asks for a fixed one.
requested_port="${2:-0}"
bin="$(swift build --show-bin-path)"
rm -rf "$out"
mkdir -p "$out"

# The inspector page gets a free port too: the demo's listener exits once the sample ends, so `coordlens view` below is
# how to look at it in the browser afterwards.
"$bin/coordlens" listen --port "$requested_port" --http-port 0 --out "$out" --record "$out/stream.ndjson" --sessions 1 >"$out/listen.log" 2>&1 &
listener=$!
trap 'kill $listener 2>/dev/null || true' EXIT
port=""
page=""
for _ in $(seq 1 100); do
  port="$(sed -n 's/^coordlens listening on .*:\([0-9][0-9]*\)$/\1/p' "$out/listen.log")"
  page="$(sed -n 's/^Inspector: \(http:[^ ]*\).*$/\1/p' "$out/listen.log" | head -n 1)"
  [ -n "$port" ] && [ -n "$page" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "coordlens listen did not start:" >&2; cat "$out/listen.log" >&2; exit 1; }

echo "== coordlens listen on 127.0.0.1:$port; the live page: ${page:-(see $out/listen.log)}"
echo "   (it closes when this run ends; \`make demo-live\` keeps it up and replays the samples into it until Ctrl-C)"
echo "== running DeliverooTraditionalSample against it"
"$bin/DeliverooTraditionalSample" --tcp "127.0.0.1:$port"
wait $listener
trap - EXIT
cat "$out/listen.log"

run="$(basename "$(ls "$out"/*.svg | head -n 1)" .svg)"
mv "$out/$run.svg" "$out/tree.svg"
"$bin/coordlens" render "$out/stream.ndjson" -o "$out/tree.png"
status=0
"$bin/coordlens" check "$out/stream.ndjson" >"$out/report.txt" || status=$?
echo
echo "== coordlens check (exit $status: 1 means leaks were found, as this flow intends)"
cat "$out/report.txt"
echo
echo "Demo output in $out/: tree.svg and tree.png (retained coordinators in red), report.txt, stream.ndjson (replay it"
echo "with: $bin/coordlens check $out/stream.ndjson)."
echo "To explore it in the browser: $bin/coordlens view $out/stream.ndjson, then open http://127.0.0.1:7421/"
