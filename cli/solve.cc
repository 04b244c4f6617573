// `fcsn solve FILE...`: solve FCLib global problems with fcsn::Solver and
// report the result.
//
// One file: a report (or with --json one JSON object with the history);
// --output writes the problem with its /solution (v, u, r) in FCLib layout.
// Several files: one table row per file (or with --json one JSON object per
// line; a file that is bad input gets its row too and the others are still
// solved). Exit code: the worst outcome, 2 bad input over 1 not converged over
// 0 every solve converged; 130 when Ctrl-C stopped a solve (its best point is
// still reported and written; cli/interrupt.h).
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/mpi_session.h"
#include "cli/solve_table.h"
#include "fcsn/fclib_io.h"
#include "fcsn/solver.h"

namespace fcsn::cli {
namespace {

struct SolveArgs {
  std::vector<std::string> files;
  std::string solver = ToString(SolverOptions().solver);
  std::string formulation = ToString(SolverOptions().formulation);
  std::string line_search = ToString(SolverOptions().line_search.type);
  std::string linear_solver = ToString(SolverOptions().linear_solver.type);
  std::string ordering = ToString(SolverOptions().linear_solver.ordering);
  std::string precision = ToString(SolverOptions().linear_solver.precision);
  std::string rho = ToString(SolverOptions().rho.rule);
  std::string cold_start = ToString(SolverOptions().cold_start);
  std::string local_solver = ToString(SolverOptions().nsgs.local_solver);
  int max_sweeps = SolverOptions().nsgs.max_sweeps;
  int fp_projections = SolverOptions().nsgs.fp_projections;
  std::string m_storage = ToString(MStorage::kAuto);
  double tol = kDefaultTolerance;
  int max_iter = SolverOptions().max_iterations;
  double time_limit = 0.0;  // 0: none
  double regularization = SolverOptions().singular_regularization;
  int krylov_reuse = SolverOptions().krylov_reuse_iterations;
  int setup_threads = SolverOptions().setup_threads;
  double rho_factor = SolverOptions().rho.factor;
  double rho_boost = SolverOptions().rho.initial_boost;
  double warm_rho_boost = SolverOptions().rho.warm_initial_boost;
  double tail_rho_boost = SolverOptions().rho.tail_boost_factor;
  int warm_sweeps = SolverOptions().hybrid.warm_sweeps;
  double low_rank = SolverOptions().linear_solver.low_rank_tolerance;
  bool out_of_core = false;
  bool block_ordering = false;  // LinearSolverOptions::adaptive_block_ordering
  std::string out_of_core_dir;  // non-empty implies out_of_core
  bool warm_start = false;
  bool distribute_m = false;
  bool json = false;
  bool no_history = false;
  bool verbose = false;  // progress lines on stderr (SolverOptions::log)
  std::string output;
  bool output_given = false;  // --output "" is an error, not "no output"
};

template <typename Enum>
Enum ParseOrExit(const std::optional<Enum>& parsed,
                 const char* option,
                 const std::string& value,
                 const std::string& allowed) {
  if (!parsed)
    FailBadInput(std::string(option) + " '" + value +
                 "' is not one of: " + allowed);
  return *parsed;
}

SolverOptions MakeOptions(const SolveArgs& args) {
  SolverOptions options;
  options.solver = ParseOrExit(SolverTypeFromString(args.solver),
                               "--solver",
                               args.solver,
                               NamesOf(kAllSolverTypes));
  options.formulation = ParseOrExit(FormulationFromString(args.formulation),
                                    "--formulation",
                                    args.formulation,
                                    NamesOf(kAllFormulations));
  options.line_search.type =
      ParseOrExit(LineSearchTypeFromString(args.line_search),
                  "--line-search",
                  args.line_search,
                  NamesOf(kAllLineSearchTypes));
  options.linear_solver.type =
      ParseOrExit(LinearSolverTypeFromString(args.linear_solver),
                  "--linear-solver",
                  args.linear_solver,
                  NamesOf(kAllLinearSolverTypes));
  options.linear_solver.ordering =
      ParseOrExit(OrderingFromString(args.ordering),
                  "--ordering",
                  args.ordering,
                  NamesOf(kAllOrderings));
  options.linear_solver.precision =
      ParseOrExit(FactorizationPrecisionFromString(args.precision),
                  "--precision",
                  args.precision,
                  NamesOf(kAllFactorizationPrecisions));
  options.rho.rule = ParseOrExit(
      RhoRuleFromString(args.rho), "--rho", args.rho, NamesOf(kAllRhoRules));
  options.nsgs.local_solver =
      ParseOrExit(LocalSolverTypeFromString(args.local_solver),
                  "--local-solver",
                  args.local_solver,
                  NamesOf(kAllLocalSolverTypes));
  options.cold_start = ParseOrExit(ColdStartFromString(args.cold_start),
                                   "--cold-start",
                                   args.cold_start,
                                   NamesOf(kAllColdStarts));
  options.nsgs.max_sweeps = args.max_sweeps;
  options.nsgs.fp_projections = args.fp_projections;
  options.rho.factor = args.rho_factor;
  options.rho.initial_boost = args.rho_boost;
  options.rho.warm_initial_boost = args.warm_rho_boost;
  options.rho.tail_boost_factor = args.tail_rho_boost;
  options.tolerance = args.tol;
  options.singular_regularization = args.regularization;
  options.krylov_reuse_iterations = args.krylov_reuse;
  options.setup_threads = args.setup_threads;
  options.hybrid.warm_sweeps = args.warm_sweeps;
  options.max_iterations = args.max_iter;
  options.linear_solver.low_rank_tolerance = args.low_rank;
  options.linear_solver.adaptive_block_ordering = args.block_ordering;
  options.linear_solver.out_of_core =
      args.out_of_core || !args.out_of_core_dir.empty();
  options.linear_solver.out_of_core_directory = args.out_of_core_dir;
  if (args.time_limit > 0.0) {
    // Each rank reads its own clock: one could stop while the others wait in
    // MUMPS (the solver's deadline checks are not collective yet).
    if (MpiSession::size() > 1)
      FailBadInput("--time-limit is not available with several MPI processes");
    options.time_limit_seconds = args.time_limit;
  }
  options.record_history = true;
  options.stop = InterruptFlag();
  if (args.verbose) options.log = ProgressToStderr();
  if (std::string why = options.Validate(); !why.empty()) FailBadInput(why);
  return options;
}

nlohmann::json HistoryJson(const SolverSummary& summary) {
  nlohmann::json history = nlohmann::json::array();
  for (const IterationRecord& h : summary.history) {
    history.push_back({{"phase", ToString(h.phase)},
                       {"iteration", h.iteration},
                       {"e_cone", h.e_cone},
                       {"e_dual", h.e_dual},
                       {"e_comp", h.e_comp},
                       {"e_eq", h.e_eq},
                       {"e_nat", h.e_nat},
                       {"merit", h.merit},
                       {"step_length", h.step_length},
                       {"line_search_trials", h.line_search_trials},
                       {"take_off", h.take_off},
                       {"stick", h.stick},
                       {"slip", h.slip},
                       {"rho_boost", h.rho_boost},
                       {"seconds", h.seconds}});
  }
  return history;
}

// The last factorization: flops, factor entries (full-rank and compressed)
// and MUMPS memory (SolverSummary).
void AddFactorizationJson(const SolverSummary& s, nlohmann::json* out) {
  (*out)["last_factorization_flops"] = s.last_factorization_flops;
  (*out)["last_factorization_effective_flops"] =
      s.last_factorization_effective_flops;
  (*out)["factor_entries"] = s.factor_entries;
  (*out)["compressed_factor_entries"] = s.compressed_factor_entries;
  (*out)["estimated_memory_mb"] = s.estimated_memory_mb;
  (*out)["factorization_memory_mb"] = s.factorization_memory_mb;
  (*out)["out_of_core_disk_mb"] = s.out_of_core_disk_mb;
}

nlohmann::json SummaryJson(const std::string& file,
                           const GlobalProblem& problem,
                           const SolverOptions& options,
                           const SolverSummary& s,
                           bool with_history) {
  nlohmann::json out = {
      {"file", file},
      {"n", problem.n()},
      {"m", problem.m()},
      {"nc", problem.nc()},
      {"solver", ToString(options.solver)},
      {"formulation", ToString(options.formulation)},
      {"local_solver", ToString(options.nsgs.local_solver)},
      {"line_search", ToString(options.line_search.type)},
      {"cold_start", ToString(options.cold_start)},
      {"linear_solver", ToString(options.linear_solver.type)},
      {"ordering", ToString(options.linear_solver.ordering)},
      {"adaptive_block_ordering",
       options.linear_solver.adaptive_block_ordering},
      {"ordering_used", s.ordering_used},
      {"precision", ToString(options.linear_solver.precision)},
      {"low_rank_tolerance", options.linear_solver.low_rank_tolerance},
      {"out_of_core", options.linear_solver.out_of_core},
      {"tol", options.tolerance},
      {"status", ToString(s.status)},
      {"message", s.message},
      {"converged", s.IsConverged()},
      {"iterations", s.iterations},
      {"nsgs_sweeps", s.nsgs_sweeps},
      {"line_search_trials", s.line_search_trials},
      {"error", s.WorstError()},
      {"e_cone", s.e_cone},
      {"e_dual", s.e_dual},
      {"e_comp", s.e_comp},
      {"e_eq", s.e_eq},
      {"e_nat", s.e_nat},
      {"siconos_error", s.siconos_error},
      {"velocity_scale", s.velocity_scale},
      {"velocity_floor", s.velocity_floor},
      {"floor_from_diagonal", s.floor_from_diagonal},
      {"time_s", s.timings.total},
      {"analyses", s.analyses},
      {"factorizations", s.factorizations},
      {"fallbacks", s.fallbacks},
      {"rho_reductions", s.rho_reductions},
      {"line_search_safeguards", s.line_search_safeguards},
      {"delassus_entries", s.delassus_entries},
      {"delassus_over_budget", s.delassus_over_budget},
      {"regularized_factorizations", s.regularized_factorizations},
      {"accepted_line_search_failures", s.accepted_line_search_failures},
      {"refinement_steps", s.refinement_steps},
      {"precision_fallbacks", s.precision_fallbacks},
      {"reused_factor_directions", s.reused_factor_directions},
      {"early_factorizations_used", s.early_factorizations_used},
      {"krylov_iterations", s.krylov_iterations},
      {"timings",
       {{"setup", s.timings.setup},
        {"analysis", s.timings.analysis},
        {"factorization", s.timings.factorization},
        {"linear_solve", s.timings.linear_solve},
        {"residual_jacobian", s.timings.residual_jacobian},
        {"line_search", s.timings.line_search},
        {"nsgs", s.timings.nsgs},
        {"error_measures", s.timings.error_measures}}},
  };
  AddFactorizationJson(s, &out);
  if (with_history) out["history"] = HistoryJson(s);
  return out;
}

// --distribute-m: this rank's share of M, the entries whose row falls in its
// contiguous block of rows [rank n / size, (rank + 1) n / size) (a FEM code's
// row partition; all of M with one process). M's entries leave `problem` (its
// size stays, as Solver's distributed overload asks) for *m_entries.
LocalMatrixEntries TakeRowShare(GlobalProblem* problem,
                                SparseMatrix* m_entries) {
  const long long n = problem->n();
  const long long size = MpiSession::size();
  const long long rank = MpiSession::rank();
  const long long first = rank * n / size;
  const long long end = (rank + 1) * n / size;
  LocalMatrixEntries local;
  const SparseMatrix& M = problem->M;
  for (int j = 0; j < M.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(M, j); it; ++it) {
      if (it.row() < first || it.row() >= end) continue;
      local.rows.push_back(static_cast<int>(it.row()));
      local.cols.push_back(j);
      local.values.push_back(it.value());
    }
  }
  m_entries->swap(problem->M);
  problem->M.resize(n, n);
  problem->M.makeCompressed();
  return local;
}

// Solves `problem` replicated, or with --distribute-m with M distributed over
// the ranks by rows (Solver's distributed overload; `problem` keeps M's
// entries only when they are to be written by --output).
SolverSummary SolveOne(const SolveArgs& args,
                       Solver* solver,
                       GlobalProblem* problem,
                       const Solution* guess,
                       Solution* solution) {
  if (!args.distribute_m) return solver->Solve(*problem, guess, solution);
  SparseMatrix m_entries;
  const LocalMatrixEntries local = TakeRowShare(problem, &m_entries);
  if (!args.output_given) m_entries = SparseMatrix();
  const SolverSummary summary = solver->Solve(*problem, local, guess, solution);
  if (args.output_given) problem->M.swap(m_entries);
  return summary;
}

// Solves and reports one file of the list. Returns "" when it was solved
// (*converged says whether it converged), otherwise why it is bad input: a
// file that cannot be read, a guess that does not fit, a problem the solver
// rejects.
std::string SolveFile(const SolveArgs& args,
                      const SolverOptions& options,
                      const std::string& file,
                      Solver* solver,
                      bool* converged) {
  const MStorage m_storage = ParseMStorage(args.m_storage);
  GlobalProblem problem;
  FclibFileInfo info;
  if (std::string error = LoadProblem(file, m_storage, &problem, &info);
      !error.empty()) {
    return error;
  }
  Solution guess;
  const Solution* guess_ptr = nullptr;
  if (args.warm_start && info.number_of_guesses > 0) {
    std::vector<Solution> guesses;
    if (std::string error =
            LoadGuesses(file, problem.n(), problem.m(), &guesses);
        !error.empty()) {
      return error;
    }
    guess = guesses.front();
    guess_ptr = &guess;
  }
  Solution solution;
  const InterruptScope interrupt;  // Ctrl-C stops the solve, not the command
  const SolverSummary summary =
      SolveOne(args, solver, &problem, guess_ptr, &solution);
  if (summary.status == SolverStatus::kInvalidInput)
    return file + ": " + summary.message;
  *converged = summary.IsConverged();
  if (args.json) {
    PrintJson(SummaryJson(file, problem, options, summary, !args.no_history));
  } else if (args.files.size() > 1) {
    PrintSolveTableRow(file, problem.n(), problem.nc(), summary);
  } else {
    std::cout << file << ": n = " << problem.n() << ", m = " << problem.m()
              << ", nc = " << problem.nc()
              << (info.m_symmetrized ? " (M symmetrized)" : "") << "\n"
              << summary.FullReport();
  }
  // Under mpirun every rank holds the same solution; the host writes it.
  if (args.output_given && MpiSession::is_host()) {
    std::string error;
    WriteOptions write;
    write.title = info.title;
    write.description =
        "solved by fcsn solve (" + std::string(ToString(summary.status)) + ")";
    if (!WriteGlobalProblem(
            args.output, problem, &solution, nullptr, &error, write)) {
      FailBadInput(error);
    }
  }
  if (interrupt.raised()) ExitWith(kExitInterrupted);
  return "";
}

// With several files a bad one does not stop the others: it gets its table
// row (or JSON line) and its one line on stderr, and the exit code is the
// worst outcome (2 bad input over 1 not converged over 0).
void RunSolve(const SolveArgs& args) {
  const SolverOptions options = MakeOptions(args);
  ParseMStorage(args.m_storage);
  if (args.output_given) {
    if (args.files.size() != 1)
      FailBadInput("--output needs exactly one input file");
    CheckOutputOrExit(args.output, args.files);
  }
  if (args.files.size() > 1 && !args.json) PrintSolveTableHeader();
  Solver solver(options);
  int exit_code = kExitOk;
  for (const std::string& file : args.files) {
    bool converged = false;
    const std::string bad = SolveFile(args, options, file, &solver, &converged);
    if (bad.empty()) {
      if (!converged) exit_code = std::max(exit_code, kExitNotConverged);
      continue;
    }
    if (args.files.size() == 1) FailBadInput(bad);
    ReportBadFile(file, bad, args.json);
    exit_code = kExitBadInput;
  }
  if (exit_code != kExitOk) ExitWith(exit_code);
}

// The options of the NSGS sweeps (pure NSGS, the hybrid's warm start).
// The starting iterate: the file's guess, or without one SolverOptions::cold_start.
void AddStartOptions(CLI::App* command, SolveArgs* args) {
  command->add_flag(
      "--warm-start",
      args->warm_start,
      "Start from the file's first /guesses entry when it has one");
  command
      ->add_option("--cold-start",
                   args->cold_start,
                   "Start without a guess (or from an all-zero one): " +
                       NamesOf(kAllColdStarts) +
                       " (v = 0, r = 0; v = M^-1 f; contacts at rest start "
                       "closed; resting and approaching contacts closed, "
                       "bonded when w is round-off; contacts the free flight "
                       "drives together start closed)")
      ->capture_default_str();
}

void AddNsgsOptions(CLI::App* command, SolveArgs* args) {
  command
      ->add_option("--local-solver",
                   args->local_solver,
                   "NSGS one-contact solver: " + NamesOf(kAllLocalSolverTypes) +
                       " (fp-vi-upk: the paper's few self-adaptive "
                       "projections per contact per sweep)")
      ->capture_default_str();
  command
      ->add_option("--max-sweeps",
                   args->max_sweeps,
                   "Sweep budget of a pure NSGS solve (--solver nsgs)")
      ->capture_default_str();
  command
      ->add_option("--fp-projections",
                   args->fp_projections,
                   "fp-vi-upk: projections per contact per sweep (>= 1)")
      ->capture_default_str();
}

// The memory savers of MUMPS on large systems: block low-rank factors and
// out-of-core factors.
void AddMemoryOptions(CLI::App* command, SolveArgs* args) {
  command
      ->add_option("--low-rank",
                   args->low_rank,
                   "MUMPS block low-rank factorization with this dropping "
                   "tolerance (0: off, exact LU; e.g. 1e-8)")
      ->capture_default_str();
  command->add_flag(
      "--out-of-core",
      args->out_of_core,
      "MUMPS writes the factors to files in a private directory under the "
      "system temporary directory, removed at the end");
  command->add_option("--out-of-core-dir",
                      args->out_of_core_dir,
                      "Parent directory of the out-of-core files (implies "
                      "--out-of-core)");
  command->add_flag("--block-ordering",
                    args->block_ordering,
                    "METIS orders a large J (n + m >= 20,000) by its node "
                    "blocks first, and by its dof graph once the "
                    "factorizations have cost enough (default: the dof graph "
                    "from the start)");
}

// How each file is solved and reported: M distributed, JSON.
void AddRunOptions(CLI::App* command, SolveArgs* args) {
  command->add_flag(
      "--distribute-m",
      args->distribute_m,
      "M distributed over the MPI ranks: each rank keeps the entries of its "
      "contiguous block of rows and MUMPS factorizes from distributed input "
      "(every rank still reads the file; newton solver with MUMPS only)");
  command->add_flag(
      "--json",
      args->json,
      "One JSON object per file (file, n, m, nc, status, error, e_cone, "
      "..., history)");
  command->add_flag(
      "--no-history", args->no_history, "Leave the history out of --json");
  command->add_flag("--verbose",
                    args->verbose,
                    "Progress on stderr: the setup, each phase, one line per "
                    "iteration (errors, merit, step, contact statuses, time)");
}

// Rho, the regularization of a singular J, the reuse of its factors and the
// setup threads: the options of the Newton iteration itself.
void AddNewtonOptions(CLI::App* command, SolveArgs* args) {
  command
      ->add_option(
          "--rho", args->rho, "Per-contact rho rule: " + NamesOf(kAllRhoRules))
      ->capture_default_str();
  command
      ->add_option("--rho-factor",
                   args->rho_factor,
                   "Multiplies the rho of the rule (> 0)")
      ->capture_default_str();
  command
      ->add_option("--rho-boost",
                   args->rho_boost,
                   "Newton starts with rho times this boost, divided by 10 "
                   "when it stalls (>= 1; 1: fixed rho)")
      ->capture_default_str();
  command
      ->add_option("--warm-rho-boost",
                   args->warm_rho_boost,
                   "The boost of a solve started from a guess (--warm-start; "
                   ">= 1)")
      ->capture_default_str();
  command
      ->add_option("--tail-rho-boost",
                   args->tail_rho_boost,
                   "Multiplies the boost once, at the first iterate whose "
                   "error is below 1e-3, not with fb (>= 1; 1: off)")
      ->capture_default_str();
  command
      ->add_option("--regularization",
                   args->regularization,
                   "Proximal weight on r when J is singular (0: off)")
      ->capture_default_str();
  command
      ->add_option(
          "--krylov-reuse",
          args->krylov_reuse,
          "Try FGMRES on the previous factors of J for at most this "
          "many iterations before refactorizing (-1: auto, 10 when "
          "n + m >= 5000, else off, and 10 for the first direction of a "
          "warm solve after a converged one; 0: off)")
      ->capture_default_str();
  command
      ->add_option("--setup-threads",
                   args->setup_threads,
                   "2: J's ordering and analysis on a second thread while M "
                   "is factorized (n >= 1000), then a share of rho's W_aa "
                   "(n >= 10,000)")
      ->capture_default_str();
}

}  // namespace

void RegisterSolveCommand(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* command = app.add_subcommand(
      "solve",
      "Solve FCLib global problems; exit 0 if every solve converged, 1 if not");
  command->add_option("files", args->files, "FCLib global problems (HDF5)")
      ->required();
  command
      ->add_option(
          "--solver", args->solver, "Algorithm: " + NamesOf(kAllSolverTypes))
      ->capture_default_str();
  command
      ->add_option("--formulation",
                   args->formulation,
                   "Residual driven to zero: " + NamesOf(kAllFormulations))
      ->capture_default_str();
  command
      ->add_option(
          "--tol", args->tol, "Tolerance on max(e_cone, e_dual, e_comp, e_eq)")
      ->capture_default_str();
  command->add_option("--max-iter", args->max_iter, "Maximum Newton iterations")
      ->capture_default_str();
  command
      ->add_option("--time-limit",
                   args->time_limit,
                   "Seconds per solve, setup included (0: none)")
      ->capture_default_str();
  command
      ->add_option("--line-search",
                   args->line_search,
                   "Globalization: " + NamesOf(kAllLineSearchTypes))
      ->capture_default_str();
  command
      ->add_option("--linear-solver",
                   args->linear_solver,
                   "Backend: " + NamesOf(kAllLinearSolverTypes))
      ->capture_default_str();
  command
      ->add_option(
          "--ordering", args->ordering, "Ordering: " + NamesOf(kAllOrderings))
      ->capture_default_str();
  command
      ->add_option("--precision",
                   args->precision,
                   "MUMPS factorization arithmetic: " +
                       NamesOf(kAllFactorizationPrecisions) +
                       " (mixed: single-precision LU, solves refined to "
                       "double-precision accuracy)")
      ->capture_default_str();
  AddNewtonOptions(command, args.get());
  command
      ->add_option("--warm-sweeps",
                   args->warm_sweeps,
                   "NSGS sweeps before Newton (hybrid)")
      ->capture_default_str();
  AddNsgsOptions(command, args.get());
  AddMemoryOptions(command, args.get());
  AddStartOptions(command, args.get());
  AddRunOptions(command, args.get());
  CLI::Option* output = command->add_option(
      "--output",
      args->output,
      "Write the problem and its /solution (v, u, r) to this FCLib file "
      "(atomically; never the input file)");
  AddMStorageOption(command, &args->m_storage);
  command->callback([args, output] {
    args->output_given = output->count() > 0;
    RunSolve(*args);
  });
}

}  // namespace fcsn::cli
