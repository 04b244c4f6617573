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
// Flop model (an estimate, documented in README.md):
//   Newton iteration  = F_fact + E_res_jac + trials * E_res + E_err
//     F_fact    MUMPS' RINFOG(3) of the last factorization of this solve
//               (SolverSummary::last_factorization_flops); the pattern of J is
//               fixed, so every factorization costs about the same.
//     E_res     2 nnz(M) + 4 nnz(H) + kResidualFlops * nc
//     E_res_jac 2 nnz(M) + 4 nnz(H) + 6 nnz(H) + kResidualJacobianFlops * nc
//     E_err     2 nnz(M) + 4 nnz(H) + kErrorFlops * nc
//   NSGS sweep        = sum_a 18 * (# nonzero 3x3 blocks of W in row a)
//                       + kLocalSolveFlops * nc
//   NSGS check        = E_err
//   Setup (all)       = LDL^T(M) + one solve (q_free) + per component c of M
//                       3 k_c solves with L_c (rho; k_c contacts touch c)
//   Setup (NSGS)      += per component c: LDL^T(M_c) + 3 k_c solves with L_c
//                        + 2 nnz(H_c) 3 k_c (W_c = H_c^T X_c)
// with the LDL^T counts from the actual Eigen SimplicialLDLT factors (sum over
// columns j of c_j^2 + 3 c_j, c_j the off-diagonal count of column j of L;
// 4 nnz(L) + n per right-hand side).
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "fcsn/fcsn.h"

namespace {

// Per-contact constants of the flop model (see README.md for the counts).
constexpr double kResidualFlops = 60.0;
constexpr double kResidualJacobianFlops = 300.0;
constexpr double kErrorFlops = 60.0;
constexpr double kLocalSolveFlops = 1000.0;

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

// Flops of a Simplicial LDL^T of A (symmetric, lower used) and nnz(L).
void LdltCounts(const fcsn::SparseMatrix& A,
                double* factor_flops,
                double* nnz_l) {
  Eigen::SimplicialLDLT<fcsn::SparseMatrix, Eigen::Lower> ldlt(A);
  const fcsn::SparseMatrix l = ldlt.matrixL().nestedExpression();
  *factor_flops = 0.0;
  *nnz_l = 0.0;
  for (int j = 0; j < l.outerSize(); ++j) {
    double c = 0;  // strictly lower entries of column j
    for (fcsn::SparseMatrix::InnerIterator it(l, j); it; ++it) {
      if (it.row() > j) c += 1;
    }
    *factor_flops += c * c + 3.0 * c;
    *nnz_l += c;
  }
}

// Per-problem constants of the flop model.
struct FlopModel {
  double residual = 0;
  double residual_jacobian = 0;
  double error = 0;
  double sweep = 0;
  double setup_common = 0;
  double setup_delassus = 0;
  double w_blocks = 0;  // nonzero 3x3 blocks of W
  int components = 0;
};

FlopModel BuildFlopModel(const fcsn::GlobalProblem& p) {
  FlopModel model;
  const int n = p.n();
  const int nc = p.m() / 3;
  const double nnz_m = p.M.nonZeros();
  const double nnz_h = p.H.nonZeros();
  const double base = 2 * nnz_m + 4 * nnz_h;
  model.residual = base + kResidualFlops * nc;
  model.residual_jacobian = base + 6 * nnz_h + kResidualJacobianFlops * nc;
  model.error = base + kErrorFlops * nc;

  // Connected components of the graph of M (union-find).
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (int j = 0; j < p.M.outerSize(); ++j) {
    for (fcsn::SparseMatrix::InnerIterator it(p.M, j); it; ++it) {
      const int a = find(static_cast<int>(it.row()));
      const int b = find(static_cast<int>(it.col()));
      if (a != b) parent[a] = b;
    }
  }
  std::map<int, int> comp_id;
  std::vector<int> comp(n);
  for (int i = 0; i < n; ++i) {
    const int root = find(i);
    auto [pos, inserted] =
        comp_id.emplace(root, static_cast<int>(comp_id.size()));
    comp[i] = pos->second;
  }
  const int ncomp = static_cast<int>(comp_id.size());
  model.components = ncomp;
  // Components touched by each contact, and nnz(H) per component.
  std::vector<std::vector<int>> touched(nc);
  std::vector<double> nnz_h_comp(ncomp, 0.0);
  std::vector<std::vector<int>> contacts_of(ncomp);
  for (int j = 0; j < p.H.outerSize(); ++j) {
    for (fcsn::SparseMatrix::InnerIterator it(p.H, j); it; ++it) {
      const int c = comp[it.row()];
      nnz_h_comp[c] += 1;
      auto& t = touched[j / 3];
      if (std::find(t.begin(), t.end(), c) == t.end()) t.push_back(c);
    }
  }
  for (int a = 0; a < nc; ++a)
    for (int c : touched[a]) contacts_of[c].push_back(a);
  // Nonzero blocks of W: pairs of contacts sharing a component.
  double blocks = 0;
  std::vector<int> mark(nc, -1);
  for (int a = 0; a < nc; ++a) {
    int count = 0;
    for (int c : touched[a]) {
      for (int b : contacts_of[c]) {
        if (mark[b] != a) {
          mark[b] = a;
          ++count;
        }
      }
    }
    if (count == 0) count = 1;  // the diagonal block is always kept
    blocks += count;
  }
  model.w_blocks = blocks;
  model.sweep = 18.0 * blocks + kLocalSolveFlops * nc;

  // Whole-M LDL^T (rho and q_free); its solves with the 3 columns of each
  // contact touch only the factor of that contact's components (added below).
  double f_all = 0, l_all = 0;
  LdltCounts(p.M, &f_all, &l_all);
  model.setup_common = f_all + 4.0 * l_all + n;
  // Delassus: per component factorization and 3 k_c solves, then H_c^T X_c.
  std::vector<std::vector<int>> rows_of(ncomp);
  for (int i = 0; i < n; ++i) rows_of[comp[i]].push_back(i);
  for (int c = 0; c < ncomp; ++c) {
    if (contacts_of[c].empty()) continue;
    const std::vector<int>& rows = rows_of[c];
    std::vector<int> local(n, -1);
    for (size_t k = 0; k < rows.size(); ++k)
      local[rows[k]] = static_cast<int>(k);
    std::vector<Eigen::Triplet<double>> t;
    for (int j : rows) {
      for (fcsn::SparseMatrix::InnerIterator it(p.M, j); it; ++it) {
        t.emplace_back(local[it.row()], local[j], it.value());
      }
    }
    const int nn = static_cast<int>(rows.size());
    fcsn::SparseMatrix mc(nn, nn);
    mc.setFromTriplets(t.begin(), t.end());
    double f_c = 0, l_c = 0;
    LdltCounts(mc, &f_c, &l_c);
    const double kc = contacts_of[c].size();
    model.setup_common += 3.0 * kc * (4.0 * l_c + nn);
    model.setup_delassus +=
        f_c + 3.0 * kc * (4.0 * l_c + nn) + 2.0 * nnz_h_comp[c] * 3.0 * kc;
  }
  return model;
}

std::vector<std::string> Split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
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
  std::vector<std::string> files;
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
      time_limit = std::atof(next().c_str());
    } else if (arg == "--tol") {
      tol = std::atof(next().c_str());
    } else if (arg == "--warm") {
      warm = true;
    } else if (arg == "--dump-history") {
      dump_history = true;
    } else if (arg == "--offset") {
      offset = std::max(0, std::atoi(next().c_str()));
    } else if (arg == "--every") {
      every = std::max(1, std::atoi(next().c_str()));
    } else if (arg == "--max-problems") {
      max_problems = std::atoi(next().c_str());
    } else if (arg == "--solvers") {
      solver_names = Split(next());
    } else if (arg == "--csv") {
      csv_path = next();
    } else if (arg == "--model-csv") {
      model_path = next();
    } else if (arg == "--runs-csv") {
      runs_path = next();
    } else if (arg == "--history-csv") {
      history_path = next();
    } else if (arg == "-h" || arg == "--help") {
      std::cout << "usage: masonry_study [--time-limit S] [--tol T] [--warm] "
                   "[--every K] [--offset J] [--max-problems N] "
                   "[--dump-history] [--solvers A,B] "
                   "[--csv F] [--runs-csv F] [--model-csv F] "
                   "[--history-csv F] FILE_OR_DIR...\n";
      return 0;
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& e : std::filesystem::directory_iterator(arg)) {
        if (e.path().extension() == ".hdf5") files.push_back(e.path().string());
      }
    } else {
      files.push_back(arg);
    }
  }
  std::sort(files.begin(),
            files.end(),
            [](const std::string& a, const std::string& b) {
              // Sort by the step counter (last field of the name).
              auto counter = [](const std::string& f) {
                const std::string s = std::filesystem::path(f).stem().string();
                return std::atoi(s.substr(s.rfind('-') + 1).c_str());
              };
              return counter(a) < counter(b);
            });
  {
    std::vector<std::string> subset;
    for (size_t k = offset; k < files.size(); k += every)
      subset.push_back(files[k]);
    files = subset;
    if (max_problems > 0 && static_cast<int>(files.size()) > max_problems)
      files.resize(max_problems);
  }
  if (files.empty()) {
    std::cerr << "masonry_study: no .hdf5 problems given\n";
    return 2;
  }
  std::vector<Config> configs;
  for (const Config& c : AllConfigs()) {
    if (solver_names.empty() ||
        std::find(solver_names.begin(), solver_names.end(), c.name) !=
            solver_names.end()) {
      configs.push_back(c);
    }
  }

  std::ofstream csv(csv_path);
  csv << "problem,solver,start,precision,reached,time_s,flops,iterations,"
         "sweeps,status\n";
  std::ofstream runs;
  if (!runs_path.empty()) {
    runs.open(runs_path);
    runs << "problem,solver,start,status,time_s,iterations,sweeps,"
            "factorizations,regularized,fallbacks,fact_flops_last,"
            "flops_total,setup_s,error,e_nat,loadavg_1min,message\n";
  }
  std::ofstream model_csv;
  if (!model_path.empty()) {
    model_csv.open(model_path);
    model_csv << "problem,n,nc,nnz_M,nnz_H,components_of_M,W_blocks,"
                 "flops_residual,flops_residual_jacobian,flops_error,"
                 "flops_sweep,flops_setup_common,flops_setup_delassus\n";
  }
  std::ofstream history_csv;
  if (!history_path.empty()) {
    history_csv.open(history_path);
    history_csv << "problem,solver,start,phase,iteration,error,e_nat,"
                   "seconds\n";
  }
  std::cerr << "masonry_study: " << files.size() << " problems, "
            << configs.size() << " solvers, tol " << tol << ", time limit "
            << time_limit << " s, " << (warm ? "warm" : "cold") << " start\n";

  for (const std::string& file : files) {
    fcsn::GlobalProblem problem;
    fcsn::FclibFileInfo info;
    std::string error;
    if (!fcsn::ReadGlobalProblem(file, {}, &problem, &info, &error)) {
      std::cerr << error << "\n";
      return 2;
    }
    std::vector<fcsn::Solution> guesses;
    if (warm) {
      if (!fcsn::ReadGuesses(
              file, problem.n(), problem.m(), &guesses, &error)) {
        std::cerr << error << "\n";
        return 2;
      }
    }
    const fcsn::Solution* guess =
        warm && !guesses.empty() ? &guesses.front() : nullptr;
    const std::string name = std::filesystem::path(file).stem().string();
    const FlopModel model = BuildFlopModel(problem);
    if (model_csv.is_open()) {
      model_csv << name << ',' << problem.n() << ',' << problem.m() / 3 << ','
                << problem.M.nonZeros() << ',' << problem.H.nonZeros() << ','
                << model.components << ',' << model.w_blocks << ','
                << model.residual << ',' << model.residual_jacobian << ','
                << model.error << ',' << model.sweep << ','
                << model.setup_common << ',' << model.setup_delassus << '\n';
      model_csv.flush();
    }

    for (const Config& config : configs) {
      fcsn::SolverOptions options = config.options;
      options.tolerance = tol;
      options.time_limit_seconds = time_limit;
      options.record_history = true;
      const std::string load = LoadAverage();
      fcsn::Solver solver(options);
      fcsn::Solution x;
      const fcsn::SolverSummary s = solver.Solve(problem, guess, &x);

      if (dump_history) {
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
      if (history_csv.is_open()) {
        for (const fcsn::IterationRecord& rec : s.history) {
          history_csv << name << ',' << config.name << ','
                      << (warm ? "warm" : "cold") << ','
                      << fcsn::ToString(rec.phase) << ',' << rec.iteration
                      << ',' << rec.WorstError() << ',' << rec.e_nat << ','
                      << rec.seconds << '\n';
        }
        history_csv.flush();
      }
      const bool uses_nsgs = !IsNewtonOnly(options);
      const double setup =
          model.setup_common + (uses_nsgs ? model.setup_delassus : 0.0);
      // Factorizations per Newton iteration (> 1 when J + delta E was
      // refactorized after a singular J).
      const double fact_per_iteration =
          s.iterations > 0
              ? static_cast<double>(s.factorizations) / s.iterations
              : 1.0;
      const double f_fact = s.last_factorization_flops;
      // Walk the history: cumulative flops at each record.
      std::vector<double> reached_time(kPrecisions.size(), -1.0);
      std::vector<double> reached_flops(kPrecisions.size(), -1.0);
      std::vector<int> reached_it(kPrecisions.size(), 0);
      std::vector<int> reached_sweeps(kPrecisions.size(), 0);
      int newton_records = 0;
      int iterations_done = 0;  // Newton steps taken before this record
      int sweeps_done = 0;
      int checks = 0;
      double trials = 0;
      double flops_now = setup;
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
        flops_now = setup + newton_flops + sweeps_done * model.sweep +
                    checks * model.error;
        for (size_t k = 0; k < kPrecisions.size(); ++k) {
          if (reached_time[k] < 0 && rec.WorstError() <= kPrecisions[k] &&
              rec.seconds <= time_limit) {
            reached_time[k] = rec.seconds;
            reached_flops[k] = flops_now;
            reached_it[k] = iterations_done;
            reached_sweeps[k] = sweeps_done;
          }
        }
      }
      const char* status = fcsn::ToString(s.status);
      for (size_t k = 0; k < kPrecisions.size(); ++k) {
        const bool ok = reached_time[k] >= 0;
        csv << name << ',' << config.name << ',' << (warm ? "warm" : "cold")
            << ',' << kPrecisions[k] << ',' << (ok ? 1 : 0) << ','
            << (ok ? reached_time[k] : s.timings.total) << ','
            << (ok ? reached_flops[k] : flops_now) << ','
            << (ok ? reached_it[k] : s.iterations) << ','
            << (ok ? reached_sweeps[k] : s.nsgs_sweeps) << ',' << status
            << '\n';
      }
      csv.flush();
      if (runs.is_open()) {
        std::string message = s.message;
        std::replace(message.begin(), message.end(), ',', ';');
        std::replace(message.begin(), message.end(), '\n', ' ');
        runs << name << ',' << config.name << ',' << (warm ? "warm" : "cold")
             << ',' << status << ',' << s.timings.total << ',' << s.iterations
             << ',' << s.nsgs_sweeps << ',' << s.factorizations << ','
             << s.regularized_factorizations << ',' << s.fallbacks << ','
             << f_fact << ',' << flops_now << ',' << s.timings.setup << ','
             << s.WorstError() << ',' << s.e_nat << ',' << load << ','
             << message << '\n';
        runs.flush();
      }
      std::fprintf(stderr,
                   "%s %-15s %-15s %7.2f s it %3d sw %5d fact %.2e W-blocks "
                   "%.0f load %s\n",
                   name.c_str(),
                   config.name.c_str(),
                   status,
                   s.timings.total,
                   s.iterations,
                   s.nsgs_sweeps,
                   f_fact,
                   model.w_blocks,
                   load.c_str());
    }
  }
  return 0;
}
