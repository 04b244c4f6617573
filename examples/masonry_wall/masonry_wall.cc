// masonry_wall: time-stepping of the masonry low-wall shear test
// (shared/docs/masonry_wall.md), one FCLib global problem per step solved by
// fcsn::Solver, warm-started from the previous step. While the wall is still
// at rest (the previous solution is all zero: the first loaded step), a step
// starts cold instead, by SolverOptions::cold_start (--cold-start, default
// auto: the resting contacts start bonded, 1-4 Newton iterations where the
// all-zero guess needs 20-200; bench/results/gravity_steps.md).
//
//   masonry_wall [--steps N] [--refine F | --coarse] [--swap-friction]
//                [--export-dir DIR] [--log FILE] [--tolerance TOL]
//                [--cold-start C]   (--help lists every option)
//
// Writes nothing unless asked: with --log FILE a CSV run log (one row per step:
// contacts by status per group, solver iterations and time, impulse sums),
// with --vtk DIR ParaView files, and with --export-dir DIR the 50 steps of
// the FCLib LowWall_FEM collection (counter = step - 1) as FCLib global files
// with /guesses/1 = the previous step's (v, u, r) and /solution = the
// time-stepping solve. The file name carries the NSN-AC iterations (no line
// search, tol 1e-4, from the guess), as the LMGC90 dumps did (0 with
// --skip-naming-solve).
//
// The time loop (RunTimeSteps) is the pattern of an FEM code:
//   fcsn::Solver solver(options);              // once: keeps its workspace
//   for each step k:
//     wall.BuildStepProblem(&problem);         // M^, H, f, w, mu of step k
//     guess = wall.last_solution();            // previous step's (v, u, r)
//     (--extrapolate-guess: fcsn::ExtrapolateGuess(x_{k-2}, guess, &guess))
//     solver.Solve(problem, &guess, &solution);
//     wall.Advance(solution);                  // theta-method update
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/mpi_session.h"
#include "contact_steps.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"
#include "fcsn/time_stepping.h"
#include "masonry_vtk.h"
#include "masonry_wall_model.h"
#include "sanity_checks.h"

namespace {

using fcsn::masonry::ContactGroup;
using fcsn::masonry::kAllContactGroups;
using fcsn::masonry::MasonryWall;

// The command line, as given (the enum choices still as strings; see
// StepSolverOptions and MakeWallOptions for their meaning).
struct Settings {
  // Wall and loading.
  int steps = -1;  // time steps; -1: the deck's 500 (WallOptions::num_steps)
  int refine = 1;  // element counts per block (8 x 4 x 4) times refine
  bool coarse = false;             // 4 x 2 x 2 elements per full block
  bool swap_friction = false;      // block-block 0.83, block-support 0.53
  std::string mu_preset = "deck";  // "paper" is --swap-friction
  bool theta_gap = false;          // w_N = gap / (theta h) instead of gap / h
  // The solve of every step.
  double tolerance = 1e-10;
  int max_iterations = 200;
  std::string solver_name = "nsn";
  std::string formulation_name = "ac";
  // The deck's Siconos solver (NSN-AC, id 504) ran without line search
  // (masonry_wall.md §3.1).
  std::string line_search_name = "none";
  std::string cold_start_name = "auto";
  // Start each step from 2 x_{k-1} - x_{k-2} (fcsn::ExtrapolateGuess) instead
  // of x_{k-1}; the exported /guesses/1 stays x_{k-1}.
  bool extrapolate_guess = false;
  // Outputs.
  std::string log_path;           // "": no CSV log
  std::string export_dir;         // "": no FCLib export
  std::vector<int> export_steps;  // empty: the 50 LowWall_FEM counters
  bool skip_naming = false;       // name the exported files i00000
  std::string vtk_dir;            // "": no ParaView files
};

// Registers every option of the command line on app, writing into *s.
void AddCommandLineOptions(CLI::App* app, Settings* s) {
  app->add_option(
      "--steps", s->steps, "Number of time steps (default: the deck's 500)");
  app->add_option("--refine",
                  s->refine,
                  "Multiply the element counts per block (8 x 4 x 4) by F")
      ->check(CLI::Range(1, 8));
  app->add_flag(
      "--coarse", s->coarse, "Full blocks 4 x 2 x 2 elements (for quick runs)");
  app->add_flag(
      "--swap-friction",
      s->swap_friction,
      "Block-block 0.83 and block-support 0.53 (the draft paper's reading)");
  app->add_option("--mu-preset",
                  s->mu_preset,
                  "deck (0.53 / 0.83) or paper (0.83 / 0.53)")
      ->check(CLI::IsMember({"deck", "paper"}));
  app->add_option("--export-dir",
                  s->export_dir,
                  "Write the 50 LowWall_FEM steps as FCLib global files here "
                  "(created if missing)");
  app->add_option(
      "--log", s->log_path, "CSV run log, one row per step (default: none)");
  app->add_option("--tolerance",
                  s->tolerance,
                  "Tolerance of each step's solve (fcsn's criterion)");
  app->add_option(
      "--max-iterations", s->max_iterations, "Newton iterations per step");
  app->add_option("--solver", s->solver_name, "nsn, nsgs or hybrid");
  app->add_option("--cold-start",
                  s->cold_start_name,
                  "Start of the steps at rest (previous solution all zero): "
                  "zero, free-flight, bonded, auto or approaching");
  app->add_flag("--extrapolate-guess",
                s->extrapolate_guess,
                "Start each step from the linear extrapolation of the two "
                "previous solutions (fewer Newton iterations while the load "
                "ramps; the exported guess stays the previous solution)");
  app->add_option("--formulation", s->formulation_name, "ac, jm, nm or fb");
  app->add_option("--line-search",
                  s->line_search_name,
                  "none, armijo, goldstein, non-monotone");
  app->add_flag("--theta-gap",
                s->theta_gap,
                "w_N = gap / (theta h) instead of the deck's gap / h");
  app->add_option(
      "--export-steps",
      s->export_steps,
      "Export these steps instead of the 50 LowWall_FEM counters (needs "
      "--export-dir)");
  app->add_flag(
      "--skip-naming-solve",
      s->skip_naming,
      "Name the exported files i00000 instead of running NSN-AC "
      "at 1e-4 from the guess (a cold solve per file at large sizes)");
  app->add_option("--vtk",
                  s->vtk_dir,
                  "Write ParaView files per step (mesh, displacements, "
                  "velocities, contact forces; .vtu + .pvd) into this "
                  "directory (created if missing)");
}

// The options of every step's solve; nullopt if a choice is unknown.
std::optional<fcsn::SolverOptions> StepSolverOptions(const Settings& s) {
  const std::optional<fcsn::SolverType> solver_type =
      fcsn::SolverTypeFromString(s.solver_name);
  const std::optional<fcsn::Formulation> formulation =
      fcsn::FormulationFromString(s.formulation_name);
  const std::optional<fcsn::LineSearchType> line_search =
      fcsn::LineSearchTypeFromString(s.line_search_name);
  const std::optional<fcsn::ColdStart> cold_start =
      fcsn::ColdStartFromString(s.cold_start_name);
  if (!solver_type || !formulation || !line_search || !cold_start) {
    return std::nullopt;
  }
  fcsn::SolverOptions options;
  options.tolerance = s.tolerance;
  options.max_iterations = s.max_iterations;
  options.record_history = false;
  options.solver = *solver_type;
  options.formulation = *formulation;
  options.line_search.type = *line_search;
  options.cold_start = *cold_start;
  return options;
}

// The options of the exported files' naming solve: the LMGC90 dumps were named
// after the iterations of Siconos NSN-AC without line search at tol 1e-4
// (masonry_wall.md §3.1).
fcsn::SolverOptions NamingSolverOptions() {
  fcsn::SolverOptions options;
  options.formulation = fcsn::Formulation::kAlartCurnier;
  options.line_search.type = fcsn::LineSearchType::kNone;
  options.tolerance = 1e-4;
  options.max_iterations = 5000;  // the deck's itermax
  options.record_history = false;
  return options;
}

// The wall of the command line; nullopt if --coarse and --refine both are.
std::optional<fcsn::masonry::WallOptions> MakeWallOptions(const Settings& s) {
  fcsn::masonry::WallOptions options =
      fcsn::masonry::WallOptions::Refined(s.refine);
  if (s.coarse) {
    if (s.refine != 1) return std::nullopt;
    options = fcsn::masonry::WallOptions::Coarse();
  }
  if (s.swap_friction || s.mu_preset == "paper") options.SwapFriction();
  if (s.steps >= 0) options.num_steps = s.steps;
  if (s.theta_gap) {
    options.gap_scaling = fcsn::masonry::GapScaling::kOverThetaH;
  }
  return options;
}

// Prints the sizes and friction coefficients of the wall.
void PrintWallSizes(const MasonryWall& wall) {
  std::cout << "masonry wall: n = " << wall.n() << ", nc = " << wall.nc()
            << ", m = " << wall.m()
            << ", nnz(M) = " << wall.iteration_matrix().nonZeros()
            << ", nnz(H) = " << wall.H().nonZeros() << ", mu block-block "
            << wall.options().mu_block_block << ", block-support "
            << wall.options().mu_block_support << "\n";
}

// Runs and prints the §7 sanity checks of the wall; true if all pass.
bool PassesStaticChecks(const MasonryWall& wall) {
  bool checks_ok = true;
  for (const fcsn::masonry::CheckResult& check :
       fcsn::masonry::RunStaticChecks(wall)) {
    std::cout << (check.passed ? "  [ok]   " : "  [FAIL] ") << check.message
              << "\n";
    checks_ok = checks_ok && check.passed;
  }
  return checks_ok;
}

// The FCLib counters (step - 1) to export: export_steps - 1, or the 50 of the
// LowWall_FEM collection if export_steps is empty.
std::set<int> ExportCounters(const std::vector<int>& export_steps) {
  if (export_steps.empty()) {
    return std::set<int>(fcsn::masonry::FclibCollectionCounters().begin(),
                         fcsn::masonry::FclibCollectionCounters().end());
  }
  std::set<int> counters;
  for (int step : export_steps) counters.insert(step - 1);
  return counters;
}

// One time step as the loop solved it: what the export, the log and the
// progress line report. The loop keeps one across the steps, so that the
// problem and the solution reuse their storage.
struct SolvedStep {
  int k = 0;                    // step number, from 1 (FCLib counter k - 1)
  fcsn::GlobalProblem problem;  // M^, H, f, w, mu of step k
  fcsn::Solution guess;         // the previous step's (v, u, r)
  fcsn::Solution older;         // the (v, u, r) of the step before
  fcsn::Solution start;         // the extrapolated start (--extrapolate-guess)
  fcsn::Solution solution;      // the time-stepping solve
  fcsn::SolverSummary summary;  // of that solve
  double seconds = 0.0;         // wall-clock time of that solve
};

// Builds and solves step->k of the wall, from the previous step's solution
// or, with `extrapolate`, from its linear extrapolation (the contact set of
// the wall never changes, so the sizes always match).
void SolveStep(const MasonryWall& wall,
               bool extrapolate,
               fcsn::Solver* solver,
               SolvedStep* step) {
  wall.BuildStepProblem(&step->problem);
  std::swap(step->older, step->guess);
  step->guess = wall.last_solution();
  // At rest (v and r all zero) the guess carries nothing: Solve() then takes
  // the solver's cold start (SolverOptions::cold_start), as without a guess.
  const fcsn::Solution* start_guess = &step->guess;
  if (extrapolate && step->k > 2 &&
      fcsn::ExtrapolateGuess(step->older, step->guess, &step->start).empty()) {
    start_guess = &step->start;
  }
  const auto start = std::chrono::steady_clock::now();
  step->summary = solver->Solve(step->problem, start_guess, &step->solution);
  step->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
}

// The phase of the loading protocol (§6.5) at step k.
std::string LoadingPhase(const MasonryWall& wall, int k) {
  const fcsn::masonry::WallOptions& options = wall.options();
  if (k < options.gravity_ramp_last_step) return "gravity/compression ramp";
  return wall.ShearVelocityAt(k * options.h) == 0.0 ? "compression" : "shear";
}

// The /fclib_global/info of an exported step: title, description (loading
// phase, friction, how the solution and the naming solve ended) and the
// time-stepping scheme. naming is nullptr with --skip-naming-solve.
fcsn::WriteOptions ExportInfo(const MasonryWall& wall,
                              const SolvedStep& step,
                              const fcsn::SolverSummary* naming) {
  const fcsn::masonry::WallOptions& options = wall.options();
  const int k = step.k;
  fcsn::WriteOptions info;
  info.title = "LowWall_FEM (fcsn masonry_wall generator)";
  info.description =
      "Masonry low-wall shear test, step " + std::to_string(k) +
      ", t = " + std::to_string(k * options.h) + " s, " +
      LoadingPhase(wall, k) + "; mu block-block " +
      std::to_string(options.mu_block_block) + ", block-support " +
      std::to_string(options.mu_block_support) + "; solution status " +
      fcsn::ToString(step.summary.status) +
      (naming == nullptr
           ? std::string(", NSN-AC@1e-4 not run")
           : std::string(", NSN-AC@1e-4 ") + fcsn::ToString(naming->status) +
                 " in " + std::to_string(naming->iterations) + " iterations");
  info.math_info =
      "Moreau-Jean theta-method, theta = " + std::to_string(options.theta) +
      ", h = " + std::to_string(options.h) +
      " s; M = M_lumped + (h theta beta + h^2 theta^2) K; w_N = gap / " +
      (options.gap_scaling == fcsn::masonry::GapScaling::kOverH ? "h"
                                                                : "(theta h)");
  return info;
}

// Writes the solved step as an FCLib global file into dir, with /guesses/1 =
// the guess, named after the naming solver's iterations from that guess (0 if
// naming_solver is nullptr). False and *error set if the file is not written.
bool ExportStep(const std::string& dir,
                const MasonryWall& wall,
                const SolvedStep& step,
                fcsn::Solver* naming_solver,
                std::string* error) {
  std::optional<fcsn::SolverSummary> naming;
  if (naming_solver != nullptr) {
    fcsn::Solution naming_result;
    naming = naming_solver->Solve(step.problem, &step.guess, &naming_result);
  }
  const int iterations = naming ? naming->iterations : 0;
  const std::string path =
      dir + "/" +
      fcsn::masonry::FclibFileName(iterations, step.problem.nc(), step.k - 1);
  const std::vector<fcsn::Solution> guesses = {step.guess};
  return fcsn::WriteGlobalProblem(
      path,
      step.problem,
      &step.solution,
      &guesses,
      error,
      ExportInfo(wall, step, naming ? &*naming : nullptr));
}

// The CSV run log: one row per step, the solve then per contact group the
// contacts by status and the impulse sums, then the smallest gap.
void WriteLogHeader(std::ostream& out) {
  out << "step,time,gravity,shear_velocity,status,iterations,error,e_nat,solve_"
         "seconds";
  for (ContactGroup g : kAllContactGroups) {
    const std::string name = fcsn::masonry::ToString(g);
    out << "," << name << "_open," << name << "_stick," << name << "_slip,"
        << name << "_sum_rn," << name << "_sum_px," << name << "_sum_pz";
  }
  out << ",min_gap\n";
}

void WriteLogRow(std::ostream& out,
                 const MasonryWall& wall,
                 const SolvedStep& step,
                 const fcsn::masonry::StepDiagnostics& diag,
                 double min_gap) {
  const double h = wall.options().h;
  const fcsn::SolverSummary& summary = step.summary;
  char buffer[256];
  std::snprintf(buffer,
                sizeof(buffer),
                "%d,%.6g,%.6g,%.6g,%s,%d,%.3e,%.3e,%.4f",
                step.k,
                step.k * h,
                wall.GravityAtStep(step.k),
                wall.ShearVelocityAt(step.k * h),
                fcsn::ToString(summary.status),
                summary.iterations,
                summary.WorstError(),
                summary.e_nat,
                step.seconds);
  out << buffer;
  for (ContactGroup g : kAllContactGroups) {
    const fcsn::masonry::GroupDiagnostics& d = diag.group(g);
    std::snprintf(buffer,
                  sizeof(buffer),
                  ",%d,%d,%d,%.10g,%.10g,%.10g",
                  d.open,
                  d.stick,
                  d.slip,
                  d.sum_r_n,
                  d.sum_impulse.x(),
                  d.sum_impulse.z());
    out << buffer;
  }
  std::snprintf(buffer, sizeof(buffer), ",%.3e\n", min_gap);
  out << buffer;
}

// One progress line: the solve, the vertical impulse per interface, the
// sliding contacts of bed joint 2-3 and the smallest gap.
void PrintProgress(const SolvedStep& step,
                   const fcsn::masonry::StepDiagnostics& diag,
                   double min_gap) {
  std::printf(
      "step %4d  %-14s it %3d  %7.3fs  top %.4f bed23 %.4f bed12 %.4f "
      "bottom %.4f N.s  "
      "slip bed23 %d/%d  gap %.1e\n",
      step.k,
      fcsn::ToString(step.summary.status),
      step.summary.iterations,
      step.seconds,
      diag.group(ContactGroup::kTopSupport).sum_r_n,
      diag.group(ContactGroup::kBedJoint23).sum_r_n,
      diag.group(ContactGroup::kBedJoint12).sum_r_n,
      diag.group(ContactGroup::kBottomSupport).sum_r_n,
      diag.group(ContactGroup::kBedJoint23).slip,
      diag.group(ContactGroup::kBedJoint23).contacts,
      min_gap);
  std::fflush(stdout);
}

// Counts of a run, for its last line and its exit code.
struct RunTotals {
  int failures = 0;  // steps whose solve did not converge
  int exported = 0;  // FCLib files written
};

void PrintRunSummary(int num_steps,
                     double seconds,
                     const RunTotals& totals,
                     const std::string& log_path) {
  std::cout << num_steps << " steps in " << seconds << " s, " << totals.failures
            << " unconverged, " << totals.exported << " files exported"
            << (log_path.empty() ? "" : ", log " + log_path) << "\n";
}

// The time loop: solves every step of the wall, exports the chosen steps,
// advances the wall, writes the VTK files, the log row and the progress.
// Returns the exit code: 0, 1 if a file cannot be written or a step not
// accepted, 3 if a step did not converge. log: nullptr without --log.
int RunTimeSteps(const Settings& settings,
                 const fcsn::SolverOptions& solver_options,
                 MasonryWall* wall,
                 std::ostream* log) {
  fcsn::Solver solver(solver_options);
  fcsn::Solver naming_solver(NamingSolverOptions());
  const std::set<int> export_counters = ExportCounters(settings.export_steps);
  std::optional<fcsn::masonry::MasonryVtkSeries> vtk;
  if (!settings.vtk_dir.empty()) vtk.emplace(settings.vtk_dir);
  const int num_steps = wall->options().num_steps;
  SolvedStep step;
  RunTotals totals;
  std::string error;
  const auto run_start = std::chrono::steady_clock::now();
  for (step.k = 1; step.k <= num_steps; ++step.k) {
    SolveStep(*wall, settings.extrapolate_guess, &solver, &step);
    if (!step.summary.IsConverged()) {
      ++totals.failures;
      std::cerr << "step " << step.k << ": " << step.summary.BriefReport()
                << "\n";
    }
    const fcsn::masonry::StepDiagnostics diag = wall->Diagnose(step.solution);
    if (!settings.export_dir.empty() && export_counters.count(step.k - 1)) {
      if (!ExportStep(settings.export_dir,
                      *wall,
                      step,
                      settings.skip_naming ? nullptr : &naming_solver,
                      &error)) {
        std::cerr << "masonry_wall: " << error << "\n";
        return 1;
      }
      ++totals.exported;
    }
    if (!wall->Advance(step.solution, &error)) {
      std::cerr << "masonry_wall: step " << step.k << ": " << error << "\n";
      return 1;
    }
    if (vtk && !vtk->WriteStep(*wall, &error)) {
      std::cerr << "masonry_wall: " << error << "\n";
      return 1;
    }
    const double min_gap = wall->Gaps().minCoeff();
    if (log != nullptr) WriteLogRow(*log, *wall, step, diag, min_gap);
    if (step.k % 10 == 0 || step.k == num_steps) {
      PrintProgress(step, diag, min_gap);
    }
  }
  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - run_start)
                             .count();
  PrintRunSummary(num_steps, seconds, totals, settings.log_path);
  return totals.failures == 0 ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv) {
  // The mpi flavour's solver needs MPI_Init (one process is enough: the
  // np 1 vs np 2 test of tests/mpi generates its wall steps so).
  const fcsn::cli::MpiSession session(&argc, &argv);
  CLI::App app{
      "Masonry low-wall shear test: theta-method time stepping with "
      "fcsn::Solver"};
  Settings settings;
  AddCommandLineOptions(&app, &settings);
  CLI11_PARSE(app, argc, argv);
  const std::optional<fcsn::SolverOptions> solver_options =
      StepSolverOptions(settings);
  if (!solver_options) {
    std::cerr << "masonry_wall: unknown --solver, --formulation, "
                 "--line-search or --cold-start value\n";
    return 2;
  }
  const std::optional<fcsn::masonry::WallOptions> wall_options =
      MakeWallOptions(settings);
  if (!wall_options) {
    std::cerr << "masonry_wall: --coarse and --refine are exclusive\n";
    return 2;
  }
  std::string error;
  const std::unique_ptr<MasonryWall> wall =
      MasonryWall::Create(*wall_options, &error);
  if (wall == nullptr) {
    std::cerr << "masonry_wall: " << error << "\n";
    return 2;
  }
  PrintWallSizes(*wall);
  if (!PassesStaticChecks(*wall)) {
    std::cerr << "masonry_wall: a sanity check failed\n";
    return 1;
  }
  for (const std::string* dir : {&settings.export_dir, &settings.vtk_dir}) {
    if (std::string why = fcsn::fem::CreateOutputDirectory(*dir);
        !why.empty()) {
      std::cerr << "masonry_wall: " << why << "\n";
      return 2;
    }
  }
  std::ofstream log;
  if (!settings.log_path.empty()) {
    if (std::string why = fcsn::fem::OpenLog(settings.log_path, &log);
        !why.empty()) {
      std::cerr << "masonry_wall: " << why << "\n";
      return 2;
    }
    WriteLogHeader(log);
  }
  return RunTimeSteps(settings,
                      *solver_options,
                      wall.get(),
                      settings.log_path.empty() ? nullptr : &log);
}
