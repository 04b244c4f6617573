#!/usr/bin/env bash
# Checks the installed package: installs a built fcsn to a temporary prefix,
# then builds the consumer projects examples/consumer against it with find_package(fcsn) (a C++
# main and the C example examples/c; then a C-only, a C++-only and a C++14 project, and a shared
# library linking fcsn called by a program), and the C and C++ programs again with plain
# pkg-config, and runs them; then the GetFEM example examples/getfem/cpp (skipped with a note
# when GetFEM is not installed).
#   scripts/test_install.sh [BUILD_DIR]   install BUILD_DIR (default build, as left by
#                                         scripts/test.sh; static libfcsn by default)
#   scripts/test_install.sh --shared      first configure and build a shared libfcsn
#                                         (BUILD_SHARED_LIBS=ON, no tests) in build-shared/
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${1:-build}
if [[ "$build_dir" == "--shared" ]]; then
  build_dir=build-shared
  launcher=()
  if command -v ccache >/dev/null; then
    # As in scripts/test.sh: paths hashed relative to the checkout (a fresh clone hits the cache).
    export CCACHE_BASEDIR=$PWD
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DFCSN_BUILD_TESTS=OFF -DFCSN_BUILD_BENCHMARKS=OFF -DFCSN_BUILD_EXAMPLES=OFF \
    ${launcher[@]+"${launcher[@]}"} >/dev/null
  cmake --build "$build_dir" -j"$(nproc)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
fail() { echo "test_install: $*" >&2; exit 1; }

cmake --install "$build_dir" --prefix "$prefix" >/dev/null

# Public headers only: include/fcsn/*.h, nothing from the modules' internal folders, and no path
# into the source or build tree in the exported targets.
internal=$(find "$prefix/include" -type f ! -path "$prefix/include/fcsn/*.h")
[[ -z "$internal" ]] || fail "files besides include/fcsn/*.h installed: $internal"
[[ -f "$prefix/include/fcsn/fcsn_c.h" && -f "$prefix/include/fcsn/config.h" ]] ||
  fail "fcsn_c.h or config.h not installed"
if grep -rqF -e "$PWD" "$prefix/lib/cmake/fcsn" "$prefix/lib/pkgconfig"; then
  fail "the package files refer to the source or build tree ($PWD)"
fi
ls "$prefix"/lib/libfcsn.* >/dev/null 2>&1 || fail "no libfcsn installed"
"$prefix/bin/fcsn" --help >/dev/null || fail "the installed fcsn command does not run"

# CMake consumers (examples/consumer and its subfolders; each CMakeLists.txt says what it proves):
# find_package(fcsn) + fcsn::fcsn, built and run.
build_consumer() {  # build_consumer SUBFOLDER: configures and builds it in $tmp/consumer/SUBFOLDER
  cmake -S "examples/consumer/$1" -B "$tmp/consumer/$1" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null || fail "examples/consumer/$1 does not configure"
  cmake --build "$tmp/consumer/$1" || fail "examples/consumer/$1 does not build"
}
build_consumer .         # C++ and C in one project
"$tmp/consumer/consumer_cpp" >/dev/null || fail "consumer_cpp fails"
"$tmp/consumer/sliding_bar_c" >/dev/null || fail "sliding_bar_c fails"
build_consumer c_only    # project(... LANGUAGES C)
"$tmp/consumer/c_only/sliding_bar_c" >/dev/null || fail "c_only/sliding_bar_c fails"
build_consumer cxx_only  # project(... LANGUAGES CXX)
"$tmp/consumer/cxx_only/consumer_cpp" >/dev/null || fail "cxx_only/consumer_cpp fails"
build_consumer cxx14     # CMAKE_CXX_STANDARD 14
"$tmp/consumer/cxx14/consumer_cpp" >/dev/null || fail "cxx14/consumer_cpp fails"
build_consumer plugin    # libfcsn inside a SHARED library, called by a program
"$tmp/consumer/plugin/sliding_point_host" >/dev/null || fail "plugin/sliding_point_host fails"

# pkg-config consumers: a C and a C++ program with plain compiler commands and plain
# `pkg-config --cflags --libs fcsn` (no --static, whether libfcsn is static or shared).
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
read -r -a pc_flags <<<"$(pkg-config --cflags --libs fcsn)"
c++ -std=c++17 -O1 examples/consumer/consumer.cc examples/consumer/sliding_point.cc \
  -o "$tmp/consumer_pc" "${pc_flags[@]}" -Wl,-rpath,"$prefix/lib" ||
  fail "the C++ program does not build with pkg-config"
"$tmp/consumer_pc" >/dev/null || fail "consumer_pc fails"
cc -std=c99 -Wall -Wpedantic examples/c/sliding_bar.c -o "$tmp/sliding_bar_pc" "${pc_flags[@]}" \
  -Wl,-rpath,"$prefix/lib" || fail "the C program does not build with pkg-config"
"$tmp/sliding_bar_pc" >/dev/null || fail "sliding_bar_pc fails"
# A FEM code that is not fcsn's: the GetFEM example (examples/getfem/cpp), built with
# find_package(fcsn) and getfem-config, run small from an empty folder with its VTK output in a
# folder it must create; it exits non-zero when a step does not converge or the block does not
# slide, and it must write nothing into the folder it runs from.
if command -v getfem-config >/dev/null; then
  cmake -S examples/getfem/cpp -B "$tmp/getfem" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" >/dev/null || fail "examples/getfem/cpp does not configure"
  cmake --build "$tmp/getfem" || fail "examples/getfem/cpp does not build"
  mkdir "$tmp/getfem-run"
  (cd "$tmp/getfem-run" &&
    "$tmp/getfem/sliding_block" --cells 4 --steps 30 --vtk "$tmp/getfem-vtk/run" >/dev/null) ||
    fail "examples/getfem/cpp: sliding_block fails"
  [[ -f "$tmp/getfem-vtk/run/block_0030.vtk" ]] || fail "sliding_block wrote no VTK file"
  [[ -z "$(ls -A "$tmp/getfem-run")" ]] || fail "sliding_block wrote into its working folder"
  echo "test_install: the GetFEM example builds against the installed fcsn and runs"
else
  echo "test_install: GetFEM is not installed (no getfem-config, libgetfem-dev): the GetFEM" \
    "example is skipped"
fi
# The Python package, when built (FCSN_BUILD_PYTHON): imported from the prefix alone, with the
# interpreter it was built for, outside the source tree; runs the Python example.
module=$(find "$prefix" -name "_fcsn*.so" -print -quit)
if [[ -n "$module" ]]; then
  site=$(dirname "$(dirname "$module")")
  source_dir=$PWD
  python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
  (cd "$tmp" && PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "$python" -c \
    "import fcsn, sys; sys.exit(not fcsn.__file__.startswith('$site'))") ||
    fail "fcsn is not imported from $site"
  (cd "$tmp" && PYTHONPATH="$site" PYTHONDONTWRITEBYTECODE=1 "$python" \
    "$source_dir/examples/python/sliding_bar.py" >/dev/null) ||
    fail "examples/python/sliding_bar.py fails with the installed package"
  echo "test_install: the Python package in ${site#"$prefix"/} runs the Python example"
fi
echo "test_install: $build_dir installs to a prefix; find_package and pkg-config consumers run"
