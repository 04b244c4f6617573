#!/usr/bin/env bash
# masonry_wall --extrapolate-guess (fcsn::ExtrapolateGuess: step k starts from
# 2 x_{k-1} - x_{k-2}): on the coarse wall's shear ramp (steps 23-40) every step
# converges (exit 0) and the Newton iterations summed over those steps are fewer
# than from the previous solution (55 against 61 when this test was written;
# 688-contact wall: mean 3.9 against 4.6 per step, bench/results/warm_steps.md).
# A flag that did not reach the solve gives equal sums and fails.
# Usage: masonry_wall_extrapolate.sh MASONRY_WALL
set -euo pipefail
masonry_wall=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Newton iterations (6th column of the run log $1) summed over steps 23-40.
shear_iterations() { awk -F, 'NR > 1 && $1 > 22 {s += $6} END {print s}' "$1"; }
for run in plain extrapolated; do
  flag=()
  [[ $run == extrapolated ]] && flag=(--extrapolate-guess)
  "$masonry_wall" --coarse --steps 40 --tolerance 1e-8 "${flag[@]}" \
    --log "$tmp/$run.csv" > "$tmp/$run.out" 2>&1 || { cat "$tmp/$run.out" >&2; exit 1; }
done
plain=$(shear_iterations "$tmp/plain.csv") extrapolated=$(shear_iterations "$tmp/extrapolated.csv")
echo "steps 23-40: $extrapolated Newton iterations extrapolated, $plain from the previous solution"
[[ -n "$plain" && -n "$extrapolated" ]] || { echo "iterations missing from the logs" >&2; exit 1; }
((extrapolated < plain)) || { echo "the extrapolated guess does not pay: $extrapolated vs $plain" >&2; exit 1; }
