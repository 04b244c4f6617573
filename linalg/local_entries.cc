// The one loop over a rank's local entries (linalg/local_entries.h).
#include "linalg/local_entries.h"

#include <cmath>

namespace fcsn::internal {

int CheckLocalEntries(int rows,
                      int cols,
                      const std::vector<int>& local_rows,
                      const std::vector<int>& local_cols,
                      const std::vector<double>* values) {
  if (local_rows.size() != local_cols.size() ||
      (values != nullptr && values->size() != local_rows.size())) {
    return kLocalSizeMismatch;
  }
  for (std::size_t k = 0; k < local_rows.size(); ++k) {
    if (local_rows[k] < 0 || local_rows[k] >= rows || local_cols[k] < 0 ||
        local_cols[k] >= cols) {
      return kLocalIndexOutOfRange;
    }
    if (values != nullptr && !std::isfinite((*values)[k]))
      return kLocalNotFinite;
  }
  return kLocalEntriesOk;
}

int CheckFiniteValues(const double* x, std::size_t size) {
  for (std::size_t k = 0; k < size; ++k) {
    if (!std::isfinite(x[k])) return kLocalNotFinite;
  }
  return kLocalEntriesOk;
}

}  // namespace fcsn::internal
