// block_model.h: the GetFEM side of the sliding-block example. GetFEM builds
// the mesh, the finite element space and every matrix and load vector; this
// file only converts them to the Eigen types fcsn takes and numbers the
// contacts from GetFEM's dofs.
//
// The body is a box [0, Lx] x [0, Ly] x [0, Lz] of linear-elastic material
// resting on the rigid plane z = 0: a regular mesh of Q1 hexahedra, the
// vector Lagrange element FEM_QK(3,1) and Gauss integration of order 2.
// Every node of the bottom face (z = 0) is one contact with the frame
// N = +z, T1 = x, T2 = y, so column 3a (+ 0, 1, 2) of H selects that node's
// z, x, y velocity dof and u_a = (v_z, v_x, v_y) + w_a.
#ifndef FCSN_EXAMPLES_GETFEM_BLOCK_MODEL_H_
#define FCSN_EXAMPLES_GETFEM_BLOCK_MODEL_H_

#include <getfem/getfem_mesh.h>
#include <getfem/getfem_mesh_fem.h>
#include <getfem/getfem_mesh_im.h>

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

#include "fcsn/problem.h"

namespace getfem_block {

struct BlockSpec {
  double lx = 0.4, ly = 0.2, lz = 0.1;  // box size (m)
  int cells_x = 8, cells_y = 4, cells_z = 2;
  double young = 1e7;    // Pa: a stiff rubber, so a few dozen steps show waves
  double poisson = 0.3;  // and still settle
  double density = 1000.0;  // kg/m^3
  double gravity = 9.81;    // m/s^2, along -z
};

class BlockModel {
 public:
  // Meshes and assembles everything; throws std::runtime_error when GetFEM's
  // dof numbering does not group a node's three components as expected.
  explicit BlockModel(const BlockSpec& spec);
  BlockModel(const BlockModel&) = delete;
  BlockModel& operator=(const BlockModel&) = delete;

  int dofs() const { return static_cast<int>(M_.rows()); }
  int contacts() const { return static_cast<int>(contact_dofs_.size()); }
  const fcsn::SparseMatrix& mass() const { return M_; }
  const fcsn::SparseMatrix& stiffness() const { return K_; }
  const fcsn::SparseMatrix& contact_matrix() const { return H_; }
  // Gap of each contact at zero displacement: the node's height above z = 0.
  const Eigen::VectorXd& initial_gaps() const { return gaps_; }
  // Consistent nodal forces of gravity.
  const Eigen::VectorXd& weight() const { return weight_; }
  // Consistent nodal forces of a uniform traction in +x on the face x = 0
  // whose resultant is 1 N.
  const Eigen::VectorXd& unit_push() const { return unit_push_; }
  double total_weight() const { return total_weight_; }
  // The x dof of contact a (its T1 velocity).
  int contact_x_dof(int a) const { return contact_dofs_[a][0]; }

  // Writes the legacy VTK file `path` (GetFEM's exporter) with the
  // displacement q and the velocity v on the mesh. False if it cannot.
  bool WriteVtk(const std::string& path,
                const Eigen::VectorXd& q,
                const Eigen::VectorXd& v) const;

 private:
  void BuildMesh(const BlockSpec& spec);
  void Assemble(const BlockSpec& spec);
  void NumberContacts();

  getfem::mesh mesh_;
  getfem::mesh_im mim_;
  getfem::mesh_fem mf_;
  fcsn::SparseMatrix M_, K_, H_;
  Eigen::VectorXd gaps_, weight_, unit_push_;
  double total_weight_ = 0.0;
  std::vector<std::array<int, 3>> contact_dofs_;  // x, y, z dof of each contact
};

}  // namespace getfem_block

#endif  // FCSN_EXAMPLES_GETFEM_BLOCK_MODEL_H_
