// solver_specs.h: the solvers compare_siconos runs, by name (README.md, "What
// is compared"): four Siconos/numerics 4.4 methods and four fcsn option sets,
// each built from the library's defaults with only the listed fields changed.
#ifndef FCSN_BENCH_COMPARE_SICONOS_SOLVER_SPECS_H_
#define FCSN_BENCH_COMPARE_SICONOS_SOLVER_SPECS_H_

#include <string>
#include <vector>

#include "fcsn/options.h"
#include "siconos_runner.h"

namespace fcsn_bench {

enum class Family { kSiconos, kFcsn };

struct SolverSpec {
  std::string name;
  Family family;
  SiconosMethod siconos_method = SiconosMethod::kNsnJm;  // kSiconos only
  // kFcsn only: build the options from fcsn::SolverOptions().
  enum class FcsnKind {
    kNewtonAc,
    kNewtonAcAtRest,
    kNewtonJm,
    kDefault
  } fcsn_kind = FcsnKind::kDefault;
  std::string description;
};

// Every solver, in the default report order.
const std::vector<SolverSpec>& AllSolvers();

// The solver called `name`, or nullptr.
const SolverSpec* FindSolver(const std::string& name);

// fcsn::SolverOptions() with the fields of `kind` set (tolerance and time
// limit are the caller's).
fcsn::SolverOptions FcsnOptions(SolverSpec::FcsnKind kind);

}  // namespace fcsn_bench

#endif  // FCSN_BENCH_COMPARE_SICONOS_SOLVER_SPECS_H_
