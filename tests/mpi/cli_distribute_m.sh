#!/usr/bin/env bash
# `fcsn solve FILE --solver nsn --distribute-m` (M distributed over the ranks by contiguous blocks
# of rows) at np 1 and np 2 against the replicated `fcsn solve FILE --solver nsn` at
# np 1: the same exit code, status and iterations, and errors equal up to round-off (1e-3
# relative, or all within the tolerance). Problems: every FCLib file of DIR. Only rank 0 prints:
# exactly one JSON line per run. Also: --distribute-m with a solver that needs M^-1 per contact
# (nsgs) under np 2 is refused with one line and exit 2.
# Usage: cli_distribute_m.sh FCSN_BINARY MPIEXEC DIR
set -euo pipefail
fcsn=$1 mpiexec=$2 dir=$3
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mpi_cli_test_setup "$dir"
failures=0
for file in "${files[@]}"; do
  # run NAME NP [OPTIONS...]: the JSON line and the exit code of one run.
  run() {
    local name=$1 np=$2 code=0
    shift 2
    "$mpiexec" --oversubscribe -np "$np" "$fcsn" solve "$file" --solver nsn --json --no-history "$@" \
      >"$tmp/$name.json" 2>"$tmp/$name.err" || code=$?
    echo "$code" >"$tmp/$name.code"
  }
  run replicated 1
  run np1 1 --distribute-m
  run np2 2 --distribute-m
  "$python" - "$file" "$tmp" <<'PY' || failures=$((failures + 1))
import json, sys
file, tmp = sys.argv[1], sys.argv[2]
runs = {}
for name in ("replicated", "np1", "np2"):
    lines = [l for l in open(f"{tmp}/{name}.json") if l.strip()]
    code = int(open(f"{tmp}/{name}.code").read())
    if len(lines) != 1:
        sys.exit(f"{file}: {name}: {len(lines)} JSON lines (exit {code}), expected 1\n"
                 + open(f"{tmp}/{name}.err").read())
    runs[name] = (code, json.loads(lines[0]))
c0, a = runs["replicated"]
diff = []
for name in ("np1", "np2"):
    c, b = runs[name]
    diff += [f"{name} {k} {a[k]} vs {b[k]}" for k in ("status", "iterations") if a[k] != b[k]]
    if c != c0:
        diff.append(f"{name} exit code {c0} vs {c}")
    ea, eb, tol = a["error"], b["error"], a["tol"]
    if not (abs(ea - eb) <= 1e-3 * max(abs(ea), abs(eb)) or max(ea, eb) <= tol):
        diff.append(f"{name} error {ea:.3e} vs {eb:.3e}")
name = file.rsplit("/", 1)[-1]
print(f"{name:44s} replicated: {a['status']:>12s} it {a['iterations']:3d} | distributed np1 it "
      f"{runs['np1'][1]['iterations']:3d}, np2 it {runs['np2'][1]['iterations']:3d}  "
      f"{'DIFFERENT: ' + ', '.join(diff) if diff else 'same'}")
sys.exit(1 if diff else 0)
PY
done
code=0
"$mpiexec" --oversubscribe -np 2 "$fcsn" solve "${files[0]}" --solver nsgs --distribute-m >/dev/null \
  2>"$tmp/refused.err" || code=$?
# mpiexec adds its own report of the exit code: count fcsn's line only.
if ((code != 2)) || [[ $(grep -c 'only "newton"' "$tmp/refused.err") != 1 ]]; then
  echo "np 2 --distribute-m --solver nsgs: exit $code, expected 2 with one line:" >&2
  cat "$tmp/refused.err" >&2
  failures=$((failures + 1))
fi
if ((failures > 0)); then
  echo "cli_distribute_m: $failures run(s) differ from the replicated solve" >&2
  exit 1
fi
