#!/usr/bin/env bash
# Installs Debian packages for a make target in one line of output: what it installs, then apt's own output in
# .build/apt-install.log (its last lines on the terminal only when it fails). apt-get update runs first, as a fresh
# machine needs it before its first install.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
mkdir -p .build
log=.build/apt-install.log
echo "Installing $* (apt's output: $log)"
if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive RUNLEVEL=1 $sudo apt-get install -y -qq --no-install-recommends "$@"; } >>"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "apt-install: installing $* failed (the whole output: $log)" >&2
  exit 1
fi
