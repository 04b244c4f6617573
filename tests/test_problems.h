// Frictional contact problems built in memory for tests, with known physics.
#ifndef FCSN_TESTS_TEST_PROBLEMS_H_
#define FCSN_TESTS_TEST_PROBLEMS_H_

#include "fcsn/problem.h"

namespace fcsn::testing {

// An elastic lattice block resting on a rigid floor, one implicit Euler step:
//
//   nodes on an nx x ny x nz grid (spacing 1), unit mass each, axial springs of
//   stiffness k along the grid edges and the face diagonals; M = I + h^2 K
//   (SPD), f = h (gravity + pull), where the pull acts along +x on the top
//   layer with a total magnitude pull_ratio * mu * weight; one contact per
//   bottom node with normal +z, tangents (x, y), mu everywhere, and an uneven
//   floor: w_N = gap * sin(1.3 i + 0.7 j) for the node (i, j) (w = gap distance
//   / h; gap = 0: touching).
//
// pull_ratio < 1 tends to stick, > 1 makes the block slide. nc = nx * ny, n = 3
// nx ny nz.
GlobalProblem MakeLatticeOnFloor(int nx,
                                 int ny,
                                 int nz,
                                 double mu,
                                 double pull_ratio,
                                 double gap = 0.0,
                                 double stiffness = 1e4,
                                 double h = 1e-2);

// A stack of `boxes` rigid unit cubes (mass 1, 6 dofs each: velocity then
// angular velocity) on a rigid floor, one implicit Euler step of size h from
// rest under gravity, with 4 contacts at the corners of every interface
// (floor-box and box-box): 4 boxes -> 16 contacts, rank(H) < m, so the problem
// is hyperstatic like Box_Stacks. `push` is a horizontal force on the top box
// as a fraction of mu times the stack weight (0: at rest).
GlobalProblem MakeBoxStack(int boxes, double mu, double push, double h = 1e-2);

// One contact with M = I and H = I (so v = r + f and u = v + w), friction mu:
// small analytic cases of the error measures.
GlobalProblem OneContact(double mu,
                         const Eigen::Vector3d& f,
                         const Eigen::Vector3d& w);

// `problem` without its last contact: the same M, another pattern of H (a time
// step whose contacts changed).
GlobalProblem WithoutLastContact(GlobalProblem problem);

// `problem` with M's size but no stored entry: the replicated part of a solve
// whose M is given as local entries (Solver::Solve's distributed overload).
GlobalProblem WithoutM(const GlobalProblem& problem);

}  // namespace fcsn::testing

#endif  // FCSN_TESTS_TEST_PROBLEMS_H_
