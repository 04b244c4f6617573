// The C API (fcsn/fcsn_c.h) over fcsn::Solver. Every entry point catches all
// exceptions (std::bad_alloc -> FCSN_OUT_OF_MEMORY, anything else ->
// FCSN_INTERNAL_ERROR): none crosses the C boundary.
//
// The caller's arrays become the C++ problem through fcsn::ProblemViewConverter
// (fcsn/problem_view.h), the one conversion rule of the library: sorted CSC
// copies with summed duplicates and a slot map, so that fcsn_update_values
// refills the values on the same pattern and the Solver keeps its symbolic
// analysis.
#include "fcsn/fcsn_c.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "capi/solver_handle.h"
#include "fcsn/config.h"
#include "fcsn/contact_status.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/problem_view.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"
#include "fcsn/types.h"

// The C enums are numbered as the C++ kAll* arrays (fcsn/types.h).
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_CONVERGED] ==
              fcsn::SolverStatus::kConverged);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_MAX_ITERATIONS] ==
              fcsn::SolverStatus::kMaxIterations);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_TIME_LIMIT] ==
              fcsn::SolverStatus::kTimeLimit);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_LINE_SEARCH_FAILED] ==
              fcsn::SolverStatus::kLineSearchFailed);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_LINEAR_SOLVER_FAILED] ==
              fcsn::SolverStatus::kLinearSolverFailed);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_INVALID_INPUT] ==
              fcsn::SolverStatus::kInvalidInput);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_NUMERICAL_ISSUE] ==
              fcsn::SolverStatus::kNumericalIssue);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_STALLED] ==
              fcsn::SolverStatus::kStalled);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_ROUND_OFF_LIMIT] ==
              fcsn::SolverStatus::kRoundOffLimit);
static_assert(fcsn::kAllSolverStatuses[FCSN_STATUS_ABORTED] ==
              fcsn::SolverStatus::kAborted);
static_assert(static_cast<std::size_t>(FCSN_STATUS_UNSOLVED) ==
              fcsn::kAllSolverStatuses.size());
static_assert(fcsn::kAllFormulations[FCSN_FORMULATION_ALART_CURNIER] ==
              fcsn::Formulation::kAlartCurnier);
static_assert(fcsn::kAllFormulations[FCSN_FORMULATION_JEAN_MOREAU] ==
              fcsn::Formulation::kJeanMoreau);
static_assert(fcsn::kAllFormulations[FCSN_FORMULATION_NATURAL_MAP] ==
              fcsn::Formulation::kNaturalMap);
static_assert(fcsn::kAllFormulations[FCSN_FORMULATION_FISCHER_BURMEISTER] ==
              fcsn::Formulation::kFischerBurmeister);

namespace {

// Result of a check: an fcsn_error code and, if not FCSN_OK, a sentence.
struct Check {
  int error = FCSN_OK;
  std::string message;
  bool ok() const { return error == FCSN_OK; }
};

Check Fail(int error, std::string message) {
  return Check{error, std::move(message)};
}

bool InRange(int value, int count) { return value >= 0 && value < count; }

// Settings -> SolverOptions (on top of the C++ defaults); checks the enums,
// then SolverOptions::Validate() the values.
Check ToOptions(const fcsn_settings& s, fcsn::SolverOptions* options) {
  if (!InRange(s.solver, 3)) {
    return Fail(FCSN_INVALID_SETTINGS,
                "fcsn_settings.solver = " + std::to_string(s.solver) +
                    " is not an fcsn_solver_type");
  }
  if (!InRange(s.formulation, 4)) {
    return Fail(FCSN_INVALID_SETTINGS,
                "fcsn_settings.formulation = " + std::to_string(s.formulation) +
                    " is not an fcsn_formulation");
  }
  if (!InRange(s.linear_solver, 3)) {
    return Fail(
        FCSN_INVALID_SETTINGS,
        "fcsn_settings.linear_solver = " + std::to_string(s.linear_solver) +
            " is not an fcsn_linear_solver");
  }
  if (!InRange(s.cold_start, 5)) {
    return Fail(FCSN_INVALID_SETTINGS,
                "fcsn_settings.cold_start = " + std::to_string(s.cold_start) +
                    " is not an fcsn_cold_start");
  }
  if (s.nsgs_max_sweeps < 0) {
    return Fail(FCSN_INVALID_SETTINGS,
                "fcsn_settings.nsgs_max_sweeps = " +
                    std::to_string(s.nsgs_max_sweeps) + " must be >= 0");
  }
  fcsn::SolverOptions o;
  constexpr fcsn::SolverType kSolvers[] = {fcsn::SolverType::kHybrid,
                                           fcsn::SolverType::kNewton,
                                           fcsn::SolverType::kNsgs};
  constexpr fcsn::LinearSolverType kLinearSolvers[] = {
      fcsn::LinearSolverType::kMumps,
      fcsn::LinearSolverType::kEigenLU,
      fcsn::LinearSolverType::kDense};
  o.solver = kSolvers[s.solver];
  o.formulation = fcsn::kAllFormulations[s.formulation];
  o.linear_solver.type = kLinearSolvers[s.linear_solver];
  static_assert(FCSN_COLD_START_AUTO == 3 &&
                fcsn::kAllColdStarts[3] == fcsn::ColdStart::kAuto &&
                FCSN_COLD_START_APPROACHING == 4 &&
                fcsn::kAllColdStarts[4] == fcsn::ColdStart::kApproaching);
  o.cold_start = fcsn::kAllColdStarts[s.cold_start];
  o.tolerance = s.tolerance;
  o.max_iterations = s.max_iterations;
  o.nsgs.max_sweeps = s.nsgs_max_sweeps;
  o.time_limit_seconds = s.time_limit_seconds;
  static_assert(FCSN_KRYLOV_REUSE_AUTO == fcsn::kAutoKrylovReuse);
  o.krylov_reuse_iterations = s.krylov_reuse_iterations;
  static_assert(FCSN_MPI_COMM_WORLD == fcsn::kMpiCommWorld);
  o.linear_solver.mpi_communicator = s.mpi_comm;
  // C users read results through fcsn_get_info; no per-iteration history.
  o.record_history = false;
  std::string why = o.Validate();
  if (!why.empty()) return Fail(FCSN_INVALID_SETTINGS, why);
  *options = o;
  return Check{};
}

// One fcsn_csc as a view (a NULL col_ptr: no entries).
fcsn::SparseView ToView(const fcsn_csc& csc, int rows, int cols, int base) {
  if (csc.col_ptr == nullptr)
    return fcsn::CooView(rows, cols, 0, {}, {}, nullptr, base);
  return fcsn::CscView(
      rows, cols, csc.col_ptr, csc.row_index, csc.values, base);
}

Eigen::VectorXd CopyVector(const double* x, int size) {
  if (x == nullptr) return Eigen::VectorXd::Zero(size);
  return Eigen::Map<const Eigen::VectorXd>(x, size);
}

// Checks the C problem and builds the C++ one with *converter (which keeps
// the slot maps for fcsn_update_values).
Check BuildProblem(const fcsn_problem* p,
                   fcsn::ProblemViewConverter* converter,
                   fcsn::GlobalProblem* problem) {
  if (p == nullptr) return Fail(FCSN_INVALID_ARGUMENT, "problem is NULL");
  if (p->n < 0 || p->nc < 0 || p->nc > std::numeric_limits<int>::max() / 3) {
    return Fail(FCSN_INVALID_ARGUMENT,
                "fcsn_problem sizes n = " + std::to_string(p->n) +
                    ", nc = " + std::to_string(p->nc) + " are invalid");
  }
  const int m = 3 * p->nc;
  fcsn::GlobalProblemView view;
  view.M = ToView(p->M, p->n, p->n, p->index_base);
  view.H = ToView(p->H, p->n, m, p->index_base);
  view.f = {p->f, p->n};
  view.w = {p->w, p->w != nullptr ? m : 0};  // size 0: w = 0
  view.mu = {p->mu, p->nc};
  std::string why = converter->Fill(view, problem);
  if (why.empty()) return Check{};
  return Fail(converter->last_fill_failed_validation() ? FCSN_INVALID_PROBLEM
                                                       : FCSN_INVALID_ARGUMENT,
              why);
}

fcsn_solve_status ToC(fcsn::SolverStatus status) {
  switch (status) {
    case fcsn::SolverStatus::kConverged:
      return FCSN_STATUS_CONVERGED;
    case fcsn::SolverStatus::kMaxIterations:
      return FCSN_STATUS_MAX_ITERATIONS;
    case fcsn::SolverStatus::kTimeLimit:
      return FCSN_STATUS_TIME_LIMIT;
    case fcsn::SolverStatus::kLineSearchFailed:
      return FCSN_STATUS_LINE_SEARCH_FAILED;
    case fcsn::SolverStatus::kLinearSolverFailed:
      return FCSN_STATUS_LINEAR_SOLVER_FAILED;
    case fcsn::SolverStatus::kInvalidInput:
      return FCSN_STATUS_INVALID_INPUT;
    case fcsn::SolverStatus::kNumericalIssue:
      return FCSN_STATUS_NUMERICAL_ISSUE;
    case fcsn::SolverStatus::kStalled:
      return FCSN_STATUS_STALLED;
    case fcsn::SolverStatus::kRoundOffLimit:
      return FCSN_STATUS_ROUND_OFF_LIMIT;
    case fcsn::SolverStatus::kAborted:
      return FCSN_STATUS_ABORTED;
  }
  return FCSN_STATUS_INVALID_INPUT;
}

fcsn_contact_status ToC(fcsn::ContactStatus status) {
  switch (status) {
    case fcsn::ContactStatus::kTakeOff:
      return FCSN_CONTACT_TAKE_OFF;
    case fcsn::ContactStatus::kStick:
      return FCSN_CONTACT_STICK;
    case fcsn::ContactStatus::kSlip:
      return FCSN_CONTACT_SLIP;
  }
  return FCSN_CONTACT_TAKE_OFF;
}

// Fills solver->info and the contact statuses from the last summary.
void RecordSolve(fcsn_solver* s) {
  const fcsn::SolverSummary& sum = s->summary;
  fcsn_info& info = s->info;
  info = fcsn_info{};
  info.status = ToC(sum.status);
  info.iterations = sum.iterations;
  info.nsgs_sweeps = sum.nsgs_sweeps;
  info.analyses = sum.analyses;
  info.factorizations = sum.factorizations;
  info.e_cone = sum.e_cone;
  info.e_dual = sum.e_dual;
  info.e_comp = sum.e_comp;
  info.e_eq = sum.e_eq;
  info.e_nat = sum.e_nat;
  info.solve_time_seconds = sum.timings.total;
  const int m = s->problem.m();
  if (s->solution.r.size() != m) {
    // A solve rejected before iterating: report the zero point.
    s->solution.v = Eigen::VectorXd::Zero(s->problem.n());
    s->solution.r = Eigen::VectorXd::Zero(m);
    s->solution.u = s->problem.w;
  }
  fcsn::ContactStatusScales scales;
  scales.tolerance = s->options.tolerance;
  scales.velocity_floor = sum.velocity_floor;
  if (!fcsn::ClassifySolution(s->problem, s->solution, scales, &s->statuses))
    s->statuses.assign(s->problem.nc(), fcsn::ContactStatus::kTakeOff);
  for (fcsn::ContactStatus status : s->statuses) {
    switch (status) {
      case fcsn::ContactStatus::kTakeOff:
        ++info.take_off;
        break;
      case fcsn::ContactStatus::kStick:
        ++info.stick;
        break;
      case fcsn::ContactStatus::kSlip:
        ++info.slip;
        break;
    }
  }
  s->message = sum.message;
}

// fcsn_solve and fcsn_solve_distributed (local_m: nullptr for the former).
int Solve(const char* function,
          fcsn_solver* solver,
          const fcsn::LocalMatrixEntries* local_m,
          const double* v_guess,
          const double* r_guess) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  if ((v_guess == nullptr) != (r_guess == nullptr)) {
    solver->message =
        std::string(function) + ": give both v_guess and r_guess, or neither";
    return FCSN_INVALID_ARGUMENT;
  }
  return Guarded(&solver->message, [&]() -> int {
    fcsn::Solution guess;
    const fcsn::Solution* guess_ptr = nullptr;
    if (v_guess != nullptr) {
      guess.v = CopyVector(v_guess, solver->problem.n());
      guess.r = CopyVector(r_guess, solver->problem.m());
      guess_ptr = &guess;
    }
    solver->summary =
        local_m != nullptr
            ? solver->solver.Solve(
                  solver->problem, *local_m, guess_ptr, &solver->solution)
            : solver->solver.Solve(
                  solver->problem, guess_ptr, &solver->solution);
    solver->solved = true;
    RecordSolve(solver);
    return FCSN_OK;
  });
}

// The C triplets as 0-based LocalMatrixEntries. A malformed local_M (NULL,
// nnz < 0, NULL arrays) is not refused here, where only this rank would see
// it: it becomes entries of different counts, which the solve's collective
// check refuses on every rank, naming this one.
fcsn::LocalMatrixEntries ToLocalEntries(const fcsn_local_triplets* t,
                                        int base) {
  fcsn::LocalMatrixEntries local;
  const bool malformed =
      t == nullptr || t->nnz < 0 ||
      (t->nnz > 0 &&
       (t->rows == nullptr || t->cols == nullptr || t->values == nullptr));
  if (malformed) {
    local.rows.assign(1, 0);  // one row, no column: a size mismatch
    return local;
  }
  local.rows.resize(t->nnz);
  local.cols.resize(t->nnz);
  local.values.assign(t->values, t->values + t->nnz);
  for (int32_t k = 0; k < t->nnz; ++k) {
    local.rows[k] = t->rows[k] - base;
    local.cols[k] = t->cols[k] - base;
  }
  return local;
}

}  // namespace

extern "C" {

const char* fcsn_version(void) { return FCSN_VERSION; }

const char* fcsn_error_string(int error) {
  switch (error) {
    case FCSN_OK:
      return "ok";
    case FCSN_INVALID_ARGUMENT:
      return "invalid-argument";
    case FCSN_INVALID_PROBLEM:
      return "invalid-problem";
    case FCSN_INVALID_SETTINGS:
      return "invalid-settings";
    case FCSN_NOT_SOLVED:
      return "not-solved";
    case FCSN_OUT_OF_MEMORY:
      return "out-of-memory";
    case FCSN_INTERNAL_ERROR:
      return "internal-error";
    default:
      return "unknown";
  }
}

const char* fcsn_status_string(int status) {
  if (status == FCSN_STATUS_UNSOLVED) return "unsolved";
  if (!InRange(status, static_cast<int>(fcsn::kAllSolverStatuses.size())))
    return "unknown";
  // FCSN_STATUS_* are numbered as fcsn::kAllSolverStatuses (static_asserts
  // above).
  return fcsn::ToString(fcsn::kAllSolverStatuses[status]);
}

const char* fcsn_contact_status_string(int contact_status) {
  switch (contact_status) {
    case FCSN_CONTACT_TAKE_OFF:
      return fcsn::ToString(fcsn::ContactStatus::kTakeOff);
    case FCSN_CONTACT_STICK:
      return fcsn::ToString(fcsn::ContactStatus::kStick);
    case FCSN_CONTACT_SLIP:
      return fcsn::ToString(fcsn::ContactStatus::kSlip);
    default:
      return "unknown";
  }
}

void fcsn_default_settings(fcsn_settings* settings) {
  if (settings == nullptr) return;
  const fcsn::SolverOptions o;
  *settings = fcsn_settings{};
  settings->solver = FCSN_SOLVER_HYBRID;
  settings->formulation = FCSN_FORMULATION_ALART_CURNIER;
  settings->linear_solver = FCSN_LINEAR_SOLVER_MUMPS;
  settings->tolerance = o.tolerance;
  settings->max_iterations = o.max_iterations;
  settings->nsgs_max_sweeps = o.nsgs.max_sweeps;
  settings->time_limit_seconds = o.time_limit_seconds;
  settings->mpi_comm = o.linear_solver.mpi_communicator;
  settings->cold_start = static_cast<int>(o.cold_start);
  settings->krylov_reuse_iterations = o.krylov_reuse_iterations;
}

int fcsn_validate(const fcsn_problem* problem,
                  const fcsn_settings* settings,
                  char* message,
                  size_t message_size) {
  std::string text;
  const int error = Guarded(&text, [&]() -> int {
    fcsn_settings defaults;
    fcsn_default_settings(&defaults);
    fcsn::SolverOptions options;
    Check c = ToOptions(settings != nullptr ? *settings : defaults, &options);
    if (c.ok()) {
      fcsn::ProblemViewConverter converter;
      fcsn::GlobalProblem p;
      c = BuildProblem(problem, &converter, &p);
    }
    text = c.message;
    return c.error;
  });
  CopyMessage(text, message, message_size);
  return error;
}

int fcsn_setup(fcsn_solver** solver,
               const fcsn_problem* problem,
               const fcsn_settings* settings) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  *solver = nullptr;
  return Guarded(nullptr, [&]() -> int {
    fcsn_settings defaults;
    fcsn_default_settings(&defaults);
    fcsn::SolverOptions options;
    Check c = ToOptions(settings != nullptr ? *settings : defaults, &options);
    if (!c.ok()) return c.error;
    auto s = std::make_unique<fcsn_solver>(options);
    c = BuildProblem(problem, &s->converter, &s->problem);
    if (!c.ok()) return c.error;
    s->index_base = problem->index_base;
    s->info.status = FCSN_STATUS_UNSOLVED;
    // Structure-only work now; a failure here (e.g. a structurally singular
    // Newton matrix) is reported again by the first solve. An M without
    // entries is a distributed M (fcsn_solve_distributed): nothing to do.
    if (s->problem.M.nonZeros() > 0) {
      const fcsn::SetupSummary setup = s->solver.Setup(s->problem);
      if (!setup.IsReady()) s->message = setup.message;
    }
    *solver = s.release();
    return FCSN_OK;
  });
}

int fcsn_update_values(fcsn_solver* solver,
                       const double* M_values,
                       const double* H_values,
                       const double* f,
                       const double* w,
                       const double* mu) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  return Guarded(&solver->message, [&]() -> int {
    fcsn::GlobalProblem updated = solver->problem;
    std::string why =
        solver->converter.RefreshValues(M_values, H_values, &updated);
    if (!why.empty()) {
      solver->message = why;
      return FCSN_INTERNAL_ERROR;  // setup's Fill built this problem
    }
    if (f != nullptr) updated.f = CopyVector(f, updated.n());
    if (w != nullptr) updated.w = CopyVector(w, updated.m());
    if (mu != nullptr) updated.mu = CopyVector(mu, updated.nc());
    why = updated.Validate();
    if (!why.empty()) {
      solver->message = why;
      return FCSN_INVALID_PROBLEM;
    }
    solver->problem = std::move(updated);
    return FCSN_OK;
  });
}

int fcsn_update_settings(fcsn_solver* solver, const fcsn_settings* settings) {
  if (solver == nullptr || settings == nullptr) return FCSN_INVALID_ARGUMENT;
  return Guarded(&solver->message, [&]() -> int {
    fcsn::SolverOptions options;
    Check c = ToOptions(*settings, &options);
    if (!c.ok()) {
      solver->message = c.message;
      return c.error;
    }
    solver->options = options;
    solver->solver.set_options(WithHooks(*solver));
    return FCSN_OK;
  });
}

int fcsn_solve(fcsn_solver* solver,
               const double* v_guess,
               const double* r_guess) {
  return Solve("fcsn_solve", solver, nullptr, v_guess, r_guess);
}

int fcsn_solve_distributed(fcsn_solver* solver,
                           const fcsn_local_triplets* local_M,
                           const double* v_guess,
                           const double* r_guess) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  return Guarded(&solver->message, [&]() -> int {
    const fcsn::LocalMatrixEntries local =
        ToLocalEntries(local_M, solver->index_base);
    return Solve("fcsn_solve_distributed", solver, &local, v_guess, r_guess);
  });
}

int fcsn_get_info(const fcsn_solver* solver, fcsn_info* info) {
  if (solver == nullptr || info == nullptr) return FCSN_INVALID_ARGUMENT;
  *info = solver->info;
  return solver->solved ? FCSN_OK : FCSN_NOT_SOLVED;
}

int fcsn_get_solution(const fcsn_solver* solver,
                      double* v,
                      double* u,
                      double* r) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  if (!solver->solved) return FCSN_NOT_SOLVED;
  const fcsn::Solution& x = solver->solution;
  if (v != nullptr) std::copy(x.v.data(), x.v.data() + x.v.size(), v);
  if (u != nullptr) std::copy(x.u.data(), x.u.data() + x.u.size(), u);
  if (r != nullptr) std::copy(x.r.data(), x.r.data() + x.r.size(), r);
  return FCSN_OK;
}

int fcsn_get_contact_status(const fcsn_solver* solver, int* status) {
  if (solver == nullptr || status == nullptr) return FCSN_INVALID_ARGUMENT;
  if (!solver->solved) return FCSN_NOT_SOLVED;
  for (std::size_t a = 0; a < solver->statuses.size(); ++a)
    status[a] = ToC(solver->statuses[a]);
  return FCSN_OK;
}

const char* fcsn_message(const fcsn_solver* solver) {
  if (solver == nullptr) return "";
  return solver->message.c_str();
}

void fcsn_free(fcsn_solver* solver) { delete solver; }

}  // extern "C"
