// Warm time stepping through the API: the masonry wall
// (examples/masonry_wall) stepped with one fcsn::Solver kept across steps,
// each step warm-started from the previous one, and where a step's time goes.
//
//   warm_steps [--steps N] [--refine F] [--tolerance TOL] [--solver S]
//              [--skip K] [--precision P] [--ordering O] [--per-step]
//              [--extrapolate] [--krylov-reuse K] [--warm-rho-boost B]
//
// Defaults: 60 steps of the 688-contact wall (refine 1), tol 1e-8, the
// default policy (hybrid). Prints the median and mean seconds per step over
// steps K+1..N (K = --skip, default 1: the first step pays the analysis), the
// median Newton iterations, and the summed SolverSummary timings over those
// steps (setup = rho, q_free, M's factorization, pattern; other = total minus
// the listed parts). --per-step prints one line per step. --extrapolate
// starts step k >= 3 from 2 x_{k-1} - x_{k-2} (fcsn::ExtrapolateGuess).
// --krylov-reuse K sets SolverOptions::krylov_reuse_iterations (default -1:
// auto; 0: off). --warm-rho-boost B sets RhoOptions::warm_initial_boost
// (the boost of the warm-started steps; default 100).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fcsn/solver.h"
#include "fcsn/time_stepping.h"
#include "masonry_wall_model.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Args {
  int steps = 60;
  int refine = 1;
  int skip = 1;
  double tolerance = 1e-8;
  std::string solver = "hybrid";
  std::string precision = "auto";
  std::string ordering = "metis";
  bool per_step = false;
  // Guess = linear extrapolation of the two previous solutions
  // (fcsn::ExtrapolateGuess) instead of the previous solution.
  bool extrapolate = false;
  // SolverOptions::krylov_reuse_iterations (its default: kAutoKrylovReuse).
  int krylov_reuse = fcsn::SolverOptions().krylov_reuse_iterations;
  // RhoOptions::warm_initial_boost (its default).
  double warm_rho_boost = fcsn::RhoOptions().warm_initial_boost;
};

bool Parse(int argc, char** argv, Args* args) {
  for (int k = 1; k < argc; ++k) {
    const std::string flag = argv[k];
    if (flag == "--per-step") {
      args->per_step = true;
      continue;
    }
    if (flag == "--extrapolate") {
      args->extrapolate = true;
      continue;
    }
    if (k + 1 >= argc) return false;
    const char* value = argv[++k];
    if (flag == "--steps") {
      args->steps = std::atoi(value);
    } else if (flag == "--refine") {
      args->refine = std::atoi(value);
    } else if (flag == "--skip") {
      args->skip = std::atoi(value);
    } else if (flag == "--tolerance") {
      args->tolerance = std::atof(value);
    } else if (flag == "--solver") {
      args->solver = value;
    } else if (flag == "--precision") {
      args->precision = value;
    } else if (flag == "--ordering") {
      args->ordering = value;
    } else if (flag == "--krylov-reuse") {
      args->krylov_reuse = std::atoi(value);
    } else if (flag == "--warm-rho-boost") {
      args->warm_rho_boost = std::atof(value);
    } else {
      return false;
    }
  }
  return args->steps > args->skip && args->skip >= 0 && args->refine >= 1;
}

// CPU seconds of the process (all threads): less sensitive than wall time to
// other programs on a loaded machine, but it counts OpenBLAS threads spinning.
double CpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

double Median(std::vector<double> x) {
  if (x.empty()) return 0.0;
  std::sort(x.begin(), x.end());
  const size_t h = x.size() / 2;
  return x.size() % 2 == 1 ? x[h] : 0.5 * (x[h - 1] + x[h]);
}

void Add(const fcsn::Timings& t, fcsn::Timings* sum) {
  sum->total += t.total;
  sum->setup += t.setup;
  sum->analysis += t.analysis;
  sum->factorization += t.factorization;
  sum->linear_solve += t.linear_solve;
  sum->residual_jacobian += t.residual_jacobian;
  sum->line_search += t.line_search;
  sum->nsgs += t.nsgs;
  sum->error_measures += t.error_measures;
}

void PrintTimings(const fcsn::Timings& t, int steps) {
  const double listed = t.setup + t.analysis + t.factorization +
                        t.linear_solve + t.residual_jacobian + t.line_search +
                        t.nsgs + t.error_measures;
  const struct {
    const char* name;
    double seconds;
  } parts[] = {{"setup", t.setup},
               {"analysis", t.analysis},
               {"factorization", t.factorization},
               {"linear_solve", t.linear_solve},
               {"residual_jacobian", t.residual_jacobian},
               {"line_search", t.line_search},
               {"nsgs", t.nsgs},
               {"error_measures", t.error_measures},
               {"other", t.total - listed},
               {"total", t.total}};
  for (const auto& p : parts) {
    std::printf("  %-18s %8.4f s/step  %5.1f %%\n",
                p.name,
                p.seconds / steps,
                t.total > 0 ? 100.0 * p.seconds / t.total : 0.0);
  }
}

// The measured steps (k > --skip): wall and CPU seconds, iterations and the
// summed timings.
struct Tally {
  std::vector<double> seconds;
  std::vector<double> cpu_seconds;
  std::vector<double> iterations;
  fcsn::Timings sum;
  int failures = 0;
};

void PrintStep(int k,
               const fcsn::SolverSummary& summary,
               double seconds,
               double cpu) {
  std::printf(
      "step %3d  %-12s it %3d  %.4f s  cpu %.4f s  setup %.4f  fact "
      "%.4f (%d)  solves %.4f (%d)  trials %d  reused %d  krylov %d\n",
      k,
      fcsn::ToString(summary.status),
      summary.iterations,
      seconds,
      cpu,
      summary.timings.setup,
      summary.timings.factorization,
      summary.factorizations,
      summary.timings.linear_solve,
      summary.linear_solves,
      summary.line_search_trials,
      summary.reused_factor_directions,
      summary.krylov_iterations);
}

// Steps the wall args.steps times with one Solver; "" or the error.
std::string RunSteps(const Args& args,
                     const fcsn::SolverOptions& options,
                     fcsn::masonry::MasonryWall* wall,
                     Tally* tally) {
  fcsn::Solver solver(options);
  fcsn::GlobalProblem problem;
  fcsn::Solution solution;
  fcsn::Solution older;  // the solution before last_solution()
  std::string error;
  for (int k = 1; k <= args.steps; ++k) {
    wall->BuildStepProblem(&problem);
    fcsn::Solution guess = wall->last_solution();
    if (args.extrapolate && k > 2) {
      error = fcsn::ExtrapolateGuess(older, wall->last_solution(), &guess);
      if (!error.empty()) return "step " + std::to_string(k) + ": " + error;
    }
    older = wall->last_solution();
    const Clock::time_point start = Clock::now();
    const double cpu_start = CpuSeconds();
    const fcsn::SolverSummary summary =
        solver.Solve(problem, &guess, &solution);
    const double s =
        std::chrono::duration<double>(Clock::now() - start).count();
    const double cpu = CpuSeconds() - cpu_start;
    if (!summary.IsConverged()) ++tally->failures;
    if (args.per_step) PrintStep(k, summary, s, cpu);
    if (k > args.skip) {
      tally->seconds.push_back(s);
      tally->cpu_seconds.push_back(cpu);
      tally->iterations.push_back(summary.iterations);
      Add(summary.timings, &tally->sum);
    }
    if (!wall->Advance(solution, &error)) {
      return "step " + std::to_string(k) + ": " + error;
    }
  }
  return "";
}

void PrintReport(const Args& args,
                 const fcsn::masonry::MasonryWall& wall,
                 const Tally& tally) {
  const int counted = static_cast<int>(tally.seconds.size());
  double mean = 0.0;
  for (double s : tally.seconds) mean += s / counted;
  std::printf(
      "warm_steps --steps %d --refine %d --tolerance %g --solver %s --skip %d "
      "--precision %s --ordering %s%s --krylov-reuse %d --warm-rho-boost %g\n"
      "n = %d, nc = %d: steps %d..%d: median %.4f s/step, mean %.4f s/step, "
      "median cpu %.4f s/step, median iterations %.1f, unconverged %d\n",
      args.steps,
      args.refine,
      args.tolerance,
      args.solver.c_str(),
      args.skip,
      args.precision.c_str(),
      args.ordering.c_str(),
      args.extrapolate ? " --extrapolate" : "",
      args.krylov_reuse,
      args.warm_rho_boost,
      wall.n(),
      wall.nc(),
      args.skip + 1,
      args.steps,
      Median(tally.seconds),
      mean,
      Median(tally.cpu_seconds),
      Median(tally.iterations),
      tally.failures);
  PrintTimings(tally.sum, counted);
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!Parse(argc, argv, &args)) {
    std::fprintf(stderr,
                 "usage: warm_steps [--steps N] [--refine F] [--tolerance "
                 "TOL] [--solver S] [--skip K] [--precision P] [--ordering O] "
                 "[--per-step] [--extrapolate] [--krylov-reuse K] "
                 "[--warm-rho-boost B]\n");
    return 2;
  }
  std::string error;
  auto wall = fcsn::masonry::MasonryWall::Create(
      fcsn::masonry::WallOptions::Refined(args.refine), &error);
  const auto type = fcsn::SolverTypeFromString(args.solver);
  const auto precision = fcsn::FactorizationPrecisionFromString(args.precision);
  const auto ordering = fcsn::OrderingFromString(args.ordering);
  if (!wall || !type || !precision || !ordering) {
    std::fprintf(
        stderr,
        "warm_steps: %s\n",
        wall ? "bad --solver, --precision or --ordering" : error.c_str());
    return 2;
  }
  fcsn::SolverOptions options;
  options.tolerance = args.tolerance;
  options.solver = *type;
  options.linear_solver.precision = *precision;
  options.linear_solver.ordering = *ordering;
  options.record_history = false;
  options.krylov_reuse_iterations = args.krylov_reuse;
  options.rho.warm_initial_boost = args.warm_rho_boost;
  Tally tally;
  error = RunSteps(args, options, wall.get(), &tally);
  if (!error.empty()) {
    std::fprintf(stderr, "warm_steps: %s\n", error.c_str());
    return 1;
  }
  PrintReport(args, *wall, tally);
  return tally.failures == 0 ? 0 : 3;
}
