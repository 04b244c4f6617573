// compare_siconos: side-by-side timing of fcsn and Siconos/numerics 4.4 on the
// same FCLib global problems, every returned (v, r) judged by fcsn's criterion
// max(e_cone, e_dual, e_comp, e_eq) <= tol (fcsn/error_measures.h,
// formulations.md §9.1).
//
// Per problem x solver x tolerance x repetition, one fresh child process
// (fork): the problem is read once by the parent with fcsn's reader and
// inherited; the child builds the solver's own data, signals the parent, times
// only the solve call, and sends back (time, counters, v, r) through a pipe.
// The parent kills a child that exceeds the time limit ("timeout"), recomputes
// the errors from (v, r) with u = H^T v + w, and takes the median over the
// repetitions. Fresh processes are required by Siconos 4.4 (about 0.5 GB leaked
// per NSN_AC solve on large problems, heap corruption when SolverOptions are
// reused, iteration counts that depend on the heap state) and make both sides
// pay the same cold-start costs.
//
// Usage: compare_siconos [options] [FILE.hdf5|DIR]...   (see --help)
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "child_run.h"
#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"
#include "fcsn/types.h"
#include "siconos_runner.h"
#include "solver_specs.h"

namespace fcsn_bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------- report

struct Row {
  std::string problem;
  int n = 0, m = 0, nc = 0;
  std::string solver;
  double tol = 0;
  int reps_run = 0;
  int solved_reps = 0;
  bool skipped = false;  // not run: timed out at a looser tolerance
  RepResult median;      // the repetition with the median time
  double time_min = NAN, time_max = NAN;
  double cpu_median = NAN;  // median over the repetitions of the CPU time
};

std::string Fmt(const char* format, double x) {
  char b[64];
  std::snprintf(b, sizeof(b), format, x);
  return b;
}
std::string Sci(double x) {
  if (std::isnan(x)) return "nan";
  return Fmt("%.2e", x);
}
std::string Secs(double x) {
  if (std::isnan(x)) return "";
  return x >= 100 ? Fmt("%.0f", x) : Fmt("%.3g", x);
}
std::string CsvQuote(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

double Median(std::vector<double> x) {
  if (x.empty()) return NAN;
  std::sort(x.begin(), x.end());
  const size_t k = x.size() / 2;
  return x.size() % 2 ? x[k] : 0.5 * (x[k - 1] + x[k]);
}

std::string ReadFirstMatch(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) {
      auto pos = line.find(':');
      if (pos == std::string::npos) return line;
      std::string v = line.substr(pos + 1);
      v.erase(0, v.find_first_not_of(" \t"));
      return v;
    }
  }
  return "?";
}

std::string LoadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string line;
  std::getline(in, line);
  return line;
}

// Kernel family OpenBLAS chose for this process (children inherit the same
// environment, hence the same choice); "not OpenBLAS" for another BLAS.
std::string OpenBlasCore() {
  using CoreName = char* (*)();
  const auto core_name =
      reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  return core_name != nullptr ? core_name() : "not OpenBLAS";
}

std::string MachineDescription() {
  std::ostringstream s;
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  const char* blas = std::getenv("OPENBLAS_NUM_THREADS");
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const char* coretype = std::getenv("OPENBLAS_CORETYPE");
  s << "- date: " << date << "\n"
    << "- nproc: " << sysconf(_SC_NPROCESSORS_ONLN) << "\n"
    << "- CPU: " << ReadFirstMatch("/proc/cpuinfo", "model name") << "\n"
    << "- memory: " << ReadFirstMatch("/proc/meminfo", "MemTotal") << "\n"
    << "- load average at start (1, 5, 15 min, ...): " << LoadAverage() << "\n"
    << "- OPENBLAS_NUM_THREADS=" << (blas ? blas : "(unset)")
    << ", OMP_NUM_THREADS=" << (omp ? omp : "(unset)") << "\n"
    << "- OpenBLAS kernels: " << OpenBlasCore()
    << " (OPENBLAS_CORETYPE=" << (coretype ? coretype : "(unset)") << ")\n";
  return s.str();
}

struct Settings {
  std::string set_name;
  std::string m_storage;
  double time_limit = 60;
  int reps = 3;
  int max_reps = 15;
  double min_row_seconds = 1.0;
  int siconos_max_iterations = 0;
  double siconos_tol_factor = 1.0;
  std::string note;
  std::vector<double> tols;
  std::vector<std::string> solvers;
};

void WriteCsv(const std::string& path,
              const Settings& st,
              const std::vector<Row>& rows) {
  std::ofstream out(path);
  out << "set,problem,n,m,nc,m_storage,solver,tol,reps_run,time_median_s,"
         "time_min_s,time_max_s,cpu_median_s,iterations,nsgs_sweeps,e_nat,e_eq,"
         "error,solved,"
         "solved_reps,siconos_error_own,siconos_measure,status,"
         "fcsn_factorization_s,fcsn_analysis_s,fcsn_total_s\n";
  for (const Row& r : rows) {
    const RepResult& x = r.median;
    const bool is_fcsn = r.solver.rfind("fcsn", 0) == 0;
    out << CsvQuote(st.set_name) << "," << CsvQuote(r.problem) << "," << r.n
        << "," << r.m << "," << r.nc << "," << st.m_storage << "," << r.solver
        << "," << Fmt("%.0e", r.tol) << "," << r.reps_run << ",";
    if (r.skipped) {
      out << ",,,,,,,,,0,0,,,skipped-after-timeout,,,\n";
      continue;
    }
    out << Fmt("%.6g", x.seconds) << "," << Fmt("%.6g", r.time_min) << ","
        << Fmt("%.6g", r.time_max) << "," << Fmt("%.6g", r.cpu_median) << ","
        << (x.completed ? std::to_string(x.iterations) : "") << ","
        << (is_fcsn && x.completed ? std::to_string(x.nsgs_sweeps) : "") << ","
        << Fmt("%.3e", x.e_nat) << "," << Fmt("%.3e", x.e_eq) << ","
        << Fmt("%.3e", x.error) << "," << (x.solved ? 1 : 0) << ","
        << r.solved_reps << "," << Fmt("%.3e", x.own_error) << ","
        << Fmt("%.3e", x.siconos_measure) << "," << CsvQuote(x.status) << ",";
    if (is_fcsn && x.completed) {
      out << Fmt("%.6g", x.t_factorization) << "," << Fmt("%.6g", x.t_analysis)
          << "," << Fmt("%.6g", x.t_total);
    } else {
      out << ",,";
    }
    out << "\n";
  }
}

void WriteMarkdown(const std::string& path,
                   const Settings& st,
                   const std::vector<Row>& rows,
                   const std::string& machine) {
  std::map<std::tuple<std::string, std::string, double>, const Row*> at;
  std::vector<std::string> problems;
  for (const Row& r : rows) {
    at[{r.problem, r.solver, r.tol}] = &r;
    if (std::find(problems.begin(), problems.end(), r.problem) ==
        problems.end()) {
      problems.push_back(r.problem);
    }
  }
  auto find = [&](const std::string& p, const std::string& s, double t) {
    auto it = at.find({p, s, t});
    return it == at.end() ? nullptr : it->second;
  };
  auto has_solver = [&](const std::string& s) {
    return std::find(st.solvers.begin(), st.solvers.end(), s) !=
           st.solvers.end();
  };

  std::ofstream out(path);
  out << "# fcsn vs Siconos/numerics 4.4 — set `" << st.set_name << "`\n\n"
      << "Generated by `bench/compare_siconos/run.sh` (driver "
         "`compare_siconos`).\n\n"
      << machine << "- M storage: " << st.m_storage << "\n"
      << "- time limit per run: " << st.time_limit
      << " s; repetitions: " << st.reps << " to " << st.max_reps
      << " (more while a row's solves total < " << st.min_row_seconds
      << " s), each in a fresh child process; median reported\n"
      << "- Siconos max iterations: "
      << (st.siconos_max_iterations > 0
              ? std::to_string(st.siconos_max_iterations)
              : std::string("its defaults"))
      << "; fcsn: its defaults (Newton: 100)\n"
      << "- Siconos' own tolerance: " << st.siconos_tol_factor
      << " x the judged tolerance (its error measure is not fcsn's; every run "
         "is judged by fcsn's criterion)\n";
  out << "- load average at end: " << LoadAverage()
      << " (other jobs on the machine inflate wall times; the CPU-time "
         "check row below is less sensitive to them)\n";
  if (!st.note.empty()) out << "- " << st.note << "\n";
  out << "\nSolvers:\n\n";
  for (const SolverSpec& s : AllSolvers()) {
    if (has_solver(s.name))
      out << "- `" << s.name << "`: " << s.description << "\n";
  }
  out << "\n**Judge**: fcsn's criterion max(e_cone, e_dual, e_comp, e_eq) "
         "recomputed from each returned (v, r) with u = Hᵀv + w "
         "(formulations.md §9.1, unit-free); solved (✓) iff ≤ tol. Times are "
         "of the solve call only (Siconos: `gfc3d_driver`; "
         "fcsn: `Solver::Solve`, which includes its analysis and setup).\n\n";

  // Table 1: time, iterations and verdict per problem x tol x solver.
  out << "## Time (s), iterations, solved\n\n"
      << "Cell: median time · iterations · ✓/✗ (✗ shows fcsn's criterion of "
         "the returned point). `T/O`: killed or stopped at the time limit; "
         "`skip`: not run because a looser tolerance timed out.\n\n"
      << "| problem | tol |";
  for (const std::string& s : st.solvers) out << " " << s << " |";
  out << "\n|---|---|";
  for (size_t i = 0; i < st.solvers.size(); ++i) out << "---|";
  out << "\n";
  for (const std::string& p : problems) {
    for (double tol : st.tols) {
      out << "| " << p << " | " << Fmt("%.0e", tol) << " |";
      for (const std::string& s : st.solvers) {
        const Row* r = find(p, s, tol);
        if (!r) {
          out << " |";
        } else if (r->skipped) {
          out << " skip |";
        } else if (r->median.timeout) {
          out << " T/O |";
        } else if (!r->median.completed) {
          out << " " << r->median.status << " |";
        } else {
          const RepResult& x = r->median;
          out << " " << Secs(x.seconds) << " · " << x.iterations;
          if (x.nsgs_sweeps > 0) out << "+" << x.nsgs_sweeps << "sw";
          if (x.solved) {
            out << " ✓";
          } else {
            out << " ✗ " << Sci(x.error);
          }
          if (r->solved_reps != 0 && r->solved_reps != r->reps_run) {
            out << " (" << r->solved_reps << "/" << r->reps_run << ")";
          }
          out << " |";
        }
      }
      out << "\n";
    }
  }

  // Table 2: solved counts.
  out << "\n## Problems solved (out of " << problems.size() << ")\n\n| tol |";
  for (const std::string& s : st.solvers) out << " " << s << " |";
  out << "\n|---|";
  for (size_t i = 0; i < st.solvers.size(); ++i) out << "---|";
  out << "\n";
  for (double tol : st.tols) {
    out << "| " << Fmt("%.0e", tol) << " |";
    for (const std::string& s : st.solvers) {
      int k = 0;
      for (const std::string& p : problems) {
        const Row* r = find(p, s, tol);
        if (r && !r->skipped && r->median.solved) ++k;
      }
      out << " " << k << " |";
    }
    out << "\n";
  }

  // Table 3: ratios time(Siconos) / time(fcsn) per pair.
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"sic-nsn-ac", "fcsn-nsn-ac"},
      {"sic-nsn-ac", "fcsn-nsn-ac-rest"},
      {"sic-nsn-jm", "fcsn-nsn-jm"},
      {"sic-nsn-jm", "fcsn-default"},
      {"sic-nsgs-wr", "fcsn-default"},
      {"sic-admm", "fcsn-default"},
  };
  out << "\n## Speed ratio time(Siconos) / time(fcsn)\n\n"
      << "Per problem and tolerance, when both solved (> 1: fcsn faster). "
         "`S only` / `F only`: only Siconos / only fcsn solved; `—`: "
         "neither.\n\n| problem | tol |";
  std::vector<std::pair<std::string, std::string>> used;
  for (const auto& pr : pairs) {
    if (has_solver(pr.first) && has_solver(pr.second)) used.push_back(pr);
  }
  for (const auto& pr : used)
    out << " " << pr.first << " / " << pr.second << " |";
  out << "\n|---|---|";
  for (size_t i = 0; i < used.size(); ++i) out << "---|";
  out << "\n";
  std::vector<std::vector<double>> ratios(used.size()), cpu_ratios(used.size()),
      min_ratios(used.size());
  std::vector<int> s_only(used.size(), 0), f_only(used.size(), 0),
      neither(used.size(), 0);
  for (const std::string& p : problems) {
    for (double tol : st.tols) {
      out << "| " << p << " | " << Fmt("%.0e", tol) << " |";
      for (size_t i = 0; i < used.size(); ++i) {
        const Row* a = find(p, used[i].first, tol);
        const Row* b = find(p, used[i].second, tol);
        const bool sa = a && !a->skipped && a->median.solved;
        const bool sb = b && !b->skipped && b->median.solved;
        if (sa && sb) {
          const double q = a->median.seconds / b->median.seconds;
          ratios[i].push_back(q);
          cpu_ratios[i].push_back(a->cpu_median > 0 && b->cpu_median > 0
                                      ? a->cpu_median / b->cpu_median
                                      : NAN);
          min_ratios[i].push_back(a->time_min / b->time_min);
          out << " " << Fmt(q >= 10 ? "%.0f" : "%.2f", q) << " |";
        } else if (sa) {
          ++s_only[i];
          out << " S only |";
        } else if (sb) {
          ++f_only[i];
          out << " F only |";
        } else {
          ++neither[i];
          out << " — |";
        }
      }
      out << "\n";
    }
  }
  auto median_row = [&](const char* label,
                        const std::vector<std::vector<double>>& x,
                        bool bold) {
    out << "| " << (bold ? "**" : "") << label << (bold ? "**" : "") << " | |";
    for (size_t i = 0; i < used.size(); ++i) {
      const double med = Median(x[i]);
      const std::string v =
          std::isnan(med) ? std::string("n/a") : Fmt("%.2f", med);
      out << " " << (bold ? "**" + v + "**" : v) << " (n=" << x[i].size()
          << ") |";
    }
    out << "\n";
  };
  median_row("median (both solved)", ratios, true);
  median_row("check: median of CPU-time ratios", cpu_ratios, false);
  median_row("check: median of min-wall-time ratios", min_ratios, false);
  out << "| only Siconos / only fcsn / neither | |";
  for (size_t i = 0; i < used.size(); ++i) {
    out << " " << s_only[i] << " / " << f_only[i] << " / " << neither[i]
        << " |";
  }
  out << "\n";

  // Table 4: where fcsn's time goes.
  out << "\n## fcsn: share of the solve time in MUMPS numeric factorization\n\n"
      << "SolverSummary.timings.factorization / timings.total (analysis = "
         "symbolic factorization incl. ordering; rest = everything else: "
         "setup, residuals, line search, NSGS, error measures), median over "
         "the tolerances of the runs that completed.\n\n"
      << "| problem | solver | factorization | analysis | rest | total time "
         "(s, median) |\n|---|---|---|---|---|---|\n";
  std::map<std::string, std::vector<double>> set_fact, set_anal;
  for (const std::string& p : problems) {
    for (const std::string& s : st.solvers) {
      if (s.rfind("fcsn", 0) != 0) continue;
      std::vector<double> f, a, t;
      for (double tol : st.tols) {
        const Row* r = find(p, s, tol);
        if (!r || r->skipped || !r->median.completed ||
            r->median.t_total <= 0) {
          continue;
        }
        f.push_back(r->median.t_factorization / r->median.t_total);
        a.push_back(r->median.t_analysis / r->median.t_total);
        t.push_back(r->median.t_total);
      }
      if (f.empty()) continue;
      const double mf = Median(f), ma = Median(a);
      set_fact[s].push_back(mf);
      set_anal[s].push_back(ma);
      out << "| " << p << " | " << s << " | " << Fmt("%.0f%%", 100 * mf)
          << " | " << Fmt("%.0f%%", 100 * ma) << " | "
          << Fmt("%.0f%%", 100 * (1 - mf - ma)) << " | " << Secs(Median(t))
          << " |\n";
    }
  }
  for (const auto& [s, f] : set_fact) {
    const double mf = Median(f), ma = Median(set_anal[s]);
    out << "| **set median** | " << s << " | " << Fmt("%.0f%%", 100 * mf)
        << " | " << Fmt("%.0f%%", 100 * ma) << " | "
        << Fmt("%.0f%%", 100 * (1 - mf - ma)) << " | |\n";
  }

  // Table 5: where the solver's own verdict and fcsn's judge disagree.
  out << "\n## Own verdict vs fcsn's judge\n\n"
      << "Runs (median repetition) where the solver's own convergence flag "
         "(Siconos: `gfc3d_driver` returned 0, its error in `dparam[1]`; "
         "fcsn: status converged) disagrees with fcsn's criterion ≤ tol.\n\n"
      << "| problem | solver | tol | own verdict | own error | criterion | "
         "e_nat |\n|---|---|---|---|---|---|---|\n";
  int disagreements = 0;
  for (const Row& r : rows) {
    if (r.skipped || !r.median.completed) continue;
    if (r.median.self_converged == r.median.solved) continue;
    ++disagreements;
    out << "| " << r.problem << " | " << r.solver << " | " << Fmt("%.0e", r.tol)
        << " | " << (r.median.self_converged ? "converged" : r.median.status)
        << " | " << Sci(r.median.own_error) << " | " << Sci(r.median.error)
        << " | " << Sci(r.median.e_nat) << " |\n";
  }
  if (disagreements == 0) out << "| (none) | | | | | | |\n";
}

// ---------------------------------------------------------------- main

std::vector<std::string> ExpandInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    if (fs::is_directory(in)) {
      std::vector<std::string> here;
      for (const auto& e : fs::directory_iterator(in)) {
        if (e.is_regular_file() && e.path().extension() == ".hdf5") {
          here.push_back(e.path().string());
        }
      }
      std::sort(here.begin(), here.end());
      files.insert(files.end(), here.begin(), here.end());
    } else {
      files.push_back(in);
    }
  }
  return files;
}

int Main(int argc, char** argv) {
  CLI::App app{
      "Side-by-side benchmark of fcsn and Siconos/numerics 4.4 on FCLib "
      "global problems; every result judged by fcsn's criterion (§9.1)."};
  std::vector<std::string> inputs;
  Settings st;
  st.tols = {1e-4, 1e-6, 1e-8, 1e-10};
  for (const SolverSpec& s : AllSolvers()) st.solvers.push_back(s.name);
  std::string out_dir = "bench/results";
  std::string log_dir;
  std::string m_storage = "as-stored";
  double mem_limit_gb = 0;
  bool no_skip = false;
  app.add_option("inputs", inputs, "FCLib global .hdf5 files or directories")
      ->default_str(FCSN_SHARED_DIR "/data/gfc3d");
  app.add_option("--set",
                 st.set_name,
                 "problem-set name (default: name of the first directory)");
  app.add_option("--tols", st.tols, "tolerances")->delimiter(',');
  app.add_option("--time-limit", st.time_limit, "seconds per run")
      ->capture_default_str();
  app.add_option("--reps", st.reps, "repetitions per run (median reported)")
      ->capture_default_str();
  app.add_option("--max-reps",
                 st.max_reps,
                 "more repetitions, up to this many, while a row's solve "
                 "times add up to less than --min-row-seconds")
      ->capture_default_str();
  app.add_option("--min-row-seconds", st.min_row_seconds, "see --max-reps")
      ->capture_default_str();
  app.add_option("--solvers", st.solvers, "subset of the solvers")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--m-storage", m_storage, "as-stored | symmetrized | auto")
      ->capture_default_str();
  app.add_option("--siconos-max-iter",
                 st.siconos_max_iterations,
                 "override Siconos' iparam[0] (0: its defaults)");
  app.add_option("--siconos-tol-factor",
                 st.siconos_tol_factor,
                 "Siconos is asked for tol x this factor (its own error "
                 "measure; e.g. 0.01 so that its stop is more likely to meet "
                 "fcsn's criterion); runs are judged at tol")
      ->capture_default_str()
      ->check(CLI::Range(1e-6, 1.0));
  app.add_option("--out-dir", out_dir, "where <set>_<m-storage>.{csv,md} go")
      ->capture_default_str();
  app.add_option(
      "--log-dir", log_dir, "child stdout/stderr logs (default: none)");
  app.add_option(
      "--mem-limit-gb", mem_limit_gb, "RLIMIT_AS per child (0: none)");
  app.add_option("--note", st.note, "free text added to the report header");
  app.add_flag(
      "--no-skip", no_skip, "run tighter tolerances even after a timeout");
  CLI11_PARSE(app, argc, argv);

  if (inputs.empty()) inputs.push_back(FCSN_SHARED_DIR "/data/gfc3d");
  st.max_reps = std::max(st.max_reps, st.reps);
  for (const std::string& s : st.solvers) {
    bool known = false;
    for (const SolverSpec& k : AllSolvers()) known |= (k.name == s);
    if (!known) {
      std::cerr << "compare_siconos: unknown solver '" << s << "'\n";
      return 2;
    }
  }
  const auto storage = fcsn::MStorageFromString(m_storage);
  if (!storage) {
    std::cerr << "compare_siconos: --m-storage must be one of "
              << fcsn::NamesOf(fcsn::kAllMStorages) << "\n";
    return 2;
  }
  st.m_storage = m_storage;
  if (st.set_name.empty()) {
    st.set_name =
        fs::is_directory(inputs[0])
            ? fs::path(inputs[0]).lexically_normal().filename().string()
            : "custom";
    if (st.set_name.empty()) {
      st.set_name = fs::path(inputs[0])
                        .lexically_normal()
                        .parent_path()
                        .filename()
                        .string();
    }
  }
  const std::vector<std::string> files = ExpandInputs(inputs);
  if (files.empty()) {
    std::cerr << "compare_siconos: no .hdf5 files in the inputs\n";
    return 2;
  }
  fs::create_directories(out_dir);
  if (!log_dir.empty()) fs::create_directories(log_dir);
  const std::string machine = MachineDescription();
  std::cout << machine;

  std::vector<Row> rows;
  for (const std::string& file : files) {
    fcsn::GlobalProblem problem;
    fcsn::FclibFileInfo info;
    std::string error;
    fcsn::ReadOptions read_options;
    read_options.m_storage = *storage;
    if (!fcsn::ReadGlobalProblem(file, read_options, &problem, &info, &error)) {
      std::cerr << "compare_siconos: " << error << "\n";
      continue;
    }
    double q_free_norm = 0;
    if (!fcsn::ComputeQFreeNorm(problem, &q_free_norm, &error)) {
      std::cerr << "compare_siconos: " << file << ": " << error << "\n";
      continue;
    }
    const std::string name = fs::path(file).stem().string();
    std::cout << "== " << name << ": n=" << problem.n() << " m=" << problem.m()
              << " nc=" << problem.nc()
              << (info.m_upper_triangular
                      ? (info.m_symmetrized ? " (M upper triangle, symmetrized)"
                                            : " (M upper triangle, as stored)")
                      : "")
              << "\n";
    for (const std::string& solver_name : st.solvers) {
      const SolverSpec* spec = nullptr;
      for (const SolverSpec& k : AllSolvers()) {
        if (k.name == solver_name) spec = &k;
      }
      bool timed_out = false;
      for (double tol : st.tols) {
        Row row;
        row.problem = name;
        row.n = problem.n();
        row.m = problem.m();
        row.nc = problem.nc();
        row.solver = solver_name;
        // A Siconos run asked for a tighter own tolerance is labelled as such
        // (e.g. "sic-nsn-ac@tol*0.01"), so that reports never mix the two.
        if (spec != nullptr && spec->family == Family::kSiconos &&
            st.siconos_tol_factor != 1.0) {
          row.solver += "@tol*" + Fmt("%g", st.siconos_tol_factor);
        }
        row.tol = tol;
        if (timed_out && !no_skip) {
          row.skipped = true;
          rows.push_back(row);
          continue;
        }
        std::vector<RepResult> reps;
        double row_seconds = 0;
        for (int k = 0; k < st.max_reps; ++k) {
          // At least --reps runs; more (up to --max-reps) while the row's
          // solves add up to less than --min-row-seconds, so that millisecond
          // solves get a stable median.
          if (k >= st.reps && row_seconds >= st.min_row_seconds) break;
          RunConfig config;
          config.tolerance = tol;
          config.time_limit = st.time_limit;
          config.siconos_max_iterations = st.siconos_max_iterations;
          config.siconos_tol_factor = st.siconos_tol_factor;
          config.mem_limit_gb = mem_limit_gb;
          if (!log_dir.empty()) {
            config.log_path = log_dir + "/" + name + "." + solver_name + "." +
                              Fmt("%.0e", tol) + "." + std::to_string(k) +
                              ".log";
          }
          reps.push_back(RunOnce(problem, q_free_norm, *spec, config));
          if (reps.back().timeout) break;  // more would time out too
          // A crash costs no solve time; do not let it loop to max_reps.
          row_seconds +=
              reps.back().completed ? reps.back().seconds : st.min_row_seconds;
        }
        std::sort(reps.begin(),
                  reps.end(),
                  [](const RepResult& a, const RepResult& b) {
                    return a.seconds < b.seconds;
                  });
        row.reps_run = static_cast<int>(reps.size());
        row.median = reps[(reps.size() - 1) / 2];
        row.time_min = reps.front().seconds;
        {
          std::vector<double> cpu;
          for (const RepResult& x : reps) {
            if (x.completed) cpu.push_back(x.cpu_seconds);
          }
          row.cpu_median = Median(cpu);
        }
        row.time_max = reps.back().seconds;
        for (const RepResult& x : reps) row.solved_reps += x.solved ? 1 : 0;
        timed_out = row.median.timeout;
        std::printf(
            "  %-13s tol %.0e  %10.4g s  it %4d  error %.2e  e_nat %.2e  %s  "
            "%s\n",
            solver_name.c_str(),
            tol,
            row.median.seconds,
            row.median.iterations,
            row.median.error,
            row.median.e_nat,
            row.median.solved ? "SOLVED" : "-",
            row.median.status.c_str());
        std::fflush(stdout);
        rows.push_back(row);
      }
    }
  }
  const std::string base = out_dir + "/" + st.set_name + "_" + st.m_storage;
  WriteCsv(base + ".csv", st, rows);
  WriteMarkdown(base + ".md", st, rows, machine);
  std::cout << "wrote " << base << ".csv and " << base << ".md\n";
  return 0;
}

}  // namespace
}  // namespace fcsn_bench

int main(int argc, char** argv) { return fcsn_bench::Main(argc, argv); }
