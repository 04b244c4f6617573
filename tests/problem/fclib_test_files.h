// Test-only FCLib file builder: an in-memory description of an HDF5 file
// (object path -> dataset) written with the raw HDF5 C API, independently of
// fcsn's writer, plus the table of malformed inputs shared by the reader tests
// (tests/problem) and the CLI tests (tests/cli).
#ifndef FCSN_TESTS_PROBLEM_FCLIB_TEST_FILES_H_
#define FCSN_TESTS_PROBLEM_FCLIB_TEST_FILES_H_

#include <Eigen/Core>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fcsn/problem.h"

namespace fcsn::testing {

// One dataset: int32, int64, float64 or fixed-length string; dims empty means
// a scalar dataspace. Hostile shapes: `unwritten` creates a chunked dataset of
// extent dims without writing it (no storage, reads as the fill value);
// `external_file` keeps the raw data in that file (HDF5 external storage).
struct DatasetSpec {
  enum class Kind { kInt, kInt64, kDouble, kString };
  Kind kind = Kind::kDouble;
  std::vector<unsigned long long> dims;
  std::vector<int> ints;
  std::vector<long long> int64s;
  std::vector<double> doubles;
  std::string text;
  bool unwritten = false;
  std::string external_file;
};
DatasetSpec IntArray(std::vector<int> values);
DatasetSpec Int64Array(std::vector<long long> values);
DatasetSpec DoubleArray(std::vector<double> values);
DatasetSpec Text(std::string text);
// float64[count] that the file declares but never stores.
DatasetSpec UnwrittenDoubles(unsigned long long count);

// Absolute object path -> dataset; groups are created implicitly. Paths ending
// in '/' are empty groups.
using FileSpec = std::map<std::string, DatasetSpec>;

// Writes the spec to `path` (overwriting it); fails the current test on an HDF5
// error.
void WriteSpec(const std::string& path, const FileSpec& spec);

// Removes every object at or below `prefix`.
void RemoveSubtree(FileSpec* spec, const std::string& prefix);

// Matrix storages FCLib knows.
enum class Storage { kTriplet, kCsc, kCsr };

// Adds /fclib_global/<name>/{m,n,nz,nzmax,i,p,x} for `a`. kTriplet writes the
// entries in a scrambled order (columns reversed); with split_first_entry the
// first triplet is written as two halves (a duplicate the reader must sum).
void AddMatrix(FileSpec* spec,
               const std::string& name,
               const SparseMatrix& a,
               Storage storage,
               bool split_first_entry = false);

// A small valid problem: n = 6, nc = 2, symmetric positive definite M with an
// explicit zero, H with an explicit zero.
GlobalProblem SmallProblem();

// SmallProblem() as a FileSpec (M and H in `storage`, with spacedim, vectors
// and info).
FileSpec SmallProblemSpec(Storage storage = Storage::kTriplet);

// One malformed input: Make(dir) creates it below dir and returns the path to
// read.
struct MalformedCase {
  std::string name;  // test-name suffix (CamelCase)
  std::function<std::string(const std::string&)> make;
  std::string expected;  // substring of the one-line error
};
// Building blocks of the case tables (fclib_test_files.cc,
// fclib_hostile_files.cc): object-path prefixes, a case made of
// SmallProblemSpec(storage) with one mutation, a case made by a function, and
// a raw text file.
inline const std::string kM = "/fclib_global/M/";
inline const std::string kH = "/fclib_global/H/";
inline const std::string kV = "/fclib_global/vectors/";
using SpecMutation = std::function<void(FileSpec*)>;
MalformedCase FromSpec(const std::string& name,
                       Storage storage,
                       SpecMutation mutate,
                       std::string expected);
MalformedCase FromFunction(std::string name,
                           std::function<std::string(const std::string&)> make,
                           std::string expected);
void WriteText(const std::string& path, const std::string& text);

// Every malformed input, HostileCases() included.
std::vector<MalformedCase> MalformedCases();

// Inputs crafted against the reader's resources and assumptions:
// forged extents and sizes that would make a trusting reader allocate
// gigabytes, int64 sizes beyond int, a symlink loop, a singular M (zero
// entries, or a zero row and column), raw data in an external file.
std::vector<MalformedCase> HostileCases();

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_PROBLEM_FCLIB_TEST_FILES_H_
