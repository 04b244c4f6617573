#!/usr/bin/env bash
# Builds fcsn with its tests and runs them (the README's test command; CI runs it too).
#   scripts/test.sh              Release build in build/, every test, with the Python module and
#                                its pytest suite (tests/python, via ctest)
#   scripts/test.sh --sanitize   AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/
# The Release pass then installs to a temporary prefix and builds and runs the consumer projects
# against the installed package (scripts/test_install.sh), for a static and a shared libfcsn,
# and checks the Python package built and installed by pip (scripts/test_python_package.sh).
# Installs missing Debian packages first (scripts/install_deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh

build_dir=build
# The Python module (python/README.md) is built for Debian's interpreter, which has numpy, scipy
# and pytest (a pyenv python3 first on PATH has not); ctest runs its pytest suite and example.
cmake_args=(-DCMAKE_BUILD_TYPE=Release -DFCSN_REQUIRE_FCLIB_ORACLE=ON -DFCSN_BUILD_PYTHON=ON
            -DPython3_EXECUTABLE=/usr/bin/python3)
ctest_args=()
if [[ "${1:-}" == "--sanitize" ]]; then
  build_dir=build-asan
  # RelWithDebInfo keeps the sanitizer run fast enough for CI while giving line numbers.
  # The example test suites (long masonry wall runs) are covered by the Release pass; here one
  # short masonry run (below) puts the example's time loop under the sanitizers.
  # No Python module: an instrumented extension would need libasan preloaded into python3.
  cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DFCSN_SANITIZE=ON -DFCSN_BUILD_BENCHMARKS=OFF
              -DFCSN_REQUIRE_FCLIB_ORACLE=ON -DFCSN_BUILD_PYTHON=OFF)
  ctest_args=(-LE examples)
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # libhdf5's own leaks on corrupted files (the CLI tests run fcsn on some) are not fcsn's.
  export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan_suppressions.txt:print_suppressions=0
fi
# ccache (installed by install_deps.sh) makes a repeated run on the same machine rebuild only what
# changed; the builds dominate CI's time (~24 of ~31 min cold on the 2-core VM).
if command -v ccache >/dev/null; then
  # Paths below the checkout are hashed relative to it, so that a clone in another folder
  # (CI clones afresh) hits the cache too: with a cold cache a whole CI run took 37 min here.
  export CCACHE_BASEDIR=$PWD
  cmake_args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
jobs=$(nproc)
cmake -S . -B "$build_dir" -G Ninja "${cmake_args[@]}"
cmake --build "$build_dir" -j"$jobs"
ctest --test-dir "$build_dir" --output-on-failure -j"$jobs" --timeout 600 ${ctest_args[@]+"${ctest_args[@]}"}
if [[ "$build_dir" == build-asan ]]; then
  run_dir=$(mktemp -d)
  "$build_dir/bin/masonry_wall" --coarse --steps 3 --log "$run_dir/log.csv" >/dev/null
  rm -rf "$run_dir"
fi
if [[ "$build_dir" == build ]]; then
  scripts/test_install.sh "$build_dir"  # static libfcsn, as built above
  scripts/test_install.sh --shared      # shared libfcsn: library and CLI only, in build-shared/
  scripts/test_python_package.sh        # the pip-installed Python package (pyproject.toml)
fi
