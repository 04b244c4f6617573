// m_setup_split: where M's setup time goes (bench/results/m_setup.md), per
// factorization path of linalg/m_factorization.h on one FCLib file.
//
//   m_setup_split FILE PATHS [BATCH...]
//     PATHS = 1: the simplicial LDL^T (forced at any size), 2: the default
//     (supernodal Cholesky above kNestedDissectionMinDofs), 3: both.
//     BATCH: contacts per supernodal W_aa pass (default kSupernodalBatch).
//
// Prints, in wall seconds: the file read; METIS on M's quotient graph alone;
// per path the first factorization (ordering + symbolic + numeric), a second
// one on the same pattern (numeric only; their difference is ordering +
// symbolic + first-touch allocation), M^-1 f and the W_aa.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"
#include "linalg/fill_ordering.h"
#include "linalg/m_factorization.h"
#include "linalg/supernodal_cholesky.h"

namespace {

using fcsn::SparseMatrix;
using namespace fcsn::internal;

double Now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void TimeMetis(const SparseMatrix& M) {
  const double start = Now();
  const SparseMatrix lower = M.triangularView<Eigen::Lower>();
  const SparseMatrix full = lower.selfadjointView<Eigen::Lower>();
  OrderingPermutation perm;
  NestedDissection(full, &perm);
  std::printf("METIS on the quotient graph of M: %.3f\n", Now() - start);
}

void TimePath(const fcsn::GlobalProblem& p,
              int min_dofs,
              const std::vector<int>& batches) {
  MFactorization factors(min_dofs);
  std::string error;
  const double t0 = Now();
  if (!factors.Factorize(p.M, &error)) {
    std::printf("factorization failed: %s\n", error.c_str());
    return;
  }
  const double t1 = Now();
  factors.Factorize(p.M, &error);
  const double t2 = Now();
  Eigen::VectorXd x;
  factors.Solve(p.f, &x);
  const double t3 = Now();
  std::printf(
      "%s: first %.3f, numeric %.3f, ordering+symbolic %.3f, M^-1 f %.3f",
      ToString(factors.type()),
      t1 - t0,
      t2 - t1,
      (t1 - t0) - (t2 - t1),
      t3 - t2);
  std::vector<Eigen::Matrix3d> blocks;
  for (int batch : batches) {
    const double start = Now();
    factors.DiagonalBlocks(p.H, &blocks, batch);
    std::printf(", W_aa (batch %d) %.3f", batch, Now() - start);
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: m_setup_split FILE PATHS [BATCH...]\n");
    return 2;
  }
  fcsn::GlobalProblem p;
  std::string error;
  const double start = Now();
  if (!fcsn::ReadGlobalProblem(argv[1], {}, &p, nullptr, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  std::printf("read %.3f s, n = %d, nc = %d\n", Now() - start, p.n(), p.nc());
  const int paths = std::atoi(argv[2]);
  std::vector<int> batches;
  for (int i = 3; i < argc; ++i) batches.push_back(std::atoi(argv[i]));
  TimeMetis(p.M);
  if (paths & 1) {
    TimePath(p, std::numeric_limits<int>::max(), {kDiagonalBlockBatch});
  }
  if (paths & 2) {
    if (batches.empty()) batches.push_back(kSupernodalBatch);
    TimePath(p, kNestedDissectionMinDofs, batches);
  }
  return 0;
}
