// examples/pushed_bodies/pushed_chain_model.h: a stiff bar lying on a rigid
// plane and pushed at one end, as a FEM user steps it (the pushed_chain
// example and tests/examples/pushed_chain_test.cc). N lumped nodes (3
// velocity dofs each), axial springs between neighbours, one contact per
// node; the push ramps to a multiple of the bar's sliding force, so that a
// slip zone opens at the pushed end and its front runs along the bar over a
// few steps (a stick-slip front, bench/results/fronts.md).
//
//   node i at x_i = i L / (N - 1), mass m = rho A L / N (lumped), gravity g
//   along -z; axial springs k = E A (N - 1) / L on the x dofs of neighbours;
//   theta-method (Moreau-Jean) with step h:
//     (M + theta^2 h^2 K) v+ = M v - h K (q + h theta (1 - theta) v)
//                              + h f_ext + H r,
//     q+ = q + h (theta v+ + (1 - theta) v)
//   contact i: frame (N, T1, T2) = (z, x, y) at node i, u_i = H^T v+ (no
//   gap: the bar lies on the plane), mu; f_ext = -m g e_z at every node plus
//   the push P(t) e_x at node 0, P ramping linearly over ramp_steps steps to
//   push_factor times mu m g N, then held.
#ifndef FCSN_EXAMPLES_PUSHED_CHAIN_MODEL_H_
#define FCSN_EXAMPLES_PUSHED_CHAIN_MODEL_H_

#include <Eigen/Core>
#include <ostream>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/problem.h"

namespace fcsn::pushed_bodies {

struct ChainOptions {
  int nodes = 500;           // nodes = contacts, >= 2
  int steps = 60;            // time steps
  int ramp_steps = 40;       // steps of the push's ramp
  double push_factor = 3.0;  // final push / (mu m g N)
  double young = 2e11;       // Pa (steel)
  double density = 7800.0;   // kg / m^3
  double length = 1.0;       // m
  double area = 1e-4;        // m^2
  double gravity = 9.81;     // m / s^2
  double h = 1e-3;           // s
  double theta = 1.0;        // in [0.5, 1]
  double mu = 0.3;
};

// The chain's state between steps.
struct Chain {
  int n = 0;  // nodes
  double mass = 0.0, stiffness = 0.0;
  Eigen::VectorXd q, v;  // 3 n: displacements from rest, velocities
};

Chain MakeChain(const ChainOptions& options);

// The step problem of step `step` (1-based) from the chain's state.
GlobalProblem StepProblem(const ChainOptions& options,
                          const Chain& chain,
                          int step);

// Advances the state with the step's velocities.
void Advance(const ChainOptions& options,
             const Eigen::VectorXd& v_next,
             Chain* chain);

// One step's outcome.
struct ChainStep {
  SolverStatus status = SolverStatus::kConverged;
  int iterations = 0;
  int factorizations = 0;
  int sweeps = 0;
  int sliding = 0;  // contacts labelled slip at the answer
  double seconds = 0.0;
  double factorization_seconds = 0.0;  // J's numeric factorizations
  double sweep_seconds = 0.0;          // transport sweeps (timings.nsgs)
};

// The run's outcome: per step, and the figures of bench/results/fronts.md.
// A front step is a step whose number of sliding contacts differs from the
// previous step's.
struct ChainRun {
  std::vector<ChainStep> steps;
  int max_iterations = 0;
  double median_front_iterations = 0.0;
  int front_steps = 0;
  int unconverged = 0;
  double seconds = 0.0;
  double sweep_seconds = 0.0;
  // Mean time of one numeric factorization of J over the run, and the
  // median time of a front step in those units (0 without factorizations).
  double factorization_seconds = 0.0;
  double median_front_cost = 0.0;
};

// Steps the chain with one fcsn::Solver, each step warm-started from the
// previous step's solution. `progress`, when not null, gets one line per
// step (and the message of a step that does not converge).
ChainRun RunChain(const ChainOptions& options,
                  const SolverOptions& solver_options,
                  std::ostream* progress = nullptr);

}  // namespace fcsn::pushed_bodies

#endif  // FCSN_EXAMPLES_PUSHED_CHAIN_MODEL_H_
