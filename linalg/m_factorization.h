// linalg/m_factorization.h: the one owner of the factorization of M in a
// solve, and of everything derived from it.
//
//   M symmetric (problem/m_symmetry.h), n >= kNestedDissectionMinDofs (the
//   size rule of linalg/fill_ordering.h) and positive definite:
//       P M P^T = L L^T, CHOLMOD's supernodal Cholesky on the same METIS
//       ordering (linalg/supernodal_cholesky.h);
//   M symmetric otherwise (smaller, or the Cholesky fails):  P M P^T = L D L^T
//       Eigen SimplicialLDLT, from the lower triangle, AMD ordering or
//       nested dissection for large M (linalg/fill_ordering.h);
//   otherwise (an upper triangle taken "as stored"):   P_r M P_c = L U
//       Eigen SparseLU, COLAMD ordering.
//
//   q_free = H^T M^-1 f + w      (rho, error measures, NSGS)
//   W_aa   = H_a^T M^-1 H_a      (3 x 3 diagonal blocks of the Delassus
//                                 operator W = H^T M^-1 H, for rho)
//   x      = M^-1 b              (the products H^T M^-1 H r of NSGS's velocity
//                                 recovery and of projected Jacobi)
//
// Acceptance. Factorize() fails when the factorization fails (Eigen reports a
// zero pivot or a structurally singular M) or an LDL^T pivot is not finite:
// what rho and Newton need. NSGS and projected Jacobi also need M positive
// definite (CheckPositiveDefinite(): the rule of problem/m_regularity.h).
//
// W_aa from the LDL^T without forming M^-1: W_aa = Y^T D^-1 Y, Y = L^-1 P H_a,
// and the sparse triangular solve only visits the elimination-tree ancestors
// of the dofs of contact a, so the cost per contact is a small multiple of the
// factorization's last separators, not n. With the LU, three dense solves per
// contact, W_aa symmetrized. With the supernodal Cholesky, W_aa = Y^T Y by
// the same reach solves taken by supernodes (dense BLAS 3 blocks).
//
// MInverse is created once per Solver and bound to each solve's problem; it
// factorizes on first need (lazily) and keeps the symbolic analysis (ordering,
// elimination tree) while the pattern of M is unchanged, as in time stepping.
// Pure Newton pays one factorization (for q_free); rho, the
// Delassus operator, projected Jacobi and the error measures of a hybrid solve
// share it.
//
// Reuse across solves: in linear-elastic time stepping M (the
// Moreau-Jean iteration matrix) and H are the same at every step, only f and
// w change. Bind() keeps the numeric factors when the new M is bit for bit the
// M they were made from (same size, pattern and value bits), and the blocks
// W_aa when H is bit for bit the same too; q_free is always recomputed. The
// test is an exact comparison with a stored copy of M and H (O(nnz(M) +
// nnz(H)) time, one copy of each in memory), so reused data is never stale
// and the results are the same bits as with a fresh factorization. A failed
// factorization is never reused.
//
// Usage:
//   MInverse m_inverse;                        // a Solver member
//   m_inverse.Bind(problem);                   // each solve
//   if (!m_inverse.ComputeQFree(&error)) ...   // factorizes M once
//   const auto& w = m_inverse.DiagonalBlocks();  // lazily, same factors
//   m_inverse.factorization().Solve(b, &x);
#ifndef FCSN_LINALG_M_FACTORIZATION_H_
#define FCSN_LINALG_M_FACTORIZATION_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/error_measures.h"
#include "fcsn/problem.h"
#include "linalg/contact_reach.h"
#include "linalg/fill_ordering.h"
#include "linalg/supernodal_cholesky.h"

namespace fcsn::internal {

// W_aa = (B + B^T) / 2 with B = H_a^T X_a, from X_a = M^-1 H_a (n x 3, the
// columns 3a..3a+2 of H solved by a general, e.g. LU, factorization): the
// diagonal block symmetrized, as an LDL^T gives it. B(l, k) is the sparse
// column 3a + l of H dotted with X_a(:, k). Shared by MFactorization's LU
// path and the distributed M (minverse/distributed_m.h).
Eigen::Matrix3d DiagonalBlockFromSolve(
    const SparseMatrix& H, int a, const Eigen::Ref<const Eigen::MatrixXd>& x_a);

// Which factorization of M is kept.
enum class MFactorizationType {
  kNone,                // "none": not factored (yet), or factorization failed
  kSimplicialLdlt,      // "simplicial-ldlt": M symmetric, fill_ordering.h
  kSparseLu,            // "sparse-lu": M not symmetric, COLAMD ordering
  kSupernodalCholesky,  // "supernodal-cholesky": M symmetric positive
                        // definite and large, supernodal_cholesky.h
};
const char* ToString(MFactorizationType type);

// True when a and b are the same matrix bit for bit: sizes, compressed
// patterns and the bits of every stored value (an uncompressed matrix is never
// the same). Bits, not ==: equal bits give the same factors, and -0.0 or a
// NaN must not pass for another value. O(nnz).
bool SameBits(const SparseMatrix& a, const SparseMatrix& b);

// The size (dofs of M) from which a Solver with SolverOptions::setup_threads
// = 2 runs J's pattern and analysis on a second thread while M is factorized
// (solver.cc). Below it a cold solve's setup takes a few milliseconds, against
// ~0.1 ms to start a thread; at n = 1800 and 4320 (lattice bars) and 7205 (the
// 688-contact wall, -11 % median time) the overlap paid
// (bench/results/setup_cost.md).
constexpr int kTwoSetupThreadsMinDofs = 1000;

// Contacts whose W_aa reach solves share one pass by default (measured in
// bench/results/rho_setup.md).
constexpr int kDiagonalBlockBatch = 4;

// Contacts whose Y_a a sweep gets from one Reach() pass: the supernodal
// reach solves then run on 3 x 16 right-hand sides, so each supernode's
// dense triangle is packed once for 16 contacts (one at a time, packing took
// most of a sweep on the pushed bar, bench/results/fronts.md).
constexpr int kReachBatch = kSupernodalBatch;

// The factors of one square matrix (M, or one diagonal block of M for the
// Delassus operator). Not copyable (owns the factors).
class MFactorization {
 public:
  // Symmetric M of at least supernodal_min_dofs rows get the supernodal
  // Cholesky first (tests lower it to force that path on small M).
  explicit MFactorization(int supernodal_min_dofs = kNestedDissectionMinDofs);
  ~MFactorization();
  MFactorization(const MFactorization&) = delete;
  MFactorization& operator=(const MFactorization&) = delete;

  // Factors the square matrix M: supernodal Cholesky or LDL^T when
  // IsSymmetricM(M) (see the header comment), else LU. The symbolic analysis
  // of either symmetric factorization is redone only when M's pattern differs
  // from its last one. On failure returns false, sets *message and leaves
  // type() == kNone.
  bool Factorize(const SparseMatrix& M, std::string* message);
  // Factorize() in two parts, for a caller that runs other work calling METIS
  // on a second thread meanwhile (solver.cc, SolverOptions::setup_threads):
  // METIS 5.1 swaps the process' SIGABRT and SIGTERM handlers around every
  // call, so two overlapping calls can leave its handler installed for good.
  // Order(M) makes the METIS call of Factorize(M) (the supernodal symbolic
  // analysis, when M has supernodal_min_dofs rows or more: kept while M's
  // pattern is unchanged). FactorizeOrdered(M) is then Factorize(M) without
  // any METIS call: true with the same factors, bit for bit, when M is
  // symmetric, positive definite and so analyzed, or when M has fewer rows
  // than kNestedDissectionMinDofs and supernodal_min_dofs (every ordering is
  // then AMD's or COLAMD's, fill_ordering.h); otherwise false (type() ==
  // kNone, *message says why), and Factorize(M) is left to the caller for
  // when the other work is done (a large M not symmetric, or not positive
  // definite: the LU or the LDL^T orders M).
  void Order(const SparseMatrix& M);
  bool FactorizeOrdered(const SparseMatrix& M, std::string* message);
  // Drops the numeric factors (type() becomes kNone); the analysis is kept.
  void Reset();
  // True for LU; for LDL^T (or L L^T, d_i = L_ii^2), true when M is regular
  // by the rule of problem/m_regularity.h (positive definite to working
  // precision: pivots and a few inverse iterations, judged once per
  // factorization), else false with a message.
  bool CheckPositiveDefinite(std::string* message) const;

  MFactorizationType type() const { return type_; }
  // A symmetric factorization (LDL^T or supernodal L L^T) is kept: M was
  // symmetric, SolveWithoutAllocation() works.
  bool symmetric() const {
    return type_ == MFactorizationType::kSimplicialLdlt ||
           type_ == MFactorizationType::kSupernodalCholesky;
  }
  int n() const { return n_; }
  // Numeric factorizations and symbolic analyses done by this object.
  int factorizations() const { return factorizations_; }
  int analyses() const { return analyses_; }

  // x = M^-1 rhs for every column of rhs (rhs has n rows). Returns false (and
  // leaves x unchanged) when M is not factored, the sizes do not match, or the
  // result is not finite.
  bool Solve(const Eigen::Ref<const Eigen::MatrixXd>& rhs,
             Eigen::MatrixXd* x) const;
  bool Solve(const Eigen::Ref<const Eigen::VectorXd>& rhs,
             Eigen::VectorXd* x) const;
  // x = M^-1 b without allocating (x and work hold n entries), symmetric()
  // only: x = P^T L^-T D^-1 L^-1 P b. False if not symmetric() or x is not
  // finite.
  bool SolveWithoutAllocation(const Eigen::VectorXd& b,
                              Eigen::VectorXd* x,
                              Eigen::VectorXd* work) const;
  // Solve() in two halves around a sweep's updates of the right-hand side,
  // symmetric() only (linalg/contact_reach.h): with P M P^T = L D L^T (D = I
  // for the supernodal Cholesky), y = L^-1 P b and x = P^T L^-T D^-1 y, so
  // BackwardSolve(ForwardSolve(b)) = M^-1 b. y, x and work hold n entries
  // (allocation-free then). False when not symmetric() or the sizes differ,
  // and BackwardSolve when x is not finite.
  bool ForwardSolve(const Eigen::VectorXd& b, Eigen::VectorXd* y) const;
  bool BackwardSolve(const Eigen::VectorXd& y,
                     Eigen::VectorXd* x,
                     Eigen::VectorXd* work) const;
  // Y_a = L^-1 P H_a of contacts[0..count) (count <= kReachBatch), with
  // 1 / d per pivot (linalg/contact_reach.h), in one pass over the union of
  // their elimination-tree reaches: (*out)[b] for contacts[b], zero rows
  // where the union is not its reach. symmetric() only. Uses a workspace
  // kept with the factors: not thread-safe. False when not symmetric(), a
  // contact is not one of H, count is out of range, or the workspace cannot
  // be allocated.
  bool Reach(const SparseMatrix& H,
             const int* contacts,
             int count,
             std::vector<ContactReach>* out) const;
  // W_aa = H_a^T M^-1 H_a for every contact a (H has n rows, 3 nc columns).
  // LDL^T: the reach solves of batch_contacts contacts share one pass (the
  // same bits for any batch size; see the header comment); the supernodal
  // Cholesky batches kSupernodalBatch contacts and shares them with a second
  // thread from when `second` says so (the LDL^T ignores it).
  void DiagonalBlocks(const SparseMatrix& H,
                      std::vector<Eigen::Matrix3d>* blocks,
                      int batch_contacts = kDiagonalBlockBatch,
                      const SecondThreadReady& second = {}) const;

 private:
  // The supernodal Cholesky of the symmetric M; false when M is not positive
  // definite (or CHOLMOD fails).
  bool FactorizeSupernodal(const SparseMatrix& M);
  // Sets regular_ and not_regular_reason_ for the factors just made.
  void JudgeRegularity(const SparseMatrix& M);
  // Factorize() (may_order) or FactorizeOrdered() (!may_order).
  bool Factorize(const SparseMatrix& M, bool may_order, std::string* message);

  struct Factors;
  std::unique_ptr<Factors> factors_;
  MFactorizationType type_ = MFactorizationType::kNone;
  int n_ = 0;
  // The verdict of problem/m_regularity.h on the factors (true for LU).
  bool regular_ = true;
  std::string not_regular_reason_;
  int supernodal_min_dofs_;
  int factorizations_ = 0;
  int analyses_ = 0;
};

// The solve by `factorization` that the floor s_eps of the error measures
// uses (fcsn/error_measures.h): empty unless M is regular there, i.e. an LU,
// or a symmetric factorization that passes CheckPositiveDefinite(). The
// function refers to `factorization`, which must outlive it.
MSolveFunction RegularSolve(const MFactorization& factorization);

// The per-solve owner: M's factorization, q_free and the diagonal blocks W_aa
// of one bound problem, each computed on first need.
class MInverse {
 public:
  MInverse() = default;
  MInverse(const MInverse&) = delete;
  MInverse& operator=(const MInverse&) = delete;

  // Starts work on `problem` (kept by pointer: it must outlive the calls below
  // that compute). Drops q_free; keeps the factors when problem.M equals the
  // factored M exactly, and the W_aa when problem.H equals theirs too (see the
  // header comment), else drops them; the symbolic analysis survives an
  // unchanged pattern of M.
  void Bind(const GlobalProblem& problem);
  // Whether the last Bind() kept the factors (the blocks W_aa) of an earlier
  // solve.
  bool reused_factors() const { return reused_factors_; }
  bool reused_blocks() const { return reused_blocks_; }

  // Factorizes M on the first call after Bind(), then returns that outcome
  // (and its message) again. False before any Bind().
  bool Factorize(std::string* message);
  // That first factorization in two parts around other work calling METIS on
  // a second thread (MFactorization::Order): Order() before that work starts,
  // FactorizeOrdered() while it runs; true when M is then factored (as
  // Factorize() would, or kept from an earlier solve). False: nothing was
  // recorded, and Factorize() must wait for the other work to end.
  void Order();
  bool FactorizeOrdered();
  // q_free = H^T M^-1 f + w (factorizes if needed). When M is not regular
  // (it cannot be factored, or it fails the rule of problem/m_regularity.h: a
  // singular M such as the stiffness of a floating body in a static step, or
  // an indefinite one), M^-1 is replaced by diag(M)^-1 (zero diagonal entries
  // give 0) and regular() is false: everything that only scales (rho, q_free,
  // the cold start, the floor of the error measures) then needs no inverse,
  // and Newton, whose J is regular when the contacts remove M's null space,
  // runs on. False with a message when the free velocity is not finite.
  bool ComputeQFree(std::string* message);
  // After ComputeQFree(): whether M^-1 was used, and if not, why.
  bool regular() const { return regular_; }
  const std::string& not_regular_reason() const { return not_regular_reason_; }

  // After a successful ComputeQFree(); free_velocity() = M^-1 f, the v of
  // q_free (SolverOptions::cold_start).
  const Eigen::VectorXd& q_free() const { return q_free_; }
  const Eigen::VectorXd& free_velocity() const { return free_velocity_; }
  double q_free_norm() const { return q_free_norm_; }
  // After a successful Factorize(): W_aa for every contact, computed once
  // (with a second thread from when `second` says so; see
  // MFactorization::DiagonalBlocks).
  const std::vector<Eigen::Matrix3d>& DiagonalBlocks(
      const SecondThreadReady& second = {});

  // Whether M passed the symmetry test and was factored as L D L^T (after a
  // successful Factorize()).
  bool symmetric() const { return symmetric_; }
  const MFactorization& factorization() const { return factorization_; }
  const GlobalProblem* problem() const { return problem_; }

 private:
  // Records a successful first factorization of problem_->M.
  void RecordFactored();

  const GlobalProblem* problem_ = nullptr;
  MFactorization factorization_;
  SparseMatrix factored_m_;  // the M of factorization_ (when factored_)
  SparseMatrix blocks_h_;    // the H of blocks_ (when blocks_ready_)
  bool reused_factors_ = false;
  bool reused_blocks_ = false;
  bool attempted_ = false;  // Factorize() ran since Bind()
  bool factored_ = false;   // ... and succeeded
  std::string failure_;     // ... or why not
  bool symmetric_ = false;
  bool q_free_ready_ = false;
  bool regular_ = false;
  std::string not_regular_reason_;
  Eigen::VectorXd q_free_;
  Eigen::VectorXd free_velocity_;
  double q_free_norm_ = 0.0;
  bool blocks_ready_ = false;
  std::vector<Eigen::Matrix3d> blocks_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_M_FACTORIZATION_H_
