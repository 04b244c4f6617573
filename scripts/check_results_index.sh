#!/usr/bin/env bash
# bench/results/README.md indexes every file under bench/results/ (one table row each, the path
# relative to bench/results in backticks in the first column). Fails when a file is missing from
# the index, or when an entry names a file that does not exist.
#   scripts/check_results_index.sh
set -euo pipefail
cd "$(dirname "$0")/../bench/results"
index=README.md
[[ -f $index ]] || { echo "check_results_index.sh: bench/results/$index is missing" >&2; exit 1; }
mapfile -t files < <(find . -type f ! -name "$index" | sed 's#^\./##' | LC_ALL=C sort)
mapfile -t listed < <(sed -n 's/^| `\([^`]*\)` |.*/\1/p' "$index" | LC_ALL=C sort)
declare -A in_index=()
for f in "${listed[@]}"; do in_index[$f]=1; done
fail=0
for f in "${files[@]}"; do
  [[ -n ${in_index[$f]:-} ]] || { echo "not in bench/results/$index: $f"; fail=1; }
done
for f in "${listed[@]}"; do
  [[ -f $f ]] || { echo "listed in bench/results/$index but absent: $f"; fail=1; }
done
((fail == 0)) && echo "bench/results/$index lists all ${#files[@]} files"
exit $fail
