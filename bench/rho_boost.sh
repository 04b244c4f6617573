#!/usr/bin/env bash
# Newton iterations and time of `fcsn solve` per rho boost (RhoOptions::initial_boost) on a set
# of FCLib files, in one run, one process per solve; prints a Markdown table (one row per
# boost: solved, median / mean / max iterations, rho reductions, total time) and the
# iterations per problem.
#
# Usage: bench/rho_boost.sh [--boosts 1,10,30,100] [--tol 1e-8] [--solver nsn] FILE.hdf5|DIR ...
# Environment: FCSN (default build/bin/fcsn); OPENBLAS_NUM_THREADS defaults to 1, OPENBLAS_CORETYPE
# to scripts/blas_env.sh's choice.
set -euo pipefail

boosts=1,10,30,100
tol=1e-8
solver=nsn
files=()
while (($#)); do
  case $1 in
    --boosts) boosts=$2; shift 2 ;;
    --tol) tol=$2; shift 2 ;;
    --solver) solver=$2; shift 2 ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) if [[ -d $1 ]]; then files+=("$1"/*.hdf5); else files+=("$1"); fi; shift ;;
  esac
done
((${#files[@]})) || { echo "rho_boost.sh: no FCLib files given" >&2; exit 2; }
fcsn=${FCSN:-build/bin/fcsn}
[[ -x $fcsn ]] || { echo "rho_boost.sh: $fcsn not built (cmake --build build)" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/blas_env.sh"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
for boost in ${boosts//,/ }; do
  for f in "${files[@]}"; do
    # exit code 1 (not converged) is a result, not an error
    "$fcsn" solve "$f" --solver "$solver" --tol "$tol" --rho-boost "$boost" --json --no-history \
      | sed "s/^{/{\"boost\":$boost,/" >>"$out" || true
  done
done

/usr/bin/python3 - "$out" "$tol" "$solver" "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"fcsn solve --solver {sys.argv[3]} --tol {sys.argv[2]} (commit {sys.argv[4]}), "
      f"{len({r['file'] for r in rows})} problems\n")
print("| boost | solved | median it. | mean it. | max it. | rho reductions | total time (s) |")
print("|---|---|---|---|---|---|---|")
by = {}
for r in rows:
    by.setdefault(r["boost"], []).append(r)
for b, rs in by.items():
    ok = [r for r in rs if r["status"] == "converged"]
    it = [r["iterations"] for r in ok] or [0]
    print(f"| {b:g} | {len(ok)}/{len(rs)} | {statistics.median(it):g} | "
          f"{statistics.mean(it):.1f} | {max(it)} | {sum(r.get('rho_reductions', 0) for r in rs)} | "
          f"{sum(r['time_s'] for r in rs):.1f} |")
print("\nIterations per problem (x: not converged):\n")
print("| problem | " + " | ".join(f"boost {b:g}" for b in by) + " |")
print("|---|" + "---|" * len(by))
files = [r["file"] for r in next(iter(by.values()))]
for f in files:
    cells = []
    for rs in by.values():
        r = next(r for r in rs if r["file"] == f)
        cells.append(f"{r['iterations']}" + ("" if r["status"] == "converged" else " x"))
    print(f"| {f.rsplit('/', 1)[-1]} | " + " | ".join(cells) + " |")
EOF
