#!/usr/bin/env bash
# Builds the MPI flavour of fcsn (FCSN_MUMPS=mpi) in build-mpi/ -- the library, the `fcsn` command,
# the masonry-wall generator and the suites this flavour builds (linalg, Newton solvers, tests/mpi)
# -- and runs them: every
# test alone (one process), then the "mpi" label under mpirun with 2 processes (the linalg
# conformance and MUMPS suites, the solver suites, the replicated-data test of tests/mpi, the
# solves with M distributed over the ranks (C++ and C API, also on generated wall steps), and the
# `fcsn solve --json` comparison of 1 vs 2 processes on the shared problems and on coarse wall
# steps the generator writes, and `fcsn solve --distribute-m` at 1 and 2 processes against the
# replicated pure Newton).
# Installs missing Debian packages first (scripts/install_deps.sh --mpi). Uses ccache when
# installed. Usage: scripts/test_mpi.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh --mpi

build_dir=build-mpi
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DFCSN_MUMPS=mpi -DFCSN_BUILD_EXAMPLES=ON -DFCSN_BUILD_BENCHMARKS=OFF)
if command -v ccache >/dev/null; then
  # Paths below the checkout are hashed relative to it, so that a clone in another folder
  # (CI clones afresh) hits the cache too: with a cold cache a whole CI run took 37 min here.
  export CCACHE_BASEDIR=$PWD
  cmake_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# OpenMPI refuses to start as root unless told (containers, CI); 2 processes may exceed the cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# A session directory of this run's own: OpenMPI's default /tmp/ompi.<host>.<uid> was seen to fail
# with "File exists" when another MPI job on the machine started at the same moment.
OMPI_MCA_orte_tmpdir_base=$(mktemp -d /tmp/fcsn-ompi.XXXXXX)
export OMPI_MCA_orte_tmpdir_base
trap 'rm -rf "$OMPI_MCA_orte_tmpdir_base"' EXIT
jobs=$(nproc)
cmake -S . -B "$build_dir" -G Ninja "${cmake_args[@]}"
cmake --build "$build_dir" -j"$jobs"
# Open MPI 4.1 still races inside that directory: a singleton start creates ompi.<host>.<uid> and
# the last process to finish removes it, so two tests starting at the same moment under ctest -j
# can fail in orte_init ("A call to mkdir was unable to create the desired directory ... File
# exists", seen in CI on 2026-11-24) before any fcsn code runs. A failed test is therefore run
# once more here; the same tests run without retries in the Release and sanitizer stages.
retry=(--repeat until-pass:2)
# One process: every test of this flavour but the mpirun ones.
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" --timeout 600 "${retry[@]}" -LE mpi
# Two processes (each mpirun test reserves both processors: one at a time).
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" --timeout 600 "${retry[@]}" -L mpi
