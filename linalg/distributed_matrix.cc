// DistributedMatrix: collective checks of the local entries, then local CSC
// products summed over the ranks.
#include "linalg/distributed_matrix.h"

#include <cmath>
#include <utility>

#include "linalg/local_entries.h"
#include "linalg/mumps_comm.h"

namespace fcsn::internal {
namespace {

const char* LocalErrorText(int code) {
  switch (code) {
    case kLocalSizeMismatch:
      return "its local rows, columns and values differ in size";
    case kLocalIndexOutOfRange:
      return "a local entry's row or column is outside the matrix";
    case kLocalNotFinite:
      return "a local value is not finite";
    default:
      return "invalid local entries";
  }
}

bool Fail(const std::string& why, std::string* message) {
  if (message != nullptr) *message = "distributed matrix: " + why;
  return false;
}

}  // namespace

std::unique_ptr<DistributedMatrix> DistributedMatrix::Create(
    int rows,
    int cols,
    std::vector<int> local_rows,
    std::vector<int> local_cols,
    std::vector<double> local_values,
    int communicator,
    std::string* message) {
  const bool same_size =
      SameOnAllRanks(rows, communicator) && SameOnAllRanks(cols, communicator);
  if (!same_size || rows < 0 || cols < 0) {
    Fail("the sizes must be the same (and >= 0) on every rank", message);
    return nullptr;
  }
  const RankFailure failure = FirstFailure(
      CheckLocalEntries(rows, cols, local_rows, local_cols, &local_values),
      communicator);
  if (failure.rank >= 0) {
    Fail("rank " + std::to_string(failure.rank) + ": " +
             LocalErrorText(failure.code),
         message);
    return nullptr;
  }
  std::unique_ptr<DistributedMatrix> matrix(new DistributedMatrix());
  matrix->communicator_ = communicator;
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(local_rows.size());
  for (size_t k = 0; k < local_rows.size(); ++k) {
    triplets.emplace_back(local_rows[k], local_cols[k], local_values[k]);
  }
  matrix->local_.resize(rows, cols);
  matrix->local_.setFromTriplets(triplets.begin(), triplets.end());
  matrix->rows_ = std::move(local_rows);
  matrix->cols_ = std::move(local_cols);
  matrix->values_ = std::move(local_values);
  if (message != nullptr) message->clear();
  return matrix;
}

void DistributedMatrix::Multiply(const Eigen::VectorXd& x,
                                 Eigen::VectorXd* y) const {
  y->noalias() = local_ * x;
  SumOverRanks(y->data(), static_cast<int>(y->size()), communicator_);
}

void DistributedMatrix::MultiplyAbs(const Eigen::VectorXd& x,
                                    Eigen::VectorXd* y) const {
  y->setZero(local_.rows());
  for (int j = 0; j < local_.outerSize(); ++j) {
    for (Eigen::SparseMatrix<double>::InnerIterator it(local_, j); it; ++it) {
      (*y)[it.row()] += std::abs(it.value() * x[j]);
    }
  }
  SumOverRanks(y->data(), static_cast<int>(y->size()), communicator_);
}

Eigen::VectorXd DistributedMatrix::Diagonal() const {
  Eigen::VectorXd d = local_.diagonal();
  SumOverRanks(d.data(), static_cast<int>(d.size()), communicator_);
  return d;
}

}  // namespace fcsn::internal
