// The masonry wall's VTK pictures (see masonry_vtk.h for the file contents).
#include "masonry_vtk.h"

#include <cstdio>
#include <utility>
#include <vector>

#include "fcsn/contact_status.h"

namespace fcsn::masonry {
namespace {

// VTK hexahedron node order as offsets (di, dj, dk) of the element's corner.
constexpr int kHexCorners[8][3] = {{0, 0, 0},
                                   {1, 0, 0},
                                   {1, 1, 0},
                                   {0, 1, 0},
                                   {0, 0, 1},
                                   {1, 0, 1},
                                   {1, 1, 1},
                                   {0, 1, 1}};

// The 3 entries of node p's dofs in a vector over the block dofs.
Eigen::Vector3d NodeVector(const Eigen::VectorXd& x, int p) {
  return x.size() >= 3 * p + 3 ? Eigen::Vector3d(x.segment<3>(3 * p))
                               : Eigen::Vector3d::Zero();
}

void Append(const Eigen::Vector3d& x, std::vector<double>* values) {
  values->insert(values->end(), {x.x(), x.y(), x.z()});
}

// Adds the hexahedra of one block and its cell data.
void AddBlockCells(const Block& block,
                   int index,
                   vtk::UnstructuredGrid* grid,
                   std::vector<double>* block_ids,
                   std::vector<double>* courses) {
  for (int k = 0; k < block.nz; ++k) {
    for (int j = 0; j < block.ny; ++j) {
      for (int i = 0; i < block.nx; ++i) {
        std::vector<std::int64_t> nodes(8);
        for (int c = 0; c < 8; ++c) {
          nodes[c] = block.Node(i + kHexCorners[c][0],
                                j + kHexCorners[c][1],
                                k + kHexCorners[c][2]);
        }
        grid->AddCell(vtk::kVtkHexahedron, nodes);
        block_ids->push_back(index);
        courses->push_back(block.course);
      }
    }
  }
}

std::string StepFile(const char* stem, int step) {
  char name[64];
  std::snprintf(name, sizeof(name), "%s_%05d.vtu", stem, step);
  return name;
}

}  // namespace

vtk::UnstructuredGrid WallGrid(const MasonryWall& wall) {
  vtk::UnstructuredGrid grid;
  grid.points = wall.nodes();
  vtk::DataArray displacement{"displacement", 3, {}};
  vtk::DataArray velocity{"velocity", 3, {}};
  for (int p = 0; p < grid.NumPoints(); ++p) {
    Append(NodeVector(wall.displacement(), p), &displacement.values);
    Append(NodeVector(wall.velocity(), p), &velocity.values);
  }
  grid.point_data = {std::move(displacement), std::move(velocity)};
  vtk::DataArray block{"block", 1, {}};
  vtk::DataArray course{"course", 1, {}};
  for (int b = 0; b < static_cast<int>(wall.blocks().size()); ++b) {
    AddBlockCells(wall.blocks()[b], b, &grid, &block.values, &course.values);
  }
  grid.cell_data = {std::move(block), std::move(course)};
  return grid;
}

vtk::UnstructuredGrid ContactGrid(const MasonryWall& wall) {
  const std::vector<ContactPoint>& contacts = wall.contacts();
  const int nc = wall.nc();
  Eigen::VectorXd r = wall.last_solution().r;
  if (r.size() != 3 * nc) r = Eigen::VectorXd::Zero(3 * nc);
  std::vector<ContactStatus> statuses;
  ClassifyContacts(wall.mu(), r, &statuses);
  vtk::UnstructuredGrid grid;
  vtk::DataArray displacement{"displacement", 3, {}};
  vtk::DataArray impulse{"impulse", 3, {}};
  vtk::DataArray force{"force", 3, {}};
  vtk::DataArray r_local{"r_local", 3, {}};
  vtk::DataArray normal{"normal", 3, {}};
  vtk::DataArray mu{"mu", 1, {}};
  vtk::DataArray group{"group", 1, {}};
  vtk::DataArray status{"status", 1, {}};
  for (int a = 0; a < nc; ++a) {
    const ContactPoint& c = contacts[a];
    grid.points.push_back(c.x_a);
    grid.AddCell(vtk::kVtkVertex, {a});
    Eigen::Vector3d d = Eigen::Vector3d::Zero();
    for (const NodeWeight& nw : c.nodes_a) {
      d += nw.weight * NodeVector(wall.displacement(), nw.node);
    }
    const Eigen::Vector3d r_a = r.segment<3>(3 * a);
    const Eigen::Vector3d p = c.frame * r_a;
    Append(d, &displacement.values);
    Append(p, &impulse.values);
    Append(p / wall.options().h, &force.values);
    Append(r_a, &r_local.values);
    Append(c.frame.col(0), &normal.values);
    mu.values.push_back(c.mu);
    group.values.push_back(static_cast<int>(c.group));
    status.values.push_back(static_cast<int>(statuses[a]));
  }
  grid.point_data = {std::move(displacement),
                     std::move(impulse),
                     std::move(force),
                     std::move(r_local),
                     std::move(normal),
                     std::move(mu),
                     std::move(group),
                     std::move(status)};
  return grid;
}

MasonryVtkSeries::MasonryVtkSeries(std::string dir) : dir_(std::move(dir)) {}

bool MasonryVtkSeries::WriteStep(const MasonryWall& wall, std::string* error) {
  const std::string wall_file = StepFile("wall", wall.step());
  const std::string contact_file = StepFile("contacts", wall.step());
  if (!vtk::WriteVtu(dir_ + "/" + wall_file, WallGrid(wall), error) ||
      !vtk::WriteVtu(dir_ + "/" + contact_file, ContactGrid(wall), error)) {
    return false;
  }
  wall_series_.Add(wall.time(), wall_file);
  contact_series_.Add(wall.time(), contact_file);
  return wall_series_.Write(dir_ + "/wall.pvd", error) &&
         contact_series_.Write(dir_ + "/contacts.pvd", error);
}

}  // namespace fcsn::masonry
