// child_run.h: one timed solve of one problem by one solver, in a fresh child
// process (fork, then exec of this program), judged by fcsn's criterion in the
// parent.
//
// The child is a new process image: it re-reads the problem's file (the
// parent keeps its own copy for the judge), so that no solver inherits the
// parent's heap, mappings or library state. (A child forked without exec was
// 5-15 % slower than the command line on a refine-2 wall step, 1.28 s against
// 1.17 s median of 8 alternating runs, and never faster on average.)
// The child builds the solver's own data, signals the parent ('S'), times only
// the solve call (wall and process CPU time) and sends back (time, counters,
// v, r) through a pipe. The parent's time limit starts at the 'S'; after the
// limit plus a grace of 10 % + 2 s it kills the child ("timeout"). A returned
// (v, r) is judged by fcsn::ComputeErrorMeasures with u = H^T v + w
// recomputed: solved iff max(e_cone, e_dual, e_comp, e_eq) <= tolerance
// (formulations.md §9.1). A run that returns after the limit, or fcsn's own
// "time-limit" status, also counts as a timeout.
#ifndef FCSN_BENCH_COMPARE_SICONOS_CHILD_RUN_H_
#define FCSN_BENCH_COMPARE_SICONOS_CHILD_RUN_H_

#include <cmath>
#include <string>

#include "fcsn/problem.h"
#include "solver_specs.h"

namespace fcsn_bench {

struct RunConfig {
  double tolerance = 1e-8;
  double time_limit = 60.0;
  int siconos_max_iterations = 0;
  // Siconos is asked for tolerance * siconos_tol_factor (its own error
  // measure); every run is still judged by fcsn's criterion <= tolerance.
  double siconos_tol_factor = 1.0;
  double mem_limit_gb = 0.0;
  std::string log_path;  // child's stdout/stderr; "" = /dev/null
  // The problem's file and M storage (fcsn::MStorage's name), re-read by the
  // child.
  std::string file;
  std::string m_storage = "as-stored";
};

// argv[1] of a child process; main() hands such a process to ChildEntry.
inline constexpr char kChildFlag[] = "--child-run";

struct RepResult {
  bool completed = false;  // the child sent a full record
  bool timeout = false;
  std::string status;  // "converged", "timeout", "crash: ...", solver status
  double seconds = 0.0;
  double cpu_seconds = NAN;  // CPU time of the solve call (child process)
  int iterations = 0;
  int nsgs_sweeps = -1;
  double own_error = NAN;
  double error = NAN;  // fcsn's criterion max(e_cone, e_dual, e_comp, e_eq)
  double e_nat = NAN;
  double e_eq = NAN;
  double siconos_measure = NAN;  // Siconos' formula, evaluated by fcsn
  bool solved = false;
  // The solver's own verdict: Siconos info == 0, fcsn status kConverged.
  bool self_converged = false;
  double t_total = 0.0, t_factorization = 0.0, t_analysis = 0.0;
};

// One repetition: fork and exec a child, which solves; judge in the parent.
// `problem` is config.file as read by the parent.
RepResult RunOnce(const fcsn::GlobalProblem& problem,
                  const SolverSpec& spec,
                  const RunConfig& config);

// The child process' main (argv[1] == kChildFlag, the rest as RunOnce passes
// them): reads the problem, solves, writes to the pipe, exits; never returns.
[[noreturn]] void ChildEntry(int argc, char** argv);

}  // namespace fcsn_bench

#endif  // FCSN_BENCH_COMPARE_SICONOS_CHILD_RUN_H_
