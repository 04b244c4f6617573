// sliding_point.cc: the smallest use of an installed fcsn's C++ API (GlobalProblem, SolverOptions,
// Solver, Solution, SolverSummary). One unit point mass on the plane z = 0 (M = I, H maps
// (v_x, v_y, v_z) to the contact frame (N, T1, T2) = (v_z, v_x, v_y)), mu = 0.5, pushed along x
// harder than friction holds: it slides with v_x = f_x - mu |f_z| and r = (|f_z|, -mu |f_z|, 0).
// SolveSlidingPoint() (sliding_point.h) reports whether the answer is right; consumer.cc runs it.
#include "sliding_point.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "fcsn/fcsn.h"

bool SolveSlidingPoint() {
  fcsn::GlobalProblem problem;
  problem.M.resize(3, 3);
  problem.M.setIdentity();
  std::vector<Eigen::Triplet<double>> h = {
      {2, 0, 1.0}, {0, 1, 1.0}, {1, 2, 1.0}};
  problem.H.resize(3, 3);
  problem.H.setFromTriplets(h.begin(), h.end());
  problem.f = Eigen::Vector3d(2.0, 0.0, -1.0);  // push along x, weight along -z
  problem.w = Eigen::Vector3d::Zero();
  problem.mu = Eigen::VectorXd::Constant(1, 0.5);

  fcsn::SolverOptions options;
  options.tolerance = 1e-12;
  options.solver =
      fcsn::SolverType::kNewton;  // Newton steps: MUMPS factorizations
  fcsn::Solver solver(options);
  fcsn::Solution solution;
  const fcsn::SolverSummary summary = solver.Solve(problem, nullptr, &solution);
  std::printf("%s\n", summary.BriefReport().c_str());
  std::printf("v = (%g, %g, %g), r = (%g, %g, %g)\n",
              solution.v[0],
              solution.v[1],
              solution.v[2],
              solution.r[0],
              solution.r[1],
              solution.r[2]);
  const bool ok =
      summary.IsConverged() && std::abs(solution.v[0] - 1.5) < 1e-9 &&
      std::abs(solution.v[2]) < 1e-9 && std::abs(solution.r[0] - 1.0) < 1e-9 &&
      std::abs(solution.r[1] + 0.5) < 1e-9;
  std::printf("sliding point: %s\n", ok ? "ok" : "WRONG ANSWER");
  return ok;
}
