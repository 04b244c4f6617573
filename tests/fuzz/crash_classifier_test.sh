#!/usr/bin/env bash
# scripts/crashed_in_libhdf5.sh on recorded sanitizer traces: a SEGV inside libhdf5 (reached through
# fcsn's reader, long C++ frames) is libhdf5's, the same trace with fcsn's frame innermost is fcsn's,
# a log without a trace is nobody's. Repeated: the old pipe classifier failed 6 times in 500.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=tests/fuzz/data
for i in $(seq 200); do
  scripts/crashed_in_libhdf5.sh "$data/libhdf5_segv.log" || { echo "libhdf5 trace not blamed on libhdf5 (run $i)"; exit 1; }
done
if scripts/crashed_in_libhdf5.sh "$data/fcsn_segv.log"; then echo "fcsn trace blamed on libhdf5"; exit 1; fi
if scripts/crashed_in_libhdf5.sh /dev/null; then echo "empty log blamed on libhdf5"; exit 1; fi
echo "crash classifier: ok"
