// The linear solver seen from fcsn::Solver (see linear_solver_use.h).
#include "newton/linear_solver_use.h"

namespace fcsn::internal {

void CopyFactorizationReport(const LinearSolverStats& stats,
                             SolverSummary* summary) {
  summary->last_factorization_flops = stats.last_factorization_flops;
  summary->last_factorization_effective_flops =
      stats.last_factorization_effective_flops;
  summary->factor_entries = stats.factor_entries;
  summary->compressed_factor_entries = stats.compressed_factor_entries;
  summary->estimated_memory_mb = stats.estimated_memory_mb;
  summary->factorization_memory_mb = stats.factorization_memory_mb;
  summary->out_of_core_disk_mb = stats.out_of_core_disk_mb;
}

}  // namespace fcsn::internal
