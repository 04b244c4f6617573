#!/usr/bin/env bash
# Side-by-side benchmark fcsn vs Siconos/numerics 4.4: installs the benchmark packages
# if missing, builds the driver (Release) and writes bench/results/<set>_<m-storage>.{csv,md}.
#
# Usage: bench/compare_siconos/run.sh [compare_siconos options] [FILE.hdf5|DIR ...]
#   no arguments      the shared problems /work/shared/data/gfc3d, M as stored, 4 tolerances,
#                     60 s limit, 3 repetitions
#   e.g.  run.sh --set wall --time-limit 120 /path/to/wall_problems
#         run.sh --m-storage symmetrized
#         run.sh --solvers sic-nsn-ac,fcsn-nsn-ac --tols 1e-8 --reps 5 FILE.hdf5
# Environment: FCSN_BUILD_DIR (default build), OPENBLAS_NUM_THREADS / OMP_NUM_THREADS (default 1,
# so that both solvers' BLAS run single-threaded on a shared machine; recorded in the report),
# OPENBLAS_CORETYPE (default from scripts/blas_env.sh: kernels matching the CPU, for both solvers),
# FCSN_FROM_HEAD=1 to build from a clean `git archive HEAD` export in /tmp instead of the working
# tree (others' uncommitted library edits then do not leak into published numbers).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
build=${FCSN_BUILD_DIR:-build}
src=.
extra=()
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ "${FCSN_FROM_HEAD:-0}" == 1 ]]; then
  src=/tmp/fcsn_head_$(git rev-parse HEAD)
  if [[ ! -f "$src/CMakeLists.txt" ]]; then  # same commit, same files: keep the build
    mkdir -p "$src"
    git archive HEAD | tar -x -C "$src"
  fi
  build=$src/build
  extra=(-G Ninja -DFCSN_BUILD_TESTS=OFF -DFCSN_BUILD_EXAMPLES=OFF
         "-DFCSN_SHARED_DIR=$(cd "$root/../shared" && pwd)")
  rev="$rev (clean export of HEAD)"
elif ! git diff --quiet HEAD -- include newton linalg problem formulations 2>/dev/null; then
  rev="$rev + uncommitted changes in the library"
fi

scripts/install_deps.sh --bench
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release "${extra[@]}" >/dev/null
cmake --build "$build" -j2 --target compare_siconos

source scripts/blas_env.sh
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
siconos=$(dpkg-query -W -f='${Version}' libsiconos-numerics-dev 2>/dev/null || echo '?')
mumps=$(dpkg-query -W -f='${Version}' libmumps-seq-dev 2>/dev/null || echo '?')

exec "$build/bin/compare_siconos" \
  --out-dir bench/results \
  --log-dir "$build/compare_siconos_logs" \
  --note "fcsn commit $rev; Siconos numerics $siconos (Debian); MUMPS seq $mumps" \
  "$@"
