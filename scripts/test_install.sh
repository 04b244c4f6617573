#!/usr/bin/env bash
# Checks the installed package (issue 13 item 1): installs a built fcsn to a temporary prefix,
# then builds the consumer project examples/consumer against it with find_package(fcsn) (a C++
# main and the C example examples/c; the C example again in a C-only project), and both again
# with pkg-config, and runs them.
#   scripts/test_install.sh [BUILD_DIR]   install BUILD_DIR (default build, as left by
#                                         scripts/test.sh; static libfcsn by default)
#   scripts/test_install.sh --shared      first configure and build a shared libfcsn
#                                         (BUILD_SHARED_LIBS=ON, no tests) in build-shared/
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${1:-build}
if [[ "$build_dir" == "--shared" ]]; then
  build_dir=build-shared
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DFCSN_BUILD_TESTS=OFF -DFCSN_BUILD_BENCHMARKS=OFF -DFCSN_BUILD_EXAMPLES=OFF >/dev/null
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

# CMake consumer: find_package(fcsn) + fcsn::fcsn, C++ and C.
cmake -S examples/consumer -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/consumer"
"$tmp/consumer/consumer_cpp"
"$tmp/consumer/sliding_bar_c" >/dev/null
# The same C program in a project that enables only C.
cmake -S examples/consumer/c_only -B "$tmp/c_only" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/c_only"
"$tmp/c_only/sliding_bar_c" >/dev/null

# pkg-config consumers: the same two programs with plain compiler commands.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
read -r -a pc_flags <<<"$(pkg-config --cflags --libs --static fcsn)"
c++ -std=c++17 -O1 examples/consumer/consumer.cc -o "$tmp/consumer_pc" "${pc_flags[@]}" \
  -Wl,-rpath,"$prefix/lib"
"$tmp/consumer_pc" >/dev/null
cc -std=c99 -Wall -Wpedantic examples/c/sliding_bar.c -o "$tmp/sliding_bar_pc" "${pc_flags[@]}" \
  -Wl,-rpath,"$prefix/lib"
"$tmp/sliding_bar_pc" >/dev/null
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
