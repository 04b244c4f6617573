// masonry_study: the masonry-wall study (masonry_wall.md §1, §8): for every
// FCLib global problem and every solver configuration, ONE solve at the
// tightest precision with a time limit and the per-iteration history, from
// which the time and an estimated flop count to reach each precision
// 1e-2 ... 1e-8 are read off (the first history record whose criterion
// max(e_cone, e_dual, e_comp, e_eq), fcsn/error_measures.h, is <= p).
//
//   masonry_study [--time-limit 20] [--tol 1e-8] [--warm] [--every K]
//                 [--offset J] [--max-problems N] [--dump-history] [--solvers
//                 NAME,NAME,...]
//                 [--csv OUT.csv] [--runs-csv RUNS.csv] [--model-csv M.csv]
//                 [--history-csv HISTORY.csv]
//                 FILE_OR_DIR...
//
// Output: one row per (problem, solver, precision) in --csv, one row per solve
// in --runs-csv (status, counters, load average), one row per iteration record
// in --history-csv (phase, iteration, criterion, e_nat, seconds since the
// start), progress on stderr.
//
// Flop model: flop_model.h (an estimate, documented in README.md).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "fcsn/fcsn.h"
#include "flop_model.h"

namespace masonry_study {
namespace {

const std::vector<double> kPrecisions = {1e-2, 1e-3, 1e-4, 1e-6, 1e-8};

struct Config {
  std::string name;
  fcsn::SolverOptions options;
};

std::vector<Config> AllConfigs() {
  std::vector<Config> configs;
  auto newton = [](fcsn::Formulation f) {
    fcsn::SolverOptions o;
    o.solver = fcsn::SolverType::kNewton;
    o.formulation = f;
    o.line_search.type = fcsn::LineSearchType::kNone;
    return o;
  };
  configs.push_back({"NSN-AC", newton(fcsn::Formulation::kAlartCurnier)});
  configs.push_back({"NSN-JM", newton(fcsn::Formulation::kJeanMoreau)});
  configs.push_back({"NSN-NM", newton(fcsn::Formulation::kNaturalMap)});
  configs.push_back({"NSN-FB", newton(fcsn::Formulation::kFischerBurmeister)});
  fcsn::SolverOptions hybrid;
  hybrid.solver = fcsn::SolverType::kHybrid;
  hybrid.formulation = fcsn::Formulation::kAlartCurnier;
  hybrid.line_search.type = fcsn::LineSearchType::kNone;
  // The paper's hybrid: 100 warm sweeps (from a guess too) whatever their
  // contraction, on W formed whatever its size (the default policy skips both
  // on these walls: W costs 270x nnz, over HybridOptions' budget, and NSGS
  // contracts poorly).
  hybrid.hybrid.warm_sweeps = 100;
  hybrid.hybrid.warm_sweeps_with_guess = 100;
  hybrid.hybrid.warm_contraction_window = 0;
  hybrid.hybrid.delassus_budget_per_nonzero = 1e9;
  hybrid.nsgs.local_solver = fcsn::LocalSolverType::kAlartCurnierNewton;
  configs.push_back({"NSN-AC-HYBRID", hybrid});
  fcsn::SolverOptions nsgs_ac;
  nsgs_ac.solver = fcsn::SolverType::kNsgs;
  nsgs_ac.nsgs.local_solver = fcsn::LocalSolverType::kAlartCurnierNewton;
  nsgs_ac.nsgs.max_sweeps = 1000000;  // the time limit is the budget
  configs.push_back({"NSGS-AC", nsgs_ac});
  fcsn::SolverOptions nsgs_fp = nsgs_ac;
  nsgs_fp.nsgs.local_solver = fcsn::LocalSolverType::kFixedPointViUpk;
  configs.push_back({"NSGS-FP-VI-UPK", nsgs_fp});
  configs.push_back({"default", fcsn::SolverOptions()});
  return configs;
}

bool IsNewtonOnly(const fcsn::SolverOptions& o) {
  return o.solver == fcsn::SolverType::kNewton;
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  in >> one >> five >> fifteen;
  char text[64];
  std::snprintf(text, sizeof(text), "%.2f", one);
  return text;
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

// The command line.
struct Args {
  double time_limit = 20.0;
  double tol = 1e-8;
  bool warm = false;
  bool dump_history = false;
  int every = 1;
  int offset = 0;
  int max_problems = 0;
  std::vector<std::string> solver_names;
  std::string csv_path = "masonry_study.csv";
  std::string runs_path;
  std::string model_path;
  std::string history_path;
  std::vector<std::string> files;  // as given; directories expanded
};

void PrintUsage() {
  std::cout << "usage: masonry_study [--time-limit S] [--tol T] [--warm] "
               "[--every K] [--offset J] [--max-problems N] "
               "[--dump-history] [--solvers A,B] "
               "[--csv F] [--runs-csv F] [--model-csv F] "
               "[--history-csv F] FILE_OR_DIR...\n";
}

// Parses argv into *args; a directory adds its .hdf5 files. Returns false
// after --help (usage printed); exits with status 2 on an option without
// its value.
bool ParseArgs(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "masonry_study: " << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--time-limit") {
      args->time_limit = std::atof(next().c_str());
    } else if (arg == "--tol") {
      args->tol = std::atof(next().c_str());
    } else if (arg == "--warm") {
      args->warm = true;
    } else if (arg == "--dump-history") {
      args->dump_history = true;
    } else if (arg == "--offset") {
      args->offset = std::max(0, std::atoi(next().c_str()));
    } else if (arg == "--every") {
      args->every = std::max(1, std::atoi(next().c_str()));
    } else if (arg == "--max-problems") {
      args->max_problems = std::atoi(next().c_str());
    } else if (arg == "--solvers") {
      args->solver_names = Split(next());
    } else if (arg == "--csv") {
      args->csv_path = next();
    } else if (arg == "--model-csv") {
      args->model_path = next();
    } else if (arg == "--runs-csv") {
      args->runs_path = next();
    } else if (arg == "--history-csv") {
      args->history_path = next();
    } else if (arg == "-h" || arg == "--help") {
      PrintUsage();
      return false;
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& e : std::filesystem::directory_iterator(arg)) {
        if (e.path().extension() == ".hdf5")
          args->files.push_back(e.path().string());
      }
    } else {
      args->files.push_back(arg);
    }
  }
  return true;
}

// The problems to solve: sorted by step counter (last field of the name),
// then every `every`-th from `offset`, at most `max_problems` (0: all).
std::vector<std::string> SelectProblems(const Args& args) {
  std::vector<std::string> files = args.files;
  std::sort(files.begin(),
            files.end(),
            [](const std::string& a, const std::string& b) {
              auto counter = [](const std::string& f) {
                const std::string s = std::filesystem::path(f).stem().string();
                return std::atoi(s.substr(s.rfind('-') + 1).c_str());
              };
              return counter(a) < counter(b);
            });
  std::vector<std::string> subset;
  for (size_t k = args.offset; k < files.size(); k += args.every)
    subset.push_back(files[k]);
  if (args.max_problems > 0 &&
      static_cast<int>(subset.size()) > args.max_problems)
    subset.resize(args.max_problems);
  return subset;
}

// The configurations named by --solvers (all if none), in AllConfigs order.
std::vector<Config> SelectConfigs(const std::vector<std::string>& names) {
  std::vector<Config> configs;
  for (const Config& c : AllConfigs()) {
    if (names.empty() ||
        std::find(names.begin(), names.end(), c.name) != names.end()) {
      configs.push_back(c);
    }
  }
  return configs;
}

// The output files, headers written; the optional ones stay closed when not
// asked for.
struct Outputs {
  std::ofstream csv, runs, model, history;
};

void OpenOutputs(const Args& args, Outputs* out) {
  out->csv.open(args.csv_path);
  out->csv << "problem,solver,start,precision,reached,time_s,flops,iterations,"
              "sweeps,status\n";
  if (!args.runs_path.empty()) {
    out->runs.open(args.runs_path);
    out->runs << "problem,solver,start,status,time_s,iterations,sweeps,"
                 "factorizations,regularized,fallbacks,fact_flops_last,"
                 "flops_total,setup_s,error,e_nat,loadavg_1min,message\n";
  }
  if (!args.model_path.empty()) {
    out->model.open(args.model_path);
    out->model << "problem,n,nc,nnz_M,nnz_H,components_of_M,W_blocks,"
                  "flops_residual,flops_residual_jacobian,flops_error,"
                  "flops_sweep,flops_setup_common,flops_setup_delassus\n";
  }
  if (!args.history_path.empty()) {
    out->history.open(args.history_path);
    out->history << "problem,solver,start,phase,iteration,error,e_nat,"
                    "seconds\n";
  }
}

void WriteModelRow(const std::string& name,
                   const fcsn::GlobalProblem& problem,
                   const FlopModel& model,
                   std::ofstream& out) {
  if (!out.is_open()) return;
  out << name << ',' << problem.n() << ',' << problem.m() / 3 << ','
      << problem.M.nonZeros() << ',' << problem.H.nonZeros() << ','
      << model.components << ',' << model.w_blocks << ',' << model.residual
      << ',' << model.residual_jacobian << ',' << model.error << ','
      << model.sweep << ',' << model.setup_common << ',' << model.setup_delassus
      << '\n';
  out.flush();
}

// One solve's identification in the CSV files.
struct RunId {
  std::string problem;
  std::string solver;
  const char* start;  // "warm" or "cold"
};

void DumpHistory(const fcsn::SolverSummary& s) {
  for (const fcsn::IterationRecord& rec : s.history) {
    std::fprintf(stderr,
                 "  %s %d error %.3e e_nat %.3e t %.3f ls %d\n",
                 fcsn::ToString(rec.phase),
                 rec.iteration,
                 rec.WorstError(),
                 rec.e_nat,
                 rec.seconds,
                 rec.line_search_trials);
  }
  std::fprintf(stderr, "  message: %s\n", s.message.c_str());
}

void WriteHistoryRows(const RunId& id,
                      const fcsn::SolverSummary& s,
                      std::ofstream& out) {
  if (!out.is_open()) return;
  for (const fcsn::IterationRecord& rec : s.history) {
    out << id.problem << ',' << id.solver << ',' << id.start << ','
        << fcsn::ToString(rec.phase) << ',' << rec.iteration << ','
        << rec.WorstError() << ',' << rec.e_nat << ',' << rec.seconds << '\n';
  }
  out.flush();
}

// Per precision: when the history first reached it (time < 0: never), and
// the flops, Newton iterations and sweeps spent by then.
struct Reached {
  std::vector<double> time = std::vector<double>(kPrecisions.size(), -1.0);
  std::vector<double> flops = std::vector<double>(kPrecisions.size(), -1.0);
  std::vector<int> iterations = std::vector<int>(kPrecisions.size(), 0);
  std::vector<int> sweeps = std::vector<int>(kPrecisions.size(), 0);
  double flops_total = 0;  // the estimate at the last record
};

// Walks the history, with the cumulative flop estimate at each record; a
// precision counts as reached only within the time limit.
Reached WalkHistory(const fcsn::SolverSummary& s,
                    const FlopModel& model,
                    double setup,
                    double time_limit) {
  Reached out;
  // Factorizations per Newton iteration (> 1 when J + delta E was
  // refactorized after a singular J).
  const double fact_per_iteration =
      s.iterations > 0 ? static_cast<double>(s.factorizations) / s.iterations
                       : 1.0;
  const double f_fact = s.last_factorization_flops;
  int newton_records = 0;
  int iterations_done = 0;  // Newton steps taken before this record
  int sweeps_done = 0;
  int checks = 0;
  double trials = 0;
  out.flops_total = setup;
  for (const fcsn::IterationRecord& rec : s.history) {
    if (rec.phase == fcsn::IterationPhase::kNewton) {
      // A record at (cumulative) Newton iteration k follows k steps.
      iterations_done = rec.iteration;
      trials += rec.line_search_trials;
      ++newton_records;
    } else {
      sweeps_done = rec.iteration;
      ++checks;
    }
    const double newton_flops =
        iterations_done * fact_per_iteration * f_fact +
        newton_records * (model.residual_jacobian + model.error) +
        trials * model.residual;
    out.flops_total =
        setup + newton_flops + sweeps_done * model.sweep + checks * model.error;
    for (size_t k = 0; k < kPrecisions.size(); ++k) {
      if (out.time[k] < 0 && rec.WorstError() <= kPrecisions[k] &&
          rec.seconds <= time_limit) {
        out.time[k] = rec.seconds;
        out.flops[k] = out.flops_total;
        out.iterations[k] = iterations_done;
        out.sweeps[k] = sweeps_done;
      }
    }
  }
  return out;
}

// One row per precision; an unreached one gets the whole solve's counters.
void WriteStudyRows(const RunId& id,
                    const fcsn::SolverSummary& s,
                    const Reached& r,
                    std::ofstream& out) {
  const char* status = fcsn::ToString(s.status);
  for (size_t k = 0; k < kPrecisions.size(); ++k) {
    const bool ok = r.time[k] >= 0;
    out << id.problem << ',' << id.solver << ',' << id.start << ','
        << kPrecisions[k] << ',' << (ok ? 1 : 0) << ','
        << (ok ? r.time[k] : s.timings.total) << ','
        << (ok ? r.flops[k] : r.flops_total) << ','
        << (ok ? r.iterations[k] : s.iterations) << ','
        << (ok ? r.sweeps[k] : s.nsgs_sweeps) << ',' << status << '\n';
  }
  out.flush();
}

void WriteRunRow(const RunId& id,
                 const fcsn::SolverSummary& s,
                 double flops_total,
                 const std::string& load,
                 std::ofstream& out) {
  if (!out.is_open()) return;
  std::string message = s.message;
  std::replace(message.begin(), message.end(), ',', ';');
  std::replace(message.begin(), message.end(), '\n', ' ');
  out << id.problem << ',' << id.solver << ',' << id.start << ','
      << fcsn::ToString(s.status) << ',' << s.timings.total << ','
      << s.iterations << ',' << s.nsgs_sweeps << ',' << s.factorizations << ','
      << s.regularized_factorizations << ',' << s.fallbacks << ','
      << s.last_factorization_flops << ',' << flops_total << ','
      << s.timings.setup << ',' << s.WorstError() << ',' << s.e_nat << ','
      << load << ',' << message << '\n';
  out.flush();
}

// One (problem, solver) solve at --tol with the history recorded, and its
// rows in every output.
void SolveOne(const std::string& name,
              const fcsn::GlobalProblem& problem,
              const fcsn::Solution* guess,
              const FlopModel& model,
              const Config& config,
              const Args& args,
              Outputs* out) {
  fcsn::SolverOptions options = config.options;
  options.tolerance = args.tol;
  options.time_limit_seconds = args.time_limit;
  options.record_history = true;
  const std::string load = LoadAverage();
  fcsn::Solver solver(options);
  fcsn::Solution x;
  const fcsn::SolverSummary s = solver.Solve(problem, guess, &x);

  const RunId id{name, config.name, args.warm ? "warm" : "cold"};
  if (args.dump_history) DumpHistory(s);
  WriteHistoryRows(id, s, out->history);
  const bool uses_nsgs = !IsNewtonOnly(options);
  const double setup =
      model.setup_common + (uses_nsgs ? model.setup_delassus : 0.0);
  const Reached reached = WalkHistory(s, model, setup, args.time_limit);
  WriteStudyRows(id, s, reached, out->csv);
  WriteRunRow(id, s, reached.flops_total, load, out->runs);
  std::fprintf(stderr,
               "%s %-15s %-15s %7.2f s it %3d sw %5d fact %.2e W-blocks "
               "%.0f load %s\n",
               name.c_str(),
               config.name.c_str(),
               fcsn::ToString(s.status),
               s.timings.total,
               s.iterations,
               s.nsgs_sweeps,
               s.last_factorization_flops,
               model.w_blocks,
               load.c_str());
}

// Reads one problem (and with --warm its first guess) and runs every
// configuration on it. False (after a message) if the file cannot be read.
bool RunProblem(const std::string& file,
                const std::vector<Config>& configs,
                const Args& args,
                Outputs* out) {
  fcsn::GlobalProblem problem;
  fcsn::FclibFileInfo info;
  std::string error;
  if (!fcsn::ReadGlobalProblem(file, {}, &problem, &info, &error)) {
    std::cerr << error << "\n";
    return false;
  }
  std::vector<fcsn::Solution> guesses;
  if (args.warm) {
    if (!fcsn::ReadGuesses(file, problem.n(), problem.m(), &guesses, &error)) {
      std::cerr << error << "\n";
      return false;
    }
  }
  const fcsn::Solution* guess =
      args.warm && !guesses.empty() ? &guesses.front() : nullptr;
  const std::string name = std::filesystem::path(file).stem().string();
  const FlopModel model = BuildFlopModel(problem);
  WriteModelRow(name, problem, model, out->model);
  for (const Config& config : configs) {
    SolveOne(name, problem, guess, model, config, args, out);
  }
  return true;
}

int Main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) return 0;
  const std::vector<std::string> files = SelectProblems(args);
  if (files.empty()) {
    std::cerr << "masonry_study: no .hdf5 problems given\n";
    return 2;
  }
  const std::vector<Config> configs = SelectConfigs(args.solver_names);
  Outputs out;
  OpenOutputs(args, &out);
  std::cerr << "masonry_study: " << files.size() << " problems, "
            << configs.size() << " solvers, tol " << args.tol << ", time limit "
            << args.time_limit << " s, " << (args.warm ? "warm" : "cold")
            << " start\n";
  for (const std::string& file : files) {
    if (!RunProblem(file, configs, args, &out)) return 2;
  }
  return 0;
}

}  // namespace
}  // namespace masonry_study

int main(int argc, char** argv) { return masonry_study::Main(argc, argv); }
