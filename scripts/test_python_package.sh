#!/usr/bin/env bash
# Checks the Python package as users get it (python/README.md), never the build tree's module:
#   1. pip builds it from the repository root (pyproject.toml, setup.py) without build isolation
#      and installs it into a fresh target folder; the pytest suite tests/python and the Python
#      examples then run against that folder, from outside the source tree;
#   2. python -m build makes the sdist and, from it alone, the wheel; the wheel must hold the
#      package and the extension (libfcsn linked in) and run the examples once installed.
#   scripts/test_python_package.sh
# Environment: PYTHON (default /usr/bin/python3, which has Debian's numpy, scipy, pytest),
# FCSN_CLI (the C++ command some tests compare with; default build/bin/fcsn when built).
# Builds go through ccache when installed (setup.py), so a second run compiles nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir=$PWD
python=${PYTHON:-/usr/bin/python3}
cli=${FCSN_CLI:-$source_dir/build/bin/fcsn}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_python_package: $*" >&2; exit 1; }

export CCACHE_BASEDIR=$source_dir
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PYTHONDONTWRITEBYTECODE=1

# Imports fcsn from $1 alone, from a folder outside the source tree, and runs the examples.
check_install() {
  local site=$1 example
  (cd "$tmp" && PYTHONPATH="$site" "$python" -c \
    "import fcsn, sys; sys.exit(not fcsn.__file__.startswith('$site/'))") ||
    fail "fcsn is not imported from $site"
  local module
  module=$(find "$site/fcsn" -name "_fcsn*.so" -print -quit)
  [[ -n "$module" ]] || fail "no extension module in $site/fcsn"
  if ldd "$module" | grep -q "libfcsn"; then fail "$module links a shared libfcsn"; fi
  for example in "$source_dir"/examples/python/*.py; do
    (cd "$tmp" && PYTHONPATH="$site" "$python" "$example" >/dev/null) ||
      fail "$example fails with the package installed in $site"
  done
}

site="$tmp/site"
"$python" -m pip install --quiet --no-build-isolation --no-deps --no-cache-dir \
  --target "$site" . || fail "pip install failed"
check_install "$site"

# The GetFEM example (examples/getfem/python), small, when python3-getfem is installed: it exits
# non-zero when a step does not converge or the block does not slide.
if "$python" -c "import getfem" 2>/dev/null; then
  mkdir "$tmp/getfem-run"
  (cd "$tmp/getfem-run" && PYTHONPATH="$site" "$python" \
    "$source_dir/examples/getfem/python/sliding_block.py" --cells 4 --steps 30 \
    --vtk "$tmp/getfem-vtk" >/dev/null) || fail "examples/getfem/python/sliding_block.py fails"
  [[ -f "$tmp/getfem-vtk/block_0030.vtk" ]] || fail "sliding_block.py wrote no VTK file"
  [[ -z "$(ls -A "$tmp/getfem-run")" ]] || fail "sliding_block.py wrote into its working folder"
  echo "test_python_package: the GetFEM example runs with the installed package"
else
  echo "test_python_package: python3-getfem is not installed: the GetFEM example is skipped"
fi

# pytest exits with 5 when it collected no test: a suite that silently vanished is a failure.
status=0
(cd "$tmp" && PYTHONPATH="$site" FCSN_PYTHON_SITE="$site" FCSN_CLI="$cli" \
  "$python" -m pytest -q -p no:cacheprovider "$source_dir/tests/python") || status=$?
((status != 5)) || fail "pytest collected no tests in tests/python"
((status == 0)) || fail "pytest failed (exit $status) on the package installed in $site"

dist="$tmp/dist"
"$python" -m build --no-isolation --outdir "$dist" . >"$tmp/build.log" 2>&1 ||
  { tail -n 30 "$tmp/build.log" >&2; fail "python -m build failed"; }
wheels=("$dist"/fcsn-*.whl)
[[ -f "${wheels[0]}" && -f $(echo "$dist"/fcsn-*.tar.gz) ]] || fail "no sdist or wheel in $dist"
"$python" -m pip install --quiet --no-deps --no-cache-dir --target "$tmp/site-wheel" \
  "${wheels[0]}" || fail "pip cannot install ${wheels[0]}"
check_install "$tmp/site-wheel"
echo "test_python_package: pip installs fcsn into a fresh folder; pytest and the examples pass" \
  "there; python -m build makes an sdist and a wheel that installs and runs"
