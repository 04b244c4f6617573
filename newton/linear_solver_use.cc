// The linear solver seen from fcsn::Solver (see linear_solver_use.h).
#include "newton/linear_solver_use.h"

namespace fcsn::internal {

bool SameLinearSolverOptions(const LinearSolverOptions& a,
                             const LinearSolverOptions& b) {
  return a.type == b.type && a.ordering == b.ordering &&
         a.adaptive_block_ordering == b.adaptive_block_ordering &&
         a.workspace_relaxation_percent == b.workspace_relaxation_percent &&
         a.max_workspace_retries == b.max_workspace_retries &&
         a.detect_null_pivots == b.detect_null_pivots &&
         a.null_pivot_threshold == b.null_pivot_threshold &&
         a.precision == b.precision &&
         a.refinement_tolerance == b.refinement_tolerance &&
         a.max_refinement_steps == b.max_refinement_steps &&
         a.mpi_communicator == b.mpi_communicator &&
         a.low_rank_tolerance == b.low_rank_tolerance &&
         a.out_of_core == b.out_of_core &&
         a.out_of_core_directory == b.out_of_core_directory;
}

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
