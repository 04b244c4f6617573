// linalg/mumps_memory_options.h: the MUMPS control parameters of the memory
// savers of LinearSolverOptions, for mumps_instance.cc only (the functions
// take the MUMPS structure, so the includer provides dmumps_c.h / smumps_c.h).
//
//   ConfigureLowRank():   low_rank_tolerance > 0 -> ICNTL(35) = 2 (BLR during
//                         the factorization and the solves, factors stored
//                         low-rank), CNTL(7) = tolerance (dropping parameter
//                         of the truncated RRQR, absolute on the scaled J),
//                         KEEP(482) = 3 (see below). ICNTL(35) must be set
//                         before the analysis, CNTL(7) before each
//                         factorization: both are set once, after JOB = -1.
//   ConfigureOutOfCore(): out_of_core -> ICNTL(22) = 1, OOC_TMPDIR a private
//                         ScratchDirectory under out_of_core_directory that the
//                         caller owns and must destroy after JOB = -2 (MUMPS
//                         deletes its files at JOB = -2 and at each new
//                         factorization, not after every failure),
//                         OOC_PREFIX "fcsn".
// Meanings from the MUMPS 5.5 user guide (Debian 12 ships 5.5.1).
#ifndef FCSN_LINALG_MUMPS_MEMORY_OPTIONS_H_
#define FCSN_LINALG_MUMPS_MEMORY_OPTIONS_H_

#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>

#include "linalg/linear_solver.h"
#include "linalg/scratch_directory.h"

namespace fcsn::internal {

template <typename Struc>
void ConfigureLowRank(const LinearSolverOptions& options, Struc* id) {
  if (options.low_rank_tolerance <= 0.0) return;
  id->icntl[35 - 1] = 2;
  using Real = std::remove_reference_t<decltype(id->cntl[0])>;
  id->cntl[7 - 1] = static_cast<Real>(options.low_rank_tolerance);
  // BLR clustering of the front variables: consecutive variables of the
  // elimination order (KEEP(482) = 3, an internal parameter of MUMPS 5.4 and
  // 5.5) instead of the SCOTCH k-way partition that Debian 12's MUMPS 5.5.1
  // (built without METIS) uses by default, which crashes with SCOTCH 7.0.3
  // (SIGSEGV in SCOTCH_graphPart during the analysis, seen on a 24^3 grid).
  id->keep[482 - 1] = 3;
}

template <typename Struc>
LinearSolverStatus ConfigureOutOfCore(
    const LinearSolverOptions& options,
    Struc* id,
    std::unique_ptr<ScratchDirectory>* scratch,
    std::string* message) {
  if (!options.out_of_core) {
    return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
  }
  std::string why;
  *scratch = ScratchDirectory::Create(options.out_of_core_directory, &why);
  if (*scratch && (*scratch)->path().size() >= sizeof(id->ooc_tmpdir)) {
    scratch->reset();
    why = "the path is too long for MUMPS' OOC_TMPDIR";
  }
  if (!*scratch) {
    return linalg_detail::Report(
        LinearSolverStatus::kInvalidInput,
        "LinearSolverOptions::out_of_core_directory: " + why,
        message);
  }
  id->icntl[22 - 1] = 1;
  std::snprintf(
      id->ooc_tmpdir, sizeof(id->ooc_tmpdir), "%s", (*scratch)->path().c_str());
  std::snprintf(id->ooc_prefix, sizeof(id->ooc_prefix), "%s", "fcsn");
  return linalg_detail::Report(LinearSolverStatus::kSuccess, "", message);
}

}  // namespace fcsn::internal

#endif  // FCSN_LINALG_MUMPS_MEMORY_OPTIONS_H_
