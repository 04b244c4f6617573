// linalg/mumps_symmetric.h: the input of MUMPS' LDL^T (SYM = 2) for a
// symmetric matrix given on the full CSC pattern of an analysed unsymmetric
// one (LinearSolver::FactorizeSymmetric, mumps_solver.h).
//
// MUMPS with SYM = 2 reads one triangle (it would add an entry given in both
// triangles to itself): the lower one, entries (i, j) with i >= j, taken from
// the full values through MumpsAnalysisInput::value_slots. The matrix is
// symmetric when every strictly upper entry equals its mirror below the
// diagonal, and an entry without a mirror in the pattern is zero.
#ifndef FCSN_LINALG_MUMPS_SYMMETRIC_H_
#define FCSN_LINALG_MUMPS_SYMMETRIC_H_

#include <vector>

#include "linalg/linear_solver.h"
#include "linalg/mumps_instance.h"

namespace fcsn::internal {

// The SYM = 2 input of `pattern`: its lower triangle with value_slots, the
// ordering of `unsymmetric` (PERM_IN or ICNTL(7)) unchanged.
struct SymmetricInput {
  MumpsAnalysisInput input;
  // Slot of every strictly upper entry and of its mirror (-1: none, the
  // entry must be zero), and of every strictly lower entry without a mirror
  // (with -1).
  std::vector<int> upper_slots, mirror_slots;
};
void BuildSymmetricInput(const SparsityPattern& pattern,
                         const MumpsAnalysisInput& unsymmetric,
                         SymmetricInput* symmetric);

// Whether `values` (CSC, the pattern of `symmetric`) are exactly symmetric.
bool SymmetricValues(const SymmetricInput& symmetric, const double* values);

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_SYMMETRIC_H_
