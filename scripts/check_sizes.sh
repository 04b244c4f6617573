#!/usr/bin/env bash
# House-style limits on the library (include/, formulations/, problem/, linalg/, minverse/, nsgs/,
# newton/, solver/, api/, cli/, capi/), the Python bindings (python/src/) and the examples; bench/
# and tests/ are excluded: no file over 600 lines, no function over 100 lines
# (function extents from universal-ctags). Prints every offender; exit 1 if any.
#   scripts/check_sizes.sh [--report]   --report: list the 15 longest functions and files too
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ctags >/dev/null || { echo "check_sizes.sh: needs universal-ctags" >&2; exit 2; }
mapfile -t files < <(find include formulations problem linalg minverse nsgs newton solver api cli capi python/src examples -name '*.cc' -o -name '*.h' | sort)
fail=0
while read -r lines file; do
  [[ $file == total ]] && continue
  ((lines > 600)) && { echo "file over 600 lines: $file ($lines)"; fail=1; }
done < <(wc -l "${files[@]}")
functions=$(ctags --kinds-c++=f --fields=+ne -o - "${files[@]}" |
  awk -F'\t' '{ line = end = 0
    for (i = 4; i <= NF; ++i) { if ($i ~ /^line:/) line = substr($i, 6); if ($i ~ /^end:/) end = substr($i, 5) }
    if (end > 0) print end - line + 1, $2 ":" line, $1 }' | sort -rn)
while read -r length where name; do
  ((length > 100)) && { echo "function over 100 lines: $where $name ($length)"; fail=1; }
done <<<"$functions"
if [[ ${1:-} == --report ]]; then
  echo "-- longest functions"; head -15 <<<"$functions"
  echo "-- longest files"; wc -l "${files[@]}" | sort -rn | sed -n 2,16p
fi
exit $fail
