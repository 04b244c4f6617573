// compare_siconos: side-by-side timing of fcsn and Siconos/numerics 4.4 on the
// same FCLib global problems, every returned (v, r) judged by fcsn's criterion
// max(e_cone, e_dual, e_comp, e_eq) <= tol (fcsn/error_measures.h,
// formulations.md §9.1).
//
// Per problem x solver x tolerance x repetition, one fresh child process
// (fork and exec of this program): the parent reads the problem once with
// fcsn's reader for its judge, the child reads it again; the child builds the
// solver's own data, signals the parent, times only the solve call, and sends
// back (time, counters, v, r) through a pipe.
// The parent kills a child that exceeds the time limit ("timeout"), recomputes
// the errors from (v, r) with u = H^T v + w, and takes the median over the
// repetitions. Fresh processes are required by Siconos 4.4 (about 0.5 GB leaked
// per NSN_AC solve on large problems, heap corruption when SolverOptions are
// reused, iteration counts that depend on the heap state) and make both sides
// pay the same cold-start costs.
//
// Usage: compare_siconos [options] [FILE.hdf5|DIR]...   (see --help)
//
// This file: the command line, the loop over problems x tolerances x
// repetitions, the solvers taking turns within each repetition, and the
// console lines. solver_specs.h names the solvers,
// child_run.h runs one repetition, report.h writes the CSV and Markdown.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "child_run.h"
#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"
#include "fcsn/problem.h"
#include "fcsn/types.h"
#include "machine.h"
#include "report.h"
#include "report_format.h"
#include "solver_specs.h"

namespace fcsn_bench {
namespace {

namespace fs = std::filesystem;

// The command line: the report's Settings plus what only the run needs.
struct CliOptions {
  std::vector<std::string> inputs;
  Settings st;
  std::string out_dir = "bench/results";
  std::string log_dir;
  std::string m_storage = "as-stored";
  double mem_limit_gb = 0;
  bool no_skip = false;
};

// Registers the options on `app`; the defaults shown by --help are the
// values in *o at this call.
void AddOptions(CLI::App* app, CliOptions* o) {
  Settings& st = o->st;
  app->add_option(
         "inputs", o->inputs, "FCLib global .hdf5 files or directories")
      ->default_str(FCSN_SHARED_DIR "/data/gfc3d");
  app->add_option("--set",
                  st.set_name,
                  "problem-set name (default: name of the first directory)");
  app->add_option("--tols", st.tols, "tolerances")->delimiter(',');
  app->add_option("--time-limit", st.time_limit, "seconds per run")
      ->capture_default_str();
  app->add_option("--reps", st.reps, "repetitions per run (median reported)")
      ->capture_default_str();
  app->add_option("--max-reps",
                  st.max_reps,
                  "more repetitions, up to this many, while a row's solve "
                  "times add up to less than --min-row-seconds")
      ->capture_default_str();
  app->add_option("--min-row-seconds", st.min_row_seconds, "see --max-reps")
      ->capture_default_str();
  app->add_option("--solvers", st.solvers, "subset of the solvers")
      ->delimiter(',')
      ->capture_default_str();
  app->add_option("--m-storage", o->m_storage, "as-stored | symmetrized | auto")
      ->capture_default_str();
  app->add_option("--siconos-max-iter",
                  st.siconos_max_iterations,
                  "override Siconos' iparam[0] (0: its defaults)");
  app->add_option("--siconos-tol-factor",
                  st.siconos_tol_factor,
                  "Siconos is asked for tol x this factor (its own error "
                  "measure; e.g. 0.01 so that its stop is more likely to meet "
                  "fcsn's criterion); runs are judged at tol")
      ->capture_default_str()
      ->check(CLI::Range(1e-6, 1.0));
  app->add_option(
         "--out-dir", o->out_dir, "where <set>_<m-storage>.{csv,md} go")
      ->capture_default_str();
  app->add_option(
      "--log-dir", o->log_dir, "child stdout/stderr logs (default: none)");
  app->add_option(
      "--mem-limit-gb", o->mem_limit_gb, "RLIMIT_AS per child (0: none)");
  app->add_option("--note", st.note, "free text added to the report header");
  app->add_flag(
      "--no-skip", o->no_skip, "run tighter tolerances even after a timeout");
}

// Default --set: the name of the first input directory, else "custom".
std::string DefaultSetName(const std::string& first_input) {
  std::string name =
      fs::is_directory(first_input)
          ? fs::path(first_input).lexically_normal().filename().string()
          : "custom";
  if (name.empty()) {
    name = fs::path(first_input)
               .lexically_normal()
               .parent_path()
               .filename()
               .string();
  }
  return name;
}

// Fills the defaults that depend on other options and checks the names.
// Returns false (after a message on stderr) on an unknown solver or storage.
bool Complete(CliOptions* o, fcsn::MStorage* storage) {
  Settings& st = o->st;
  if (o->inputs.empty()) o->inputs.push_back(FCSN_SHARED_DIR "/data/gfc3d");
  st.max_reps = std::max(st.max_reps, st.reps);
  for (const std::string& s : st.solvers) {
    if (FindSolver(s) == nullptr) {
      std::cerr << "compare_siconos: unknown solver '" << s << "'\n";
      return false;
    }
  }
  const auto parsed = fcsn::MStorageFromString(o->m_storage);
  if (!parsed) {
    std::cerr << "compare_siconos: --m-storage must be one of "
              << fcsn::NamesOf(fcsn::kAllMStorages) << "\n";
    return false;
  }
  *storage = *parsed;
  st.m_storage = o->m_storage;
  if (st.set_name.empty()) st.set_name = DefaultSetName(o->inputs[0]);
  return true;
}

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

// One problem as the parent reads it (each child reads it again).
struct LoadedProblem {
  std::string file;
  std::string name;  // the file's stem
  fcsn::GlobalProblem problem;
};

// Reads `file`; false (after a message) if it fails or M is singular (both
// solvers need M^-1).
bool LoadProblem(const std::string& file,
                 fcsn::MStorage storage,
                 LoadedProblem* loaded) {
  fcsn::FclibFileInfo info;
  std::string error;
  fcsn::ReadOptions read_options;
  read_options.m_storage = storage;
  fcsn::GlobalProblem& problem = loaded->problem;
  if (!fcsn::ReadGlobalProblem(file, read_options, &problem, &info, &error)) {
    std::cerr << "compare_siconos: " << error << "\n";
    return false;
  }
  double q_free_norm = 0.0;
  if (!fcsn::ComputeQFreeNorm(problem, &q_free_norm, &error)) {
    std::cerr << "compare_siconos: " << file << ": " << error << "\n";
    return false;
  }
  loaded->file = file;
  loaded->name = fs::path(file).stem().string();
  std::cout << "== " << loaded->name << ": n=" << problem.n()
            << " m=" << problem.m() << " nc=" << problem.nc()
            << (info.m_upper_triangular
                    ? (info.m_symmetrized ? " (M upper triangle, symmetrized)"
                                          : " (M upper triangle, as stored)")
                    : "")
            << "\n";
  return true;
}

// One repetition of `spec` on `lp` at `tol`; k numbers the log file.
RepResult RunRepetition(const LoadedProblem& lp,
                        const SolverSpec& spec,
                        double tol,
                        int k,
                        const CliOptions& o) {
  const Settings& st = o.st;
  RunConfig config;
  config.tolerance = tol;
  config.time_limit = st.time_limit;
  config.siconos_max_iterations = st.siconos_max_iterations;
  config.siconos_tol_factor = st.siconos_tol_factor;
  config.mem_limit_gb = o.mem_limit_gb;
  config.file = lp.file;
  config.m_storage = st.m_storage;
  if (!o.log_dir.empty()) {
    config.log_path = o.log_dir + "/" + lp.name + "." + spec.name + "." +
                      Fmt("%.0e", tol) + "." + std::to_string(k) + ".log";
  }
  return RunOnce(lp.problem, spec, config);
}

// The repetitions of one row in progress: at least --reps runs; more (up to
// --max-reps) while the row's solves add up to less than --min-row-seconds,
// so that millisecond solves get a stable median; none after a timeout (more
// would time out too).
struct RowRuns {
  const SolverSpec* spec = nullptr;
  Row* row = nullptr;  // summarized into when the repetitions are done
  std::vector<RepResult> reps;
  double row_seconds = 0;
  bool done = false;

  void Add(RepResult rep, const Settings& st) {
    const int k = static_cast<int>(reps.size()) + 1;
    // A crash costs no solve time; do not let it loop to max_reps.
    row_seconds += rep.completed ? rep.seconds : st.min_row_seconds;
    done = rep.timeout || k >= st.max_reps ||
           (k >= st.reps && row_seconds >= st.min_row_seconds);
    reps.push_back(std::move(rep));
  }
};

// The repetitions of every solver's row on one problem and tolerance, taken
// in turns (solver 1, solver 2, ..., solver 1, ...), so that a machine whose
// speed drifts over minutes (a shared VM) slows every solver alike and the
// ratios compare runs of the same minutes. Each row sorted by wall time.
void RunInTurns(const LoadedProblem& lp,
                double tol,
                const CliOptions& o,
                std::vector<RowRuns>* runs) {
  for (int k = 0; k < o.st.max_reps; ++k) {
    bool any = false;
    for (RowRuns& r : *runs) {
      if (r.done) continue;
      r.Add(RunRepetition(lp, *r.spec, tol, k, o), o.st);
      any = true;
    }
    if (!any) break;
  }
  for (RowRuns& r : *runs) {
    std::sort(r.reps.begin(),
              r.reps.end(),
              [](const RepResult& a, const RepResult& b) {
                return a.seconds < b.seconds;
              });
  }
}

// The row's median repetition, min/max wall time and median CPU time.
void Summarize(const std::vector<RepResult>& reps, Row* row) {
  row->reps_run = static_cast<int>(reps.size());
  row->median = reps[(reps.size() - 1) / 2];
  row->time_min = reps.front().seconds;
  std::vector<double> cpu;
  for (const RepResult& x : reps) {
    if (x.completed) cpu.push_back(x.cpu_seconds);
  }
  row->cpu_median = Median(cpu);
  row->time_max = reps.back().seconds;
  for (const RepResult& x : reps) row->solved_reps += x.solved ? 1 : 0;
}

void PrintRow(const std::string& solver_name, double tol, const Row& row) {
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
}

// The row of `spec` on `lp` at `tol`, without its repetitions.
Row EmptyRow(const LoadedProblem& lp,
             const SolverSpec& spec,
             double tol,
             const Settings& st) {
  Row row;
  row.problem = lp.name;
  row.n = lp.problem.n();
  row.m = lp.problem.m();
  row.nc = lp.problem.nc();
  row.solver = spec.name;
  // A Siconos run asked for a tighter own tolerance is labelled as such
  // (e.g. "sic-nsn-ac@tol*0.01"), so that reports never mix the two.
  if (spec.family == Family::kSiconos && st.siconos_tol_factor != 1.0) {
    row.solver += "@tol*" + Fmt("%g", st.siconos_tol_factor);
  }
  row.tol = tol;
  return row;
}

// The rows of every solver on one problem, one per tolerance, loosest first,
// the solvers' repetitions in turns (RunInTurns); after a solver's timeout
// its tighter rows are skipped unless --no-skip. Appended solver by solver.
void RunProblem(const LoadedProblem& lp,
                const CliOptions& o,
                std::vector<Row>* rows) {
  const Settings& st = o.st;
  std::vector<std::vector<Row>> by_solver(st.solvers.size());
  for (double tol : st.tols) {
    std::vector<RowRuns> runs;
    for (size_t i = 0; i < by_solver.size(); ++i) {
      std::vector<Row>& solver_rows = by_solver[i];
      const bool timed_out =
          !solver_rows.empty() &&
          (solver_rows.back().skipped || solver_rows.back().median.timeout);
      const SolverSpec& spec = *FindSolver(st.solvers[i]);
      solver_rows.push_back(EmptyRow(lp, spec, tol, st));
      if (timed_out && !o.no_skip) {
        solver_rows.back().skipped = true;
        continue;
      }
      runs.emplace_back();
      runs.back().spec = &spec;
      runs.back().row = &solver_rows.back();  // no push until the next tol
    }
    RunInTurns(lp, tol, o, &runs);
    for (const RowRuns& r : runs) {
      Summarize(r.reps, r.row);
      PrintRow(r.spec->name, tol, *r.row);
    }
  }
  for (const std::vector<Row>& solver_rows : by_solver) {
    rows->insert(rows->end(), solver_rows.begin(), solver_rows.end());
  }
}

int Main(int argc, char** argv) {
  CLI::App app{
      "Side-by-side benchmark of fcsn and Siconos/numerics 4.4 on FCLib "
      "global problems; every result judged by fcsn's criterion (§9.1)."};
  CliOptions o;
  o.st.tols = {1e-4, 1e-6, 1e-8, 1e-10};
  for (const SolverSpec& s : AllSolvers()) o.st.solvers.push_back(s.name);
  AddOptions(&app, &o);
  CLI11_PARSE(app, argc, argv);

  fcsn::MStorage storage;
  if (!Complete(&o, &storage)) return 2;
  const std::vector<std::string> files = ExpandInputs(o.inputs);
  if (files.empty()) {
    std::cerr << "compare_siconos: no .hdf5 files in the inputs\n";
    return 2;
  }
  fs::create_directories(o.out_dir);
  if (!o.log_dir.empty()) fs::create_directories(o.log_dir);
  const std::string machine = MachineDescription();
  std::cout << machine;

  std::vector<Row> rows;
  for (const std::string& file : files) {
    LoadedProblem lp;
    if (!LoadProblem(file, storage, &lp)) continue;
    RunProblem(lp, o, &rows);
  }
  const std::string base =
      o.out_dir + "/" + o.st.set_name + "_" + o.st.m_storage;
  WriteCsv(base + ".csv", o.st, rows);
  WriteMarkdown(base + ".md", o.st, rows, machine);
  std::cout << "wrote " << base << ".csv and " << base << ".md\n";
  return 0;
}

}  // namespace
}  // namespace fcsn_bench

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], fcsn_bench::kChildFlag) == 0) {
    fcsn_bench::ChildEntry(argc, argv);
  }
  return fcsn_bench::Main(argc, argv);
}
