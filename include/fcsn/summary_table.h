// fcsn/summary_table.h: the one list of the reported fields of a solve.
//
// Every number of SolverSummary (and of its Timings) that a report shows is
// one row, in the order reports print them:
//
//   v.Section(title)                      starts a group of rows: "counters",
//                                         "measures", "factors"
//   v.Field(name, &Struct::member, doc)   name: the field's name (the JSON
//                                         key and the Python attribute);
//                                         doc: one line of meaning and units
//   v.Group(name, &Struct::member)        the rows of a nested struct
//                                         (timings), under their own title
//
// SolverSummary::FullReport(), the JSON report of `fcsn solve --json` and the
// Python attributes of fcsn.SolverSummary and fcsn.Timings derive from these
// rows, so a field added here reaches all three. status, message and history
// are reported on their own (a status name, a sentence, a table).
#ifndef FCSN_SUMMARY_TABLE_H_
#define FCSN_SUMMARY_TABLE_H_

#include "fcsn/summary.h"

namespace fcsn {

template <typename Struct>
struct SummaryFields;

template <>
struct SummaryFields<Timings> {
  template <typename V>
  static void Visit(V& v) {
    using T = Timings;
    v.Field("total", &T::total, "The whole call, seconds.");
    v.Field("setup", &T::setup, "Pattern of J, rho, q_free, Delassus data.");
    v.Field("analysis",
            &T::analysis,
            "Symbolic factorizations, ordering included.");
    v.Field("factorization", &T::factorization, "Numeric factorizations.");
    v.Field("linear_solve", &T::linear_solve, "Triangular solves.");
    v.Field("residual_jacobian",
            &T::residual_jacobian,
            "G(z) and the values of J, outside the line search.");
    v.Field("line_search", &T::line_search, "Trial residual evaluations.");
    v.Field("nsgs", &T::nsgs, "NSGS sweeps (hybrid and pure NSGS).");
    v.Field("error_measures", &T::error_measures, "Error-measure evaluations.");
  }
};

template <>
struct SummaryFields<SolverSummary> {
  template <typename V>
  static void Visit(V& v) {
    using S = SolverSummary;
    v.Section("counters");
    v.Field("iterations", &S::iterations, "Newton iterations.");
    v.Field("nsgs_sweeps", &S::nsgs_sweeps, "NSGS sweeps.");
    v.Field("line_search_trials",
            &S::line_search_trials,
            "Residual evaluations of all line searches.");
    v.Field("analyses",
            &S::analyses,
            "Symbolic factorizations in this solve (0 when a Solver reuses "
            "the analysis of an unchanged pattern).");
    v.Field("factorizations",
            &S::factorizations,
            "Numeric factorizations in this solve.");
    v.Field("linear_solves", &S::linear_solves, "Linear solves.");
    v.Field("regularized_factorizations",
            &S::regularized_factorizations,
            "Refactorizations of J + delta E after a singular J.");
    v.Field("reused_factor_directions",
            &S::reused_factor_directions,
            "Newton directions found by FGMRES on previous factors.");
    v.Field("krylov_iterations",
            &S::krylov_iterations,
            "Inner FGMRES iterations, all runs.");
    v.Field("early_factorizations_used",
            &S::early_factorizations_used,
            "0 or 1: the first direction used J's early factorization.");
    v.Field("fallbacks", &S::fallbacks, "Newton -> NSGS hand-overs (hybrid).");
    v.Field("rho_reductions",
            &S::rho_reductions,
            "rho continuation steps (RhoOptions).");
    v.Field("line_search_safeguards",
            &S::line_search_safeguards,
            "Restarts with an Armijo search after a stall at the final rho.");
    v.Field("accepted_line_search_failures",
            &S::accepted_line_search_failures,
            "Steps taken although the line search failed (on_failure = "
            "'accept').");
    v.Field("delassus_entries",
            &S::delassus_entries,
            "Entries of the Delassus operator W stored for NSGS (0: not "
            "formed).");
    v.Field("delassus_over_budget",
            &S::delassus_over_budget,
            "The hybrid declined to form W (HybridOptions budget).");
    v.Field("refinement_steps",
            &S::refinement_steps,
            "Mixed precision: single-precision solves of the refinement.");
    v.Field("precision_fallbacks",
            &S::precision_fallbacks,
            "Mixed precision: factorizations redone in double precision.");
    v.Section("measures");
    v.Field("e_cone", &S::e_cone, "e_cone of the returned point (unit-free).");
    v.Field("e_dual", &S::e_dual, "e_dual of the returned point (unit-free).");
    v.Field("e_comp", &S::e_comp, "e_comp of the returned point (unit-free).");
    v.Field("e_eq", &S::e_eq, "e_eq of the returned point (unit-free).");
    v.Field("e_nat", &S::e_nat, "Natural-map residual; reported only.");
    v.Field("siconos_error",
            &S::siconos_error,
            "Siconos' gfc3d_compute_error value, for comparison only.");
    v.Field("velocity_scale",
            &S::velocity_scale,
            "s_u, the velocity scale of e_dual and e_comp (velocity units).");
    v.Field("velocity_floor",
            &S::velocity_floor,
            "s_eps, the round-off floor of s_u (velocity units).");
    v.Field("floor_from_diagonal",
            &S::floor_from_diagonal,
            "s_eps came from diag(M): M was not regular.");
    v.Section("factors");
    v.Field("ordering_used",
            &S::ordering_used,
            "The fill-reducing ordering the linear solver used.");
    v.Field("last_factorization_flops",
            &S::last_factorization_flops,
            "Flops of the last factorization (MUMPS RINFOG(3)).");
    v.Field("last_factorization_effective_flops",
            &S::last_factorization_effective_flops,
            "The same with block low-rank compression (RINFOG(14)).");
    v.Field("factor_entries",
            &S::factor_entries,
            "Entries of the L and U factors (INFOG(29)).");
    v.Field("compressed_factor_entries",
            &S::compressed_factor_entries,
            "Factor entries after BLR compression (INFOG(35)).");
    v.Field("estimated_memory_mb",
            &S::estimated_memory_mb,
            "MUMPS' analysis estimate of its memory, MB (10^6 bytes).");
    v.Field("factorization_memory_mb",
            &S::factorization_memory_mb,
            "Memory the last factorization used, MB.");
    v.Field("out_of_core_disk_mb",
            &S::out_of_core_disk_mb,
            "Out-of-core factor files written, MB (0 in-core).");
    v.Group("timings", &S::timings);
  }
};

}  // namespace fcsn

#endif  // FCSN_SUMMARY_TABLE_H_
