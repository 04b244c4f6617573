#!/usr/bin/env bash
# Builds the libFuzzer targets (FCLib reader, solver) with clang 14 in build-fuzz/ (ASan + UBSan) and runs
# them for a bounded time (CI: .ci/run). See tests/fuzz/ and bench/results/fuzz_reader.md.
#   scripts/fuzz.sh [SECONDS]     default 60: SECONDS for each target
# 1. fclib_structure_fuzzer: well-formed HDF5 files with hostile FCLib content. Any finding fails.
# 2. fclib_reader_fuzzer: corrupted HDF5 bytes. Seeds: tests/fuzz/fclib_fuzz_seeds output plus the
#    shared FCLib problems (../shared/data/gfc3d, read in place, never copied into the repository).
#    libhdf5 1.10 itself crashes on some of them (SIGSEGV in its metadata cache, unchecked malloc): a
#    crash whose innermost known frame is in libhdf5 (scripts/crashed_in_libhdf5.sh) is recorded in
#    build-fuzz/libhdf5_crashes/ and the run continues; a crash, leak or timeout in fcsn's code fails.
# 3. solver_fuzzer: small valid problems and bounded solve options, checked against the property
#    tests' invariants (tests/property); leaks checked. Seeds: tests/fuzz/data/solver/ (regression
#    inputs). Any finding fails. See bench/results/fuzz_solver.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh --fuzz
seconds=${1:-60}
build_dir=build-fuzz
launcher=()
if command -v ccache >/dev/null; then
  # As in scripts/test.sh: paths hashed relative to the checkout, so a fresh clone hits the cache.
  export CCACHE_BASEDIR=$PWD
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DFCSN_SANITIZE=ON -DFCSN_BUILD_FUZZ=ON -DFCSN_BUILD_BENCHMARKS=OFF -DFCSN_BUILD_EXAMPLES=OFF \
  ${launcher[@]+"${launcher[@]}"} >/dev/null
cmake --build "$build_dir" -j"$(nproc)" --target fclib_reader_fuzzer fclib_structure_fuzzer fclib_fuzz_seeds \
  solver_fuzzer
cd "$build_dir"
# detect_leaks=0: libhdf5 keeps internal allocations after some corrupt files (not fcsn's memory; ASan
# still checks every access). allocator_may_return_null: a forged size makes libhdf5 ask malloc for
# terabytes; as in production, malloc returns NULL. -rss_limit_mb bounds the memory of one input.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TMPDIR=${TMPDIR:-/tmp}
common=(-rss_limit_mb=2048 -timeout=20 -print_final_stats=1 -close_fd_mask=1)

mkdir -p structure_corpus
./bin/fclib_structure_fuzzer "${common[@]}" -max_total_time="$seconds" structure_corpus

# The solver allocates nothing in libhdf5: leaks are checked here (MUMPS' and fcsn's memory). A fixed
# seed and number of inputs from a fresh corpus (SOLVER_RUNS, default 25 per second asked for), so
# that CI replays the same inputs as a local run of this script; long runs: bench/results/fuzz_solver.md.
rm -rf solver_corpus && mkdir -p solver_corpus
ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=0/detect_leaks=1} LSAN_OPTIONS=suppressions=../scripts/lsan_suppressions.txt \
  ./bin/solver_fuzzer "${common[@]}" -seed=1 -runs="${SOLVER_RUNS:-$((25 * seconds))}" \
  -artifact_prefix=solver_ solver_corpus ../tests/fuzz/data/solver

./bin/fclib_fuzz_seeds reader_seeds
shared=../../shared/data/gfc3d
[[ -d "$shared" ]] || shared=
mkdir -p reader_corpus libhdf5_crashes
deadline=$((SECONDS + seconds))
while ((SECONDS < deadline)); do
  status=0
  ./bin/fclib_reader_fuzzer "${common[@]}" -max_total_time=$((deadline - SECONDS)) \
    -artifact_prefix=reader_ reader_corpus reader_seeds ${shared:+"$shared"} 2>reader.log || status=$?
  ((status == 0)) && break
  artifact=$(ls -t reader_crash-* reader_oom-* reader_timeout-* 2>/dev/null | head -1 || true)
  if [[ -n "$artifact" ]] && ../scripts/crashed_in_libhdf5.sh reader.log; then
    mv "$artifact" libhdf5_crashes/
    cp reader.log "libhdf5_crashes/${artifact}.log"
    echo "fuzz.sh: libhdf5 crashed on $artifact (kept in $build_dir/libhdf5_crashes); continuing" >&2
    continue
  fi
  tail -60 reader.log >&2
  echo "fuzz.sh: fclib_reader_fuzzer found a failure in fcsn: $build_dir/${artifact:-reader.log}" >&2
  exit 1
done
echo "fuzz.sh: no failure in fcsn; libhdf5 crashes: $(ls libhdf5_crashes | grep -cv '\.log$' || true)"
