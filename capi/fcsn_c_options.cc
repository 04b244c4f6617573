// The C API's access to every solver option by name (fcsn/fcsn_c.h:
// fcsn_set_option ... fcsn_option_name), over the rows of
// fcsn/option_table.h.
#include <string>
#include <vector>

#include "capi/solver_handle.h"
#include "fcsn/fcsn_c.h"
#include "fcsn/option_table.h"

namespace {

// The rows, built once (immutable afterwards: the names stay valid).
const std::vector<fcsn::OptionInfo>& Table() {
  static const std::vector<fcsn::OptionInfo> table = fcsn::SolverOptionTable();
  return table;
}

// Applies set(&options) to a copy of the solver's options and keeps it when
// it is valid.
template <typename Set>
int Change(fcsn_solver* solver, const char* name, Set set) {
  if (solver == nullptr || name == nullptr) return FCSN_INVALID_ARGUMENT;
  return Guarded(&solver->message, [&]() -> int {
    fcsn::SolverOptions options = solver->options;
    std::string why = set(&options);
    if (why.empty()) why = options.Validate();
    if (!why.empty()) {
      solver->message = why;
      return FCSN_INVALID_SETTINGS;
    }
    solver->options = options;
    solver->solver.set_options(WithHooks(*solver));
    return FCSN_OK;
  });
}

}  // namespace

extern "C" {

int fcsn_set_option(fcsn_solver* solver, const char* name, double value) {
  return Change(solver, name, [&](fcsn::SolverOptions* o) {
    return fcsn::SetOption(o, name, value);
  });
}

int fcsn_set_option_text(fcsn_solver* solver,
                         const char* name,
                         const char* value) {
  if (value == nullptr) return FCSN_INVALID_ARGUMENT;
  return Change(solver, name, [&](fcsn::SolverOptions* o) {
    return fcsn::SetOption(o, name, value);
  });
}

int fcsn_get_option(const fcsn_solver* solver,
                    const char* name,
                    double* value) {
  if (solver == nullptr || name == nullptr || value == nullptr)
    return FCSN_INVALID_ARGUMENT;
  return Guarded(nullptr, [&]() -> int {
    return fcsn::GetOption(solver->options, name, value).empty()
               ? FCSN_OK
               : FCSN_INVALID_SETTINGS;
  });
}

int fcsn_get_option_text(const fcsn_solver* solver,
                         const char* name,
                         char* value,
                         size_t size) {
  if (solver == nullptr || name == nullptr || value == nullptr || size == 0)
    return FCSN_INVALID_ARGUMENT;
  return Guarded(nullptr, [&]() -> int {
    std::string text;
    if (!fcsn::GetOption(solver->options, name, &text).empty())
      return FCSN_INVALID_SETTINGS;
    CopyMessage(text, value, size);
    return FCSN_OK;
  });
}

int fcsn_option_count(void) {
  try {
    return static_cast<int>(Table().size());
  } catch (...) {
    return 0;
  }
}

const char* fcsn_option_name(int index) {
  try {
    const std::vector<fcsn::OptionInfo>& table = Table();
    if (index < 0 || index >= static_cast<int>(table.size())) return nullptr;
    return table[static_cast<std::size_t>(index)].name.c_str();
  } catch (...) {
    return nullptr;
  }
}

}  // extern "C"
