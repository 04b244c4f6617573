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
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "cli/interrupt.h"
#include "cli/mpi_session.h"
#include "cli/option_flags.h"
#include "cli/solve_table.h"
#include "fcsn/fclib_io.h"
#include "fcsn/solver.h"
#include "fcsn/summary_table.h"

namespace fcsn::cli {
namespace {

struct SolveArgs {
  std::vector<std::string> files;
  OptionSettings options;  // --set and the short flags (cli/option_flags.h)
  std::string m_storage = ToString(MStorage::kAuto);
  double time_limit = 0.0;      // 0: none
  std::string out_of_core_dir;  // non-empty implies out_of_core
  bool warm_start = false;
  bool distribute_m = false;
  bool json = false;
  bool no_history = false;
  bool verbose = false;  // progress lines on stderr (SolverOptions::log)
  std::string output;
  bool output_given = false;  // --output "" is an error, not "no output"
};

SolverOptions MakeOptions(const SolveArgs& args) {
  SolverOptions options = ApplyOptionSettings(args.options);
  if (!args.out_of_core_dir.empty()) {
    options.linear_solver.out_of_core = true;
    options.linear_solver.out_of_core_directory = args.out_of_core_dir;
  }
  if (args.time_limit > 0.0) options.time_limit_seconds = args.time_limit;
  // Each rank reads its own clock: one could stop while the others wait in
  // MUMPS (the solver's deadline checks are not collective yet).
  if (std::isfinite(options.time_limit_seconds) && MpiSession::size() > 1)
    FailBadInput(
        "--time-limit (time_limit_seconds) is not available with several MPI "
        "processes");
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

// The rows of fcsn/summary_table.h of one struct, by name (the timings as
// a nested object).
template <typename S>
struct JsonRows {
  const S& s;
  nlohmann::json* out;
  void Section(const char*) {}
  template <typename T>
  void Field(const char* name, T S::*member, const char*) {
    (*out)[name] = s.*member;
  }
  template <typename Sub>
  void Group(const char* name, Sub S::*member) {
    nlohmann::json nested = nlohmann::json::object();
    JsonRows<Sub> rows{s.*member, &nested};
    SummaryFields<Sub>::Visit(rows);
    (*out)[name] = nested;
  }
};

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
      {"precision", ToString(options.linear_solver.precision)},
      {"low_rank_tolerance", options.linear_solver.low_rank_tolerance},
      {"out_of_core", options.linear_solver.out_of_core},
      {"tol", options.tolerance},
      {"options", OptionsJson(options)},
      {"status", ToString(s.status)},
      {"message", s.message},
      {"converged", s.IsConverged()},
      {"error", s.WorstError()},
      {"time_s", s.timings.total},
  };
  JsonRows<SolverSummary> rows{s, &out};
  SummaryFields<SolverSummary>::Visit(rows);
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

// The starting iterate: the file's guess, or without one
// SolverOptions::cold_start; the out-of-core folder (implies
// linear_solver.out_of_core).
void AddStartAndMemoryOptions(CLI::App* command, SolveArgs* args) {
  command->add_flag(
      "--warm-start",
      args->warm_start,
      "Start from the file's first /guesses entry when it has one");
  command->add_option("--out-of-core-dir",
                      args->out_of_core_dir,
                      "Parent directory of the out-of-core files (implies "
                      "--out-of-core)");
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

}  // namespace

void RegisterSolveCommand(CLI::App& app) {
  auto args = std::make_shared<SolveArgs>();
  CLI::App* command = app.add_subcommand(
      "solve",
      "Solve FCLib global problems; exit 0 if every solve converged, 1 if not");
  command->add_option("files", args->files, "FCLib global problems (HDF5)")
      ->required();
  AddOptionFlags(command, &args->options);
  command
      ->add_option("--time-limit",
                   args->time_limit,
                   "Seconds per solve, setup included (0: none)")
      ->capture_default_str();
  AddStartAndMemoryOptions(command, args.get());
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
