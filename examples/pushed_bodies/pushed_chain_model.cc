#include "pushed_chain_model.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "fcsn/contact_status.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"

namespace fcsn::pushed_bodies {
namespace {

// K x for the axial springs (x dofs only).
Eigen::VectorXd StiffnessTimes(const Chain& c, const Eigen::VectorXd& x) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(3 * c.n);
  for (int i = 0; i + 1 < c.n; ++i) {
    const double stretch = x[3 * (i + 1)] - x[3 * i];
    out[3 * i] -= c.stiffness * stretch;
    out[3 * (i + 1)] += c.stiffness * stretch;
  }
  return out;
}

int Sliding(const GlobalProblem& p,
            const Solution& x,
            const SolverSummary& summary,
            double tolerance) {
  std::vector<ContactStatus> statuses;
  ContactStatusScales scales;
  scales.tolerance = tolerance;
  scales.velocity_floor = summary.velocity_floor;
  if (!ClassifySolution(p, x, scales, &statuses)) return -1;
  return static_cast<int>(
      std::count(statuses.begin(), statuses.end(), ContactStatus::kSlip));
}

double Median(std::vector<double> x) {
  if (x.empty()) return 0.0;
  std::sort(x.begin(), x.end());
  const size_t k = x.size() / 2;
  return x.size() % 2 ? x[k] : 0.5 * (x[k - 1] + x[k]);
}

void Summarize(ChainRun* run) {
  std::vector<double> front, front_seconds;
  int previous_sliding = 0, factorizations = 0;
  double factorization_seconds = 0.0;
  for (const ChainStep& step : run->steps) {
    run->max_iterations = std::max(run->max_iterations, step.iterations);
    if (step.status != SolverStatus::kConverged) ++run->unconverged;
    if (step.sliding != previous_sliding) {
      front.push_back(step.iterations);
      front_seconds.push_back(step.seconds);
    }
    previous_sliding = step.sliding;
    run->seconds += step.seconds;
    run->sweep_seconds += step.sweep_seconds;
    factorizations += step.factorizations;
    factorization_seconds += step.factorization_seconds;
  }
  run->front_steps = static_cast<int>(front.size());
  run->median_front_iterations = Median(front);
  if (factorizations > 0 && factorization_seconds > 0.0) {
    run->factorization_seconds = factorization_seconds / factorizations;
    run->median_front_cost = Median(front_seconds) / run->factorization_seconds;
  }
}

}  // namespace

Chain MakeChain(const ChainOptions& s) {
  Chain c;
  c.n = s.nodes;
  c.mass = s.density * s.area * s.length / s.nodes;
  c.stiffness = s.young * s.area * (s.nodes - 1) / s.length;
  c.q = Eigen::VectorXd::Zero(3 * c.n);
  c.v = Eigen::VectorXd::Zero(3 * c.n);
  return c;
}

GlobalProblem StepProblem(const ChainOptions& s, const Chain& c, int step) {
  const int n = c.n;
  const double h = s.h, th = s.theta;
  std::vector<Eigen::Triplet<double>> m, hh;
  const double spring = th * th * h * h * c.stiffness;
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) m.emplace_back(3 * i + d, 3 * i + d, c.mass);
    if (i + 1 < n) {
      m.emplace_back(3 * i, 3 * i, spring);
      m.emplace_back(3 * (i + 1), 3 * (i + 1), spring);
      m.emplace_back(3 * i, 3 * (i + 1), -spring);
      m.emplace_back(3 * (i + 1), 3 * i, -spring);
    }
    hh.emplace_back(3 * i + 2, 3 * i, 1.0);      // N = z
    hh.emplace_back(3 * i + 0, 3 * i + 1, 1.0);  // T1 = x
    hh.emplace_back(3 * i + 1, 3 * i + 2, 1.0);  // T2 = y
  }
  GlobalProblem p;
  p.M.resize(3 * n, 3 * n);
  p.M.setFromTriplets(m.begin(), m.end());
  p.H.resize(3 * n, 3 * n);
  p.H.setFromTriplets(hh.begin(), hh.end());
  const double sliding = s.mu * c.mass * s.gravity * n;
  const double ramp = std::min(1.0, static_cast<double>(step) / s.ramp_steps);
  Eigen::VectorXd f_ext = Eigen::VectorXd::Zero(3 * n);
  for (int i = 0; i < n; ++i) f_ext[3 * i + 2] = -c.mass * s.gravity;
  f_ext[0] += ramp * s.push_factor * sliding;
  p.f = c.mass * c.v - h * StiffnessTimes(c, c.q + h * th * (1.0 - th) * c.v) +
        h * f_ext;
  p.w = Eigen::VectorXd::Zero(3 * n);
  p.mu = Eigen::VectorXd::Constant(n, s.mu);
  return p;
}

void Advance(const ChainOptions& s, const Eigen::VectorXd& v_next, Chain* c) {
  c->q += s.h * (s.theta * v_next + (1.0 - s.theta) * c->v);
  c->v = v_next;
}

ChainRun RunChain(const ChainOptions& s,
                  const SolverOptions& solver_options,
                  std::ostream* progress) {
  Solver solver(solver_options);
  Chain c = MakeChain(s);
  Solution x;
  ChainRun run;
  for (int k = 1; k <= s.steps; ++k) {
    const GlobalProblem p = StepProblem(s, c, k);
    const auto start = std::chrono::steady_clock::now();
    const SolverSummary summary = solver.Solve(p, &x, &x);
    ChainStep step;
    step.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    step.status = summary.status;
    step.iterations = summary.iterations;
    step.factorizations = summary.factorizations;
    step.sweeps = summary.nsgs_sweeps;
    step.factorization_seconds = summary.timings.factorization;
    step.sweep_seconds = summary.timings.nsgs;
    step.sliding = Sliding(p, x, summary, solver_options.tolerance);
    run.steps.push_back(step);
    if (progress != nullptr) {
      char line[160];
      std::snprintf(line,
                    sizeof(line),
                    "step %3d: %-18s %3d iterations %3d factorizations "
                    "%3d sweeps %6d sliding\n",
                    k,
                    ToString(summary.status),
                    step.iterations,
                    step.factorizations,
                    step.sweeps,
                    step.sliding);
      *progress << line;
      if (!summary.IsConverged()) *progress << summary.BriefReport() << "\n";
    }
    Advance(s, x.v, &c);
  }
  Summarize(&run);
  return run;
}

}  // namespace fcsn::pushed_bodies
