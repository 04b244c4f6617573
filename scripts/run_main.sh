#!/usr/bin/env bash
# The main job: installs missing packages, builds fcsn (Release), solves every bundled FCLib
# problem of ../shared/data/gfc3d with the default policy (one table row per problem), then runs
# what fcsn is for: a short masonry low-wall shear test (coarse blocks, 60 Moreau-Jean steps:
# gravity, then shear until the bed joints slide), with its per-step table, a picture
# (build/main_run/masonry_run.png) and ParaView files (build/main_run/vtk). A few minutes on 2 cores.
# Extra arguments go to `fcsn solve` (e.g. --tol 1e-8, --formulation jm, --json).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/blas_env.sh
scripts/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target fcsn_cli masonry_wall >/dev/null
shopt -s nullglob
problems=(../shared/data/gfc3d/*.hdf5)
if ((${#problems[@]} == 0)); then
  echo "run_main: no problems found in ../shared/data/gfc3d" >&2
  exit 2
fi
# Exit code: the worse of the two runs (0 all converged, 1 some did not, 2 bad input).
status=0
build/bin/fcsn solve "${problems[@]}" "$@" || status=$?
out=build/main_run
mkdir -p "$out"
echo
echo "masonry low wall, coarse blocks, 60 steps (examples/masonry_wall):"
wall=0
build/bin/masonry_wall --coarse --steps 60 --log "$out/masonry_log.csv" --vtk "$out/vtk" || wall=$?
((wall > status)) && status=$wall
/usr/bin/python3 scripts/plot_masonry_log.py "$out/masonry_log.csv" "$out/masonry_run.png"
exit "$status"
