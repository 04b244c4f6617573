// The C API's iteration callback, progress log and stop request
// (fcsn/fcsn_c.h: fcsn_set_callback, fcsn_set_log, fcsn_request_stop).
#include <string>

#include "capi/solver_handle.h"
#include "fcsn/fcsn_c.h"

namespace {

fcsn_iteration ToC(const fcsn::IterationRecord& record) {
  fcsn_iteration it{};
  it.phase = record.phase == fcsn::IterationPhase::kNewton ? 0 : 1;
  it.iteration = record.iteration;
  it.e_cone = record.e_cone;
  it.e_dual = record.e_dual;
  it.e_comp = record.e_comp;
  it.e_eq = record.e_eq;
  it.e_nat = record.e_nat;
  it.merit = record.merit;
  it.step_length = record.step_length;
  it.take_off = record.take_off;
  it.stick = record.stick;
  it.slip = record.slip;
  it.seconds = record.seconds;
  return it;
}

// The hooks take effect at the next solve; the analysis is kept (the
// linear-solver options do not change). Copying the options allocates: no
// exception crosses the C boundary.
int Refresh(fcsn_solver* solver) {
  try {
    solver->solver.set_options(WithHooks(*solver));
    return FCSN_OK;
  } catch (...) {
    solver->message = "out of memory";
    return FCSN_OUT_OF_MEMORY;
  }
}

}  // namespace

fcsn::SolverOptions WithHooks(const fcsn_solver& solver) {
  fcsn::SolverOptions options = solver.options;
  // The function pointers and user data are copied: the lambdas do not
  // refer to the handle.
  if (fcsn_iteration_callback callback = solver.callback) {
    void* data = solver.callback_data;
    options.iteration_callback = [callback,
                                  data](const fcsn::IterationRecord& record) {
      const fcsn_iteration it = ToC(record);
      return callback(&it, data) != 0 ? fcsn::CallbackResult::kAbort
                                      : fcsn::CallbackResult::kContinue;
    };
  }
  if (fcsn_log_callback log = solver.log) {
    void* data = solver.log_data;
    options.log = [log, data](const std::string& line) {
      log(line.c_str(), data);
    };
  }
  return options;
}

extern "C" {

int fcsn_set_callback(fcsn_solver* solver,
                      fcsn_iteration_callback callback,
                      void* user_data) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  solver->callback = callback;
  solver->callback_data = user_data;
  return Refresh(solver);
}

int fcsn_set_log(fcsn_solver* solver, fcsn_log_callback log, void* user_data) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  solver->log = log;
  solver->log_data = user_data;
  return Refresh(solver);
}

int fcsn_request_stop(fcsn_solver* solver) {
  if (solver == nullptr) return FCSN_INVALID_ARGUMENT;
  solver->solver.RequestStop();
  return FCSN_OK;
}

}  // extern "C"
