// linalg_benchmark: Analyze vs Factorize vs Solve of the MUMPS backend for each
// ordering (METIS through PERM_IN, AMD, SCOTCH, MUMPS' automatic choice), plus
// Eigen SparseLU for reference, on a synthetic contact Newton matrix
// J = [[M, -H], [A H^T, B]] of about 10.7k unknowns: M from a 15^3-node grid
// with 3 dofs per node and 27-point (hexahedral FEM-like) coupling, 200
// contacts on one face in mixed stick/slide/open states
// (tests/linalg/test_matrices.h).
//
// Factorize alternates between two contact-state value sets on the same
// pattern, as Newton does. Counters: factor entries and flops as reported by
// the backend, ordering actually used (label).
//
//   ./bench/linalg_benchmark --benchmark_min_time=0.5
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "linalg/linear_solver.h"
#include "test_matrices.h"

namespace fcsn::internal {
namespace {

constexpr int kGridNodesPerSide = 15;
constexpr int kContacts = 200;

const testing::TestSystem& System(unsigned state_seed) {
  static const testing::TestSystem systems[2] = {
      testing::ContactSaddlePoint(kGridNodesPerSide, kContacts, 0),
      testing::ContactSaddlePoint(kGridNodesPerSide, kContacts, 1)};
  return systems[state_seed % 2];
}

LinearSolverOptions Options(int backend, int ordering) {
  LinearSolverOptions options;
  options.type = static_cast<LinearSolverType>(backend);
  options.ordering = static_cast<Ordering>(ordering);
  return options;
}

std::unique_ptr<LinearSolver> MakeAnalyzed(benchmark::State& state) {
  std::string message;
  auto solver =
      LinearSolver::Create(Options(state.range(0), state.range(1)), &message);
  if (solver == nullptr || solver->Analyze(System(0).pattern, &message) !=
                               LinearSolverStatus::kSuccess) {
    state.SkipWithError(message.c_str());
    return nullptr;
  }
  return solver;
}

void Describe(benchmark::State& state, const LinearSolver& solver) {
  const LinearSolverStats& stats = solver.stats();
  state.SetLabel(
      std::string(ToString(static_cast<LinearSolverType>(state.range(0)))) +
      "/" + stats.ordering_used + " n=" + std::to_string(System(0).pattern.n) +
      " nnz=" + std::to_string(System(0).pattern.nnz()));
  state.counters["factor_entries"] = static_cast<double>(
      stats.factor_entries ? stats.factor_entries
                           : stats.estimated_factor_entries);
  state.counters["flops"] = stats.last_factorization_flops
                                ? stats.last_factorization_flops
                                : stats.estimated_flops;
  state.counters["retries"] = stats.workspace_retries;
}

void BM_Analyze(benchmark::State& state) {
  std::unique_ptr<LinearSolver> solver;
  for (auto _ : state) {
    solver = MakeAnalyzed(state);
    if (solver == nullptr) return;
  }
  Describe(state, *solver);
  state.counters["ordering_s"] = solver->stats().ordering_seconds;
}

void BM_Factorize(benchmark::State& state) {
  std::unique_ptr<LinearSolver> solver = MakeAnalyzed(state);
  if (solver == nullptr) return;
  unsigned iteration = 0;
  std::string message;
  for (auto _ : state) {
    if (solver->Factorize(System(iteration++).values.data(), &message) !=
        LinearSolverStatus::kSuccess) {
      state.SkipWithError(message.c_str());
      return;
    }
  }
  Describe(state, *solver);
}

void BM_Solve(benchmark::State& state) {
  std::unique_ptr<LinearSolver> solver = MakeAnalyzed(state);
  if (solver == nullptr) return;
  std::string message;
  if (solver->Factorize(System(0).values.data(), &message) !=
      LinearSolverStatus::kSuccess) {
    state.SkipWithError(message.c_str());
    return;
  }
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(System(0).pattern.n);
  Eigen::VectorXd x(b.size());
  for (auto _ : state) {
    x = b;
    if (solver->Solve(&x, &message) != LinearSolverStatus::kSuccess) {
      state.SkipWithError(message.c_str());
      return;
    }
    benchmark::DoNotOptimize(x.data());
  }
  Describe(state, *solver);
}

// Arguments: (LinearSolverType, Ordering) as integers.
void Backends(benchmark::internal::Benchmark* b) {
  b->ArgNames({"backend", "ordering"});
  for (Ordering ordering : kAllOrderings) {
    b->Args({static_cast<int>(LinearSolverType::kMumps),
             static_cast<int>(ordering)});
  }
  b->Args({static_cast<int>(LinearSolverType::kEigenLU),
           static_cast<int>(Ordering::kAmd)});
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_Analyze)->Apply(Backends);
BENCHMARK(BM_Factorize)->Apply(Backends);
BENCHMARK(BM_Solve)->Apply(Backends);

}  // namespace
}  // namespace fcsn::internal

BENCHMARK_MAIN();
