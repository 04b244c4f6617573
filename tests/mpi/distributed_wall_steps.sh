#!/usr/bin/env bash
# distributed_solve_test on generated masonry-wall steps: writes steps 10 and 25 of
# `masonry_wall --coarse --steps 25` (n = 1463, nc = 200: under gravity, then in the shear ramp)
# and runs the test's GeneratedWallStep case on each, with M split over the ranks and compared
# with the replicated solve (tests/newton/distributed_solve_test.cc).
# Usage: distributed_wall_steps.sh TEST_BINARY MASONRY_WALL [MPIEXEC NP]
#   without MPIEXEC: one process (the seq flavour).
set -euo pipefail
test_binary=$1 masonry_wall=$2 mpiexec=${3:-} np=${4:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$masonry_wall" --coarse --steps 25 --export-dir "$tmp" --export-steps 10 25 --log "$tmp/log.csv" \
  >"$tmp/generator.out" 2>&1 || { cat "$tmp/generator.out" >&2; exit 1; }
shopt -s nullglob
steps=("$tmp"/*.hdf5)
((${#steps[@]} == 2)) || { echo "masonry_wall wrote ${#steps[@]} steps, expected 2" >&2; exit 1; }
launcher=()
[[ -n "$mpiexec" ]] && launcher=("$mpiexec" --oversubscribe -np "$np")
for step in "${steps[@]}"; do
  echo "== $(basename "$step")"
  FCSN_WALL_STEP=$step "${launcher[@]}" "$test_binary" --gtest_filter='*GeneratedWallStep*' \
    --gtest_color=no >"$tmp/run.out" 2>&1 || { cat "$tmp/run.out" >&2; exit 1; }
  cat "$tmp/run.out"
  # Ran, not skipped (the step must have been read and solved).
  grep -q 'PASSED .* 1 test' "$tmp/run.out" && ! grep -q 'SKIPPED' "$tmp/run.out" || exit 1
done
