// linalg/stored_pattern.h: a copy of the CSC (or CSR) pattern of a compressed
// Eigen sparse matrix, to tell whether a later matrix has the same pattern
// (O(nnz) comparison) and a symbolic analysis made for the first can be
// reused. The one pattern comparison of the solver (Newton system, M's LDL^T).
#ifndef FCSN_LINALG_STORED_PATTERN_H_
#define FCSN_LINALG_STORED_PATTERN_H_

#include <algorithm>
#include <vector>

namespace fcsn::internal {

class StoredPattern {
 public:
  // Copies the outer and inner indices of the compressed matrix A.
  template <typename Sparse>
  void Assign(const Sparse& A) {
    outer_.assign(A.outerIndexPtr(), A.outerIndexPtr() + A.outerSize() + 1);
    inner_.assign(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros());
    stored_ = true;
  }
  // Forgets the pattern: Matches() is false until the next Assign().
  void Clear() {
    outer_.clear();
    inner_.clear();
    stored_ = false;
  }
  // True when a pattern is stored and the compressed A has exactly it.
  template <typename Sparse>
  bool Matches(const Sparse& A) const {
    if (!stored_) return false;
    if (static_cast<long>(outer_.size()) != A.outerSize() + 1) return false;
    if (static_cast<long>(inner_.size()) != A.nonZeros()) return false;
    return std::equal(outer_.begin(), outer_.end(), A.outerIndexPtr()) &&
           std::equal(inner_.begin(), inner_.end(), A.innerIndexPtr());
  }

 private:
  std::vector<int> outer_;
  std::vector<int> inner_;
  bool stored_ = false;
};

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_STORED_PATTERN_H_
