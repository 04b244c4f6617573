// masonry_wall: time-stepping of the masonry low-wall shear test
// (shared/docs/masonry_wall.md), one FCLib global problem per step solved by
// fcsn::Solver, warm-started from the previous step. While the wall is still
// at rest (the previous solution is all zero: the first loaded step), a step
// starts cold instead, by SolverOptions::cold_start (--cold-start, default
// auto: the resting contacts start bonded, 1-4 Newton iterations where the
// all-zero guess needs 20-200; bench/results/gravity_steps.md).
//
//   masonry_wall [--steps N] [--refine F | --coarse] [--swap-friction]
//   [--export-dir DIR]
//                [--log FILE] [--tolerance TOL] [--cold-start C]
//
// Writes a CSV run log (one row per step: contacts by status per group, solver
// iterations and time, impulse sums) and, with --export-dir, the 50 steps of
// the FCLib LowWall_FEM collection (counter = step - 1) as FCLib global files
// with /guesses/1 = the previous step's (v, u, r) and /solution = the
// time-stepping solve. The file name carries the NSN-AC iterations (no line
// search, tol 1e-4, from the guess), as the LMGC90 dumps did (0 with
// --skip-naming-solve).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/mpi_session.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"
#include "masonry_vtk.h"
#include "masonry_wall_model.h"
#include "sanity_checks.h"

namespace {

using fcsn::masonry::ContactGroup;
using fcsn::masonry::kAllContactGroups;

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
                 const fcsn::masonry::MasonryWall& wall,
                 int step,
                 const fcsn::SolverSummary& summary,
                 double seconds,
                 const fcsn::masonry::StepDiagnostics& diag,
                 double min_gap) {
  const double h = wall.options().h;
  char buffer[256];
  std::snprintf(buffer,
                sizeof(buffer),
                "%d,%.6g,%.6g,%.6g,%s,%d,%.3e,%.3e,%.4f",
                step,
                step * h,
                wall.GravityAtStep(step),
                wall.ShearVelocityAt(step * h),
                fcsn::ToString(summary.status),
                summary.iterations,
                summary.WorstError(),
                summary.e_nat,
                seconds);
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

// True when s is the wall at rest: no velocity, relative velocity or impulse.
bool IsAtRest(const fcsn::Solution& s) {
  return s.v.isZero(0.0) && s.u.isZero(0.0) && s.r.isZero(0.0);
}

}  // namespace

int main(int argc, char** argv) {
  // The mpi flavour's solver needs MPI_Init (one process is enough: the
  // np 1 vs np 2 test of tests/mpi generates its wall steps so).
  const fcsn::cli::MpiSession session(&argc, &argv);
  CLI::App app{
      "Masonry low-wall shear test: theta-method time stepping with "
      "fcsn::Solver"};
  int steps = -1;
  int refine = 1;
  bool coarse = false;
  bool swap_friction = false;
  std::string mu_preset = "deck";
  std::string export_dir;
  std::string log_path = "masonry_wall_log.csv";
  double tolerance = 1e-10;
  int max_iterations = 200;
  app.add_option(
      "--steps", steps, "Number of time steps (default: the deck's 500)");
  app.add_option("--refine",
                 refine,
                 "Multiply the element counts per block (8 x 4 x 4) by F")
      ->check(CLI::Range(1, 8));
  app.add_flag(
      "--coarse", coarse, "Full blocks 4 x 2 x 2 elements (for quick runs)");
  app.add_flag(
      "--swap-friction",
      swap_friction,
      "Block-block 0.83 and block-support 0.53 (the draft paper's reading)");
  app.add_option(
         "--mu-preset", mu_preset, "deck (0.53 / 0.83) or paper (0.83 / 0.53)")
      ->check(CLI::IsMember({"deck", "paper"}));
  app.add_option("--export-dir",
                 export_dir,
                 "Write the 50 LowWall_FEM steps as FCLib global files here");
  app.add_option("--log", log_path, "CSV run log, one row per step");
  app.add_option("--tolerance",
                 tolerance,
                 "Tolerance of each step's solve (fcsn's criterion)");
  app.add_option(
      "--max-iterations", max_iterations, "Newton iterations per step");
  std::string solver_name = "nsn";
  std::string formulation_name = "ac";
  // The deck's Siconos solver (NSN-AC, id 504) ran without line search
  // (masonry_wall.md §3.1).
  std::string line_search_name = "none";
  std::vector<int> export_steps;
  std::string cold_start_name = "auto";
  app.add_option("--solver", solver_name, "nsn, nsgs or hybrid");
  app.add_option("--cold-start",
                 cold_start_name,
                 "Start of the steps at rest (previous solution all zero): "
                 "zero, free-flight, bonded or auto");
  app.add_option("--formulation", formulation_name, "ac, jm, nm or fb");
  app.add_option("--line-search",
                 line_search_name,
                 "none, armijo, goldstein, non-monotone");
  bool theta_gap = false;
  app.add_flag("--theta-gap",
               theta_gap,
               "w_N = gap / (theta h) instead of the deck's gap / h");
  app.add_option(
      "--export-steps",
      export_steps,
      "Export these steps instead of the 50 LowWall_FEM counters (needs "
      "--export-dir)");
  bool skip_naming = false;
  app.add_flag("--skip-naming-solve",
               skip_naming,
               "Name the exported files i00000 instead of running NSN-AC "
               "at 1e-4 from the guess (a cold solve per file at large sizes)");
  std::string vtk_dir;
  app.add_option("--vtk",
                 vtk_dir,
                 "Write ParaView files per step (mesh, displacements, "
                 "velocities, contact forces; .vtu + .pvd) into this "
                 "existing directory");
  CLI11_PARSE(app, argc, argv);
  const std::optional<fcsn::SolverType> solver_type =
      fcsn::SolverTypeFromString(solver_name);
  const std::optional<fcsn::Formulation> formulation =
      fcsn::FormulationFromString(formulation_name);
  const std::optional<fcsn::LineSearchType> line_search =
      fcsn::LineSearchTypeFromString(line_search_name);
  const std::optional<fcsn::ColdStart> cold_start =
      fcsn::ColdStartFromString(cold_start_name);
  if (!solver_type || !formulation || !line_search || !cold_start) {
    std::cerr << "masonry_wall: unknown --solver, --formulation, "
                 "--line-search or --cold-start value\n";
    return 2;
  }

  fcsn::masonry::WallOptions options =
      fcsn::masonry::WallOptions::Refined(refine);
  if (coarse) {
    if (refine != 1) {
      std::cerr << "masonry_wall: --coarse and --refine are exclusive\n";
      return 2;
    }
    options = fcsn::masonry::WallOptions::Coarse();
  }
  if (swap_friction || mu_preset == "paper") options.SwapFriction();
  if (steps >= 0) options.num_steps = steps;
  if (theta_gap) options.gap_scaling = fcsn::masonry::GapScaling::kOverThetaH;

  std::string error;
  std::unique_ptr<fcsn::masonry::MasonryWall> wall =
      fcsn::masonry::MasonryWall::Create(options, &error);
  if (wall == nullptr) {
    std::cerr << "masonry_wall: " << error << "\n";
    return 2;
  }
  std::cout << "masonry wall: n = " << wall->n() << ", nc = " << wall->nc()
            << ", m = " << wall->m()
            << ", nnz(M) = " << wall->iteration_matrix().nonZeros()
            << ", nnz(H) = " << wall->H().nonZeros() << ", mu block-block "
            << options.mu_block_block << ", block-support "
            << options.mu_block_support << "\n";
  bool checks_ok = true;
  for (const fcsn::masonry::CheckResult& check :
       fcsn::masonry::RunStaticChecks(*wall)) {
    std::cout << (check.passed ? "  [ok]   " : "  [FAIL] ") << check.message
              << "\n";
    checks_ok = checks_ok && check.passed;
  }
  if (!checks_ok) {
    std::cerr << "masonry_wall: a sanity check failed\n";
    return 1;
  }

  std::ofstream log(log_path);
  if (!log) {
    std::cerr << "masonry_wall: cannot write " << log_path << "\n";
    return 2;
  }
  WriteLogHeader(log);

  fcsn::SolverOptions solver_options;
  solver_options.tolerance = tolerance;
  solver_options.max_iterations = max_iterations;
  solver_options.record_history = false;
  solver_options.solver = *solver_type;
  solver_options.formulation = *formulation;
  solver_options.line_search.type = *line_search;
  solver_options.cold_start = *cold_start;
  fcsn::Solver solver(solver_options);
  // The LMGC90 dumps were named after the iterations of Siconos NSN-AC without
  // line search at tol 1e-4 (masonry_wall.md §3.1); the same count is computed
  // for the exported steps.
  fcsn::SolverOptions naming_options;
  naming_options.formulation = fcsn::Formulation::kAlartCurnier;
  naming_options.line_search.type = fcsn::LineSearchType::kNone;
  naming_options.tolerance = 1e-4;
  naming_options.max_iterations = 5000;  // the deck's itermax
  naming_options.record_history = false;
  fcsn::Solver naming_solver(naming_options);
  std::set<int> export_counters(
      fcsn::masonry::FclibCollectionCounters().begin(),
      fcsn::masonry::FclibCollectionCounters().end());
  if (!export_steps.empty()) {
    export_counters.clear();
    for (int step : export_steps) export_counters.insert(step - 1);
  }

  std::optional<fcsn::masonry::MasonryVtkSeries> vtk;
  if (!vtk_dir.empty()) vtk.emplace(vtk_dir);
  fcsn::GlobalProblem problem;
  fcsn::Solution solution;
  int failures = 0;
  int exported = 0;
  const auto run_start = std::chrono::steady_clock::now();
  for (int k = 1; k <= options.num_steps; ++k) {
    wall->BuildStepProblem(&problem);
    const fcsn::Solution guess = wall->last_solution();
    // At rest the guess carries nothing: the solver's cold start does better.
    const fcsn::Solution* start_guess = IsAtRest(guess) ? nullptr : &guess;
    const auto start = std::chrono::steady_clock::now();
    const fcsn::SolverSummary summary =
        solver.Solve(problem, start_guess, &solution);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (!summary.IsConverged()) {
      ++failures;
      std::cerr << "step " << k << ": " << summary.BriefReport() << "\n";
    }
    const fcsn::masonry::StepDiagnostics diag = wall->Diagnose(solution);

    const int counter = k - 1;
    if (!export_dir.empty() && export_counters.count(counter) > 0) {
      fcsn::Solution naming_result;
      const fcsn::SolverSummary naming =
          skip_naming ? fcsn::SolverSummary{}
                      : naming_solver.Solve(problem, &guess, &naming_result);
      const std::string path = export_dir + "/" +
                               fcsn::masonry::FclibFileName(
                                   naming.iterations, problem.nc(), counter);
      fcsn::WriteOptions write_options;
      write_options.title = "LowWall_FEM (fcsn masonry_wall generator)";
      write_options.description =
          "Masonry low-wall shear test, step " + std::to_string(k) +
          ", t = " + std::to_string(k * options.h) + " s, " +
          (k < options.gravity_ramp_last_step
               ? "gravity/compression ramp"
               : (wall->ShearVelocityAt(k * options.h) == 0.0 ? "compression"
                                                              : "shear")) +
          "; mu block-block " + std::to_string(options.mu_block_block) +
          ", block-support " + std::to_string(options.mu_block_support) +
          "; solution status " + fcsn::ToString(summary.status) +
          (skip_naming ? std::string(", NSN-AC@1e-4 not run")
                       : std::string(", NSN-AC@1e-4 ") +
                             fcsn::ToString(naming.status) + " in " +
                             std::to_string(naming.iterations) + " iterations");
      write_options.math_info =
          "Moreau-Jean theta-method, theta = " + std::to_string(options.theta) +
          ", h = " + std::to_string(options.h) +
          " s; M = M_lumped + (h theta beta + h^2 theta^2) K; w_N = gap / " +
          (options.gap_scaling == fcsn::masonry::GapScaling::kOverH
               ? "h"
               : "(theta h)");
      const std::vector<fcsn::Solution> guesses = {guess};
      if (!fcsn::WriteGlobalProblem(
              path, problem, &solution, &guesses, &error, write_options)) {
        std::cerr << "masonry_wall: " << error << "\n";
        return 1;
      }
      ++exported;
    }

    if (!wall->Advance(solution, &error)) {
      std::cerr << "masonry_wall: step " << k << ": " << error << "\n";
      return 1;
    }
    if (vtk && !vtk->WriteStep(*wall, &error)) {
      std::cerr << "masonry_wall: " << error << "\n";
      return 1;
    }
    const double min_gap = wall->Gaps().minCoeff();
    WriteLogRow(log, *wall, k, summary, seconds, diag, min_gap);
    if (k % 10 == 0 || k == options.num_steps) {
      std::printf(
          "step %4d  %-14s it %3d  %7.3fs  top %.4f bed23 %.4f bed12 %.4f "
          "bottom %.4f N.s  "
          "slip bed23 %d/%d  gap %.1e\n",
          k,
          fcsn::ToString(summary.status),
          summary.iterations,
          seconds,
          diag.group(ContactGroup::kTopSupport).sum_r_n,
          diag.group(ContactGroup::kBedJoint23).sum_r_n,
          diag.group(ContactGroup::kBedJoint12).sum_r_n,
          diag.group(ContactGroup::kBottomSupport).sum_r_n,
          diag.group(ContactGroup::kBedJoint23).slip,
          diag.group(ContactGroup::kBedJoint23).contacts,
          min_gap);
      std::fflush(stdout);
    }
  }
  const double total = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - run_start)
                           .count();
  std::cout << options.num_steps << " steps in " << total << " s, " << failures
            << " unconverged, " << exported << " files exported, log "
            << log_path << "\n";
  return failures == 0 ? 0 : 3;
}
