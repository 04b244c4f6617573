#include "test_util.h"

#include <unistd.h>

#include <Eigen/LU>
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "fcsn/error_measures.h"

namespace fcsn::testing {

std::string SharedDataDir() {
  return std::string(FCSN_SHARED_DIR) + "/data/gfc3d";
}

std::string SharedProblem(const std::string& file_name) {
  return SharedDataDir() + "/" + file_name;
}

std::string TempDir() {
  static const std::string dir = [] {
    std::filesystem::path p = std::filesystem::temp_directory_path() /
                              ("fcsn_test_" + std::to_string(::getpid()));
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p.string();
  }();
  return dir;
}

std::string TestNameFromFile(const std::string& file_name) {
  std::string name = file_name.substr(0, file_name.find('.'));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

double RelativeDistance(const Eigen::Ref<const Eigen::MatrixXd>& a,
                        const Eigen::Ref<const Eigen::MatrixXd>& b) {
  const double scale =
      std::max({a.norm(), b.norm(), std::numeric_limits<double>::min()});
  return (a - b).norm() / scale;
}

double DenseVelocityFloor(const Eigen::MatrixXd& M,
                          const Eigen::MatrixXd& H,
                          const Eigen::VectorXd& b) {
  const double eps = std::numeric_limits<double>::epsilon();
  Eigen::VectorXd x = Eigen::VectorXd::Zero(b.size());
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(M);
  if (M.size() > 0 && lu.rcond() > M.rows() * eps) {
    x = lu.solve(b);
  } else {
    for (int i = 0; i < b.size(); ++i)
      if (M(i, i) != 0.0) x[i] = b[i] / std::abs(M(i, i));
  }
  return kVelocityFloorFactor * eps *
         (H.cwiseAbs().transpose() * x.cwiseAbs()).norm();
}

}  // namespace fcsn::testing
