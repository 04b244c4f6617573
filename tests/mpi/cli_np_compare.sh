#!/usr/bin/env bash
# `fcsn solve FILE --json` with 1 and with 2 MPI processes: the same exit
# code, status, iterations, NSGS sweeps and factorizations, errors equal up to round-off and
# solutions (v, u, r of --output) equal to 1e-8 relative, with the default solver (hybrid:
# NSGS warm sweeps, then Newton) and with pure Newton (--solver nsn: a MUMPS factorization at every
# iteration). Problems: every FCLib file of DIR and, when MASONRY_WALL is given, a few coarse
# masonry-wall steps that it generates first, as one process (the ramp, the start and the end of
# the shear ramp: steps 10, 25 and 40 of `masonry_wall --coarse`, n = 1463, nc = 200).
# Only rank 0 prints: np 2 must give exactly one JSON line per run. Also: --output under np 2
# (written once, by the host) and --time-limit under np 2 (refused).
# Usage: cli_np_compare.sh FCSN_BINARY MPIEXEC DIR [MASONRY_WALL]
set -euo pipefail
fcsn=$1 mpiexec=$2 dir=$3 masonry_wall=${4:-}
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mpi_cli_test_setup "$dir"
if [[ -n "$masonry_wall" ]]; then
  mkdir "$tmp/walls"
  "$mpiexec" -np 1 "$masonry_wall" --coarse --steps 40 --export-dir "$tmp/walls" --export-steps 10 25 40 \
    --log "$tmp/walls/log.csv" >"$tmp/walls.out" 2>&1 || { cat "$tmp/walls.out" >&2; exit 1; }
  walls=("$tmp/walls"/*.hdf5)
  ((${#walls[@]} == 3)) || { echo "masonry_wall wrote ${#walls[@]} steps, expected 3" >&2; exit 1; }
  files+=("${walls[@]}")
fi
failures=0
for solver in hybrid nsn; do
for file in "${files[@]}"; do
  for np in 1 2; do
    code=0
    "$mpiexec" --oversubscribe -np "$np" "$fcsn" solve "$file" --solver "$solver" --json --no-history \
      --output "$tmp/np$np.hdf5" >"$tmp/np$np.json" 2>"$tmp/np$np.err" || code=$?
    echo "$code" >"$tmp/np$np.code"
  done
  "$python" - "$file $solver" "$tmp" <<'PY' || failures=$((failures + 1))
import json, sys
import h5py
import numpy as np
file, tmp = sys.argv[1], sys.argv[2]
runs = {}
for p in (1, 2):
    lines = [l for l in open(f"{tmp}/np{p}.json") if l.strip()]
    code = int(open(f"{tmp}/np{p}.code").read())
    if len(lines) != 1:
        sys.exit(f"{file}: np {p}: {len(lines)} JSON lines (exit {code}), expected 1 (rank 0 only)\n"
                 + open(f"{tmp}/np{p}.err").read())
    runs[p] = (code, json.loads(lines[0]))
(c1, a), (c2, b) = runs[1], runs[2]
same = ["status", "converged", "iterations", "nsgs_sweeps", "factorizations", "analyses"]
diff = [k for k in same if a[k] != b[k]]
if c1 != c2:
    diff.append(f"exit code {c1} vs {c2}")
# Errors: equal up to round-off (the factorization's sums run in another order on 2 processes,
# and the last Newton step's error is round-off itself): 1e-3 relative, or both within the
# tolerance.
ea, eb, tol = a["error"], b["error"], a["tol"]
if not (abs(ea - eb) <= 1e-3 * max(abs(ea), abs(eb)) or max(ea, eb) <= tol):
    diff.append(f"error {ea:.3e} vs {eb:.3e}")
# Solutions: the same Newton path up to round-off, so v, u and r agree to 1e-8 relative (in the
# 2-norm of each vector; the largest gap measured is 2e-12, on TwoRods1; printed as "dx").
worst = 0.0
with h5py.File(f"{tmp}/np1.hdf5", "r") as f1, h5py.File(f"{tmp}/np2.hdf5", "r") as f2:
    for name in ("v", "u", "r"):
        x1, x2 = np.asarray(f1["solution"][name]), np.asarray(f2["solution"][name])
        scale = max(np.linalg.norm(x1), np.linalg.norm(x2), np.finfo(float).tiny)
        worst = max(worst, np.linalg.norm(x1 - x2) / scale)
if worst > 1e-8:
    diff.append(f"solution differs by {worst:.1e} relative")
name = file.rsplit("/", 1)[-1]
print(f"{name:44s} np1: {a['status']:>12s} it {a['iterations']:3d} err {ea:.2e} | "
      f"np2: {b['status']:>12s} it {b['iterations']:3d} err {eb:.2e} dx {worst:.0e}  "
      f"{'DIFFERENT: ' + ', '.join(diff) if diff else 'same'}")
sys.exit(1 if diff else 0)
PY
done
done
# --output under np 2: the host writes the file; the result is a readable problem with a solution.
"$mpiexec" --oversubscribe -np 2 "$fcsn" solve "${files[0]}" --solver nsn --output "$tmp/out.hdf5" >/dev/null
"$fcsn" check "$tmp/out.hdf5" >/dev/null || { echo "np 2 --output: unreadable or wrong solution" >&2; failures=$((failures + 1)); }
# --time-limit under np 2 is refused with one line (rank-dependent clocks could deadlock).
code=0
"$mpiexec" --oversubscribe -np 2 "$fcsn" solve "${files[0]}" --time-limit 10 >/dev/null 2>"$tmp/limit.err" || code=$?
if ((code != 2)) || [[ $(grep -c "time-limit" "$tmp/limit.err") != 1 ]]; then
  echo "np 2 --time-limit: exit $code, expected 2 with one line:" >&2
  cat "$tmp/limit.err" >&2
  failures=$((failures + 1))
fi
if ((failures > 0)); then
  echo "cli_np_compare: $failures run(s) differ between 1 and 2 processes" >&2
  exit 1
fi
