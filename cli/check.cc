// `fcsn check FILE`: the error measures of formulations.md §9 at a stored
// solution.
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "cli/cli_util.h"
#include "cli/commands.h"
#include "fcsn/error_measures.h"
#include "fcsn/fclib_io.h"

namespace fcsn::cli {
namespace {

struct CheckArgs {
  std::string file;
  std::string solution_file;  // empty: FILE's own /solution
  double tol = kDefaultTolerance;
  bool json = false;
  std::string m_storage = ToString(MStorage::kAuto);
};

std::string Format(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3e", x);
  return buffer;
}

void RunCheck(const CheckArgs& args) {
  const MStorage m_storage = ParseMStorage(args.m_storage);
  if (!(args.tol >= 0.0)) FailBadInput("--tol must be >= 0");
  GlobalProblem problem;
  FclibFileInfo info;
  LoadProblemOrExit(args.file, m_storage, &problem, &info);
  const std::string solution_file =
      args.solution_file.empty() ? args.file : args.solution_file;
  if (args.solution_file.empty() && !info.has_solution) {
    FailBadInput(
        args.file +
        ": has no /solution group to check (pass --solution SOL.hdf5)");
  }
  Solution solution;
  ReadSolutionOrExit(solution_file, problem.n(), problem.m(), &solution);
  // q_free only enters the reported e_nat: a singular M leaves it undefined;
  // the criterion's floor then uses diag(M) (fcsn/error_measures.h).
  double q_free_norm = 0.0;
  std::string q_free_error;
  const bool has_q_free =
      ComputeQFreeNorm(problem, &q_free_norm, &q_free_error);
  const ErrorMeasures e = ComputeErrorMeasures(problem, solution.v, solution.r);
  const bool converged = e.Converged(args.tol);
  // Distance of a stored u to H^T v + w (u itself is never used by the
  // measures).
  double u_mismatch = 0.0;
  const bool has_u = solution.u.size() == problem.m();
  if (has_u) {
    const Eigen::VectorXd u = problem.H.transpose() * solution.v + problem.w;
    u_mismatch = (solution.u - u).norm() / std::max(1.0, u.norm());
  }
  if (args.json) {
    nlohmann::json out = {
        {"file", args.file},
        {"solution_file", solution_file},
        {"m_storage", ToString(m_storage)},
        {"m_symmetrized", info.m_symmetrized},
        {"n", problem.n()},
        {"m", problem.m()},
        {"nc", problem.nc()},
        {"tol", args.tol},
        {"e_cone", e.e_cone},
        {"e_dual", e.e_dual},
        {"e_comp", e.e_comp},
        {"e_eq", e.e_eq},
        {"error", e.Worst()},
        {"velocity_scale", e.velocity_scale},
        {"velocity_floor", e.velocity_floor},
        {"floor_from_diagonal", e.floor_from_diagonal},
        {"siconos_error", e.siconos_error},
        {"converged", converged},
    };
    if (has_q_free) {
      out["q_free_norm"] = q_free_norm;
      out["e_nat"] = e.e_nat;
    } else {
      out["q_free_norm"] = nullptr;
      out["e_nat"] = nullptr;
      out["e_nat_note"] = q_free_error;
    }
    if (has_u) out["stored_u_mismatch"] = u_mismatch;
    PrintJson(out);
  } else {
    std::cout << "file:          " << args.file << "\n";
    if (!args.solution_file.empty())
      std::cout << "solution:      " << solution_file << "\n";
    std::cout << "sizes:         n = " << problem.n() << ", m = " << problem.m()
              << ", nc = " << problem.nc()
              << (info.m_symmetrized ? " (M symmetrized)" : "") << "\n";
    std::cout << "e_cone:        " << Format(e.e_cone) << "   r in K\n";
    std::cout << "e_dual:        " << Format(e.e_dual) << "   u^ in K*\n";
    std::cout << "e_comp:        " << Format(e.e_comp) << "   r . u^ = 0\n";
    std::cout << "e_eq:          " << Format(e.e_eq)
              << "   backward error of M v = H r + f\n";
    std::cout << "s_u:           " << Format(e.velocity_scale)
              << "   scale of u (round-off floor s_eps "
              << Format(e.velocity_floor)
              << (e.floor_from_diagonal ? ", from diag(M): M not regular" : "")
              << ")\n";
    if (has_q_free) {
      std::cout << "e_nat:         " << Format(e.e_nat)
                << "   ||F_nat|| / ||q_free||, ||q_free|| = "
                << Format(q_free_norm) << " (reported only)\n";
    } else {
      std::cout << "e_nat:         n/a (" << q_free_error << ")\n";
    }
    std::cout << "siconos_error: " << Format(e.siconos_error)
              << "   (reported only)\n";
    if (has_u)
      std::cout << "stored u:      " << Format(u_mismatch)
                << " from H^T v + w\n";
    std::cout << (converged ? "converged" : "NOT converged") << " at tol "
              << Format(args.tol)
              << ": max(e_cone, e_dual, e_comp, e_eq) = " << Format(e.Worst())
              << "\n";
  }
  if (!converged) ExitWith(kExitNotConverged);
}

}  // namespace

void RegisterCheckCommand(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* command =
      app.add_subcommand("check",
                         "Error measures of a stored solution (e_cone, "
                         "e_dual, e_comp, e_eq decide; e_nat and Siconos' "
                         "measure reported); exit 0 if converged");
  command->add_option("file", args->file, "FCLib global problem (HDF5)")
      ->required();
  command->add_option("--solution",
                      args->solution_file,
                      "Take /solution from this FCLib file instead of FILE");
  command
      ->add_option(
          "--tol", args->tol, "Tolerance on max(e_cone, e_dual, e_comp, e_eq)")
      ->capture_default_str();
  command->add_flag(
      "--json", args->json, "Print one JSON object instead of text");
  AddMStorageOption(command, &args->m_storage);
  command->callback([args] { RunCheck(*args); });
}

}  // namespace fcsn::cli
