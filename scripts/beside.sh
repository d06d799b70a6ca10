#!/usr/bin/env bash
# `make test`'s second lane: builds that run at the lowest CPU priority beside the tests, in the order given, each
# taking the cycles the tests leave idle. On two cores that is little (the Postgres build took 573 s beside the browser
# tests and the Swift run, 251 s alone), but whatever it gets is taken off the wait that follows.
#   scripts/beside.sh start DIR TARGET...   make each TARGET in turn in the background (nice 19), one log each in DIR
#   scripts/beside.sh wait DIR TARGET       block until TARGET is built; print its log and time; fail as it failed
# A waiter blocks on a lock the lane holds for each target until that target ends (flock: no polling), and the lane
# takes every lock before `start` returns, so no wait can pass before its target has begun. The lane ends with the
# make that started it (a failed or interrupted `make test` leaves no build running).
set -euo pipefail
command=$1 dir=$2
shift 2

case "$command" in
lane)
    # The lane itself (started by `start` in a session of its own): lock every target, tell `start` through the fifo,
    # then make each in turn and let go of its lock when it ends. Its children get none of the lock descriptors, so a
    # process a build leaves behind cannot keep a target locked.
    # A session of its own is also an autogroup of its own where the kernel has them, and the scheduler shares the CPU
    # fairly between autogroups whatever their processes' nice: the lane took half the cores from the browser tests
    # (292 s instead of 180). The autogroup's own nice is what puts it behind.
    if [ -w /proc/self/autogroup ]; then echo 19 >/proc/self/autogroup 2>/dev/null || true; fi
    first_fd=20 index=0 closing=""
    for target in "$@"; do
        fd=$((first_fd + index))
        eval "exec $fd>\"$dir/$target.lock\""
        flock "$fd"
        closing+=" $fd>&-"
        index=$((index + 1))
    done
    echo ready >"$dir/ready"
    index=0
    for target in "$@"; do
        fd=$((first_fd + index))
        began=$SECONDS status=0
        eval "nice -n 19 ${MAKE:-make} --no-print-directory $target >\"$dir/$target.log\" 2>&1 $closing" || status=$?
        echo "$status $((SECONDS - began))" >"$dir/$target.result"
        eval "exec $fd>&-"
        index=$((index + 1))
        # A failed build fails its waiter; the targets after it are not built (their waiters say so).
        if [ "$status" != 0 ]; then break; fi
    done
    : >"$dir/finished"
    ;;
start)
    rm -rf "$dir" && mkdir -p "$dir"
    if [ "$(uname)" != Linux ] || ! command -v flock >/dev/null || ! command -v setsid >/dev/null; then
        # No flock or setsid (macOS): the same builds, one after another, before the tests.
        for target in "$@"; do
            began=$SECONDS status=0
            ${MAKE:-make} --no-print-directory "$target" >"$dir/$target.log" 2>&1 || status=$?
            echo "$status $((SECONDS - began))" >"$dir/$target.result"
            : >"$dir/$target.lock"
            if [ "$status" != 0 ]; then break; fi
        done
        exit 0
    fi
    mkfifo "$dir/ready"
    # The make above this script (make may run it through a shell that ends when it does): when that make goes (done,
    # failed or interrupted), the lane's whole session goes with it, unless the lane finished first.
    owner=$PPID
    while [ "$owner" -gt 1 ] && ! grep -qx "g\?make" "/proc/$owner/comm" 2>/dev/null; do
        owner=$(awk '{print $4}' "/proc/$owner/stat" 2>/dev/null || echo 1)
    done
    setsid "$0" lane "$dir" "$@" </dev/null >"$dir/lane.log" 2>&1 &
    lane=$!
    (
        tail --pid="$owner" -f /dev/null
        if [ ! -e "$dir/finished" ]; then kill -TERM -- "-$lane" 2>/dev/null || true; fi
    ) </dev/null >/dev/null 2>&1 &
    # `start` returns once the lane holds every lock: until then a waiter could pass a target not yet begun.
    read -r _ <"$dir/ready"
    echo "beside: $* building at the lowest priority beside the tests (logs in $dir)"
    ;;
wait)
    target=$1
    began=$SECONDS
    echo "phase: wait for $target (built beside the tests)"
    if [ ! -e "$dir/$target.lock" ]; then echo "beside: $target was never started in $dir" >&2; exit 1; fi
    # Without flock, `start` built everything before it returned: there is nothing to wait for.
    if command -v flock >/dev/null; then flock -s "$dir/$target.lock" true; fi
    if [ ! -e "$dir/$target.result" ]; then
        echo "beside: $target was not built: an earlier build in the lane failed (logs in $dir)" >&2
        exit 1
    fi
    read -r status took <"$dir/$target.result"
    # Indented so the phase clock keeps these lines out of its phases.
    sed 's/^/beside | /' "$dir/$target.log" | tail -n 25
    echo "beside: $target built in $took s beside the tests; waited $((SECONDS - began)) s for it"
    if [ "$status" != 0 ]; then
        echo "beside: $target FAILED (exit $status); its whole log: $dir/$target.log" >&2
        exit "$status"
    fi
    ;;
*)
    echo "usage: scripts/beside.sh start DIR TARGET... | wait DIR TARGET" >&2
    exit 2
    ;;
esac
