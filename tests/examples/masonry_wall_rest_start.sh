#!/usr/bin/env bash
# masonry_wall starts the steps at rest (previous solution all zero: step 2 of
# the coarse wall, the first loaded one) by the solver's cold start, not from
# the all-zero guess: with the default (--cold-start auto) step 2 must take at
# most half the Newton iterations of --cold-start zero (= the old all-zero
# guess: 18 against 4 when this test was written), and every step converges.
# Usage: masonry_wall_rest_start.sh MASONRY_WALL
set -euo pipefail
masonry_wall=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The iterations of step 2 in run log $1 (columns: step, ..., iterations = 6th).
step2_iterations() { awk -F, '$1 == 2 {print $6}' "$1"; }
for start in auto zero; do
  "$masonry_wall" --coarse --steps 3 --tolerance 1e-8 --cold-start "$start" \
    --log "$tmp/$start.csv" > "$tmp/$start.out" 2>&1 || { cat "$tmp/$start.out" >&2; exit 1; }
done
auto=$(step2_iterations "$tmp/auto.csv") zero=$(step2_iterations "$tmp/zero.csv")
echo "step 2: $auto Newton iterations (auto), $zero (zero)"
[[ -n "$auto" && -n "$zero" ]] || { echo "step 2 missing from the logs" >&2; exit 1; }
((2 * auto <= zero)) || { echo "the rest start does not pay: $auto vs $zero" >&2; exit 1; }
