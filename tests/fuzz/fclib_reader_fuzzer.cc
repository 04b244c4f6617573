// libFuzzer target on the FCLib reader (fcsn/fclib_io.h): each input is taken
// as the bytes of an HDF5 file and read with ReadGlobalProblem, then, when
// that succeeds, with ReadSolution and ReadGuesses. Besides crashes, leaks of
// fcsn's own memory and sanitizer reports, the contract is checked and a
// violation aborts: a read that succeeds gives a problem that passes
// Validate(); a read that fails gives one line "<path>: <what>".
//
// The bytes go through a file (in $TMPDIR, one per process) because the
// public API reads paths. libhdf5 is not instrumented; it does crash on some
// inputs (scripts/fuzz.sh sorts those out, bench/results/fuzz_reader.md).
#include <hdf5.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"

namespace {

std::string InputPath() {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/fcsn_fuzz_" +
         std::to_string(getpid()) + ".hdf5";
}

void Require(bool condition, const char* what, const std::string& detail) {
  if (condition) return;
  std::fprintf(stderr, "contract violated: %s: %s\n", what, detail.c_str());
  std::abort();
}

void CheckError(const std::string& path, const std::string& error) {
  Require(error.rfind(path + ": ", 0) == 0, "error names the file", error);
  Require(error.size() > path.size() + 2, "error says what is wrong", error);
  Require(error.find('\n') == std::string::npos, "error is one line", error);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // libhdf5 keeps internal state after some corrupt files; its exit handler
  // would report it at every exit of the fuzzer.
  H5dont_atexit();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = InputPath();
  FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return 0;
  const bool written = std::fwrite(data, 1, size, file) == size;
  if (std::fclose(file) != 0 || !written) return 0;

  fcsn::GlobalProblem problem;
  fcsn::FclibFileInfo info;
  std::string error;
  if (!fcsn::ReadGlobalProblem(path, {}, &problem, &info, &error)) {
    CheckError(path, error);
    return 0;
  }
  Require(error.empty(), "no error on success", error);
  Require(problem.Validate().empty(), "problem is valid", problem.Validate());
  fcsn::Solution solution;
  if (!fcsn::ReadSolution(path, problem.n(), problem.m(), &solution, &error))
    CheckError(path, error);
  std::vector<fcsn::Solution> guesses;
  if (!fcsn::ReadGuesses(path, problem.n(), problem.m(), &guesses, &error))
    CheckError(path, error);
  return 0;
}
