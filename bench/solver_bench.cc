// solver_bench: time and iterations of fcsn's solvers on FCLib global problems,
// and the cost of one Newton iteration relative to one MUMPS numeric
// factorization.
//
//   solver_bench [--tols 1e-4,1e-6,1e-8] [--reps 3] [--time-limit 60] [--csv
//   OUT.csv]
//                [--m-storage auto|as-stored|symmetrized] FILE_OR_DIR...
//
// Solvers: NSGS-AC, NSGS-FP-VI-UPK, NSN-AC (pure Newton, full steps) and the
// default hybrid. Each (problem, solver, tolerance) is solved `reps` times from
// the same cold start with a fresh Solver; the median wall time is reported,
// along with the analysis count and, for Newton runs,
//
//   per_iteration / factorization = (time - setup - analysis - nsgs) /
//   iterations
//                                   / (factorization time / factorizations)
//
// which is the project's target "one Newton iteration costs <= 1.5 numeric
// factorizations". Output: a Markdown table on stdout, and the raw rows as CSV
// with --csv.
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

namespace {

struct Config {
  const char* name;
  fcsn::SolverOptions options;
};

std::vector<Config> Configs() {
  std::vector<Config> configs;
  fcsn::SolverOptions nsgs_ac;
  nsgs_ac.solver = fcsn::SolverType::kNsgs;
  nsgs_ac.nsgs.local_solver = fcsn::LocalSolverType::kAlartCurnierNewton;
  configs.push_back({"NSGS-AC", nsgs_ac});
  fcsn::SolverOptions nsgs_fp = nsgs_ac;
  nsgs_fp.nsgs.local_solver = fcsn::LocalSolverType::kFixedPointViUpk;
  configs.push_back({"NSGS-FP-VI-UPK", nsgs_fp});
  fcsn::SolverOptions nsn;
  nsn.solver = fcsn::SolverType::kNewton;
  nsn.formulation = fcsn::Formulation::kAlartCurnier;
  configs.push_back({"NSN-AC", nsn});
  configs.push_back({"default (hybrid)", fcsn::SolverOptions()});
  return configs;
}

std::vector<double> ParseList(const std::string& text) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) values.push_back(std::atof(item.c_str()));
  return values;
}

double Median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const size_t k = x.size() / 2;
  return x.size() % 2 ? x[k] : 0.5 * (x[k - 1] + x[k]);
}

// The command line.
struct Args {
  std::vector<double> tols = {1e-4, 1e-6, 1e-8};
  int reps = 3;
  double time_limit = 60.0;
  std::string csv_path;
  fcsn::MStorage m_storage = fcsn::MStorage::kAuto;
  std::vector<std::string> files;  // directories expanded, sorted
};

// Parses argv into *args. Returns 0, or 2 after a message on stderr (a bad
// --m-storage; an option without its value exits with status 2).
int ParseArgs(int argc, char** argv, Args* args) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "solver_bench: " << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--tols") {
      args->tols = ParseList(next());
    } else if (arg == "--reps") {
      args->reps = std::max(1, std::atoi(next().c_str()));
    } else if (arg == "--time-limit") {
      args->time_limit = std::atof(next().c_str());
    } else if (arg == "--csv") {
      args->csv_path = next();
    } else if (arg == "--m-storage") {
      const std::string value = next();
      const auto parsed = fcsn::MStorageFromString(value);
      if (!parsed) {
        std::cerr << "solver_bench: unknown --m-storage " << value << "\n";
        return 2;
      }
      args->m_storage = *parsed;
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.path().extension() == ".hdf5")
          args->files.push_back(entry.path().string());
      }
    } else {
      args->files.push_back(arg);
    }
  }
  std::sort(args->files.begin(), args->files.end());
  return 0;
}

// One (problem, solver, tolerance) cell: the last repetition's summary and
// the median total time over the repetitions.
struct Measured {
  fcsn::SolverSummary summary;
  double time = 0;
};

Measured Measure(const fcsn::GlobalProblem& problem,
                 const Config& config,
                 double tol,
                 const Args& args) {
  fcsn::SolverOptions options = config.options;
  options.tolerance = tol;
  options.time_limit_seconds = args.time_limit;
  options.record_history = false;
  std::vector<double> times;
  Measured out;
  for (int rep = 0; rep < args.reps; ++rep) {
    fcsn::Solver solver(options);
    fcsn::Solution x;
    out.summary = solver.Solve(problem, nullptr, &x);
    times.push_back(out.summary.timings.total);
  }
  out.time = Median(times);
  return out;
}

// The cost of one Newton iteration against one numeric factorization (0
// where undefined: no factorization or no iteration).
struct IterationCost {
  double factorization_each = 0;  // s per numeric factorization
  double iteration = 0;           // s per Newton iteration
  double ratio = 0;               // iteration / factorization_each
};

IterationCost CostOf(const fcsn::SolverSummary& s) {
  IterationCost c;
  c.factorization_each =
      s.factorizations ? s.timings.factorization / s.factorizations : 0;
  const double newton_time =
      s.timings.total - s.timings.setup - s.timings.analysis - s.timings.nsgs;
  c.iteration = s.iterations ? newton_time / s.iterations : 0;
  c.ratio = c.factorization_each > 0 && s.iterations
                ? c.iteration / c.factorization_each
                : 0;
  return c;
}

void PrintRow(const std::string& name,
              const fcsn::GlobalProblem& problem,
              const Config& config,
              double tol,
              const Measured& m,
              const IterationCost& cost) {
  const fcsn::SolverSummary& s = m.summary;
  char ratio_text[32] = "-";
  if (cost.ratio > 0)
    std::snprintf(ratio_text, sizeof(ratio_text), "%.2f", cost.ratio);
  std::printf("| %s | %d | %d | %s | %.0e | %s | %d | %d | %.4f | %d | %s |\n",
              name.c_str(),
              problem.n(),
              problem.nc(),
              config.name,
              tol,
              fcsn::ToString(s.status),
              s.iterations,
              s.nsgs_sweeps,
              m.time,
              s.analyses,
              ratio_text);
}

void WriteCsvRow(const std::string& name,
                 const fcsn::GlobalProblem& problem,
                 const Config& config,
                 double tol,
                 const Measured& m,
                 const IterationCost& cost,
                 std::ofstream& csv) {
  if (!csv.is_open()) return;
  const fcsn::SolverSummary& s = m.summary;
  csv << name << ',' << problem.n() << ',' << problem.nc() << ',' << config.name
      << ',' << tol << ',' << fcsn::ToString(s.status) << ','
      << (s.IsConverged() ? 1 : 0) << ',' << s.iterations << ','
      << s.nsgs_sweeps << ',' << m.time << ',' << s.analyses << ','
      << s.factorizations << ',' << cost.factorization_each << ','
      << cost.iteration << ',' << cost.ratio << ',' << s.WorstError() << ','
      << s.e_nat << '\n';
}

// Every solver and tolerance on one file; false (after a message) if the
// file cannot be read.
bool BenchProblem(const std::string& file,
                  const Args& args,
                  std::ofstream& csv) {
  fcsn::GlobalProblem problem;
  fcsn::FclibFileInfo info;
  std::string error;
  fcsn::ReadOptions read;
  read.m_storage = args.m_storage;
  if (!fcsn::ReadGlobalProblem(file, read, &problem, &info, &error)) {
    std::cerr << error << "\n";
    return false;
  }
  const std::string name = std::filesystem::path(file).filename().string();
  for (const Config& config : Configs()) {
    for (double tol : args.tols) {
      const Measured m = Measure(problem, config, tol, args);
      const IterationCost cost = CostOf(m.summary);
      PrintRow(name, problem, config, tol, m, cost);
      WriteCsvRow(name, problem, config, tol, m, cost, csv);
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  Args args;
  if (const int code = ParseArgs(argc, argv, &args); code != 0) return code;
  if (args.files.empty()) {
    std::cerr << "usage: solver_bench [--tols a,b] [--reps N] [--time-limit S] "
                 "[--csv F] "
                 "FILE_OR_DIR...\n";
    return 2;
  }
  std::ofstream csv;
  if (!args.csv_path.empty()) {
    csv.open(args.csv_path);
    csv << "problem,n,nc,solver,tol,status,solved,iterations,nsgs_sweeps,time_"
           "s,analyses,"
           "factorizations,factorization_s_each,newton_iteration_s,iteration_"
           "over_factorization,"
           "error,e_nat\n";
  }
  std::printf(
      "| problem | n | nc | solver | tol | status | it | sweeps | time [s] | "
      "analyses | "
      "iter/fact |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& file : args.files) {
    if (!BenchProblem(file, args, csv)) return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
