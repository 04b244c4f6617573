// minverse/delassus.h: the reduced (Delassus) form of a global problem, built
// from one sparse factorization of M and no dense inverse (formulations.md
// §7.1, §5).
//
//   W      = H^T M^-1 H         m x m, by 3 x 3 blocks W_ab (contacts a, b)
//   q_free = H^T M^-1 f + w     m
//   u      = W r + q_free       equals H^T v + w for v = M^-1 (H r + f)
//
// M is factored once per solve, by the solve's owner of that factorization
// (MInverse, linalg/m_factorization.h, shared with rho and the error
// measures), which chooses the factorization: CHOLMOD's supernodal Cholesky
// for a large symmetric positive definite M, Eigen's simplicial LDL^T for
// another symmetric M (what a user or the FCLib reader normally hands over),
// Eigen SparseLU otherwise (e.g. an LMGC90 upper-triangle M kept "as
// stored"); the fill-reducing ordering is METIS nested dissection for a large
// M and AMD (COLAMD for the LU) for a small one (linalg/fill_ordering.h). W
// needs M symmetric positive definite: a factorization with a non-positive or
// numerically zero pivot is rejected. q_free is the owner's.
//
// W is formed per connected component c of the graph of M (one deformable body,
// one rigid body, or a set of bodies coupled by M): M^-1 is block diagonal over
// the components, so
//
//   W_ab = sum_{c touched by a and b} H_{c,a}^T M_c^-1 H_{c,b}.
//
// Each component is factored on its own (the global factorization is reused
// when M is irreducible), X_c = M_c^-1 H_c is solved in dense panels of a few
// contact columns (bounded memory) and never stored whole, and H^T X_c is
// formed from the nonzero rows of X_c and the rows of H. Time and memory thus
// follow the block structure: O(size of c) per contact column, not O(n). Only
// the blocks W_ab that are not exactly zero are kept (for one connected FEM
// body: all contact pairs on it; for rigid bodies: pairs of contacts that share
// a body), plus every diagonal block, in block-CSR order. CountBlocks() gives
// that number without factoring anything, so that a caller with a memory budget
// (the hybrid policy, HybridOptions) can decline to form W.
//
// Usage:
//   fcsn::internal::Delassus delassus;
//   std::string error;
//   if (!delassus.Compute(problem, &m_inverse, &error)) { ... }  // not SPD
//   const Eigen::Matrix3d& w_aa = delassus.DiagonalBlock(a);
//   delassus.RecoverVelocity(problem, r, &v);  // v = M^-1 (H r + f)
#ifndef FCSN_MINVERSE_DELASSUS_H_
#define FCSN_MINVERSE_DELASSUS_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/problem.h"
#include "linalg/m_factorization.h"

namespace fcsn::internal {

// One factorization of M, W by structurally nonzero 3 x 3 blocks, and q_free.
class Delassus {
 public:
  Delassus() = default;
  Delassus(const Delassus&) = delete;
  Delassus& operator=(const Delassus&) = delete;

  // Builds W from the factorization of M kept by m_inverse (bound to
  // `problem`; factorized here if it is not yet), and takes its q_free. The
  // owner must outlive this object's use. Returns false with a readable
  // *message when the sizes are inconsistent, M is singular or not positive
  // definite, or a solve is not finite; the object is then empty (nc() == 0,
  // factorization type kNone).
  // Reuse (time stepping): W is kept, not rebuilt, when the owner is
  // the one of the last successful Compute() and still holds the same factors
  // (it kept them across Bind() because M was bit for bit the same, see
  // m_factorization.h) and problem.H is bit for bit the H W was built from;
  // q_free is taken again. reused() tells which.
  bool Compute(const GlobalProblem& problem,
               MInverse* m_inverse,
               std::string* message);
  // As above with an owner of its own (standalone use, tests).
  bool Compute(const GlobalProblem& problem, std::string* message);

  // Number of 3 x 3 blocks Compute() would store for `problem`: every diagonal
  // block plus one per ordered pair of distinct contacts that touch a common
  // connected component of M. Compute() drops blocks that cancel to exactly
  // zero, so this is an upper bound, exact unless such cancellation occurs.
  // Counting stops as soon as the count exceeds `cap` (the value returned is
  // then > cap, not the total), so a caller checking a memory budget pays
  // O(nnz(M) + nnz(H) + cap), never the c^2 pairs of one large body. Returns 0
  // when the sizes of M and H are inconsistent. No factorization.
  static long long CountBlocks(const GlobalProblem& problem, long long cap);

  // The cost of Compute() in stored-entry units: 9 per block of W
  // (CountBlocks) plus 3 k_c nnz(M_c) for every component c of M touched by k_c
  // contacts (the solves M_c X = H_c, whose factor fill nnz(M_c) stands for).
  // It bounds W's memory (>= 9 blocks) and tells apart rigid bodies, whose
  // components are a few dofs, from deformable bodies carrying many contacts:
  // cost / (nnz(M) + nnz(H)) is 2 on Box_Stacks, 7 on piles of boxes with 4
  // contacts per interface, 270 on a LowWall_FEM step, 300 on a 10 x 10 x 2
  // elastic lattice. Stops above `cap` as CountBlocks does; 0 for inconsistent
  // sizes.
  static long long BuildCost(const GlobalProblem& problem, long long cap);

  int nc() const { return static_cast<int>(diagonal_index_.size()); }
  int m() const { return 3 * nc(); }
  // Whether the last successful Compute() kept the W of the one before.
  bool reused() const { return reused_; }
  // Number of stored 3 x 3 blocks (diagonal ones included).
  int num_blocks() const { return static_cast<int>(blocks_.size()); }
  MFactorizationType factorization_type() const {
    return m_inverse_ != nullptr ? m_inverse_->factorization().type()
                                 : MFactorizationType::kNone;
  }
  // Size of the factored M (0 when not computed).
  int n() const {
    return m_inverse_ != nullptr ? m_inverse_->factorization().n() : 0;
  }

  // q_free = H^T M^-1 f + w and its 2-norm (the denominator of e_nat,
  // formulations.md §9.1); empty and 0 when not computed.
  const Eigen::VectorXd& q_free() const {
    return m_inverse_ != nullptr ? m_inverse_->q_free() : no_q_free_;
  }
  double q_free_norm() const {
    return m_inverse_ != nullptr ? m_inverse_->q_free_norm() : 0.0;
  }
  // The solve for the floor of the error measures (RegularSolve); empty when
  // not computed.
  MSolveFunction m_solve() const {
    return m_inverse_ != nullptr ? RegularSolve(m_inverse_->factorization())
                                 : MSolveFunction();
  }

  // W_aa, always stored (possibly zero for a contact attached to no free dof).
  const Eigen::Matrix3d& DiagonalBlock(int a) const {
    return blocks_[diagonal_index_[a]];
  }

  // Block row a: blocks k in [RowBegin(a), RowEnd(a)) are W_{a, BlockColumn(k)}
  // = Block(k), sorted by column.
  int RowBegin(int a) const { return row_start_[a]; }
  int RowEnd(int a) const { return row_start_[a + 1]; }
  int BlockColumn(int k) const { return block_column_[k]; }
  const Eigen::Matrix3d& Block(int k) const { return blocks_[k]; }

  // sum_{b != a} W_ab r_b, r of size m. No allocation.
  Eigen::Vector3d OffDiagonalProduct(int a, const Eigen::VectorXd& r) const;

  // W as a scalar sparse matrix (stored blocks only), for tests and
  // diagnostics.
  SparseMatrix ToSparse() const;

  // v = M^-1 (H r + f) with the kept factorization. False if not computed or
  // sizes mismatch.
  bool RecoverVelocity(const GlobalProblem& problem,
                       const Eigen::VectorXd& r,
                       Eigen::VectorXd* v) const;

  // x = M^-1 rhs with the kept factorization.
  bool Solve(const Eigen::VectorXd& rhs, Eigen::VectorXd* x) const {
    return m_inverse_ != nullptr && m_inverse_->factorization().Solve(rhs, x);
  }

 private:
  void Clear();
  // W from m_inverse's factors, and what it was built from; false (message
  // set) when a solve is not finite.
  bool Build(const GlobalProblem& problem,
             const MInverse& m_inverse,
             std::string* message);
  // W was built from m_inverse's current factors and from problem.H.
  bool Reusable(const GlobalProblem& problem, const MInverse& m_inverse) const;

  MInverse own_m_inverse_;               // for Compute(problem, message)
  const MInverse* m_inverse_ = nullptr;  // set by a successful Compute
  const Eigen::VectorXd no_q_free_;      // q_free() when not computed
  std::vector<int> row_start_;           // nc + 1
  std::vector<int> block_column_;        // num_blocks
  std::vector<Eigen::Matrix3d> blocks_;  // num_blocks
  std::vector<int> diagonal_index_;      // nc: position of W_aa in blocks_
  // What the stored W was built from: the owner, its factorization count at
  // the time (a new M means a new factorization), and a copy of H.
  const MInverse* built_owner_ = nullptr;
  int built_factorizations_ = -1;
  SparseMatrix built_h_;
  bool reused_ = false;
};

}  // namespace fcsn::internal

#endif  // FCSN_MINVERSE_DELASSUS_H_
