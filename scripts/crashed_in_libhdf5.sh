#!/usr/bin/env bash
# Exit 0 when the sanitizer report LOG blames libhdf5: its innermost frame that is libhdf5's, fcsn's or
# the fuzz target's is libhdf5's (scripts/fuzz.sh records such crashes and goes on; any other fails).
#   scripts/crashed_in_libhdf5.sh LOG
# One awk, no pipe: under pipefail, `grep | grep -m1` failed by SIGPIPE when a long trace (C++
# template frames) outlived its reader, and a libhdf5 crash was once reported as fcsn's.
set -euo pipefail
awk '/^ +#[0-9]+ / && /libhdf5|fcsn::|LLVMFuzzerTestOneInput/ { found = 1; in_hdf5 = /libhdf5/; exit }
     END { exit !(found && in_hdf5) }' "$1"
