// h8_elasticity.cc: H8 element stiffness and mass and box-mesh assembly (see
// h8_elasticity.h).
#include "h8_elasticity.h"

#include <array>
#include <cmath>

namespace fcsn::fem {

Eigen::Vector3d HexGrid::NodePosition(int i, int j, int k) const {
  const Eigen::Vector3d size = upper - lower;
  return lower + Eigen::Vector3d(
                     size.x() * i / nx, size.y() * j / ny, size.z() * k / nz);
}

Eigen::Matrix<double, 24, 24> BrickStiffness(
    double a, double b, double c, double young, double nu) {
  const double lambda = young * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
  const double shear = young / (2.0 * (1.0 + nu));
  Eigen::Matrix<double, 6, 6> D = Eigen::Matrix<double, 6, 6>::Zero();
  D.topLeftCorner<3, 3>().setConstant(lambda);
  D.topLeftCorner<3, 3>().diagonal().array() += 2.0 * shear;
  D.bottomRightCorner<3, 3>().diagonal().setConstant(shear);

  const double gauss = 1.0 / std::sqrt(3.0);
  const double det_j = a * b * c / 8.0;
  Eigen::Matrix<double, 24, 24> ke = Eigen::Matrix<double, 24, 24>::Zero();
  for (int gp = 0; gp < 8; ++gp) {
    const double xi = (gp & 1) ? gauss : -gauss;
    const double eta = (gp & 2) ? gauss : -gauss;
    const double zeta = (gp & 4) ? gauss : -gauss;
    Eigen::Matrix<double, 6, 24> B = Eigen::Matrix<double, 6, 24>::Zero();
    for (int node = 0; node < 8; ++node) {
      const double si = (node & 1) ? 1.0 : -1.0;
      const double sj = (node & 2) ? 1.0 : -1.0;
      const double sk = (node & 4) ? 1.0 : -1.0;
      // dN/dx = dN/dxi * 2/a, N = (1 + si xi)(1 + sj eta)(1 + sk zeta) / 8.
      const double nx = si * (1 + sj * eta) * (1 + sk * zeta) / 8.0 * 2.0 / a;
      const double ny = sj * (1 + si * xi) * (1 + sk * zeta) / 8.0 * 2.0 / b;
      const double nz = sk * (1 + si * xi) * (1 + sj * eta) / 8.0 * 2.0 / c;
      const int col = 3 * node;
      // Strains (xx, yy, zz, yz, xz, xy), engineering shear.
      B(0, col) = nx;
      B(1, col + 1) = ny;
      B(2, col + 2) = nz;
      B(3, col + 1) = nz;
      B(3, col + 2) = ny;
      B(4, col) = nz;
      B(4, col + 2) = nx;
      B(5, col) = ny;
      B(5, col + 1) = nx;
    }
    ke += B.transpose() * D * B * det_j;
  }
  return ke;
}

namespace {

// Element size a x b x c of grid.
Eigen::Vector3d ElementSize(const HexGrid& grid) {
  return (grid.upper - grid.lower)
      .cwiseQuotient(Eigen::Vector3d(grid.nx, grid.ny, grid.nz));
}

// Global nodes of element (ei, ej, ek), local node i + 2 j + 4 k.
std::array<int, 8> ElementNodes(const HexGrid& grid, int ei, int ej, int ek) {
  std::array<int, 8> nodes;
  for (int local = 0; local < 8; ++local) {
    nodes[local] = grid.Node(
        ei + (local & 1), ej + ((local >> 1) & 1), ek + ((local >> 2) & 1));
  }
  return nodes;
}

}  // namespace

Eigen::Matrix<double, 8, 8> BrickConsistentMass(double a,
                                                double b,
                                                double c,
                                                double rho) {
  Eigen::Matrix<double, 8, 8> me;
  for (int i = 0; i < 8; ++i) {
    for (int j = 0; j < 8; ++j) {
      double product = 1.0;
      for (int axis = 0; axis < 3; ++axis) {
        product *= ((i >> axis) & 1) == ((j >> axis) & 1) ? 2.0 : 1.0;
      }
      me(i, j) = rho * a * b * c / 216.0 * product;
    }
  }
  return me;
}

void AssembleConsistentMass(const HexGrid& grid,
                            const ElasticMaterial& material,
                            std::vector<Triplet>* triplets) {
  const Eigen::Vector3d size = ElementSize(grid);
  const Eigen::Matrix<double, 8, 8> me =
      BrickConsistentMass(size.x(), size.y(), size.z(), material.density);
  triplets->reserve(triplets->size() + 3 * me.size() * grid.NumElements());
  for (int ek = 0; ek < grid.nz; ++ek) {
    for (int ej = 0; ej < grid.ny; ++ej) {
      for (int ei = 0; ei < grid.nx; ++ei) {
        const std::array<int, 8> nodes = ElementNodes(grid, ei, ej, ek);
        for (int p = 0; p < 8; ++p) {
          for (int q = 0; q < 8; ++q) {
            for (int d = 0; d < 3; ++d) {
              triplets->emplace_back(
                  3 * nodes[p] + d, 3 * nodes[q] + d, me(p, q));
            }
          }
        }
      }
    }
  }
}

void AssembleGrid(const HexGrid& grid,
                  const ElasticMaterial& material,
                  std::vector<Triplet>* triplets,
                  Eigen::VectorXd* mass,
                  Eigen::VectorXd* z_load) {
  const Eigen::Vector3d size = ElementSize(grid);
  const Eigen::Matrix<double, 24, 24> ke =
      BrickStiffness(size.x(),
                     size.y(),
                     size.z(),
                     material.youngs_modulus,
                     material.poisson_ratio);
  const double node_mass = material.density * size.prod() / 8.0;
  triplets->reserve(triplets->size() + ke.size() * grid.NumElements());
  for (int ek = 0; ek < grid.nz; ++ek) {
    for (int ej = 0; ej < grid.ny; ++ej) {
      for (int ei = 0; ei < grid.nx; ++ei) {
        const std::array<int, 8> element_nodes = ElementNodes(grid, ei, ej, ek);
        for (int p = 0; p < 8; ++p) {
          for (int dp = 0; dp < 3; ++dp) {
            (*mass)[3 * element_nodes[p] + dp] += node_mass;
          }
          // Consistent load of a unit body force along z: m_e / 8 per node on
          // a brick.
          (*z_load)[3 * element_nodes[p] + 2] += node_mass;
          for (int q = 0; q < 8; ++q) {
            for (int dp = 0; dp < 3; ++dp) {
              for (int dq = 0; dq < 3; ++dq) {
                triplets->emplace_back(3 * element_nodes[p] + dp,
                                       3 * element_nodes[q] + dq,
                                       ke(3 * p + dp, 3 * q + dq));
              }
            }
          }
        }
      }
    }
  }
}

SparseMatrix SymmetricMatrix(int n,
                             const std::vector<Triplet>& triplets,
                             double drop_tolerance) {
  SparseMatrix K(n, n);
  K.setFromTriplets(triplets.begin(), triplets.end());
  const SparseMatrix Kt = K.transpose();
  SparseMatrix S = 0.5 * (K + Kt);
  if (drop_tolerance > 0.0 && S.nonZeros() > 0) {
    const double max_abs = S.coeffs().cwiseAbs().maxCoeff();
    S.prune(max_abs, drop_tolerance);
  }
  S.makeCompressed();
  return S;
}

}  // namespace fcsn::fem
