// h8_elasticity.h: small-strain linear elasticity on boxes meshed by trilinear
// hexahedra (H8), shared by the FE examples (masonry_wall, elastic_bar; their
// time stepping is fcsn::MoreauJean, fcsn/time_stepping.h).
//
// Element (size a x b x c, isotropic E, nu, 2 x 2 x 2 Gauss points):
//   K_e = sum_gp B^T D B det J,  local node (i, j, k) in {0,1}^3 -> i + 2 j + 4 k,
//   dofs (x, y, z) per node, strains (xx, yy, zz, yz, xz, xy), engineering shear.
// Lumped mass: rho a b c / 8 on each of the 3 dofs of each element node; the
// consistent load of a unit body force along z is the same rho a b c / 8.
// Consistent mass (integral of rho N_i N_j, exact for the trilinear shapes):
// the tensor product of the 1D linear element's rho a / 6 [[2, 1], [1, 2]],
//   M_e(i, j) = rho a b c / 216 m(i_x, j_x) m(i_y, j_y) m(i_z, j_z),
//   m = 2 for the same 1D node, 1 otherwise,
// the same on each of the 3 dofs (no coupling between x, y, z). Its row sums
// are the lumped masses rho a b c / 8 (8 + 4 + 4 + 4 + 2 + 2 + 2 + 1 = 27),
// so both masses give the same momentum 1^T M v and the same total mass.
//
// Usage:
//   fcsn::fem::HexGrid grid;  // lower, upper, nx, ny, nz, first_node
//   std::vector<fcsn::fem::Triplet> triplets;
//   Eigen::VectorXd mass = Eigen::VectorXd::Zero(n), load = mass;
//   fcsn::fem::AssembleGrid(grid, material, &triplets, &mass, &load);
//   fcsn::SparseMatrix K = fcsn::fem::SymmetricMatrix(n, triplets, 1e-12);
//   std::vector<fcsn::fem::Triplet> m_triplets;      // consistent mass instead
//   fcsn::fem::AssembleConsistentMass(grid, material, &m_triplets);
//   fcsn::SparseMatrix M = fcsn::fem::SymmetricMatrix(n, m_triplets, 0.0);
#ifndef FCSN_EXAMPLES_FEM_H8_ELASTICITY_H_
#define FCSN_EXAMPLES_FEM_H8_ELASTICITY_H_

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

#include "fcsn/problem.h"

namespace fcsn::fem {

using Triplet = Eigen::Triplet<double, int>;

// A box [lower, upper] meshed by nx x ny x nz H8 elements with its own nodes,
// numbered from first_node with i fastest, then j, then k.
struct HexGrid {
  Eigen::Vector3d lower;       // corner with the smallest coordinates
  Eigen::Vector3d upper;       // opposite corner
  int nx = 0, ny = 0, nz = 0;  // elements per direction
  int first_node = 0;          // global index of local node (0, 0, 0)
  // Global index of local node (i, j, k), 0 <= i <= nx, 0 <= j <= ny, 0 <= k <=
  // nz.
  int Node(int i, int j, int k) const {
    return first_node + i + (nx + 1) * (j + (ny + 1) * k);
  }
  int NumNodes() const { return (nx + 1) * (ny + 1) * (nz + 1); }
  int NumElements() const { return nx * ny * nz; }
  // Reference position of local node (i, j, k).
  Eigen::Vector3d NodePosition(int i, int j, int k) const;
};

// Isotropic linear-elastic material: Pa, -, kg/m^3.
struct ElasticMaterial {
  double youngs_modulus = 0.0;
  double poisson_ratio = 0.0;
  double density = 0.0;
};

// 24 x 24 stiffness of a brick of size a x b x c (see the header comment).
Eigen::Matrix<double, 24, 24> BrickStiffness(
    double a, double b, double c, double young, double nu);

// 8 x 8 consistent mass of a brick of size a x b x c and density rho, per dof
// (the header comment): local node i + 2 j + 4 k as in BrickStiffness.
Eigen::Matrix<double, 8, 8> BrickConsistentMass(double a,
                                                double b,
                                                double c,
                                                double rho);

// Appends the element stiffness entries of every element of grid (global dof 3
// node + d) to *triplets and adds the lumped masses to *mass and the nodal loads
// of a unit body force along +z (N per m/s^2) to the z dofs of *z_load. The
// vectors must already cover the grid's dofs.
void AssembleGrid(const HexGrid& grid,
                  const ElasticMaterial& material,
                  std::vector<Triplet>* triplets,
                  Eigen::VectorXd* mass,
                  Eigen::VectorXd* z_load);

// Appends the consistent mass entries of every element of grid (global dofs
// 3 node + d, each dof coupled to the same dof of the element's nodes only) to
// *triplets; sum them with SymmetricMatrix(n, triplets, 0.0).
void AssembleConsistentMass(const HexGrid& grid,
                            const ElasticMaterial& material,
                            std::vector<Triplet>* triplets);

// The n x n matrix of the triplets (duplicates summed), made exactly symmetric
// (element integration round-off is not); entries with |K_ij| <= drop_tolerance
// max|K| are dropped (on a uniform mesh many couplings cancel to round-off), 0
// keeps the full structural pattern.
SparseMatrix SymmetricMatrix(int n,
                             const std::vector<Triplet>& triplets,
                             double drop_tolerance);

}  // namespace fcsn::fem

#endif  // FCSN_EXAMPLES_FEM_H8_ELASTICITY_H_
