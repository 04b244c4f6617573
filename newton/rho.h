// newton/rho.h: per-contact scaling rho and the free velocity norm ||q_free||
// (formulations.md §5, §9.1), both from one sparse factorization of M.
//
//   W_aa = H_a^T M^-1 H_a  (3 x 3 diagonal block of the Delassus operator
//                           W = H^T M^-1 H)
//   kExactDelassus:       rho_a = factor / lambda_max(W_aa)
//                         (rho_N = rho_T1 = rho_T2)
//   kSplitExactDelassus:  rho_N = factor / W_NN,
//                         rho_T = factor / lambda_max(W_TT)
//   kDiagonalEstimate:    as kExactDelassus with M^-1 replaced by diag(M)^-1
//                         (one pass over H)
//   kConstant:            rho = value
//   q_free = H^T M^-1 f + w
//
// Why this rho: s = r - rho u must add quantities of one unit; rho ~ 1/||W_aa||
// has the units of impulse per velocity, so the iterates are invariant under a
// rescaling of M and f (r scales with them, v and u do not), unlike Siconos'
// rho = 1.
//
// W_aa is computed exactly without forming M^-1: with P M P^T = L D L^T (Eigen
// SimplicialLDLT), W_aa = Y^T D^-1 Y, Y = L^-1 P H_a, and the sparse triangular
// solve only visits the elimination tree ancestors of the dofs of contact a, so
// the cost is a small multiple of the factorization's last separators per
// contact, not n per contact. When M is not symmetric (an upper-triangle M
// taken "as stored"), a sparse LU of M is used and W_aa comes from three dense
// solves per contact.
//
// Guard: a contact with W_aa ~ 0 (touching no free dof) gets the median rho of
// the others.
#ifndef FCSN_NEWTON_RHO_H_
#define FCSN_NEWTON_RHO_H_

#include <Eigen/Core>
#include <Eigen/SparseCholesky>
#include <string>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/problem.h"

namespace fcsn::internal {

struct ScalingData {
  Eigen::VectorXd rho;       // 3 nc: (rho_N, rho_T1, rho_T2) per contact
  Eigen::VectorXd q_free;    // H^T M^-1 f + w (m entries)
  double q_free_norm = 0.0;  // ||q_free||_2
  bool m_symmetric =
      true;  // whether M was factorized as symmetric (LDL^T) or by LU
};

// Keeps the symbolic analysis (ordering, elimination tree) of the LDL^T of M
// between calls whose M has the same pattern, as in time stepping; only the
// numeric factorization is redone.
struct ScalingWorkspace {
  Eigen::SimplicialLDLT<SparseMatrix, Eigen::Lower> ldlt;
  std::vector<int> outer, inner;  // pattern of M the analysis was done for
  bool analyzed = false;
};

// Returns false and a message if M cannot be factorized (singular, not square).
// workspace may be nullptr (no reuse).
bool ComputeScaling(const GlobalProblem& problem,
                    const RhoOptions& options,
                    ScalingData* scaling,
                    std::string* message,
                    ScalingWorkspace* workspace = nullptr);

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_RHO_H_
