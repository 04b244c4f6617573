// siconos_runner.cc: see siconos_runner.h.
//
// Siconos 4.4 (Debian) is built with SICONOS_INT64: CSparseMatrix is CXSparse's
// cs_dl (64-bit indices), opaque in Siconos' headers. CXSparse's cs.h (from
// libsuitesparse-dev, a dependency of libsiconos-numerics-dev) gives its
// layout; it must be included with CS_LONG before the Siconos headers.
#include "siconos_runner.h"

#define CS_LONG
#include <suitesparse/cs.h>
#include <time.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "Friction_cst.h"
#include "GlobalFrictionContactProblem.h"
#include "NonSmoothDrivers.h"
#include "NumericsMatrix.h"
#include "NumericsSparseMatrix.h"
#include "NumericsVerbose.h"
#include "SolverOptions.h"

static_assert(sizeof(CS_INT) == 8,
              "Siconos 4.4 (Debian) uses 64-bit CSparse indices");

namespace fcsn_bench {
namespace {

// A Siconos NM_SPARSE matrix whose origin is a CSC copy of `a` (values kept
// as given, explicit zeros included).
NumericsMatrix* ToNumericsCsc(const fcsn::SparseMatrix& a_in) {
  fcsn::SparseMatrix a = a_in;
  a.makeCompressed();
  const int rows = static_cast<int>(a.rows());
  const int cols = static_cast<int>(a.cols());
  const CS_INT nnz = static_cast<CS_INT>(a.nonZeros());
  NumericsMatrix* out = NM_create(NM_SPARSE, rows, cols);
  out->matrix2->origin = NSM_CSC;
  NM_csc_alloc(out, nnz > 0 ? nnz : 1);
  cs_dl* csc = out->matrix2->csc;
  for (int j = 0; j <= cols; ++j) csc->p[j] = a.outerIndexPtr()[j];
  for (CS_INT k = 0; k < nnz; ++k) {
    csc->i[k] = a.innerIndexPtr()[k];
    csc->x[k] = a.valuePtr()[k];
  }
  csc->nz = -1;  // compressed column
  return out;
}

double* MallocCopy(const Eigen::VectorXd& x) {
  double* out =
      static_cast<double*>(std::malloc(sizeof(double) * (x.size() + 1)));
  if (x.size() > 0) std::memcpy(out, x.data(), sizeof(double) * x.size());
  return out;
}

int SolverId(SiconosMethod method) {
  switch (method) {
    case SiconosMethod::kNsnJm:
    case SiconosMethod::kNsnAc:
      return SICONOS_GLOBAL_FRICTION_3D_NSN_AC;
    case SiconosMethod::kNsgsWr:
      return SICONOS_GLOBAL_FRICTION_3D_NSGS_WR;
    case SiconosMethod::kAdmm:
      return SICONOS_GLOBAL_FRICTION_3D_ADMM;
  }
  return -1;
}

// The Siconos copy of the problem: M and H as CSC with 64-bit indices,
// q = f, b = w, and the norms 4.4 leaves uninitialised.
GlobalFrictionContactProblem* MakeProblem(const fcsn::GlobalProblem& problem) {
  GlobalFrictionContactProblem* p = globalFrictionContactProblem_new();
  p->dimension = 3;
  p->numberOfContacts = problem.nc();
  p->M = ToNumericsCsc(problem.M);
  p->H = ToNumericsCsc(problem.H);
  p->q = MallocCopy(problem.f);
  p->b = MallocCopy(problem.w);
  p->mu = MallocCopy(problem.mu);
  // Left uninitialised by globalFrictionContactProblem_new in 4.4.
  p->norm_q = problem.f.norm();
  p->norm_b = problem.w.norm();
  p->env = nullptr;
  return p;
}

// Fresh options for this one solve (reusing them corrupts 4.4's heap);
// records Siconos' default iteration budget in *result.
SolverOptions* MakeOptions(SiconosMethod method,
                           double tolerance,
                           int max_iterations,
                           SiconosResult* result) {
  SolverOptions* options = solver_options_create(SolverId(method));
  result->default_max_iterations = options->iparam[SICONOS_IPARAM_MAX_ITER];
  options->dparam[SICONOS_DPARAM_TOL] = tolerance;
  if (max_iterations > 0) {
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iterations;
  }
  if (method == SiconosMethod::kNsnAc) {
    options->iparam[SICONOS_FRICTION_3D_NSN_FORMULATION] =
        SICONOS_FRICTION_3D_NSN_FORMULATION_ALARTCURNIER_STD;
  }
  return options;
}

}  // namespace

void RunSiconos(const fcsn::GlobalProblem& problem,
                SiconosMethod method,
                double tolerance,
                int max_iterations,
                const std::function<void()>& on_start,
                Eigen::VectorXd* v,
                Eigen::VectorXd* r,
                SiconosResult* result) {
  numerics_set_verbose(0);
  const int n = problem.n();
  const int m = problem.m();
  GlobalFrictionContactProblem* p = MakeProblem(problem);
  SolverOptions* options =
      MakeOptions(method, tolerance, max_iterations, result);

  double* reaction = static_cast<double*>(std::calloc(m + 1, sizeof(double)));
  double* velocity = static_cast<double*>(std::calloc(m + 1, sizeof(double)));
  double* global_velocity =
      static_cast<double*>(std::calloc(n + 1, sizeof(double)));

  on_start();
  timespec c0, c1;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  const auto t0 = std::chrono::steady_clock::now();
  const int info =
      gfc3d_driver(p, reaction, velocity, global_velocity, options);
  const auto t1 = std::chrono::steady_clock::now();
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  result->cpu_seconds =
      (c1.tv_sec - c0.tv_sec) + 1e-9 * (c1.tv_nsec - c0.tv_nsec);

  result->seconds = std::chrono::duration<double>(t1 - t0).count();
  result->info = info;
  result->iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
  result->own_error = options->dparam[SICONOS_DPARAM_RESIDU];
  *v = Eigen::Map<Eigen::VectorXd>(global_velocity, n);
  *r = Eigen::Map<Eigen::VectorXd>(reaction, m);
  // Nothing is freed: the caller is a child process about to exit.
}

}  // namespace fcsn_bench
