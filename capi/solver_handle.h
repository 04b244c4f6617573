// capi/solver_handle.h: the opaque handle of the C API (fcsn/fcsn_c.h),
// shared by its sources (fcsn_c.cc, fcsn_c_hooks.cc, fcsn_c_options.cc).
#ifndef FCSN_CAPI_SOLVER_HANDLE_H_
#define FCSN_CAPI_SOLVER_HANDLE_H_

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "fcsn/contact_status.h"
#include "fcsn/fcsn_c.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/problem_view.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"

// The handle.
struct fcsn_solver {
  // The settings' options, without the hooks below (WithHooks adds them).
  fcsn::SolverOptions options;
  fcsn::Solver solver;
  fcsn::GlobalProblem problem;
  int index_base = 0;                    // of the setup's problem
  fcsn::ProblemViewConverter converter;  // built problem; keeps the slot maps
  fcsn::Solution solution;
  fcsn::SolverSummary summary;
  std::vector<fcsn::ContactStatus> statuses;
  bool solved = false;
  std::string message;  // last failure's sentence or last solve's message
  fcsn_info info{};
  // fcsn_set_callback and fcsn_set_log; null: none.
  fcsn_iteration_callback callback = nullptr;
  void* callback_data = nullptr;
  fcsn_log_callback log = nullptr;
  void* log_data = nullptr;

  explicit fcsn_solver(const fcsn::SolverOptions& o) : options(o), solver(o) {}
};

// solver.options with the C callback and log of the handle as
// SolverOptions::iteration_callback and SolverOptions::log (fcsn_c_hooks.cc).
fcsn::SolverOptions WithHooks(const fcsn_solver& solver);

// Runs body() and maps any exception to an error code; *message (if not null)
// receives a sentence for it.
template <typename Body>
int Guarded(std::string* message, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    if (message != nullptr) *message = "out of memory";
    return FCSN_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    if (message != nullptr)
      *message = std::string("internal error: ") + e.what();
    return FCSN_INTERNAL_ERROR;
  } catch (...) {
    if (message != nullptr) *message = "internal error";
    return FCSN_INTERNAL_ERROR;
  }
}

// Copies text into message (at most size bytes, NUL-terminated; a NULL
// message or size 0: nothing).
inline void CopyMessage(const std::string& text, char* message, size_t size) {
  if (message == nullptr || size == 0) return;
  const size_t length = std::min(text.size(), size - 1);
  std::memcpy(message, text.data(), length);
  message[length] = '\0';
}

#endif  // FCSN_CAPI_SOLVER_HANDLE_H_
