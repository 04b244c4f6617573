// The shared pieces of the time-stepping FE examples (fem/contact_steps.h).
#include "contact_steps.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace fcsn::fem {

std::string WhyUnusableStep(const std::string& who,
                            const Solution& solution,
                            int n,
                            int m) {
  if (solution.v.size() != n || solution.r.size() != m ||
      (solution.u.size() != 0 && solution.u.size() != m)) {
    return who + ": solution sizes (v " + std::to_string(solution.v.size()) +
           ", r " + std::to_string(solution.r.size()) +
           ") do not match n = " + std::to_string(n) +
           ", m = " + std::to_string(m) + ".";
  }
  if (!solution.v.allFinite() || !solution.r.allFinite())
    return who + ": v or r not finite.";
  return "";
}

double MaxNormalImpulse(const Eigen::VectorXd& r) {
  double max_rn = 0.0;
  for (Eigen::Index a = 0; 3 * a < r.size(); ++a)
    max_rn = std::max(max_rn, r[3 * a]);
  return max_rn;
}

ContactState ClassifyContact(const Eigen::Vector3d& r,
                             double mu,
                             double max_rn,
                             double open_tolerance,
                             double slip_tolerance) {
  if (r[0] <= open_tolerance * max_rn) return ContactState::kOpen;
  if (r.tail<2>().norm() >= (1.0 - slip_tolerance) * mu * r[0])
    return ContactState::kSlip;
  return ContactState::kStick;
}

std::string CreateOutputDirectory(const std::string& dir) {
  if (dir.empty()) return "";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  return ec ? "cannot create " + dir + ": " + ec.message() : "";
}

std::string OpenLog(const std::string& path, std::ofstream* log) {
  log->open(path);
  return *log ? "" : "cannot write " + path;
}

}  // namespace fcsn::fem
