// Reach solves on the simplicial LDL^T (see ldlt_reach.h).
#include "linalg/ldlt_reach.h"

#include <algorithm>
#include <vector>

#include "linalg/supernodal_cholesky.h"

namespace fcsn::internal {
namespace {

// Elimination tree of the LDL^T: parent(j) = first off-diagonal row of column
// j of L (strictly lower, unit diagonal), -1 for a root.
std::vector<int> EliminationTree(const SparseMatrix& L) {
  const int n = static_cast<int>(L.rows());
  std::vector<int> parent(n, -1);
  for (int j = 0; j < n; ++j) {
    if (L.outerIndexPtr()[j + 1] > L.outerIndexPtr()[j]) {
      parent[j] = L.innerIndexPtr()[L.outerIndexPtr()[j]];
    }
  }
  return parent;
}

// The elimination-tree reach solves of W_aa for a batch of contacts (see the
// header): their right-hand sides side by side in one row-major panel, so one
// pass over the union of their reaches updates all of them with contiguous
// row operations. Bounded memory: the panel has n x 3 batch entries at most,
// fewer when that would exceed kPanelBytes.
// 64 MiB: 16 contacts of the refine-3 wall (n = 133,853) take 51 MB.
constexpr size_t kPanelBytes = size_t{64} << 20;

using Panel =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Workspace of the batched reach solves, zero between batches.
struct ReachWork {
  Panel Y;                   // n x 3 batch: L^-1 P H of the batch
  std::vector<char> marked;  // n: in the union reach
  std::vector<int> reach;    // the union reach
};

// Scatters P H_a of contacts[0..count) into Y's columns 3b..3b+2 and collects
// the union of their elimination-tree reaches, sorted (children before
// parents).
void ScatterBatch(const SparseMatrix& H,
                  const int* perm,
                  const std::vector<int>& parent,
                  const int* contacts,
                  int count,
                  ReachWork* work) {
  work->reach.clear();
  for (int b = 0; b < count; ++b) {
    for (int k = 0; k < 3; ++k) {
      for (SparseMatrix::InnerIterator it(H, 3 * contacts[b] + k); it; ++it) {
        const int row = perm[it.row()];
        work->Y(row, 3 * b + k) += it.value();
        for (int j = row; j != -1 && !work->marked[j]; j = parent[j]) {
          work->marked[j] = 1;
          work->reach.push_back(j);
        }
      }
    }
  }
  std::sort(work->reach.begin(), work->reach.end());
}

// Y = L^-1 Y on the union reach, on the first 3 count columns of Y: each
// column j of L in ascending order (children before parents), when row j of
// Y is final.
void SolveReach(const SparseMatrix& L, int count, ReachWork* work) {
  const int width = 3 * count;
  const int stride = static_cast<int>(work->Y.cols());
  double* y = work->Y.data();
  for (int j : work->reach) {
    const double* yj = y + static_cast<size_t>(j) * stride;
    for (int p = L.outerIndexPtr()[j]; p < L.outerIndexPtr()[j + 1]; ++p) {
      double* yi = y + static_cast<size_t>(L.innerIndexPtr()[p]) * stride;
      const double l = L.valuePtr()[p];
      for (int c = 0; c < width; ++c) yi[c] -= l * yj[c];
    }
  }
}

// SolveReach, then W_a += y^T y / d over the reach for each contact of the
// batch, and Y, marked back to zero. Rows of Y outside a contact's own reach
// are exact zeros in its columns, so each W_a gets the same operations in
// the same order as a solve of that contact alone.
void SolveBatch(const SparseMatrix& L,
                const Eigen::VectorXd& D,
                const int* contacts,
                int count,
                ReachWork* work,
                std::vector<Eigen::Matrix3d>* W) {
  SolveReach(L, count, work);
  const int width = 3 * count;
  const int stride = static_cast<int>(work->Y.cols());
  double* y = work->Y.data();
  for (int j : work->reach) {
    double* yj = y + static_cast<size_t>(j) * stride;
    for (int b = 0; b < count; ++b) {
      const Eigen::Map<const Eigen::RowVector3d> yb(yj + 3 * b);
      (*W)[contacts[b]].noalias() += yb.transpose() * yb / D[j];
    }
    std::fill(yj, yj + width, 0.0);
    work->marked[j] = 0;
  }
}

}  // namespace

// W_aa for every contact from P M P^T = L D L^T (see the header): Y = L^-1 P
// H_a on the elimination-tree ancestors of the dofs of a, W_aa = Y^T D^-1 Y,
// batch_contacts contacts at a time (at most; the panel is also bounded by
// kPanelBytes).
void DiagonalBlocksFromLdlt(const Ldlt& ldlt,
                            const SparseMatrix& H,
                            int batch_contacts,
                            std::vector<Eigen::Matrix3d>* W) {
  const SparseMatrix& L = ldlt.matrixL().nestedExpression();
  const Eigen::VectorXd D = ldlt.vectorD();
  const int* perm = ldlt.permutationP().indices().data();
  const int n = static_cast<int>(L.rows());
  const int nc = static_cast<int>(H.cols() / 3);
  const size_t per_contact = size_t{3} * sizeof(double) * n;
  const int batch = static_cast<int>(
      std::clamp<size_t>(kPanelBytes / per_contact,
                         1,
                         static_cast<size_t>(std::max(1, batch_contacts))));
  const std::vector<int> parent = EliminationTree(L);
  ReachWork work;
  work.Y = Panel::Zero(n, 3 * batch);
  work.marked.assign(n, 0);
  W->assign(nc, Eigen::Matrix3d::Zero());
  const std::vector<int> contacts = ContactsByFirstPivot(H, perm);
  for (int first = 0; first < nc; first += batch) {
    const int count = std::min(batch, nc - first);
    ScatterBatch(H, perm, parent, &contacts[first], count, &work);
    SolveBatch(L, D, &contacts[first], count, &work, W);
  }
}

struct LdltReach::Work {
  ReachWork reach;
};

LdltReach::LdltReach(const Ldlt& ldlt, int max_count)
    : ldlt_(ldlt),
      parent_(EliminationTree(ldlt.matrixL().nestedExpression())),
      inverse_d_(ldlt.vectorD().cwiseInverse()),
      work_(std::make_unique<Work>()) {
  const int n = static_cast<int>(parent_.size());
  work_->reach.Y = Panel::Zero(n, 3 * std::max(1, max_count));
  work_->reach.marked.assign(n, 0);
}

LdltReach::~LdltReach() = default;

void LdltReach::Solve(const SparseMatrix& H,
                      const int* contacts,
                      int count,
                      std::vector<ContactReach>* out) {
  const SparseMatrix& L = ldlt_.matrixL().nestedExpression();
  const int* perm = ldlt_.permutationP().indices().data();
  ReachWork& work = work_->reach;
  const int stride = static_cast<int>(work.Y.cols());
  ScatterBatch(H, perm, parent_, contacts, count, &work);
  SolveReach(L, count, &work);
  out->resize(count);
  for (ContactReach& reach : *out) reach.Clear();
  for (int j : work.reach) {
    double* yj = work.Y.data() + static_cast<size_t>(j) * stride;
    for (int b = 0; b < count; ++b) {
      (*out)[b].Append(j, yj + 3 * b, inverse_d_[j]);
    }
    std::fill(yj, yj + 3 * count, 0.0);
    work.marked[j] = 0;
  }
}

}  // namespace fcsn::internal
