#!/usr/bin/env bash
# The main job: installs missing packages, builds fcsn (Release) and solves every bundled FCLib
# problem of ../shared/data/gfc3d with the default policy, printing one table row per problem.
# Extra arguments go to `fcsn solve` (e.g. --tol 1e-8, --formulation jm, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/blas_env.sh
scripts/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target fcsn_cli >/dev/null
shopt -s nullglob
problems=(../shared/data/gfc3d/*.hdf5)
if ((${#problems[@]} == 0)); then
  echo "run_main: no problems found in ../shared/data/gfc3d" >&2
  exit 2
fi
# Exit code of fcsn solve: 0 all converged, 1 some did not (reported in the table), 2 bad input.
build/bin/fcsn solve "${problems[@]}" "$@"
