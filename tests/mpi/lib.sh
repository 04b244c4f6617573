# tests/mpi/lib.sh: the setup shared by the `fcsn` command tests of this folder, sourced after
# their arguments are read. Defines:
#   python  Debian's interpreter when present (it has numpy and h5py: scripts/install_deps.sh;
#           another python3 may not);
#   tmp     a private temporary folder, removed when the script exits;
#   files   every FCLib file (*.hdf5) of the folder given as $1; none is an error (exit 1).
# and lets OpenMPI run as root and oversubscribe the 2-core CI machine.
mpi_cli_test_setup() {
  local dir=$1
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  python=python3
  [[ -x /usr/bin/python3 ]] && python=/usr/bin/python3
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  shopt -s nullglob
  files=("$dir"/*.hdf5)
  ((${#files[@]} > 0)) || { echo "no .hdf5 file in $dir" >&2; exit 1; }
}
