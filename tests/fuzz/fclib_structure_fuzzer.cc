// Structure-aware libFuzzer target on the FCLib reader (fcsn/fclib_io.h):
// each input drives the content of a well-formed HDF5 file (written with the
// raw HDF5 API by tests/problem/fclib_test_files) whose FCLib content is
// hostile: sizes off by a little or by 2^31, nz in any storage, indices out
// of range, integer/float/string types, rank 0-2 shapes, extents without
// storage, NaN/inf values, missing objects, /solution and /guesses. It aims
// at fcsn's own checks and decoding; fclib_reader_fuzzer covers corrupted
// HDF5 bytes, where libhdf5 1.10 itself crashes (see
// bench/results/fuzz_reader.md).
//
// Checked on every input: no crash or sanitizer report, peak memory under
// libFuzzer's -rss_limit_mb, and the contract: success gives a problem that
// passes Validate(); failure gives one line "<path>: <what>".
#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "fclib_test_files.h"
#include "fcsn/fclib_io.h"

namespace {

using fcsn::testing::DatasetSpec;
using fcsn::testing::FileSpec;

void Require(bool condition, const char* what, const std::string& detail) {
  if (condition) return;
  std::fprintf(stderr, "contract violated: %s: %s\n", what, detail.c_str());
  std::abort();
}

void CheckError(const std::string& path, const std::string& error) {
  Require(error.rfind(path + ": ", 0) == 0, "error names the file", error);
  Require(error.find('\n') == std::string::npos, "error is one line", error);
}

// Mostly `consistent`, sometimes near it, sometimes extreme.
long long Size(FuzzedDataProvider& in, long long consistent) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0:
      return consistent + in.ConsumeIntegralInRange<int>(-3, 3);
    case 1:
      return in.ConsumeIntegral<int>();
    case 2:
      return in.PickValueInArray<long long>(
          {-1, -2, -3, 0, 2147483647LL, 2147483646LL, 4294967302LL});
    default:
      return consistent;
  }
}

double Value(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 20)) {
    case 0:
      return std::numeric_limits<double>::quiet_NaN();
    case 1:
      return std::numeric_limits<double>::infinity();
    case 2:
      return 0.0;
    default:
      return in.ConsumeFloatingPointInRange<double>(-10.0, 10.0);
  }
}

// A dataset meant to hold `count` numbers in [lo, hi] (integers) or values;
// the provider may change its kind, shape or length.
DatasetSpec Array(
    FuzzedDataProvider& in, bool integer, long long count, int lo, int hi) {
  const long long length =
      std::max(0LL, std::min<long long>(Size(in, count), 256));
  DatasetSpec d;
  const int kind = in.ConsumeIntegralInRange<int>(0, 31);
  if (kind == 0) return fcsn::testing::Text("not numbers");
  if (kind == 1)
    return fcsn::testing::UnwrittenDoubles(
        in.PickValueInArray<unsigned long long>({1024, 1u << 20, 2147483646}));
  const bool as_int = kind == 2 ? !integer : integer;
  for (long long k = 0; k < length; ++k) {
    if (as_int) {
      d.ints.push_back(in.ConsumeIntegralInRange<int>(0, 50) == 0
                           ? in.ConsumeIntegral<int>()
                           : in.ConsumeIntegralInRange<int>(lo, hi));
    } else {
      d.doubles.push_back(Value(in));
    }
  }
  d.kind = as_int ? DatasetSpec::Kind::kInt : DatasetSpec::Kind::kDouble;
  d.dims = {static_cast<unsigned long long>(length)};
  if (kind == 3 && length == 6) d.dims = {2, 3};
  if (kind == 4 && length == 1) d.dims = {};
  return d;
}

DatasetSpec Scalar(FuzzedDataProvider& in, long long consistent) {
  const long long value = Size(in, consistent);
  if (value < std::numeric_limits<int>::min() ||
      value > std::numeric_limits<int>::max() ||
      in.ConsumeIntegralInRange<int>(0, 15) == 0) {
    return fcsn::testing::Int64Array({value});
  }
  return fcsn::testing::IntArray({static_cast<int>(value)});
}

void AddMatrix(FuzzedDataProvider& in,
               FileSpec* spec,
               const std::string& name,
               int rows,
               int cols) {
  const std::string g = "/fclib_global/" + name + "/";
  const int storage = in.ConsumeIntegralInRange<int>(-2, 0);
  const int nnz = in.ConsumeIntegralInRange<int>(0, 3 * std::max(rows, cols));
  const int outer = storage == -1 ? cols : rows;
  const int inner = storage == -1 ? rows : cols;
  (*spec)[g + "m"] = Scalar(in, rows);
  (*spec)[g + "n"] = Scalar(in, cols);
  (*spec)[g + "nz"] = Scalar(in, storage == 0 ? nnz : storage);
  (*spec)[g + "nzmax"] = Scalar(in, nnz);
  if (storage == 0) {
    (*spec)[g + "i"] = Array(in, true, nnz, -1, rows);
    (*spec)[g + "p"] = Array(in, true, nnz, -1, cols);
  } else {
    DatasetSpec p = Array(in, true, outer + 1, 0, nnz);
    if (in.ConsumeBool()) {  // monotone pointers from 0 reach the decoding
      std::sort(p.ints.begin(), p.ints.end());
      if (!p.ints.empty()) p.ints.front() = 0;
    }
    (*spec)[g + "p"] = p;
    (*spec)[g + "i"] = Array(in, true, nnz, -1, inner);
  }
  (*spec)[g + "x"] = Array(in, false, nnz, 0, 0);
}

void AddPoint(FuzzedDataProvider& in,
              FileSpec* spec,
              const std::string& group,
              int n,
              int m) {
  (*spec)[group + "/v"] = Array(in, false, n, 0, 0);
  (*spec)[group + "/r"] = Array(in, false, m, 0, 0);
  if (in.ConsumeBool()) (*spec)[group + "/u"] = Array(in, false, m, 0, 0);
}

FileSpec MakeSpec(FuzzedDataProvider& in) {
  const int n = in.ConsumeIntegralInRange<int>(0, 9);
  const int nc = in.ConsumeIntegralInRange<int>(0, 3);
  const int m = 3 * nc;
  FileSpec spec;
  spec["/fclib_global/spacedim"] = Scalar(in, 3);
  AddMatrix(in, &spec, "M", n, n);
  AddMatrix(in, &spec, "H", n, m);
  spec["/fclib_global/vectors/f"] = Array(in, false, n, 0, 0);
  spec["/fclib_global/vectors/w"] = Array(in, false, m, 0, 0);
  spec["/fclib_global/vectors/mu"] = Array(in, false, nc, 0, 0);
  spec["/fclib_global/info/title"] =
      fcsn::testing::Text(in.ConsumeRandomLengthString(64));
  if (in.ConsumeBool()) AddPoint(in, &spec, "/solution", n, m);
  if (in.ConsumeBool()) {
    spec["/guesses/number_of_guesses"] = Scalar(in, 1);
    AddPoint(in, &spec, "/guesses/1", n, m);
  }
  // Remove a few objects.
  const int removals = in.ConsumeIntegralInRange<int>(0, 2);
  for (int k = 0; k < removals && !spec.empty(); ++k) {
    auto it = spec.begin();
    std::advance(it, in.ConsumeIntegralInRange<size_t>(0, spec.size() - 1));
    spec.erase(it);
  }
  return spec;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  H5dont_atexit();
  // The spec writer may ask HDF5 for shapes it refuses; that is no finding.
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path =
      std::string(std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR")
                                                   : "/tmp") +
      "/fcsn_structure_fuzz_" + std::to_string(getpid()) + ".hdf5";
  FuzzedDataProvider in(data, size);
  fcsn::testing::WriteSpec(path, MakeSpec(in));

  const fcsn::MStorage storage =
      in.ConsumeBool() ? fcsn::MStorage::kAuto : fcsn::MStorage::kAsStored;
  fcsn::ReadOptions options;
  options.m_storage = storage;
  fcsn::GlobalProblem problem;
  std::string error;
  if (!fcsn::ReadGlobalProblem(path, options, &problem, nullptr, &error)) {
    CheckError(path, error);
    return 0;
  }
  Require(problem.Validate().empty(), "problem is valid", problem.Validate());
  fcsn::Solution solution;
  if (!fcsn::ReadSolution(path, problem.n(), problem.m(), &solution, &error))
    CheckError(path, error);
  std::vector<fcsn::Solution> guesses;
  if (!fcsn::ReadGuesses(path, problem.n(), problem.m(), &guesses, &error))
    CheckError(path, error);
  return 0;
}
