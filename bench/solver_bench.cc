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

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> tols = {1e-4, 1e-6, 1e-8};
  int reps = 3;
  double time_limit = 60.0;
  std::string csv_path;
  fcsn::MStorage m_storage = fcsn::MStorage::kAuto;
  std::vector<std::string> files;
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
      tols = ParseList(next());
    } else if (arg == "--reps") {
      reps = std::max(1, std::atoi(next().c_str()));
    } else if (arg == "--time-limit") {
      time_limit = std::atof(next().c_str());
    } else if (arg == "--csv") {
      csv_path = next();
    } else if (arg == "--m-storage") {
      const std::string value = next();
      const auto parsed = fcsn::MStorageFromString(value);
      if (!parsed) {
        std::cerr << "solver_bench: unknown --m-storage " << value << "\n";
        return 2;
      }
      m_storage = *parsed;
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::directory_iterator(arg)) {
        if (entry.path().extension() == ".hdf5")
          files.push_back(entry.path().string());
      }
    } else {
      files.push_back(arg);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "usage: solver_bench [--tols a,b] [--reps N] [--time-limit S] "
                 "[--csv F] "
                 "FILE_OR_DIR...\n";
    return 2;
  }
  std::ofstream csv;
  if (!csv_path.empty()) {
    csv.open(csv_path);
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
  for (const std::string& file : files) {
    fcsn::GlobalProblem problem;
    fcsn::FclibFileInfo info;
    std::string error;
    fcsn::ReadOptions read;
    read.m_storage = m_storage;
    if (!fcsn::ReadGlobalProblem(file, read, &problem, &info, &error)) {
      std::cerr << error << "\n";
      return 2;
    }
    const std::string name = std::filesystem::path(file).filename().string();
    for (const Config& config : Configs()) {
      for (double tol : tols) {
        fcsn::SolverOptions options = config.options;
        options.tolerance = tol;
        options.time_limit_seconds = time_limit;
        options.record_history = false;
        std::vector<double> times;
        fcsn::SolverSummary s;
        for (int rep = 0; rep < reps; ++rep) {
          fcsn::Solver solver(options);
          fcsn::Solution x;
          s = solver.Solve(problem, nullptr, &x);
          times.push_back(s.timings.total);
        }
        const double time = Median(times);
        const double fact_each =
            s.factorizations ? s.timings.factorization / s.factorizations : 0;
        const double newton_time = s.timings.total - s.timings.setup -
                                   s.timings.analysis - s.timings.nsgs;
        const double iteration = s.iterations ? newton_time / s.iterations : 0;
        const double ratio =
            fact_each > 0 && s.iterations ? iteration / fact_each : 0;
        char ratio_text[32] = "-";
        if (ratio > 0)
          std::snprintf(ratio_text, sizeof(ratio_text), "%.2f", ratio);
        std::printf(
            "| %s | %d | %d | %s | %.0e | %s | %d | %d | %.4f | %d | %s |\n",
            name.c_str(),
            problem.n(),
            problem.nc(),
            config.name,
            tol,
            fcsn::ToString(s.status),
            s.iterations,
            s.nsgs_sweeps,
            time,
            s.analyses,
            ratio_text);
        if (csv.is_open()) {
          csv << name << ',' << problem.n() << ',' << problem.nc() << ','
              << config.name << ',' << tol << ',' << fcsn::ToString(s.status)
              << ',' << (s.IsConverged() ? 1 : 0) << ',' << s.iterations << ','
              << s.nsgs_sweeps << ',' << time << ',' << s.analyses << ','
              << s.factorizations << ',' << fact_each << ',' << iteration << ','
              << ratio << ',' << s.WorstError() << ',' << s.e_nat << '\n';
        }
      }
    }
  }
  return 0;
}
