// Cost of the per-contact residuals: F, A, B (and F only) for 1e5 contacts per
// formulation through fcsn::EvaluateAll, reported as ns/contact. The points mix
// take-off, stick and slip states and friction coefficients 0..1 so that every
// branch is exercised. No assertion on time.
#include <benchmark/benchmark.h>

#include <Eigen/Core>
#include <random>
#include <vector>

#include "fcsn/types.h"
#include "formulations/residual.h"

namespace {

constexpr int kContacts = 100000;

struct Batch {
  Eigen::VectorXd u, r, mu, rho, F;
  std::vector<Eigen::Matrix3d> A, B;
};

const Batch& SharedBatch() {
  static const Batch batch = [] {
    Batch b;
    b.u.resize(3 * kContacts);
    b.r.resize(3 * kContacts);
    b.mu.resize(kContacts);
    b.rho.resize(3 * kContacts);
    std::mt19937_64 rng(42);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (int a = 0; a < kContacts; ++a) {
      // One contact in eight is frictionless; the others have mu in (0, 1).
      b.mu(a) = a % 8 == 0 ? 0.0 : uniform(rng);
      for (int k = 0; k < 3; ++k) {
        b.u(3 * a + k) = normal(rng);
        b.r(3 * a + k) = normal(rng);
      }
      const double rho = 0.5 + uniform(rng);
      b.rho.segment<3>(3 * a).setConstant(rho);
    }
    b.F.resize(3 * kContacts);
    b.A.resize(kContacts);
    b.B.resize(kContacts);
    return b;
  }();
  return batch;
}

void SetCounters(benchmark::State& state) {
  // Inverted rate with a 1e-9 factor: seconds per (1e-9 contact) = ns per
  // contact.
  state.counters["ns_per_contact"] =
      benchmark::Counter(kContacts * 1e-9,
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
  state.counters["contacts"] = kContacts;
}

void BM_EvaluateFAB(benchmark::State& state) {
  const auto formulation = static_cast<fcsn::Formulation>(state.range(0));
  const Batch& shared = SharedBatch();
  Eigen::VectorXd F(3 * kContacts);
  std::vector<Eigen::Matrix3d> A(kContacts), B(kContacts);
  for (auto _ : state) {
    fcsn::EvaluateAll(formulation,
                      shared.u,
                      shared.r,
                      shared.mu,
                      shared.rho,
                      &F,
                      A.data(),
                      B.data());
    benchmark::DoNotOptimize(F.data());
    benchmark::DoNotOptimize(A.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(fcsn::ToString(formulation));
  SetCounters(state);
}

void BM_EvaluateF(benchmark::State& state) {
  const auto formulation = static_cast<fcsn::Formulation>(state.range(0));
  const Batch& shared = SharedBatch();
  Eigen::VectorXd F(3 * kContacts);
  for (auto _ : state) {
    fcsn::EvaluateAll(formulation,
                      shared.u,
                      shared.r,
                      shared.mu,
                      shared.rho,
                      &F,
                      nullptr,
                      nullptr);
    benchmark::DoNotOptimize(F.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(fcsn::ToString(formulation));
  SetCounters(state);
}

void AllFormulations(benchmark::internal::Benchmark* b) {
  for (fcsn::Formulation f : fcsn::kAllFormulations)
    b->Arg(static_cast<int>(f));
  b->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_EvaluateFAB)->Apply(AllFormulations);
BENCHMARK(BM_EvaluateF)->Apply(AllFormulations);

}  // namespace

BENCHMARK_MAIN();
