// linalg/distributed_matrix.h: a sparse matrix whose entries are spread over
// the ranks of an MPI communicator, as a FEM code that distributes its
// assembly holds it:
//
//   A = sum over ranks p of sum over p's local entries k of
//       a_k e_{row_k} e_{col_k}^T      (global 0-based indices; any partition,
//                                       repeated entries summed),
//
// with the operations a solver needs without gathering A anywhere:
//   Multiply(x, &y)  y = A x for an x held whole on every rank: each rank
//                    multiplies its local entries, the partial products are
//                    summed over the ranks (SumOverRanks: on the host, then
//                    broadcast), so y is bitwise the same on every rank;
//   MultiplyAbs(x, &y)  y = sum over ranks p of |A_p| |x|, A_p the sum of
//                    p's local entries (the componentwise scale |A| |x| of an
//                    error measure; an entry split over several ranks counts
//                    each part's magnitude), summed the same way;
//   Diagonal()       diag(A), summed the same way;
//   rows(), cols(), values()  the local entries, in the order
//                    DistributedMumpsSolver (mumps_distributed.h) takes them.
//
// Create() is collective and checks the local input on every rank; a bad
// entry on one rank fails Create() on every rank with one message naming it.
// In the seq flavour there is one process and every entry is local.
#ifndef FCSN_LINALG_DISTRIBUTED_MATRIX_H_
#define FCSN_LINALG_DISTRIBUTED_MATRIX_H_

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <memory>
#include <string>
#include <vector>

namespace fcsn::internal {

class DistributedMatrix {
 public:
  // The rows x cols matrix whose local entries on this rank are (rows[k],
  // cols[k], values[k]), on the ranks of `communicator` (the Fortran handle
  // of LinearSolverOptions::mpi_communicator). nullptr on every rank, and the
  // same message, if the sizes differ between ranks or an array, index or
  // value is invalid on some rank.
  static std::unique_ptr<DistributedMatrix> Create(
      int rows,
      int cols,
      std::vector<int> local_rows,
      std::vector<int> local_cols,
      std::vector<double> local_values,
      int communicator,
      std::string* message);

  int num_rows() const { return static_cast<int>(local_.rows()); }
  int num_cols() const { return static_cast<int>(local_.cols()); }

  // y = A x (collective; x has num_cols() entries, the same on every rank).
  void Multiply(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  // y = sum over ranks of |A_p| |x| (collective; see the top of the file).
  void MultiplyAbs(const Eigen::VectorXd& x, Eigen::VectorXd* y) const;
  // diag(A) (collective).
  Eigen::VectorXd Diagonal() const;

  const std::vector<int>& rows() const { return rows_; }
  const std::vector<int>& cols() const { return cols_; }
  const std::vector<double>& values() const { return values_; }

 private:
  DistributedMatrix() = default;

  int communicator_ = 0;
  std::vector<int> rows_, cols_;
  std::vector<double> values_;
  Eigen::SparseMatrix<double> local_;  // this rank's entries, summed
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_DISTRIBUTED_MATRIX_H_
