// ProblemViewConverter (fcsn/problem_view.h): every storage (CSC, CSR, COO;
// int32 and int64; 0- and 1-based) gives the problem it describes; later Fills
// on the same pattern refresh values without allocating and keep the solver's
// analysis; a changed pattern or target rebuilds; hostile views give one line.
//
// Allocations are counted by tests/alloc_counter.h (not under ASan).
#include "fcsn/problem_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "alloc_counter.h"
#include "fcsn/solver.h"
#include "test_problems.h"

namespace fcsn {
namespace {

// A caller's matrix in one storage, owning its arrays (Index: int32/int64).
template <typename Index>
struct Stored {
  SparseFormat format = SparseFormat::kCsc;
  std::int64_t rows = 0, cols = 0;
  int base = 0;
  std::vector<Index> ptr, index, coo_col;
  std::vector<double> values;

  SparseView View() const {
    switch (format) {
      case SparseFormat::kCsc:
        return CscView(
            rows, cols, ptr.data(), index.data(), values.data(), base);
      case SparseFormat::kCsr:
        return CsrView(
            rows, cols, ptr.data(), index.data(), values.data(), base);
      case SparseFormat::kCoo:
        return CooView(rows,
                       cols,
                       static_cast<std::int64_t>(values.size()),
                       index.data(),
                       coo_col.data(),
                       values.data(),
                       base);
    }
    return {};
  }
};

// a in the given storage. COO: each entry split into two halves, in a
// shuffled order (duplicates to be summed, unsorted).
template <typename Index>
Stored<Index> Store(const SparseMatrix& a, SparseFormat format, int base) {
  Stored<Index> s;
  s.format = format;
  s.rows = a.rows();
  s.cols = a.cols();
  s.base = base;
  if (format == SparseFormat::kCoo) {
    std::vector<std::pair<int, int>> at;
    for (int j = 0; j < a.outerSize(); ++j) {
      for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
        for (int half = 0; half < 2; ++half) {
          s.index.push_back(static_cast<Index>(it.row() + base));
          s.coo_col.push_back(static_cast<Index>(it.col() + base));
          s.values.push_back(0.5 * it.value());
        }
      }
    }
    std::vector<std::size_t> order(s.values.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    Stored<Index> shuffled = s;
    for (std::size_t k = 0; k < order.size(); ++k) {
      shuffled.index[k] = s.index[order[k]];
      shuffled.coo_col[k] = s.coo_col[order[k]];
      shuffled.values[k] = s.values[order[k]];
    }
    return shuffled;
  }
  Eigen::SparseMatrix<double, Eigen::RowMajor, int> row_major = a;
  const bool csr = format == SparseFormat::kCsr;
  const int outer = csr ? row_major.outerSize() : a.outerSize();
  const int* p = csr ? row_major.outerIndexPtr() : a.outerIndexPtr();
  const int* i = csr ? row_major.innerIndexPtr() : a.innerIndexPtr();
  const double* x = csr ? row_major.valuePtr() : a.valuePtr();
  for (int j = 0; j <= outer; ++j)
    s.ptr.push_back(static_cast<Index>(p[j] + base));
  for (int k = 0; k < p[outer]; ++k) {
    s.index.push_back(static_cast<Index>(i[k] + base));
    s.values.push_back(x[k]);
  }
  return s;
}

// The lattice problem and views of it in one storage.
template <typename Index>
struct Case {
  GlobalProblem reference = testing::MakeLatticeOnFloor(2, 2, 2, 0.3, 1.5);
  Stored<Index> M, H;
  GlobalProblemView view;

  Case(SparseFormat format, int base) {
    M = Store<Index>(reference.M, format, base);
    H = Store<Index>(reference.H, format, base);
    Refresh();
  }
  // view over the current arrays (call after resizing one of them).
  void Refresh() {
    view.M = M.View();
    view.H = H.View();
    view.f = {reference.f.data(), reference.f.size()};
    view.w = {reference.w.data(), reference.w.size()};
    view.mu = {reference.mu.data(), reference.mu.size()};
  }
};

double MaxDifference(const SparseMatrix& a, const SparseMatrix& b) {
  return (Eigen::MatrixXd(a) - Eigen::MatrixXd(b)).cwiseAbs().maxCoeff();
}

struct StorageParam {
  SparseFormat format;
  bool int64;
  int base;
};

class ProblemViewStorageTest : public ::testing::TestWithParam<StorageParam> {
 protected:
  template <typename Index>
  void CheckFills() {
    Case<Index> c(GetParam().format, GetParam().base);
    ProblemViewConverter converter;
    GlobalProblem problem;
    testing::StartCountingAllocations();
    const std::string first = converter.Fill(c.view, &problem);
    const long first_allocations = testing::StopCountingAllocations();
    ASSERT_EQ(first, "");
    EXPECT_TRUE(converter.last_fill_rebuilt());
    if (testing::AllocationCountingEnabled()) {
      // The counter sees the build's allocations.
      EXPECT_GT(first_allocations, 0);
    }
    // Sums of halves (COO) are exact in binary floating point.
    EXPECT_EQ(MaxDifference(problem.M, c.reference.M), 0.0);
    EXPECT_EQ(MaxDifference(problem.H, c.reference.H), 0.0);
    EXPECT_EQ(problem.M.nonZeros(), c.reference.M.nonZeros());
    EXPECT_EQ(problem.f, c.reference.f);
    EXPECT_EQ(problem.mu, c.reference.mu);

    // Same pattern, new values: refreshed in place, no allocation.
    for (double& x : c.M.values) x *= 2.0;
    const double* m_values = problem.M.valuePtr();
    testing::StartCountingAllocations();
    const std::string again = converter.Fill(c.view, &problem);
    const long refill_allocations = testing::StopCountingAllocations();
    ASSERT_EQ(again, "");
    EXPECT_FALSE(converter.last_fill_rebuilt());
    EXPECT_EQ(converter.rebuilds(), 1);
    EXPECT_EQ(problem.M.valuePtr(), m_values);
    if (testing::AllocationCountingEnabled()) {
      EXPECT_EQ(refill_allocations, 0);
    }
    EXPECT_EQ(MaxDifference(problem.M, SparseMatrix(2.0 * c.reference.M)), 0.0);
  }
};

TEST_P(ProblemViewStorageTest, FillsAndRefreshesWithoutAllocation) {
  if (GetParam().int64) {
    CheckFills<std::int64_t>();
  } else {
    CheckFills<std::int32_t>();
  }
}

INSTANTIATE_TEST_SUITE_P(
    Storages,
    ProblemViewStorageTest,
    ::testing::Values(StorageParam{SparseFormat::kCsc, false, 0},
                      StorageParam{SparseFormat::kCsc, true, 1},
                      StorageParam{SparseFormat::kCsr, false, 1},
                      StorageParam{SparseFormat::kCsr, true, 0},
                      StorageParam{SparseFormat::kCoo, false, 0},
                      StorageParam{SparseFormat::kCoo, true, 1}),
    [](const ::testing::TestParamInfo<StorageParam>& info) {
      return std::string(ToString(info.param.format)) +
             (info.param.int64 ? "_int64" : "_int32") + "_base" +
             std::to_string(info.param.base);
    });

TEST(ProblemViewTest, UnsortedCscEntriesAndDuplicatesAreSummed) {
  // Column 0 holds rows (1, 0, 1): 2 + 3 at (1, 0), 1 at (0, 0).
  const std::vector<int> ptr = {0, 3, 4};
  const std::vector<int> rows = {1, 0, 1, 1};
  const std::vector<double> values = {2.0, 1.0, 3.0, 4.0};
  GlobalProblemView view;
  view.M = CscView(2, 2, ptr.data(), rows.data(), values.data());
  const std::vector<int> no_columns = {0};
  view.H = CscView(2, 0, no_columns.data(), {}, nullptr);
  const std::vector<double> f = {1.0, 2.0};
  view.f = {f.data(), 2};
  ProblemViewConverter converter;
  GlobalProblem problem;
  ASSERT_EQ(converter.Fill(view, &problem), "");
  EXPECT_EQ(problem.M.nonZeros(), 3);
  EXPECT_EQ(problem.M.coeff(0, 0), 1.0);
  EXPECT_EQ(problem.M.coeff(1, 0), 5.0);
  EXPECT_EQ(problem.M.coeff(1, 1), 4.0);
  EXPECT_EQ(problem.nc(), 0);
}

TEST(ProblemViewTest, EmptyWMeansZeros) {
  Case<int> c(SparseFormat::kCsc, 0);
  c.view.w = {};
  GlobalProblem problem;
  ASSERT_EQ(ProblemViewConverter().Fill(c.view, &problem), "");
  EXPECT_EQ(problem.w.size(), c.reference.H.cols());
  EXPECT_EQ(problem.w.cwiseAbs().maxCoeff(), 0.0);
}

TEST(ProblemViewTest, UpperTriangleIsFlaggedAndCheckedBelowTheDiagonal) {
  Case<int> c(SparseFormat::kCsc, 0);
  const SparseMatrix upper = c.reference.M.triangularView<Eigen::Upper>();
  c.M = Store<int>(upper, SparseFormat::kCsc, 0);
  c.Refresh();
  c.view.m_upper_triangle = true;
  GlobalProblem problem;
  ProblemViewConverter converter;
  ASSERT_EQ(converter.Fill(c.view, &problem), "");
  EXPECT_TRUE(problem.m_upper_triangle);
  EXPECT_EQ(MaxDifference(SymmetricFromUpperTriangle(problem.M), c.reference.M),
            0.0);
  // The full M declared as a triangle: rejected, not solved as U + U^T.
  c.M = Store<int>(c.reference.M, SparseFormat::kCsc, 0);
  c.Refresh();
  EXPECT_NE(converter.Fill(c.view, &problem).find("below the diagonal"),
            std::string::npos);
}

TEST(ProblemViewTest, PatternOrTargetChangeRebuilds) {
  Case<int> c(SparseFormat::kCsr, 0);
  ProblemViewConverter converter;
  GlobalProblem problem, other;
  ASSERT_EQ(converter.Fill(c.view, &problem), "");
  // Same nnz, one entry moved: M(0, 0) -> M(0, n - 1) (a new position).
  ASSERT_EQ(c.M.index[0], 0);
  c.M.index[0] = static_cast<int>(c.M.cols - 1);
  ASSERT_EQ(converter.Fill(c.view, &problem), "");
  EXPECT_TRUE(converter.last_fill_rebuilt());
  EXPECT_EQ(problem.M.coeff(0, 0), 0.0);
  EXPECT_EQ(problem.M.coeff(0, c.M.cols - 1), c.M.values[0]);
  // Another target problem.
  ASSERT_EQ(converter.Fill(c.view, &other), "");
  EXPECT_TRUE(converter.last_fill_rebuilt());
  // A failed Fill forgets the pattern.
  c.reference.mu[0] = -1.0;
  EXPECT_NE(converter.Fill(c.view, &other), "");
  c.reference.mu[0] = 0.3;
  ASSERT_EQ(converter.Fill(c.view, &other), "");
  EXPECT_TRUE(converter.last_fill_rebuilt());
  EXPECT_EQ(converter.rebuilds(), 4);
}

TEST(ProblemViewTest, SolverKeepsItsAnalysisAcrossRefreshes) {
  Case<std::int64_t> c(SparseFormat::kCoo, 1);
  ProblemViewConverter converter;
  GlobalProblem problem;
  Solver solver;
  Solution x;
  for (int step = 0; step < 2; ++step) {
    c.reference.f *= 1.1;  // new values of a "time step"
    ASSERT_EQ(converter.Fill(c.view, &problem), "");
    const SolverSummary summary = solver.Solve(problem, &x, &x);
    EXPECT_TRUE(summary.IsConverged()) << summary.message;
    EXPECT_EQ(summary.analyses, step == 0 ? 1 : 0);
  }
}

TEST(ProblemViewTest, RefreshValuesRefillsOnTheLastPattern) {
  Case<int> c(SparseFormat::kCoo, 1);  // COO halves: duplicates summed
  ProblemViewConverter converter;
  GlobalProblem problem;
  EXPECT_NE(converter.RefreshValues(c.M.values.data(), nullptr, &problem), "");
  ASSERT_EQ(converter.Fill(c.view, &problem), "");
  for (double& x : c.M.values) x *= 3.0;
  GlobalProblem copy = problem;  // a copy of the target is accepted
  testing::StartCountingAllocations();
  const std::string refreshed =
      converter.RefreshValues(c.M.values.data(), nullptr, &copy);
  const long allocations = testing::StopCountingAllocations();
  ASSERT_EQ(refreshed, "");
  EXPECT_EQ(allocations, 0);
  EXPECT_EQ(MaxDifference(copy.M, SparseMatrix(3.0 * c.reference.M)), 0.0);
  EXPECT_EQ(MaxDifference(copy.H, c.reference.H), 0.0);  // null: kept
  EXPECT_EQ(MaxDifference(problem.M, c.reference.M), 0.0);
  // Matrices of another shape are refused.
  GlobalProblem other = testing::MakeLatticeOnFloor(3, 2, 2, 0.3, 1.5);
  EXPECT_NE(converter.RefreshValues(nullptr, c.H.values.data(), &other), "");
}

TEST(ProblemViewTest, TellsValidationFailuresFromViewFailures) {
  Case<int> c(SparseFormat::kCsc, 0);
  ProblemViewConverter converter;
  GlobalProblem problem;
  c.reference.mu[0] = -1.0;
  EXPECT_NE(converter.Fill(c.view, &problem), "");
  EXPECT_TRUE(converter.last_fill_failed_validation());
  c.reference.mu[0] = 0.3;
  c.M.index[0] = -1;
  EXPECT_NE(converter.Fill(c.view, &problem).find("row_index[0]"),
            std::string::npos);
  EXPECT_FALSE(converter.last_fill_failed_validation());
}

// One hostile change to a valid CSC view, and a word the message must hold.
struct Hostile {
  const char* name;
  void (*spoil)(Case<int>*);
  const char* expected;
};

const Hostile kHostile[] = {
    {"negative_rows", [](Case<int>* c) { c->view.M.rows = -1; }, "negative"},
    {"huge_cols",
     [](Case<int>* c) { c->view.H.cols = std::int64_t{1} << 40; },
     "32-bit"},
    {"base_two", [](Case<int>* c) { c->view.M.index_base = 2; }, "0 or 1"},
    {"null_pointers", [](Case<int>* c) { c->view.M.ptr = {}; }, "null"},
    {"first_pointer", [](Case<int>* c) { c->M.ptr[0] = 1; }, "ptr[0]"},
    {"decreasing_pointers",
     [](Case<int>* c) { std::swap(c->M.ptr[1], c->M.ptr[2]); },
     "decrease"},
    {"row_too_large",
     [](Case<int>* c) { c->H.index.back() = 1000; },
     "outside the"},
    {"row_negative", [](Case<int>* c) { c->M.index[0] = -1; }, "outside the"},
    {"null_values", [](Case<int>* c) { c->view.H.values = nullptr; }, "null"},
    {"nan_value", [](Case<int>* c) { c->M.values[1] = std::nan(""); }, "NaN"},
    {"infinite_f",
     [](Case<int>* c) {
       c->reference.f[0] = std::numeric_limits<double>::infinity();
     },
     "f contains"},
    {"short_f", [](Case<int>* c) { c->view.f.size -= 1; }, "f has"},
    {"null_f", [](Case<int>* c) { c->view.f.data = nullptr; }, "null"},
    {"negative_mu", [](Case<int>* c) { c->reference.mu[1] = -0.1; }, "mu[1]"},
    {"h_rows", [](Case<int>* c) { c->view.H.rows += 1; }, "H must have"},
    {"coo_negative_nnz",
     [](Case<int>* c) {
       c->view.H = CooView(c->view.H.rows, c->view.H.cols, -4, {}, {}, nullptr);
     },
     "nnz"},
};

class ProblemViewHostileTest : public ::testing::TestWithParam<Hostile> {};

TEST_P(ProblemViewHostileTest, OneLineErrorAndTheNextValidFillWorks) {
  Case<int> c(SparseFormat::kCsc, 0);
  ProblemViewConverter converter;
  GlobalProblem problem;
  ASSERT_EQ(converter.Fill(c.view, &problem), "");
  Case<int> spoiled(SparseFormat::kCsc, 0);
  GetParam().spoil(&spoiled);
  const std::string error = converter.Fill(spoiled.view, &problem);
  EXPECT_NE(error.find(GetParam().expected), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  EXPECT_EQ(converter.Fill(c.view, &problem), "");
  EXPECT_TRUE(converter.last_fill_rebuilt());
}

INSTANTIATE_TEST_SUITE_P(Views,
                         ProblemViewHostileTest,
                         ::testing::ValuesIn(kHostile),
                         [](const ::testing::TestParamInfo<Hostile>& info) {
                           return std::string(info.param.name);
                         });

TEST(ProblemViewTest, FormatNamesRoundTrip) {
  for (SparseFormat x :
       {SparseFormat::kCsc, SparseFormat::kCsr, SparseFormat::kCoo}) {
    EXPECT_EQ(SparseFormatFromString(ToString(x)), x);
  }
  EXPECT_FALSE(SparseFormatFromString("bsr").has_value());
}

}  // namespace
}  // namespace fcsn
