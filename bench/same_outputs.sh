#!/usr/bin/env bash
# Behaviour unchanged? Runs two fcsn binaries on the same FCLib files,
# `fcsn solve FILE --tol TOL --json` (history included), and compares every
# field of the JSON except the timings and the options block (which a
# refactoring may add to): status, message, iteration and factorization
# counts, every error measure to the bit, and the per-iteration history, on
# the keys both report (keys only one reports are listed as +key / -key).
# Prints one line per file (same / DIFFERENT: the first differing keys); exits
# 1 when any file differs.
#
# Usage: BASE=/path/to/old/fcsn [NEW=build/bin/fcsn] [TOL=1e-8] [EXTRA="..."] \
#          bench/same_outputs.sh FILE.hdf5...
#   e.g. the shared problems and the 50 masonry walls:
#   BASE=/tmp/base/build/bin/fcsn bench/same_outputs.sh ../shared/data/gfc3d/*/*.hdf5
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
: "${BASE:?set BASE to the fcsn binary to compare against}"
NEW=${NEW:-$root/build/bin/fcsn}
TOL=${TOL:-1e-8}
EXTRA=${EXTRA:-}
(($#)) || { echo "usage: BASE=... bench/same_outputs.sh FILE.hdf5..." >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1  # one BLAS thread: the same arithmetic in both runs
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
differ=0
for file in "$@"; do
  # shellcheck disable=SC2086
  "$BASE" solve "$file" --tol "$TOL" --json $EXTRA >"$scratch/base.json" 2>/dev/null || true
  # shellcheck disable=SC2086
  "$NEW" solve "$file" --tol "$TOL" --json $EXTRA >"$scratch/new.json" 2>/dev/null || true
  if ! python3 - "$scratch/base.json" "$scratch/new.json" "$file" <<'PY'; then differ=1; fi
import json, sys

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except ValueError:
        return {"unreadable": open(path).read()[:200]}

def strip(d):
    # Wall times vary from run to run; the options block is new output.
    for key in ("time_s", "timings", "options"):
        d.pop(key, None)
    for record in d.get("history", []):
        record.pop("seconds", None)
    return d

base, new = strip(load(sys.argv[1])), strip(load(sys.argv[2]))
name = sys.argv[3].rsplit("/", 1)[-1]
keys = sorted(k for k in set(base) & set(new) if base[k] != new[k])
# Keys one build reports and the other does not: listed, not a difference
# of behaviour.
extra = sorted(set(new) - set(base))
missing = sorted(set(base) - set(new))
note = "".join(f" +{k}" for k in extra) + "".join(f" -{k}" for k in missing)
print(f"{name}  {'same' if not keys else 'DIFFERENT: ' + ' '.join(keys[:6])}"
      f"  iterations {base.get('iterations')} {new.get('iterations')}"
      f"  factorizations {base.get('factorizations')} {new.get('factorizations')}"
      f"{'  keys' + note if note else ''}")
sys.exit(1 if keys else 0)
PY
done
if ((differ)); then
  echo "same_outputs.sh: some files differ" >&2
  exit 1
fi
echo "same_outputs.sh: every file gives the same output"
