// libFuzzer target on the solver (fcsn/solver.h): each input decodes into a
// small problem that passes Validate() (sizes, a sparsity pattern, values of
// any magnitude, mu, w) and the options of a bounded solve (policy,
// formulation, line search, rho rule, cold start, linear solver, tolerance,
// small iteration and sweep budgets, a small time limit), and the outcome
// must keep the property tests' invariants (tests/property/property_check.h:
// finite output, a message for every status but kConverged, the revised
// criterion and the friction law at every kConverged answer). Any violation
// aborts with the numbers; ASan and UBSan (scripts/fuzz.sh) report the rest.
#include <fuzzer/FuzzedDataProvider.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <sstream>
#include <vector>

#include "property_runner.h"

namespace {

using fcsn::GlobalProblem;
using Triplets = std::vector<Eigen::Triplet<double>>;

// Sizes: small enough for thousands of solves per second.
constexpr int kMaxDofs = 24;
constexpr int kMaxContacts = 8;
constexpr int kMaxEntriesPerColumn = 4;
// Budgets of one solve: bounded, so that an input never takes long.
constexpr int kMaxIterations = 20;
constexpr int kMaxSweeps = 200;
constexpr double kTimeLimitSeconds = 0.5;
// Values are m 2^e with a 16-bit mantissa m and |e| <= kMaxBinade: every
// magnitude from ~1e-14 to ~1e14 (units, conditioning), never overflowing.
constexpr int kMaxBinade = 46;
constexpr double kMantissaScale = 1.0 / 65536.0;
constexpr std::array<double, 5> kFrictionValues = {0.0, 1e-6, 0.3, 1.0, 1e6};
constexpr std::array<double, 5> kTolerances = {1e-4, 1e-6, 1e-8, 1e-10, 1e-12};

double Value(FuzzedDataProvider& in) {
  const double mantissa = in.ConsumeIntegral<std::int16_t>() * kMantissaScale;
  return std::ldexp(mantissa,
                    in.ConsumeIntegralInRange(-kMaxBinade, kMaxBinade));
}

double Positive(FuzzedDataProvider& in) {
  const double v = std::abs(Value(in));
  return v > 0 ? v : 1.0;
}

// M: diagonal (zeros allowed: singular), a diagonally dominant band, or
// A A^T + diag (SPD with any conditioning the values give).
fcsn::SparseMatrix DecodeM(FuzzedDataProvider& in, int n) {
  Triplets t;
  const int kind = in.ConsumeIntegralInRange(0, 2);
  for (int i = 0; i < n; ++i) {
    const bool zero = kind == 0 && in.ConsumeBool();
    if (!zero) t.emplace_back(i, i, Positive(in));
  }
  if (kind == 1) {
    for (int i = 0; i + 1 < n; ++i) {
      const double c = Value(in);
      t.emplace_back(i, i + 1, c);
      t.emplace_back(i + 1, i, c);
      t.emplace_back(i, i, std::abs(c));
      t.emplace_back(i + 1, i + 1, std::abs(c));
    }
  }
  fcsn::SparseMatrix m(n, n);
  m.setFromTriplets(t.begin(), t.end());
  if (kind == 2) {
    Triplets at;
    const int entries = in.ConsumeIntegralInRange(0, 2 * n);
    for (int k = 0; k < entries; ++k) {
      at.emplace_back(in.ConsumeIntegralInRange(0, n - 1),
                      in.ConsumeIntegralInRange(0, n - 1),
                      Value(in));
    }
    fcsn::SparseMatrix a(n, n);
    a.setFromTriplets(at.begin(), at.end());
    m = m + fcsn::SparseMatrix(a * a.transpose());
  }
  return m;
}

// One contact's columns: an orthonormal frame on three dofs (two-body
// contacts: -frame on three more), a few arbitrary entries, or nothing.
void DecodeContact(FuzzedDataProvider& in, int n, int a, Triplets* h) {
  const int kind = in.ConsumeIntegralInRange(0, 3);
  if (kind == 3) return;
  if (kind == 2 || n < 3) {
    const int entries = in.ConsumeIntegralInRange(1, kMaxEntriesPerColumn * 3);
    for (int k = 0; k < entries; ++k) {
      h->emplace_back(in.ConsumeIntegralInRange(0, n - 1),
                      3 * a + in.ConsumeIntegralInRange(0, 2),
                      Value(in));
    }
    return;
  }
  const auto angle = [&in] {
    return in.ConsumeIntegralInRange(0, 4095) * (2 * M_PI / 4096);
  };
  const Eigen::Matrix3d frame =
      (Eigen::AngleAxisd(angle(), Eigen::Vector3d::UnitZ()) *
       Eigen::AngleAxisd(angle(), Eigen::Vector3d::UnitY()) *
       Eigen::AngleAxisd(angle(), Eigen::Vector3d::UnitX()))
          .toRotationMatrix();
  const double scale = Positive(in);
  for (int body = 0; body < kind + 1; ++body) {
    const int row = in.ConsumeIntegralInRange(0, n - 3);
    const double sign = body == 0 ? scale : -scale;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        h->emplace_back(row + i, 3 * a + j, sign * frame(i, j));
      }
    }
  }
}

GlobalProblem DecodeProblem(FuzzedDataProvider& in) {
  GlobalProblem p;
  const int n = in.ConsumeIntegralInRange(1, kMaxDofs);
  const int nc = in.ConsumeIntegralInRange(0, kMaxContacts);
  p.M = DecodeM(in, n);
  Triplets h;
  for (int a = 0; a < nc; ++a) DecodeContact(in, n, a, &h);
  p.H.resize(n, 3 * nc);
  p.H.setFromTriplets(h.begin(), h.end());
  p.mu.resize(nc);
  for (int a = 0; a < nc; ++a) {
    p.mu[a] = in.ConsumeBool() ? in.PickValueInArray(kFrictionValues)
                               : std::abs(Value(in));
  }
  p.f.resize(n);
  for (int i = 0; i < n; ++i) p.f[i] = Value(in);
  p.w.resize(3 * nc);
  for (int i = 0; i < 3 * nc; ++i) p.w[i] = Value(in);
  return p;
}

template <typename Enum, std::size_t N>
Enum PickEnum(FuzzedDataProvider& in, const std::array<Enum, N>& all) {
  return all[in.ConsumeIntegralInRange<std::size_t>(0, N - 1)];
}

fcsn::SolverOptions DecodeOptions(FuzzedDataProvider& in) {
  using namespace fcsn;
  const property::Policy& policy =
      property::kAllPolicies[in.ConsumeIntegralInRange<std::size_t>(
          0, property::kAllPolicies.size() - 1)];
  property::Budget budget;
  budget.max_iterations = in.ConsumeIntegralInRange(1, kMaxIterations);
  budget.max_sweeps = in.ConsumeIntegralInRange(1, kMaxSweeps);
  budget.time_limit_seconds = kTimeLimitSeconds;
  SolverOptions o =
      property::MakeOptions(policy, in.PickValueInArray(kTolerances), budget);
  o.formulation = PickEnum(in, kAllFormulations);
  o.line_search.type = PickEnum(in, kAllLineSearchTypes);
  o.line_search.on_failure = PickEnum(in, kAllLineSearchFailurePolicies);
  o.rho.rule = PickEnum(in, kAllRhoRules);
  o.cold_start = PickEnum(in, kAllColdStarts);
  o.nsgs.local_solver = PickEnum(in, kAllLocalSolverTypes);
  o.linear_solver.type = PickEnum(in, kAllLinearSolverTypes);
  o.hybrid.warm_sweeps = in.ConsumeIntegralInRange(0, kMaxSweeps);
  return o;
}

// The decoded problem, the answer and its summary on stderr, for a finding
// replayed with FCSN_FUZZ_DUMP=1.
void Dump(const GlobalProblem& p, const fcsn::property::Outcome& out) {
  std::ostringstream text;
  text << std::setprecision(17) << "M\n"
       << Eigen::MatrixXd(p.M) << "\nH\n"
       << Eigen::MatrixXd(p.H) << "\nf " << p.f.transpose() << "\nw "
       << p.w.transpose() << "\nmu " << p.mu.transpose() << "\nv "
       << out.solution.v.transpose() << "\nr " << out.solution.r.transpose()
       << "\n"
       << out.summary.FullReport() << "\n";
  std::fputs(text.str().c_str(), stderr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  FuzzedDataProvider in(data, size);
  const fcsn::SolverOptions options = DecodeOptions(in);
  const GlobalProblem problem = DecodeProblem(in);
  if (!problem.Validate().empty()) return 0;
  const fcsn::property::Outcome out =
      fcsn::property::SolveAndCheck(problem, options);
  if (!out.violations.empty()) {
    std::fprintf(stderr,
                 "invariant violated (%s, %s, tol %g, n %d, nc %d): %s\n",
                 fcsn::ToString(options.solver),
                 fcsn::ToString(options.formulation),
                 options.tolerance,
                 problem.n(),
                 problem.nc(),
                 fcsn::property::Describe(out.violations).c_str());
    if (std::getenv("FCSN_FUZZ_DUMP") != nullptr) Dump(problem, out);
    std::abort();
  }
  return 0;
}
