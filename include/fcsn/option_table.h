// fcsn/option_table.h: the one list of the settings of a solve.
//
// Every field of SolverOptions and of its nested structs that a caller sets
// by value is one row of the tables below, in field order:
//
//   v.Field(name, &Struct::member, rule, doc)
//
//   name : the field's name; nested rows are reached by a dotted path
//          ("rho.initial_boost": SolverOptions::rho, RhoOptions::initial_boost)
//   rule : what Validate() accepts
//            Range   numbers (double, int, long long): an interval, finite
//                    unless InfinityMeansNone(), plus at most one special
//                    value outside it (Or(-1, "auto"))
//            Choice  enums: every value of the enum's kAll... array, by its
//                    ToString name
//            Flag    bool
//            Text    std::string of at most max_length bytes, no NUL
//   doc  : one line of meaning and units; the rationale of each default
//          stays at the field (fcsn/options.h, fcsn/linear_solver_options.h)
//
// The default of a row is its struct's in-class initializer. Relations
// between fields (min_shrink <= max_shrink) are v.Relation(...) rows, checked
// where they stand. Everything that handles options by field derives from
// these rows: SolverOptions::Validate(), SameOptions(), the MPI fingerprint,
// the CLI's `--set name=value` and `fcsn options`, the Python properties, the
// C API's fcsn_set_option / fcsn_get_option and the options of the JSON
// report. A field added here reaches all of them; a field that is not here
// (callbacks, the stop flag, the log) is set through the struct alone.
// LinearSolverOptions::Validate() stays inline in its header (usable without
// the library); a test holds it to these rows.
#ifndef FCSN_OPTION_TABLE_H_
#define FCSN_OPTION_TABLE_H_

#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "fcsn/linear_solver_options.h"
#include "fcsn/options.h"
#include "fcsn/types.h"

namespace fcsn {

// The accepted values of a number.
struct Range {
  double low = -std::numeric_limits<double>::infinity();
  double high = std::numeric_limits<double>::infinity();
  bool low_open = false;
  bool high_open = false;
  // +infinity is accepted and means "no limit" (time budgets).
  bool infinity_means_none = false;
  // One value outside [low, high] with a meaning of its own (special_name).
  bool has_special = false;
  double special = 0.0;
  const char* special_name = "";

  static constexpr Range Any() { return Range{}; }
  static constexpr Range AtLeast(double a) { return Range{a}; }
  static constexpr Range Above(double a) {
    Range r{a};
    r.low_open = true;
    return r;
  }
  static constexpr Range Closed(double a, double b) { return Range{a, b}; }
  static constexpr Range Open(double a, double b) {
    return Range{a, b, true, true};
  }
  static constexpr Range OpenClosed(double a, double b) {
    return Range{a, b, true, false};
  }
  static constexpr Range ClosedOpen(double a, double b) {
    return Range{a, b, false, true};
  }
  constexpr Range InfinityMeansNone() const {
    Range r = *this;
    r.infinity_means_none = true;
    return r;
  }
  constexpr Range Or(double value, const char* name) const {
    Range r = *this;
    r.has_special = true;
    r.special = value;
    r.special_name = name;
    return r;
  }
};

// The accepted values of an enum: all of kAll... (their ToString names).
template <typename Enum, std::size_t N>
struct ChoiceRule {
  const std::array<Enum, N>* all;
};
template <typename Enum, std::size_t N>
constexpr ChoiceRule<Enum, N> Choice(const std::array<Enum, N>& all) {
  return ChoiceRule<Enum, N>{&all};
}

struct Flag {};

struct Text {
  std::size_t max_length;
};

// OptionFields<Struct>::Visit(v): the rows of Struct, in field order.
template <typename Struct>
struct OptionFields;

template <>
struct OptionFields<RhoOptions> {
  template <typename V>
  static void Visit(V& v) {
    using R = RhoOptions;
    v.Field("rule",
            &R::rule,
            Choice(kAllRhoRules),
            "How rho is computed: 'constant' (value), 'diagonal' (diag(M) "
            "estimate of W_aa), 'exact' (W_aa = H_a^T M^-1 H_a), "
            "'split-exact' (rho_N = 1/W_NN, rho_T = 1/lambda_max(W_TT)).");
    v.Field("value",
            &R::value,
            Range::Above(0),
            "rho of every component for rule 'constant'.");
    v.Field("factor",
            &R::factor,
            Range::Above(0),
            "Multiplies the rule's rho (e.g. 0.5 for more conservative "
            "steps).");
    v.Field("initial_boost",
            &R::initial_boost,
            Range::AtLeast(1),
            "Newton starts with rho times this boost, reduced when the merit "
            "stalls (1: no continuation).");
    v.Field("warm_initial_boost",
            &R::warm_initial_boost,
            Range::AtLeast(1),
            "The initial boost of a solve started from a guess.");
    v.Field("warm_boost_keeps_pieces",
            &R::warm_boost_keeps_pieces,
            Flag{},
            "(AC, JM) The warm boost is reduced until it puts no contact on "
            "its slip piece at the guess that the rule's rho does not.");
    v.Field("tail_error",
            &R::tail_error,
            Range::Above(0),
            "The first iterate whose worst measure is below this (unit-free) "
            "multiplies the boost by tail_boost_factor.");
    v.Field("tail_boost_factor",
            &R::tail_boost_factor,
            Range::AtLeast(1),
            "The tail boost, once per solve (1: off).");
    v.Field("tail_unboost_slips",
            &R::tail_unboost_slips,
            Flag{},
            "From a guess, with the tail boost (AC, JM), contacts slipping "
            "by more than the last step changed keep the rule's rho.");
    v.Field("warm_keeps_settled_slips",
            &R::warm_keeps_settled_slips,
            Flag{},
            "(AC, JM) From a guess after a converged solve, contacts that "
            "ended it at the rule's rho start at it again.");
    v.Field("warm_first_step_keeps_slips",
            &R::warm_first_step_keeps_slips,
            Flag{},
            "(AC, JM) From the last answer, slips that ended it under a "
            "larger rho keep that rho for the first step.");
    v.Field("boost_reduction",
            &R::boost_reduction,
            Range::Above(1),
            "A stall divides the boost by this.");
    v.Field("boost_window",
            &R::boost_window,
            Range::AtLeast(1),
            "Iterations over which a stall is judged.");
    v.Field("boost_stall_ratio",
            &R::boost_stall_ratio,
            Range::OpenClosed(0, 1),
            "Stall: the merit did not drop below this times its value "
            "boost_window iterations earlier.");
  }
};

template <>
struct OptionFields<LineSearchOptions> {
  template <typename V>
  static void Visit(V& v) {
    using L = LineSearchOptions;
    v.Field("type",
            &L::type,
            Choice(kAllLineSearchTypes),
            "'none' takes full Newton steps (the hybrid's NSGS fallback is the "
            "safeguard); the others are monotone or non-monotone searches.");
    v.Field("sufficient_decrease",
            &L::sufficient_decrease,
            Range::Open(0, 0.5),
            "Armijo constant sigma; nominal 1e-4.");
    v.Field("min_shrink",
            &L::min_shrink,
            Range::Open(0, 1),
            "Backtracking: smallest factor alpha is multiplied by.");
    v.Field("max_shrink",
            &L::max_shrink,
            Range::Open(0, 1),
            "Backtracking: largest factor alpha is multiplied by.");
    v.Relation(
        "min_shrink/max_shrink",
        [](const L& l) { return l.min_shrink <= l.max_shrink; },
        "must satisfy min_shrink <= max_shrink");
    v.Field("goldstein_m1",
            &L::goldstein_m1,
            Range::Open(0, 1),
            "Goldstein bracket, Armijo side.");
    v.Field("goldstein_m2",
            &L::goldstein_m2,
            Range::Open(0, 1),
            "Goldstein bracket, other side.");
    v.Relation(
        "goldstein_m1/m2",
        [](const L& l) { return l.goldstein_m1 < l.goldstein_m2; },
        "must satisfy goldstein_m1 < goldstein_m2");
    v.Field("non_monotone_window",
            &L::non_monotone_window,
            Range::AtLeast(1),
            "'non-monotone': compare against the max merit of this many last "
            "iterates.");
    v.Field("max_trials",
            &L::max_trials,
            Range::AtLeast(1),
            "Trial steps per Newton iteration (one residual evaluation "
            "each).");
    v.Field("min_step",
            &L::min_step,
            Range::Open(0, 1),
            "Smallest step length tried; below it the search fails.");
    v.Field("on_failure",
            &L::on_failure,
            Choice(kAllLineSearchFailurePolicies),
            "No acceptable step: 'stop' the solve, 'accept' the last trial, or "
            "'fallback' to NSGS (hybrid; as 'stop' otherwise).");
  }
};

template <>
struct OptionFields<LinearSolverOptions> {
  template <typename V>
  static void Visit(V& v) {
    using L = LinearSolverOptions;
    v.Field("type",
            &L::type,
            Choice(kAllLinearSolverTypes),
            "Backend: 'mumps' (production), 'eigen' (SparseLU, fallback), "
            "'dense' (small test systems).");
    v.Field("ordering",
            &L::ordering,
            Choice(kAllOrderings),
            "Fill-reducing ordering, computed once per pattern.");
    v.Field("adaptive_block_ordering",
            &L::adaptive_block_ordering,
            Flag{},
            "'metis', n + m >= 20000: order J's block graph first (faster "
            "analysis, a few % more flops).");
    v.Field("workspace_relaxation_percent",
            &L::workspace_relaxation_percent,
            Range::Closed(0, 10000),
            "MUMPS ICNTL(14): % added to the estimated workspace.");
    v.Field("max_workspace_retries",
            &L::max_workspace_retries,
            Range::Closed(0, 20),
            "Retries with doubled relaxation after a workspace shortage.");
    v.Field("detect_null_pivots",
            &L::detect_null_pivots,
            Flag{},
            "MUMPS null-pivot detection: a singular J is reported, never "
            "solved with fixed-up factors.");
    v.Field("null_pivot_threshold",
            &L::null_pivot_threshold,
            Range::ClosedOpen(0, 1),
            "Relative null-pivot threshold (CNTL(3)); 0 keeps MUMPS' default.");
    v.Field("precision",
            &L::precision,
            Choice(kAllFactorizationPrecisions),
            "MUMPS arithmetic: 'double', 'mixed' (single-precision LU refined "
            "in double), 'auto' (mixed from 1e7 flops).");
    v.Field("refinement_tolerance",
            &L::refinement_tolerance,
            Range::Closed(1e-16, 1e-6),
            "Mixed precision: target backward error.");
    v.Field("max_refinement_steps",
            &L::max_refinement_steps,
            Range::Closed(1, 100),
            "Mixed precision: refinement steps before falling back to double.");
    v.Field("mpi_communicator",
            &L::mpi_communicator,
            Range::Any(),
            "MPI flavour only: Fortran handle of the communicator "
            "(MPI_Comm_c2f); -987654 (kMpiCommWorld) means MPI_COMM_WORLD.");
    v.Field("low_rank_tolerance",
            &L::low_rank_tolerance,
            Range::ClosedOpen(0, 1),
            "MUMPS block low-rank compression: 0 off, else its relative "
            "tolerance (1e-10 to 1e-6 usual).");
    v.Field("out_of_core",
            &L::out_of_core,
            Flag{},
            "MUMPS writes the factors to files (out_of_core_directory).");
    v.Field("out_of_core_directory",
            &L::out_of_core_directory,
            Text{LinearSolverOptions::kMaxOutOfCoreDirectoryLength},
            "Parent folder of the out-of-core files; '' is the system's "
            "temporary folder.");
  }
};

template <>
struct OptionFields<NsgsOptions> {
  template <typename V>
  static void Visit(V& v) {
    using N = NsgsOptions;
    v.Field("local_solver",
            &N::local_solver,
            Choice(kAllLocalSolverTypes),
            "One-contact solver: 'ac' (Alart-Curnier Newton) or 'fp-vi-upk' "
            "(natural-map fixed point).");
    v.Field("max_sweeps",
            &N::max_sweeps,
            Range::AtLeast(0),
            "Sweep budget of a pure NSGS solve.");
    v.Field("error_check_frequency",
            &N::error_check_frequency,
            Range::AtLeast(1),
            "Compute the true error every this many sweeps.");
    v.Field("local_max_iterations",
            &N::local_max_iterations,
            Range::AtLeast(1),
            "Iterations of the one-contact solver.");
    v.Field("local_tolerance",
            &N::local_tolerance,
            Range::Open(0, 1),
            "Relative tolerance of the one-contact solver.");
    v.Field("fp_projections",
            &N::fp_projections,
            Range::AtLeast(1),
            "'fp-vi-upk': projections per contact per sweep.");
  }
};

template <>
struct OptionFields<HybridOptions> {
  template <typename V>
  static void Visit(V& v) {
    using H = HybridOptions;
    v.Field("warm_sweeps",
            &H::warm_sweeps,
            Range::AtLeast(0),
            "NSGS sweeps before the first Newton iteration.");
    v.Field("warm_sweeps_with_guess",
            &H::warm_sweeps_with_guess,
            Range::AtLeast(0),
            "The same when the solve is given a guess.");
    v.Field("warm_contraction_window",
            &H::warm_contraction_window,
            Range::AtLeast(0),
            "The warm start ends when NSGS contracts poorly over this many "
            "sweeps; 0 disables that test.");
    v.Field("warm_contraction_ratio",
            &H::warm_contraction_ratio,
            Range::OpenClosed(0, 1),
            "Poor contraction: the worst measure did not drop below this "
            "ratio over the window.");
    v.Field("stall_window",
            &H::stall_window,
            Range::AtLeast(1),
            "Newton stalls when its merit has not dropped below stall_ratio "
            "times its value this many iterations ago.");
    v.Field(
        "stall_ratio", &H::stall_ratio, Range::Open(0, 1), "See stall_window.");
    v.Field("fallback_sweeps",
            &H::fallback_sweeps,
            Range::AtLeast(1),
            "NSGS sweeps at each fallback before Newton restarts.");
    v.Field("max_fallbacks",
            &H::max_fallbacks,
            Range::AtLeast(0),
            "Newton -> NSGS -> Newton fallbacks allowed per solve.");
    v.Field("delassus_budget_per_nonzero",
            &H::delassus_budget_per_nonzero,
            Range::AtLeast(0),
            "W is formed only if its cost in entries is at most this times "
            "nnz(M) + nnz(H) (or delassus_min_budget).");
    v.Field("delassus_min_budget",
            &H::delassus_min_budget,
            Range::AtLeast(0),
            "Cost of W (entries) always allowed.");
  }
};

template <>
struct OptionFields<SolverOptions> {
  template <typename V>
  static void Visit(V& v) {
    using O = SolverOptions;
    v.Field("solver",
            &O::solver,
            Choice(kAllSolverTypes),
            "Algorithm: 'nsn' (semismooth Newton), 'nsgs' (Gauss-Seidel), "
            "'hybrid' (NSGS warm start, Newton, NSGS fallback).");
    v.Field("formulation",
            &O::formulation,
            Choice(kAllFormulations),
            "Per-contact residual of Newton: Alart-Curnier, Jean-Moreau, "
            "natural map, Fischer-Burmeister.");
    v.Field("tolerance",
            &O::tolerance,
            Range::Open(0, 1),
            "Converged iff max(e_cone, e_dual, e_comp, e_eq) <= tolerance; "
            "unit-free, nominal 1e-4 to 1e-12.");
    v.Field("max_iterations",
            &O::max_iterations,
            Range::AtLeast(0),
            "Newton iterations (one factorization each).");
    v.Field("time_limit_seconds",
            &O::time_limit_seconds,
            Range::Above(0).InfinityMeansNone(),
            "Wall-clock budget of one solve, setup included, in seconds.");
    v.Field("singular_regularization",
            &O::singular_regularization,
            Range::ClosedOpen(0, 1),
            "Weight of the proximal term added when J is singular (unit-free; "
            "0 disables it); nominal 1e-8 to 1e-4.");
    v.Field("cold_start",
            &O::cold_start,
            Choice(kAllColdStarts),
            "Starting point without a guess (or with an all-zero one); 'auto' "
            "closes the resting and approaching contacts (at the free flight "
            "when it slides none of them).");
    v.Field("krylov_reuse_iterations",
            &O::krylov_reuse_iterations,
            Range::Closed(0, 100).Or(kAutoKrylovReuse, "kAutoKrylovReuse"),
            "FGMRES iterations on the previous factors before a new "
            "factorization: -1 (by size), 0 off, or a budget.");
    v.Field("setup_threads",
            &O::setup_threads,
            Range::Closed(1, 2),
            "Threads of the setup of a problem with n >= 1000.");
    v.Field("record_history",
            &O::record_history,
            Flag{},
            "Keep one IterationRecord per iteration in the summary.");
    v.Group("rho", &O::rho);
    v.Group("line_search", &O::line_search);
    v.Group("linear_solver", &O::linear_solver);
    v.Group("nsgs", &O::nsgs);
    v.Group("hybrid", &O::hybrid);
  }
};

// Calls f(name, access, rule, doc) for every row reachable from Root, nested
// groups included, in field order, with the dotted name; access(root) is the
// field of root (const or not, as root). Relations are passed to
// relation(prefix, name, check, requirement), where check(root) is true when
// they hold.
template <typename Root, typename F, typename R>
void ForEachOption(F&& f, R&& relation);
template <typename Root, typename F>
void ForEachOption(F&& f) {
  ForEachOption<Root>(f, [](auto&&...) {});
}

// The text of a rule: "finite and >= 1", "in (0, 1]", "one of: ac, jm".
std::string Describe(const Range& range, bool integer);
std::string Describe(const Flag&);
std::string Describe(const Text& text);
template <typename Enum, std::size_t N>
std::string Describe(const ChoiceRule<Enum, N>& rule) {
  return "one of: " + NamesOf(*rule.all);
}

// One row as text, for listings (`fcsn options`, Python, C).
struct OptionInfo {
  std::string name;           // dotted: "rho.initial_boost"
  std::string type;           // "real", "integer", "flag", "choice", "text"
  std::string range;          // Describe(rule)
  std::string default_value;  // GetOption's text of SolverOptions()
  std::string doc;
};
// Every row of SolverOptions, in field order.
std::vector<OptionInfo> SolverOptionTable();

// Sets the row `name` of *options from text (numbers in C syntax, flags
// true/false/1/0, choices by name) or from a number (numbers and flags).
// Returns "" on success, else one sentence (unknown name, not a value of the
// row's type); the range is Validate()'s to check.
std::string SetOption(SolverOptions* options,
                      std::string_view name,
                      std::string_view text);
std::string SetOption(SolverOptions* options,
                      std::string_view name,
                      double value);
// The value of row `name` as text (doubles in the shortest form that
// SetOption reads back as the same bits) or as a number (numbers and flags).
// "" on success, else one sentence.
std::string GetOption(const SolverOptions& options,
                      std::string_view name,
                      std::string* text);
std::string GetOption(const SolverOptions& options,
                      std::string_view name,
                      double* value);

// Every row equal (the callbacks, stop flag and log are not compared).
bool SameOptions(const SolverOptions& a, const SolverOptions& b);
bool SameOptions(const LinearSolverOptions& a, const LinearSolverOptions& b);

namespace option_table_internal {

// A visitor of OptionFields<Struct> that forwards the rows with the dotted
// prefix and an accessor from Root.
template <typename Root, typename Get, typename F, typename R>
struct Flatten {
  F& f;
  R& relation;
  std::string prefix;
  Get get;  // get(root) -> the current struct

  template <typename S, typename T, typename Rule>
  void Field(const char* name,
             T S::*member,
             const Rule& rule,
             const char* doc) {
    auto access = [ g = get, member ](auto& root) -> auto& {
      return g(root).*member;
    };
    f(prefix + name, access, rule, doc);
  }
  template <typename Check>
  void Relation(const char* name, Check check, const char* requirement) {
    relation(
        prefix,
        name,
        [g = get, check](const Root& root) { return check(g(root)); },
        requirement);
  }
  template <typename S, typename Sub>
  void Group(const char* name, Sub S::*member) {
    auto sub_get = [ g = get, member ](auto& root) -> auto& {
      return g(root).*member;
    };
    Flatten<Root, decltype(sub_get), F, R> sub{
        f, relation, prefix + name + ".", sub_get};
    OptionFields<Sub>::Visit(sub);
  }
};

}  // namespace option_table_internal

template <typename Root, typename F, typename R>
void ForEachOption(F&& f, R&& relation) {
  auto identity = [](auto& root) -> auto& { return root; };
  option_table_internal::Flatten<Root,
                                 decltype(identity),
                                 std::remove_reference_t<F>,
                                 std::remove_reference_t<R>>
      top{f, relation, "", identity};
  OptionFields<Root>::Visit(top);
}

}  // namespace fcsn

#endif  // FCSN_OPTION_TABLE_H_
