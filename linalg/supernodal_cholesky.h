// linalg/supernodal_cholesky.h: the supernodal Cholesky factorization of a
// large symmetric positive definite M, one of the factorizations
// linalg/m_factorization.h keeps:
//
//   P M P^T = L L^T      CHOLMOD (SuiteSparse), supernodal: the columns of L
//                        with one pattern are one dense block, factored and
//                        updated with BLAS 3; from the lower triangle of M;
//                        P = METIS nested dissection (linalg/fill_ordering.h)
//                        then CHOLMOD's postorder of the elimination tree.
//
//   x    = M^-1 b = P^T L^-T L^-1 P b            (Solve, by supernodes;
//                                                 ForwardSolve, BackwardSolve)
//   W_aa = H_a^T M^-1 H_a = Y_a^T Y_a,  Y_a = L^-1 P H_a   (DiagonalBlocks)
//
// W_aa by supernodal reach solves: Y_a is nonzero only on the supernodes that
// are elimination-tree ancestors of the supernodes holding the dofs of contact
// a. A batch of contacts is solved together on the union of their reaches,
// one supernode s at a time: Y_s = L_ss^-1 Y_s (dense triangular solve), then
// Y_rows(s) -= L_bs Y_s (dense product, scattered to the rows below s), and
// W_aa += Y_s,a^T Y_s,a. The top separators, shared by every contact, are
// then dense BLAS 3 blocks instead of one sparse column at a time.
//
// Why (bench/results/m_setup.md): at refine 3 (n = 133,853) the simplicial
// LDL^T and its reach solves take most of the setup; CHOLMOD's supernodal
// factorization runs at BLAS speed.
//
// Contract: Factorize() fails (false, message) when M is not positive
// definite (CHOLMOD's Cholesky stops at a nonpositive or NaN pivot) or CHOLMOD
// fails; the factor and its analysis are then dropped and the caller uses
// another factorization. Not thread-safe: Solve() is const but uses the
// object's work vector. CHOLMOD never prints (Common.print = 0).
#ifndef FCSN_LINALG_SUPERNODAL_CHOLESKY_H_
#define FCSN_LINALG_SUPERNODAL_CHOLESKY_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fcsn/problem.h"
#include "linalg/contact_reach.h"

namespace fcsn::internal {

// Contacts whose W_aa reach solves share one supernodal pass: wider batches
// make the shared top separators better BLAS 3 blocks but solve more zeros
// below them (bench/results/m_setup.md).
constexpr int kSupernodalBatch = 16;

// Polled by the W_aa reach solves between batches: true once a second thread
// may join them (SolverOptions::setup_threads: when J's analysis, which ran on
// it, is done). Empty: one thread. Each contact's W_aa is the same bits
// whichever thread computes it.
using SecondThreadReady = std::function<bool()>;

// The contacts ordered by the first pivot their dofs reach (smallest
// position[row] over the rows of H_a; position: dof -> pivot): contacts close
// in the elimination order share more of their reaches, so a batch of them
// solves fewer zeros.
std::vector<int> ContactsByFirstPivot(const SparseMatrix& H,
                                      const int* position);

class SupernodalCholesky {
 public:
  SupernodalCholesky();
  ~SupernodalCholesky();
  SupernodalCholesky(const SupernodalCholesky&) = delete;
  SupernodalCholesky& operator=(const SupernodalCholesky&) = delete;

  // Factors the symmetric M (its lower triangle) as P M P^T = L L^T. The
  // symbolic analysis (ordering, supernodes) is redone only when M's pattern
  // differs from the last analyzed one; *analyzed tells whether it was.
  bool Factorize(const SparseMatrix& M, bool* analyzed, std::string* message);
  // The symbolic analysis alone (METIS ordering, supernodes), when M's pattern
  // differs from the analyzed one (*analyzed tells whether it did); false
  // with a message when CHOLMOD fails. Factorize(M) is then numeric only.
  bool Analyze(const SparseMatrix& M, bool* analyzed, std::string* message);
  // Whether the kept symbolic analysis is for M's pattern: Factorize(M) then
  // makes no METIS call.
  bool AnalyzedFor(const SparseMatrix& M) const;
  // Drops the numeric factor.
  void Reset();
  bool factored() const;

  // The pivots d_j = L_jj^2 of P M P^T = L D' L'^T with unit L' (the D of the
  // equivalent LDL^T), in pivot order.
  Eigen::VectorXd Pivots() const;
  // x = M^-1 b (x and b have n entries; b is read before x is written, so
  // they may be one vector). Does not allocate: the work vector is sized by
  // Factorize().
  void Solve(const Eigen::Ref<const Eigen::VectorXd>& b,
             Eigen::Ref<Eigen::VectorXd> x) const;
  // Solve() in two halves, for sweeps that change the right-hand side
  // between them (linalg/contact_reach.h): y = L^-1 P b (pivot order) and
  // x = P^T L^-T y. n entries each; y and x may alias b and y. Allocation-free.
  void ForwardSolve(const Eigen::Ref<const Eigen::VectorXd>& b,
                    Eigen::Ref<Eigen::VectorXd> y) const;
  void BackwardSolve(const Eigen::Ref<const Eigen::VectorXd>& y,
                     Eigen::Ref<Eigen::VectorXd> x) const;
  // Y_a = L^-1 P H_a of contacts[0..count) (count <= kSupernodalBatch), in
  // one supernodal pass over the union of their reaches: (*out)[b] holds
  // contact b's rows on every supernode of that union its batch columns
  // span (zero rows where it is not its reach; inverse_d = 1). Uses the
  // object's workspace (sized at the first call after an analysis). False
  // when count is out of range or the workspace cannot be allocated.
  bool Reach(const SparseMatrix& H,
             const int* contacts,
             int count,
             std::vector<ContactReach>* out) const;
  // W_aa = H_a^T M^-1 H_a for every contact (H: n rows, 3 nc columns), by the
  // supernodal reach solves above, batch_contacts contacts per pass; the
  // batches are shared with a second thread from when `second` says so (if
  // a thread can be started).
  void DiagonalBlocks(const SparseMatrix& H,
                      std::vector<Eigen::Matrix3d>* blocks,
                      int batch_contacts = kSupernodalBatch,
                      const SecondThreadReady& second = {}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_SUPERNODAL_CHOLESKY_H_
