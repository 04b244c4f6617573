#!/usr/bin/env bash
# Newton iterations and time of `fcsn solve` for each value of one CLI option on a set of FCLib
# files, in one run, one process per solve; prints a Markdown table (one row per value: solved,
# median / mean / max iterations, rho reductions, precision fallbacks, median and total time,
# factorization share) and the iterations and times per problem.
#
# Usage: bench/option_sweep.sh --option NAME --values V1,V2,... [--tol 1e-8] [--solver nsn]
#                              FILE.hdf5|DIR ...
#   e.g. bench/option_sweep.sh --option rho-boost --values 1,10,30,100 DIR
#        bench/option_sweep.sh --option precision --values double,mixed DIR
# Environment: FCSN (default build/bin/fcsn); OPENBLAS_NUM_THREADS defaults to 1, OPENBLAS_CORETYPE
# to scripts/blas_env.sh's choice. The values run interleaved per problem (problem 1 with every
# value, then problem 2, ...), so that a slow phase of a shared machine hits all values alike.
set -euo pipefail

option=
values=
tol=1e-8
solver=nsn
files=()
while (($#)); do
  case $1 in
    --option) option=$2; shift 2 ;;
    --values) values=$2; shift 2 ;;
    --tol) tol=$2; shift 2 ;;
    --solver) solver=$2; shift 2 ;;
    -h|--help) sed -n 2,13p "$0"; exit 0 ;;
    *) if [[ -d $1 ]]; then files+=("$1"/*.hdf5); else files+=("$1"); fi; shift ;;
  esac
done
[[ -n $option && -n $values ]] || { echo "option_sweep.sh: --option and --values are required" >&2; exit 2; }
((${#files[@]})) || { echo "option_sweep.sh: no FCLib files given" >&2; exit 2; }
fcsn=${FCSN:-build/bin/fcsn}
[[ -x $fcsn ]] || { echo "option_sweep.sh: $fcsn not built (cmake --build build)" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/blas_env.sh"

out=$(mktemp)
trap 'rm -f "$out"' EXIT
for f in "${files[@]}"; do
  for value in ${values//,/ }; do
    # exit code 1 (not converged) is a result, not an error
    "$fcsn" solve "$f" --solver "$solver" --tol "$tol" "--$option" "$value" --json --no-history \
      | sed "s/^{/{\"value\":\"$value\",/" >>"$out" || true
  done
done

/usr/bin/python3 - "$out" "$tol" "$solver" "$option" \
  "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" "${OPENBLAS_CORETYPE:-(unset)}" <<'EOF'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
tol, solver, option, commit, core = sys.argv[2:7]
print(f"fcsn solve --solver {solver} --tol {tol} --{option} VALUE (commit {commit}, "
      f"OPENBLAS_CORETYPE={core}), {len({r['file'] for r in rows})} problems\n")
print(f"| {option} | solved | median it. | mean it. | max it. | rho reductions | "
      "precision fallbacks | median time (s) | total time (s) | factorization share |")
print("|---|---|---|---|---|---|---|---|---|---|")
by = {}
for r in rows:
    by.setdefault(r["value"], []).append(r)
for v, rs in by.items():
    ok = [r for r in rs if r["status"] == "converged"]
    it = [r["iterations"] for r in ok] or [0]
    total = sum(r["time_s"] for r in rs)
    fact = sum(r["timings"]["factorization"] for r in rs)
    print(f"| {v} | {len(ok)}/{len(rs)} | {statistics.median(it):g} | "
          f"{statistics.mean(it):.1f} | {max(it)} | {sum(r.get('rho_reductions', 0) for r in rs)} | "
          f"{sum(r.get('precision_fallbacks', 0) for r in rs)} | "
          f"{statistics.median(r['time_s'] for r in rs):.3g} | {total:.3g} | "
          f"{fact / total if total else 0:.0%} |")
print("\nIterations · time (s) per problem (x: not converged):\n")
print(f"| problem | " + " | ".join(f"{option} {v}" for v in by) + " |")
print("|---|" + "---|" * len(by))
files = [r["file"] for r in next(iter(by.values()))]
for f in files:
    cells = []
    for rs in by.values():
        r = next(r for r in rs if r["file"] == f)
        cells.append(f"{r['iterations']}" + ("" if r["status"] == "converged" else " x") +
                     f" · {r['time_s']:.3f}")
    print(f"| {f.rsplit('/', 1)[-1]} | " + " | ".join(cells) + " |")
EOF
