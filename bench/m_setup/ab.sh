#!/usr/bin/env bash
# A/B of M's setup (bench/results/m_setup.md): runs `fcsn solve FILE --tol 1e-8 --json
# --no-history` with binary A then B on every FILE, REPS times (interleaved: A B A B ...), and
# prints one JSON line per run with the label, the machine load (uptime) and the process wall
# time added. Usage: A=bin_a B=bin_b REPS=3 bench/m_setup/ab.sh FILE... > runs.jsonl
set -euo pipefail
reps=${REPS:-3}
for ((rep = 1; rep <= reps; ++rep)); do
  for file in "$@"; do
    for label in A B; do
      bin=${!label}
      load=$(cut -d' ' -f1 /proc/loadavg)
      start=$(date +%s.%N)
      line=$(nice -n 10 "$bin" solve "$file" --tol 1e-8 --json --no-history 2>/dev/null)
      end=$(date +%s.%N)
      /usr/bin/python3 -c '
import json, sys
d = json.loads(sys.argv[1])
d.update(label=sys.argv[2], rep=int(sys.argv[3]), load=float(sys.argv[4]),
         process_wall=float(sys.argv[6]) - float(sys.argv[5]))
print(json.dumps(d))' "$line" "$label" "$rep" "$load" "$start" "$end"
    done
  done
done
