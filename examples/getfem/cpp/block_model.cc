// block_model.cc: meshing and assembly by GetFEM, conversion to fcsn's types.
#include "block_model.h"

#include <getfem/getfem_assembling.h>
#include <getfem/getfem_export.h>
#include <getfem/getfem_regular_meshes.h>

#include <Eigen/SparseCore>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace getfem_block {
namespace {

constexpr getfem::size_type kBottom = 1;  // mesh region: the faces on z = 0
constexpr getfem::size_type kLeft = 2;    // mesh region: the faces on x = 0

// GetFEM assembles into gmm column matrices of sparse columns; fcsn takes
// Eigen CSC. Walking gmm's column iterators keeps this independent of the
// column type.
fcsn::SparseMatrix ToEigen(const getfem::model_real_sparse_matrix& a) {
  std::vector<Eigen::Triplet<double, int>> entries;
  for (getfem::size_type j = 0; j < gmm::mat_ncols(a); ++j) {
    const auto& column = a.col(j);
    auto it = gmm::vect_const_begin(column);
    const auto end = gmm::vect_const_end(column);
    for (; it != end; ++it) {
      entries.emplace_back(
          static_cast<int>(it.index()), static_cast<int>(j), *it);
    }
  }
  fcsn::SparseMatrix out(static_cast<int>(gmm::mat_nrows(a)),
                         static_cast<int>(gmm::mat_ncols(a)));
  out.setFromTriplets(entries.begin(), entries.end());
  out.makeCompressed();
  return out;
}

Eigen::VectorXd ToEigen(const getfem::base_vector& x) {
  return Eigen::Map<const Eigen::VectorXd>(x.data(),
                                           static_cast<Eigen::Index>(x.size()));
}

// The outer faces whose outward normal is `normal`, as region `id`.
void MarkFaces(getfem::mesh* mesh,
               getfem::size_type id,
               const bgeot::base_small_vector& normal) {
  const getfem::mesh_region faces = getfem::select_faces_of_normal(
      *mesh, getfem::outer_faces_of_mesh(*mesh), normal, 0.01);
  for (getfem::mr_visitor face(faces); !face.finished(); ++face) {
    mesh->region(id).add(face.cv(), face.f());
  }
}

}  // namespace

BlockModel::BlockModel(const BlockSpec& spec) : mim_(mesh_), mf_(mesh_, 3) {
  BuildMesh(spec);
  Assemble(spec);
  NumberContacts();
}

void BlockModel::BuildMesh(const BlockSpec& spec) {
  std::ostringstream description;
  description << "GT='GT_QK(3,1)'; NSUBDIV=[" << spec.cells_x << ","
              << spec.cells_y << "," << spec.cells_z
              << "]; ORG=[0,0,0]; SIZES=[" << spec.lx << "," << spec.ly << ","
              << spec.lz << "]";
  getfem::regular_mesh(mesh_, description.str());
  mf_.set_finite_element(getfem::fem_descriptor("FEM_QK(3,1)"));
  mim_.set_integration_method(
      getfem::int_method_descriptor("IM_GAUSS_PARALLELEPIPED(3,2)"));
  MarkFaces(&mesh_, kBottom, bgeot::base_small_vector(0.0, 0.0, -1.0));
  MarkFaces(&mesh_, kLeft, bgeot::base_small_vector(-1.0, 0.0, 0.0));
}

void BlockModel::Assemble(const BlockSpec& spec) {
  const getfem::size_type n = mf_.nb_dof();
  const double lambda = spec.young * spec.poisson /
                        ((1.0 + spec.poisson) * (1.0 - 2.0 * spec.poisson));
  const double shear = spec.young / (2.0 * (1.0 + spec.poisson));
  getfem::model_real_sparse_matrix mass(n, n), stiffness(n, n);
  getfem::asm_mass_matrix(mass, mim_, mf_);
  gmm::scale(mass, spec.density);
  getfem::asm_stiffness_matrix_for_homogeneous_linear_elasticity(
      stiffness,
      mim_,
      mf_,
      getfem::model_real_plain_vector(1, lambda),
      getfem::model_real_plain_vector(1, shear));
  M_ = ToEigen(mass);
  K_ = ToEigen(stiffness);

  getfem::base_vector weight(n), push(n);
  const getfem::base_vector body_force{0.0, 0.0, -spec.density * spec.gravity};
  getfem::asm_homogeneous_source_term(weight, mim_, mf_, body_force);
  // A traction of 1 / area on the face x = 0: its resultant is 1 N along +x.
  const getfem::base_vector traction{1.0 / (spec.ly * spec.lz), 0.0, 0.0};
  getfem::asm_homogeneous_source_term(
      push, mim_, mf_, traction, mesh_.region(kLeft));
  weight_ = ToEigen(weight);
  unit_push_ = ToEigen(push);
  total_weight_ = spec.density * spec.gravity * spec.lx * spec.ly * spec.lz;
}

// A vector Lagrange element numbers the three components of a node as
// consecutive basic dofs (component = basic_dof_qdim). That is checked here
// rather than assumed, since H is built on it.
void BlockModel::NumberContacts() {
  const dal::bit_vector on_bottom =
      mf_.basic_dof_on_region(mesh_.region(kBottom));
  std::vector<Eigen::Triplet<double, int>> entries;
  std::vector<double> gaps;
  for (dal::bv_visitor d(on_bottom); !d.finished(); ++d) {
    if (mf_.basic_dof_qdim(d) != 0) continue;
    const getfem::base_node point = mf_.point_of_basic_dof(d);
    for (getfem::size_type c = 1; c < 3; ++c) {
      if (!on_bottom.is_in(d + c) || mf_.basic_dof_qdim(d + c) != c ||
          gmm::vect_dist2(mf_.point_of_basic_dof(d + c), point) > 0.0) {
        throw std::runtime_error(
            "GetFEM does not number the components of node dof " +
            std::to_string(d) + " consecutively");
      }
    }
    const int x = static_cast<int>(d);
    const int a = static_cast<int>(contact_dofs_.size());
    contact_dofs_.push_back({x, x + 1, x + 2});
    entries.emplace_back(x + 2, 3 * a, 1.0);      // N = +z
    entries.emplace_back(x, 3 * a + 1, 1.0);      // T1 = x
    entries.emplace_back(x + 1, 3 * a + 2, 1.0);  // T2 = y
    gaps.push_back(point[2]);
  }
  H_.resize(dofs(), 3 * contacts());
  H_.setFromTriplets(entries.begin(), entries.end());
  H_.makeCompressed();
  gaps_ = Eigen::Map<const Eigen::VectorXd>(
      gaps.data(), static_cast<Eigen::Index>(gaps.size()));
}

bool BlockModel::WriteVtk(const std::string& path,
                          const Eigen::VectorXd& q,
                          const Eigen::VectorXd& v) const {
  std::ofstream file(path);
  if (!file) return false;
  {
    getfem::vtk_export vtk(file, /*ascii=*/true);
    vtk.exporting(mf_);
    vtk.write_mesh();
    vtk.write_point_data(mf_,
                         std::vector<double>(q.data(), q.data() + q.size()),
                         "displacement");
    vtk.write_point_data(
        mf_, std::vector<double>(v.data(), v.data() + v.size()), "velocity");
  }
  file.close();
  return !file.fail();
}

}  // namespace getfem_block
