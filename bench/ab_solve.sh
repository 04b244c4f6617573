#!/usr/bin/env bash
# A/B of two fcsn command-line binaries on the same FCLib files: for each of REPS
# rounds and each file, BASE then NEW run `fcsn solve FILE --tol TOL --json --no-history $EXTRA`
# (then $BASE_EXTRA, resp. $NEW_EXTRA: BASE=NEW with two settings compares options)
# one after the other (interleaved, so both see the same load), under `nice -n -10` with
# OPENBLAS_NUM_THREADS=$BLAS_THREADS (default 1; BLAS_THREADS=default leaves it unset, OpenBLAS'
# own choice: one thread per core) and OPENBLAS_CORETYPE from scripts/blas_env.sh. One line per run:
#   which  file  status  iterations  factorizations  early_factorizations_used  time_s  error  cpu_s
#   fact_s
# (cpu_s: the process' user + system seconds, all threads, reading the file included; fact_s:
# timings.factorization), then per file the medians of time_s and cpu_s of both binaries and
# their ratios, the mean time_s of each binary, and the seconds per factorization of each. The
# load average is printed before and after: compare only ratios of one run.
#
# Usage: BASE=/path/to/old/fcsn [NEW=build/bin/fcsn] [REPS=3] [TOL=1e-8] [EXTRA="..."] \
#          [BASE_EXTRA="..."] [NEW_EXTRA="..."] [BLAS_THREADS=1|N|default] \
#          bench/ab_solve.sh FILE.hdf5...
#   e.g. git worktree add --detach /tmp/base <commit>, build its fcsn_cli target, then
#        BASE=/tmp/base/build/bin/fcsn bench/ab_solve.sh /tmp/wallscratch/refined2/*.hdf5
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
: "${BASE:?set BASE to the fcsn binary to compare against}"
NEW=${NEW:-$root/build/bin/fcsn}
REPS=${REPS:-3}
TOL=${TOL:-1e-8}
EXTRA=${EXTRA:-}
BASE_EXTRA=${BASE_EXTRA:-}
NEW_EXTRA=${NEW_EXTRA:-}
(($#)) || { echo "usage: BASE=... bench/ab_solve.sh FILE.hdf5..." >&2; exit 2; }
source "$root/scripts/blas_env.sh"
BLAS_THREADS=${BLAS_THREADS:-1}
if [[ $BLAS_THREADS == default ]]; then
  unset OPENBLAS_NUM_THREADS
else
  export OPENBLAS_NUM_THREADS=$BLAS_THREADS
fi
echo "OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-(unset)}"
echo "load before: $(uptime)"
out=$(mktemp)
json=$(mktemp)
cpu=$(mktemp)
trap 'rm -f "$out" "$json" "$cpu"' EXIT
for ((rep = 1; rep <= REPS; ++rep)); do
  for file in "$@"; do
    for which in base new; do
      bin=$BASE
      side=$BASE_EXTRA
      [[ $which == new ]] && bin=$NEW && side=$NEW_EXTRA
      # shellcheck disable=SC2086  # EXTRA and side hold several options
      /usr/bin/time -f "%U %S" -o "$cpu" \
        nice -n -10 "$bin" solve "$file" --tol "$TOL" --json --no-history $EXTRA $side \
        >"$json" || true
      /usr/bin/python3 -c '
import json, sys
d = json.load(open(sys.argv[3]))
cpu = sum(float(x) for x in open(sys.argv[4]).read().split()[-2:])
print(sys.argv[1], sys.argv[2], d["status"], d["iterations"], d["factorizations"],
      d.get("early_factorizations_used", "-"), round(d["time_s"], 3), d["error"], round(cpu, 2),
      round(d["timings"]["factorization"], 4))' \
        "$which" "$(basename "$file")" "$json" "$cpu" | tee -a "$out"
    done
  done
done
echo "load after: $(uptime)"
/usr/bin/python3 - "$out" <<'PY'
import statistics, sys
times, per_file, factorizing = {}, {}, {}
for line in open(sys.argv[1]):
    p = line.split()
    times.setdefault(p[0], []).append(float(p[6]))
    seconds_count = factorizing.setdefault(p[0], [0.0, 0])
    seconds_count[0] += float(p[9])
    seconds_count[1] += int(p[4])
    runs = per_file.setdefault(p[1], {}).setdefault(p[0], ([], []))
    runs[0].append(float(p[6]))
    runs[1].append(float(p[8]))
for name, runs in per_file.items():
    if "base" not in runs or "new" not in runs:
        continue
    (bt, bc), (nt, nc) = runs["base"], runs["new"]
    t0, t1 = statistics.median(bt), statistics.median(nt)
    c0, c1 = statistics.median(bc), statistics.median(nc)
    print(f"{name}: median time_s {t0:.3f} -> {t1:.3f} ({t1 / t0:.3f}), "
          f"cpu_s {c0:.2f} -> {c1:.2f} ({c1 / c0:.3f})")
for which, t in times.items():
    print(f"{which}: mean {sum(t) / len(t):.3f} s over {len(t)} runs")
if "base" in times and "new" in times:
    ratio = (sum(times["new"]) / len(times["new"])) / (sum(times["base"]) / len(times["base"]))
    print(f"new/base: {ratio:.3f}")
per = {w: s / n for w, (s, n) in factorizing.items() if n > 0}
for which, seconds in per.items():
    print(f"{which}: {seconds:.4f} s per factorization")
if "base" in per and "new" in per:
    print(f"per factorization new/base: {per['new'] / per['base']:.3f}")
PY
