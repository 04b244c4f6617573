// CHOLMOD's supernodal Cholesky and the reach solves on it (see
// supernodal_cholesky.h).
#include "linalg/supernodal_cholesky.h"

#include <cholmod.h>

#include <Eigen/Core>
#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "linalg/blas_threads.h"
#include "linalg/fill_ordering.h"
#include "linalg/stored_pattern.h"

// The Fortran BLAS (linked by CHOLMOD too): the reach solves' dense blocks.
extern "C" {
void dtrsm_(const char* side,
            const char* uplo,
            const char* transa,
            const char* diag,
            const int* m,
            const int* n,
            const double* alpha,
            const double* a,
            const int* lda,
            double* b,
            const int* ldb);
void dgemm_(const char* transa,
            const char* transb,
            const int* m,
            const int* n,
            const int* k,
            const double* alpha,
            const double* a,
            const int* lda,
            const double* b,
            const int* ldb,
            const double* beta,
            double* c,
            const int* ldc);
}

namespace fcsn::internal {
namespace {

using Panel =
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstBlock = Eigen::Map<const Eigen::MatrixXd, 0, Eigen::OuterStride<>>;

// CHOLMOD's view of the compressed M (no copy): its lower triangle is read.
cholmod_sparse LowerView(const SparseMatrix& M) {
  cholmod_sparse A{};
  A.nrow = static_cast<size_t>(M.rows());
  A.ncol = static_cast<size_t>(M.cols());
  A.nzmax = static_cast<size_t>(M.nonZeros());
  A.p = const_cast<int*>(M.outerIndexPtr());
  A.i = const_cast<int*>(M.innerIndexPtr());
  A.x = const_cast<double*>(M.valuePtr());
  A.stype = -1;
  A.itype = CHOLMOD_INT;
  A.xtype = CHOLMOD_REAL;
  A.dtype = CHOLMOD_DOUBLE;
  A.sorted = 1;
  A.packed = 1;
  return A;
}

// libgomp keeps a pool of threads per calling thread and is not fork-safe:
// once a thread that lives on has run a team, a child forked from the process
// (Python's multiprocessing does that) waits forever in its first parallel
// region for the parent's pool. So the numeric factorization runs on a thread
// of its own, whose settings and pool (if any) end with it
// (tests/newton/fork_after_solve_test.cc).
void FactorizeOnOwnThread(cholmod_sparse* A,
                          cholmod_factor* L,
                          cholmod_common* common) {
  try {
    std::thread worker([&] {
      SerialOpenMpOnThisThread();
      cholmod_factorize(A, L, common);
    });
    worker.join();
  } catch (const std::system_error&) {
    cholmod_factorize(A, L, common);  // no thread: the pool stays here
  }
}

// Workspace of the batched reach solves; Y is zero and last[] is -1 between
// batches.
struct BatchWork {
  Panel Y;                 // n x 3 batch: L^-1 P H of the batch
  Panel T;                 // max_below x 3 batch: L_bs Y_s
  std::vector<int> first;  // per supernode: the first contact of the batch
  std::vector<int> last;   // whose reach holds it, and the last; -1: none
  std::vector<int> reach;  // the union reach, sorted
};

}  // namespace

std::vector<int> ContactsByFirstPivot(const SparseMatrix& H,
                                      const int* position) {
  const int nc = static_cast<int>(H.cols() / 3);
  std::vector<int> first(nc, std::numeric_limits<int>::max());
  for (int a = 0; a < nc; ++a) {
    for (int c = 3 * a; c < 3 * a + 3; ++c) {
      for (SparseMatrix::InnerIterator it(H, c); it; ++it) {
        first[a] = std::min(first[a], position[it.row()]);
      }
    }
  }
  std::vector<int> contacts(nc);
  for (int a = 0; a < nc; ++a) contacts[a] = a;
  std::stable_sort(contacts.begin(), contacts.end(), [&first](int a, int b) {
    return first[a] < first[b];
  });
  return contacts;
}

struct SupernodalCholesky::Impl {
  cholmod_common common{};
  cholmod_factor* L = nullptr;
  StoredPattern analyzed;
  bool factored = false;
  std::vector<int> position;      // dof -> pivot (inverse of L->Perm)
  std::vector<int> super_of;      // pivot -> its supernode
  std::vector<int> super_parent;  // supernodal elimination tree, -1 = root
  int max_below = 0;              // most rows below one supernode's block
  mutable Eigen::VectorXd work;   // Solve(): P b, then L^-T L^-1 P b
  // Solve(): the entries of y below one supernode's block, gathered.
  mutable Eigen::VectorXd below_work;
  // Reach(): one contact's workspace, sized at its first call after an
  // analysis (reach_ready).
  mutable BatchWork reach_work;
  mutable bool reach_ready = false;

  Impl() {
    cholmod_start(&common);
    common.print = 0;  // the library never prints
    common.supernodal = CHOLMOD_SUPERNODAL;
    // Supernode amalgamation: columns whose patterns nearly match are merged
    // into one dense block (explicit zeros added) when the supernode has
    // fewer than nrelax[0] columns, or fewer than nrelax[1] / nrelax[2] and
    // at most zrelax[0] / zrelax[1] of its entries are such zeros. CHOLMOD's
    // default bounds (4, 16, 48) left the masonry walls' M in blocks too
    // thin for BLAS 3: 8x larger bounds, with CHOLMOD's zrelax, took M's
    // numeric factorization from 0.32-0.42 to 0.26-0.31 s at refine 2 and
    // from 1.85-2.0 to 1.31-1.36 s at refine 3, the W_aa 0.16 -> 0.18 s and
    // 1.57 -> 1.63 s (bench/results/m_setup.md, 2026-11-24); 16x larger gave
    // no more.
    common.nrelax[0] = 32;
    common.nrelax[1] = 128;
    common.nrelax[2] = 512;
  }
  ~Impl() {
    Free();
    cholmod_finish(&common);
  }
  void Free() {
    if (L != nullptr) cholmod_free_factor(&L, &common);
    analyzed.Clear();
    factored = false;
    reach_ready = false;
  }
  int n() const { return static_cast<int>(L->n); }
  const int* super() const { return static_cast<const int*>(L->super); }
  const int* pi() const { return static_cast<const int*>(L->pi); }
  const int* px() const { return static_cast<const int*>(L->px); }
  const int* rows() const { return static_cast<const int*>(L->s); }
  const double* values() const { return static_cast<const double*>(L->x); }
  int Columns(int k) const { return super()[k + 1] - super()[k]; }
  int Rows(int k) const { return pi()[k + 1] - pi()[k]; }
  // The dense block of supernode k: Rows(k) x Columns(k), column-major.
  ConstBlock Block(int k) const {
    return ConstBlock(
        values() + px()[k], Rows(k), Columns(k), Eigen::OuterStride<>(Rows(k)));
  }

  bool Analyze(const SparseMatrix& M, std::string* message);
  void BuildMaps();
  void ForwardInPlace(double* y) const;
  void BackwardInPlace(double* y) const;
  // Sizes the workspace of batches of `batch` contacts (the loop then
  // allocates nothing); false when memory runs out.
  bool AllocateBatch(int batch, BatchWork* work) const;
  void ScatterBatch(const SparseMatrix& H,
                    const int* contacts,
                    int count,
                    BatchWork* work) const;
  template <typename Visit>
  void SolveReach(BatchWork* work, const Visit& visit) const;
  void SolveBatch(const int* contacts,
                  BatchWork* work,
                  std::vector<Eigen::Matrix3d>* W) const;
};

bool SupernodalCholesky::Impl::Analyze(const SparseMatrix& M,
                                       std::string* message) {
  Free();
  const SparseMatrix lower = M.triangularView<Eigen::Lower>();
  const SparseMatrix full = lower.selfadjointView<Eigen::Lower>();
  OrderingPermutation perm;
  common.nmethods = 1;
  common.postorder = 1;
  int* user_perm = nullptr;
  if (NestedDissection(full, &perm)) {
    common.method[0].ordering = CHOLMOD_GIVEN;
    user_perm = perm.indices().data();
  } else {
    common.method[0].ordering = CHOLMOD_AMD;
  }
  cholmod_sparse A = LowerView(lower);
  L = cholmod_analyze_p(&A, user_perm, nullptr, 0, &common);
  if (L == nullptr || common.status != CHOLMOD_OK) {
    Free();
    *message = "CHOLMOD could not analyze M (status " +
               std::to_string(common.status) + ")";
    return false;
  }
  analyzed.Assign(M);
  BuildMaps();
  return true;
}

void SupernodalCholesky::Impl::BuildMaps() {
  const int nsuper = static_cast<int>(L->nsuper);
  const int* perm = static_cast<const int*>(L->Perm);
  position.assign(n(), 0);
  for (int k = 0; k < n(); ++k) position[perm[k]] = k;
  super_of.assign(n(), 0);
  super_parent.assign(nsuper, -1);
  max_below = 0;
  for (int k = 0; k < nsuper; ++k) {
    for (int j = super()[k]; j < super()[k + 1]; ++j) super_of[j] = k;
  }
  for (int k = 0; k < nsuper; ++k) {
    const int below = Rows(k) - Columns(k);
    max_below = std::max(max_below, below);
    if (below > 0) super_parent[k] = super_of[rows()[pi()[k] + Columns(k)]];
  }
}

// y = L^-1 y in pivot order, supernode by supernode.
// The rows below the diagonal block are applied as one dense product on the
// gathered entries (a gemv on the block's contiguous columns), then scattered:
// on the 47,817-dof M of a pushed 5313-contact block a solve takes 17 ms
// instead of 33 ms with a scatter per column (bench/results/fronts.md).
void SupernodalCholesky::Impl::ForwardInPlace(double* y) const {
  const int nsuper = static_cast<int>(L->nsuper);
  for (int k = 0; k < nsuper; ++k) {
    const int nc = Columns(k);
    const int nb = Rows(k) - nc;
    const ConstBlock block = Block(k);
    Eigen::Map<Eigen::VectorXd> yk(y + super()[k], nc);
    block.topRows(nc).triangularView<Eigen::Lower>().solveInPlace(yk);
    if (nb == 0) continue;
    Eigen::Map<Eigen::VectorXd> t(below_work.data(), nb);
    t.noalias() = block.bottomRows(nb) * yk;
    const int* below = rows() + pi()[k] + nc;
    for (int i = 0; i < nb; ++i) y[below[i]] -= t[i];
  }
}

// y = L^-T y in pivot order, supernode by supernode.
void SupernodalCholesky::Impl::BackwardInPlace(double* y) const {
  const int nsuper = static_cast<int>(L->nsuper);
  for (int k = nsuper - 1; k >= 0; --k) {
    const int nc = Columns(k);
    const int nb = Rows(k) - nc;
    const ConstBlock block = Block(k);
    Eigen::Map<Eigen::VectorXd> yk(y + super()[k], nc);
    if (nb > 0) {
      Eigen::Map<Eigen::VectorXd> t(below_work.data(), nb);
      const int* below = rows() + pi()[k] + nc;
      for (int i = 0; i < nb; ++i) t[i] = y[below[i]];
      yk.noalias() -= block.bottomRows(nb).transpose() * t;
    }
    block.topRows(nc).triangularView<Eigen::Lower>().transpose().solveInPlace(
        yk);
  }
}

bool SupernodalCholesky::Impl::AllocateBatch(int batch, BatchWork* work) const {
  try {
    const int nsuper = static_cast<int>(L->nsuper);
    work->Y = Panel::Zero(n(), 3 * batch);
    work->T.resize(max_below, 3 * batch);
    work->first.assign(nsuper, 0);
    work->last.assign(nsuper, -1);
    work->reach.reserve(nsuper);
  } catch (const std::bad_alloc&) {
    return false;
  }
  return true;
}

// Scatters P H_a of contacts[0..count) into Y's columns 3b..3b+2 and collects
// the union of their supernodal reaches, sorted (children before parents).
void SupernodalCholesky::Impl::ScatterBatch(const SparseMatrix& H,
                                            const int* contacts,
                                            int count,
                                            BatchWork* work) const {
  work->reach.clear();
  for (int b = 0; b < count; ++b) {
    for (int k = 0; k < 3; ++k) {
      for (SparseMatrix::InnerIterator it(H, 3 * contacts[b] + k); it; ++it) {
        const int row = position[it.row()];
        work->Y(row, 3 * b + k) += it.value();
        // b grows: last[s] == b means this contact already walked from s up.
        for (int s = super_of[row]; s != -1 && work->last[s] != b;
             s = super_parent[s]) {
          if (work->last[s] < 0) {
            work->first[s] = b;
            work->reach.push_back(s);
          }
          work->last[s] = b;
        }
      }
    }
  }
  std::sort(work->reach.begin(), work->reach.end());
}

// On each supernode s of the reach: Y_s = L_ss^-1 Y_s, Y_below -= L_bs Y_s,
// visit(s, ys, b0, b1) with Y_s final (ys: its first row, b0..b1 - 1 the
// contacts whose reach holds s), then Y_s and last[s] back to zero and -1.
template <typename Visit>
void SupernodalCholesky::Impl::SolveReach(BatchWork* work,
                                          const Visit& visit) const {
  // Y is row-major, so its rows of s are the column-major width x nc block
  // Y_s^T: Y_s^T := Y_s^T L_ss^-T, T^T := Y_s^T L_bs^T, on the columns of the
  // contacts first[s]..last[s] only (the others are zero on s's rows: s is
  // not in their reach).
  const int width = static_cast<int>(work->Y.cols());
  const double one = 1.0;
  const double zero = 0.0;
  for (int s : work->reach) {
    int nc = Columns(s);
    int nb = Rows(s) - nc;
    int ld = Rows(s);
    const int b0 = work->first[s];
    const int b1 = work->last[s] + 1;
    int m = 3 * (b1 - b0);
    const double* block = values() + px()[s];
    double* ys = work->Y.data() + static_cast<size_t>(super()[s]) * width;
    dtrsm_("R", "L", "T", "N", &m, &nc, &one, block, &ld, ys + 3 * b0, &width);
    if (nb > 0) {
      double* t = work->T.data();
      dgemm_("N",
             "T",
             &m,
             &nb,
             &nc,
             &one,
             ys + 3 * b0,
             &width,
             block + nc,
             &ld,
             &zero,
             t,
             &m);
      const int* below = rows() + pi()[s] + nc;
      for (int i = 0; i < nb; ++i) {
        double* yi =
            work->Y.data() + static_cast<size_t>(below[i]) * width + 3 * b0;
        const double* ti = t + static_cast<size_t>(i) * m;
        for (int c = 0; c < m; ++c) yi[c] -= ti[c];
      }
    }
    visit(s, ys, b0, b1);
    std::fill(ys, ys + static_cast<size_t>(nc) * width, 0.0);
    work->last[s] = -1;
  }
}

// SolveReach with W_a += Y_s,a^T Y_s,a on each supernode.
void SupernodalCholesky::Impl::SolveBatch(
    const int* contacts,
    BatchWork* work,
    std::vector<Eigen::Matrix3d>* W) const {
  const int width = static_cast<int>(work->Y.cols());
  SolveReach(work, [&](int s, const double* ys, int b0, int b1) {
    for (int r = 0; r < Columns(s); ++r) {
      for (int b = b0; b < b1; ++b) {
        const Eigen::Map<const Eigen::RowVector3d> y(ys + r * width + 3 * b);
        (*W)[contacts[b]].noalias() += y.transpose() * y;
      }
    }
  });
}

SupernodalCholesky::SupernodalCholesky() : impl_(std::make_unique<Impl>()) {}
SupernodalCholesky::~SupernodalCholesky() = default;

void SupernodalCholesky::Reset() { impl_->factored = false; }
bool SupernodalCholesky::factored() const { return impl_->factored; }

bool SupernodalCholesky::Analyze(const SparseMatrix& M,
                                 bool* analyzed,
                                 std::string* message) {
  *analyzed = false;
  if (AnalyzedFor(M)) return true;
  impl_->factored = false;
  if (!impl_->Analyze(M, message)) return false;
  *analyzed = true;
  return true;
}

bool SupernodalCholesky::AnalyzedFor(const SparseMatrix& M) const {
  return impl_->L != nullptr && impl_->analyzed.Matches(M);
}

bool SupernodalCholesky::Factorize(const SparseMatrix& M,
                                   bool* analyzed,
                                   std::string* message) {
  Impl& impl = *impl_;
  impl.factored = false;
  if (!Analyze(M, analyzed, message)) return false;
  cholmod_sparse A = LowerView(M);
  FactorizeOnOwnThread(&A, impl.L, &impl.common);
  if (impl.common.status != CHOLMOD_OK || impl.L->minor < impl.L->n ||
      !impl.L->is_super) {
    const size_t minor = impl.L->minor;
    impl.Free();  // a failed factor is never reused
    *message = "M is not positive definite (Cholesky pivot " +
               std::to_string(minor) + ")";
    return false;
  }
  impl.work.resize(impl.n());
  impl.below_work.resize(impl.max_below);
  impl.factored = true;
  return true;
}

Eigen::VectorXd SupernodalCholesky::Pivots() const {
  const Impl& impl = *impl_;
  Eigen::VectorXd d(impl.n());
  for (int k = 0; k < static_cast<int>(impl.L->nsuper); ++k) {
    const ConstBlock block = impl.Block(k);
    for (int j = 0; j < impl.Columns(k); ++j) {
      d[impl.super()[k] + j] = block(j, j) * block(j, j);
    }
  }
  return d;
}

void SupernodalCholesky::Solve(const Eigen::Ref<const Eigen::VectorXd>& b,
                               Eigen::Ref<Eigen::VectorXd> x) const {
  const Impl& impl = *impl_;
  const int* perm = static_cast<const int*>(impl.L->Perm);
  for (int k = 0; k < impl.n(); ++k) impl.work[k] = b[perm[k]];
  impl.ForwardInPlace(impl.work.data());
  impl.BackwardInPlace(impl.work.data());
  for (int k = 0; k < impl.n(); ++k) x[perm[k]] = impl.work[k];
}

void SupernodalCholesky::ForwardSolve(
    const Eigen::Ref<const Eigen::VectorXd>& b,
    Eigen::Ref<Eigen::VectorXd> y) const {
  const Impl& impl = *impl_;
  const int* perm = static_cast<const int*>(impl.L->Perm);
  for (int k = 0; k < impl.n(); ++k) impl.work[k] = b[perm[k]];
  impl.ForwardInPlace(impl.work.data());
  y = impl.work;
}

void SupernodalCholesky::BackwardSolve(
    const Eigen::Ref<const Eigen::VectorXd>& y,
    Eigen::Ref<Eigen::VectorXd> x) const {
  const Impl& impl = *impl_;
  const int* perm = static_cast<const int*>(impl.L->Perm);
  impl.work = y;
  impl.BackwardInPlace(impl.work.data());
  for (int k = 0; k < impl.n(); ++k) x[perm[k]] = impl.work[k];
}

bool SupernodalCholesky::Reach(const SparseMatrix& H,
                               const int* contacts,
                               int count,
                               std::vector<ContactReach>* out) const {
  const Impl& impl = *impl_;
  if (count < 1 || count > kSupernodalBatch) return false;
  if (!impl.reach_ready) {
    if (!impl.AllocateBatch(kSupernodalBatch, &impl.reach_work)) return false;
    impl.reach_ready = true;
  }
  out->resize(count);
  for (ContactReach& reach : *out) reach.Clear();
  impl.ScatterBatch(H, contacts, count, &impl.reach_work);
  const int width = static_cast<int>(impl.reach_work.Y.cols());
  impl.SolveReach(
      &impl.reach_work, [&](int s, const double* ys, int b0, int b1) {
        for (int r = 0; r < impl.Columns(s); ++r) {
          for (int b = b0; b < b1; ++b) {
            (*out)[b].Append(impl.super()[s] + r, ys + r * width + 3 * b, 1.0);
          }
        }
      });
  return true;
}

void SupernodalCholesky::DiagonalBlocks(const SparseMatrix& H,
                                        std::vector<Eigen::Matrix3d>* blocks,
                                        int batch_contacts,
                                        const SecondThreadReady& second) const {
  const Impl& impl = *impl_;
  const int nc = static_cast<int>(H.cols() / 3);
  const int batch = std::max(1, std::min(batch_contacts, nc));
  const int batches = nc > 0 ? (nc + batch - 1) / batch : 0;
  blocks->assign(nc, Eigen::Matrix3d::Zero());
  const std::vector<int> contacts =
      ContactsByFirstPivot(H, impl.position.data());
  // Batches are claimed one at a time; a batch's contacts and the order of
  // its operations do not depend on the thread, so neither do the bits.
  std::atomic<int> next{0};
  auto claim_and_solve = [&](BatchWork& work,
                             const std::function<void()>& between) {
    for (int k = next.fetch_add(1); k < batches; k = next.fetch_add(1)) {
      const int first = k * batch;
      const int count = std::min(batch, nc - first);
      impl.ScatterBatch(H, &contacts[first], count, &work);
      impl.SolveBatch(&contacts[first], &work, blocks);
      if (between) between();
    }
  };
  std::thread helper;
  auto start_helper = [&] {
    if (helper.joinable() || !second || next.load() >= batches - 1 ||
        !second()) {
      return;
    }
    try {
      helper = std::thread([&] {
        BatchWork work;
        // Out of memory here leaves every batch to the first thread.
        if (impl.AllocateBatch(batch, &work)) claim_and_solve(work, {});
      });
    } catch (const std::system_error&) {
      // No thread: the first one solves every batch.
    }
  };
  BatchWork work;
  if (!impl.AllocateBatch(batch, &work)) throw std::bad_alloc();
  claim_and_solve(work, start_helper);
  if (helper.joinable()) helper.join();
}

}  // namespace fcsn::internal
