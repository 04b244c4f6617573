// newton/newton_system.h: the global Newton system in z = (v, r) on a fixed sparsity pattern.
//
//   G(z) = [ M v - H r - f   ]    (n rows, equilibrium)
//          [ F(H^T v + w, r) ]    (m = 3 nc rows, per-contact residuals, formulations/)
//
//   J(z) = [ M       -H ]         A = blockdiag(A_a), B = blockdiag(B_a) (3 x 3 per contact)
//          [ A H^T    B ]
//
// The pattern of J depends only on the patterns of M and H (formulations.md §4.1): the rows of
// contact a in A H^T hold, for all three rows, the union of the nonzero rows of the three columns
// H_a, and every 3 x 3 block B_a is stored in full, explicit zeros included (stick contacts have
// B_a = 0, separated ones A_a = 0). The pattern is built once; each Newton iteration only writes
// values into precomputed slots, so the linear solver's symbolic analysis is reused.
//
// Usage:
//   NewtonSystem system;
//   system.Build(problem);                  // pattern + slot maps (once per pattern)
//   system.SetMatrixValues(problem);        // M and -H values (once per problem values)
//   system.Evaluate(problem, formulation, rho, v, r, /*with_jacobian=*/true);
//   solver->Factorize(system.values().data(), &message);
#ifndef FCSN_NEWTON_NEWTON_SYSTEM_H_
#define FCSN_NEWTON_NEWTON_SYSTEM_H_

#include <Eigen/Core>
#include <vector>

#include "fcsn/problem.h"
#include "fcsn/types.h"
#include "formulations/residual.h"
#include "linalg/linear_solver.h"
#include "linalg/stored_pattern.h"
#include "minverse/m_services.h"

namespace fcsn::internal {

class NewtonSystem {
 public:
  // Builds the pattern of J and the value-slot maps from the patterns of
  // problem.M and problem.H.
  void Build(const GlobalProblem& problem);

  // True when M and H have exactly the patterns Build() saw (O(nnz)
  // comparison).
  bool SamePattern(const GlobalProblem& problem) const;

  // Writes the constant blocks M and -H into the values of J. m: M's
  // services (kept by pointer until the next call; minverse/m_services.h):
  // M v in Evaluate() is m's product, and the part of M that problem.M does
  // not hold (M distributed: problem.M is empty, J's M block holds only its
  // diagonal slots, zeros) is m's, added in Multiply() and appended after
  // J's values by ScaledValues() (the input of DistributedJacobianSolver).
  void SetMatrixValues(const GlobalProblem& problem, const MServices& m);

  // Computes u = H^T v + w, the residual G(z) and, if with_jacobian, the values
  // of A H^T and B, on each contact's own piece or, with pieces (nc values;
  // AC and JM), on the prescribed ones (formulations/residual.h, DiskPiece).
  // Allocation-free after Build().
  void Evaluate(const GlobalProblem& problem,
                Formulation formulation,
                const Eigen::VectorXd& rho,
                const Eigen::VectorXd& v,
                const Eigen::VectorXd& r,
                bool with_jacobian,
                const DiskPiece* pieces = nullptr);

  // Values of D J C, the matrix equilibrated by units: rows scaled by row_eq
  // (equilibrium) or row_contact, columns by column_v (v) or column_r (r).
  // Solving (D J C) y = -D G and taking d = C y gives the Newton step of J,
  // independent of the units of M, f, H and w when D and C carry those units.
  void ScaledValues(double row_eq,
                    double row_contact,
                    double column_v,
                    double column_r,
                    std::vector<double>* scaled) const;

  // y = J x with the current values (e.g. the slope of the merit along an
  // inexact direction).
  void Multiply(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  // Slots of the diagonal entries (n + i, n + i), i < m, of the contact block.
  const std::vector<int>& contact_diagonal_slots() const {
    return contact_diagonal_slots_;
  }

  const SparsityPattern& pattern() const { return pattern_; }
  // For the next analysis of pattern(): whether J's first factorization is
  // the early one (newton/early_factorization.h), which asks for the block
  // ordering and the LDL^T first (SparsityPattern::blocks_first and
  // symmetric_first).
  void SetEarlyFactorization(bool early) {
    pattern_.blocks_first = early;
    pattern_.symmetric_first = early;
  }
  const std::vector<double>& values() const { return values_; }
  // Residual G(z) of the last Evaluate(): first n entries equilibrium, then m
  // contact rows.
  const Eigen::VectorXd& residual() const { return G_; }
  // u = H^T v + w of the last Evaluate().
  const Eigen::VectorXd& u() const { return u_; }
  int n() const { return n_; }
  int m() const { return m_; }

 private:
  // Parts of Build(): the dofs each contact touches (from H's pattern), the
  // pattern of J, and the slots of M, -H, A H^T and B in J's values.
  void CollectContactDofs(const SparseMatrix& H);
  void BuildPattern(const GlobalProblem& problem);
  // pattern_.block_starts: v in node triples, each contact unknown alone.
  void SetBlocks();
  void BuildSlotMaps(const GlobalProblem& problem);

  int n_ = 0;
  int m_ = 0;
  const MServices* m_services_ = nullptr;
  SparsityPattern pattern_;
  std::vector<double> values_;
  // Copies of the input patterns, to detect a change.
  StoredPattern m_pattern_, h_pattern_;
  // Slot in values_ of every stored entry of M (in M's CSC order) and of H (for
  // -H).
  std::vector<int> m_slots_, h_slots_;
  // Per contact a: the dofs j touched by H_a (sorted), their offsets in
  // contact_dofs_, the dense 3 x k_a block H_a^T (row-major by k, 3 values per
  // dof) and the slots of (n + 3a + i, j) for i = 0..2 in J, three per dof.
  std::vector<int> contact_dof_begin_;
  std::vector<int> contact_dofs_;
  std::vector<double> contact_HT_;
  std::vector<int> contact_AHT_slots_;
  // Slots of B_a (column-major 3 x 3) for every contact: 9 per contact.
  std::vector<int> B_slots_;
  std::vector<int> contact_diagonal_slots_;
  // Workspace.
  Eigen::VectorXd u_, G_, F_, Mv_;
  std::vector<Eigen::Matrix3d> A_, B_;
};

}  // namespace fcsn::internal

#endif  // FCSN_NEWTON_NEWTON_SYSTEM_H_
