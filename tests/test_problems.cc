#include "test_problems.h"

#include <cmath>
#include <vector>

namespace fcsn::testing {

GlobalProblem MakeLatticeOnFloor(int nx,
                                 int ny,
                                 int nz,
                                 double mu,
                                 double pull_ratio,
                                 double gap,
                                 double stiffness,
                                 double h) {
  const double gravity = 9.81;
  const int nodes = nx * ny * nz;
  const int n = 3 * nodes;
  auto id = [&](int i, int j, int k) { return (k * ny + j) * nx + i; };
  std::vector<Eigen::Triplet<double>> triplets;
  for (int p = 0; p < n; ++p)
    triplets.emplace_back(p, p, 1.0);  // unit nodal mass
  auto add_spring = [&](int p, int q, const Eigen::Vector3d& d) {
    const Eigen::Vector3d e = d.normalized();
    const Eigen::Matrix3d block = h * h * stiffness * e * e.transpose();
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        triplets.emplace_back(3 * p + a, 3 * p + b, block(a, b));
        triplets.emplace_back(3 * q + a, 3 * q + b, block(a, b));
        triplets.emplace_back(3 * p + a, 3 * q + b, -block(a, b));
        triplets.emplace_back(3 * q + a, 3 * p + b, -block(a, b));
      }
    }
  };
  const int offsets[9][3] = {{1, 0, 0},
                             {0, 1, 0},
                             {0, 0, 1},
                             {1, 1, 0},
                             {1, -1, 0},
                             {1, 0, 1},
                             {1, 0, -1},
                             {0, 1, 1},
                             {0, 1, -1}};
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        for (const auto& o : offsets) {
          const int i2 = i + o[0], j2 = j + o[1], k2 = k + o[2];
          if (i2 < 0 || i2 >= nx || j2 < 0 || j2 >= ny || k2 < 0 || k2 >= nz)
            continue;
          add_spring(
              id(i, j, k), id(i2, j2, k2), Eigen::Vector3d(o[0], o[1], o[2]));
        }
      }
    }
  }
  GlobalProblem problem;
  problem.M.resize(n, n);
  problem.M.setFromTriplets(triplets.begin(), triplets.end());
  problem.M.makeCompressed();

  const int nc = nx * ny;
  problem.f = Eigen::VectorXd::Zero(n);
  for (int p = 0; p < nodes; ++p) problem.f[3 * p + 2] = -h * gravity;
  const double weight = gravity * nodes;
  const double pull_per_node = pull_ratio * mu * weight / (nx * ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i)
      problem.f[3 * id(i, j, nz - 1)] += h * pull_per_node;
  }
  std::vector<Eigen::Triplet<double>> h_triplets;
  for (int j = 0, a = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i, ++a) {
      const int p = id(i, j, 0);
      h_triplets.emplace_back(3 * p + 2, 3 * a, 1.0);      // N = +z
      h_triplets.emplace_back(3 * p + 0, 3 * a + 1, 1.0);  // T1 = +x
      h_triplets.emplace_back(3 * p + 1, 3 * a + 2, 1.0);  // T2 = +y
    }
  }
  problem.H.resize(n, 3 * nc);
  problem.H.setFromTriplets(h_triplets.begin(), h_triplets.end());
  problem.H.makeCompressed();
  problem.w = Eigen::VectorXd::Zero(3 * nc);
  for (int j = 0, a = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i, ++a)
      problem.w[3 * a] = gap * std::sin(1.3 * i + 0.7 * j);
  }
  problem.mu = Eigen::VectorXd::Constant(nc, mu);
  return problem;
}

}  // namespace fcsn::testing
