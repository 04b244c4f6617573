// The Newton matrix with a distributed M block: J_0 from the host, M's local
// entries from every rank (linalg/distributed_jacobian_solver.h).
#include "linalg/distributed_jacobian_solver.h"

#include <utility>

#include "linalg/mumps_comm.h"
#include "linalg/mumps_instance.h"

namespace fcsn::internal {

std::unique_ptr<DistributedJacobianSolver> DistributedJacobianSolver::Create(
    const LinearSolverOptions& options, std::string* message) {
  LinearSolverOptions double_precision = options;
  double_precision.precision = FactorizationPrecision::kDouble;
  std::unique_ptr<DistributedMumpsSolver> mumps =
      DistributedMumpsSolver::Create(double_precision, message);
  if (!mumps) return nullptr;
  return std::unique_ptr<DistributedJacobianSolver>(
      new DistributedJacobianSolver(double_precision, std::move(mumps)));
}

DistributedJacobianSolver::DistributedJacobianSolver(
    const LinearSolverOptions& options,
    std::unique_ptr<DistributedMumpsSolver> mumps)
    : communicator_(options.mpi_communicator),
      host_(CommRank(options.mpi_communicator) == 0),
      mumps_(std::move(mumps)) {}

DistributedJacobianSolver::~DistributedJacobianSolver() = default;

void DistributedJacobianSolver::SetLocalBlock(const std::vector<int>& rows,
                                              const std::vector<int>& cols) {
  block_rows_ = rows;
  block_cols_ = cols;
}

bool DistributedJacobianSolver::BlockChangedOnAnyRank(
    const std::vector<int>& rows, const std::vector<int>& cols) const {
  return AnyRank(rows != analyzed_rows_ || cols != analyzed_cols_,
                 communicator_);
}

LinearSolverStatus DistributedJacobianSolver::DoAnalyze(
    const SparsityPattern& pattern, std::string* message) {
  // This rank's triplets: J_0's entries on the host, then the local block.
  std::vector<int> rows, cols;
  const size_t j0 = host_ ? static_cast<size_t>(pattern.nnz()) : 0;
  rows.reserve(j0 + block_rows_.size());
  cols.reserve(j0 + block_cols_.size());
  if (host_) {
    for (int j = 0; j < pattern.n; ++j) {
      for (int p = pattern.col_ptr[j]; p < pattern.col_ptr[j + 1]; ++p) {
        rows.push_back(pattern.row_index[p]);
        cols.push_back(j);
      }
    }
  }
  rows.insert(rows.end(), block_rows_.begin(), block_rows_.end());
  cols.insert(cols.end(), block_cols_.begin(), block_cols_.end());
  analyzed_rows_.clear();
  analyzed_cols_.clear();
  const LinearSolverStatus status =
      mumps_->Analyze(pattern.n, rows, cols, message);
  if (status == LinearSolverStatus::kSuccess) {
    analyzed_rows_ = block_rows_;
    analyzed_cols_ = block_cols_;
    local_values_.resize(rows.size());
    mutable_stats().ordering_used = MumpsOrderingName(
        mumps_->Infog(7), mumps_->Infog(32), /*given_is_metis=*/false);
  }
  return status;
}

LinearSolverStatus DistributedJacobianSolver::DoFactorize(
    const double* values, std::string* message) {
  const size_t j0 = host_ ? static_cast<size_t>(pattern().nnz()) : 0;
  const size_t nnz = static_cast<size_t>(pattern().nnz());
  for (size_t k = 0; k < j0; ++k) local_values_[k] = values[k];
  for (size_t k = 0; k < analyzed_rows_.size(); ++k)
    local_values_[j0 + k] = values[nnz + k];
  const LinearSolverStatus status =
      mumps_->Factorize(local_values_.data(), message);
  if (status == LinearSolverStatus::kSuccess) {
    mutable_stats().factor_entries = MumpsCount(mumps_->Infog(29));
  }
  return status;
}

LinearSolverStatus DistributedJacobianSolver::DoSolve(Eigen::VectorXd* rhs,
                                                      std::string* message) {
  return mumps_->Solve(rhs, message);
}

}  // namespace fcsn::internal
