#!/usr/bin/env bash
# Installs the Debian 12 packages fcsn needs to build, test and run its CLI.
# Idempotent: packages already present are skipped, so it is cheap to call before every build.
# Usage: scripts/install_deps.sh [--bench] [--fuzz] [--mpi]
#   --bench adds the benchmark-only Siconos/matplotlib stack
#   --fuzz adds clang 14 and its libFuzzer runtime (scripts/fuzz.sh)
#   --mpi adds MPI MUMPS with PT-SCOTCH and OpenMPI (the FCSN_MUMPS=mpi flavour, scripts/test_mpi.sh);
#         they install side by side with the sequential MUMPS
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  libeigen3-dev
  libhdf5-dev
  libmumps-seq-dev
  libmetis-dev
  libsuitesparse-dev
  libopenblas-dev liblapack-dev
  libgtest-dev libgmock-dev
  libbenchmark-dev
  libcli11-dev
  nlohmann-json3-dev
  libfclib-dev
  python3-numpy python3-h5py
  universal-ctags
  python3-dev python3-pybind11 pybind11-dev python3-scipy python3-pytest python3-matplotlib
  python3-setuptools python3-wheel python3-pip python3-build
  # GetFEM, for the examples that take their matrices from it (examples/getfem)
  libgetfem-dev python3-getfem
)
for arg in "$@"; do
  case "$arg" in
    --bench) packages+=(libsiconos-numerics-dev python3-siconos python3-scipy python3-matplotlib time) ;;
    --fuzz) packages+=(clang-14 libclang-rt-14-dev) ;;
    --mpi) packages+=(libmumps-dev libmumps-ptscotch-dev mpi-default-dev mpi-default-bin) ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
echo "install_deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
