#include "test_problems.h"

#include <Eigen/Geometry>
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

GlobalProblem MakeBoxStack(int boxes, double mu, double push, double h) {
  const double gravity = 9.81;
  const double mass = 1.0;
  const double inertia = mass / 6.0;  // unit cube about its centre
  const int n = 6 * boxes;
  GlobalProblem problem;
  std::vector<Eigen::Triplet<double>> m_triplets;
  for (int b = 0; b < boxes; ++b) {
    for (int k = 0; k < 3; ++k)
      m_triplets.emplace_back(6 * b + k, 6 * b + k, mass);
    for (int k = 3; k < 6; ++k)
      m_triplets.emplace_back(6 * b + k, 6 * b + k, inertia);
  }
  problem.M.resize(n, n);
  problem.M.setFromTriplets(m_triplets.begin(), m_triplets.end());
  problem.M.makeCompressed();
  problem.f = Eigen::VectorXd::Zero(n);
  for (int b = 0; b < boxes; ++b) problem.f[6 * b + 2] = -h * mass * gravity;
  problem.f[6 * (boxes - 1)] += h * push * mu * mass * gravity * boxes;

  // Interface i lies at height i (box b occupies [b, b + 1] in z, centre b +
  // 0.5); the box above is the candidate (u = its velocity minus the lower
  // body's at the contact point).
  const Eigen::Vector3d directions[3] = {Eigen::Vector3d::UnitZ(),
                                         Eigen::Vector3d::UnitX(),
                                         Eigen::Vector3d::UnitY()};
  std::vector<Eigen::Triplet<double>> h_triplets;
  int a = 0;
  for (int i = 0; i < boxes; ++i) {
    for (double x : {-0.5, 0.5}) {
      for (double y : {-0.5, 0.5}) {
        const Eigen::Vector3d point(x, y, i);
        for (int k = 0; k < 3; ++k) {
          const Eigen::Vector3d& d = directions[k];
          auto add_body = [&](int body, double sign) {
            const Eigen::Vector3d arm =
                point - Eigen::Vector3d(0.0, 0.0, body + 0.5);
            const Eigen::Vector3d angular =
                arm.cross(d);  // d . (omega x arm) = omega . (arm x d)
            for (int c = 0; c < 3; ++c) {
              if (d[c] != 0.0)
                h_triplets.emplace_back(6 * body + c, 3 * a + k, sign * d[c]);
              if (angular[c] != 0.0) {
                h_triplets.emplace_back(
                    6 * body + 3 + c, 3 * a + k, sign * angular[c]);
              }
            }
          };
          add_body(i, 1.0);
          if (i > 0) add_body(i - 1, -1.0);
        }
        ++a;
      }
    }
  }
  const int nc = a;
  problem.H.resize(n, 3 * nc);
  problem.H.setFromTriplets(h_triplets.begin(), h_triplets.end());
  problem.H.makeCompressed();
  problem.w = Eigen::VectorXd::Zero(3 * nc);
  problem.mu = Eigen::VectorXd::Constant(nc, mu);
  return problem;
}

GlobalProblem OneContact(double mu,
                         const Eigen::Vector3d& f,
                         const Eigen::Vector3d& w) {
  GlobalProblem p;
  p.M.resize(3, 3);
  p.M.setIdentity();
  p.H.resize(3, 3);
  p.H.setIdentity();
  p.f = f;
  p.w = w;
  p.mu = Eigen::VectorXd::Constant(1, mu);
  return p;
}

GlobalProblem WithoutLastContact(GlobalProblem problem) {
  const int m = problem.m() - 3;
  problem.H = SparseMatrix(problem.H.leftCols(m));
  problem.H.makeCompressed();
  problem.w = Eigen::VectorXd(problem.w.head(m));
  problem.mu = Eigen::VectorXd(problem.mu.head(problem.nc() - 1));
  return problem;
}

GlobalProblem WithoutM(const GlobalProblem& problem) {
  GlobalProblem p = problem;
  p.M.resize(problem.n(), problem.n());
  p.M.data().squeeze();
  p.M.makeCompressed();
  return p;
}

}  // namespace fcsn::testing
