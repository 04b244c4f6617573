// FCLib reader/writer: the shared problems, exact round trips, the three
// storages, the upper- triangle M of LMGC90 files, and a table of malformed
// inputs that must each give false plus one line naming the file (never a
// crash, an abort or HDF5's error stack on stderr).
#include "fcsn/fclib_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <Eigen/SparseCore>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "fclib_test_files.h"
#include "test_util.h"

namespace fcsn {
namespace {

using ::testing::HasSubstr;
using testing::MalformedCase;
using ::testing::Not;
using testing::SharedProblem;
using testing::Storage;
using testing::TempDir;

// Same sizes, same pattern (explicit zeros included) and bitwise-equal values.
::testing::AssertionResult SameSparse(const SparseMatrix& a_in,
                                      const SparseMatrix& b_in) {
  SparseMatrix a = a_in, b = b_in;
  a.makeCompressed();
  b.makeCompressed();
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    return ::testing::AssertionFailure()
           << "sizes " << a.rows() << "x" << a.cols() << " vs " << b.rows()
           << "x" << b.cols();
  }
  if (a.nonZeros() != b.nonZeros()) {
    return ::testing::AssertionFailure()
           << "nnz " << a.nonZeros() << " vs " << b.nonZeros();
  }
  for (int j = 0; j <= a.cols(); ++j) {
    if (a.outerIndexPtr()[j] != b.outerIndexPtr()[j]) {
      return ::testing::AssertionFailure()
             << "column pointer " << j << " differs";
    }
  }
  for (int k = 0; k < a.nonZeros(); ++k) {
    if (a.innerIndexPtr()[k] != b.innerIndexPtr()[k] ||
        a.valuePtr()[k] != b.valuePtr()[k]) {
      return ::testing::AssertionFailure() << "entry " << k << " differs";
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult SameVector(const Eigen::VectorXd& a,
                                      const Eigen::VectorXd& b) {
  if (a.size() != b.size()) {
    return ::testing::AssertionFailure()
           << "sizes " << a.size() << " vs " << b.size();
  }
  if (a != b) return ::testing::AssertionFailure() << "values differ";
  return ::testing::AssertionSuccess();
}

void ExpectSameProblem(const GlobalProblem& a, const GlobalProblem& b) {
  EXPECT_TRUE(SameSparse(a.M, b.M)) << "M";
  EXPECT_TRUE(SameSparse(a.H, b.H)) << "H";
  EXPECT_TRUE(SameVector(a.f, b.f)) << "f";
  EXPECT_TRUE(SameVector(a.w, b.w)) << "w";
  EXPECT_TRUE(SameVector(a.mu, b.mu)) << "mu";
}

void ExpectSamePoint(const Solution& a, const Solution& b) {
  EXPECT_TRUE(SameVector(a.v, b.v)) << "v";
  EXPECT_TRUE(SameVector(a.u, b.u)) << "u";
  EXPECT_TRUE(SameVector(a.r, b.r)) << "r";
}

Solution RandomPoint(const GlobalProblem& p) {
  Solution s;
  s.v = Eigen::VectorXd::Random(p.n());
  s.r = Eigen::VectorXd::Random(p.m());
  s.u = Eigen::VectorXd::Random(p.m());
  return s;
}

std::string TestName(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

// ----- The shared problems (sizes from data/gfc3d/README.md).

struct SharedFile {
  const char* file;
  int n, m, nc;
  bool upper_triangle;
};

const SharedFile kSharedFiles[] = {
    {"GFC3D_Example00.hdf5", 3, 3, 1, false},
    {"GFC3D_Example00_badly_scaled.hdf5", 3, 3, 1, false},
    {"GFC3D_Example0.hdf5", 9, 3, 1, false},
    {"GFC3D_Example1.hdf5", 3, 3, 1, false},
    {"GFC3D_OneContact.hdf5", 39, 3, 1, false},
    {"GFC3D_TwoRods1.hdf5", 54, 9, 3, false},
    {"CubeH8.hdf5", 162, 3, 1, true},
    {"Box_Stacks-i0122-82-5.hdf5", 450, 246, 82, false},
};

class SharedFileTest : public ::testing::TestWithParam<SharedFile> {};

TEST_P(SharedFileTest, ReadsWithTheSizesOfTheReadme) {
  const SharedFile& s = GetParam();
  GlobalProblem p;
  FclibFileInfo info;
  std::string error;
  ASSERT_TRUE(ReadGlobalProblem(
      SharedProblem(s.file), ReadOptions(), &p, &info, &error))
      << error;
  EXPECT_EQ(p.n(), s.n);
  EXPECT_EQ(p.m(), s.m);
  EXPECT_EQ(p.nc(), s.nc);
  EXPECT_EQ(p.Validate(), "");
  EXPECT_EQ(info.m_format, "triplet");
  EXPECT_EQ(info.h_format, "triplet");
  EXPECT_EQ(info.m_upper_triangular, s.upper_triangle);
  EXPECT_EQ(info.m_symmetrized, s.upper_triangle);
  EXPECT_FALSE(info.title.empty());
  EXPECT_FALSE(p.HasEqualityConstraints());
}

TEST_P(SharedFileTest, WriteThenReadGivesIdenticalData) {
  const SharedFile& s = GetParam();
  ReadOptions as_stored;
  as_stored.m_storage =
      MStorage::kAsStored;  // write back exactly what the file holds
  GlobalProblem p;
  std::string error;
  ASSERT_TRUE(
      ReadGlobalProblem(SharedProblem(s.file), as_stored, &p, nullptr, &error))
      << error;
  const Solution solution = RandomPoint(p);
  const std::vector<Solution> guesses = {RandomPoint(p), RandomPoint(p)};
  WriteOptions write_options;
  write_options.title = "round trip of " + std::string(s.file);
  const std::string path =
      TempDir() + "/roundtrip_" + TestName(s.file) + ".hdf5";
  ASSERT_TRUE(
      WriteGlobalProblem(path, p, &solution, &guesses, &error, write_options))
      << error;

  GlobalProblem q;
  FclibFileInfo info;
  ASSERT_TRUE(ReadGlobalProblem(path, as_stored, &q, &info, &error)) << error;
  ExpectSameProblem(p, q);
  EXPECT_EQ(info.title, write_options.title);
  EXPECT_EQ(info.math_info, "unknown");
  EXPECT_TRUE(info.has_solution);
  EXPECT_EQ(info.number_of_guesses, 2);
  EXPECT_EQ(info.m_upper_triangular, s.upper_triangle);

  Solution read_solution;
  ASSERT_TRUE(ReadSolution(path, q.n(), q.m(), &read_solution, &error))
      << error;
  ExpectSamePoint(solution, read_solution);
  std::vector<Solution> read_guesses;
  ASSERT_TRUE(ReadGuesses(path, q.n(), q.m(), &read_guesses, &error)) << error;
  ASSERT_EQ(read_guesses.size(), 2u);
  ExpectSamePoint(guesses[0], read_guesses[0]);
  ExpectSamePoint(guesses[1], read_guesses[1]);
}

INSTANTIATE_TEST_SUITE_P(SharedData,
                         SharedFileTest,
                         ::testing::ValuesIn(kSharedFiles),
                         [](const ::testing::TestParamInfo<SharedFile>& info) {
                           return TestName(info.param.file);
                         });

// ----- Upper-triangle M (LMGC90's CubeH8).

TEST(FclibIoTest, CubeH8UpperTriangleAsStoredAndSymmetrized) {
  const std::string path = SharedProblem("CubeH8.hdf5");
  std::string error;
  ReadOptions options;
  options.m_storage = MStorage::kAsStored;
  GlobalProblem stored;
  FclibFileInfo stored_info;
  ASSERT_TRUE(ReadGlobalProblem(path, options, &stored, &stored_info, &error))
      << error;
  EXPECT_TRUE(stored_info.m_upper_triangular);
  EXPECT_FALSE(stored_info.m_symmetrized);
  EXPECT_EQ(stored_info.m_stored_nnz, 3168);
  EXPECT_EQ(stored.M.nonZeros(), 3168);
  int strictly_upper = 0, diagonal = 0;
  for (int j = 0; j < stored.M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(stored.M, j); it; ++it) {
      EXPECT_LE(it.row(), it.col());
      (it.row() < it.col() ? strictly_upper : diagonal) += 1;
    }
  }
  EXPECT_EQ(strictly_upper, 3006);  // formulations.md §10.9
  EXPECT_EQ(diagonal, 162);

  options.m_storage = MStorage::kSymmetrized;
  GlobalProblem sym;
  FclibFileInfo sym_info;
  ASSERT_TRUE(ReadGlobalProblem(path, options, &sym, &sym_info, &error))
      << error;
  EXPECT_TRUE(sym_info.m_upper_triangular);
  EXPECT_TRUE(sym_info.m_symmetrized);
  EXPECT_EQ(sym.M.nonZeros(), 162 + 2 * 3006);
  const Eigen::MatrixXd u = Eigen::MatrixXd(stored.M);
  const Eigen::MatrixXd expected =
      u + u.transpose() - Eigen::MatrixXd(u.diagonal().asDiagonal());
  EXPECT_EQ(Eigen::MatrixXd(sym.M), expected);
  EXPECT_TRUE(SameSparse(sym.M, SparseMatrix(sym.M.transpose())));

  GlobalProblem automatic;
  ASSERT_TRUE(
      ReadGlobalProblem(path, ReadOptions(), &automatic, nullptr, &error))
      << error;
  EXPECT_TRUE(SameSparse(automatic.M, sym.M));
  ExpectSameProblem(automatic, sym);
}

TEST(FclibIoTest, FullAndDiagonalMatricesAreNotUpperTriangles) {
  for (const char* file : {"GFC3D_Example1.hdf5",
                           "GFC3D_Example00.hdf5",
                           "GFC3D_OneContact.hdf5"}) {
    GlobalProblem p;
    FclibFileInfo info;
    std::string error;
    ReadOptions options;
    options.m_storage = MStorage::kSymmetrized;
    ASSERT_TRUE(
        ReadGlobalProblem(SharedProblem(file), options, &p, &info, &error))
        << error;
    EXPECT_FALSE(info.m_upper_triangular) << file;
    EXPECT_FALSE(info.m_symmetrized) << file;
  }
}

// ----- Triplet, CSC and CSR storages written with the raw HDF5 API.

struct StorageCase {
  const char* name;
  Storage storage;
  bool split_first_entry;
  const char* format;
};

class StorageTest : public ::testing::TestWithParam<StorageCase> {};

TEST_P(StorageTest, ReadsTheSameMatrices) {
  const StorageCase& c = GetParam();
  testing::FileSpec spec = testing::SmallProblemSpec(c.storage);
  const GlobalProblem expected = testing::SmallProblem();
  if (c.split_first_entry) {
    testing::AddMatrix(&spec, "M", expected.M, c.storage, true);
    testing::AddMatrix(&spec, "H", expected.H, c.storage, true);
  }
  const std::string path = TempDir() + "/storage_" + c.name + ".hdf5";
  testing::WriteSpec(path, spec);
  GlobalProblem p;
  FclibFileInfo info;
  std::string error;
  ASSERT_TRUE(ReadGlobalProblem(path, ReadOptions(), &p, &info, &error))
      << error;
  ExpectSameProblem(expected, p);
  EXPECT_EQ(info.m_format, c.format);
  EXPECT_EQ(info.h_format, c.format);
  EXPECT_EQ(info.m_explicit_zeros, 2);
  EXPECT_EQ(info.h_explicit_zeros, 1);
  EXPECT_EQ(info.duplicates_summed, c.split_first_entry ? 2 : 0);
  EXPECT_FALSE(info.m_upper_triangular);
  EXPECT_EQ(info.title, "small test problem");
}

INSTANTIATE_TEST_SUITE_P(
    Storages,
    StorageTest,
    ::testing::Values(
        StorageCase{"Triplet", Storage::kTriplet, false, "triplet"},
        StorageCase{
            "TripletWithDuplicates", Storage::kTriplet, true, "triplet"},
        StorageCase{"Csc", Storage::kCsc, false, "csc"},
        StorageCase{"Csr", Storage::kCsr, false, "csr"}),
    [](const ::testing::TestParamInfo<StorageCase>& info) {
      return std::string(info.param.name);
    });

// ----- Solutions and guesses.

TEST(FclibIoTest, ReadsTheSolutionAndGuessOfBoxStacks) {
  const std::string path = SharedProblem("Box_Stacks-i0122-82-5.hdf5");
  GlobalProblem p;
  FclibFileInfo info;
  std::string error;
  ASSERT_TRUE(ReadGlobalProblem(path, ReadOptions(), &p, &info, &error))
      << error;
  EXPECT_TRUE(info.has_solution);
  EXPECT_EQ(info.number_of_guesses, 1);
  Solution s;
  ASSERT_TRUE(ReadSolution(path, p.n(), p.m(), &s, &error)) << error;
  EXPECT_EQ(s.v.size(), 450);
  EXPECT_EQ(s.u.size(), 246);
  EXPECT_EQ(s.r.size(), 246);
  std::vector<Solution> guesses;
  ASSERT_TRUE(ReadGuesses(path, p.n(), p.m(), &guesses, &error)) << error;
  ASSERT_EQ(guesses.size(), 1u);
  EXPECT_EQ(guesses[0].v.size(), 450);
}

TEST(FclibIoTest, SolutionWithoutUHasEmptyU) {
  testing::FileSpec spec = testing::SmallProblemSpec();
  spec["/solution/v"] = testing::DoubleArray({1, 2, 3, 4, 5, 6});
  spec["/solution/r"] = testing::DoubleArray({1, 0, 0, 2, 0, 0});
  const std::string path = TempDir() + "/solution_without_u.hdf5";
  testing::WriteSpec(path, spec);
  Solution s;
  std::string error;
  ASSERT_TRUE(ReadSolution(path, 6, 6, &s, &error)) << error;
  EXPECT_EQ(s.v.size(), 6);
  EXPECT_EQ(s.u.size(), 0);
  EXPECT_EQ(s.r[3], 2.0);
}

TEST(FclibIoTest, NoGuessesGroupGivesNoGuesses) {
  std::vector<Solution> guesses(3);
  std::string error;
  ASSERT_TRUE(
      ReadGuesses(SharedProblem("CubeH8.hdf5"), 162, 3, &guesses, &error))
      << error;
  EXPECT_TRUE(guesses.empty());
}

TEST(FclibIoTest, BadSolutionsAndGuessesFailWithOneLine) {
  testing::FileSpec spec = testing::SmallProblemSpec();
  spec["/solution/v"] = testing::DoubleArray({1, 2, 3});
  spec["/solution/r"] = testing::DoubleArray({1, 0, 0, 2, 0, 0});
  spec["/guesses/number_of_guesses"] = testing::IntArray({2});
  spec["/guesses/1/v"] = testing::DoubleArray({1, 2, 3, 4, 5, 6});
  spec["/guesses/1/r"] = testing::DoubleArray({1, 0, 0, 2, 0, 0});
  const std::string path = TempDir() + "/bad_solution.hdf5";
  testing::WriteSpec(path, spec);
  std::string error;
  Solution s;
  EXPECT_FALSE(ReadSolution(path, 6, 6, &s, &error));
  EXPECT_THAT(error,
              HasSubstr(path + ": /solution/v has 3 entries, expected n = 6"));
  std::vector<Solution> guesses;
  EXPECT_FALSE(ReadGuesses(path, 6, 6, &guesses, &error));
  EXPECT_THAT(error, HasSubstr("/guesses/2 is missing"));
  EXPECT_FALSE(ReadSolution(SharedProblem("CubeH8.hdf5"), 162, 3, &s, &error));
  EXPECT_THAT(error, HasSubstr("group /solution is missing"));
  EXPECT_FALSE(ReadSolution(TempDir() + "/nothing.hdf5", 6, 6, &s, &error));
  EXPECT_THAT(error, HasSubstr("no such file"));
}

// ----- Writer errors.

TEST(FclibIoTest, WriterRejectsWhatItCouldNotReadBack) {
  std::string error;
  GlobalProblem p = testing::SmallProblem();
  const std::string path = TempDir() + "/rejected.hdf5";

  GlobalProblem negative_mu = p;
  negative_mu.mu[0] = -1.0;
  EXPECT_FALSE(WriteGlobalProblem(path, negative_mu, nullptr, nullptr, &error));
  EXPECT_THAT(error,
              HasSubstr(path + ": cannot write an invalid problem: mu[0]"));

  GlobalProblem no_contacts = p;
  no_contacts.H = SparseMatrix(6, 0);
  no_contacts.w.resize(0);
  no_contacts.mu.resize(0);
  EXPECT_EQ(no_contacts.Validate(),
            "");  // zero contacts is an ordinary in-memory problem
  EXPECT_FALSE(WriteGlobalProblem(path, no_contacts, nullptr, nullptr, &error));
  EXPECT_THAT(error, HasSubstr("nc = 0"));

  Solution bad;
  bad.v = Eigen::VectorXd::Zero(5);
  bad.r = Eigen::VectorXd::Zero(6);
  EXPECT_FALSE(WriteGlobalProblem(path, p, &bad, nullptr, &error));
  EXPECT_THAT(error, HasSubstr("the solution has sizes v 5"));
  EXPECT_FALSE(std::filesystem::exists(path));

  const std::string no_dir = TempDir() + "/no/such/dir/p.hdf5";
  EXPECT_FALSE(WriteGlobalProblem(no_dir, p, nullptr, nullptr, &error));
  EXPECT_THAT(error, HasSubstr(no_dir + ": cannot create a file"));
}

TEST(FclibIoTest, WriterFillsAnEmptyUWithHTransposeVPlusW) {
  const GlobalProblem p = testing::SmallProblem();
  Solution s;
  s.v = Eigen::VectorXd::LinSpaced(6, -1.0, 1.0);
  s.r = Eigen::VectorXd::Ones(6);
  const std::string path = TempDir() + "/empty_u.hdf5";
  std::string error;
  ASSERT_TRUE(WriteGlobalProblem(path, p, &s, nullptr, &error)) << error;
  Solution read;
  ASSERT_TRUE(ReadSolution(path, 6, 6, &read, &error)) << error;
  const Eigen::VectorXd u = p.H.transpose() * s.v + p.w;
  EXPECT_TRUE(SameVector(read.u, u));
}

// ----- Malformed inputs: false, one line naming the file, nothing printed.

class MalformedFileTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedFileTest, FailsWithOneLineNamingTheFile) {
  const MalformedCase& c = GetParam();
  const std::string path = c.make(TempDir());
  GlobalProblem p;
  FclibFileInfo info;
  std::string error;
  ::testing::internal::CaptureStderr();
  ::testing::internal::CaptureStdout();
  const bool ok = ReadGlobalProblem(path, ReadOptions(), &p, &info, &error);
  const std::string out = ::testing::internal::GetCapturedStdout();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(ok);
  EXPECT_THAT(error, HasSubstr(path + ": "));
  EXPECT_THAT(error, HasSubstr(c.expected));
  EXPECT_THAT(error, Not(HasSubstr("\n")));
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
}

INSTANTIATE_TEST_SUITE_P(
    Inputs,
    MalformedFileTest,
    ::testing::ValuesIn(testing::MalformedCases()),
    [](const ::testing::TestParamInfo<MalformedCase>& info) {
      return info.param.name;
    });

TEST(FclibIoTest, AtLeastTwentyMalformedCases) {
  EXPECT_GE(testing::MalformedCases().size(), 20u);
}

// ----- HDF5's error handler is the caller's again after every call.

herr_t CountingHandler(hid_t, void* client_data) {
  ++*static_cast<int*>(client_data);
  return 0;
}

TEST(FclibIoTest, RestoresTheCallersHdf5ErrorHandler) {
  H5E_auto2_t saved_func = nullptr;
  void* saved_data = nullptr;
  ASSERT_GE(H5Eget_auto2(H5E_DEFAULT, &saved_func, &saved_data), 0);
  int calls = 0;
  ASSERT_GE(H5Eset_auto2(H5E_DEFAULT, CountingHandler, &calls), 0);

  std::string error;
  GlobalProblem p;
  EXPECT_FALSE(ReadGlobalProblem(
      SharedProblem("nothing_here.hdf5"), ReadOptions(), &p, nullptr, &error));
  std::string truncated;
  for (const MalformedCase& c : testing::MalformedCases()) {
    if (c.name == "TruncatedFile") truncated = c.make(TempDir());
  }
  ASSERT_FALSE(truncated.empty());
  EXPECT_FALSE(
      ReadGlobalProblem(truncated, ReadOptions(), &p, nullptr, &error));
  EXPECT_EQ(calls, 0);  // silenced during the calls

  H5E_auto2_t func = nullptr;
  void* data = nullptr;
  ASSERT_GE(H5Eget_auto2(H5E_DEFAULT, &func, &data), 0);
  EXPECT_EQ(func, &CountingHandler);
  EXPECT_EQ(data, &calls);
  H5Eset_auto2(H5E_DEFAULT, saved_func, saved_data);
}

}  // namespace
}  // namespace fcsn
