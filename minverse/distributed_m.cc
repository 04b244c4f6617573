// A solve with M distributed over the ranks: collective checks, products,
// and the factorization of M for q_free and rho (minverse/distributed_m.h).
#include "minverse/distributed_m.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "fcsn/option_table.h"
#include "linalg/distributed_jacobian_solver.h"
#include "linalg/m_factorization.h"
#include "linalg/mumps_comm.h"
#include "problem/error_measures_detail.h"

namespace fcsn::internal {
namespace {

// FNV-1a over bytes (64 bit): a fingerprint of the replicated data, to find
// ranks that were given different data; not a security hash.
class Fingerprint {
 public:
  void Add(const void* data, size_t bytes) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (size_t k = 0; k < bytes; ++k) {
      hash_ ^= p[k];
      hash_ *= 1099511628211ULL;  // the FNV 64-bit prime
    }
  }
  template <typename T>
  void AddValue(T x) {
    Add(&x, sizeof(x));
  }
  template <typename T>
  void AddField(const T& x) {
    if constexpr (std::is_same_v<T, std::string>) {
      AddValue(x.size());
      Add(x.data(), x.size());
    } else {
      AddValue(x);
    }
  }
  void Add(const Eigen::VectorXd& x) {
    AddValue(x.size());
    Add(x.data(), sizeof(double) * static_cast<size_t>(x.size()));
  }
  void Add(const SparseMatrix& a) {
    AddValue(a.rows());
    AddValue(a.cols());
    AddValue(a.nonZeros());
    if (!a.isCompressed()) return;  // Validate() refuses it on every rank
    Add(a.outerIndexPtr(), sizeof(int) * static_cast<size_t>(a.cols() + 1));
    Add(a.innerIndexPtr(), sizeof(int) * static_cast<size_t>(a.nonZeros()));
    Add(a.valuePtr(), sizeof(double) * static_cast<size_t>(a.nonZeros()));
  }
  long long value() const { return static_cast<long long>(hash_); }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;  // the FNV offset basis
};

long long ReplicatedFingerprint(const SolverOptions& options,
                                const GlobalProblem& problem,
                                const Solution* guess) {
  Fingerprint h;
  h.Add(problem.M);
  h.Add(problem.H);
  h.Add(problem.f);
  h.Add(problem.w);
  h.Add(problem.mu);
  h.AddValue(problem.m_upper_triangle);
  h.AddValue(guess != nullptr);
  if (guess != nullptr) {
    h.Add(guess->v);
    h.Add(guess->r);
  }
  // Every row of the options (fcsn/option_table.h) but the two that name a
  // resource of the process (each rank may have its own handle of the
  // communicator and its own scratch folder).
  ForEachOption<SolverOptions>(
      [&h, &options](
          const std::string& name, auto access, const auto&, const char*) {
        if (name != "linear_solver.mpi_communicator" &&
            name != "linear_solver.out_of_core_directory")
          h.AddField(access(options));
      });
  return h.value();
}

// "" when the distributed overload supports options and problem, else why
// not (replicated data: every rank decides the same).
std::string OutOfScope(const SolverOptions& options,
                       const GlobalProblem& problem) {
  if (options.solver != SolverType::kNewton) {
    return std::string("solver \"") + ToString(options.solver) +
           "\" needs W or M^-1 per contact; with M distributed only "
           "\"newton\" is supported";
  }
  if (options.linear_solver.type != LinearSolverType::kMumps)
    return "M distributed needs the MUMPS linear solver";
  if (problem.m_upper_triangle) {
    return "m_upper_triangle is not supported with M distributed: the local "
           "entries hold the whole matrix";
  }
  if (problem.M.nonZeros() != 0) {
    return "problem.M must have no stored entries when M is given as local "
           "entries (its size gives n)";
  }
  return "";
}

bool SameValueBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() ||
          std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0);
}

std::string Prefixed(const std::string& why) {
  return why.empty() ? why : "M distributed: " + why;
}

}  // namespace

DistributedM::DistributedM() = default;
DistributedM::~DistributedM() = default;

std::string DistributedM::Accept(const SolverOptions& options,
                                 const GlobalProblem& problem,
                                 const LocalMatrixEntries* local_m,
                                 const Solution* guess) {
  matrix_.reset();
  const int comm = options.linear_solver.mpi_communicator;
  if (std::string why = CheckMpiReady(comm); !why.empty()) return Prefixed(why);
  if (!SameOnAllRanks(ReplicatedFingerprint(options, problem, guess), comm)) {
    return Prefixed(
        "the replicated data (sizes, H, f, w, mu, guess, options) differ "
        "between ranks");
  }
  if (std::string why = options.Validate(); !why.empty()) return why;
  if (std::string why = OutOfScope(options, problem); !why.empty())
    return Prefixed(why);
  if (std::string why = problem.Validate(); !why.empty()) return why;
  std::string message;
  matrix_ = DistributedMatrix::Create(problem.n(),
                                      problem.n(),
                                      local_m->rows,
                                      local_m->cols,
                                      local_m->values,
                                      comm,
                                      &message);
  return matrix_ ? "" : Prefixed(message);
}

void DistributedM::Bind(const GlobalProblem& /*problem*/) {}

void DistributedM::Reset() {
  solver_.reset();
  analyzed_n_ = -1;
  analyzed_rows_.clear();
  analyzed_cols_.clear();
  factored_ = false;
  factored_values_.clear();
  blocks_ready_ = false;
}

bool DistributedM::Factorize(const LinearSolverOptions& options,
                             std::string* message) {
  const int comm = options.mpi_communicator;
  if (!solver_) {
    LinearSolverOptions double_precision = options;
    double_precision.precision = FactorizationPrecision::kDouble;
    solver_ = DistributedMumpsSolver::Create(double_precision, message);
    if (!solver_) return false;
  }
  const DistributedMatrix& m = *matrix_;
  const bool new_pattern =
      AnyRank(m.num_rows() != analyzed_n_ || m.rows() != analyzed_rows_ ||
                  m.cols() != analyzed_cols_,
              comm);
  if (new_pattern) {
    factored_ = false;
    analyzed_n_ = -1;
    if (solver_->Analyze(m.num_rows(), m.rows(), m.cols(), message) !=
        LinearSolverStatus::kSuccess) {
      return false;
    }
    analyzed_n_ = m.num_rows();
    analyzed_rows_ = m.rows();
    analyzed_cols_ = m.cols();
  }
  reused_factors_ = !AnyRank(
      !factored_ || !SameValueBits(m.values(), factored_values_), comm);
  if (reused_factors_) return true;
  factored_ = false;
  blocks_ready_ = false;
  if (solver_->Factorize(m.values().data(), message) !=
      LinearSolverStatus::kSuccess) {
    return false;
  }
  factored_ = true;
  factored_values_ = m.values();
  return true;
}

bool DistributedM::DiagonalBlocks(const SparseMatrix& H, std::string* message) {
  // H is replicated: every rank takes the same branch.
  reused_blocks_ = blocks_ready_ && SameBits(H, blocks_h_);
  if (reused_blocks_) return true;
  blocks_ready_ = false;
  if (!DistributedDiagonalBlocks(
          solver_.get(), H, kBlockContactsPerBatch, &blocks_, message)) {
    return false;
  }
  blocks_h_ = H;
  blocks_h_.makeCompressed();
  blocks_ready_ = true;
  return true;
}

MSolveFunction DistributedM::MSolve() {
  if (!factored_) return {};
  return [this](const Eigen::VectorXd& b, Eigen::VectorXd* x) {
    *x = b;
    std::string message;
    return solver_->Solve(x, &message) == LinearSolverStatus::kSuccess;
  };
}

bool DistributedM::ComputeScaling(const GlobalProblem& problem,
                                  const SolverOptions& options,
                                  const SecondThreadReady& /*second*/,
                                  ScalingData* scaling,
                                  std::string* message) {
  reused_blocks_ = false;
  if (!Factorize(options.linear_solver, message)) {
    *message = "M distributed: M cannot be factorized: " + *message;
    return false;
  }
  free_velocity_ = problem.f;
  if (solver_->Solve(&free_velocity_, message) !=
      LinearSolverStatus::kSuccess) {
    *message = "M distributed: M^-1 f failed: " + *message;
    return false;
  }
  scaling->m_symmetric = false;  // an LU of M
  scaling->q_free = problem.H.transpose() * free_velocity_ + problem.w;
  scaling->q_free_norm = scaling->q_free.norm();
  const ExactBlocks exact =
      [this,
       &problem](std::string* why) -> const std::vector<Eigen::Matrix3d>* {
    if (!DiagonalBlocks(problem.H, why)) {
      *why = "M distributed: a solve for W_aa failed: " + *why;
      return nullptr;
    }
    return &blocks_;
  };
  return RhoOfRule(
      options.rho,
      problem.nc(),
      exact,
      [this, &problem] {
        return DiagonalEstimateBlocks(problem.H, matrix_->Diagonal());
      },
      &scaling->rho,
      message);
}

namespace {

// The dofs each contact of [a0, a0 + count) touches: the rows of its 3
// columns of H, sorted and unique (CSR: start has count + 1 entries).
void ContactSupports(const SparseMatrix& H,
                     int a0,
                     int count,
                     std::vector<int>* start,
                     std::vector<int>* dofs) {
  start->assign(1, 0);
  dofs->clear();
  for (int a = a0; a < a0 + count; ++a) {
    const auto begin = static_cast<std::ptrdiff_t>(dofs->size());
    for (int j = 3 * a; j < 3 * a + 3; ++j) {
      for (SparseMatrix::InnerIterator it(H, j); it; ++it)
        dofs->push_back(static_cast<int>(it.row()));
    }
    std::sort(dofs->begin() + begin, dofs->end());
    dofs->erase(std::unique(dofs->begin() + begin, dofs->end()), dofs->end());
    start->push_back(static_cast<int>(dofs->size()));
  }
}

// The entries (i, j) of M^-1 that the blocks W_aa of the supports need (i
// and j in one contact's support), as a pattern by columns of an n x n
// matrix, rows strictly increasing (DistributedMumpsSolver::InverseEntries).
void InversePattern(int n,
                    const std::vector<int>& start,
                    const std::vector<int>& dofs,
                    std::vector<int>* col_ptr,
                    std::vector<int>* rows) {
  std::vector<std::pair<int, int>> entries;  // (column, row)
  for (size_t c = 0; c + 1 < start.size(); ++c) {
    for (int q = start[c]; q < start[c + 1]; ++q) {
      for (int p = start[c]; p < start[c + 1]; ++p)
        entries.emplace_back(dofs[q], dofs[p]);
    }
  }
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  col_ptr->assign(n + 1, 0);
  rows->resize(entries.size());
  for (size_t k = 0; k < entries.size(); ++k) {
    ++(*col_ptr)[entries[k].first + 1];
    (*rows)[k] = entries[k].second;
  }
  for (int j = 0; j < n; ++j) (*col_ptr)[j + 1] += (*col_ptr)[j];
}

}  // namespace

bool DistributedDiagonalBlocks(DistributedMumpsSolver* solver,
                               const SparseMatrix& H,
                               int contacts_per_batch,
                               std::vector<Eigen::Matrix3d>* blocks,
                               std::string* message) {
  const int n = static_cast<int>(H.rows());
  const int nc = static_cast<int>(H.cols() / 3);
  blocks->assign(nc, Eigen::Matrix3d::Zero());
  std::vector<int> start, dofs, col_ptr, rows;
  std::vector<double> inverse;
  // Rows S_a of X_a = M^-1 H_a only: H_a^T X_a meets no other row.
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(n, 3);
  for (int a0 = 0; a0 < nc; a0 += contacts_per_batch) {
    const int count = std::min(contacts_per_batch, nc - a0);
    ContactSupports(H, a0, count, &start, &dofs);
    InversePattern(n, start, dofs, &col_ptr, &rows);
    if (solver->InverseEntries(col_ptr, rows, &inverse, message) !=
        LinearSolverStatus::kSuccess) {
      return false;
    }
    for (int c = 0; c < count; ++c) {
      const int a = a0 + c;
      const int* s_begin = dofs.data() + start[c];
      const int* s_end = dofs.data() + start[c + 1];
      // x(i, k) = sum over j of M^-1(i, j) H(j, 3a + k), i and j in S_a.
      for (int k = 0; k < 3; ++k) {
        for (SparseMatrix::InnerIterator it(H, 3 * a + k); it; ++it) {
          const int j = static_cast<int>(it.row());
          const int* first = rows.data() + col_ptr[j];
          const int* last = rows.data() + col_ptr[j + 1];
          for (const int* i = s_begin; i != s_end; ++i) {
            const int* at = std::lower_bound(first, last, *i);
            x(*i, k) += inverse[at - rows.data()] * it.value();
          }
        }
      }
      (*blocks)[a] = DiagonalBlockFromSolve(H, a, x);
      for (const int* i = s_begin; i != s_end; ++i) x.row(*i).setZero();
    }
  }
  return true;
}

void DistributedM::Multiply(const GlobalProblem& /*problem*/,
                            const Eigen::VectorXd& v,
                            Eigen::VectorXd* y) const {
  matrix_->Multiply(v, y);
}

ErrorMeasures DistributedM::Measure(const GlobalProblem& problem,
                                    const Eigen::VectorXd& v,
                                    const Eigen::VectorXd& r,
                                    const MSolveFunction& m_solve,
                                    double q_free_norm,
                                    EarlierFloor* earlier) const {
  MProducts products;
  matrix_->Multiply(v, &products.m_v);
  matrix_->MultiplyAbs(v, &products.abs_m_abs_v);
  products.diagonal = matrix_->Diagonal();
  return ComputeErrorMeasures(
      problem, products, v, r, m_solve, q_free_norm, earlier);
}

bool DistributedM::JacobianSolverFits(const LinearSolver* linear) const {
  return dynamic_cast<const DistributedJacobianSolver*>(linear) != nullptr;
}

std::unique_ptr<LinearSolver> DistributedM::CreateJacobianSolver(
    const LinearSolverOptions& options, std::string* message) const {
  return DistributedJacobianSolver::Create(options, message);
}

bool DistributedM::JacobianBlockChanged(const LinearSolver& linear) const {
  return dynamic_cast<const DistributedJacobianSolver&>(linear)
      .BlockChangedOnAnyRank(matrix_->rows(), matrix_->cols());
}

void DistributedM::SetJacobianBlock(LinearSolver* linear) const {
  dynamic_cast<DistributedJacobianSolver&>(*linear).SetLocalBlock(
      matrix_->rows(), matrix_->cols());
}

void DistributedM::AddProductOutsideJ(const Eigen::VectorXd& x,
                                      Eigen::VectorXd* y) const {
  const int n = matrix_->num_rows();
  Eigen::VectorXd mx;  // allocates: only for a regularized step's slope
  matrix_->Multiply(x.head(n), &mx);
  y->head(n) += mx;
}

void DistributedM::AppendEntriesOutsideJ(double scale,
                                         std::vector<double>* values) const {
  const std::vector<double>& local = matrix_->values();
  const size_t offset = values->size();
  values->resize(offset + local.size());
  for (size_t k = 0; k < local.size(); ++k)
    (*values)[offset + k] = local[k] * scale;
}

}  // namespace fcsn::internal
