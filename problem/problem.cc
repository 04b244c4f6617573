// GlobalProblem::Validate(): the one place that decides whether an in-memory
// problem is well formed.
//
// Accepted: M square n x n, H n x m with m = 3 nc, f of size n, w of size m, mu
// of size nc, all values finite, mu >= 0, M and H compressed. Zero contacts (nc = 0, H with no
// columns) is an ordinary input here (house style §7.8); only the FCLib reader
// refuses files without contacts, see fclib_io.h. Equality constraints (G, b)
// are rejected with "not supported yet": never dropped silently.
#include "fcsn/problem.h"

#include <cmath>
#include <string>
#include <vector>

namespace fcsn {
namespace {

std::string Dims(const SparseMatrix& a) {
  return std::to_string(a.rows()) + " x " + std::to_string(a.cols());
}

// True if every stored value of the sparse matrix is finite.
bool AllFinite(const SparseMatrix& a) {
  for (int k = 0; k < a.nonZeros(); ++k) {
    if (!std::isfinite(a.valuePtr()[k])) return false;
  }
  return true;
}

bool AllFinite(const Eigen::VectorXd& x) { return x.allFinite(); }

bool HasNonzeroBelowDiagonal(const SparseMatrix& a) {
  for (int j = 0; j < a.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(a, j); it; ++it) {
      if (it.row() > it.col() && it.value() != 0.0) return true;
    }
  }
  return false;
}

}  // namespace

SparseMatrix SymmetricFromUpperTriangle(const SparseMatrix& upper) {
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(2 * static_cast<size_t>(upper.nonZeros()));
  for (int j = 0; j < upper.outerSize(); ++j) {
    for (SparseMatrix::InnerIterator it(upper, j); it; ++it) {
      triplets.emplace_back(it.row(), it.col(), it.value());
      if (it.row() != it.col())
        triplets.emplace_back(it.col(), it.row(), it.value());
    }
  }
  SparseMatrix s(upper.rows(), upper.cols());
  s.setFromTriplets(triplets.begin(), triplets.end());
  s.makeCompressed();
  return s;
}

const GlobalProblem& WithFullM(const GlobalProblem& problem,
                               GlobalProblem* storage) {
  if (!problem.m_upper_triangle) return problem;
  *storage = problem;
  storage->M = SymmetricFromUpperTriangle(problem.M);
  storage->m_upper_triangle = false;
  return *storage;
}

std::string GlobalProblem::Validate() const {
  if (HasEqualityConstraints()) {
    return "equality constraints (G, b) are not supported yet";
  }
  if (M.rows() != M.cols()) {
    return "M must be square, but it is " + Dims(M);
  }
  if (H.rows() != M.rows()) {
    return "H must have n = " + std::to_string(M.rows()) +
           " rows like M, but it is " + Dims(H);
  }
  if (H.cols() % 3 != 0) {
    return "H has " + std::to_string(H.cols()) +
           " columns, which is not a multiple of 3 (one 3-block per contact)";
  }
  if (f.size() != M.rows()) {
    return "f has " + std::to_string(f.size()) +
           " entries, expected n = " + std::to_string(M.rows());
  }
  if (w.size() != H.cols()) {
    return "w has " + std::to_string(w.size()) +
           " entries, expected m = " + std::to_string(H.cols());
  }
  if (3 * mu.size() != H.cols()) {
    return "mu has " + std::to_string(mu.size()) +
           " entries, expected nc = m / 3 = " + std::to_string(H.cols() / 3);
  }
  // The solver reads the CSC arrays directly; an uncompressed Eigen matrix
  // (built with insert()) has gaps in them.
  if (!M.isCompressed() || !H.isCompressed()) {
    return std::string(M.isCompressed() ? "H" : "M") +
           " is not in compressed form (call makeCompressed() after insert())";
  }
  if (m_upper_triangle && HasNonzeroBelowDiagonal(M)) {
    return "M is flagged as an upper triangle (m_upper_triangle) but has "
           "nonzero entries below the diagonal";
  }
  if (!AllFinite(M)) return "M contains a NaN or infinite value";
  if (!AllFinite(H)) return "H contains a NaN or infinite value";
  if (!AllFinite(f)) return "f contains a NaN or infinite value";
  if (!AllFinite(w)) return "w contains a NaN or infinite value";
  for (int a = 0; a < mu.size(); ++a) {
    if (!std::isfinite(mu[a])) {
      return "mu[" + std::to_string(a) + "] is not finite";
    }
    if (mu[a] < 0.0) {
      return "mu[" + std::to_string(a) + "] = " + std::to_string(mu[a]) +
             " is negative (friction coefficients must be >= 0)";
    }
  }
  return "";
}

}  // namespace fcsn
