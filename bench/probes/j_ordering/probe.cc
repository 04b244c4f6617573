// j_ordering_probe: the costs behind the adaptive block ordering of J
// (linalg/ordering.h, bench/results/j_ordering.md) on one FCLib file.
//
//   j_ordering_probe FILE [REPEATS]
//
// Builds J's pattern (newton/newton_system.h) and, for the dof graph and for
// the blocks NewtonSystem gives (v in node triples, each contact unknown its
// own block), prints: the edges of the graph METIS orders, METIS' wall
// seconds (best of REPEATS, default 3), and MUMPS' (single precision, as
// precision = auto at this size) analysis estimate and the actual flops and
// wall seconds of factorizations of J at z = (v, r) = 0 with rho = 1.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "fcsn/fclib_io.h"
#include "linalg/mumps_solver.h"
#include "linalg/ordering.h"
#include "minverse/shared_m.h"
#include "newton/newton_system.h"

namespace {

using namespace fcsn::internal;

double Now() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void Probe(const SparsityPattern& pattern,
           const std::vector<double>& values,
           const char* label,
           int repeats) {
  std::vector<int> perm, iperm;
  double best = 1e300;
  OrderingReport report;
  for (int k = 0; k < repeats; ++k) {
    const double start = Now();
    std::string message;
    if (ComputeMetisOrdering(pattern, &perm, &iperm, &message, &report) !=
        LinearSolverStatus::kSuccess) {
      std::printf("%s: ordering failed: %s\n", label, message.c_str());
      return;
    }
    best = std::min(best, Now() - start);
  }
  fcsn::LinearSolverOptions options;
  options.precision = fcsn::FactorizationPrecision::kMixed;
  std::string message;
  auto solver = MumpsSolver::Create(options, &message);
  SparsityPattern plain = pattern;
  plain.block_starts.clear();
  const double a0 = Now();
  solver->AnalyzeWithOrdering(plain, iperm, &message);
  const double analysis = Now() - a0;
  double factorization = 1e300;
  for (int k = 0; k < repeats; ++k) {
    const double f0 = Now();
    if (solver->Factorize(values.data(), &message) !=
        LinearSolverStatus::kSuccess) {
      std::printf("%s: factorization failed: %s\n", label, message.c_str());
      return;
    }
    factorization = std::min(factorization, Now() - f0);
  }
  std::printf(
      "%-7s by_blocks %d edges %lld quotient_edges %lld metis_s %.4f "
      "mumps_analysis_s %.4f est_flops %.4e flops %.4e factorization_s %.4f\n",
      label,
      report.by_blocks ? 1 : 0,
      report.graph_edges,
      report.quotient_edges,
      best,
      analysis,
      solver->stats().estimated_flops,
      solver->stats().last_factorization_flops,
      factorization);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: j_ordering_probe FILE [REPEATS]\n");
    return 2;
  }
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  fcsn::GlobalProblem problem;
  fcsn::FclibFileInfo info;
  std::string error;
  if (!fcsn::ReadGlobalProblem(argv[1], {}, &problem, &info, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  fcsn::internal::SharedM m;  // M = problem.M
  NewtonSystem system;
  system.Build(problem);
  system.SetMatrixValues(problem, m);
  const Eigen::VectorXd rho = Eigen::VectorXd::Ones(problem.m());
  system.Evaluate(problem,
                  fcsn::Formulation::kAlartCurnier,
                  rho,
                  Eigen::VectorXd::Zero(problem.n()),
                  Eigen::VectorXd::Zero(problem.m()),
                  /*with_jacobian=*/true);
  std::printf("n %d, nnz %d, blocks %zu\n",
              system.pattern().n,
              system.pattern().nnz(),
              system.pattern().block_starts.size());
  SparsityPattern dofs = system.pattern();
  dofs.block_starts.clear();
  Probe(dofs, system.values(), "dofs", repeats);
  if (!system.pattern().block_starts.empty()) {
    Probe(system.pattern(), system.values(), "blocks", repeats);
  }
  return 0;
}
