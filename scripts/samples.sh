#!/usr/bin/env bash
# make samples: builds every sample, records it through the real hook into samples/<name>/stream.ndjson, and writes
# next to it tree.svg and tree.png (coordlens render, released coordinators greyed) and report.txt (coordlens check).
# SWIFT_BUILD_FLAGS is passed to every swift build, for example "--scratch-path .build-samples".
set -euo pipefail
cd "$(dirname "$0")/.."
swift="${SWIFT:-swift}"
read -r -a flags <<<"${SWIFT_BUILD_FLAGS:-}"

# folder under samples/ : executable product
samples=(
  "ad-coordinator:ADCoordinatorSample"
  "deliveroo-traditional:DeliverooTraditionalSample"
  "deliveroo-inverted:DeliverooInvertedSample"
  "yui:YuiSample"
  "coordinator-sample:CoordinatorSampleStyle"
  "segue-slot:SegueSlotSample"
  "xcoordinator-router:XCoordinatorRouterSample"
  "rxflow-flow:RxFlowSample"
  "browser-tabs:BrowserTabsSample"
  "element-flows:ElementFlowsSample"
)

# One product per build: swift build takes a single --product.
"$swift" build "${flags[@]}" --product coordlens
for sample in "${samples[@]}" "checkout-fix:CheckoutFixSample"; do
  "$swift" build "${flags[@]}" --product "${sample#*:}"
done
bin="$("$swift" build "${flags[@]}" --show-bin-path)"

# The browser's fixed build, one recording per UI test (the library flow alone), and the baselines check compares with.
tabs="samples/browser-tabs"
"$bin/BrowserTabsSample" --fixed --file "$tabs/fixed.ndjson"
"$bin/BrowserTabsSample" --flow library --file "$tabs/flow-library.ndjson"

for sample in "${samples[@]}"; do
  dir="samples/${sample%%:*}"
  product="${sample#*:}"
  echo "== $product -> $dir"
  "$bin/$product" --file "$dir/stream.ndjson"
  "$bin/coordlens" render "$dir/stream.ndjson" -o "$dir/tree.svg" --show-released
  "$bin/coordlens" render "$dir/stream.ndjson" -o "$dir/tree.png" --show-released
  # check exits 1 when something is retained, which is what the leaking samples are for.
  status=0
  "$bin/coordlens" check "$dir/stream.ndjson" >"$dir/report.txt" || status=$?
  [ "$status" -le 1 ] || { echo "coordlens check failed on $dir/stream.ndjson (exit $status)" >&2; exit "$status"; }
  tail -n 1 "$dir/report.txt"
done

# The diff example: one checkout flow before and after its leak fix; the README and docs/CLI.md show diff.png.
dir="samples/checkout-fix"
echo "== CheckoutFixSample (before, then --fixed) -> $dir"
"$bin/CheckoutFixSample" --file "$dir/before.ndjson"
"$bin/CheckoutFixSample" --fixed --file "$dir/after.ndjson"
for format in svg png txt; do
  # diff exits 1 only when the second run adds a leak, which the fix must not.
  "$bin/coordlens" diff "$dir/before.ndjson" "$dir/after.ndjson" -o "$dir/diff.$format" --format "${format/txt/text}"
done
tail -n 1 "$dir/diff.txt"

# The browser's baselines: one from the leaking run (its share leak accepted), one from the fixed build (its counts).
"$bin/coordlens" baseline "$tabs/stream.ndjson" -o "$tabs/baseline.json"
"$bin/coordlens" baseline "$tabs/fixed.ndjson" -o "$tabs/fixed-baseline.json"
