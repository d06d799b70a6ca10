#!/usr/bin/env bash
# make lint: each module runs work one way (CONTRIBUTING.md, "Threads"); a thread, a pthread, a Dispatch queue or a
# concurrentPerform anywhere else than the places listed here fails the lint, naming the line.
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"

# file : why it may make a thread
allowed=(
  "Sources/CoordinatorWire/JobThread.swift"               # the one thread-maker the tools use: a job queue on a thread of its own
  "Sources/CoordinatorTrace/Writer/SessionWriter.swift"   # the hook's one writer thread (apps embed the hook alone)
  "Sources/CoordinatorTrace/API/Tracer.swift"             # on Apple platforms the retainer search is handed to the main queue
  "Sources/CoordinatorLens/Decoding/RegionDecoder.swift"  # the core's second reading thread (pthread: no Foundation on the hot path)
  "Sources/CoordinatorLens/Leaks/ParallelSummary.swift"   # the core's CPU-bound fan-out over cores
)

pattern='(^|[^A-Za-z_])Thread[[:space:]]*\{|Thread\(block|Thread\(target|pthread_create|DispatchQueue\(|DispatchQueue\.global|concurrentPerform|Task\.detached'
status=0
while IFS= read -r hit; do
  file="${hit%%:*}"
  skip=0
  for entry in "${allowed[@]}"; do [ "$file" = "$entry" ] && skip=1; done
  [ "$skip" = 1 ] && continue
  echo "$hit: a thread outside the places CONTRIBUTING.md allows (use JobThread, an event loop or NIOThreadPool)" >&2
  status=1
done < <(grep -rnE "$pattern" Sources --include='*.swift' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*///?')

# The server runs on ServerExecutors' loops and pool alone (CONTRIBUTING.md, "Threads"): another event loop group, pool,
# job thread or sleeping task there fails, naming the line. The recorder and the renderer keep a job thread each, made
# only when --record and --out ask for them: the first blocks on the disk, the second owns libgvc's big stack.
server_allowed=(
  "Sources/CoordinatorLensServer/ServerExecutors.swift"
  "Sources/CoordinatorLensServer/HookIntake/StreamRecorder.swift"
  "Sources/CoordinatorLensServer/Sessions/RenderQueue.swift"
)
server_pattern='MultiThreadedEventLoopGroup\(|NIOThreadPool\(|NIOThreadPool\.singleton|JobThread\(|Task[[:space:]]*\{|Task\.sleep|DispatchSource'
while IFS= read -r hit; do
  file="${hit%%:*}"
  skip=0
  for entry in "${server_allowed[@]}"; do [ "$file" = "$entry" ] && skip=1; done
  [ "$skip" = 1 ] && continue
  # Stopping may wait for connections to drain: the one sleep, and only while the server stops.
  case "$hit" in *ConnectionGate.swift*Task.sleep*) continue ;; esac
  echo "$hit: the server schedules work on ServerExecutors only (an event loop, the blocking pool or the judging lane)" >&2
  status=1
done < <(grep -rnE "$server_pattern" Sources/CoordinatorLensServer --include='*.swift' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*///?')
exit "$status"
