#!/usr/bin/env bash
# Warm time stepping: build/bench/warm_steps (the masonry wall stepped through one
# fcsn::Solver, warm-started, tol 1e-8) at refine 1 (688 contacts) and refine 2 (2552 contacts),
# median seconds per step; with A=<other warm_steps binary>, A and this build alternate (A/B
# interleaved, same steps, same options) for --rounds rounds, so both see the same load.
#
# Usage: bench/warm_steps.sh [--rounds 2] [--steps 60] [--skip 21] [--refine2-steps 6]
#                            [--threads 1] [A=/path/to/old/build/bench/warm_steps]
#   e.g. bench/warm_steps.sh A=/tmp/warm_base/build/bench/warm_steps
#
# Steps 1..skip are not counted (step 1 pays the analysis and starts from rest; the gravity ramp's
# steps need one Newton iteration each). Refine 2 counts steps 2..refine2-steps (0: refine 2 not
# run; step 2 there alone takes ~1 min). The load average
# (uptime) is printed before each run: on a loaded machine compare the cpu column (process CPU
# time), and the A/B ratio of the same round. OPENBLAS_NUM_THREADS defaults to --threads (1).
set -euo pipefail

rounds=2
steps=60
skip=21
r2_steps=6
threads=1
old=
new="$(dirname "$0")/../build/bench/warm_steps"
while (($#)); do
  case $1 in
    --rounds) rounds=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --skip) skip=$2; shift 2 ;;
    --refine2-steps) r2_steps=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    A=*) old=${1#A=}; shift ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-$threads}

run() {  # label binary args...
  local label=$1 bin=$2
  shift 2
  echo "# $(uptime | sed 's/.*load/load/')  $label: $bin $*"
  "$bin" "$@" | grep -E "^n = |^  (setup|factorization|linear_solve|total) "
}

for ((k = 1; k <= rounds; ++k)); do
  for refine in 1 2; do
    ((refine == 2 && r2_steps < 2)) && continue
    if ((refine == 1)); then args=(--steps "$steps" --skip "$skip"); else
      args=(--refine 2 --steps "$r2_steps" --skip 1); fi
    [[ -n $old ]] && run "A round $k" "$old" "${args[@]}"
    run "B round $k" "$new" "${args[@]}"
  done
done
