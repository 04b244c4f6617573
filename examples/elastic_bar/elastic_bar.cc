// elastic_bar: Moreau-Jean time stepping of a stiff elastic bar sliding on a
// rigid plane (elastic_bar_model.h), one FCLib global problem per step solved
// by one fcsn::Solver, warm-started from the previous step's (v, u, r).
//
//   elastic_bar [--steps N] [--nx NX --ny NY --nz NZ] [--length L --width W
//               --thickness T] [--young E] [--consistent-mass] [--mu MU]
//               [--velocity V0] [--h H] [--theta TH]
//               [--push-factor F [--push-ramp-steps R]]
//               [--solver hybrid|nsn|nsgs] [--tolerance TOL]
//               [--export-dir DIR [--export-steps K ...]] [--log FILE]
//
// Writes nothing unless asked: with --log FILE a CSV log (one row per step:
// status, iterations, solve time, the error measures e_cone, e_dual, e_comp,
// e_eq, e_nat, contact statuses and impulse sums, and "sliding": the contacts
// labelled slip by fcsn::ClassifySolution at the solve's tolerance; a step
// whose count differs from the previous step's is a front step; the step's
// factorizations of J and their seconds) and, with
// --export-dir DIR (created if missing), the selected steps (all by default)
// as FCLib global files with /solution = the step's solve and /guesses/1 = the
// previous step's solution (none at step 1). Exit status 3 if a step did not
// converge.
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

#include "contact_steps.h"
#include "elastic_bar_model.h"
#include "fcsn/contact_status.h"
#include "fcsn/fclib_io.h"
#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "fcsn/solver.h"
#include "fcsn/summary.h"

namespace {

using fcsn::elastic_bar::BarOptions;
using fcsn::elastic_bar::ElasticBar;
using fcsn::elastic_bar::StepDiagnostics;

struct Settings {
  BarOptions bar;
  int steps = 10;
  std::string solver = "hybrid";
  double tolerance = 1e-10;
  int max_iterations = 100;
  std::string export_dir;
  std::vector<int> export_steps;
  std::string log_path;  // "": no CSV log
};

void AddOptions(CLI::App* app, Settings* s) {
  BarOptions& b = s->bar;
  app->add_option("--steps", s->steps, "Number of time steps")
      ->capture_default_str();
  app->add_option("--nx", b.nx, "H8 elements along x")->capture_default_str();
  app->add_option("--ny", b.ny, "H8 elements along y")->capture_default_str();
  app->add_option("--nz", b.nz, "H8 elements along z")->capture_default_str();
  app->add_option("--length", b.length, "Bar length along x (m)")
      ->capture_default_str();
  app->add_option("--width", b.width, "Bar width along y (m)")
      ->capture_default_str();
  app->add_option("--thickness", b.thickness, "Bar thickness along z (m)")
      ->capture_default_str();
  app->add_option("--young", b.youngs_modulus, "Young's modulus E (Pa)")
      ->check(CLI::Range(1e3, 1e15))
      ->capture_default_str();
  app->add_flag("--consistent-mass",
                b.consistent_mass,
                "Consistent H8 mass matrix instead of the lumped one");
  app->add_option("--mu", b.mu, "Coulomb coefficient")->capture_default_str();
  app->add_option("--push-factor",
                  b.push_factor,
                  "Final push on the end face x = 0 / (mu m g); 0: none")
      ->capture_default_str();
  app->add_option("--push-ramp-steps",
                  b.push_ramp_steps,
                  "Steps of the push's linear ramp")
      ->capture_default_str();
  app->add_option("--velocity", b.initial_velocity, "Initial v_x (m/s)")
      ->capture_default_str();
  app->add_option("--h", b.h, "Time step (s)")->capture_default_str();
  app->add_option("--theta", b.theta, "Theta in (0, 1]")->capture_default_str();
  app->add_option("--beta", b.rayleigh_beta, "Rayleigh damping C = beta K (s)")
      ->capture_default_str();
  app->add_option("--solver",
                  s->solver,
                  "hybrid (the default policy), nsn "
                  "(pure Newton) or nsgs")
      ->capture_default_str();
  app->add_option("--tolerance", s->tolerance, "Tolerance of each step's solve")
      ->capture_default_str();
  app->add_option("--max-iterations", s->max_iterations, "Newton iterations")
      ->capture_default_str();
  app->add_option("--export-dir",
                  s->export_dir,
                  "Write FCLib files here (created if missing)");
  app->add_option("--export-steps",
                  s->export_steps,
                  "Steps to export (default: all; needs --export-dir)");
  app->add_option(
      "--log", s->log_path, "CSV log, one row per step (default: none)");
}

void WriteLogHeader(std::ostream& out) {
  out << "step,time,status,iterations,nsgs_sweeps,solve_seconds,e_cone,e_dual,"
         "e_comp,e_eq,e_nat,open,stick,slip,normal_over_weight,"
         "friction_over_normal,mean_vx,min_u_n,min_gap,sliding,"
         "factorizations,factorization_seconds\n";
}

void WriteLogRow(std::ostream& out,
                 const ElasticBar& bar,
                 const fcsn::SolverSummary& summary,
                 double seconds,
                 const StepDiagnostics& d,
                 int sliding) {
  const double normal = d.sum_r[0];
  char buffer[512];
  std::snprintf(buffer,
                sizeof(buffer),
                "%d,%.6g,%s,%d,%d,%.4f,%.3e,%.3e,%.3e,%.3e,%.3e,%d,%d,%d,%.10g,"
                "%.10g,%.10g,%.3e,%.3e,%d,%d,%.4f\n",
                bar.step(),
                bar.time(),
                fcsn::ToString(summary.status),
                summary.iterations,
                summary.nsgs_sweeps,
                seconds,
                summary.e_cone,
                summary.e_dual,
                summary.e_comp,
                summary.e_eq,
                summary.e_nat,
                d.open,
                d.stick,
                d.slip,
                normal / bar.weight_impulse(),
                normal > 0.0 ? -d.sum_r[1] / normal : 0.0,
                bar.MeanVelocity().x(),
                d.min_u_n,
                bar.Gaps().minCoeff(),
                sliding,
                summary.factorizations,
                summary.timings.factorization);
  out << buffer;
}

bool Export(const Settings& s,
            const ElasticBar& bar,
            const fcsn::GlobalProblem& problem,
            const fcsn::Solution& guess,
            const fcsn::Solution& solution,
            const fcsn::SolverSummary& summary,
            std::string* error) {
  const int k = bar.step() + 1;
  const std::string path =
      s.export_dir + "/" + fcsn::elastic_bar::FclibFileName(s.bar, bar.nc(), k);
  const BarOptions& b = s.bar;
  fcsn::WriteOptions options;
  options.title = "ElasticBar (fcsn elastic_bar generator)";
  options.description =
      "Bar (E " + std::to_string(b.youngs_modulus) + " Pa) " +
      std::to_string(b.length) + " x " + std::to_string(b.width) + " x " +
      std::to_string(b.thickness) + " m, " + std::to_string(b.nx) + " x " +
      std::to_string(b.ny) + " x " + std::to_string(b.nz) +
      " H8, on the plane z = 0, mu " + std::to_string(b.mu) + ", v0 " +
      std::to_string(b.initial_velocity) + " m/s; step " + std::to_string(k) +
      ", t = " + std::to_string(k * b.h) + " s; solution " +
      fcsn::ToString(summary.status) + " (" + s.solver + ", tol " +
      std::to_string(s.tolerance) + ")";
  options.math_info =
      "Moreau-Jean theta-method, theta = " + std::to_string(b.theta) +
      ", h = " + std::to_string(b.h) + " s; M = M_" +
      (b.consistent_mass ? "consistent" : "lumped") +
      " + (h theta beta + h^2 theta^2) K, beta = " +
      std::to_string(b.rayleigh_beta) + "; w_N = gap / h";
  std::vector<fcsn::Solution> guesses;
  if (guess.v.size() > 0) guesses.push_back(guess);
  return fcsn::WriteGlobalProblem(
      path, problem, &solution, &guesses, error, options);
}

// Contacts labelled slip at the answer x of problem (fcsn::ClassifySolution
// with the solve's tolerance and velocity floor); -1 if x does not fit.
int Sliding(const fcsn::GlobalProblem& problem,
            const fcsn::Solution& x,
            const fcsn::SolverSummary& summary,
            double tolerance) {
  std::vector<fcsn::ContactStatus> statuses;
  fcsn::ContactStatusScales scales;
  scales.tolerance = tolerance;
  scales.velocity_floor = summary.velocity_floor;
  if (!fcsn::ClassifySolution(problem, x, scales, &statuses)) return -1;
  return static_cast<int>(
      std::count(statuses.begin(), statuses.end(), fcsn::ContactStatus::kSlip));
}

// The console line of step k.
void PrintStep(int k,
               const fcsn::SolverSummary& summary,
               double seconds,
               const StepDiagnostics& diag,
               const ElasticBar& bar) {
  std::printf(
      "step %4d  %-14s it %3d  %8.3fs  open/stick/slip %d/%d/%d  "
      "vx %.6f\n",
      k,
      fcsn::ToString(summary.status),
      summary.iterations,
      seconds,
      diag.open,
      diag.stick,
      diag.slip,
      bar.MeanVelocity().x());
  std::fflush(stdout);
}

// The time-stepping loop: one Solver, each step warm-started from the last
// (x is both the guess and the result). Returns the exit status.
int RunSteps(const Settings& s,
             fcsn::SolverType solver_type,
             ElasticBar* bar,
             std::ostream* log) {
  fcsn::SolverOptions options;
  options.solver = solver_type;
  options.tolerance = s.tolerance;
  options.max_iterations = s.max_iterations;
  options.record_history = false;
  fcsn::Solver solver(options);
  const std::set<int> export_steps(s.export_steps.begin(),
                                   s.export_steps.end());
  fcsn::GlobalProblem problem;
  fcsn::Solution x;  // empty at step 1: no guess
  std::string error;
  int failures = 0;
  int exported = 0;
  for (int k = 1; k <= s.steps; ++k) {
    bar->BuildStepProblem(&problem);
    const bool export_this =
        !s.export_dir.empty() &&
        (export_steps.empty() || export_steps.count(k) > 0);
    const fcsn::Solution guess = export_this ? x : fcsn::Solution();
    const auto start = std::chrono::steady_clock::now();
    const fcsn::SolverSummary summary = solver.Solve(problem, &x, &x);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    if (!summary.IsConverged()) {
      ++failures;
      std::cerr << "step " << k << ": " << summary.BriefReport() << "\n";
    }
    const StepDiagnostics diag = bar->Diagnose(x);
    const int sliding = Sliding(problem, x, summary, s.tolerance);
    if (export_this) {
      if (!Export(s, *bar, problem, guess, x, summary, &error)) {
        std::cerr << "elastic_bar: " << error << "\n";
        return 1;
      }
      ++exported;
    }
    if (!bar->Advance(x, &error)) {
      std::cerr << "elastic_bar: step " << k << ": " << error << "\n";
      return 1;
    }
    if (log != nullptr) {
      WriteLogRow(*log, *bar, summary, seconds, diag, sliding);
    }
    PrintStep(k, summary, seconds, diag, *bar);
  }
  std::cout << s.steps << " steps, " << failures << " unconverged, " << exported
            << " files exported"
            << (s.log_path.empty() ? "" : ", log " + s.log_path) << "\n";
  return failures == 0 ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Stiff elastic bar sliding on a plane: Moreau-Jean time stepping "
      "with fcsn::Solver"};
  Settings s;
  AddOptions(&app, &s);
  CLI11_PARSE(app, argc, argv);
  const std::optional<fcsn::SolverType> solver_type =
      fcsn::SolverTypeFromString(s.solver);
  if (!solver_type) {
    std::cerr << "elastic_bar: unknown --solver " << s.solver << "\n";
    return 2;
  }
  std::string error;
  std::unique_ptr<ElasticBar> bar = ElasticBar::Create(s.bar, &error);
  if (bar == nullptr) {
    std::cerr << "elastic_bar: " << error << "\n";
    return 2;
  }
  std::cout << "elastic bar: n = " << bar->n() << ", nc = " << bar->nc()
            << ", m = " << bar->m()
            << ", nnz(M) = " << bar->iteration_matrix().nonZeros()
            << ", nnz(H) = " << bar->H().nonZeros()
            << ", mass = " << bar->total_mass() << " kg" << std::endl;
  std::ofstream log;
  if (!s.log_path.empty()) {
    if (std::string why = fcsn::fem::OpenLog(s.log_path, &log); !why.empty()) {
      std::cerr << "elastic_bar: " << why << "\n";
      return 2;
    }
    WriteLogHeader(log);
  }
  if (std::string why = fcsn::fem::CreateOutputDirectory(s.export_dir);
      !why.empty()) {
    std::cerr << "elastic_bar: " << why << "\n";
    return 2;
  }
  return RunSteps(
      s, *solver_type, bar.get(), s.log_path.empty() ? nullptr : &log);
}
