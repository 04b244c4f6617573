// libfclib (Debian libfclib-dev 3.1.0) as an oracle for fcsn's FCLib I/O, and
// a record of why fcsn does not read through it.
//
// Findings:
//  * fclib_read_global reads the shared problems and files written by fcsn
//    with the same data (triplets with i = row, p = column). Checked below.
//  * On a file missing a dataset it prints the HDF5 error stack and calls
//    exit(1), killing the host process. Checked below (death test).
//  * On a missing or non-HDF5 file it returns NULL but prints the HDF5 error
//    stack (checked by hand).
//  * From its source (src/fclib.c): it allocates p/i from the header counts
//    and then reads whole datasets into them, so a header that undercounts
//    overflows the heap; fclib_read_solution sizes r by H's row count (n)
//    instead of its column count (m).
//  * fclib_delete_global frees the members but not the fclib_global struct
//    itself (LeakSanitizer); DeleteGlobal() below frees it.
// So fcsn reads and writes with the HDF5 C API (problem/fclib_io.cc).
extern "C" {
#include <fclib.h>
}

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <Eigen/SparseCore>
#include <cstdlib>
#include <string>
#include <vector>

#include "fclib_test_files.h"
#include "fcsn/fclib_io.h"
#include "test_util.h"

namespace fcsn {
namespace {

// The fclib matrix (triplet, i = row, p = column) as an Eigen matrix
// (duplicates summed).
SparseMatrix FromFclib(const fclib_matrix& a) {
  std::vector<Eigen::Triplet<double, int>> triplets;
  EXPECT_GE(a.nz, 0) << "fcsn writes triplets";
  for (int k = 0; k < a.nz; ++k) triplets.emplace_back(a.i[k], a.p[k], a.x[k]);
  SparseMatrix out(a.m, a.n);
  out.setFromTriplets(triplets.begin(), triplets.end());
  out.makeCompressed();
  return out;
}

// fclib_delete_global plus the struct it forgets to free.
void DeleteGlobal(fclib_global* g) {
  fclib_delete_global(g);
  std::free(g);
}

void ExpectSameAsFclib(const GlobalProblem& p, const fclib_global& g) {
  EXPECT_EQ(g.spacedim, 3);
  ASSERT_NE(g.M, nullptr);
  ASSERT_NE(g.H, nullptr);
  EXPECT_EQ(g.G, nullptr);
  EXPECT_EQ(g.M->m, p.n());
  EXPECT_EQ(g.M->n, p.n());
  EXPECT_EQ(g.H->m, p.n());
  EXPECT_EQ(g.H->n, p.m());
  EXPECT_EQ(Eigen::MatrixXd(FromFclib(*g.M)), Eigen::MatrixXd(p.M));
  EXPECT_EQ(Eigen::MatrixXd(FromFclib(*g.H)), Eigen::MatrixXd(p.H));
  EXPECT_EQ(Eigen::Map<const Eigen::VectorXd>(g.f, p.n()), p.f);
  EXPECT_EQ(Eigen::Map<const Eigen::VectorXd>(g.w, p.m()), p.w);
  EXPECT_EQ(Eigen::Map<const Eigen::VectorXd>(g.mu, p.nc()), p.mu);
}

TEST(FclibOracleTest, ReadsAFileWrittenByFcsnWithIdenticalData) {
  const GlobalProblem p = testing::SmallProblem();
  const std::string path = testing::TempDir() + "/oracle_small.hdf5";
  std::string error;
  WriteOptions options;
  options.title = "oracle";
  ASSERT_TRUE(WriteGlobalProblem(path, p, nullptr, nullptr, &error, options))
      << error;
  fclib_global* g = fclib_read_global(path.c_str());
  ASSERT_NE(g, nullptr);
  ExpectSameAsFclib(p, *g);
  ASSERT_NE(g->info, nullptr);
  EXPECT_EQ(std::string(g->info->title), "oracle");
  EXPECT_EQ(g->M->nz, static_cast<int>(p.M.nonZeros()));  // explicit zeros kept
  DeleteGlobal(g);
}

TEST(FclibOracleTest, AgreesOnEverySharedProblemReadAsStored) {
  for (const char* file : {"GFC3D_Example1.hdf5",
                           "GFC3D_TwoRods1.hdf5",
                           "CubeH8.hdf5",
                           "Box_Stacks-i0122-82-5.hdf5"}) {
    SCOPED_TRACE(file);
    const std::string path = testing::SharedProblem(file);
    ReadOptions as_stored;
    as_stored.m_storage = MStorage::kAsStored;
    GlobalProblem p;
    std::string error;
    ASSERT_TRUE(ReadGlobalProblem(path, as_stored, &p, nullptr, &error))
        << error;
    fclib_global* g = fclib_read_global(path.c_str());
    ASSERT_NE(g, nullptr);
    ExpectSameAsFclib(p, *g);
    DeleteGlobal(g);
  }
}

TEST(FclibOracleDeathTest, FclibExitsTheProcessOnAMissingDataset) {
  testing::FileSpec spec = testing::SmallProblemSpec();
  spec.erase("/fclib_global/vectors/f");
  const std::string path = testing::TempDir() + "/oracle_missing_f.hdf5";
  testing::WriteSpec(path, spec);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      fclib_read_global(path.c_str()),
      [](int status) { return WIFEXITED(status) && WEXITSTATUS(status) != 0; },
      "HDF5");
  // fcsn reports the same file in one line instead.
  GlobalProblem p;
  std::string error;
  EXPECT_FALSE(ReadGlobalProblem(path, ReadOptions(), &p, nullptr, &error));
  EXPECT_EQ(error, path + ": dataset /fclib_global/vectors/f is missing");
}

}  // namespace
}  // namespace fcsn
