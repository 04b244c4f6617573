// minverse/rho.h: per-contact scaling rho and the free velocity q_free
// (formulations.md §5, §9.1), from the one factorization of M of the solve
// (linalg/m_factorization.h).
//
//   W_aa = H_a^T M^-1 H_a  (3 x 3 diagonal block of the Delassus operator
//                           W = H^T M^-1 H)
//   kExactDelassus:       rho_a = factor / lambda_max(W_aa)
//                         (rho_N = rho_T1 = rho_T2)
//   kSplitExactDelassus:  rho_N = factor / W_NN,
//                         rho_T = factor / lambda_max(W_TT)
//   kDiagonalEstimate:    as kExactDelassus with M^-1 replaced by diag(M)^-1
//                         (one pass over H)
//   kConstant:            rho = value * factor
//   q_free = H^T M^-1 f + w
//
// Why this rho: s = r - rho u must add quantities of one unit; rho ~ 1/||W_aa||
// has the units of impulse per velocity, so the iterates are invariant under a
// rescaling of M and f (r scales with them, v and u do not), unlike Siconos'
// rho = 1.
//
// The exact W_aa come from MInverse::DiagonalBlocks (elimination-tree solves
// on the LDL^T of M, or dense solves on its LU when M is not symmetric).
//
// Guard: a contact with W_aa ~ 0 (touching no free dof: lambda_max(W_aa) at
// most 1e-14 of the largest one, or not finite) gets the median rho of the
// others (MedianOfUsable, minverse/block_rho.h); with the split rule, a
// usable contact whose W_NN or lambda_max(W_TT) is ~ 0 uses lambda_max(W_aa)
// for that part.
#ifndef FCSN_MINVERSE_RHO_H_
#define FCSN_MINVERSE_RHO_H_

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "fcsn/options.h"
#include "fcsn/problem.h"
#include "linalg/m_factorization.h"

namespace fcsn::internal {

struct ScalingData {
  Eigen::VectorXd rho;       // 3 nc: (rho_N, rho_T1, rho_T2) per contact
  Eigen::VectorXd q_free;    // H^T M^-1 f + w (m entries)
  double q_free_norm = 0.0;  // ||q_free||_2
  bool m_symmetric =
      true;  // whether M was factorized as symmetric (LDL^T) or by LU
  // Whether M^-1 was used (MInverse::regular); if not, why: diag(M)^-1 stood
  // in for it in rho and q_free.
  bool m_regular = true;
  std::string m_not_regular_reason;
};

// rho and q_free of `problem` into *scaling. m_inverse: the solve's owner of
// M's factorization, bound to `problem` (factorized here if it is not yet);
// nullptr factorizes a local one. When M is not regular (MInverse::regular:
// singular or indefinite) diag(M)^-1 stands in for M^-1, and the exact rules
// take the kDiagonalEstimate blocks. Returns false and a message if the free
// velocity is not finite. `second`: when the exact W_aa may use a second
// thread (MInverse::DiagonalBlocks).
bool ComputeScaling(const GlobalProblem& problem,
                    const RhoOptions& options,
                    ScalingData* scaling,
                    std::string* message,
                    MInverse* m_inverse = nullptr,
                    const SecondThreadReady& second = {});

// The blocks of a rule: the exact W_aa (null with *message set when they
// cannot be computed; called only for the exact rules) and their diag(M)
// estimate (called only for kDiagonalEstimate).
using ExactBlocks =
    std::function<const std::vector<Eigen::Matrix3d>*(std::string* message)>;
using EstimatedBlocks = std::function<std::vector<Eigen::Matrix3d>()>;

// rho of options.rule for nc contacts into *rho (the one switch over the
// rules, for every implementation of M's services); false with exact()'s
// message when the exact blocks fail.
bool RhoOfRule(const RhoOptions& options,
               int nc,
               const ExactBlocks& exact,
               const EstimatedBlocks& estimated,
               Eigen::VectorXd* rho,
               std::string* message);

// The rule's per-contact rho from given diagonal blocks W_aa (nc of them; the
// exact ones, or diag(M)-estimated ones for kDiagonalEstimate), including the
// guard and options.factor. For kConstant the blocks are not read.
Eigen::VectorXd RhoFromBlocks(const std::vector<Eigen::Matrix3d>& W,
                              const RhoOptions& options);

// H_a^T diag(M)^-1 H_a for every contact (zero diagonal entries of M skipped):
// the blocks of kDiagonalEstimate.
std::vector<Eigen::Matrix3d> DiagonalEstimateBlocks(
    const GlobalProblem& problem);
// The same blocks for a given diagonal d of M (a distributed M).
std::vector<Eigen::Matrix3d> DiagonalEstimateBlocks(const SparseMatrix& H,
                                                    const Eigen::VectorXd& d);

}  // namespace fcsn::internal

#endif  // FCSN_MINVERSE_RHO_H_
