// masonry_vtk.h: the masonry wall's pictures, one pair of VTK files per time
// step plus two ParaView time series (written with vtk_writer.h).
//
// In DIR, after step k (t = k h):
//   wall_<k:05d>.vtu      the block mesh: reference node coordinates (m), one
//                         VTK hexahedron per H8 element; point data
//                         "displacement" q (m) and "velocity" v (m/s) of the
//                         nodes; cell data "block" and "course".
//   contacts_<k:05d>.vtu  one vertex per contact point at its reference
//                         position x_a; point data "displacement" (interpolated
//                         at x_a from the candidate block's nodes, m),
//                         "impulse" R_a r_a in global axes (N s, on the
//                         candidate), "force" = impulse / h (N), "r_local" =
//                         (r_N, r_T1, r_T2), "normal" n_a, "mu", "group"
//                         (ContactGroup index) and "status" (0 take-off,
//                         1 stick, 2 slip: fcsn/contact_status.h).
//   wall.pvd, contacts.pvd  the series so far (rewritten after every step, so
//                         an interrupted run stays readable).
// In ParaView: open both .pvd files, apply "Warp By Vector" on
// "displacement" (scale e.g. 1000: the displacements are micrometres to
// millimetres), colour the contacts by "status" to see the sliding joints.
//
// Usage:
//   fcsn::masonry::MasonryVtkSeries vtk("out");
//   ... wall->Advance(solution, &error);
//   if (!vtk.WriteStep(*wall, &error)) { ... }
#ifndef FCSN_EXAMPLES_MASONRY_WALL_MASONRY_VTK_H_
#define FCSN_EXAMPLES_MASONRY_WALL_MASONRY_VTK_H_

#include <string>

#include "masonry_wall_model.h"
#include "vtk_writer.h"

namespace fcsn::masonry {

// The block mesh of wall with the current displacements and velocities.
vtk::UnstructuredGrid WallGrid(const MasonryWall& wall);
// The contact points with the impulses of wall.last_solution() (zero impulses
// when it has no r, e.g. at step 0).
vtk::UnstructuredGrid ContactGrid(const MasonryWall& wall);

class MasonryVtkSeries {
 public:
  // dir must exist (it is not created).
  explicit MasonryVtkSeries(std::string dir);
  // Writes the two files of wall.step() and rewrites both .pvd; false and
  // *error set on failure.
  bool WriteStep(const MasonryWall& wall, std::string* error);

 private:
  std::string dir_;
  vtk::PvdCollection wall_series_;
  vtk::PvdCollection contact_series_;
};

}  // namespace fcsn::masonry

#endif  // FCSN_EXAMPLES_MASONRY_WALL_MASONRY_VTK_H_
