// The factorization of M and what derives from it (see m_factorization.h).
#include "linalg/m_factorization.h"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "linalg/fill_ordering.h"
#include "linalg/ldlt_reach.h"
#include "linalg/stored_pattern.h"
#include "linalg/supernodal_cholesky.h"
#include "problem/m_regularity.h"
#include "problem/m_symmetry.h"

namespace fcsn::internal {

Eigen::Matrix3d DiagonalBlockFromSolve(
    const SparseMatrix& H,
    int a,
    const Eigen::Ref<const Eigen::MatrixXd>& x_a) {
  Eigen::Matrix3d b;
  for (int k = 0; k < 3; ++k) {
    for (int l = 0; l < 3; ++l) b(l, k) = H.col(3 * a + l).dot(x_a.col(k));
  }
  return 0.5 * (b + b.transpose());
}

const char* ToString(MFactorizationType type) {
  switch (type) {
    case MFactorizationType::kNone:
      return "none";
    case MFactorizationType::kSimplicialLdlt:
      return "simplicial-ldlt";
    case MFactorizationType::kSparseLu:
      return "sparse-lu";
    case MFactorizationType::kSupernodalCholesky:
      return "supernodal-cholesky";
  }
  return "?";
}

bool SameBits(const SparseMatrix& a, const SparseMatrix& b) {
  if (!a.isCompressed() || !b.isCompressed() || a.rows() != b.rows() ||
      a.cols() != b.cols() || a.nonZeros() != b.nonZeros()) {
    return false;
  }
  const size_t outer = static_cast<size_t>(a.outerSize() + 1);
  const size_t nnz = static_cast<size_t>(a.nonZeros());
  return std::memcmp(a.outerIndexPtr(),
                     b.outerIndexPtr(),
                     outer * sizeof(*a.outerIndexPtr())) == 0 &&
         std::memcmp(a.innerIndexPtr(),
                     b.innerIndexPtr(),
                     nnz * sizeof(*a.innerIndexPtr())) == 0 &&
         std::memcmp(a.valuePtr(), b.valuePtr(), nnz * sizeof(*a.valuePtr())) ==
             0;
}

struct MFactorization::Factors {
  Ldlt ldlt;
  StoredPattern analyzed;     // pattern ldlt's analysis was done for
  Eigen::VectorXd inverse_d;  // 1 / D of the LDL^T (allocation-free solves)
  Eigen::SparseLU<SparseMatrix, Eigen::COLAMDOrdering<int>> lu;
  SupernodalCholesky cholesky;
  // Y_a of one contact at a time on ldlt (Reach()), made at first use after
  // each factorization.
  std::unique_ptr<LdltReach> ldlt_reach;
};

MFactorization::MFactorization(int supernodal_min_dofs)
    : factors_(std::make_unique<Factors>()),
      supernodal_min_dofs_(supernodal_min_dofs) {}
MFactorization::~MFactorization() = default;

void MFactorization::Reset() {
  type_ = MFactorizationType::kNone;
  n_ = 0;
  regular_ = true;
  not_regular_reason_.clear();
}

bool MFactorization::Factorize(const SparseMatrix& M, std::string* message) {
  return Factorize(M, /*may_order=*/true, message);
}

bool MFactorization::FactorizeOrdered(const SparseMatrix& M,
                                      std::string* message) {
  return Factorize(M, /*may_order=*/false, message);
}

void MFactorization::Order(const SparseMatrix& M) {
  if (M.rows() != M.cols() || M.rows() == 0 ||
      M.rows() < supernodal_min_dofs_) {
    return;
  }
  // Not positive definite or not symmetric shows in the factorization, which
  // then drops this analysis (FactorizeOrdered() fails, Factorize() decides).
  bool analyzed = false;
  std::string failure;
  if (M.isCompressed()) {
    factors_->cholesky.Analyze(M, &analyzed, &failure);
  } else {
    SparseMatrix compressed = M;
    compressed.makeCompressed();
    factors_->cholesky.Analyze(compressed, &analyzed, &failure);
  }
  if (analyzed) ++analyses_;
}

bool MFactorization::Factorize(const SparseMatrix& M,
                               bool may_order,
                               std::string* message) {
  Reset();
  if (M.rows() != M.cols()) {
    *message = "M must be square, but it is " + std::to_string(M.rows()) +
               " x " + std::to_string(M.cols());
    return false;
  }
  const int n = static_cast<int>(M.rows());
  if (n == 0) {
    type_ = MFactorizationType::kSimplicialLdlt;
    return true;
  }
  // Below both sizes M is ordered by AMD or COLAMD (fill_ordering.h), never
  // by METIS: FactorizeOrdered() then factorizes as Factorize() does.
  const bool metis_free =
      n < kNestedDissectionMinDofs && n < supernodal_min_dofs_;
  const bool order = may_order || metis_free;
  if (!order && (n < supernodal_min_dofs_ || !M.isCompressed() ||
                 !factors_->cholesky.AnalyzedFor(M))) {
    *message = "M has no kept supernodal analysis";
    return false;
  }
  ++factorizations_;
  const bool symmetric = IsSymmetricM(M);
  if (symmetric && n >= supernodal_min_dofs_ && FactorizeSupernodal(M)) {
    type_ = MFactorizationType::kSupernodalCholesky;
  } else if (!order) {
    *message = "M needs another factorization than the supernodal Cholesky";
    return false;
  } else if (symmetric) {
    if (!factors_->analyzed.Matches(M)) {
      factors_->ldlt.analyzePattern(M);
      factors_->analyzed.Assign(M);
      ++analyses_;
    }
    factors_->ldlt_reach.reset();  // made from the factors being replaced
    factors_->ldlt.factorize(M);
    const Eigen::VectorXd& d = factors_->ldlt.vectorD();
    if (factors_->ldlt.info() != Eigen::Success || !d.allFinite() ||
        (d.array() == 0.0).any()) {
      factors_->analyzed.Clear();  // a failed factorize may leave it unusable
      *message = "M is singular: its LDL^T factorization has a zero pivot";
      return false;
    }
    factors_->inverse_d = d.cwiseInverse();
    type_ = MFactorizationType::kSimplicialLdlt;
  } else {
    SparseMatrix compressed = M;
    compressed.makeCompressed();
    factors_->lu.analyzePattern(compressed);
    factors_->lu.factorize(compressed);
    ++analyses_;
    if (factors_->lu.info() != Eigen::Success) {
      *message = "M is singular: its sparse LU factorization failed (" +
                 factors_->lu.lastErrorMessage() + ")";
      return false;
    }
    type_ = MFactorizationType::kSparseLu;
  }
  n_ = n;
  JudgeRegularity(M);
  return true;
}

bool MFactorization::FactorizeSupernodal(const SparseMatrix& M) {
  bool analyzed = false;
  std::string failure;  // not positive definite: the LDL^T takes M
  bool factored = false;
  if (M.isCompressed()) {
    factored = factors_->cholesky.Factorize(M, &analyzed, &failure);
  } else {
    SparseMatrix compressed = M;
    compressed.makeCompressed();
    factored = factors_->cholesky.Factorize(compressed, &analyzed, &failure);
  }
  if (analyzed) ++analyses_;
  return factored;
}

void MFactorization::JudgeRegularity(const SparseMatrix& M) {
  regular_ = true;
  not_regular_reason_.clear();
  if (!symmetric() || n_ == 0) return;
  const Eigen::VectorXd d = type_ == MFactorizationType::kSupernodalCholesky
                                ? factors_->cholesky.Pivots()
                                : factors_->ldlt.vectorD();
  regular_ = IsRegular(
      d,
      MaxAbsDiagonal(M),
      [this](const Eigen::VectorXd& b, Eigen::VectorXd* x) {
        return Solve(b, x);
      },
      &not_regular_reason_);
}

bool MFactorization::CheckPositiveDefinite(std::string* message) const {
  if (!regular_) *message = not_regular_reason_;
  return regular_;
}

bool MFactorization::Solve(const Eigen::Ref<const Eigen::MatrixXd>& rhs,
                           Eigen::MatrixXd* x) const {
  if (rhs.rows() != n_) return false;
  Eigen::MatrixXd out;
  switch (type_) {
    case MFactorizationType::kNone:
      return false;
    case MFactorizationType::kSimplicialLdlt:
      if (n_ == 0) {
        out.resize(0, rhs.cols());
      } else {
        out = factors_->ldlt.solve(rhs);
      }
      break;
    case MFactorizationType::kSparseLu:
      out = factors_->lu.solve(rhs);
      break;
    case MFactorizationType::kSupernodalCholesky:
      out.resize(n_, rhs.cols());
      for (int j = 0; j < rhs.cols(); ++j) {
        factors_->cholesky.Solve(rhs.col(j), out.col(j));
      }
      break;
  }
  if (!out.allFinite()) return false;
  *x = std::move(out);
  return true;
}

bool MFactorization::Solve(const Eigen::Ref<const Eigen::VectorXd>& rhs,
                           Eigen::VectorXd* x) const {
  Eigen::MatrixXd out;
  if (!Solve(Eigen::Ref<const Eigen::MatrixXd>(rhs), &out)) return false;
  *x = out.col(0);
  return true;
}

bool MFactorization::SolveWithoutAllocation(const Eigen::VectorXd& b,
                                            Eigen::VectorXd* x,
                                            Eigen::VectorXd* work) const {
  if (!symmetric() || b.size() != n_) return false;
  if (n_ == 0) return true;
  if (type_ == MFactorizationType::kSupernodalCholesky) {
    x->resize(n_);  // no-op: x holds n entries
    factors_->cholesky.Solve(b, *x);
    return x->allFinite();
  }
  const Ldlt& ldlt = factors_->ldlt;
  // Eigen's solve() allocates for its in-place permutation; by hand:
  // P M P^T = L D L^T, x = P^T L^-T D^-1 L^-1 P b.
  if (ldlt.permutationP().size() > 0) {
    *work = ldlt.permutationP() * b;
  } else {
    *work = b;
  }
  ldlt.matrixL().solveInPlace(*work);
  work->array() *= factors_->inverse_d.array();
  ldlt.matrixU().solveInPlace(*work);
  if (ldlt.permutationPinv().size() > 0) {
    *x = ldlt.permutationPinv() * (*work);
  } else {
    *x = *work;
  }
  return x->allFinite();
}

bool MFactorization::ForwardSolve(const Eigen::VectorXd& b,
                                  Eigen::VectorXd* y) const {
  if (!symmetric() || b.size() != n_) return false;
  y->resize(n_);  // no-op: y holds n entries
  if (n_ == 0) return true;
  if (type_ == MFactorizationType::kSupernodalCholesky) {
    factors_->cholesky.ForwardSolve(b, *y);
    return true;
  }
  const Ldlt& ldlt = factors_->ldlt;
  if (ldlt.permutationP().size() > 0) {
    *y = ldlt.permutationP() * b;
  } else {
    *y = b;
  }
  ldlt.matrixL().solveInPlace(*y);
  return true;
}

bool MFactorization::BackwardSolve(const Eigen::VectorXd& y,
                                   Eigen::VectorXd* x,
                                   Eigen::VectorXd* work) const {
  if (!symmetric() || y.size() != n_) return false;
  x->resize(n_);  // no-op: x holds n entries
  if (n_ == 0) return true;
  if (type_ == MFactorizationType::kSupernodalCholesky) {
    factors_->cholesky.BackwardSolve(y, *x);
    return x->allFinite();
  }
  const Ldlt& ldlt = factors_->ldlt;
  *work = y.cwiseProduct(factors_->inverse_d);
  ldlt.matrixU().solveInPlace(*work);
  if (ldlt.permutationPinv().size() > 0) {
    *x = ldlt.permutationPinv() * (*work);
  } else {
    *x = *work;
  }
  return x->allFinite();
}

bool MFactorization::Reach(const SparseMatrix& H,
                           const int* contacts,
                           int count,
                           std::vector<ContactReach>* out) const {
  if (!symmetric() || H.rows() != n_ || count < 1 || count > kReachBatch) {
    return false;
  }
  for (int b = 0; b < count; ++b) {
    if (contacts[b] < 0 || 3 * contacts[b] + 2 >= H.cols()) return false;
  }
  if (type_ == MFactorizationType::kSupernodalCholesky) {
    return factors_->cholesky.Reach(H, contacts, count, out);
  }
  if (!factors_->ldlt_reach) {
    factors_->ldlt_reach =
        std::make_unique<LdltReach>(factors_->ldlt, kReachBatch);
  }
  factors_->ldlt_reach->Solve(H, contacts, count, out);
  return true;
}

void MFactorization::DiagonalBlocks(const SparseMatrix& H,
                                    std::vector<Eigen::Matrix3d>* blocks,
                                    int batch_contacts,
                                    const SecondThreadReady& second) const {
  const int nc = static_cast<int>(H.cols() / 3);
  if (type_ == MFactorizationType::kSimplicialLdlt && n_ > 0) {
    DiagonalBlocksFromLdlt(factors_->ldlt, H, batch_contacts, blocks);
    return;
  }
  if (type_ == MFactorizationType::kSupernodalCholesky) {
    factors_->cholesky.DiagonalBlocks(H, blocks, kSupernodalBatch, second);
    return;
  }
  blocks->assign(nc, Eigen::Matrix3d::Zero());
  if (type_ != MFactorizationType::kSparseLu) return;
  Eigen::MatrixXd Ha(n_, 3);
  for (int a = 0; a < nc; ++a) {
    Ha = Eigen::MatrixXd(H.middleCols(3 * a, 3));
    const Eigen::MatrixXd X = factors_->lu.solve(Ha);
    (*blocks)[a] = DiagonalBlockFromSolve(H, a, X);
  }
}

MSolveFunction RegularSolve(const MFactorization& factorization) {
  std::string not_regular;
  if (factorization.type() == MFactorizationType::kNone ||
      !factorization.CheckPositiveDefinite(&not_regular)) {
    return {};
  }
  return [&factorization](const Eigen::VectorXd& b, Eigen::VectorXd* x) {
    return factorization.Solve(b, x);
  };
}

void MInverse::Bind(const GlobalProblem& problem) {
  problem_ = &problem;
  q_free_ready_ = false;
  q_free_.resize(0);
  free_velocity_.resize(0);
  q_free_norm_ = 0.0;
  reused_factors_ = factored_ && SameBits(problem.M, factored_m_);
  reused_blocks_ =
      reused_factors_ && blocks_ready_ && SameBits(problem.H, blocks_h_);
  if (!reused_blocks_) {
    blocks_ready_ = false;
    blocks_.clear();
    blocks_h_.resize(0, 0);
  }
  if (reused_factors_) return;  // attempted_, factored_, symmetric_ hold
  factorization_.Reset();
  attempted_ = factored_ = symmetric_ = false;
  failure_.clear();
  factored_m_.resize(0, 0);
}

bool MInverse::Factorize(std::string* message) {
  if (problem_ == nullptr) {
    *message = "internal error: M factorization used before Bind()";
    return false;
  }
  if (!attempted_) {
    attempted_ = true;
    if (factorization_.Factorize(problem_->M, &failure_)) RecordFactored();
  }
  if (!factored_) *message = failure_;
  return factored_;
}

void MInverse::Order() {
  if (problem_ != nullptr && !attempted_) factorization_.Order(problem_->M);
}

bool MInverse::FactorizeOrdered() {
  if (problem_ == nullptr) return false;
  if (attempted_) return factored_;
  std::string failure;
  if (!factorization_.FactorizeOrdered(problem_->M, &failure)) return false;
  attempted_ = true;
  RecordFactored();
  return true;
}

void MInverse::RecordFactored() {
  factored_ = true;
  symmetric_ = factorization_.symmetric();
  factored_m_ = problem_->M;
  factored_m_.makeCompressed();
}

bool MInverse::ComputeQFree(std::string* message) {
  if (q_free_ready_) return true;
  if (problem_ == nullptr) {
    *message = "internal error: M factorization used before Bind()";
    return false;
  }
  not_regular_reason_.clear();
  regular_ = Factorize(&not_regular_reason_) &&
             factorization_.CheckPositiveDefinite(&not_regular_reason_);
  if (regular_) {
    not_regular_reason_.clear();
    if (!factorization_.Solve(problem_->f, &free_velocity_)) {
      *message = "M^-1 f is not finite: M is numerically singular";
      return false;
    }
  } else {
    const Eigen::VectorXd d = problem_->M.diagonal();
    free_velocity_ = Eigen::VectorXd::Zero(problem_->n());
    for (int i = 0; i < problem_->n(); ++i) {
      if (d[i] != 0.0) free_velocity_[i] = problem_->f[i] / std::abs(d[i]);
    }
    if (!free_velocity_.allFinite()) {
      *message = "diag(M)^-1 f is not finite";
      return false;
    }
  }
  q_free_ = problem_->H.transpose() * free_velocity_ + problem_->w;
  q_free_norm_ = q_free_.norm();
  q_free_ready_ = true;
  return true;
}

const std::vector<Eigen::Matrix3d>& MInverse::DiagonalBlocks(
    const SecondThreadReady& second) {
  if (!blocks_ready_ && factored_) {
    factorization_.DiagonalBlocks(
        problem_->H, &blocks_, kDiagonalBlockBatch, second);
    blocks_ready_ = true;
    blocks_h_ = problem_->H;
    blocks_h_.makeCompressed();
  }
  return blocks_;
}

}  // namespace fcsn::internal
