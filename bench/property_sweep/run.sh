#!/usr/bin/env bash
# The property sweep (bench/property_sweep/property_sweep.cc): builds it in build/ and prints the
# verdict table for N cases per family and policy, with the machine and commit it ran on.
#   bench/property_sweep/run.sh [N]      default 200 (6000 cases, 12000 solves)
set -euo pipefail
cd "$(dirname "$0")/../.."
cases=${1:-200}
cmake --build build -j2 --target property_sweep >/dev/null
echo "commit $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load before: $(uptime | sed 's/.*load average: //')"
start=$SECONDS
build/bench/property_sweep --cases "$cases"
echo
echo "wall $((SECONDS - start)) s; load after: $(uptime | sed 's/.*load average: //')"
