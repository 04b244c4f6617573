// siconos_runner.h: one solve of an fcsn::GlobalProblem by Siconos/numerics
// 4.4 (C API), for the side-by-side benchmark. Only this translation unit sees
// Siconos and CXSparse headers.
#ifndef FCSN_BENCH_COMPARE_SICONOS_SICONOS_RUNNER_H_
#define FCSN_BENCH_COMPARE_SICONOS_SICONOS_RUNNER_H_

#include <Eigen/Core>
#include <functional>

#include "fcsn/problem.h"

namespace fcsn_bench {

enum class SiconosMethod {
  kNsnJm,   // GFC3D_NSN_AC with its default formulation (JM_STD in 4.4)
  kNsnAc,   // GFC3D_NSN_AC with iparam[10] = ALARTCURNIER_STD
  kNsgsWr,  // GFC3D_NSGS_WR: reduce to W = H^T M^-1 H, fc3d_nsgs, recover v
  kAdmm,    // GFC3D_ADMM
};

struct SiconosResult {
  int info = -1;             // gfc3d_driver's return (0 = Siconos converged)
  int iterations = 0;        // iparam[SICONOS_IPARAM_ITER_DONE]
  double own_error = 0.0;    // dparam[SICONOS_DPARAM_RESIDU]
  double seconds = 0.0;      // wall time of gfc3d_driver only
  double cpu_seconds = 0.0;  // process CPU time of gfc3d_driver only
  int default_max_iterations = 0;  // iparam[0] before any override
};

// Builds the Siconos problem (M and H as CSC with 64-bit indices, q = f,
// b = w, norms set) and fresh SolverOptions (never reused: Pitfall 8), calls
// on_start() just before gfc3d_driver and times that call alone. Cold start
// (v = 0, u = 0, r = 0). max_iterations <= 0 keeps Siconos' default. Leaks
// the Siconos objects on purpose: meant to run in a short-lived child process
// (4.4 corrupts its heap on some paths, freeing could crash after the
// measurement).
void RunSiconos(const fcsn::GlobalProblem& problem,
                SiconosMethod method,
                double tolerance,
                int max_iterations,
                const std::function<void()>& on_start,
                Eigen::VectorXd* v,
                Eigen::VectorXd* r,
                SiconosResult* result);

}  // namespace fcsn_bench

#endif  // FCSN_BENCH_COMPARE_SICONOS_SICONOS_RUNNER_H_
