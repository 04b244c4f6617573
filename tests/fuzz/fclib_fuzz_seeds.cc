// Writes the seed corpus of fclib_reader_fuzzer into the folder given as the
// only argument: the small test problem of tests/problem in each storage
// (triplet, CSC, CSR), the same with a /solution and /guesses written by
// fcsn's writer, and every malformed case of MalformedCases().
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "fclib_test_files.h"
#include "fcsn/fclib_io.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fclib_fuzz_seeds DIR\n";
    return 2;
  }
  namespace t = fcsn::testing;
  const std::string dir = argv[1];
  std::filesystem::create_directories(dir);
  t::WriteSpec(dir + "/small_triplet.hdf5", t::SmallProblemSpec());
  t::WriteSpec(dir + "/small_csc.hdf5", t::SmallProblemSpec(t::Storage::kCsc));
  t::WriteSpec(dir + "/small_csr.hdf5", t::SmallProblemSpec(t::Storage::kCsr));
  const fcsn::GlobalProblem p = t::SmallProblem();
  fcsn::Solution s;
  s.v = Eigen::VectorXd::Ones(p.n());
  s.r = Eigen::VectorXd::Ones(p.m());
  const std::vector<fcsn::Solution> guesses = {s};
  std::string error;
  if (!fcsn::WriteGlobalProblem(
          dir + "/small_solution.hdf5", p, &s, &guesses, &error)) {
    std::cerr << error << "\n";
    return 1;
  }
  // Cases that need no file (a missing path) or a folder add nothing.
  const std::string scratch = dir + "/.scratch";
  std::filesystem::create_directories(scratch);
  for (const t::MalformedCase& c : t::MalformedCases()) {
    const std::string path = c.make(scratch);
    if (std::filesystem::is_regular_file(path) &&
        !std::filesystem::is_symlink(path)) {
      std::filesystem::copy_file(
          path,
          dir + "/malformed_" + c.name + ".hdf5",
          std::filesystem::copy_options::overwrite_existing);
    }
  }
  std::filesystem::remove_all(scratch);
  return 0;
}
