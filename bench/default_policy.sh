#!/usr/bin/env bash
# The default policy (hybrid: NSGS warm start, Newton, NSGS fallback) against pure Newton
# (`fcsn solve --solver nsn`): solve time and peak memory of each, per problem, and their ratios
# default / nsn, per set and overall, as a Markdown table. The issue-12 target: ratios <= 1.2 on
# the walls and the generated elastic bar, no slower than before on the shared rigid problems.
#
# Usage: bench/default_policy.sh [--tol 1e-8] [--reps 1] [--out FILE.md] [--generate DIR]
#                                SET ...
#   SET: a directory (its *.hdf5 form one set) or one FCLib file (a set of its own).
#   --generate DIR: first write the generated problems (a stiff elastic bar with 2000 contacts on
#                   a plane, a pile of 32 rigid boxes; build/bench/make_policy_problems) into DIR
#                   and add DIR as a set.
#   e.g. bench/default_policy.sh --generate /tmp/gen /work/shared/data/gfc3d /tmp/lowwall
#
# Every solve runs in its own process, one after the other (never in parallel: the times and the
# peak RSS must not compete), under /usr/bin/time -f '%e %M': peak RSS is the process's maximum
# resident set (kB), including reading the file, identical for both solvers. Time is the solve
# time reported by `fcsn solve --json` (time_s), the median over --reps runs. Environment: FCSN
# (default build/bin/fcsn); OPENBLAS_NUM_THREADS defaults to 1. Run it on an idle machine. To
# compare with an older commit ("no slower than before"), run it again with FCSN=that build's fcsn.
set -euo pipefail

tol=1e-8
reps=1
out=
generate=
sets=()
while (($#)); do
  case $1 in
    --tol) tol=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --generate) generate=$2; shift 2 ;;
    -h|--help) sed -n 2,23p "$0"; exit 0 ;;
    *) sets+=("$1"); shift ;;
  esac
done
fcsn=${FCSN:-build/bin/fcsn}
[[ -x $fcsn ]] || { echo "default_policy.sh: $fcsn not built (cmake --build build)" >&2; exit 2; }
if [[ -n $generate ]]; then
  make=${MAKE_PROBLEMS:-build/bench/make_policy_problems}
  [[ -x $make ]] || { echo "default_policy.sh: $make not built" >&2; exit 2; }
  mkdir -p "$generate"
  "$make" "$generate" >&2
  sets+=("$generate")
fi
((${#sets[@]})) || { echo "default_policy.sh: no problem set given" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "default_policy.sh: /usr/bin/time (GNU time) is required" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
source "$(dirname "${BASH_SOURCE[0]}")/../scripts/blas_env.sh"

rows=$(mktemp /tmp/default_policy_rows.XXXXXX)
echo "default_policy.sh: raw rows in $rows" >&2
measure=$(mktemp)
trap 'rm -f "$measure"' EXIT  # $rows is kept (its path is printed) if the report fails
for set in "${sets[@]}"; do
  if [[ -d $set ]]; then files=("$set"/*.hdf5); else files=("$set"); fi
  for f in "${files[@]}"; do
    for ((rep = 0; rep < reps; ++rep)); do
      # alternate which solver runs first, so that a slow phase of the machine
      # does not always hit the same one
      order="hybrid nsn"
      ((rep % 2)) && order="nsn hybrid"
      for solver in $order; do
        # exit code 1 (not converged) is a result, not an error
        json=$(/usr/bin/time -f '%e %M' -o "$measure" \
                 "$fcsn" solve "$f" --solver "$solver" --tol "$tol" --json --no-history || true)
        # GNU time writes "Command exited with non-zero status N" first when the solve did not
        # converge: the measurement is the last line.
        read -r wall rss < <(tail -n 1 "$measure")
        echo "{\"set\":\"${set%/}\",\"solver\":\"$solver\",\"wall_s\":$wall,\"rss_kb\":$rss,${json#\{}" >>"$rows"
      done
    done
  done
done

report() {
/usr/bin/python3 - "$rows" "$tol" "$reps" \
  "$(git rev-parse --short HEAD 2>/dev/null || echo '?')" "$(uptime | sed 's/.*load/load/')" <<'PY'
import json, math, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
tol, reps, commit, load = sys.argv[2:6]
runs = {}
for r in rows:
    runs.setdefault((r["set"], r["file"], r["solver"]), []).append(r)
def med(key, rs):
    return statistics.median(r[key] for r in rs)
def status(rs):
    return "ok" if all(r["status"] == "converged" for r in rs) else rs[0]["status"]
print(f"# default policy vs pure Newton\n\n`fcsn solve --tol {tol}` (default) vs `--solver nsn`, "
      f"commit {commit}, median of {reps} run(s), {load} at the end.\n")
print("Ratios are default / nsn: time = solve time (time_s), memory = peak RSS of the process.\n")
print("| set | problems | default ok | nsn ok | total time default (s) | total time nsn (s) | "
      "time ratio (total) | max time ratio | geo-mean time ratio | max memory ratio |")
print("|---|---|---|---|---|---|---|---|---|---|")
sets = list(dict.fromkeys(r["set"] for r in rows))
detail = []
for s in sets:
    files = list(dict.fromkeys(r["file"] for r in rows if r["set"] == s))
    td = tn = 0.0
    ratios, mem, ok_d, ok_n = [], [], 0, 0
    for f in files:
        d, n = runs[(s, f, "hybrid")], runs[(s, f, "nsn")]
        t_d, t_n = med("time_s", d), med("time_s", n)
        m_d, m_n = med("rss_kb", d), med("rss_kb", n)
        td += t_d; tn += t_n
        ratios.append(t_d / t_n if t_n > 0 else float("nan"))
        mem.append(m_d / m_n)
        ok_d += status(d) == "ok"; ok_n += status(n) == "ok"
        detail.append((s, f, d[0], n[0], t_d, t_n, m_d, m_n))
    finite = [x for x in ratios if x > 0 and math.isfinite(x)]
    geo = math.exp(sum(map(math.log, finite)) / len(finite)) if finite else float("nan")
    print(f"| {s} | {len(files)} | {ok_d} | {ok_n} | {td:.3f} | {tn:.3f} | {td / tn if tn else float('nan'):.2f} | "
          f"{max(ratios):.2f} | {geo:.2f} | {max(mem):.2f} |")
print("\nPer problem (sweeps: NSGS sweeps of the default; its: Newton iterations; "
      "W: stored Delassus entries, 'over' when over the budget):\n")
print("| problem | default | nsn | time default (s) | time nsn (s) | ratio | "
      "RSS default (MB) | RSS nsn (MB) | ratio | sweeps | its default | its nsn | W |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for s, f, d, n, t_d, t_n, m_d, m_n in detail:
    # printed by `fcsn solve --json` only if the CLI reports the summary's delassus_* fields
    w = "over" if d.get("delassus_over_budget") else str(d.get("delassus_entries", "-"))
    print(f"| {f.rsplit('/', 1)[-1]} | {d['status']} | {n['status']} | {t_d:.4f} | {t_n:.4f} | "
          f"{t_d / t_n if t_n else float('nan'):.2f} | {m_d / 1024:.1f} | {m_n / 1024:.1f} | "
          f"{m_d / m_n:.2f} | {d['nsgs_sweeps']} | {d['iterations']} | {n['iterations']} | {w} |")
PY
}
if [[ -n $out ]]; then report | tee "$out"; else report; fi
